/*
 * waitexit.c - rows for the set's threads that no tick sampled, from
 * their exit records (waits.h waits_exits).
 *
 * A tick lists the set, then samples it; on a saturated host a tick over
 * 2,000 new threads took 1-3 s, and at the rate's floor (one tick a
 * second) a thread may begin and end between two listings. The collector
 * has every task's exit record (taskstats) and already gives its books
 * the tree's; those the sampler never listed become rows here, so the
 * wait-state rows count the threads and CPU the Process counters do.
 */
#include "waits_int.h"

#include <math.h>
#include <string.h>

/* The listed thread tid, or NULL. */
static struct wthread *listed(struct waits *w, pid_t tid)
{
	size_t i = waits_live_from(w, tid);

	return i < w->nlive && w->live[i].pub.tid == tid ? &w->live[i] : NULL;
}

/* *have raised to the record's figure (WAITS_NA: unknown until now) */
static void raise_to(uint64_t *have, uint64_t v)
{
	if (*have == WAITS_NA || v > *have)
		*have = v;
}

/* A record's final figures into the row of its task (pub: a listed
 * thread's, or a row a tick ended and no read has taken yet): its last
 * tick was up to a period before its end (a job of 0.15 s had 0.124 s
 * in its row), so they now run to its exit, and its name is the one it
 * ended with (a child listed before its exec, never read after, was
 * `sh` for head's 400 MB). Their time is its end, its birth and the
 * record's life: not when the record came, which may be seconds later
 * (the collector's loop held), nor before its last figures. Its
 * run-queue time since its last read stays unknown. */
static void final(struct waits_thread *pub, const struct taskstats_exit *x)
{
	double end = pub->born + x->etime;

	raise_to(&pub->cpu_ns, x->cpu_us * 1000);
	if (x->runq_ns != TASKSTATS_NA)
		raise_to(&pub->runq_ns, x->runq_ns);
	if (x->blkio_ns != TASKSTATS_NA)
		raise_to(&pub->blkio_ns, x->blkio_ns);
	raise_to(&pub->rchar, x->rchar);
	raise_to(&pub->wchar, x->wchar);
	raise_to(&pub->read_bytes, x->read_bytes);
	raise_to(&pub->write_bytes, x->write_bytes);
	memcpy(pub->comm, x->comm, sizeof(pub->comm));
	pub->comm[sizeof(pub->comm) - 1] = '\0';
	if (end > pub->t)
		pub->t = end;
}

/* The row of the task of tid born at born that a tick ended and no read
 * has taken yet, or NULL. */
static struct waits_thread *pending(struct waits *w, pid_t tid, double born)
{
	for (size_t i = w->nended; i-- > 0;)
		if (w->ended[i].tid == tid && w->ended[i].born == born)
			return &w->ended[i];
	return NULL;
}

/* The row of record x, which came at monotonic time at; up: seconds
 * since boot now, now its monotonic time, wall the wall clock less the
 * monotonic one. Its end is taken as the record's coming, unless its
 * begin time (ac_btime, whole seconds: its birth is before btime + 1)
 * says it began earlier than that less its life: a record drained 2.5 s
 * late dated its task 2.5 s late, at most a second now. */
static void row_of(const struct waits *w, const struct taskstats_exit *x,
		   double at, double up, double now, double wall,
		   struct waits_thread *th)
{
	double born = at - x->etime, began;

	if (x->btime > 0 && x->btime + 1.0 - wall < born)
		born = x->btime + 1.0 - wall;
	began = up - (now - born);
	memset(th, 0, sizeof(*th));
	th->tid = x->tid;
	th->pid = x->tgid > 0 ? x->tgid : x->tid;
	th->start = began > 0 ? (uint64_t)(began * (double)w->hz) : 0;
	memcpy(th->comm, x->comm, sizeof(th->comm));
	th->comm[sizeof(th->comm) - 1] = '\0';
	th->alive = 0;
	th->t = born + x->etime;
	th->born = born;
	th->cpu_ns = x->cpu_us * 1000;
	/* its delays, with delay accounting on: else its run-queue wait
	 * is unknown, and a short job's throttled or queued time was
	 * "other" (a quota's loop of $(date), each 0.08 s alive and 8 ms
	 * on a CPU) */
	th->runq_ns = x->runq_ns != TASKSTATS_NA ? x->runq_ns : WAITS_NA;
	th->blkio_ns = x->blkio_ns != TASKSTATS_NA ? x->blkio_ns : WAITS_NA;
	th->rchar = x->rchar;
	th->wchar = x->wchar;
	th->read_bytes = x->read_bytes;
	th->write_bytes = x->write_bytes;
	for (int k = 0; k < WAITS_EDGES; k++)
		th->edge[k].id = WAITS_NO_EDGE;
}

int waits_exits(struct waits *w, const struct waits_exit *e, size_t n)
{
	double up = waits_uptime(w), now = util_monotonic();
	double wall = util_walltime() - now;
	int added = 0;

	for (size_t i = 0; i < n; i++) {
		const struct taskstats_exit *x = &e[i].x;
		struct wthread *th;
		struct waits_thread *row;
		double born;

		if (x->tid == w->exclude)
			continue;
		/* a listed thread's: its final figures */
		if ((th = listed(w, x->tid)) && !th->exited &&
		    waits_same_task(th->pub.born, INFINITY, x, e[i].at, wall)) {
			final(&th->pub, x);
			th->exited = 1;
			continue;
		}
		/* a row the sampler ended: however late the record (the
		 * collector's loop held, the books waiting for its parent),
		 * no second row; the row's final figures while no read has
		 * taken it */
		if (waits_gone_take(&w->gone, x, e[i].at, wall, &born)) {
			if ((row = pending(w, x->tid, born)))
				final(row, x);
			continue;
		}
		if (x->etime < WAITS_EXIT_MIN_SEC)
			continue;
		if (util_grow(&w->ended, &w->capended, w->nended + 1,
			      sizeof(*w->ended)) < 0)
			return -1;
		row = &w->ended[w->nended++];
		row_of(w, x, e[i].at, up, now, wall, row);
		if (up >= 0)	/* a tick listing it now makes no second */
			waits_made_add(w, x->tid, up - (now - row->t));
		added++;
	}
	return added;
}
