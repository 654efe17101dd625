/*
 * test_grow.c - RRD files that grow (issue 14), checked exactly:
 *
 *  1. grow.c on a real file: every row of every archive keeps its time
 *     and value (rrdtool dump before and after: the grown file has the
 *     old rows, identical, and only unknown rows besides), the header
 *     state (last update, the consolidations in progress) is unchanged,
 *     and the same updates applied afterwards to the old and the grown
 *     file give the same rows: no consolidation was disturbed.
 *  2. the writer: the same samples written to a set that starts at a
 *     20-second span (it grows five times) and to one that never grows
 *     read back the same, every archive, and export the same CSV.
 *  3. the archive sizes of layout.h: the first span, the caps, doubling.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <rrd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../logs/csv.h"
#include "../../logs/grow.h"
#include "../../logs/layout.h"
#include "../../logs/logset.h"
#include "tap.h"

static char scratch[] = "/tmp/perflog-grow-XXXXXX";
static time_t t0;

static double value(int i, int k)
{
	if ((i + k) % 17 == 0)
		return NAN;
	return (double)((i * 31 + k * 7) % 101) + k * 0.5;
}

/* A set of Processor(_Total) (4 data sources) and System (2), n samples
 * at t0 + i + 0.25. */
static int write_set(const char *name, unsigned long first_span, int n)
{
	struct logset_options opt = {
		.parent = scratch, .name = name, .interval = 1,
		.retention = 3600, .start = t0, .batch = 1,
		.first_span = first_span,
	};
	struct logset_writer *w;
	struct instance_values inst[2];
	struct sample s = { .inst = inst, .cap = 2, .n = 2 };
	int cpu[4] = { 0, 1, 2, 3 }, sys[2] = { 0, 1 };
	struct perr e;
	int bad = 0;

	if (logset_create(&opt, &w, &e) < 0 ||
	    logset_add_instance(w, OBJ_PROCESSOR, "_Total", cpu, 4, &e) < 0 ||
	    logset_add_instance(w, OBJ_SYSTEM, "", sys, 2, &e) < 0) {
		printf("# %s\n", e.msg);
		return -1;
	}
	inst[0].object = OBJ_PROCESSOR;
	strcpy(inst[0].instance, "_Total");
	inst[1].object = OBJ_SYSTEM;
	inst[1].instance[0] = '\0';
	for (int i = 1; i <= n; i++) {
		for (int k = 0; k < 4; k++)
			inst[0].v[k] = fmin(value(i, k), 100);
		for (int k = 0; k < 2; k++)
			inst[1].v[k] = value(i, k + 4) * 100;
		if (logset_write_sample(w, (double)t0 + i + 0.25, &s, &e) < 0 &&
		    bad++ == 0)
			printf("# sample %d: %s\n", i, e.msg);
	}
	if (logset_close_writer(w, (double)t0 + n + 0.25, &e) < 0) {
		printf("# %s\n", e.msg);
		return -1;
	}
	return bad ? -1 : 0;
}

/* ---- rrdtool dump, parsed: per archive, "time row" lines; the rest of
 * the text (header, consolidations in progress) with rows and positions
 * taken out ---- */

struct dump {
	char *rows[8];		/* per archive: "TIME <v>..</v>\n" lines */
	char *rest;
};

static char *append(char *s, const char *add, size_t n)
{
	size_t l = s ? strlen(s) : 0;
	char *r = realloc(s, l + n + 1);

	memcpy(r + l, add, n);
	r[l + n] = '\0';
	return r;
}

static int load_dump(const char *rrd, struct dump *d)
{
	char out[600], line[4096];
	FILE *f;
	int rra = -1;

	memset(d, 0, sizeof(*d));
	snprintf(out, sizeof(out), "%s/dump.xml", scratch);
	rrd_clear_error();
	if (rrd_dump_r(rrd, out) != 0) {
		printf("# dump %s: %s\n", rrd, rrd_get_error());
		return -1;
	}
	f = fopen(out, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *row = strstr(line, "<row>"), *slash = strstr(line, " / ");

		if (strstr(line, "<rra>"))
			rra++;
		if (row && slash && rra >= 0 && rra < 8) {
			char buf[4200];
			long t = strtol(slash + 3, NULL, 10);
			int n = snprintf(buf, sizeof(buf), "%ld %s", t, row);

			d->rows[rra] = append(d->rows[rra], buf, (size_t)n);
		} else if (!strstr(line, "<rows>") && !strstr(line, "<cur_row>")) {
			d->rest = append(d->rest, line, strlen(line));
		}
	}
	if (f)
		fclose(f);
	return f ? 0 : -1;
}

static void free_dump(struct dump *d)
{
	for (int i = 0; i < 8; i++)
		free(d->rows[i]);
	free(d->rest);
}

/* Every row of a is in b, identical; b's other rows are all NaN. */
static int rows_kept(const char *a, const char *b, int *extra_known)
{
	const char *p;
	int missing = 0;

	*extra_known = 0;
	for (p = a; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
		char *line = strndup(p, n);

		if (!b || !strstr(b, line))
			missing++;
		free(line);
		p += n;
	}
	for (p = b; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
		char *line = strndup(p, n);

		if ((!a || !strstr(a, line)) && strstr(line, "<v>") &&
		    strstr(line, "NaN") == NULL)
			(*extra_known)++;
		free(line);
		p += n;
	}
	return missing;
}

static void compare(const char *what, const char *old_rrd,
		    const char *new_rrd)
{
	struct dump a, b;
	int missing = 0, extra = 0;

	if (load_dump(old_rrd, &a) < 0 || load_dump(new_rrd, &b) < 0) {
		OK(0, what);
		return;
	}
	for (int i = 0; i < LAYOUT_NRRA; i++) {
		int x;

		missing += rows_kept(a.rows[i], b.rows[i], &x);
		extra += x;
	}
	EQ_INT(missing, 0, what);
	EQ_INT(extra, 0, "  and the grown file's other rows are unknown");
	OK(a.rest && b.rest && !strcmp(a.rest, b.rest),
	   "  header, last update and consolidations in progress identical");
	free_dump(&a);
	free_dump(&b);
}

static unsigned long rows_of(const char *rrd, int rra)
{
	char key[32];
	unsigned long n = 0;
	rrd_info_t *info = rrd_info_r(rrd), *p;

	snprintf(key, sizeof(key), "rra[%d].rows", rra);
	for (p = info; p; p = p->next)
		if (!strcmp(p->key, key))
			n = p->value.u_cnt;
	rrd_info_free(info);
	return n;
}

static int copy_file(const char *from, const char *to)
{
	char cmd[1500];

	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", from, to);
	return system(cmd);
}

/* The same n rows (whole seconds after last) into both files. */
static void update_both(const char *a, const char *b, time_t last, int n)
{
	char lines[200][96];
	const char *argv[200];
	int rc;

	for (int i = 0; i < n && i < 200; i++) {
		snprintf(lines[i], sizeof(lines[i]), "%ld:%g:20:%s:%g",
			 (long)(last + i + 1), (double)(i * 7 % 100),
			 i % 13 ? "30" : "U", 40.0 + i % 7);
		argv[i] = lines[i];
	}
	rc = rrd_updatex_r(a, NULL, 0, n, argv);
	rc |= rrd_updatex_r(b, NULL, 0, n, argv);
	OK(rc == 0, "the same updates go into the old and the grown file");
}

static void store(void *ctx, const struct grow_result *r)
{
	*(struct grow_result *)ctx = *r;
}

static void grow_one_file(void)
{
	char dir[600], rrd[700], old[700];
	struct grower g;
	struct grow_job j;

	if (write_set("one", 600, 400) < 0) {
		OK(0, "set for growing written");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/one", scratch);
	snprintf(rrd, sizeof(rrd), "%s/Processor-_Total.rrd", dir);
	snprintf(old, sizeof(old), "%s/old.rrd", scratch);
	EQ_INT(rows_of(rrd, 0), 600, "first size: 600 full-resolution rows");
	EQ_INT(rows_of(rrd, 1), 11, "  and 11 one-minute rows");
	copy_file(rrd, old);

	memset(&g, 0, sizeof(g));
	g.dfd = open(dir, O_RDONLY | O_DIRECTORY);
	g.dir = dir;
	g.layout.step = 1;
	g.layout.retention = 3600;
	g.fd = -1;
	memset(&j, 0, sizeof(j));
	j.kind = GROW_RESIZE;
	strcpy(j.name, "Processor-_Total.rrd");
	j.span = 1200;
	{
		struct perr e;
		struct grow_result r = { 0 };

		if (grow_start(&g, &j, 1, &e) < 0)
			printf("# %s\n", e.msg);
		grow_poll(&g, 1, store, &r);
		OK(r.ok, "the worker reports the growth done");
		if (!r.ok)
			printf("# %s\n", r.msg);
	}
	EQ_INT(rows_of(rrd, 0), 1200, "grown: 1200 full-resolution rows");
	EQ_INT(rows_of(rrd, 1), 21, "  21 one-minute rows");
	EQ_INT(rows_of(rrd, 4), 2, "  the one-hour archive had enough");
	compare("every row of every archive kept, same time, same value", old,
		rrd);
	{
		time_t last = rrd_last_r(rrd);

		update_both(old, rrd, last, 150);
		compare("after the same 150 updates: the same rows", old, rrd);
	}
	{
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "ls -a '%s' | grep -q '^\\.grow'", dir);
		OK(system(cmd) != 0, "no work directory left");
	}
	close(g.dfd);
}

static void agree_with_never_grown(void)
{
	static const char *const cfs[] = { "AVERAGE", "MIN", "MAX" };
	struct logset *a, *b;
	struct perr e;
	char da[600], db[600];
	int diff = 0, known = 0;

	if (write_set("grew", 20, 300) < 0 || write_set("never", 3600, 300) < 0) {
		OK(0, "two sets written");
		return;
	}
	snprintf(da, sizeof(da), "%s/grew", scratch);
	snprintf(db, sizeof(db), "%s/never", scratch);
	{
		char rrd[700];

		snprintf(rrd, sizeof(rrd), "%s/System.rrd", da);
		EQ_INT(rows_of(rrd, 0), 640, "the growing set's files went 20 -> 640 s");
	}
	if (logset_open(da, &a, &e) < 0 || logset_open(db, &b, &e) < 0) {
		OK(0, e.msg);
		return;
	}
	for (int c = 0; c < 3; c++)
		for (unsigned long res = 1; res <= 60; res += 59) {
			size_t idx[6] = { 0, 1, 2, 3, 4, 5 };
			struct logset_series sa, sb;

			if (logset_fetch(a, idx, 6, t0 + 1, t0 + 300, cfs[c], res,
					 &sa, &e) < 0 ||
			    logset_fetch(b, idx, 6, t0 + 1, t0 + 300, cfs[c], res,
					 &sb, &e) < 0) {
				printf("# %s\n", e.msg);
				diff++;
				continue;
			}
			if (sa.rows != sb.rows || sa.first != sb.first ||
			    sa.step != sb.step)
				diff++;
			for (size_t i = 0; i < sa.rows * 6 && sa.rows == sb.rows; i++) {
				double x = sa.values[i], y = sb.values[i];

				known += !isnan(x);
				if (!(isnan(x) && isnan(y)) && x != y)
					diff++;
			}
			logset_series_free(&sa);
			logset_series_free(&sb);
		}
	EQ_INT(diff, 0, "grown and never-grown sets: every archive fetches the same");
	OK(known > 1500, "with known values in them");
	{
		char pa[700], pb[700];
		FILE *fa, *fb;

		snprintf(pa, sizeof(pa), "%s/grew.csv", scratch);
		snprintf(pb, sizeof(pb), "%s/never.csv", scratch);
		fa = fopen(pa, "w");
		fb = fopen(pb, "w");
		OK(fa && fb && csv_export(a, fa, pa, 0, 0, &e) == 0 &&
		   csv_export(b, fb, pb, 0, 0, &e) == 0, "both export");
		if (fa)
			fclose(fa);
		if (fb)
			fclose(fb);
		{
			char cmd[1500];

			snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", pa, pb);
			OK(system(cmd) == 0, "and their CSV exports are identical");
		}
	}
	logset_close(a);
	logset_close(b);
}

/* An instance that vanishes at sample 11 (and, with back, returns at
 * 200): its file is not grown while it is gone, keeps what it logged,
 * and grows again when it returns. */
static void vanished(const char *name, int back)
{
	struct logset_options opt = {
		.parent = scratch, .name = name, .interval = 1,
		.retention = 3600, .start = t0, .batch = 1, .first_span = 20,
	};
	struct logset_writer *w;
	struct instance_values inst[2];
	struct sample s = { .inst = inst, .cap = 2 };
	int cpu[4] = { 0, 1, 2, 3 };
	struct logset *ls;
	struct logset_series ser;
	struct perr e;
	char dir[600], rrd[700];
	size_t idx[2];
	int bad = 0;

	if (logset_create(&opt, &w, &e) < 0 ||
	    logset_add_instance(w, OBJ_PROCESSOR, "_Total", cpu, 4, &e) < 0 ||
	    logset_add_instance(w, OBJ_PROCESSOR, "0", cpu, 4, &e) < 0) {
		OK(0, e.msg);
		return;
	}
	for (int i = 1; i <= 300; i++) {
		int present = i <= 10 || (back && i >= 200);

		s.n = present ? 2 : 1;
		inst[0].object = inst[1].object = OBJ_PROCESSOR;
		strcpy(inst[0].instance, "_Total");
		strcpy(inst[1].instance, "0");
		for (int k = 0; k < 4; k++)
			inst[0].v[k] = inst[1].v[k] = (double)(i % 50);
		/* a flush waits for the worker: its jobs then end within
		 * the sample, as they do in real time */
		if ((logset_write_sample(w, (double)t0 + i + 0.25, &s, &e) < 0 ||
		     logset_flush(w, &e) < 0) && bad++ == 0)
			printf("# %d: %s\n", i, e.msg);
	}
	if (logset_close_writer(w, (double)t0 + 300.25, &e) < 0)
		printf("# close: %s\n", e.msg);
	snprintf(dir, sizeof(dir), "%s/%s", scratch, name);
	snprintf(rrd, sizeof(rrd), "%s/Processor-0.rrd", dir);
	EQ_INT(bad, 0, "300 samples written");
	if (back)
		EQ_INT(rows_of(rrd, 0), 640,
		       "back: the file of the instance that returned grew with the set");
	else
		EQ_INT(rows_of(rrd, 0), 40,
		       "gone: not grown past the step after it vanished");
	snprintf(rrd, sizeof(rrd), "%s/Processor-_Total.rrd", dir);
	EQ_INT(rows_of(rrd, 0), 640, "  while the other file grew to 640 s");
	if (logset_open(dir, &ls, &e) < 0) {
		OK(0, e.msg);
		return;
	}
	idx[0] = (size_t)logset_find(ls, "Processor(0)\\% Processor Time");
	idx[1] = (size_t)logset_find(ls, "Processor(_Total)\\% Processor Time");
	if (logset_fetch(ls, idx, 2, t0 + 1, t0 + 300, "AVERAGE", 1, &ser,
			 &e) == 0) {
		int kept = 0, after = 0, total = 0;

		for (size_t r = 0; r < ser.rows; r++) {
			time_t t = ser.first + (time_t)r;
			double v = ser.values[r * 2];

			kept += t >= t0 + 2 && t <= t0 + 10 && !isnan(v);
			after += t > t0 + 11 && t < t0 + 200 && !isnan(v);
			total += t >= t0 + 201 && !isnan(v);
		}
		EQ_INT(kept, 9, "what it logged before vanishing is all there");
		EQ_INT(after, 0, "unknown while it was gone");
		EQ_INT(total, back ? 100 : 0,
		       back ? "known again from its return" : "and after");
		logset_series_free(&ser);
	} else {
		OK(0, e.msg);
	}
	logset_close(ls);
}

static void layout_sizes(void)
{
	struct layout l = { .step = 1, .retention = 2 * 86400 };
	struct layout l5 = { .step = 5, .retention = 2 * 86400 };

	EQ_INT(layout_rows(&l, 3600, 0), 3600, "an hour at 1 s: 3600 rows");
	EQ_INT(layout_rows(&l, 3600, 2), 61, "  61 one-minute rows");
	EQ_INT(layout_rows(&l, 3600, 5), 2, "  2 one-hour rows");
	EQ_INT(layout_rows(&l, 1UL << 30, 0), 172800, "full resolution stops at retention");
	EQ_INT(layout_rows(&l, 1UL << 30, 1), 43201, "one minute at 30 days");
	EQ_INT(layout_rows(&l, 1UL << 30, 6), 8761, "one hour at a year");
	EQ_INT(layout_rows(&l5, 3600, 0), 720, "at 5 s: 720 rows an hour");
	EQ_INT(layout_span_for(&l, 3600, 2699), 3600, "no growth before 3/4");
	EQ_INT(layout_span_for(&l, 3600, 2700), 7200, "doubles at 3/4");
	EQ_INT(layout_span_for(&l, 3600, 86399), 3600 * 32,
	       "just under a day old: 32 hours");
	EQ_INT(layout_span_for(&l, 3600, 86400), 3600 * 64,
	       "a day old: 64 hours (3/4 of 32 h is a day)");
	EQ_INT(layout_span_for(&l, 3600, 1e9), layout_max_span(&l),
	       "never past the year");
}

int main(void)
{
	t0 = time(NULL) - 2 * 86400;
	t0 -= t0 % 3600;
	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		return 1;
	}
	layout_sizes();
	grow_one_file();
	agree_with_never_grown();
	vanished("gone", 0);
	vanished("back", 1);
	if (!getenv("KEEP") && rmtree(scratch) != 0)
		printf("# could not remove %s\n", scratch);
	return done_testing();
}
