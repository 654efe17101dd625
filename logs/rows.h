/*
 * rows.h - turn samples into whole RRD rows before librrd sees them.
 *
 * A sample is a set of average rates over the time its counters were
 * measured, (from, t], with t anywhere (a sample comes a few ms late, or
 * seconds late after a stall). An RRD row is the average over (T - step,
 * T] with T a multiple of the step. librrd can spread an update over rows
 * itself, but it loses what perflog needs:
 *
 *   - it counts unknown time in whole seconds (rounded down), and leaves
 *     the unknown part of an update that closes a row out of its "more
 *     than half unknown" test: an unknown sample read 3 ms after a row
 *     boundary stored the previous row's value instead of unknown (issue
 *     11, item 11);
 *   - an update spanning more than the heartbeat (2 steps) is unknown
 *     whole: a sample 1.6 s late at 1 s left two unknown rows although
 *     its average was measured (issue 11, item 6).
 *
 * So the writer does the time-weighting here, exactly, and hands librrd
 * one update per row, stamped on the row's end: librrd then stores each
 * value as given. The rules:
 *
 *   - a row's value is the time-weighted average of the known parts of
 *     the samples that cover it; it is unknown when less than half of the
 *     row is known (librrd's own rule for a row, now on exact times);
 *   - a sample fills every row it covers with its measured average when
 *     it spans at most step + ROWS_LATE_MAX seconds; a longer span (the
 *     collector was stopped or starved for over a minute) is unknown, and
 *     so is time the caller says was not measured (from > previous t: the
 *     wall clock jumped, the machine was suspended);
 *   - consecutive wholly unknown rows are held as one (an hour's gap is
 *     one update, which librrd stores as unknown rows: it spans more than
 *     the heartbeat).
 *
 * Completed rows wait in a buffer until the writer hands them to librrd
 * (rows_consume). It grows as needed up to max rows; past that the oldest
 * are dropped (they become unknown) and counted. No I/O here: pure and
 * unit-tested (tests/unit/test_rows.c).
 */
#ifndef PERFLOG_ROWS_H
#define PERFLOG_ROWS_H

#include <stddef.h>

/* The longest lateness a sample's average may fill: a sample covering
 * up to step + this many seconds fills the rows it covers. */
#define ROWS_LATE_MAX 60.0

struct rows {
	unsigned long step;
	size_t n;		/* values per row */
	double at;		/* accounted up to this time */
	double *sum;		/* the open row: value x seconds per value */
	double *known;		/* and the seconds known */
	double *held;		/* completed rows, oldest first: nheld x n */
	double *held_t;		/* their end times (multiples of step) */
	size_t nheld, cap, max;
	unsigned long dropped;	/* rows dropped because max was reached */
	int tail_unknown;	/* the newest held row is wholly unknown */
};

/* Start at time at (a row boundary: where the RRD file's data begins),
 * holding room for cap rows, at most max. 0, or -1 out of memory. */
int rows_init(struct rows *r, unsigned long step, size_t n, double at,
	      size_t cap, size_t max);
void rows_free(struct rows *r);

/* Account one sample: values v[0..n) (NAN = unknown) measured over
 * (from, t]; (r->at, from] is unknown. Nothing happens when t <= r->at.
 * Returns the number of row boundaries passed (rows closed; a gap held
 * as one row counts all it covers). Out of memory, a row is dropped and
 * counted in r->dropped. */
int rows_add(struct rows *r, double from, double t, const double *v);

/* The first k held rows were written: forget them. */
void rows_consume(struct rows *r, size_t k);

/* Forget held rows ending at or before t (the RRD file already has
 * them: an update that failed after writing part of its rows). */
void rows_drop_upto(struct rows *r, double t);

/* Forget the newest held row if it is wholly unknown (it may stand for
 * a long gap: written to a file too small for it, it would only wrap
 * away older rows). */
void rows_drop_unknown_tail(struct rows *r);

/* Format held row i as librrd's "T:v1:v2:..." ("U" for unknown) into
 * buf of size n. Returns the length, or -1 when it does not fit. */
int rows_format(const struct rows *r, size_t i, char *buf, size_t n);

#endif
