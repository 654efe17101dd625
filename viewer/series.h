/*
 * series.h - one counter's rows over the viewer's window: resampled onto
 * plot columns, their statistics (newest, min, mean, max), the row at a
 * time. Rows follow logs/logset.h: a row stamped t covers (t - step, t].
 * Pure functions.
 */
#ifndef PERFLOG_VIEWER_SERIES_H
#define PERFLOG_VIEWER_SERIES_H

#include <stddef.h>
#include <time.h>

/* Rows of one counter as fetched: value of row i at v[i*stride], covering
 * (first + (i-1)*step, first + i*step]. A consolidated row (an archive
 * row of several samples: 1 minute, 1 hour) has its MIN and MAX beside
 * its AVERAGE: lo[i*stride] and hi[i*stride], on the same grid; NULL when
 * the rows are single samples (then a row's min and max are its value). */
struct vl_rows {
	const double *v;
	size_t n, stride;
	time_t first;
	unsigned long step;
	const double *lo, *hi;
};

/* Resample rows onto npts plot columns over [from, to): a column is the
 * mean of the rows stamped inside it, or, when columns are narrower than a
 * row, the row covering its middle; NAN where nothing is known. lo and hi
 * (either may be NULL) get the column's band: the lowest and highest
 * value of those rows (the min of their MINs and the max of their MAXes
 * when the rows are consolidated), so a peak shorter than a column, or
 * than a row, still shows at any zoom. */
void vl_resample_band(const struct vl_rows *r, double from, double to,
		      double *out, double *lo, double *hi, size_t npts);

/* vl_resample_band without the band. */
void vl_resample(const struct vl_rows *r, double from, double to,
		 double *out, size_t npts);

struct vl_stats {
	double cur, min, avg, max;	/* NAN when nothing is known */
	size_t n;			/* known rows in the window */
};

/* Newest known value, min, mean and max of the rows stamped in (from, to];
 * min and max of their MINs and MAXes when the rows are consolidated. */
struct vl_stats vl_window_stats(const struct vl_rows *r, double from,
				double to);

/* The row covering time t (its stamp is >= t and < t + step); returns the
 * row index or -1, and *stamp its stamp. */
long vl_row_at(const struct vl_rows *r, double t, time_t *stamp);

/* Stack a line on the one below it: pts[i] += below[i] where pts[i] is
 * known (an unknown value below counts as 0; an unknown pts[i] stays
 * unknown), so a stacked pane plots running sums. */
void vl_stack_onto(double *pts, const double *below, size_t n);

#endif
