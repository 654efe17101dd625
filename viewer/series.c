/* series.c - rows over the window: resampling and statistics (series.h). */
#include "series.h"

#include <math.h>

void vl_resample(const struct vl_rows *r, double from, double to,
		 double *out, size_t npts)
{
	if (!npts)
		return;
	double dt = (to - from) / (double)npts;
	for (size_t i = 0; i < npts; i++)
		out[i] = NAN;
	if (!r || !r->n || !r->step || dt <= 0)
		return;
	double step = (double)r->step, first = (double)r->first;
	if (dt <= step) {
		/* columns narrower than a row: the row covering the middle */
		for (size_t i = 0; i < npts; i++) {
			double mid = from + ((double)i + 0.5) * dt;
			double k = ceil((mid - first) / step);
			if (k < 0 || k >= (double)r->n)
				continue;
			out[i] = r->v[(size_t)k * r->stride];
		}
		return;
	}
	/* columns wider: mean of the rows stamped in [col start, col end) */
	double k0 = ceil((from - first) / step);
	if (k0 < 0)
		k0 = 0;
	double sum = 0;
	size_t cnt = 0, col = 0;
	for (size_t k = (size_t)k0; k < r->n; k++) {
		double t = first + (double)k * step;
		if (t >= to)
			break;
		size_t c = (size_t)((t - from) / dt);
		if (c >= npts)
			c = npts - 1;
		if (c != col) {
			if (cnt)
				out[col] = sum / (double)cnt;
			sum = 0;
			cnt = 0;
			col = c;
		}
		double v = r->v[k * r->stride];
		if (!isnan(v)) {
			sum += v;
			cnt++;
		}
	}
	if (cnt)
		out[col] = sum / (double)cnt;
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
		double v = r->v[k * r->stride];
		if (isnan(v))
			continue;
		if (!s.n || v < s.min)
			s.min = v;
		if (!s.n || v > s.max)
			s.max = v;
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
