/*
 * layout.c - archive sizes and growth schedule (layout.h).
 */
#include "layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/util.h"

unsigned long layout_first_span(void)
{
	const char *s = getenv("PERFLOG_TEST_FIRST_SPAN");
	unsigned long v;

	if (s && *s && util_parse_duration(s, &v) == 0 && v >= 2)
		return v;
	return LAYOUT_FIRST_SPAN;
}

/* Steps per row of archive rra. */
static unsigned long pdp_per_row(const struct layout *l, int rra)
{
	unsigned long per = rra == 0 ? l->step : rra <= 3 ? 60 : 3600;

	return l->step >= per ? 1 : per / l->step;
}

static unsigned long min_ul(unsigned long a, unsigned long b)
{
	return a < b ? a : b;
}

unsigned long layout_rows(const struct layout *l, unsigned long span,
			  int rra)
{
	unsigned long dur = pdp_per_row(l, rra) * l->step, limit, rows;

	if (rra == 0) {
		rows = (min_ul(span, l->retention) + l->step - 1) / l->step;
		return rows < 2 ? 2 : rows;
	}
	limit = rra <= 3 ? LAYOUT_MINUTE_SPAN : LAYOUT_HOUR_SPAN;
	/* + 1: a row's alignment to its duration may cut the first one */
	return (min_ul(span, limit) + dur - 1) / dur + 1;
}

unsigned long layout_max_span(const struct layout *l)
{
	unsigned long m = LAYOUT_HOUR_SPAN;

	if (l->retention > m)
		m = l->retention;
	return m;
}

unsigned long layout_span_for(const struct layout *l, unsigned long span,
			      double elapsed)
{
	unsigned long max = layout_max_span(l);

	while (span < max && elapsed >= 0.75 * (double)span)
		span = span > max / 2 ? max : span * 2;
	return span;
}

unsigned long long layout_bytes(const struct layout *l, unsigned long span,
				size_t nds)
{
	unsigned long long rows = 0;

	for (int i = 0; i < LAYOUT_NRRA; i++)
		rows += layout_rows(l, span, i);
	/* the header: ~1 KB and ~800 bytes a data source */
	return 1024 + 800ULL * nds + rows * nds * 8;
}

static void fmt_bound(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "U");
	else
		snprintf(buf, n, "%.17g", v);
}

int layout_args(const struct layout *l, unsigned long span,
		enum counter_object obj, const int *idx, size_t n,
		char args[][LAYOUT_ARGLEN], const char **argv)
{
	static const char *const cfs[] = { "MIN", "AVERAGE", "MAX" };
	int argc = 0;

	for (size_t i = 0; i < n && i < CATALOG_MAX_PER_OBJECT; i++) {
		const struct counter_def *d = catalog_counter_at(obj, idx[i]);
		char lo[32], hi[32];

		fmt_bound(lo, sizeof(lo), d->min);
		fmt_bound(hi, sizeof(hi), d->max);
		/* perflog hands librrd whole rows, one update a row (rows.h):
		 * the heartbeat only has to let one row through */
		snprintf(args[argc++], LAYOUT_ARGLEN, "DS:%s:GAUGE:%lu:%s:%s",
			 d->ds, 2 * l->step, lo, hi);
	}
	snprintf(args[argc++], LAYOUT_ARGLEN, "RRA:AVERAGE:0.5:1:%lu",
		 layout_rows(l, span, 0));
	for (int r = 1; r < LAYOUT_NRRA; r++)
		snprintf(args[argc++], LAYOUT_ARGLEN, "RRA:%s:0.5:%lu:%lu",
			 cfs[(r - 1) % 3], pdp_per_row(l, r),
			 layout_rows(l, span, r));
	for (int i = 0; i < argc; i++)
		argv[i] = args[i];
	return argc;
}
