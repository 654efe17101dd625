/*
 * waits_int.h - what waits.c (open, the set, the read) shares with
 * waittick.c (the tick) and waitthread.c (one thread's tick). Not an
 * interface for other files: waits.h is (through waitstates.h for other
 * folders). Calls run one way: waittick.c -> waitthread.c -> waits.c.
 */
#ifndef PERFLOG_WAITS_INT_H
#define PERFLOG_WAITS_INT_H

#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "waitprobe.h"
#include "waits.h"

/* The local peers read at once at most (waitrelay.c): a process outside
 * the set that an edge of the set (or of a peer: a relay's own waits)
 * names, read while named and PEER_KEEP_SEC after. A relay chain is one
 * or two deep (ssh's sshd, the server behind it), a pipeline's readers
 * outside the run a few; each peer's threads are read at every tick and
 * so in the tick's cost, which the rate rule holds to the budget: the
 * cap bounds the set's growth (a client with a connection to each of a
 * hundred local daemons reads 8 of them, the first named), not the CPU.
 * A ninth is not read until one of the eight is no longer named. */
#define WAITS_MAX_PEERS 8
#define PEER_KEEP_SEC 2.0

/* The files of a thread read, by index (waits.c names them). */
enum { F_SCHED, F_WCHAN, F_STAT, F_SYSCALL, F_IO, NFD };

struct wthread {
	struct waits_thread pub;
	int fd[NFD];		/* kept open, or -1: openat at each read */
	uint64_t pcount;	/* schedstat 3: times it got a CPU */
	uint64_t read_cpu, read_pcount;	/* schedstat at the last read */
	enum wait_class last;	/* class at the last tick, WAIT_NCLASS none */
	int last_guess, last_hidden;
	struct waitprobe_memo memo;
	uint64_t seen;		/* the tick after its last read (waitshare.c) */
	uint64_t weight;	/* ticks its read in this tick stands for; 0
				 * until its first read */
	int ntg;		/* the edges of the current wait, by id */
	uint32_t tg[WAITPROBE_MAX_TARGETS];
	uint32_t memo_tg[WAITPROBE_MAX_TARGETS];	/* memo.tg by id */
	uint8_t tg_disk[WAITPROBE_MAX_TARGETS];	/* tg[i] is a disk's (a
				 * disk wait's edge, counted on disk ticks;
				 * the others on net and other ticks) */
	uint8_t memo_disk[WAITPROBE_MAX_TARGETS];	/* the same of memo_tg */
	double tg_of;		/* memo.until memo_tg were taken from */
	double child_at;	/* when the children of its wait on them
				 * were last looked at (waitthread.c
				 * child_wait), 0 not in such a wait */
	double ends_at;		/* when its wait's far ends were last asked
				 * whether they live (waitthread.c
				 * far_end_gone), 0 never */
	double unfound_at;	/* since when its wait's far end is not found
				 * (PROBE_LATER), 0 none */
	uint64_t held_reads;	/* the reads whose ticks are held still
				 * (pub.held less held_as): each a read of
				 * the thread, counted in pub.reads when
				 * their class is known (waitthread.c
				 * count_later) */
	uint64_t base[6];	/* a peer's figures at its first read (cpu,
				 * run queue, rchar, wchar, read and write
				 * bytes; WAITS_NA not read yet), taken off
				 * what a read reports (waits_export) */
	int exited;		/* its figures are its exit record's, final
				 * (waitexit.c) */
};

/* A row made from an exit record, and until when (seconds since boot) a
 * task of its tid started is taken for it: by its end (a task started
 * later is another). */
struct waits_tid {
	pid_t tid;
	double by;
};

/* The tids of rows made from exit records in the last 1-2 s: tid[gen]
 * since made_since, the other the second before (waits.c tids_add,
 * tids_find). */
struct waits_tids {
	struct waits_tid *tid[2];
	size_t n[2], cap[2], sorted[2];
};

/* A row the sampler ended (waits_end_thread) whose exit record has not
 * come yet (waitgone.c): its task, by tid and birth, and when it was
 * found gone. */
struct waits_gone {
	pid_t tid;		/* 0: a free slot */
	uint32_t read;		/* the reads made before it ended */
	double born;		/* monotonic seconds */
	float ended;		/* its age when found gone: it ended before */
};

/* Those rows by tid (a hash: waitgone.c). */
struct waits_gones {
	struct waits_gone *slot;
	size_t n, cap;
	double swept;		/* when last rebuilt without the expired */
};

struct waits {
	int procfd;		/* ROOT/proc */
	int uptimefd;
	char root[PATH_MAX];
	struct waitset *set;	/* NULL: nothing watched yet */
	pid_t exclude;		/* a task of the set left out, 0 none */
	const struct proctree *books;	/* io read there, or NULL */
	struct wthread *live, *spare;
	size_t nlive, caplive, capspare;
	struct waits_thread *ended;
	size_t nended, capended;
	struct waits_gones gone;	/* the rows a tick or read ended,
					 * until their exit records come
					 * (waitgone.c) */
	struct waits_tids made;	/* the rows exit records made
				 * (waitexit.c), kept 1-2 s
				 * (waits_made_row) */
	int gen;
	double made_since;
	uint32_t nreads;	/* reads made (waits_read) */
	int fds_open, fd_cap;
	pid_t last_tgid;	/* the process of the last new thread */
	long hz;		/* USER_HZ */
	double cost;		/* CPU seconds per tick, smoothed */
	double budget;		/* its share of one CPU (waits_budget) */
	double overhead;	/* CPU spent around the last tick (waking) */
	double listed;		/* when the set was last listed in full */
	double tick_at;		/* when the last tick began (0: none yet) */
	double deadline;
	uint64_t rng;
	uint64_t nticks;
	double cpu;
	size_t names_from;	/* where the next read's names start */
	size_t read_from;	/* where the next read's turn starts */
	int read_whole;		/* the next read reads every thread */
	pid_t share_from;	/* the next turn starts at this tid or after */
	size_t turn_first, turn_n;	/* this tick's turn (waitshare.c) */
	size_t turn_extra;	/* threads read outside it (new, not seen
				   blocked) */
	size_t turn_max;	/* threads a turn reads, fitted to the cost
				   (WAITS_TICK_THREADS at open) */
	double turn_cost;	/* CPU seconds of a tick of turns alone,
				   smoothed (0: none yet) */
	uint64_t fitted;	/* nticks at the last fit */
	struct waitpeer *peer;	/* the far ends of pipes and sockets */
	struct waitpeer_edge *keys;	/* edges by id */
	size_t nkeys, capkeys;
	uint32_t *kidx;		/* their hash index: id + 1, 0 free */
	struct waits_link *links;	/* pipe ends of the set's processes
					 * (waitlinks.c) */
	size_t nlinks, caplinks;
	struct waitset *peers;	/* the threads of the local peers (waitrelay.c),
				 * NULL none */
	pid_t peer_pid[WAITS_MAX_PEERS];	/* sorted */
	double peer_named[WAITS_MAX_PEERS];	/* when an edge last named it */
	size_t npeers;
	pid_t *tids;		/* a tick's list: the set's and the peers' */
	uint8_t *tid_peer;	/* tids[j] is a peer's thread only */
	size_t captids, captidp;
	atomic_bool stopping;	/* waits_stop: skip what is left */
	atomic_uint progress;	/* waits_progress */
};

/* waitgone.c: the rows the sampler ended itself (waits_end_thread),
 * each kept until its exit record comes (GONE_KEEP_SEC and
 * GONE_KEEP_READS at least when none does).
 * Row th ended, found gone by by (monotonic), nreads reads made. */
void waits_gone_add(struct waits_gones *g, const struct waits_thread *th,
		    double by, uint32_t nreads);
/* Whether record x, which came at at (monotonic), is of the gone row of
 * its tid (forgotten now: 1, its birth in *born) ... */
int waits_gone_take(struct waits_gones *g, const struct taskstats_exit *x,
		    double at, double wall, double *born);
/* ... or of a task of its tid born at born (monotonic) that ended by by:
 * its end (born and the record's life) by then and by at, and its begin
 * time within a second of born (wall: the wall clock less the monotonic
 * one). A tid reused by a new task is not taken for the old one. */
int waits_same_task(double born, double by, const struct taskstats_exit *x,
		    double at, double wall);
void waits_gone_free(struct waits_gones *g);

/* The rows exit records made (waitexit.c), kept 1-2 s: tid's task ended
 * at by (seconds since boot); and whether a task tid started at start
 * (seconds since boot) is one of them. A task sends its record
 * before it leaves /proc: the collector's read can list it alive late
 * in its exit, after its record came, and give it to the set (a reaper's
 * job, a child of a parent born since the read before: process.h
 * proctree_late), and a tick listing it then made it a second row of
 * the same (tid, start), its CPU counted twice in the session's totals
 * (t3015: six jobs 0.452 s against the 0.383 s they used). A task of
 * the same tid started after the record came is another. */
void waits_made_add(struct waits *w, pid_t tid, double by);
int waits_made_row(struct waits *w, pid_t tid, double start);

/* Seconds since boot (ROOT/proc/uptime), or -1. */
double waits_uptime(struct waits *w);

/* The first of live (sorted by tid) whose tid is tid or more: nlive when
 * none is (waitshare.c, where a turn starts; waitexit.c finds a record's
 * thread with it). */
size_t waits_live_from(const struct waits *w, pid_t tid);

/* waitlinks.c: a pipe end held by a process of the set, as its fd table
 * showed it when the process was first seen. */
struct waits_link {
	unsigned long ino;
	pid_t pid;
	int mode;		/* O_RDONLY, O_WRONLY, O_RDWR */
	char comm[16];
};
#define WAITS_MAX_LINKS 4096

/* A process first seen (tid its main thread): its pipe ends recorded,
 * and an edge of no seconds (waits_edge_id) for each pipe joining it to
 * another process of the set, so the edges file says the tree passes
 * data between its processes even when no thread was caught waiting on
 * the pipe (tar | ssh: tar filled ssh's buffers in 0.1 s). */
void waits_links_scan(struct waits *w, pid_t pid, const char *comm);

/* Process pid (its main thread read by the sampler) is named comm from
 * now on, no longer what it was when first seen (waits.c): the edges
 * that name it added again under the new name, its pipe ends renamed,
 * the resolver told. */
void waits_renamed(struct waits *w, pid_t pid, const char *comm, double now);

/* The id of edge e (added when new): WAITS_NO_EDGE past
 * WAITS_MAX_EDGES or out of memory. */
uint32_t waits_edge_id(struct waits *w, const struct waitpeer_edge *e);

/* waitshare.c: which threads a tick reads. At most WAITS_TICK_THREADS
 * of a large set, in turn by tid, each weighed by the ticks since its
 * last read; every thread of a smaller set at every tick (weight 1). */
#define WAITS_TICK_THREADS 128
#define WAITS_TICK_MIN 16	/* the fewest a turn is cut to */
#define WAITS_FIT_TICKS 2	/* ticks between two fits of the turn */
/* After the membership is refreshed: this tick's turn. */
void waits_share_begin(struct waits *w);
/* After a tick that cost used CPU seconds (its wake-up included);
 * scanned: whether it scanned the fd tables (waitpeer.c). */
void waits_share_end(struct waits *w, double used, int scanned);
/* The rate rule's part (waits_next): a large set's turn fitted to the
 * budget, every WAITS_FIT_TICKS ticks (waits_share_fit). */
void waits_share_fit_turn(struct waits *w);
/* The threads a turn of a large set reads from now on, from turn and
 * the smoothed cost of a tick of turns: a tick may cost the budget at
 * the rate's floor (WAITS_CPU_BUDGET / WAITS_MIN_HZ); past that the turn
 * is cut by the square of the ratio (by half at most), well under it
 * (3/4) grown by an eighth; within [WAITS_TICK_MIN, WAITS_TICK_THREADS]. */
size_t waits_share_fit(size_t turn, double cost);
/* Whether live[i] (i < nlive as the tick began) is read in this tick;
 * sets its weight when it is. */
int waits_share_turn(struct waits *w, size_t i);

/* Read file k of thread th (kept descriptor, or openat now). */
ssize_t waits_read_file(struct waits *w, struct wthread *th, int k,
			char *buf, size_t n);

/* Keep file k open when the budget allows: opened in dir (the thread's
 * ROOT/proc/TID/task/TID, one path looked up for all its files) or, dir
 * -1, by its path from ROOT/proc. */
void waits_keep_open(struct waits *w, struct wthread *th, int k, int dir);
/* Its kept files closed. */
void waits_close_thread(struct waits *w, struct wthread *th);

/* A thread gone from the set: its descriptors closed, its figures kept
 * for the next snap (alive = 0) when it was read at least once. With a
 * set listed afresh at every tick (a cgroup's), it lived until the last
 * tick (w->tick_at): its time runs to then, its CPU and run-queue time
 * grown at the rates of its life so far (a thread read in turn may not
 * have been read for seconds). 0, or -1 when out of memory. */
int waits_end_thread(struct waits *w, struct wthread *th);

/* waitrelay.c: after a tick, the local peers its threads' current edges
 * name (a far end's process outside the set: pipe, AF_UNIX, loopback),
 * kept PEER_KEEP_SEC after the last edge that named it, at most
 * WAITS_MAX_PEERS; the peers' set made anew when they changed. -1 out
 * of memory. */
int waits_relay_note(struct waits *w, double now);
/* The tick's list: the set's threads (tids, n) and the peers' merged,
 * sorted, each once (a thread of the set is the set's), *peer[j] set for
 * a peer's. NULL out of memory. */
const pid_t *waits_relay_merge(struct waits *w, const pid_t *tids, size_t n,
			       size_t *out, const uint8_t **peer);
void waits_relay_free(struct waits *w);

/* A peer's io figures, read now, are its base when it has none yet
 * (waitrelay.c; waits.c read_io calls it). */
void waits_relay_io_base(struct wthread *th);
/* What a read reports of th: its figures, a peer's from its first read
 * (base) on. */
struct waits_thread waits_export(const struct wthread *th);

/* waitthread.c: one tick of thread th at the tick's moment now (its
 * schedstat, then its wait channel, state letter and call as far as
 * needed), counted in its class: 0 counted (or unreadable this time),
 * 1 gone. */
int waits_sample_thread(struct waits *w, struct wthread *th, double now);

/* The time of figures of th read now by a tick whose moment is now:
 * the moment, unless th began after it (listed late: waittick.c
 * boot_time), when they are the clock's as read (a row whose time is
 * before its start counts no time, and was dropped with its thread). */
static inline double waits_figures_at(const struct wthread *th, double now)
{
	return th->pub.born > now ? util_monotonic() : now;
}

#endif
