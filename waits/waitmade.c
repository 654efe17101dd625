/*
 * waitmade.c - the rows the sampler made from exit records (waitexit.c
 * waits_exits), remembered 1-2 s so that a tick listing the task late
 * in its exit, still in /proc after its record came, makes no second
 * row of it (waits_int.h struct waits_tids; waits_made_add,
 * waits_made_row). The rows the sampler ended itself are waitgone.c's.
 */
#include "waits_int.h"

#include <stdlib.h>

/* Rows made from exit records are remembered this long at least, twice
 * at most (waits_made_row): a task is in /proc after its record came
 * only for the moment of its exit that follows. */
#define MADE_KEEP_SEC 1.0

/* The older second forgotten, once a second. */
static void made_rotate(struct waits *w, double now)
{
	if (now - w->made_since < MADE_KEEP_SEC)
		return;
	w->gen ^= 1;
	w->made.n[w->gen] = w->made.sorted[w->gen] = 0;
	w->made_since = now;
}

static void tids_add(struct waits *w, struct waits_tids *t, pid_t tid,
		     double by)
{
	int g;

	made_rotate(w, util_monotonic());
	g = w->gen;
	if (util_grow(&t->tid[g], &t->cap[g], t->n[g] + 1,
		      sizeof(*t->tid[g])) == 0)
		t->tid[g][t->n[g]++] = (struct waits_tid){ tid, by };
}

static int cmp_tid(const void *a, const void *b)
{
	const struct waits_tid *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Whether t has tid for a task started at start. (Rotated by the adds
 * alone: with 10,000 records a second, two clock reads a record were
 * 3% of the collector's samples.) */
static int tids_find(struct waits_tids *t, pid_t tid, double start)
{
	for (int g = 0; g < 2; g++) {
		const struct waits_tid *m = t->tid[g];
		size_t lo = 0, hi = t->n[g];

		if (t->sorted[g] != hi) {
			qsort(t->tid[g], hi, sizeof(*m), cmp_tid);
			t->sorted[g] = hi;
		}
		while (lo < hi) {	/* the first of tid (a tid reused may
					 * have two) */
			size_t mid = lo + (hi - lo) / 2;

			if (m[mid].tid < tid)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < t->n[g] && m[lo].tid == tid; lo++)
			if (start <= m[lo].by)
				return 1;
	}
	return 0;
}

void waits_made_add(struct waits *w, pid_t tid, double by)
{
	tids_add(w, &w->made, tid, by);
}

int waits_made_row(struct waits *w, pid_t tid, double start)
{
	return tids_find(&w->made, tid, start);
}
