/*
 * waitshare.c - which threads a tick of the wait-state sampler reads
 * (waits_int.h). A tick read every thread of the set: 2,000 busy threads
 * cost about 3 preads each a tick, so the rate fell to its 1 Hz floor
 * and the sampler alone took 2-3% of a CPU (docs/PERFORMANCE.md "A
 * hostile client"). Now a tick reads at most WAITS_TICK_THREADS of them,
 * in turn (by tid, so threads that come and go do not upset the order),
 * and each read counts for the ticks since the thread's last read (a
 * thread new to the set, or not yet seen blocked, is read at every tick
 * whatever the turn: its split would otherwise go by nothing, "other"
 * in waitrates.c; a first version without this logged 6-9 points of
 * "other" for 2,000 busy threads that reading them all put at 0.1): the
 * tick counts a thread carries are those it would have had, each tick of
 * its wait sampled once every N / WAITS_TICK_THREADS ticks. The rate rule
 * (waits.c) then sees a cheaper tick and keeps a higher rate within the
 * same budget. A set of up to WAITS_TICK_THREADS threads is read whole
 * at every tick, each read standing for one tick, exactly as before.
 *
 * The split of the blocked time (waitrates.c) is each thread's blocked
 * ticks in the interval: a thread not read in an interval has its
 * earlier ticks' shares instead (waitrates_thread's fallback).
 */
#define _GNU_SOURCE
#include "waits_int.h"

void waits_share_begin(struct waits *w)
{
	size_t lo = 0, hi = w->nlive;

	/* threads that joined in this tick stand for ticks from now on */
	for (size_t i = 0; i < w->nlive; i++)
		if (!w->live[i].seen)
			w->live[i].seen = w->nticks;
	w->turn_first = 0;
	w->turn_n = w->nlive;
	if (w->nlive <= WAITS_TICK_THREADS)
		return;
	/* live is sorted by tid: the first at or after share_from */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->live[mid].pub.tid < w->share_from)
			lo = mid + 1;
		else
			hi = mid;
	}
	w->turn_first = lo < w->nlive ? lo : 0;
	w->turn_n = WAITS_TICK_THREADS;
	/* the next turn starts at the thread after this one (by tid: it
	 * holds if threads end during the tick) */
	w->share_from = w->live[(w->turn_first + w->turn_n) % w->nlive].pub.tid;
}

/* Whether the thread was ever seen blocked: until then the split of its
 * blocked time has nothing to go by (waitrates.c counts it "other"). */
static int seen_blocked(const struct wthread *th)
{
	return th->pub.ticks[WAIT_DISK] || th->pub.ticks[WAIT_NET] ||
	       th->pub.ticks[WAIT_OTHER] || th->pub.ticks[WAIT_SLEEP];
}

int waits_share_turn(struct waits *w, size_t i)
{
	struct wthread *th = &w->live[i];

	/* a thread never read yet (weight 0 until then) or never seen
	 * blocked is read at every tick, so none has its blocked time
	 * split by nothing; the rest in turn */
	if (th->weight && seen_blocked(th) &&
	    (i + w->nlive - w->turn_first) % w->nlive >= w->turn_n)
		return 0;
	th->weight = w->nticks + 1 > th->seen ? w->nticks + 1 - th->seen : 1;
	th->seen = w->nticks + 1;
	return 1;
}
