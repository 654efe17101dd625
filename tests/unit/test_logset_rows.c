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
 *
 * Only public API (logset.h), so the test builds against older writers.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../logs/logset.h"
#include "tap.h"

static char scratch[] = "/tmp/perflog-rows-XXXXXX";

/* Write System(Processor Queue Length, Context Switches/sec) samples
 * (t[i], a[i], b[i]), close, and fetch rows (t0, t0 + n]. */
static int write_and_fetch(const char *name, time_t t0, const double *t,
			   const double *a, const double *b, int n,
			   time_t to, struct logset_series *out)
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
		if (logset_write_sample(w, t[i], &s, &e) < 0)
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
	if (t < s->first || (size_t)(t - s->first) >= s->rows)
		return -1e300;
	return s->values[(size_t)(t - s->first) * s->ncols + c];
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
	if (write_and_fetch("unknown", t0, t, a, b, 6, t0 + 6, &s) < 0) {
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

	if (write_and_fetch("late", t0, t, a, b, 7, t0 + 77, &s) < 0) {
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
	if (rmtree(scratch) != 0)
		printf("# could not remove %s\n", scratch);
	return done_testing();
}
