/*
 * waitrates.h - two wait-state reads (waits.h) -> the interval's Process
 * wait counters, and per-thread totals for a session. Pure functions: no
 * I/O, no clock (STYLE 5).
 *
 * Per thread, over the time it was alive in the interval (elapsed):
 *   cpu       = delta schedstat on-CPU ns                     (exact)
 *   cpu wait  = delta schedstat run-queue ns                  (exact)
 *   blocked   = elapsed - cpu - cpu wait
 *   blocked is split among disk, net, other and sleep by the share of
 *   the thread's ticks in the interval that fell in each; with no
 *   blocked tick in the interval, by the shares of its whole life so
 *   far; with none ever, it counts as other, unless every one of at
 *   least WAITRATES_RUN_SEEN ticks saw it running: then it is CPU wait
 *   (the scheduler's clocks leave out the time a hypervisor stole from
 *   its virtual CPU and interrupts took: a spinner on a busy host ran
 *   and waited 84% of the time, "other" 16%, never blocked).
 *   Delay accounting (kernel.task_delayacct = 1, at both reads): the
 *   block-I/O delay is a floor for disk (it counts io_schedule sleeps
 *   exactly but not, e.g., waits for a journal commit, which the ticks
 *   see), so disk = max(blkio delay, disk share x blocked), the rest
 *   split among the others by their shares.
 * Elapsed: from the previous read, or from the thread's start when it
 * began in the interval (counters start at 0 at birth), to its figures'
 * time (the read, or its last tick when it ended). A thread present at
 * the previous read time but not read then has no baseline and is left
 * out of this interval. If cpu + cpu wait exceed elapsed (the reads of
 * one thread are microseconds apart), both are scaled to fit.
 * Counters: 100 x seconds / interval, summed over the threads, so each
 * thread alive the whole interval adds 100 across the six states.
 */
#ifndef PERFLOG_WAITRATES_H
#define PERFLOG_WAITRATES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../counters/counters.h"
#include "waits.h"

enum waits_state {
	WS_CPU,		/* % Processor Time (of the sampled threads) */
	WS_CPU_WAIT,	/* % CPU Wait Time */
	WS_DISK,	/* % Disk Wait Time */
	WS_NET,		/* % Network Wait Time */
	WS_OTHER,	/* % Other Wait Time */
	WS_SLEEP,	/* % Sleep Time */
	WS_N
};

/* "cpu", "cpu_wait", "disk", "net", "other", "sleep" */
const char *waitrates_name(enum waits_state s);

struct waits_values {
	double pct[WS_N];	/* NAN when no thread could be counted */
	double threads;		/* threads alive, on average */
	double guessed;		/* % of blocked ticks decided by the state
				 * letter alone; NAN with no blocked tick */
	double blocked_ticks, guessed_ticks;	/* the counts behind guessed,
						 * for a session's share */
	int hidden;		/* wait channels hidden: some blocked ticks
				 * had neither wchan nor syscall readable */
	int exact_disk;		/* delay accounting on at both reads */
};

/* One thread's session so far, or (threads > 1, tid 0) the sum of many
 * ended threads of one name that did, or did not, work. */
struct waits_total {
	pid_t tid;
	pid_t pid;		/* its process (tgid); 0 folded or unknown */
	uint64_t start;
	char comm[16];
	double alive;		/* seconds counted */
	double sec[WS_N];
	uint64_t io_bytes;	/* rchar + wchar: files, sockets, pipes */
	unsigned threads;	/* 0 or 1: one thread; N: N ended, folded */
	int working;		/* folded rows: whether each of them worked */
	int ended;		/* the thread was reported ended */
	int peer;		/* a thread of a local peer, no thread of the
				 * tree (waits.h waits_thread.peer): a stage
				 * of the graph, in no sum of the tree's
				 * (waitrates_count, split, paced), never
				 * folded; the file's 15th field "peer" */
	double unseen;		/* blocked seconds put in other only
				 * because no tick had caught it blocked
				 * yet; moved to its shares when one does,
				 * and moved again at each read after by its
				 * shares of its life so far (not in the
				 * file) */
	double unseen_at[4];	/* where those seconds are now, by blocked
				 * state (disk, net, other, sleep) */
	double held;		/* blocked seconds of held reads (a socket
				 * whose far end was not known yet: waits.h
				 * held), in other until their class is
				 * known (not in the file) */
	double held_from;	/* when the oldest of those began (monotonic
				 * seconds) ... */
	double held_to;		/* ... and when the newest ended: their
				 * edges' span in the rows */
	/* A thread read in turn (waitshare.c): its blocked time split by
	 * fewer reads than ticks. Not in the file. */
	uint64_t reads, stood;	/* its blocked reads, and the ticks they
				 * stood for (folded: summed) */
	double spread;		/* blocked seconds^2 / reads (their
				 * effective number, for reads of unequal
				 * weight): what the variance of a state's
				 * seconds is times p(1 - p) (folded:
				 * summed); 0 with no read */
};

/* The bound on the totals. A client that starts 312 short processes a
 * second made a row each: 37 MB of waits-LABEL.tsv an hour, a sorted
 * insert (memmove) of 8.7 ms at 80,000 rows in the collector's loop, and
 * a file the report would not read. Once the rows reach fold_at
 * (WAITRATES_FOLD_AT, or twice the rows left by the last fold, so a
 * large live set is not folded at every read), the threads that ended
 * are summed into one row per command name and working verdict (their
 * count in the row's threads column); the live ones keep their rows. */
#define WAITRATES_FOLD_AT 4096

struct waitrows;

struct waits_totals {
	struct waits_total *t;	/* sorted by (tid, start) */
	size_t n, cap;
	struct waits_total *agg;	/* folded rows, any order */
	size_t nagg, capagg;
	size_t fold_at;		/* 0: WAITRATES_FOLD_AT */
	size_t folded;		/* threads folded so far */
	double *edge_sec;	/* blocked seconds on each edge, by the
				 * sampler's edge id (waits_snap.keys) */
	size_t nedge, capedge;
	struct waitrows *rows;	/* the same seconds interval by interval
				 * (waitrows.h), by process; NULL: none */
	double since;		/* the session's first read (monotonic), or
				 * 0: a thread first read late (a process
				 * that joined a PID or name= tree between
				 * two samples) but born after it counts
				 * from its birth, its counters all the
				 * session's; one born before has no
				 * baseline until its second read */
};

/* Threads a row stands for (1, or a folded row's count). */
size_t waitrates_nthreads(const struct waits_total *t);

/* Threads of the session and how many of them worked, folded ones
 * included. */
void waitrates_count(const struct waits_totals *tot, size_t *threads,
		     size_t *working);

/* The seconds one thread spent in each state between t0 and cur->t;
 * prev is its figures at t0, or NULL for a thread born after t0 (then
 * from its birth). delayacct: the floor above applies. Returns the
 * seconds elapsed, or -1 when the interval is empty. */
double waitrates_thread(const struct waits_thread *prev,
			const struct waits_thread *cur, double t0,
			int delayacct, double sec[WS_N]);

/* The interval prev -> cur into out; when tot is not NULL each thread's
 * seconds are added to its total, and its edges' seconds to
 * tot->edge_sec: an edge's share of the thread's net + other ticks in
 * the interval times its net + other seconds (so a process's edges add
 * up to at most its net + other time). Returns 0, or -1 when cur is not later
 * than prev or out of memory (out then holds NANs). */
int waitrates_compute(const struct waits_snap *prev,
		      const struct waits_snap *cur, struct waits_values *out,
		      struct waits_totals *tot);

/* Store v's wait states in the Process counters of iv (% CPU Wait Time,
 * % Disk, % Network, % Other Wait Time, % Sleep Time, by catalog index).
 * The Process % Processor Time is left alone: the tree's accounting
 * (process.h) counts reaped children too, which a thread sampler cannot. */
void waitrates_fill(const struct waits_values *v, struct instance_values *iv);

/* Ticks that, all seeing a thread running and none blocked, say its
 * unaccounted time was CPU taken from it: with 8 of 8 ticks running, a
 * thread blocked a tenth of its time would be missed with probability
 * 0.9^8 = 0.43, a third 0.04, half 0.004. */
#define WAITRATES_RUN_SEEN 8

/* Whether a thread did work in its session: on a CPU at least 10 ms and
 * 0.5% of its time, or 64 KiB of I/O, or blocked on the disk half of its
 * time (a reader stuck on a slow disk moves few bytes). Threads that did
 * not (pools parked on a lock, a poll or an idle socket) should not
 * outvote the ones that moved the data. */
int waitrates_working(const struct waits_total *t);

/* Whether process pid's rows in tot are a local peer's (waits_total.peer:
 * read while an edge named it, waitrelay.c; no process of the tree). */
int waitrates_peer_pid(const struct waits_totals *tot, pid_t pid);

/* Whether a thread moved data: 64 KiB of I/O (read and write calls on
 * files, pipes and sockets alike). */
#define WAITRATES_MOVED_BYTES (64 * 1024)
int waitrates_moved_data(const struct waits_total *t);

/* The sleep that paces the data: the seconds asleep of the working
 * threads that moved data, in percent of the working threads' alive time
 * (waitrates_split's denominator); NAN when none worked. A runtime's
 * helper that sleeps between its rounds (Go's sysmon, a progress timer)
 * works a little and moves nothing: its sleep paces nothing, and counted
 * as the client's it outvoted the CPU of a compressing restic. */
double waitrates_paced(const struct waits_totals *tot);

/* The states of the session as shares (percent of the threads' summed
 * alive time, so they add to 100), over all threads or only the working
 * ones; *threads gets how many were included. All NAN when none. */
void waitrates_split(const struct waits_totals *tot, int working_only,
		     double pct[WS_N], size_t *threads);

/* How far the split of waitrates_split may be from the threads' true
 * shares of their blocked time, for the reads it rests on: 1.96 standard
 * errors (95%) of the blocked state nearest an even share, in points of
 * the split (percent of the threads' alive time). Each read is taken as
 * a draw of its thread's state (right for a thread that changes its wait
 * many times between two reads; a thread that stays in one wait for
 * seconds is overstated), and the state's share across the rows as
 * every thread's (a pool of threads each in one state: overstated, never
 * understated). Not a correction for reading every tick (those ticks are
 * draws too: a set read in turns, at the rate its cheaper ticks allow,
 * is not a sample of them). *read gets the share of the blocked ticks
 * that were read: below 100, the set was read in turns (waitshare.c).
 * NAN when no thread counts. */
double waitrates_split_error(const struct waits_totals *tot,
			     int working_only, double *read);

/* Tab-separated, one line per thread, with a header line:
 * tid comm start alive cpu cpu_wait disk net other sleep io_bytes working
 * threads pid
 * (seconds with 3 decimals; comm with control characters as '?'; the
 * folded rows last, tid and start 0, threads their count).
 * Returns the length written (cut at a line when n is too small: then
 * the return is >= n, as snprintf). */
size_t waitrates_format(const struct waits_totals *tot, char *buf, size_t n);

/* A command name as the waits' files write it (waitrates_format's comm,
 * waitedges_format's comm and peer_comm): each byte below ' ' as '?'
 * (a tab or a newline, which a process's comm can hold, would add a
 * field or a line: issue 50 item 5), cut at 15 bytes. out holds 16. */
void waitrates_comm(char out[16], const char *name);

/* Read back what waitrates_format wrote (the header line first; lines
 * that do not parse are skipped and counted in *bad when bad is not
 * NULL; files without the threads column, of before the fold, are
 * read too, and files without the pid column, of before issue 29: pid
 * 0). tot is emptied first; folded rows go in tot->t too. Returns the threads read, or -1 when out
 * of memory or when the header is not waitrates_format's. */
long waitrates_parse(const char *text, size_t len, struct waits_totals *tot,
		     size_t *bad);

void waitrates_totals_free(struct waits_totals *tot);

#endif
