/*
 * lookup.h - finding counters in a log set's counter map (the read side,
 * shared by the viewer, the PNG export and the report): one counter by id
 * and instance, the instances ranked by how busy they were, and a chart
 * set's series (counters/chartset.h) turned into the counters of one log
 * set.
 */
#ifndef PERFLOG_LOOKUP_H
#define PERFLOG_LOOKUP_H

#include <stddef.h>
#include <time.h>

#include "../common/util.h"
#include "../counters/counters.h"
#include "logset.h"

/* Index of counter id of instance inst ("" for Memory and System) in the
 * log set's counter map, or -1. */
long lookup_counter(const struct logset_meta *m, enum counter_id id,
		    const char *inst);

/* The Process instance of a session: the one named as the session
 * (perflog run's label), else the only one the log set has; NULL when
 * neither. */
const char *lookup_process(const struct logset_meta *m, const char *session);

/* A loopback interface by its name: lo (Linux), lo0 (the BSDs); a log set
 * keeps names, not device types. */
int lookup_is_loopback(const char *instance);

/* An instance's rank: its counter's index and mean. */
struct lookup_rank {
	size_t idx;
	double mean;		/* over the known values; NAN: none known */
};

/* The instances of counter id but _Total, ranked by their mean over the
 * rows ending in [from, to] (fetched at `res` seconds a row), busiest
 * first, ties in perflog.meta order; instances with no known value come
 * after the others, and so does a loopback (lookup_is_loopback) unless it
 * carried traffic (a backup to a local server, a test over loopback). When the
 * fetch fails every mean is NAN and the order is perflog.meta's. Returns
 * how many were written to out (at most max), or -1 out of memory. */
long lookup_busiest(struct logset *ls, enum counter_id id, time_t from,
		    time_t to, unsigned long res, struct lookup_rank *out,
		    size_t max);

/* The same ranking from values fetched already: counter i of the set is
 * column col[i] of s (-1: not fetched, its mean unknown), s fetched over
 * the span and at the step lookup_busiest would (report_figures.c: one
 * fetch a session, not one more a counter). */
long lookup_busiest_in(const struct logset_meta *m, enum counter_id id,
		       const struct logset_series *s, const long *col,
		       struct lookup_rank *out, size_t max);

/* One counter a series stands for in a log set. */
struct lookup_hit {
	size_t idx;		/* the counter */
	long ref;		/* its reference counter (has_ref), or -1 */
	const char *instance;	/* in the log set's map: "" for Memory */
};

/* The counters series s stands for in the log set (its instance rule,
 * chartset.h), at most max. rank[0..nrank) are the set's instances
 * busiest first (the counter indices of lookup_busiest): CI_EACH then
 * takes their instances in that order, CI_TOTAL_ELSE_TOP the first when
 * there is no _Total. rank NULL: CI_EACH takes every instance in
 * perflog.meta order, CI_TOTAL_ELSE_TOP the first one. CI_NAMED takes
 * its named instance when the log set has it. Returns how many. */
size_t lookup_series(const struct logset_meta *m, const struct chart_series *s,
		     const size_t *rank, size_t nrank, struct lookup_hit *out,
		     size_t max);

#endif
