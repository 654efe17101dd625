/*
 * test_logset.c - a log set written and read back for real: librrd files
 * created under /tmp, 100 synthetic samples (with unknowns, an instance
 * absent for a while, an instance added halfway) stamped a day in the past
 * so nothing waits on the clock; then read back with logset_fetch and with
 * stock `rrdtool fetch` / `rrdtool info`, exported as CSV, and damaged
 * (missing and truncated RRD files, broken metadata). Finally the same
 * through a real rrdcached started on a socket under the scratch dir.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <rrd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../commands.h"
#include "../../common/rmtree.h"
#include "../../logs/csv.h"
#include "../../logs/logset.h"
#include "rrdcached.h"
#include "tap.h"

#define NSAMPLES 100

/* A plain CSV row's time as export writes it ("2026-11-30 04:50:15",
 * UTC: logs/csv.c), and back. */
static void csv_time(char *buf, size_t n, time_t t)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y-%m-%d %H:%M:%S", &tm);
}

static int csv_time_parse(const char *s, time_t *t)
{
	char iso[40];

	if (strlen(s) != 19 || s[10] != ' ')
		return -1;
	snprintf(iso, sizeof(iso), "%.10sT%sZ", s, s + 11);
	return util_parse_iso8601(iso, t, NULL);
}

static char scratch[] = "/tmp/perflog-logset-XXXXXX";
static time_t start;

/* The value written for instance/counter k at sample i (1..NSAMPLES);
 * NAN for the unknowns we plant. */
static double cpu_value(int i, int k)
{
	if (k == 1 && i % 10 == 3)
		return NAN;
	return (double)((i * 7 + k * 13) % 100) + 0.25;
}

static double mem_value(int i, int k)
{
	if (k == 1 && i == 50)
		return NAN;
	return k == 0 ? 1e9 + i * 4096.0 : 5e8 - i * 1.5;
}

static double disk_value(int i, int k)
{
	if (i >= 20 && i < 30)
		return NAN;	/* sda missing from those samples */
	return k == 0 ? (double)(i % 100) : i * 1000.5 + k;
}

static double cpu0_value(int i, int k)
{
	if (i <= 50)
		return NAN;	/* instance added after sample 50 */
	return (double)((i + k) % 50);
}

static void fill_sample(struct sample *s, int i)
{
	struct instance_values *v;

	s->n = 0;
	v = &s->inst[s->n++];
	v->object = OBJ_MEMORY;
	strcpy(v->instance, "");
	for (int k = 0; k < CATALOG_MAX_PER_OBJECT; k++)
		v->v[k] = mem_value(i, k);
	v = &s->inst[s->n++];
	v->object = OBJ_PROCESSOR;
	strcpy(v->instance, "_Total");
	for (int k = 0; k < CATALOG_MAX_PER_OBJECT; k++)
		v->v[k] = cpu_value(i, k);
	if (!(i >= 20 && i < 30)) {
		v = &s->inst[s->n++];
		v->object = OBJ_LOGICALDISK;
		strcpy(v->instance, "sda");
		for (int k = 0; k < CATALOG_MAX_PER_OBJECT; k++)
			v->v[k] = disk_value(i, k);
	}
	v = &s->inst[s->n++];
	v->object = OBJ_PROCESSOR;
	strcpy(v->instance, "0");
	for (int k = 0; k < CATALOG_MAX_PER_OBJECT; k++)
		v->v[k] = cpu0_value(i, k);
}

/* Expected value of a counter of the set at sample i. */
static double expected(const struct logset_counter *c, int i)
{
	int k = c->def->index;

	switch (c->def->object) {
	case OBJ_MEMORY: return mem_value(i, k);
	case OBJ_LOGICALDISK: return disk_value(i, k);
	case OBJ_PROCESSOR:
		return !strcmp(c->instance, "0") ? cpu0_value(i, k) :
		       cpu_value(i, k);
	default: return -1;
	}
}

static int same(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

static void write_set_batch(const char *parent, const char *name,
			    const char *rrdcached, unsigned batch)
{
	struct logset_options opt = {
		.parent = parent, .name = name, .interval = 1,
		.retention = 3600, .rrdcached = rrdcached, .start = start,
		.batch = batch,
	};
	struct logset_writer *w, *w2;
	struct instance_values inst[8];
	struct sample s = { .inst = inst, .cap = 8 };
	struct perr e;
	int cpu[4] = { 0, 1, 2, 3 }, mem[2] = { 0, 1 };
	int disk[7] = { 0, 1, 2, 3, 4, 5, 6 };
	int bad = 0;

	if (logset_create(&opt, &w, &e) < 0) {
		OK(0, "create");
		printf("# %s\n", e.msg);
		return;
	}
	OK(1, "log set created");
	OK(logset_add_instance(w, OBJ_PROCESSOR, "_Total", cpu, 4, &e) == 0,
	   "add Processor(_Total)");
	OK(logset_add_instance(w, OBJ_MEMORY, "", mem, 2, &e) == 0, "add Memory");
	OK(logset_add_instance(w, OBJ_LOGICALDISK, "sda", disk, 7, &e) == 0,
	   "add LogicalDisk(sda)");
	OK(logset_add_instance(w, OBJ_LOGICALDISK, "sda", disk, 7, &e) == 0,
	   "adding it again is a no-op");
	OK(logset_add_instance(w, OBJ_MEMORY, "x", mem, 0, &e) < 0,
	   "no counters refused");
	/* the files are created by the writer's worker; their counters
	 * enter the metadata once they exist (a flush waits for that) */
	OK(logset_flush(w, &e) == 0, "flush before the first sample");
	EQ_INT(logset_writer_meta(w)->ncounters, 13, "13 counters so far");

	/* a set directory is never reused: a second writer is refused */
	OK(logset_create(&opt, &w2, &e) < 0, "second writer refused");
	OK(strstr(e.msg, "already exists") != NULL, "message says it exists");
	printf("# %s\n", e.msg);

	for (int i = 1; i <= NSAMPLES; i++) {
		if (i == 51 &&
		    logset_add_instance(w, OBJ_PROCESSOR, "0", cpu, 4, &e) < 0)
			bad++;
		fill_sample(&s, i);
		if (logset_write_sample(w, start + i, &s, &e) < 0) {
			bad++;
			printf("# sample %d: %s\n", i, e.msg);
		}
		if (i == 60 && rrdcached) {
			/* the daemon (-w 3600) holds rows back: files on
			 * disk lagging behind what was sent prove the
			 * updates went through it (it wrote some when the
			 * file for the instance added at 51 was created;
			 * a reader has them from the journal: the files
			 * themselves are looked at) */
			char mpath[900];

			snprintf(mpath, sizeof(mpath), "%s/Memory.rrd",
				 logset_writer_dir(w));
			OK(rrd_last_r(mpath) < start + 60,
			   "rows held by rrdcached, not yet on disk");
		}
		if (i == 60 && !rrdcached && batch > 1) {
			/* batched: some rows are held back until a flush (7
			 * does not divide 60, so every file holds some) */
			struct logset *r;

			if (logset_open(logset_writer_dir(w), &r, &e) == 0) {
				char mpath[900];

				snprintf(mpath, sizeof(mpath), "%s/Memory.rrd",
					 logset_writer_dir(w));
				OK(rrd_last_r(mpath) < start + 60,
				   "batched: rows held back before a flush");
				OK(logset_flush(w, &e) == 0, "flush");
				EQ_INT(logset_last(r), start + 60,
				       "batched: every row on disk after logset_flush");
				logset_close(r);
			} else {
				OK(0, e.msg);
			}
		}
		if (i == 60 && !rrdcached && batch <= 1) {
			/* a reader while the set is being written (after a
			 * flush: this loop is faster than the worker that
			 * creates the file of the instance added at 51) */
			struct logset *r;

			OK(logset_flush(w, &e) == 0, "flush at 60");

			if (logset_open(logset_writer_dir(w), &r, &e) == 0) {
				EQ_INT(logset_meta(r)->ncounters, 17,
				       "reader sees the instance added at 51");
				EQ_INT(logset_meta(r)->stop, 0, "no stop yet");
				EQ_INT(logset_last(r), start + 60, "last update while logging");
				logset_close(r);
			} else {
				OK(0, e.msg);
			}
		}
	}
	EQ_INT(bad, 0, "100 samples written");
	OK(logset_write_sample(w, start + NSAMPLES, &s, &e) < 0 &&
	   strstr(e.msg, "not after"), "same timestamp refused");
	OK(logset_write_sample(w, start + 5, &s, &e) < 0, "older timestamp refused");
	printf("# %s\n", e.msg);
	OK(logset_close_writer(w, start + NSAMPLES, &e) == 0, "close");
	OK(logset_create(&opt, &w2, &e) < 0 && strstr(e.msg, "already exists"),
	   "a closed set is not overwritten");
}

static void check_fetch(const char *dir)
{
	struct logset *ls;
	struct logset_series s;
	struct perr e;
	size_t idx[32];
	int wrong = 0;

	if (logset_open(dir, &ls, &e) < 0) {
		OK(0, "reopen");
		printf("# %s\n", e.msg);
		return;
	}
	const struct logset_meta *m = logset_meta(ls);

	EQ_INT(m->ncounters, 17, "17 counters in perflog.meta");
	EQ_INT(m->start, start, "start");
	EQ_INT(m->stop, start + NSAMPLES, "stop");
	EQ_INT(m->interval, 1, "interval");
	EQ_INT(logset_last(ls), start + NSAMPLES, "last update");
	OK(logset_find(ls, "processor(_total)\\% processor time") == 0,
	   "find is case-insensitive");
	OK(logset_find(ls, "\\\\somehost\\Memory\\Available Bytes") >= 0,
	   "find accepts the exported \\\\HOST\\ form");
	OK(logset_find(ls, "Memory\\Nope") == -1, "find unknown");

	for (size_t i = 0; i < m->ncounters; i++)
		idx[i] = i;
	if (logset_fetch(ls, idx, m->ncounters, start + 1, start + NSAMPLES,
			 "AVERAGE", 1, &s, &e) < 0) {
		OK(0, "fetch");
		printf("# %s\n", e.msg);
		logset_close(ls);
		return;
	}
	EQ_INT(s.first, start + 1, "first row ends at start + step");
	EQ_INT(s.step, 1, "step");
	EQ_INT(s.rows, NSAMPLES, "rows ending in [from, to], no more");
	for (int i = 1; i <= NSAMPLES; i++) {
		size_t r = (size_t)(start + i - s.first);

		for (size_t c = 0; c < m->ncounters && r < s.rows; c++)
			if (!same(s.values[r * s.ncols + c],
				  expected(&m->counters[c], i))) {
				if (wrong++ < 5)
					printf("# row %d %s: got %g want %g\n",
					       i, m->counters[c].path,
					       s.values[r * s.ncols + c],
					       expected(&m->counters[c], i));
			}
	}
	EQ_INT(wrong, 0, "every value read back exactly (unknowns as NAN)");

	/* a sub-range and one counter: rows ending in [from, to] */
	{
		struct logset_series s2;
		size_t one = (size_t)logset_find(ls, "Memory\\Available Bytes");

		OK(logset_fetch(ls, &one, 1, start + 40, start + 45, "AVERAGE",
				1, &s2, &e) == 0, "fetch a sub-range");
		EQ_INT(s2.first, start + 40, "sub-range first row");
		EQ_INT(s2.rows, 6, "sub-range rows");
		OK(s2.rows >= 6 && same(s2.values[0], mem_value(40, 0)) &&
		   same(s2.values[5], mem_value(45, 0)), "sub-range values");
		logset_series_free(&s2);
	}
	logset_series_free(&s);
	logset_close(ls);
}

/* Compare `rrdtool fetch` output for one file with logset_fetch. */
static void check_rrdtool(const char *dir)
{
	struct logset *ls;
	struct perr e;
	const char *files[] = { "Processor-_Total.rrd", "Memory.rrd",
				"LogicalDisk-sda.rrd", "Processor-0.rrd" };

	if (logset_open(dir, &ls, &e) < 0)
		return;
	const struct logset_meta *m = logset_meta(ls);

	for (size_t f = 0; f < 4; f++) {
		char cmd[1024], line[1024], dsn[8][32];
		size_t idx[8], n = 0, rows = 0, wrong = 0;
		int nds = 0;
		struct logset_series s;
		FILE *p;

		/* the counters of this file in DS order */
		for (size_t i = 0; i < m->ncounters; i++)
			if (!strcmp(m->counters[i].file, files[f]))
				idx[n++] = i;
		if (logset_fetch(ls, idx, n, start + 1, start + NSAMPLES,
				 "AVERAGE", 1, &s, &e) < 0) {
			OK(0, files[f]);
			continue;
		}
		snprintf(cmd, sizeof(cmd),
			 "LC_ALL=C rrdtool fetch '%s/%s' AVERAGE -r 1 -s %lld -e %lld",
			 dir, files[f], (long long)start, (long long)(start + NSAMPLES));
		p = popen(cmd, "r");
		if (!p) {
			OK(0, "popen rrdtool");
			continue;
		}
		while (fgets(line, sizeof(line), p)) {
			long long t;
			char *q;
			int used;

			if (nds == 0) {	/* header: DS names */
				char *tok = strtok(line, " \n");

				while (tok && nds < 8) {
					util_strlcpy(dsn[nds++], tok, 32);
					tok = strtok(NULL, " \n");
				}
				continue;
			}
			if (sscanf(line, "%lld:%n", &t, &used) != 1)
				continue;
			/* `rrdtool fetch -e E` also prints the row ending at
			 * E + step (librrd rounds the end up); logset_fetch
			 * trims to rows ending in [from, to] */
			if (t > (long long)(start + NSAMPLES))
				continue;
			q = line + used;
			for (int d = 0; d < nds; d++) {
				double v = strtod(q, &q);
				size_t c;
				time_t off = (time_t)t - s.first;

				for (c = 0; c < n; c++)
					if (!strcmp(m->counters[idx[c]].ds, dsn[d]))
						break;
				if (c == n || off < 0 || (size_t)off >= s.rows) {
					wrong++;
					continue;
				}
				/* rrdtool prints %.10e */
				double want = s.values[(size_t)off * s.ncols + c];

				if (!(isnan(v) && isnan(want)) &&
				    !(fabs(v - want) <= 1e-9 * fabs(want) + 1e-12))
					wrong++;
			}
			rows++;
		}
		int st = pclose(p);

		snprintf(line, sizeof(line), "rrdtool fetch %s: same rows and values as logset_fetch", files[f]);
		OK(st == 0 && nds == (int)n && rows == NSAMPLES && wrong == 0, line);
		if (wrong || rows != NSAMPLES)
			printf("# nds %d n %zu rows %zu wrong %zu\n", nds, n, rows, wrong);
		logset_series_free(&s);

		snprintf(cmd, sizeof(cmd), "rrdtool info '%s/%s'", dir, files[f]);
		p = popen(cmd, "r");
		int has_step = 0, rras = 0;

		while (p && fgets(line, sizeof(line), p)) {
			if (!strcmp(line, "step = 1\n"))
				has_step = 1;
			if (strstr(line, "].cf = "))
				rras++;
		}
		st = p ? pclose(p) : -1;
		snprintf(line, sizeof(line), "rrdtool info %s: step 1, 7 archives", files[f]);
		OK(st == 0 && has_step && rras == 7, line);
	}
	logset_close(ls);
}

static char *slurp(const char *path)
{
	return util_read_file(path, NULL);
}

static void check_csv(const char *dir)
{
	char out[512], *text, *argv[8];
	struct logset *ls;
	struct perr e;
	int lines = 0;

	snprintf(out, sizeof(out), "%s/export.csv", scratch);
	argv[0] = (char *)"export";
	argv[1] = (char *)dir;
	argv[2] = (char *)"--csv";
	argv[3] = out;
	EQ_INT(cmd_export(4, argv), 0, "perflog export DIR --csv FILE");
	text = slurp(out);
	if (!text || logset_open(dir, &ls, &e) < 0) {
		OK(0, "read CSV");
		free(text);
		return;
	}
	const struct logset_meta *m = logset_meta(ls);
	char want[4096], *p = want;

	p += sprintf(p, "time");
	for (size_t i = 0; i < m->ncounters; i++)
		p += sprintf(p, ",\\\\%s\\%s", m->host, m->counters[i].path);
	p += sprintf(p, "\n");
	OK(!strncmp(text, want, strlen(want)), "CSV header: time, then \\\\HOST\\path per counter");
	OK(strstr(text, ",\\\\") && strstr(text, "\\Network") == NULL,
	   "columns only for logged counters");

	/* rows: one per sample, values %.10g, empty for unknown */
	int wrong = 0;
	char *line = text + strlen(want);

	while (*line) {
		char *nl = strchr(line, '\n'), ts[32];
		time_t t;
		int i;
		char *f;

		if (!nl)
			break;
		*nl = '\0';
		lines++;
		snprintf(ts, sizeof(ts), "%.*s", (int)strcspn(line, ","), line);
		if (csv_time_parse(ts, &t) < 0) {
			wrong++;
			line = nl + 1;
			continue;
		}
		i = (int)(t - start);
		f = line + strlen(ts);
		for (size_t c = 0; c < m->ncounters; c++) {
			char cell[64], exp_cell[64];
			double x = expected(&m->counters[c], i);
			size_t len;

			if (*f != ',') {
				wrong++;
				break;
			}
			f++;
			len = strcspn(f, ",");
			snprintf(cell, sizeof(cell), "%.*s", (int)len, f);
			f += len;
			if (isnan(x))
				exp_cell[0] = '\0';
			else
				snprintf(exp_cell, sizeof(exp_cell), "%.10g", x);
			if (strcmp(cell, exp_cell)) {
				if (wrong++ < 3)
					printf("# t %d col %zu: '%s' want '%s'\n",
					       i, c, cell, exp_cell);
			}
		}
		line = nl + 1;
	}
	EQ_INT(lines, NSAMPLES, "one CSV row per sample, start to stop");
	EQ_INT(wrong, 0, "CSV values (%.10g, empty for unknown)");
	{
		char first[32];

		csv_time(first, sizeof(first), start + 1);
		OK(strstr(text, first) == text + strlen(want), "first row at start + interval");
	}
	free(text);

	/* --from/--to cut */
	{
		char from[32], to[32];

		util_iso8601(from, sizeof(from), start + 10, -1);
		util_iso8601(to, sizeof(to), start + 19, -1);
		argv[4] = (char *)"--from";
		argv[5] = from;
		argv[6] = (char *)"--to";
		argv[7] = to;
		EQ_INT(cmd_export(8, argv), 0, "export --from --to");
		text = slurp(out);
		lines = 0;
		for (char *q = text; q && *q; q++)
			lines += *q == '\n';
		EQ_INT(lines, 11, "header + 10 rows");
		csv_time(from, sizeof(from), start + 10);
		csv_time(to, sizeof(to), start + 19);
		OK(text && strstr(text, from) && strstr(text, to), "cut at both ends");
		free(text);
	}
	logset_close(ls);

	/* the command's errors */
	char *bad1[] = { (char *)"export", (char *)"/nonexistent/set", (char *)"--csv", (char *)"-" };
	char *bad2[] = { (char *)"export", (char *)dir, (char *)"--csv", (char *)"/nonexistent/dir/x.csv" };
	char *bad3[] = { (char *)"export", (char *)dir };
	char *bad4[] = { (char *)"export", (char *)dir, (char *)"--csv" };
	char *bad5[] = { (char *)"export", (char *)dir, (char *)"--bogus", (char *)"-" };
	char *bad6[] = { (char *)"export", (char *)scratch, (char *)"--csv", (char *)"-" };
	char *bad7[] = { (char *)"export", (char *)dir, (char *)"--csv", (char *)"-", (char *)"--from", (char *)"yesterday" };

	EQ_INT(cmd_export(4, bad1), 1, "missing DIR: exit 1");
	EQ_INT(cmd_export(4, bad2), 1, "unwritable FILE: exit 1");
	EQ_INT(cmd_export(2, bad3), 2, "no --csv: usage, exit 2");
	EQ_INT(cmd_export(3, bad4), 2, "--csv without value: exit 2");
	EQ_INT(cmd_export(4, bad5), 2, "unknown option: exit 2");
	EQ_INT(cmd_export(4, bad6), 1, "not a log set: exit 1");
	EQ_INT(cmd_export(6, bad7), 2, "bad --from: exit 2");
}

static void check_damage(const char *dir)
{
	char path[1024], moved[1024];
	struct logset *ls;
	struct logset_series s;
	struct perr e;

	if (logset_open(dir, &ls, &e) < 0)
		return;
	size_t mem = (size_t)logset_find(ls, "Memory\\Available Bytes");
	size_t cpu = (size_t)logset_find(ls, "Processor(_Total)\\% Processor Time");
	size_t disk = (size_t)logset_find(ls, "LogicalDisk(sda)\\Disk Reads/sec");

	snprintf(path, sizeof(path), "%s/Memory.rrd", dir);
	snprintf(moved, sizeof(moved), "%s/Memory.rrd.away", dir);
	OK(rename(path, moved) == 0, "remove Memory.rrd");
	OK(logset_fetch(ls, &mem, 1, start + 1, start + 10, "AVERAGE", 1, &s, &e) < 0 &&
	   strstr(e.msg, "Memory.rrd"), "missing RRD file: error naming it on fetch");
	printf("# %s\n", e.msg);
	OK(logset_fetch(ls, &cpu, 1, start + 1, start + 10, "AVERAGE", 1, &s, &e) == 0,
	   "other files still readable");
	logset_series_free(&s);
	/* a new instance mapped before the writer renamed its file into
	 * place (".NAME.tmp.new", grow.h): unknown rows, not an error */
	snprintf(moved, sizeof(moved), "%s/.Memory.rrd.tmp.new", dir);
	OK(symlink("nowhere", moved) == 0, "a pending Memory.rrd");
	size_t both[2] = { mem, cpu };
	int got = logset_fetch(ls, both, 2, start + 1, start + 10, "AVERAGE", 1, &s, &e);
	OK(got == 0 && s.rows > 0 && isnan(s.values[0]) && !isnan(s.values[2 * 2 + 1]),
	   "pending RRD file: its rows unknown, the other file's read");
	if (got < 0)
		printf("# %s\n", e.msg);
	else
		logset_series_free(&s);
	got = logset_fetch(ls, &mem, 1, start + 1, start + 10, "AVERAGE", 1, &s, &e);
	OK(got == 0 && s.rows > 0 && isnan(s.values[0]),
	   "pending RRD file alone: unknown rows on the set's grid");
	if (got == 0)
		logset_series_free(&s);
	unlink(moved);
	EQ_INT(logset_last(ls), start + NSAMPLES, "last update skips the missing file");

	snprintf(path, sizeof(path), "%s/LogicalDisk-sda.rrd", dir);
	OK(truncate(path, 700) == 0, "truncate LogicalDisk-sda.rrd");
	OK(logset_fetch(ls, &disk, 1, start + 1, start + 10, "AVERAGE", 1, &s, &e) < 0 &&
	   strstr(e.msg, "LogicalDisk-sda.rrd"), "truncated RRD file: error on fetch, no crash");
	printf("# %s\n", e.msg);
	OK(truncate(path, 0) == 0 &&
	   logset_fetch(ls, &disk, 1, start + 1, start + 10, "AVERAGE", 1, &s, &e) < 0,
	   "empty RRD file: error on fetch");
	logset_close(ls);

	/* metadata missing or broken: a message, not a crash */
	snprintf(path, sizeof(path), "%s/perflog.meta", dir);
	snprintf(moved, sizeof(moved), "%s/perflog.meta.away", dir);
	OK(rename(path, moved) == 0 && logset_open(dir, &ls, &e) < 0 &&
	   strstr(e.msg, "perflog.meta: missing"), "missing perflog.meta");
	printf("# %s\n", e.msg);
	{
		FILE *f = fopen(path, "w");

		if (f) {
			fputs("format\t1\nhost\th\nstart\tnever\n", f);
			fclose(f);
		}
	}
	OK(logset_open(dir, &ls, &e) < 0 && strstr(e.msg, "': perflog.meta:3: "),
	   "corrupt perflog.meta: file and line");
	printf("# %s\n", e.msg);
	{
		FILE *f = fopen(path, "w");

		if (f) {
			fputs("format\t7\n", f);
			fclose(f);
		}
	}
	OK(logset_open(dir, &ls, &e) < 0 && strstr(e.msg, "has format 7; this perflog reads up to 1"),
	   "newer format refused");
	printf("# %s\n", e.msg);
}

static void check_create_errors(void)
{
	struct logset_options opt = { .interval = 1, .start = start };
	struct logset_writer *w;
	struct perr e;
	char ro[512], sub[600];

	snprintf(ro, sizeof(ro), "%s/readonly", scratch);
	mkdir(ro, 0555);
	snprintf(sub, sizeof(sub), "%s/deeper", ro);
	opt.parent = sub;
	{
		char file[600];
		FILE *f;

		snprintf(file, sizeof(file), "%s/plainfile", scratch);
		f = fopen(file, "w");
		if (f)
			fclose(f);
		snprintf(sub, sizeof(sub), "%s/plainfile/x", scratch);
		opt.parent = sub;
		OK(logset_create(&opt, &w, &e) < 0 && strstr(e.msg, "Not a directory") &&
		   strstr(e.msg, "unable to create log set under"), "parent under a plain file");
		printf("# %s\n", e.msg);
		snprintf(sub, sizeof(sub), "%s/deeper", ro);
		opt.parent = sub;
	}
	if (geteuid() == 0) {
		printf("# running as root: permission checks skipped\n");
		OK(1, "# SKIP unwritable parent (root)");
	} else {
		OK(logset_create(&opt, &w, &e) < 0 && strstr(e.msg, "Permission denied") &&
		   strstr(e.msg, "unable to create log set under"), "unwritable parent");
		printf("# %s\n", e.msg);
	}
	/* default name HOST-YYYYmmddTHHMMSS, parents created */
	snprintf(sub, sizeof(sub), "%s/a/b/c", scratch);
	opt.parent = sub;
	if (logset_create(&opt, &w, &e) == 0) {
		const char *d = strrchr(logset_writer_dir(w), '/') + 1;
		const char *dash = strrchr(d, '-');
		struct logset_writer *w2;

		OK(dash && strlen(dash + 1) == 15 && dash[9] == 'T',
		   "default name HOST-YYYYmmddTHHMMSS");
		printf("# %s\n", d);
		OK(logset_create(&opt, &w2, &e) == 0 &&
		   strcmp(logset_writer_dir(w), logset_writer_dir(w2)),
		   "a second set in the same second gets its own directory");
		logset_close_writer(w2, 0, &e);
		logset_close_writer(w, 0, &e);
	} else {
		OK(0, e.msg);
	}
	opt.parent = scratch;
	opt.interval = 0;
	OK(logset_create(&opt, &w, &e) < 0, "interval 0 refused");
	opt.interval = 1;
	opt.name = "../escape";
	OK(logset_create(&opt, &w, &e) < 0, "name with '/' refused");
}

static void write_set(const char *parent, const char *name,
		      const char *rrdcached)
{
	write_set_batch(parent, name, rrdcached, 0);
}

/* Rows a file cannot write are held for HOLD_SECONDS, then lost: the
 * writer counts them (logset_rows_lost, which the collector reports),
 * never drops them silently. The file is created through rrdcached, then
 * the daemon goes away for good. */
static void check_dropped_reported(const char *parent, const char *addr,
				   pid_t daemon)
{
	char name[] = "daemongone";
	struct logset_options opt = {
		.parent = parent, .name = name, .interval = 1,
		.retention = 3600, .rrdcached = addr, .start = start,
	};
	struct logset_writer *w;
	struct instance_values inst[8];
	struct sample s = { .inst = inst, .cap = 8 };
	struct perr e;
	int mem[2] = { 0, 1 }, ok_writes = 0, first = 0;

	if (logset_create(&opt, &w, &e) < 0 ||
	    logset_add_instance(w, OBJ_MEMORY, "", mem, 2, &e) < 0 ||
	    logset_flush(w, &e) < 0) {
		OK(0, "a set through rrdcached");
		printf("# %s\n", e.msg);
		return;
	}
	/* perflog's main ignores SIGPIPE; a write to the dead daemon's
	 * socket must fail, not kill us */
	signal(SIGPIPE, SIG_IGN);
	kill(daemon, SIGKILL);
	waitpid(daemon, NULL, 0);
	for (int i = 1; i <= 1000; i++) {
		fill_sample(&s, i);
		if (logset_write_sample(w, (double)(start + i), &s, &e) == 0)
			ok_writes++;
		if (!first && logset_rows_lost(w) > 0)
			first = i;
	}
	OK(ok_writes == 0, "every write says the daemon is away");
	printf("# %s\n", e.msg);
	OK(first > 800 && first <= 902, "rows are lost only once held for the limit");
	printf("# first row lost at sample %d; %lu lost in all\n", first,
	       logset_rows_lost(w));
	OK(logset_rows_lost(w) >= 1000 - 902, "and then the oldest, counted");
	logset_close_writer(w, (double)(start + 1001), &e);
}

/* A real rrdcached on a unix socket under the scratch dir. */
static void check_rrdcached(void)
{
	char base[512], sock[600], addr[640], dir[700];
	pid_t pid;

	if (access("/usr/bin/rrdcached", X_OK) != 0 &&
	    access("/usr/sbin/rrdcached", X_OK) != 0) {
		OK(1, "# SKIP rrdcached not installed");
		return;
	}
	snprintf(base, sizeof(base), "%s/cached", scratch);
	mkdir(base, 0755);
	snprintf(sock, sizeof(sock), "%s/sock", base);
	snprintf(addr, sizeof(addr), "unix:%s", sock);
	pid = rrdcached_start(base, addr, sock);
	OK(pid > 0, "rrdcached listening");
	if (pid > 0) {
		write_set(base, "viarrdcached", addr);
		snprintf(dir, sizeof(dir), "%s/cached/viarrdcached", scratch);
		/* close flushed: the files on disk hold every row now, while
		 * the daemon (with -w 3600) would otherwise still cache them */
		check_fetch(dir);
		check_dropped_reported(base, addr, pid);	/* kills it */
	}
}

int main(void)
{
	char dir[600];

	unsetenv("RRDCACHED_ADDRESS");	/* direct writes unless asked */
	/* a day ago, aligned, so nothing waits for the clock */
	start = time(NULL) - 86400;
	start -= start % 60;
	if (!mkdtemp(scratch)) {
		OK(0, "mkdtemp");
		return done_testing();
	}
	snprintf(dir, sizeof(dir), "%s/set", scratch);
	write_set(scratch, "set", NULL);
	check_fetch(dir);
	/* the same through batched updates (a file added mid-batch, at 51):
	 * read back exactly the same */
	snprintf(dir, sizeof(dir), "%s/batched", scratch);
	write_set_batch(scratch, "batched", NULL, 7);
	check_fetch(dir);
	snprintf(dir, sizeof(dir), "%s/set", scratch);
	check_rrdtool(dir);
	check_csv(dir);
	check_damage(dir);
	check_create_errors();
	check_rrdcached();

	if (rmtree(scratch) != 0)
		printf("# could not remove %s\n", scratch);
	return done_testing();
}
