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

/* A record's final figures into the row of its thread (pub: a listed
 * thread's, or a row a tick ended and no read has taken yet): its last
 * tick was up to a period before its end (a job of 0.15 s had 0.124 s
 * in its row), so they now run to its exit, and its name is the one it
 * ended with (a child listed before its exec, never read after, was
 * `sh` for head's 400 MB). Its run-queue time since its last read stays
 * unknown. 1 when they were the same task's: born when the record says,
 * within its 10 ms grain and the record's delay. */
static int final(struct waits_thread *pub, const struct taskstats_exit *x,
		 double at)
{
	if (!(at > pub->t) || at - x->etime > pub->born + 0.5 ||
	    at - x->etime < pub->born - 0.5)
		return 0;
	raise_to(&pub->cpu_ns, x->cpu_us * 1000);
	raise_to(&pub->rchar, x->rchar);
	raise_to(&pub->wchar, x->wchar);
	raise_to(&pub->read_bytes, x->read_bytes);
	raise_to(&pub->write_bytes, x->write_bytes);
	memcpy(pub->comm, x->comm, sizeof(pub->comm));
	pub->comm[sizeof(pub->comm) - 1] = '\0';
	pub->t = at;
	return 1;
}

/* The row of tid a tick ended that no read has taken yet, or NULL. */
static struct waits_thread *pending(struct waits *w, pid_t tid)
{
	for (size_t i = w->nended; i-- > 0;)
		if (w->ended[i].tid == tid)
			return &w->ended[i];
	return NULL;
}

/* The row of record x, which came at monotonic time at; up: seconds
 * since boot now, now its monotonic time. */
static void row_of(const struct waits *w, const struct taskstats_exit *x,
		   double at, double up, double now, struct waits_thread *th)
{
	double began = up - (now - at) - x->etime;

	memset(th, 0, sizeof(*th));
	th->tid = x->tid;
	th->pid = x->tgid > 0 ? x->tgid : x->tid;
	th->start = began > 0 ? (uint64_t)(began * (double)w->hz) : 0;
	memcpy(th->comm, x->comm, sizeof(th->comm));
	th->comm[sizeof(th->comm) - 1] = '\0';
	th->alive = 0;
	th->t = at;
	th->born = at - x->etime;
	th->cpu_ns = x->cpu_us * 1000;
	th->runq_ns = WAITS_NA;	/* the record's run delay needs delay
				 * accounting: not taken */
	th->blkio_ns = WAITS_NA;
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
	int added = 0;

	for (size_t i = 0; i < n; i++) {
		struct wthread *th;
		struct waits_thread *row;
		int gone;

		if (e[i].x.tid == w->exclude)
			continue;
		gone = waits_was_gone(w, e[i].x.tid);
		if (gone || e[i].late) {
			/* the tick that found it gone came first: its row
			 * takes the final figures while no read has it (a
			 * late record's, however long ago: a read or more
			 * may have rotated it out of the memory of gone
			 * rows, not out of the rows themselves) */
			if ((row = pending(w, e[i].x.tid)) &&
			    final(row, &e[i].x, e[i].at))
				continue;
			if (gone)
				continue;
		}
		if ((th = listed(w, e[i].x.tid))) {
			th->exited = final(&th->pub, &e[i].x, e[i].at);
			continue;
		}
		/* a late record that came before the last read: that read
		 * may have taken its row, and the sampler forgotten it */
		if ((e[i].late && e[i].at < w->read_at) ||
		    e[i].x.etime < WAITS_EXIT_MIN_SEC)
			continue;
		if (util_grow(&w->ended, &w->capended, w->nended + 1,
			      sizeof(*w->ended)) < 0)
			return -1;
		row_of(w, &e[i].x, e[i].at, up, now, &w->ended[w->nended++]);
		if (up >= 0)	/* a tick listing it now makes no second */
			waits_made_add(w, e[i].x.tid, up - (now - e[i].at));
		added++;
	}
	return added;
}
