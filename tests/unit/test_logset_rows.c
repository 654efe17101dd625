/*
 * test_logset_rows.c - what a row holds, through the real writer and
 * reader, at the times a collector really writes (a few ms after each
 * second): issue 11 items 6 and 11.
 *
 *   item 11: an unknown value read 3 ms after a row boundary covers 99.7%
 *            of the row before it; that row must read back unknown (librrd
 *            alone stored the previous row's value: it rounds unknown time
 *            down to whole seconds)
 *   item 6:  a sample read 1.6 s late was measured over 2.6 s; the rows it
 *            covers hold its average (librrd alone made them unknown: the
 *            update spanned more than the 2-step heartbeat), while a
 *            sample more than a minute late leaves its rows unknown
 *   first spans: a set's first row, begun at a baseline read late in
 *            it, holds the average of what was measured only when that
 *            is at least half the row (before, the first values were
 *            stretched over the whole row: 50 ms of a burst counted
 *            twenty times, t2100's disk bytes once 25 MB over what the
 *            kernel counted); an instance that joins later likewise; a
 *            watched tree's zeros (logset_add_idle_instance) cover their
 *            row from its start; the same rows replayed from the journal
 *            of a writer killed before it wrote them
 *
 * Only public API (logset.h), so the test builds against older writers.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../logs/logset.h"
#include "tap.h"

static char scratch[] = "/tmp/perflog-rows-XXXXXX";

/* Write System(Processor Queue Length, Context Switches/sec) samples
 * (t[i], a[i], b[i]), the first measured from from0 (0: the set's start
 * t0), close, and fetch rows (t0, to]. */
static int write_and_fetch(const char *name, time_t t0, double from0,
			   const double *t, const double *a, const double *b,
			   int n, time_t to, struct logset_series *out)
{
	struct logset_options opt = {
		.parent = scratch, .name = name, .interval = 1,
		.retention = 3600, .start = t0, .batch = 1,
	};
	struct logset_writer *w;
	struct instance_values inst[1];
	struct sample s = { .inst = inst, .cap = 1, .n = 1 };
	const struct object_def *od = &catalog_objects[OBJ_SYSTEM];
	int idx[2] = { 0, 1 };
	struct logset *ls;
	struct perr e;
	size_t cols[2] = { 0, 1 };

	if (od->ncounters < 2 || logset_create(&opt, &w, &e) < 0 ||
	    logset_add_instance(w, OBJ_SYSTEM, "", idx, 2, &e) < 0) {
		printf("# %s\n", e.msg);
		return -1;
	}
	inst[0].object = OBJ_SYSTEM;
	inst[0].instance[0] = '\0';
	for (int i = 0; i < n; i++) {
		inst[0].v[0] = a[i];
		inst[0].v[1] = b[i];
		if ((i == 0 && from0 > 0 ?
		     logset_write_span(w, from0, t[i], &s, &e) :
		     logset_write_sample(w, t[i], &s, &e)) < 0)
			printf("# sample %d: %s\n", i, e.msg);
	}
	if (logset_close_writer(w, t[n - 1], &e) < 0) {
		printf("# %s\n", e.msg);
		return -1;
	}
	{
		char dir[512];

		snprintf(dir, sizeof(dir), "%s/%s", scratch, name);
		if (logset_open(dir, &ls, &e) < 0) {
			printf("# %s\n", e.msg);
			return -1;
		}
	}
	if (logset_fetch(ls, cols, 2, t0 + 1, to, "AVERAGE", 1, out, &e) < 0) {
		printf("# %s\n", e.msg);
		logset_close(ls);
		return -1;
	}
	logset_close(ls);
	return 0;
}

/* The value of column c in the row ending at t, or -1e300 if none. */
static double at(const struct logset_series *s, time_t t, size_t c)
{
	size_t r = s->step ? (size_t)(t - s->first) / s->step : 0;

	if (t < s->first || r >= s->rows)
		return -1e300;
	return s->values[r * s->ncols + c];
}

static void unknown_read(time_t t0)
{
	double t[6], a[6], b[6];
	struct logset_series s;

	for (int i = 0; i < 6; i++) {
		t[i] = (double)t0 + i + 1 + 0.003;
		a[i] = 10 + i;
		b[i] = 100 + i;
	}
	a[3] = NAN;	/* read 4 (at t0 + 4.003) could not be taken */
	if (write_and_fetch("unknown", t0, 0, t, a, b, 6, t0 + 6, &s) < 0) {
		OK(0, "unknown: written and fetched");
		return;
	}
	EQ_DBL(at(&s, t0 + 3, 0), 0.003 * 11 + 0.997 * 12, 1e-5,
	       "the row before: the reads that cover it");
	EQ_DBL(at(&s, t0 + 4, 0), NAN, 0,
	       "item 11: the row the unknown read covers reads back unknown");
	EQ_DBL(at(&s, t0 + 4, 1), 0.003 * 102 + 0.997 * 103, 1e-4,
	       "the other counter of that row is known");
	EQ_DBL(at(&s, t0 + 5, 0), 14, 1e-5,
	       "the next row: the next read's value (not understated)");
	logset_series_free(&s);
}

static void late_read(time_t t0)
{
	/* reads at 1, 2, then 4.6 (1.6 s late: the one due at 3 never
	 * came), 5, 6 ... and one 70 s after that */
	double t[] = { t0 + 1.001, t0 + 2.001, t0 + 4.601, t0 + 5.001,
		       t0 + 6.001, t0 + 76.001, t0 + 77.001 };
	double a[] = { 1, 2, 7, 8, 9, 30, 31 };
	double b[] = { 1, 1, 1, 1, 1, 1, 1 };
	struct logset_series s;

	if (write_and_fetch("late", t0, 0, t, a, b, 7, t0 + 77, &s) < 0) {
		OK(0, "late: written and fetched");
		return;
	}
	EQ_DBL(at(&s, t0 + 3, 0), 0.001 * 2 + 0.999 * 7, 1e-5,
	       "item 6: a read 1.6 s late fills the first row it covers");
	EQ_DBL(at(&s, t0 + 4, 0), 7, 1e-5, "and the second");
	EQ_DBL(at(&s, t0 + 5, 0), 0.601 * 7 + 0.399 * 8, 1e-5,
	       "the row it ends in shares with the next read");
	EQ_DBL(at(&s, t0 + 40, 0), NAN, 0,
	       "a read 70 s after the last: its rows stay unknown");
	EQ_DBL(at(&s, t0 + 77, 0), 31, 1e-5,
	       "the rows after it are known again (the known part)");
	logset_series_free(&s);
}

/* One sample's values, System, Process(job) and LogicalDisk(sdz): the
 * first counter of each, NAN for an instance not in the sample. */
static int span(struct logset_writer *w, double from, double t,
		double sys, double job, double disk)
{
	struct instance_values inst[3];
	struct sample s = { .inst = inst, .cap = 3, .n = 0 };
	double v[3] = { sys, job, disk };
	const enum counter_object obj[3] = { OBJ_SYSTEM, OBJ_PROCESS,
					     OBJ_LOGICALDISK };
	const char *name[3] = { "", "job", "sdz" };
	struct perr e;

	memset(inst, 0, sizeof(inst));
	for (int i = 0; i < 3; i++) {
		if (isnan(v[i]))
			continue;
		inst[s.n].object = obj[i];
		snprintf(inst[s.n].instance, sizeof(inst[s.n].instance), "%s",
			 name[i]);
		inst[s.n].v[0] = v[i];
		s.n++;
	}
	if (logset_write_span(w, from, t, &s, &e) < 0) {
		printf("# span to %.3f: %s\n", t, e.msg);
		return -1;
	}
	return 0;
}

/* Rows (t0, to] of the first counter of the instance whose paths begin
 * with prefix, in *out; -1 if none. */
static int fetch_first(const char *dir, const char *prefix, time_t t0,
		       time_t to, struct logset_series *out)
{
	struct logset *ls;
	struct perr e;
	size_t col = (size_t)-1;
	int rc;

	if (logset_open(dir, &ls, &e) < 0) {
		printf("# %s\n", e.msg);
		return -1;
	}
	for (size_t i = 0; i < logset_meta(ls)->ncounters; i++)
		if (!strncmp(logset_meta(ls)->counters[i].path, prefix,
			     strlen(prefix))) {
			col = i;
			break;
		}
	rc = col == (size_t)-1 ? -1 :
	     logset_fetch(ls, &col, 1, t0 + 1, to, "AVERAGE",
			  logset_meta(ls)->interval, out, &e);
	if (rc < 0)
		printf("# %s: %s\n", prefix, col == (size_t)-1 ?
		       "not in perflog.meta" : e.msg);
	logset_close(ls);
	return rc;
}

/* A check's name with its step. */
static const char *named(char *buf, const char *what, unsigned step,
			 int killed)
{
	snprintf(buf, 160, "step %u%s: %s", step,
		 killed ? ", the writer killed (the journal replayed)" : "",
		 what);
	return buf;
}

/* The spans of first_spans into set NAME: closed, or (killed) with a
 * batch of 100, each new file made at once (logset_flush) and the writer
 * gone as a kill -9 leaves it, so the reader replays the journal's rows.
 * 0, or -1. */
static int write_first(const char *name, time_t t0, unsigned step,
		       int killed)
{
	struct logset_options opt = {
		.parent = scratch, .name = name, .interval = step,
		.retention = 3600, .start = t0, .batch = killed ? 100 : 1,
	};
	struct logset_writer *w;
	int idx[1] = { 0 };
	double k = step;	/* the times below are in steps */
	struct perr e;
	int bad = 0, st;
	pid_t pid = killed ? fork() : 0;

	if (pid > 0)
		return waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		       WEXITSTATUS(st) == 0 ? 0 : -1;
	if (pid < 0 || logset_create(&opt, &w, &e) < 0 ||
	    logset_add_instance(w, OBJ_SYSTEM, "", idx, 1, &e) < 0 ||
	    logset_add_idle_instance(w, OBJ_PROCESS, "job", idx, 1, &e) < 0 ||
	    (killed && logset_flush(w, &e) < 0)) {
		printf("# %s\n", pid < 0 ? "fork" : e.msg);
		if (killed)
			_exit(1);
		return -1;
	}
	/* the baseline at 0.9 of the first row, the watch's zero sample
	 * then; a late read at 3.6; a disk joins in the sample after it */
	bad |= span(w, t0 + 0.9 * k, t0 + 1.002 * k, 10, 0, NAN);
	bad |= span(w, t0 + 1.002 * k, t0 + 2.002 * k, 20, 1, NAN);
	bad |= span(w, t0 + 2.002 * k, t0 + 3.6 * k, 30, 1, NAN);
	if (logset_add_instance(w, OBJ_LOGICALDISK, "sdz", idx, 1, &e) < 0 ||
	    (killed && logset_flush(w, &e) < 0))
		bad = -1;
	bad |= span(w, t0 + 3.6 * k, t0 + 4.002 * k, 40, 1, 40);
	bad |= span(w, t0 + 4.002 * k, t0 + 5.002 * k, 50, 1, 50);
	bad |= span(w, t0 + 5.002 * k, t0 + 6.002 * k, 60, 1, 60);
	if (killed)
		_exit(bad ? 1 : 0);
	if (logset_close_writer(w, t0 + 6.002 * k, &e) < 0)
		bad = -1;
	return bad ? -1 : 0;
}

static void first_spans(time_t t0, unsigned step, int killed)
{
	char name[32], dir[512];
	struct logset_series sys, job, disk;
	char msg[160];

	snprintf(name, sizeof(name), "first%u%s", step, killed ? "k" : "");
	snprintf(dir, sizeof(dir), "%s/%s", scratch, name);
	if (write_first(name, t0, step, killed) < 0) {
		OK(0, named(msg, "written", step, killed));
		return;
	}
	if (fetch_first(dir, "System\\", t0, t0 + 6 * (time_t)step, &sys) < 0 ||
	    fetch_first(dir, "Process(job)\\", t0, t0 + 6 * (time_t)step,
			&job) < 0 ||
	    fetch_first(dir, "LogicalDisk(sdz)\\", t0, t0 + 6 * (time_t)step,
			&disk) < 0) {
		OK(0, named(msg, "fetched", step, killed));
		return;
	}
	EQ_DBL(at(&sys, t0 + step, 0), NAN, 0,
	       named(msg, "the first row, a tenth of it measured, is unknown (not the tenth stretched over it)", step, killed));
	EQ_DBL(at(&sys, t0 + 2 * step, 0), 0.002 * 10 + 0.998 * 20, 1e-5,
	       named(msg, "the second row holds what covers it", step, killed));
	EQ_DBL(at(&job, t0 + step, 0), 0, 1e-9,
	       named(msg, "the watched tree's zeros cover its first row", step, killed));
	EQ_DBL(at(&job, t0 + 2 * step, 0), 0.998, 1e-5,
	       named(msg, "and its second row is its own", step, killed));
	EQ_DBL(at(&disk, t0 + 4 * step, 0), NAN, 0,
	       named(msg, "a disk that joins with 0.4 of a row measured: that row unknown", step, killed));
	EQ_DBL(at(&disk, t0 + 5 * step, 0), 0.002 * 40 + 0.998 * 50, 1e-5,
	       named(msg, "its next row known", step, killed));
	logset_series_free(&sys);
	logset_series_free(&job);
	logset_series_free(&disk);
}

/* A first row measured for 0.6 of it holds that part's average. */
static void first_half(time_t t0)
{
	double t[] = { t0 + 1.002, t0 + 2.002 }, a[] = { 7, 8 },
	       b[] = { 1, 1 };
	struct logset_series s;

	if (write_and_fetch("half", t0, t0 + 0.4, t, a, b, 2, t0 + 2, &s) < 0) {
		OK(0, "first half: written and fetched");
		return;
	}
	EQ_DBL(at(&s, t0 + 1, 0), 7, 1e-9,
	       "a first row measured for 0.6 of it holds that part's average");
	logset_series_free(&s);
}

int main(void)
{
	time_t t0 = time(NULL) - 86400;

	t0 -= t0 % 60;
	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		return 1;
	}
	unknown_read(t0);
	late_read(t0);
	first_spans(t0, 1, 0);
	first_spans(t0, 5, 0);
	first_spans(t0, 1, 1);
	first_spans(t0, 5, 1);
	first_half(t0);
	if (rmtree(scratch) != 0)
		printf("# could not remove %s\n", scratch);
	return done_testing();
}
