/*
 * rows.c - samples to whole rows (rows.h has the rules and why).
 */
#include "rows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/numfmt.h"

int rows_init(struct rows *r, unsigned long step, size_t n, double at,
	      size_t cap, size_t max)
{
	memset(r, 0, sizeof(*r));
	r->step = step ? step : 1;
	r->n = n;
	r->at = at;
	r->cap = cap ? cap : 1;
	r->max = max > r->cap ? max : r->cap;
	r->sum = calloc(n ? n : 1, sizeof(double));
	r->known = calloc(n ? n : 1, sizeof(double));
	r->held = malloc(r->cap * (n ? n : 1) * sizeof(double));
	r->held_t = malloc(r->cap * sizeof(double));
	if (!r->sum || !r->known || !r->held || !r->held_t) {
		rows_free(r);
		return -1;
	}
	return 0;
}

void rows_free(struct rows *r)
{
	free(r->sum);
	free(r->known);
	free(r->held);
	free(r->held_t);
	r->sum = r->known = r->held = r->held_t = NULL;
	r->nheld = r->cap = 0;
}

/* Room for one more held row: grow, or drop the oldest at max. */
static int make_room(struct rows *r)
{
	size_t cap;
	double *h, *ht;

	if (r->nheld < r->cap)
		return 0;
	if (r->cap >= r->max) {
		rows_consume(r, 1);
		r->dropped++;
		return 0;
	}
	cap = r->cap * 2 < r->max ? r->cap * 2 : r->max;
	h = realloc(r->held, cap * r->n * sizeof(double));
	if (h)
		r->held = h;
	ht = h ? realloc(r->held_t, cap * sizeof(double)) : NULL;
	if (!ht)
		return -1;
	r->held_t = ht;
	r->cap = cap;
	return 0;
}

/* Close the open row ending at end. */
static int emit(struct rows *r, double end)
{
	double *row;
	int unknown = 1;

	for (size_t i = 0; i < r->n; i++)
		if (r->known[i] * 2 >= (double)r->step)
			unknown = 0;
	if (unknown && r->nheld && r->tail_unknown) {
		/* stretch the held unknown row over this one too */
		r->held_t[r->nheld - 1] = end;
	} else {
		if (make_room(r) < 0) {
			r->dropped++;
			unknown = 0;
			goto reset;
		}
		row = r->held + r->nheld * r->n;
		for (size_t i = 0; i < r->n; i++)
			row[i] = r->known[i] * 2 >= (double)r->step ?
				 r->sum[i] / r->known[i] : NAN;
		r->held_t[r->nheld++] = end;
	}
reset:
	r->tail_unknown = unknown;
	memset(r->sum, 0, r->n * sizeof(double));
	memset(r->known, 0, r->n * sizeof(double));
	return 0;
}

static int open_row_unknown(const struct rows *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->known[i] > 0)
			return 0;
	return 1;
}

/* Account values v (NULL: unknown) from r->at up to until. */
static void account(struct rows *r, double until, const double *v)
{
	double step = (double)r->step;

	while (r->at < until) {
		double end = (floor(r->at / step) + 1) * step;
		double seg;

		if (!v && open_row_unknown(r) && until >= end + step) {
			/* a gap of whole unknown rows: jump to its last
			 * boundary, one held row covers them all */
			end = floor(until / step) * step;
		}
		seg = (end < until ? end : until) - r->at;
		if (v)
			for (size_t i = 0; i < r->n; i++)
				if (isfinite(v[i])) {
					r->sum[i] += v[i] * seg;
					r->known[i] += seg;
				}
		if (end <= until) {
			r->at = end;
			emit(r, end);
		} else {
			r->at = until;
		}
	}
}

int rows_add(struct rows *r, double from, double t, const double *v)
{
	double before = floor(r->at / (double)r->step);

	if (!(t > r->at))
		return 0;
	if (!(from >= r->at))
		from = r->at;
	if (from > t)
		from = t;
	/* a span longer than a late sample may be is not trusted: its
	 * average hides what happened (the collector was stopped) */
	if (t - from > (double)r->step + ROWS_LATE_MAX)
		v = NULL;
	account(r, from, NULL);
	account(r, t, v);
	return (int)(floor(r->at / (double)r->step) - before);
}

void rows_consume(struct rows *r, size_t k)
{
	if (k >= r->nheld) {
		r->nheld = 0;
		r->tail_unknown = 0;
		return;
	}
	memmove(r->held, r->held + k * r->n,
		(r->nheld - k) * r->n * sizeof(double));
	memmove(r->held_t, r->held_t + k, (r->nheld - k) * sizeof(double));
	r->nheld -= k;
}

void rows_drop_upto(struct rows *r, double t)
{
	size_t k = 0;

	while (k < r->nheld && r->held_t[k] <= t)
		k++;
	rows_consume(r, k);
}

void rows_drop_unknown_tail(struct rows *r)
{
	if (r->nheld && r->tail_unknown) {
		r->nheld--;
		r->tail_unknown = 0;
	}
}

int rows_format(const struct rows *r, size_t i, char *buf, size_t n)
{
	const double *row = r->held + i * r->n;
	size_t len;
	int k;

	/* numfmt, not printf: this runs for every value of every row */
	k = numfmt_g17(buf, n, floor(r->held_t[i] + 0.5));
	if (k < 0)
		return -1;
	len = (size_t)k;
	for (size_t j = 0; j < r->n; j++) {
		if (len + 2 >= n)
			return -1;
		buf[len++] = ':';
		if (!isfinite(row[j])) {
			buf[len++] = 'U';
			buf[len] = '\0';
			continue;
		}
		k = numfmt_g17(buf + len, n - len, row[j]);
		if (k < 0)
			return -1;
		len += (size_t)k;
	}
	return (int)len;
}
