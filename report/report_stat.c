/*
 * report_stat.c - statistics of a series over a session (average, 95th
 * percentile, peak) and the formatting of bytes and bits the report
 * prints them with (report_stat.h). Pure: no log set, no I/O.
 */
#include "report_stat.h"

#include <math.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

#include "../counters/counters.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double percentile_sorted(const double *s, size_t n, double p)
{
	if (!n)
		return NAN;
	if (p <= 0)
		return s[0];
	if (p >= 100)
		return s[n - 1];
	double h = (double)(n - 1) * p / 100.0;
	size_t lo = (size_t)floor(h);
	size_t hi = lo + 1 < n ? lo + 1 : lo;
	return s[lo] + (h - (double)lo) * (s[hi] - s[lo]);
}

/* The known values of v, sorted; *m gets their count. */
static double *known_sorted(const double *v, size_t n, size_t stride,
			    size_t *m)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));

	*m = 0;
	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i * stride]))
			s[(*m)++] = v[i * stride];
	qsort(s, *m, sizeof(*s), cmp_double);
	return s;
}

double report_percentile(const double *v, size_t n, double p)
{
	size_t m;
	double *s = known_sorted(v, n, 1, &m);
	double r = s ? percentile_sorted(s, m, p) : NAN;

	free(s);
	return r;
}

void report_stat_of(const double *v, size_t n, size_t stride,
		    struct report_stat *out)
{
	size_t m;
	double *s = known_sorted(v, n, stride ? stride : 1, &m);

	out->avg = out->p95 = out->peak = out->min = out->positive = NAN;
	out->n = 0;
	if (!s || !m) {
		free(s);
		return;
	}
	double sum = 0;
	size_t pos = 0;
	for (size_t i = 0; i < m; i++) {
		sum += s[i];
		pos += s[i] > 0;
	}
	out->n = m;
	out->avg = sum / (double)m;
	out->p95 = percentile_sorted(s, m, 95);
	out->peak = s[m - 1];
	out->min = s[0];
	out->positive = (double)pos / (double)m;
	free(s);
}

/* The format is counters/units.h's, the one the viewer and the PNGs'
 * legends print too; a rate the report's one unit of a rate. */
char *report_fmt_bytes(char *buf, size_t n, double bytes, const char *suffix)
{
	if (suffix && !strcmp(suffix, "/s"))
		return units_fmt_rate(buf, n, bytes);
	return units_fmt_bytes(buf, n, bytes, suffix);
}

char *report_fmt_bits(char *buf, size_t n, double bits)
{
	if (isnan(bits) || bits <= 0) {
		snprintf(buf, n, "unknown bandwidth");
		return buf;
	}
	return units_fmt_bits(buf, n, bits);
}
