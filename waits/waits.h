/*
 * waits.h - the wait-state sampler: what each thread of a set of tasks is
 * doing, tick by tick, and the scheduler's exact figures, cumulative.
 *
 *   waits_watch_*  the set: processes (their threads are listed from
 *                  ROOT/proc/PID/task at every tick) or a cgroup (its
 *                  cgroup.threads, v2, or tasks, v1, at every tick: that
 *                  sees short-lived processes a process list misses)
 *   waits_tick     one sample of every thread: schedstat, then wchan, the
 *                  state letter and the system call as far as needed
 *                  (waitclass.h); counts one tick in the thread's class
 *   waits_read     the exact figures now (schedstat, delay accounting,
 *                  /proc/TID/io) with the tick counts: a waits_snap
 *   waitrates.h    two snaps -> the interval's % Time per state (pure)
 *   waitsampler.h  waits_tick on a thread of its own (what the collector
 *                  uses; why in waitsampler.h)
 *
 * Per thread, up to five descriptors (schedstat, wchan, stat, and once
 * needed syscall and io) stay open and are read with pread from offset
 * 0; past a descriptor budget (half of RLIMIT_NOFILE less 64, taken once
 * at open) threads are read by openat/read/close instead. A thread whose
 * schedstat (on-CPU time and run count) has not moved since the last
 * tick has not run since: if it was blocked then it still is, in the
 * same wait, and nothing else is read (an idle pool costs one pread a
 * thread a tick, and one a read).
 *
 * Rate (waits_next): at most WAITS_MAX_HZ; lower when a tick costs more
 * than WAITS_CPU_BUDGET (or its share, waits_budget) of one CPU at that rate, so the rate falls as the
 * thread count grows; never below WAITS_MIN_HZ. There a set large
 * enough to be read in turns (waitshare.c) has its turn cut until a tick
 * costs the budget again; a smaller set costs what it costs. The cost
 * is measured on the calling
 * thread's CPU clock: the tick itself, plus what waits_overhead reports
 * (waking up for it), smoothed. Each period is drawn at random in
 * [0.5, 1.5) of the nominal one so a client with a periodic rhythm is
 * not sampled in phase with it.
 *
 * Threads are identified by tid and start time; a thread that ends stays
 * in the next snap once, alive = 0, with the figures of its last tick.
 * Not thread-safe: one caller at a time (waitsampler.h locks).
 */
#ifndef PERFLOG_WAITS_H
#define PERFLOG_WAITS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../common/util.h"
#include "../process/process.h"
#include "waitclass.h"
#include "waitpeer.h"

#define WAITS_MAX_HZ 50.0
#define WAITS_MIN_HZ 1.0
#define WAITS_CPU_BUDGET 0.008	/* 0.8% of one CPU */
#define WAITS_NA UINT64_MAX
#define WAITS_EDGES 6		/* edges a thread counts at once */
#define WAITS_MAX_EDGES 4096	/* distinct edges a sampler keeps */
#define WAITS_NO_EDGE UINT32_MAX

/* The ticks a thread spent waiting on one edge (a far end, waitpeer.h):
 * id indexes the snap's keys; a tick on k edges at once counts 1/k on
 * each. A thread keeps its WAITS_EDGES busiest slots (the least ticked
 * one gives way to a new edge). */
struct waits_edge_ticks {
	uint32_t id;		/* WAITS_NO_EDGE: free */
	int disk;		/* a disk's edge: its ticks are disk ticks
				 * (waitrates.c shares the disk seconds
				 * among these, the net and other seconds
				 * among the others) */
	double ticks;
};

/* One thread's cumulative figures. */
struct waits_thread {
	pid_t tid;
	pid_t pid;		/* its process (tgid; status "Tgid:", else tid) */
	uint64_t start;		/* stat field 22 (clock ticks after boot) */
	char comm[16];
	int alive;		/* 0: ended since the previous snap */
	double born;		/* monotonic seconds of its start (10 ms grain) */
	double t;		/* monotonic seconds of the exact figures */
	uint64_t cpu_ns;	/* schedstat 1: time on a CPU */
	uint64_t runq_ns;	/* schedstat 2: time runnable on a run queue
				 * (CPU contention and CPU quota throttling) */
	uint64_t blkio_ns;	/* stat 42 in ns: block I/O delay (delay
				 * accounting); WAITS_NA when not read at t */
	uint64_t rchar, wchar;	/* task/TID/io; WAITS_NA when unreadable */
	uint64_t read_bytes, write_bytes;
	uint64_t ticks[WAIT_NCLASS];	/* samples per class */
	uint64_t reads;		/* the reads that found it blocked; each
				 * counted for the ticks it stood for
				 * (waitshare.c), so a thread read in turn
				 * has fewer reads than blocked ticks (a
				 * read held for a socket's far end counts
				 * once its class is known) */
	uint64_t weight2;	/* the sum of those reads' ticks squared
				 * (reads of unequal weight tell less than
				 * as many of equal weight) */
	uint64_t held;		/* ticks of reads on a socket whose far end
				 * was not known yet (held, not in ticks) */
	uint64_t held_as[4];	/* of those, the ones since known, by the
				 * class their wait got: disk, net, other,
				 * sleep (waitrates.c holds their time apart
				 * until then); held less their sum: the
				 * ones still open (waits_held_open) */
	int peer;		/* a thread of a local peer: a process outside
				 * the set that an edge of the set names (a
				 * pipe's, AF_UNIX or loopback far end), read
				 * while named (waits_int.h WAITS_MAX_PEERS);
				 * born is when it was first read, and its
				 * CPU, run-queue and io figures count from
				 * then: what it did before it was named is
				 * no part of the session */
	uint64_t guessed;	/* samples decided by the state letter alone */
	uint64_t hidden;	/* ... because wchan and syscall were refused */
	struct waits_edge_ticks edge[WAITS_EDGES];
};

/* The held ticks of t whose class is not known yet (held less held_as):
 * waitthread.c counts them once it is, waitrates.c keeps their time apart
 * until then. */
static inline uint64_t waits_held_open(const struct waits_thread *t)
{
	return t->held - t->held_as[0] - t->held_as[1] - t->held_as[2] -
	       t->held_as[3];
}

/* A read: every thread of the set, sorted by (tid, start). */
struct waits_snap {
	double t;		/* monotonic seconds */
	int delayacct;		/* kernel.task_delayacct: 1, 0, -1 unknown */
	struct waits_thread *th;
	size_t n, cap;
	uint64_t nticks;	/* ticks taken since open */
	double hz;		/* the current nominal rate */
	double cpu;		/* CPU seconds spent in waits_tick/read */
	struct waitpeer_edge *keys;	/* the edges by id (append-only:
					 * each read adds the new ones) */
	size_t nkeys, capkeys;
};

struct waits;

/* Sample below root ("/" in production, a fixture tree in tests).
 * The far ends of the pipes and sockets waited on are looked up
 * (waitpeer.h; sock_diag only for root "/"): a wait on a local process
 * is other, with an edge to it. */
struct waits *waits_open(const char *root, struct perr *e);

/* AF_UNIX peers known without sock_diag (fixture tests). */
int waits_add_unix_peer(struct waits *w, unsigned long ino,
			unsigned long peer);
void waits_close(struct waits *w);

/* Watch the threads of these processes (replaces the set; the same
 * processes as it has, none added since, keep it: waitset_same_pids). */
int waits_watch_pids(struct waits *w, const pid_t *pids, size_t n,
		     struct perr *e);
/* Watch the threads of a cgroup directory (replaces the set). */
int waits_watch_cgroup(struct waits *w, const char *dir, struct perr *e);

/* Leave task tid out of the set (0: none), whatever lists it: perflog
 * run's shim sits in the command's cgroup waiting for the command, and
 * its wait is perflog's, not the client's. Call before waitsampler_start
 * (or with the sampler's lock held). */
void waits_exclude(struct waits *w, pid_t tid);

/* Take a thread's io figures from the tree's books when they read it at
 * this sample (process.h proctree_thread_io) rather than reading its
 * task/TID/io again; NULL: read them. The tree must outlive w, and be
 * read on the thread that calls waits_read (the collector's: the
 * sampler's own thread never reads io). Call before waitsampler_start. */
struct proctree;
void waits_io_from(struct waits *w, const struct proctree *tree);

/* Threads of the set no tick sampled, from their exit records
 * (process/taskstats.h), which the caller found to be the tree's
 * (proctree_exit): a pool's threads begun and ended between two of a
 * slow tick's listings (t7720 on a saturated host), a worker a daemon
 * reaps in a signal handler. Each gets a row, ended, at the next read:
 * its life (the record's elapsed time up to e[i].at, when the record
 * came), its CPU time and bytes; its blocked time, which no
 * tick saw, is other, as a thread's before its first blocked tick.
 * A listed thread's record gives it its final figures (its last tick
 * may be a period before its end), and so does the record of a row a
 * tick ended that no read has taken yet; the record of a row a read has
 * taken makes none, however late it comes (the collector's loop held
 * 2.5 s on a loaded host; a record that waited in the Process books for
 * its parent until a read placed it: process.h proctree_late), nor does
 * the left-out task's. A task is its tid and its birth (the record's
 * end less its life, its begin time: waitgone.c), so a tid reused is
 * another's. A row's time is its task's end: its birth and the record's
 * life (when the record came, less its life, for a task no tick saw,
 * within a second of its begin time: a record drained late is not dated
 * as late). Returns the rows added, -1 out of memory. */
struct waits_exit {
	struct taskstats_exit x;
	double at;		/* monotonic: when it came */
};
int waits_exits(struct waits *w, const struct waits_exit *e, size_t n);
/* A thread that lived less than a tick at the top rate is below what
 * the sampler resolves, and in the Process counters anyway: its record
 * makes no row (a client making 10,000 threads a second, bench/hostile.sh
 * churn, cost the collector a point of a CPU more as rows). */
#define WAITS_EXIT_MIN_SEC (1.0 / WAITS_MAX_HZ)

/* One tick at monotonic time now. Returns the threads sampled. */
int waits_tick(struct waits *w, double now);

/* From any thread, without the lock: a tick under way stops at its next
 * thread (those left are kept as they were, new ones not taken), and
 * so does every later one; only waits_close follows. A tick at
 * valgrind's pace outlasted the stop's old bound (0.5 s), and the
 * process exited in the middle of it (t7600). */
void waits_stop(struct waits *w);

/* From any thread, without the lock: a count that moves as a tick goes
 * from file to file and thread to thread, so a caller can tell a slow
 * tick from a stuck one (a read that never returns). */
unsigned waits_progress(struct waits *w);

/* The exact figures at now, with the tick counts, into out (which keeps
 * its array between calls). Returns 0, or -1 when out of memory.
 * A read reads at most WAITS_READ_MAX threads, in turn, from where the
 * last one stopped; the others are in out with the figures of their last
 * tick or read (their own time, t: the counters are cumulative, so what
 * they did since is counted, exactly, when they are next read, in that
 * interval). 2,000 busy threads cost 22 ms a read, one a second, read
 * whole. waits_read_whole makes the next read read every thread (a
 * session's last: its totals). */
#define WAITS_READ_MAX 256
int waits_read(struct waits *w, double now, struct waits_snap *out);
void waits_read_whole(struct waits *w);

/* The monotonic time the next tick is due (see Rate above). */
double waits_next(struct waits *w, double now);

/* The share of one CPU the rate rule holds this sampler to
 * (WAITS_CPU_BUDGET unless set; share > 0): samplers that share one
 * budget each take a part, so their rates fall as their number grows
 * (a night's sessions, collector/conn_sessions.c). A large set's turn
 * (waitshare.c) is still fitted to WAITS_CPU_BUDGET at the rate's floor. */
void waits_budget(struct waits *w, double share);

/* CPU seconds the caller spent for the last tick outside waits_tick
 * (waking up for it: a sampler thread's whole loop), counted in the
 * rate rule and in waits_snap.cpu. */
void waits_overhead(struct waits *w, double sec);

void waits_snap_free(struct waits_snap *s);

#endif
