/*
 * waittick.c - one tick of the wait-state sampler (waits_tick, waits.h):
 * the set's membership refreshed (new threads get a record, missing ones
 * end), then every thread of the tick's turn read (waitthread.c reads
 * one: schedstat, wchan, the state letter, the probe).
 * Membership is refreshed at every tick, so a thread is counted from the
 * tick after it starts and ends at the last tick it was read.
 */
#define _GNU_SOURCE
#include "waits_int.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../process/process.h"
#include "waitactive.h"
#include "waitset.h"

/* The process of thread tid: the last new thread's when tid is in its
 * group (threads come in groups: one path looked up, where status prints
 * some 50 lines: 2,000 new threads spent 7% of the collector's CPU in
 * it), else status's "Tgid:", else tid itself. */
static pid_t tgid_of(struct waits *w, pid_t tid)
{
	char rel[48], buf[512];
	const char *p;

	if (w->last_tgid > 0 && w->last_tgid != tid) {
		snprintf(rel, sizeof(rel), "%d/task/%d", (int)w->last_tgid,
			 (int)tid);
		if (faccessat(w->procfd, rel, F_OK, 0) == 0)
			return w->last_tgid;
	}
	snprintf(rel, sizeof(rel), "%d/status", (int)tid);
	if (util_read_text_at(w->procfd, rel, buf, sizeof(buf)) > 0 &&
	    (p = strstr(buf, "\nTgid:")))
		return w->last_tgid = (pid_t)atoi(p + 6);
	return tid;
}

/* The monotonic time of boot (NAN: no uptime), from the uptime and the
 * clock read together. A new thread's start is reckoned from it, not
 * from the tick's moment: the uptime is read at the tick's first new
 * thread, after its listing, and beside stress-ng a tick over 2,003
 * threads listed them 0.58 s after its moment; each was dated that much
 * early, before the session's first read, and the totals left it out as
 * one that lived before the watch (t7720: 206 of 2,002 rows missing). */
static double boot_time(struct waits *w)
{
	double up = waits_uptime(w);

	return up >= 0 ? util_monotonic() - up : NAN;
}

/* A thread seen for the first time: its identity from stat. A peer's
 * (peer: of a process outside the set, waitrelay.c) is born, for the
 * session, now, its figures counted from here (base). */
static int new_thread(struct waits *w, pid_t tid, double now, double boot,
		      int peer, struct wthread *th)
{
	char buf[1024], rel[48];
	struct pidstat ps;
	uint64_t ss[3];
	int dir;

	memset(th, 0, sizeof(*th));
	for (int k = 0; k < NFD; k++)
		th->fd[k] = -1;
	th->pub.tid = tid;
	th->last = WAIT_NCLASS;
	for (int k = 0; k < WAITS_EDGES; k++)
		th->pub.edge[k].id = WAITS_NO_EDGE;
	/* its files opened first, in its directory (one path looked up:
	 * four opens by path were a sixth of the collector's CPU as 2,000
	 * threads began), and stat read through its own */
	snprintf(rel, sizeof(rel), "%d/task/%d", (int)tid, (int)tid);
	dir = openat(w->procfd, rel, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -1;	/* gone */
	for (int k = F_SCHED; k <= F_STAT; k++)
		waits_keep_open(w, th, k, dir);
	close(dir);
	if (waits_read_file(w, th, F_STAT, buf, sizeof(buf)) <= 0 ||
	    pidstat_parse(buf, &ps) < 0 ||
	    waitclass_letter(ps.state) == WAIT_NCLASS) {
		waits_close_thread(w, th);
		return -1;	/* gone, garbage, or a zombie */
	}
	if (waits_made_row(w, tid, (double)ps.starttime / (double)w->hz)) {
		waits_close_thread(w, th);
		return -1;	/* alive late in its exit, its row made from
				 * its record already (waits_made_row) */
	}
	th->pub.start = ps.starttime;
	th->pub.pid = tgid_of(w, tid);
	memcpy(th->pub.comm, ps.comm, sizeof(th->pub.comm));
	th->pub.alive = 1;
	th->pub.born = isnan(boot) ? now
				   : boot + (double)ps.starttime / (double)w->hz;
	th->pub.t = waits_figures_at(th, now);
	th->pub.blkio_ns = th->pub.rchar = th->pub.wchar = WAITS_NA;
	th->pub.read_bytes = th->pub.write_bytes = WAITS_NA;
	th->pub.cpu_ns = th->pub.runq_ns = WAITS_NA;
	th->read_cpu = WAITS_NA;
	for (int k = 0; k < 6; k++)
		th->base[k] = WAITS_NA;
	/* its CPU figures at first sight, from the schedstat just opened: a
	 * thread that ends before the tick samples it keeps a row, its life
	 * up to its last listing (waits_end_thread). On a saturated host the
	 * first tick over a pool of 2,001 new threads took 1-3 s, and up to
	 * all of them ended unsampled, without a row (t7720). */
	if (waits_read_file(w, th, F_SCHED, buf, sizeof(buf)) > 0 &&
	    pidstat_parse_schedstat(buf, ss) == 0) {
		th->pub.cpu_ns = ss[0];
		th->pub.runq_ns = ss[1];
		th->pcount = ss[2];
	}
	if (peer) {
		th->pub.peer = 1;
		if (th->pub.born < now)
			th->pub.born = now;
		th->pub.t = now;
		th->base[0] = th->pub.cpu_ns;
		th->base[1] = th->pub.runq_ns;
	} else if (tid == th->pub.pid) {	/* a process: its pipes to the
						 * others of the set */
		waits_links_scan(w, tid, th->pub.comm);
	}
	return 0;
}

/* waits_stop was called (and a step of the tick is done: progress). */
static int stopping(struct waits *w)
{
	atomic_fetch_add_explicit(&w->progress, 1, memory_order_relaxed);
	return atomic_load_explicit(&w->stopping, memory_order_relaxed);
}

/* Refresh the set: new tids get a record, missing ones end. */
static int sync_members(struct waits *w, double now)
{
	size_t i = 0, j = 0, k = 0, n = 0;
	const pid_t *tids = NULL;
	const uint8_t *peer = NULL;
	double boot = 0;
	int booted = 0;

	if (w->set && now - w->listed >= 1.0) {
		waitset_invalidate(w->set);	/* a full listing a second */
		if (w->peers)
			waitset_invalidate(w->peers);
		w->listed = now;
	}
	if (w->set && !(tids = waitset_list(w->set, &n)))
		return -1;
	/* the local peers' threads beside the set's (waitrelay.c) */
	if (w->set && !(tids = waits_relay_merge(w, tids, n, &n, &peer)))
		return -1;
	if (util_grow(&w->live, &w->caplive, w->nlive + n, sizeof(*w->live)) < 0 ||
	    util_grow(&w->spare, &w->capspare, w->nlive + n, sizeof(*w->spare)) < 0)
		return -1;
	for (j = 0; i < w->nlive || j < n;) {
		if (j < n && tids[j] == w->exclude) {
			j++;	/* never made live, so never to end */
			continue;
		}
		if (j == n || (i < w->nlive && w->live[i].pub.tid < tids[j])) {
			/* ended (with a cgroup's list, alive until the last
			 * tick's) */
			if (waits_end_thread(w, &w->live[i++]) < 0)
				return -1;
		} else if (i == w->nlive || tids[j] < w->live[i].pub.tid) {
			if (!booted++)
				boot = boot_time(w);
			if (!stopping(w) &&
			    new_thread(w, tids[j], now, boot, peer && peer[j],
				       &w->spare[k]) == 0)
				k++;
			j++;
		} else {
			w->spare[k++] = w->live[i++];
			j++;
		}
	}
	{
		struct wthread *t = w->live;
		size_t c = w->caplive;

		w->live = w->spare;
		w->caplive = w->capspare;
		w->spare = t;
		w->capspare = c;
	}
	w->nlive = k;
	return 0;
}

void waits_stop(struct waits *w)
{
	atomic_store(&w->stopping, 1);
}

unsigned waits_progress(struct waits *w)
{
	return atomic_load_explicit(&w->progress, memory_order_relaxed);
}

void waits_overhead(struct waits *w, double sec)
{
	if (sec > 0)
		w->overhead = sec;
}

int waits_tick(struct waits *w, double now)
{
	double cpu0 = util_thread_cpu(), used;
	unsigned scans0, scans, reads;
	size_t keep = 0;

	waitpeer_stats(w->peer, &scans0, &reads);
	if (sync_members(w, now) < 0)
		return -1;
	w->tick_at = now;
	waits_share_begin(w);
	for (size_t i = 0; i < w->nlive; i++) {
		struct wthread *th = &w->live[i];

		if (!waits_share_turn(w, i) || stopping(w)) {
			/* not in this tick's turn, or stopping: kept as
			 * it is */
		} else if (waits_sample_thread(w, th, now) == 1) {
			/* gone since this tick's listing */
			if (waits_end_thread(w, th) < 0)
				return -1;
			if (w->set)	/* another may have started meanwhile */
				waitset_invalidate(w->set);
			if (w->peers)
				waitset_invalidate(w->peers);
			continue;
		}
		if (keep != i)
			w->live[keep] = *th;
		keep++;
	}
	w->nlive = keep;
	if (w->set && waits_relay_note(w, now) < 0)
		return -1;
	w->nticks++;
	used = util_thread_cpu() - cpu0;
	w->cpu += used + w->overhead;
	w->cost += 0.2 * (used + w->overhead - w->cost);
	waitpeer_stats(w->peer, &scans, &reads);
	waits_share_end(w, used + w->overhead, scans != scans0);
	w->overhead = 0;
	return (int)keep;
}
