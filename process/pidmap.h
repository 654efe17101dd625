/*
 * pidmap.h - INTERNAL to process/ (process_books.c): a set of task ids,
 * each with a time and the read generation it was last touched in.
 *
 * The books keep three such sets, each for a few reads: processes known
 * to be the tree's, tasks whose exit record was counted, and processes
 * found to be strangers. At 10,000 exits a second they hold 150,000 ids
 * at a 5 s interval; sorted arrays cost an insert (memmove) or a scan
 * (expiry) per exit record, the square of the rate (issue 21: 77% of a
 * CPU). Here: open addressing with linear probing, O(1) per look-up and
 * insert, and expiry once a read, which rebuilds the table from what
 * stays (O(n) a read, so O(1) amortised per record).
 */
#ifndef PERFLOG_PIDMAP_H
#define PERFLOG_PIDMAP_H

#include <stddef.h>
#include <sys/types.h>

struct pidmap_entry {
	pid_t id;		/* > 0; 0 marks a free slot */
	unsigned gen;		/* the read generation it was last set in */
	double when;		/* the caller's: a time, or a verdict */
};

struct pidmap {
	struct pidmap_entry *slot;
	size_t n, cap;		/* cap: 0 or a power of two, n <= cap / 2 */
};

/* The entry of id, or NULL. */
struct pidmap_entry *pidmap_get(const struct pidmap *m, pid_t id);

/* The entry of id, made (when 0, gen 0) if it was not there; NULL when
 * out of memory or id <= 0. A pointer is good until the next put or
 * expire. */
struct pidmap_entry *pidmap_put(struct pidmap *m, pid_t id);

/* Forget the entries last set before generation oldest. */
void pidmap_expire(struct pidmap *m, unsigned oldest);

void pidmap_free(struct pidmap *m);

#endif
