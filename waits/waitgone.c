/*
 * waitgone.c - the rows the sampler ended itself (waits.c
 * waits_end_thread), each kept until its thread's exit record comes
 * (waitexit.c), so that the record, however late, makes no second row
 * of the same task (waits_int.h struct waits_gones).
 *
 * A record comes within milliseconds of its thread's end, unless the
 * collector's loop is held (librrd writes on a loaded host: 2.5 s) or
 * the Process books keep it until a read knows its parent (up to two
 * reads: process.h proctree_exit). Kept 1-2 s, a row was forgotten
 * before such a record came, and the record made it a second row, its
 * CPU counted twice in the session's totals (t3015: six jobs 0.640 s
 * against the 0.557 s they used). So a row is kept until its record
 * takes it; one whose record never comes (a thread of less than 20 ms:
 * waitsampler.c sends none; one the kernel dropped) is forgotten once it
 * ended GONE_KEEP_SEC ago and GONE_KEEP_READS reads were made since.
 *
 * A record is a row's when its task is the same: the tid, and an end
 * (the row's birth, from /proc, plus the record's life) by the moment
 * the row was found gone and the record came, its begin time (whole
 * wall-clock seconds: within 1 s of the birth) agreeing. So a tid reused
 * by a new task is not taken for the old one, nor the old one's record
 * for a new task of its tid.
 *
 * Cost: a hash of tids (open addressing, linear probing), a record's
 * look-up a probe or two; rebuilt (expired rows left out) when half
 * full or GONE_KEEP_SEC after the last rebuild; at most GONE_MAX rows
 * (past that the oldest beyond GONE_MIN_SEC go first). A client making
 * 10,000 threads a second had the tick end a few hundred a second.
 */
#include "waits_int.h"

#include <math.h>
#include <stdlib.h>

#define GONE_KEEP_SEC 10.0
#define GONE_KEEP_READS 3
#define GONE_MIN_SEC 2.0
#define GONE_MAX 32768
/* A birth from /proc's start (10 ms ticks) and the uptime (10 ms) */
#define GONE_EPS 0.05
/* ... on a loaded host, the uptime and the monotonic clock read apart:
 * a birth dated up to tenths of a second late. An end within 0.05 s
 * failed 472 of t7720's 2,001 threads in a make check (their records
 * then made second rows: 2,474 for 2,002), as the 0.5 s final() had
 * allowed before */
#define GONE_END_SLACK 0.5

int waits_same_task(double born, double by, const struct taskstats_exit *x,
		    double at, double wall)
{
	double end = born + x->etime;

	if (end > by + GONE_END_SLACK || end > at + GONE_END_SLACK)
		return 0;
	/* ac_btime: the wall clock's whole seconds less the life's whole
	 * seconds, so within 1 s of the birth either way (0: unknown) */
	return !(x->btime > 0) || fabs(born + wall - x->btime) < 1.0 + GONE_EPS;
}

static size_t slot_of(pid_t tid, size_t cap)
{
	return ((uint32_t)tid * 2654435761u >> 7) & (cap - 1);
}

static void put(struct waits_gone *slot, size_t cap, const struct waits_gone *g)
{
	size_t k = slot_of(g->tid, cap);

	while (slot[k].tid)
		k = (k + 1) & (cap - 1);
	slot[k] = *g;
}

/* Whether row e, found gone keep seconds or more before now and reads or
 * more reads ago (nreads made now), is forgotten. */
static int expired(const struct waits_gone *e, double now, double keep,
		   uint32_t nreads, uint32_t reads)
{
	return now - (e->born + e->ended) > keep &&
	       (uint32_t)(nreads - e->read) >= reads;
}

/* The table again, with room for one more, without the rows expired. */
static int rebuild(struct waits_gones *g, double now, double keep,
		   uint32_t nreads, uint32_t reads)
{
	struct waits_gone *slot;
	size_t n = 0, cap = 64;

	for (size_t k = 0; k < g->cap; k++) {
		const struct waits_gone *e = &g->slot[k];

		if (e->tid && !expired(e, now, keep, nreads, reads))
			n++;
	}
	while (cap < 2 * (n + 1))
		cap *= 2;
	if (!(slot = calloc(cap, sizeof(*slot))))
		return -1;
	for (size_t k = 0; k < g->cap; k++) {
		const struct waits_gone *e = &g->slot[k];

		if (e->tid && !expired(e, now, keep, nreads, reads))
			put(slot, cap, e);
	}
	free(g->slot);
	g->slot = slot;
	g->cap = cap;
	g->n = n;
	g->swept = now;
	return 0;
}

void waits_gone_add(struct waits_gones *g, const struct waits_thread *th,
		    double by, uint32_t nreads)
{
	double now = util_monotonic();
	struct waits_gone e = { th->tid, nreads, th->born,
				(float)(by - th->born) };

	/* lived less than the least record the sampler is given */
	if (by - th->born + GONE_EPS < WAITS_EXIT_MIN_SEC)
		return;
	if (2 * (g->n + 1) > g->cap || now - g->swept >= GONE_KEEP_SEC) {
		if (rebuild(g, now, GONE_KEEP_SEC, nreads, GONE_KEEP_READS) < 0)
			return;
		if (g->n >= GONE_MAX &&
		    rebuild(g, now, GONE_MIN_SEC, nreads, 0) < 0)
			return;
		if (g->n >= GONE_MAX)
			return;	/* its late record would make a row */
	}
	put(g->slot, g->cap, &e);
	g->n++;
}

/* Slot k emptied: the rows after it in its run moved up where their
 * probes would find them (linear probing's deletion, no tombstones). */
static void erase(struct waits_gones *g, size_t k)
{
	size_t mask = g->cap - 1, j = k;

	g->slot[k].tid = 0;
	g->n--;
	for (;;) {
		size_t home;

		j = (j + 1) & mask;
		if (!g->slot[j].tid)
			return;
		home = slot_of(g->slot[j].tid, g->cap);
		/* j's row may fill k when k lies on its probe from home */
		if (((j - home) & mask) >= ((j - k) & mask)) {
			g->slot[k] = g->slot[j];
			g->slot[j].tid = 0;
			k = j;
		}
	}
}

int waits_gone_take(struct waits_gones *g, const struct taskstats_exit *x,
		    double at, double wall, double *born)
{
	if (!g->n)
		return 0;
	for (size_t k = slot_of(x->tid, g->cap); g->slot[k].tid;
	     k = (k + 1) & (g->cap - 1)) {
		const struct waits_gone *e = &g->slot[k];

		if (e->tid != x->tid ||
		    !waits_same_task(e->born, e->born + e->ended, x, at, wall))
			continue;
		*born = e->born;
		erase(g, k);
		return 1;
	}
	return 0;
}

void waits_gone_free(struct waits_gones *g)
{
	free(g->slot);
	g->slot = NULL;
	g->n = g->cap = 0;
}
