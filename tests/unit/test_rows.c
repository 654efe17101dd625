/*
 * test_rows.c - samples to whole rows (logs/rows.h), with the times a
 * collector really produces: reads a few ms after each boundary, a late
 * read, an unknown value, time not measured, a gap past the limit, a
 * long gap held as one row, the hold limit.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../logs/rows.h"
#include "tap.h"

static const double T = 1700000000;	/* a row boundary at step 1 and 10 */

static void steady(void)
{
	struct rows r;
	double v[2];

	rows_init(&r, 1, 2, T, 4, 100);
	/* reads at T+k+0.003: row (T+k-1, T+k] is 0.003 of read k-1 and
	 * 0.997 of read k */
	v[0] = 10; v[1] = 1;
	EQ_INT(rows_add(&r, T, T + 1.003, v), 1, "first read completes a row");
	v[0] = 20; v[1] = 2;
	EQ_INT(rows_add(&r, T + 1.003, T + 2.003, v), 1, "second read too");
	EQ_INT(r.nheld, 2, "two rows held");
	EQ_DBL(r.held_t[0], T + 1, 0, "row 1 ends on the boundary");
	EQ_DBL(r.held[0], 10, 1e-12, "row 1: the first read's value");
	/* (times near 1.7e9 s carry ~2.4e-7 s in a double: that is the
	 * precision of any weighting by wall-clock seconds) */
	EQ_DBL(r.held[2], 0.003 * 10 + 0.997 * 20, 1e-5,
	       "row 2: time-weighted");
	EQ_DBL(r.held[3], 0.003 * 1 + 0.997 * 2, 1e-6, "and per value");
	{
		char line[128];

		rows_format(&r, 0, line, sizeof(line));
		EQ_STR(line, "1700000001:10:1", "librrd's update text");
	}
	rows_consume(&r, 1);
	EQ_INT(r.nheld, 1, "consume drops the written row");
	EQ_DBL(r.held_t[0], T + 2, 0, "the next one stays");
	rows_free(&r);
}

/* issue 11, item 11: an unknown read 3 ms after the boundary covers 99.7%
 * of the row before: that row is unknown, not the previous value */
static void unknown_stays_unknown(void)
{
	struct rows r;
	double v = 50;

	rows_init(&r, 1, 1, T, 4, 100);
	rows_add(&r, T, T + 1.003, &v);
	v = NAN;
	rows_add(&r, T + 1.003, T + 2.003, &v);
	v = 70;
	rows_add(&r, T + 2.003, T + 3.003, &v);
	EQ_INT(r.nheld, 3, "three rows");
	EQ_DBL(r.held[1], NAN, 0, "the row the unknown read covers is unknown");
	EQ_DBL(r.held[2], 70, 1e-9, "the next row is the next read's");
	{
		char line[64];

		rows_format(&r, 1, line, sizeof(line));
		EQ_STR(line, "1700000002:U", "written as U");
	}
	rows_free(&r);
}

/* issue 11, item 6: a read 1.6 s late fills both rows it covers */
static void late_fills(void)
{
	struct rows r;
	double v = 5;

	rows_init(&r, 1, 1, T, 4, 100);
	rows_add(&r, T, T + 1.0, &v);
	v = 8;
	EQ_INT(rows_add(&r, T + 1.0, T + 3.6, &v), 2, "a late read closes two rows");
	EQ_DBL(r.held[1], 8, 1e-12, "the first is its average");
	EQ_DBL(r.held[2], 8, 1e-12, "the second too");
	v = 9;
	rows_add(&r, T + 3.6, T + 4.0, &v);
	EQ_DBL(r.held[3], 0.6 * 8 + 0.4 * 9, 1e-6,
	       "the row it ends in shares with the next read");
	rows_free(&r);

	/* 59 s late at 1 s: still measured; 62 s: not trusted */
	rows_init(&r, 1, 1, T, 4, 1000);
	v = 3;
	EQ_INT(rows_add(&r, T, T + 61.0, &v), 61, "61 rows from one read");
	OK(!isnan(r.held[60]), "a read up to step + 60 s late fills");
	EQ_INT(rows_add(&r, T + 61.0, T + 123.0, &v), 62, "62 rows more");
	EQ_INT(r.nheld, 62, "but past the limit they are one unknown row");
	EQ_DBL(r.held[61], NAN, 0, "unknown");
	EQ_DBL(r.held_t[61], T + 123, 0, "spanning the whole gap");
	rows_free(&r);
}

/* time the caller says was not measured (the wall clock jumped) */
static void not_measured(void)
{
	struct rows r;
	double v = 4;

	rows_init(&r, 1, 1, T, 4, 100);
	rows_add(&r, T, T + 1.0, &v);
	/* the read covers (T+30.0, T+31.0] only */
	EQ_INT(rows_add(&r, T + 30.0, T + 31.0, &v), 30, "30 rows closed");
	EQ_INT(r.nheld, 3, "one known, one unknown for the gap, one known");
	EQ_DBL(r.held[1], NAN, 0, "the gap is unknown");
	EQ_DBL(r.held_t[1], T + 30, 0, "up to where the read began");
	EQ_DBL(r.held[2], 4, 0, "the read's own row");
	rows_free(&r);

	/* a gap of a year is one row too, not 31 million */
	rows_init(&r, 1, 1, T, 4, 100);
	rows_add(&r, T + 365 * 86400.0, T + 365 * 86400.0 + 1, &v);
	EQ_INT(r.nheld, 2, "a year's gap: one unknown row and the read's");
	rows_free(&r);
}

/* less than half known: unknown; half or more: the known part's average */
static void half_rule(void)
{
	struct rows r;
	double v = 10;

	rows_init(&r, 10, 1, T, 4, 100);
	/* (T, T+4] not measured, (T+4, T+10] measured: 6 s of 10 known */
	rows_add(&r, T + 4, T + 10, &v);
	EQ_DBL(r.held[0], 10, 1e-12, "6 of 10 s known: the average");
	/* (T+10, T+16] not measured, (T+16, T+20]: 4 of 10 known */
	rows_add(&r, T + 16, T + 20, &v);
	EQ_DBL(r.held[1], NAN, 0, "4 of 10 s known: unknown");
	rows_free(&r);
}

/* the hold limit drops the oldest rows and counts them */
static void hold_limit(void)
{
	struct rows r;
	double v = 1;

	rows_init(&r, 1, 1, T, 2, 8);
	for (int i = 1; i <= 20; i++) {
		v = i;
		rows_add(&r, T + i - 1, T + i, &v);
	}
	EQ_INT(r.nheld, 8, "at most max rows held");
	EQ_INT(r.dropped, 12, "the rest counted as dropped");
	EQ_DBL(r.held[0], 13, 0, "the oldest went first");
	rows_drop_upto(&r, T + 15);
	EQ_INT(r.nheld, 5, "drop_upto forgets rows the file has");
	EQ_DBL(r.held_t[0], T + 16, 0, "from the next one on");
	rows_free(&r);
}

int main(void)
{
	steady();
	unknown_stays_unknown();
	late_fills();
	not_measured();
	half_rule();
	hold_limit();
	return done_testing();
}
