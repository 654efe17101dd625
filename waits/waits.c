/*
 * waits.c - the wait-state sampler (waits.h has the interface and the
 * rate rule; counters/README.md "Wait states" the definitions): open,
 * the set watched, the read of the exact figures (schedstat, delay
 * accounting, io) and the rate. The tick is waittick.c's (waits_int.h
 * holds what the two share).
 */
#define _GNU_SOURCE
#include "waits_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "../process/process.h"
#include "waitprobe.h"
#include "waitset.h"

static const char *const fd_name[NFD] = { "schedstat", "wchan", "stat",
					  "syscall", "io" };

/* Names re-read a read at most (read_thread): all of a small tree's, a
 * large one's in turn. */
#define NAMES_PER_READ 64

/* Read file k of thread th (kept descriptor, or openat now). */
ssize_t waits_read_file(struct waits *w, struct wthread *th, int k,
			char *buf, size_t n)
{
	char rel[64];

	atomic_fetch_add_explicit(&w->progress, 1, memory_order_relaxed);
	if (th->fd[k] >= 0)
		return util_pread_text(th->fd[k], buf, n);
	snprintf(rel, sizeof(rel), "%d/task/%d/%s", (int)th->pub.tid,
		 (int)th->pub.tid, fd_name[k]);
	return util_read_text_at(w->procfd, rel, buf, n);
}

/* Keep file k open when the budget allows. */
void waits_keep_open(struct waits *w, struct wthread *th, int k, int dir)
{
	char rel[64];

	if (th->fd[k] >= 0 || w->fds_open >= w->fd_cap)
		return;
	if (dir >= 0) {
		th->fd[k] = openat(dir, fd_name[k], O_RDONLY | O_CLOEXEC);
	} else {
		snprintf(rel, sizeof(rel), "%d/task/%d/%s", (int)th->pub.tid,
			 (int)th->pub.tid, fd_name[k]);
		th->fd[k] = openat(w->procfd, rel, O_RDONLY | O_CLOEXEC);
	}
	if (th->fd[k] >= 0)
		w->fds_open++;
}

void waits_close_thread(struct waits *w, struct wthread *th)
{
	for (int k = 0; k < NFD; k++)
		if (th->fd[k] >= 0) {
			close(th->fd[k]);
			th->fd[k] = -1;
			w->fds_open--;
		}
}

struct waits *waits_open(const char *root, struct perr *e)
{
	struct waits *w = calloc(1, sizeof(*w));
	struct rlimit rl;
	char path[PATH_MAX + 8];

	if (!w) {
		perr_set(e, "out of memory");
		return NULL;
	}
	util_strlcpy(w->root, strcmp(root, "/") ? root : "", sizeof(w->root));
	snprintf(path, sizeof(path), "%s/proc", w->root);
	w->procfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->procfd < 0) {
		perr_set(e, "unable to open '%s': %s", path, strerror(errno));
		free(w);
		return NULL;
	}
	w->uptimefd = openat(w->procfd, "uptime", O_RDONLY | O_CLOEXEC);
	w->hz = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
	w->fd_cap = 0;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		w->fd_cap = rl.rlim_cur / 2 > 64 ? (int)(rl.rlim_cur / 2 - 64) : 0;
	else
		w->fd_cap = 4096;
	w->cost = 3e-6;	/* a first guess per tick; measured from then on */
	w->budget = WAITS_CPU_BUDGET;
	w->turn_max = WAITS_TICK_THREADS;
	/* sock_diag answers for this kernel only: not for a fixture root */
	w->peer = waitpeer_open(w->procfd, w->root[0] == '\0');
	if (!w->peer) {
		perr_set(e, "out of memory");
		close(w->procfd);
		if (w->uptimefd >= 0)
			close(w->uptimefd);
		free(w);
		return NULL;
	}
	w->rng = (uint64_t)(uintptr_t)w ^ 0x9e3779b97f4a7c15ULL;
	return w;
}

double waits_uptime(struct waits *w)
{
	char buf[64];
	double up;

	if (w->uptimefd < 0 || util_pread_text(w->uptimefd, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%lf", &up) != 1)
		return -1;
	return up;
}

void waits_close(struct waits *w)
{
	if (!w)
		return;
	waitset_free(w->set);
	waits_relay_free(w);
	for (size_t i = 0; i < w->nlive; i++)
		waits_close_thread(w, &w->live[i]);
	if (w->uptimefd >= 0)
		close(w->uptimefd);
	waitpeer_close(w->peer);
	close(w->procfd);
	free(w->keys);
	free(w->kidx);
	free(w->links);
	free(w->live);
	free(w->spare);
	free(w->ended);
	for (int g = 0; g < 2; g++)
		free(w->made.tid[g]);
	waits_gone_free(&w->gone);
	free(w);
}

int waits_watch_pids(struct waits *w, const pid_t *pids, size_t n,
		     struct perr *e)
{
	struct waitset *s;

	/* the same tree as at the last sample: kept (a new set each sample
	 * reopened every process's task directory and had the next tick
	 * list them again: a night's 50 sessions, bench/night.sh) */
	if (waitset_same_pids(w->set, pids, n))
		return 0;
	s = waitset_pids(w->procfd, pids, n, e);
	if (!s)
		return -1;
	waitset_free(w->set);
	w->set = s;
	return 0;
}

int waits_watch_cgroup(struct waits *w, const char *dir, struct perr *e)
{
	struct waitset *s = waitset_cgroup(dir, e);

	if (!s)
		return -1;
	waitset_free(w->set);
	w->set = s;
	return 0;
}

int waits_add_unix_peer(struct waits *w, unsigned long ino,
			unsigned long peer)
{
	return waitpeer_add_unix(w->peer, ino, peer);
}

static int edge_eq(const struct waitpeer_edge *a, const struct waitpeer_edge *b)
{
	return a->pid == b->pid && a->dir == b->dir && a->kind == b->kind &&
	       a->peer_pid == b->peer_pid && !strcmp(a->comm, b->comm) &&
	       !strcmp(a->peer_comm, b->peer_comm) &&
	       !strcmp(a->local, b->local) && !strcmp(a->remote, b->remote);
}

/* The index has room for every id twice over (WAITS_MAX_EDGES). */
#define KIDX (2 * WAITS_MAX_EDGES)

static size_t edge_hash(const struct waitpeer_edge *e)
{
	uint64_t h = 1469598103934665603ULL;
	const char *s[4] = { e->comm, e->peer_comm, e->local, e->remote };

	h = (h ^ (uint32_t)e->pid) * 1099511628211ULL;
	h = (h ^ (uint32_t)e->peer_pid) * 1099511628211ULL;
	h = (h ^ (uint32_t)(e->dir * 8 + (int)e->kind)) * 1099511628211ULL;
	for (int k = 0; k < 4; k++)
		for (const char *c = s[k]; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
	return (size_t)(h ^ h >> 32);
}

uint32_t waits_edge_id(struct waits *w, const struct waitpeer_edge *e)
{
	size_t k;

	if (!w->kidx && !(w->kidx = calloc(KIDX, sizeof(*w->kidx))))
		return WAITS_NO_EDGE;
	for (k = edge_hash(e) % KIDX; w->kidx[k]; k = (k + 1) % KIDX)
		if (edge_eq(&w->keys[w->kidx[k] - 1], e))
			return w->kidx[k] - 1;
	if (w->nkeys >= WAITS_MAX_EDGES ||
	    util_grow(&w->keys, &w->capkeys, w->nkeys + 1, sizeof(*w->keys)) < 0)
		return WAITS_NO_EDGE;
	w->keys[w->nkeys] = *e;
	w->kidx[k] = (uint32_t)w->nkeys + 1;
	return (uint32_t)w->nkeys++;
}

/* A process's name changed (it exec'ed: read_thread, waits.c): each edge
 * naming it is added again under its new name (ids are append-only, the
 * snaps copy them as they grow; waitedges_rows takes a row's names from
 * its last id), its pipe ends joined from now on under the new name, and
 * the resolver told. Else the names of its first sight stayed: a process
 * first seen between its fork and its exec was its shell in every edge
 * (`head waited on bash` for a python3). Cost: the edges once over (at
 * most WAITS_MAX_EDGES) per name changed. */
void waits_renamed(struct waits *w, pid_t pid, const char *comm, double now)
{
	size_t n = w->nkeys;

	waitpeer_renamed(w->peer, pid, comm, now);
	for (size_t i = 0; i < w->nlinks; i++)
		if (w->links[i].pid == pid)
			util_strlcpy(w->links[i].comm, comm,
				     sizeof(w->links[i].comm));
	for (size_t i = 0; i < n; i++) {
		struct waitpeer_edge e = w->keys[i];
		int mine = e.pid == pid, peer = e.peer_pid == pid &&
			e.kind != PEER_NET && e.kind != PEER_CHILD;

		if (!mine && !peer)
			continue;
		if (mine)
			util_strlcpy(e.comm, comm, sizeof(e.comm));
		if (peer)
			util_strlcpy(e.peer_comm, comm, sizeof(e.peer_comm));
		(void)waits_edge_id(w, &e);
	}
}

void waits_exclude(struct waits *w, pid_t tid)
{
	w->exclude = tid;
}

void waits_io_from(struct waits *w, const struct proctree *tree)
{
	w->books = tree;
}

/* Thread th was alive at t, later than its last read (a listing saw
 * it): its time runs to t, its CPU and run-queue time grown at the rates
 * of its life so far. A thread read in turn (waitshare.c) may not have
 * been read for seconds before it ends, and that time was lost. */
static void alive_until(struct wthread *th, double t)
{
	double lived = th->pub.t - th->pub.born, more = t - th->pub.t;

	if (!(more > 0) || !(lived > 0) || th->pub.cpu_ns == WAITS_NA)
		return;
	th->pub.cpu_ns += (uint64_t)((double)th->pub.cpu_ns * more / lived);
	if (th->pub.runq_ns != WAITS_NA)
		th->pub.runq_ns += (uint64_t)((double)th->pub.runq_ns * more /
					      lived);
	th->pub.t = t;
}

int waits_end_thread(struct waits *w, struct wthread *th)
{
	waits_close_thread(w, th);
	/* a process the sampler reads (the set's, a peer) ended: the far
	 * ends named by it are forgotten (a waiter that runs is probed
	 * anew each memo second, and a cached answer is given unlooked) */
	if (th->pub.tid == th->pub.pid && w->peer)
		waitpeer_forget(w->peer, th->pub.pid, w->tick_at);
	/* a cgroup's list is taken at every tick: it was in the last one */
	if (w->set && waitset_fresh(w->set) && !th->exited && !th->pub.peer)
		alive_until(th, w->tick_at);
	if (th->pub.cpu_ns == WAITS_NA)
		return 0;	/* never read: nothing to report */
	if (util_grow(&w->ended, &w->capended, w->nended + 1,
		 sizeof(*w->ended)) < 0)
		return -1;
	th->pub.alive = 0;
	th->pub.blkio_ns = WAITS_NA;	/* not read at pub.t */
	w->ended[w->nended++] = waits_export(th);
	if (!th->exited) {	/* its exit record, when it comes, not a row */
		double by = util_monotonic();

		if (w->tick_at > by)	/* a fixture's clock, ahead */
			by = w->tick_at;
		waits_gone_add(&w->gone, &th->pub, by, w->nreads);
	}
	return 0;
}

/* The thread's io: from the books when they read it at this sample,
 * else its task/TID/io (a field it lacks keeps its value). */
static void read_io(struct waits *w, struct wthread *th)
{
	struct pidstat_io io = { th->pub.rchar, th->pub.wchar,
				 th->pub.read_bytes, th->pub.write_bytes };
	char buf[1024];

	if (!w->books || proctree_thread_io(w->books, th->pub.tid,
					    th->pub.start, &io) < 0) {
		/* the I/O counters need ptrace read rights: unknown
		 * without */
		waits_keep_open(w, th, F_IO, -1);
		if (waits_read_file(w, th, F_IO, buf, sizeof(buf)) <= 0)
			return;
		pidstat_parse_io(buf, &io);
	}
	th->pub.rchar = io.rchar;
	th->pub.wchar = io.wchar;
	th->pub.read_bytes = io.read_bytes;
	th->pub.write_bytes = io.write_bytes;
	waits_relay_io_base(th);
}

/* The exact figures of one live thread at now: 0, -1 unreadable this
 * time (its figures as they were), 1 gone (it ends with the figures of
 * its last tick).
 * A thread that has not run since the last read has done no I/O and
 * waited for none since: its io and delay figures are kept as they are
 * (an idle pool costs one pread a thread). */
static int read_thread(struct waits *w, struct wthread *th, double now,
		       int delayacct, int name)
{
	char buf[1024];
	uint64_t ss[3];
	struct pidstat ps;

	if (waits_read_file(w, th, F_SCHED, buf, sizeof(buf)) <= 0)
		return 1;	/* exited since the last tick */
	if (pidstat_parse_schedstat(buf, ss) < 0)
		return -1;
	if (ss[0] == th->read_cpu && ss[2] == th->read_pcount) {
		th->pub.cpu_ns = ss[0];
		th->pub.runq_ns = ss[1];
		th->pub.t = now;
		return 0;
	}
	/* the name as of now: exec (sh -c 'exec client') and prctl rename a
	 * thread without a new start time, and the name read when it was
	 * first seen was the shell's. The stat is read anyway with delay
	 * accounting on; without, for NAMES_PER_READ threads a read. Read
	 * before any figure is changed: unreadable (ending between the two
	 * reads), the thread is in this read as it was */
	if (delayacct != 0 || name) {
		/* a tid read by path (no kept descriptor) may belong to a new
		 * thread since the tick: the start time tells */
		if (waits_read_file(w, th, F_STAT, buf, sizeof(buf)) <= 0 ||
		    pidstat_parse(buf, &ps) < 0 || ps.starttime != th->pub.start)
			return -1;
	}
	th->pub.cpu_ns = ss[0];
	th->pub.runq_ns = ss[1];
	th->pub.t = now;
	th->read_cpu = ss[0];
	th->read_pcount = ss[2];
	th->pub.blkio_ns = WAITS_NA;
	if (delayacct != 0 || name) {
		if (strncmp(th->pub.comm, ps.comm, sizeof(ps.comm)) &&
		    th->pub.tid == th->pub.pid)
			waits_renamed(w, th->pub.pid, ps.comm, now);
		memcpy(th->pub.comm, ps.comm, sizeof(th->pub.comm));
		if (delayacct != 0 && ps.blkio_ticks != PIDSTAT_NA)
			th->pub.blkio_ns = ps.blkio_ticks *
				(1000000000ULL / (uint64_t)w->hz);
	}
	read_io(w, th);
	return 0;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct waits_thread *x = a, *y = b;

	if (x->tid != y->tid)
		return (x->tid > y->tid) - (x->tid < y->tid);
	return (x->start > y->start) - (x->start < y->start);
}

static int read_delayacct(struct waits *w)
{
	char buf[16];
	int fd = openat(w->procfd, "sys/kernel/task_delayacct",
			O_RDONLY | O_CLOEXEC);
	ssize_t r = fd >= 0 ? util_pread_text(fd, buf, sizeof(buf)) : -1;

	if (fd >= 0)
		close(fd);
	return r > 0 ? buf[0] == '1' : -1;
}

/* The nominal period: the measured cost of a tick over the budget,
 * within the rate limits. */
static double period(const struct waits *w)
{
	double p = w->cost / w->budget;

	if (p < 1.0 / WAITS_MAX_HZ)
		p = 1.0 / WAITS_MAX_HZ;
	if (p > 1.0 / WAITS_MIN_HZ)
		p = 1.0 / WAITS_MIN_HZ;
	return p;
}

double waits_next(struct waits *w, double now)
{
	double u;

	/* xorshift64*: a uniform draw in [0.5, 1.5) */
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	u = (double)((w->rng * 0x2545f4914f6cdd1dULL) >> 11) / 9007199254740992.0;
	if (w->deadline <= 0)
		w->deadline = now;
	waits_share_fit_turn(w);	/* a large set's turn to the budget */
	w->deadline += period(w) * (0.5 + u);
	if (w->deadline < now)
		w->deadline = now;	/* late: no burst of ticks to catch up */
	return w->deadline;
}

void waits_budget(struct waits *w, double share)
{
	if (share > 0)
		w->budget = share;
}

void waits_read_whole(struct waits *w)
{
	w->read_whole = 1;
}

int waits_read(struct waits *w, double now, struct waits_snap *out)
{
	double cpu0 = util_thread_cpu();
	int delayacct = read_delayacct(w);
	size_t n, turn, from;

	out->n = 0;
	if (util_grow(&out->th, &out->cap, w->nlive + w->nended,
		 sizeof(*out->th)) < 0)
		return -1;
	n = w->nlive;
	turn = w->read_whole || n <= WAITS_READ_MAX ? n : WAITS_READ_MAX;
	from = n ? w->read_from % n : 0;
	for (size_t i = 0, keep = 0; i < n; i++) {
		struct wthread *th = &w->live[i];
		int r = th->pub.cpu_ns == WAITS_NA ? -1 :
			(i + n - from) % n >= turn ? 0 :	/* as it was */
			read_thread(w, th, now, delayacct,
				    (i + n - w->names_from % n) % n < NAMES_PER_READ);

		if (r == 1) {
			/* reported now as ended, so the time it lived since
			 * the last read is not lost: up to the last tick's
			 * listing when that lists every thread */
			if (waits_end_thread(w, th) < 0)
				return -1;
			if (w->set)
				waitset_invalidate(w->set);
			if (w->peers)
				waitset_invalidate(w->peers);
			w->nlive--;
			continue;
		}
		/* unreadable this time: as it was (left out, its next
		 * read had no previous, and the totals counted its whole
		 * life again: t3015, six jobs 0.472 s against 0.396 s) */
		if (r == 0 || (r < 0 && th->pub.cpu_ns != WAITS_NA))
			out->th[out->n++] = waits_export(th);
		if (keep != i)
			w->live[keep] = *th;
		keep++;
	}
	/* the edges after the reads: a name read again adds edges
	 * (waits_renamed) */
	if (out->nkeys > w->nkeys)
		out->nkeys = 0;	/* another sampler's snap: start again */
	if (out->nkeys < w->nkeys) {
		if (util_grow(&out->keys, &out->capkeys, w->nkeys,
			      sizeof(*out->keys)) < 0)
			return -1;
		memcpy(out->keys + out->nkeys, w->keys + out->nkeys,
		       (w->nkeys - out->nkeys) * sizeof(*w->keys));
		out->nkeys = w->nkeys;
	}
	for (size_t i = 0; i < w->nended; i++)
		out->th[out->n++] = w->ended[i];
	w->nended = 0;
	w->nreads++;
	w->names_from += NAMES_PER_READ;
	w->read_from = from + turn;
	w->read_whole = 0;
	if (out->n > 1)
		qsort(out->th, out->n, sizeof(*out->th), cmp_thread);
	out->t = now;
	out->delayacct = delayacct;
	out->nticks = w->nticks;
	w->cpu += util_thread_cpu() - cpu0;
	out->cpu = w->cpu;
	out->hz = 1.0 / period(w);
	return 0;
}

void waits_snap_free(struct waits_snap *s)
{
	free(s->th);
	s->th = NULL;
	free(s->keys);
	s->keys = NULL;
	s->nkeys = s->capkeys = 0;
	s->n = s->cap = 0;
}
