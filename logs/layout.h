/*
 * layout.h - the archives of a log set's RRD files, and how they grow.
 *
 * Every file has the same seven archives (RRAs), in this order:
 *
 *   0      AVERAGE of 1 step                   up to [log] retention
 *   1 2 3  MIN, AVERAGE, MAX of 1 minute       up to 30 days
 *   4 5 6  MIN, AVERAGE, MAX of 1 hour         up to a year
 *
 * (a step of a minute or more makes "1 minute" one step, and so on.) A
 * file is sized for a span: each archive holds that many seconds, or its
 * own limit if smaller (the consolidations a row more, for the row their
 * alignment cuts). A log set starts at LAYOUT_FIRST_SPAN (an hour: a disk's
 * file is ~260 KB at 1 s instead of 18 MB) and doubles its span when
 * three quarters of it have passed, until every archive has reached its
 * limit: from then on the file wraps, as it always did at retention. So
 * a log set's size follows its duration (at most about twice its rows),
 * and every archive of every file covers the set from its start (readers
 * rely on that: librrd picks, for a fetch, the finest archive that covers
 * the whole span asked; see logset_read.c).
 *
 * The seam for tests: $PERFLOG_TEST_FIRST_SPAN (seconds) replaces the
 * first span, so a run at 1 s grows several times within a minute. Not
 * for production use.
 */
#ifndef PERFLOG_LAYOUT_H
#define PERFLOG_LAYOUT_H

#include <stddef.h>

#include "../counters/counters.h"

#define LAYOUT_NRRA 7
#define LAYOUT_FIRST_SPAN 3600UL
#define LAYOUT_MINUTE_SPAN (30UL * 86400)
#define LAYOUT_HOUR_SPAN (365UL * 86400)
/* room for the create arguments: a DS per counter and the archives */
#define LAYOUT_MAXARGS (CATALOG_MAX_PER_OBJECT + LAYOUT_NRRA)
#define LAYOUT_ARGLEN 96

struct layout {
	unsigned long step;		/* seconds */
	unsigned long retention;	/* seconds at full resolution */
};

/* The first span of a log set: LAYOUT_FIRST_SPAN, or the test seam. */
unsigned long layout_first_span(void);

/* Rows of archive rra (0..LAYOUT_NRRA) in a file sized for span. */
unsigned long layout_rows(const struct layout *l, unsigned long span,
			  int rra);

/* The span past which nothing grows (every archive at its limit). */
unsigned long layout_max_span(const struct layout *l);

/* The span a set needs elapsed seconds after its start, starting from
 * span: doubled while elapsed >= 3/4 of it, up to layout_max_span. */
unsigned long layout_span_for(const struct layout *l, unsigned long span,
			      double elapsed);

/* Approximate bytes of a file of nds data sources sized for span. */
unsigned long long layout_bytes(const struct layout *l, unsigned long span,
				size_t nds);

/* rrd_create arguments for a file of counters idx[0..n) of obj sized for
 * span: "DS:..." per counter, then the archives. Fills args (each
 * LAYOUT_ARGLEN) and argv; returns argc. */
int layout_args(const struct layout *l, unsigned long span,
		enum counter_object obj, const int *idx, size_t n,
		char args[][LAYOUT_ARGLEN], const char **argv);

#endif
