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
 * The turn is fitted to the budget by the rate rule (waits_next calls
 * waits_share_fit_turn). A large set's rate sits at its 1 Hz floor, and
 * there the budget held only while a tick cost under 8 ms: a tick of
 * loadgen's 2,000 threads cost about 4 ms and 78 us more a thread of
 * its turn (a turn of 16: 3.8-4.8 ms; of 128: 10.7-16.0 ms), so the
 * sampler used 1.1-2.0% of a CPU for its 0.8%. Past the budget at the
 * floor, fewer threads a turn, each read less often and standing for
 * more ticks. The cost fitted to is that of ticks of turns alone: a
 * tick that read many threads outside its turn (a pool just met, each
 * read until seen blocked: 200-450 ms for 2,000) or scanned the fd
 * tables (waitpeer.c, its own share) says nothing of the turn's. A set
 * small enough to be read whole is never cut (its figures stay exact;
 * it may cost more than the budget at the floor, as before).
 *
 * The split of the blocked time (waitrates.c) is each thread's blocked
 * ticks in the interval: a thread not read in an interval has its
 * earlier ticks' shares instead (waitrates_thread's fallback).
 */
#define _GNU_SOURCE
#include "waits_int.h"

size_t waits_live_from(const struct waits *w, pid_t tid)
{
	size_t lo = 0, hi = w->nlive;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->live[mid].pub.tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void waits_share_begin(struct waits *w)
{
	size_t first;

	/* threads that joined in this tick stand for ticks from now on */
	for (size_t i = 0; i < w->nlive; i++)
		if (!w->live[i].seen)
			w->live[i].seen = w->nticks;
	w->turn_first = 0;
	w->turn_n = w->nlive;
	w->turn_extra = 0;
	if (w->nlive <= WAITS_TICK_THREADS)
		return;
	/* live is sorted by tid: the first at or after share_from */
	first = waits_live_from(w, w->share_from);
	w->turn_first = first < w->nlive ? first : 0;
	w->turn_n = w->turn_max;
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
	if ((i + w->nlive - w->turn_first) % w->nlive >= w->turn_n) {
		if (th->weight && seen_blocked(th))
			return 0;
		w->turn_extra++;
	}
	th->weight = w->nticks + 1 > th->seen ? w->nticks + 1 - th->seen : 1;
	th->seen = w->nticks + 1;
	return 1;
}

void waits_share_end(struct waits *w, double used, int scanned)
{
	if (w->turn_n >= w->nlive || scanned || w->turn_extra > w->turn_n / 4)
		return;
	w->turn_cost = w->turn_cost > 0 ?
		w->turn_cost + 0.5 * (used - w->turn_cost) : used;
}

void waits_share_fit_turn(struct waits *w)
{
	if (w->turn_cost <= 0 || w->nticks < w->fitted + WAITS_FIT_TICKS)
		return;
	w->fitted = w->nticks;
	w->turn_max = waits_share_fit(w->turn_max, w->turn_cost);
}

size_t waits_share_fit(size_t turn, double cost)
{
	const double limit = WAITS_CPU_BUDGET / WAITS_MIN_HZ;

	if (cost > limit) {
		/* squared: a tick's fixed part (the list, the loops) is not
		 * cut with the turn, so the plain ratio would take several
		 * fits to get there */
		double f = (limit / cost) * (limit / cost);
		turn = (size_t)((double)turn * (f < 0.5 ? 0.5 : f));
	} else if (cost < 0.75 * limit) {
		turn += turn / 8 + 1;
	}
	if (turn < WAITS_TICK_MIN)
		turn = WAITS_TICK_MIN;
	if (turn > WAITS_TICK_THREADS)
		turn = WAITS_TICK_THREADS;
	return turn;
}
