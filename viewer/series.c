/* series.c - rows over the window: resampling and statistics (series.h). */
#include "series.h"

#include <math.h>

/* Row k's lowest and highest value: its MIN and MAX when consolidated
 * (either unknown: its value), else its value. */
static void row_band(const struct vl_rows *r, size_t k, double v, double *lo,
		     double *hi)
{
	*lo = r->lo ? r->lo[k * r->stride] : v;
	*hi = r->hi ? r->hi[k * r->stride] : v;
	if (isnan(*lo))
		*lo = v;
	if (isnan(*hi))
		*hi = v;
}

static void fill_nan(double *out, size_t n)
{
	for (size_t i = 0; out && i < n; i++)
		out[i] = NAN;
}

/* Columns narrower than a row: each the row covering its middle. */
static void resample_narrow(const struct vl_rows *r, double from, double dt,
			    double *out, double *lo, double *hi, size_t npts)
{
	double step = (double)r->step, first = (double)r->first;

	for (size_t i = 0; i < npts; i++) {
		double mid = from + ((double)i + 0.5) * dt;
		double k = ceil((mid - first) / step);
		double a, b;
		if (k < 0 || k >= (double)r->n)
			continue;
		out[i] = r->v[(size_t)k * r->stride];
		if (isnan(out[i]))
			continue;
		row_band(r, (size_t)k, out[i], &a, &b);
		if (lo)
			lo[i] = a;
		if (hi)
			hi[i] = b;
	}
}

/* A column wider than a row: the running mean and band of its rows. */
struct column {
	double sum, lo, hi;
	size_t cnt;
};

static void column_put(const struct column *c, size_t i, double *out,
		       double *lo, double *hi)
{
	if (!c->cnt)
		return;
	out[i] = c->sum / (double)c->cnt;
	if (lo)
		lo[i] = c->lo;
	if (hi)
		hi[i] = c->hi;
}

void vl_resample_band(const struct vl_rows *r, double from, double to,
		      double *out, double *lo, double *hi, size_t npts)
{
	if (!npts)
		return;
	double dt = (to - from) / (double)npts;
	fill_nan(out, npts);
	fill_nan(lo, npts);
	fill_nan(hi, npts);
	if (!r || !r->n || !r->step || dt <= 0)
		return;
	double step = (double)r->step, first = (double)r->first;
	if (dt <= step) {
		resample_narrow(r, from, dt, out, lo, hi, npts);
		return;
	}
	/* columns wider: mean of the rows stamped in [col start, col end),
	 * the band their lowest and highest */
	double k0 = ceil((from - first) / step);
	if (k0 < 0)
		k0 = 0;
	struct column c = { 0, 0, 0, 0 };
	size_t col = 0;
	for (size_t k = (size_t)k0; k < r->n; k++) {
		double t = first + (double)k * step;
		if (t >= to)
			break;
		size_t ci = (size_t)((t - from) / dt);
		if (ci >= npts)
			ci = npts - 1;
		if (ci != col) {
			column_put(&c, col, out, lo, hi);
			c = (struct column){ 0, 0, 0, 0 };
			col = ci;
		}
		double v = r->v[k * r->stride], a, b;
		if (isnan(v))
			continue;
		row_band(r, k, v, &a, &b);
		if (!c.cnt || a < c.lo)
			c.lo = a;
		if (!c.cnt || b > c.hi)
			c.hi = b;
		c.sum += v;
		c.cnt++;
	}
	column_put(&c, col, out, lo, hi);
}

void vl_resample(const struct vl_rows *r, double from, double to,
		 double *out, size_t npts)
{
	vl_resample_band(r, from, to, out, NULL, NULL, npts);
}

struct vl_stats vl_window_stats(const struct vl_rows *r, double from,
				double to)
{
	struct vl_stats s = { NAN, NAN, NAN, NAN, 0 };
	if (!r || !r->n || !r->step)
		return s;
	double sum = 0;
	for (size_t k = 0; k < r->n; k++) {
		double t = (double)r->first + (double)k * (double)r->step;
		if (t <= from || t > to)
			continue;
		double v = r->v[k * r->stride], a, b;
		if (isnan(v))
			continue;
		row_band(r, k, v, &a, &b);
		if (!s.n || a < s.min)
			s.min = a;
		if (!s.n || b > s.max)
			s.max = b;
		sum += v;
		s.cur = v;
		s.n++;
	}
	if (s.n)
		s.avg = sum / (double)s.n;
	return s;
}

long vl_row_at(const struct vl_rows *r, double t, time_t *stamp)
{
	if (!r || !r->n || !r->step)
		return -1;
	double k = ceil((t - (double)r->first) / (double)r->step);
	if (k < 0 || k >= (double)r->n)
		return -1;
	if (stamp)
		*stamp = r->first + (time_t)k * (time_t)r->step;
	return (long)k;
}


void vl_stack_onto(double *pts, const double *below, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isnan(pts[i]) && !isnan(below[i]))
			pts[i] += below[i];
}
