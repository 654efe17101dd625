/*
 * waitsampler.h - the wait-state sampler (waits.h) on a thread of its own.
 *
 * Why a thread and not the collector's loop: a tick must come every
 * 20 ms or so, and the loop spends tens to hundreds of milliseconds in
 * librrd when it writes a batch or creates a file (bench/scale.sh):
 * driven from there, ticks would bunch up and miss exactly the moments
 * the collector is busy, and a 512-thread tick (about a millisecond)
 * would sit in front of every sample deadline. On its own thread, ticks
 * follow their own absolute monotonic deadlines and the collector's
 * sample only takes a lock for the read (waits_read: a few microseconds
 * a thread); the tick itself holds the lock, so a read waits at most one
 * tick (measured by bench/waits.sh).
 *
 * A tick can block, though: a /proc read of a thread stuck in a file
 * system (a hung FUSE or NFS server, issue 21) or anything the kernel
 * makes wait. The collector's loop never waits on the sampler longer
 * than WAITSAMPLER_WAIT_SEC: a read that cannot get the lock within it
 * says so (1) and the caller keeps the last complete read, so the next
 * read spans both intervals. Stopping a stuck sampler (no progress for
 * 1 s) leaves its thread to free itself when it comes back; a slow one
 * is waited for (waitsampler_stop). The thread blocks every signal, so
 * the collector's SIGTERM/SIGINT/SIGHUP still reach its ppoll.
 */
#ifndef PERFLOG_WAITSAMPLER_H
#define PERFLOG_WAITSAMPLER_H

#include <sys/types.h>

#include "../common/util.h"
#include "waits.h"

struct waitsampler;

/* Start ticking w (the sampler owns it from now on and closes it). */
struct waitsampler *waitsampler_start(struct waits *w, struct perr *e);

/* waits_watch_pids / waits_watch_cgroup under the lock; a stuck sampler
 * gives -1 with e saying so (the next sample tries again). */
int waitsampler_watch_pids(struct waitsampler *s, const pid_t *pids, size_t n,
			   struct perr *e);
int waitsampler_watch_cgroup(struct waitsampler *s, const char *dir,
			     struct perr *e);

/* The longest the collector's loop waits for the sampler's lock: a
 * tick of 2,000 threads holds it a few milliseconds. */
#define WAITSAMPLER_WAIT_SEC 0.25

/* waits_read at the current monotonic time, under the lock: 0, -1 (out
 * of memory), or 1 when the sampler was stuck in a tick for longer than
 * WAITSAMPLER_WAIT_SEC (out untouched). */
int waitsampler_read(struct waitsampler *s, struct waits_snap *out);
/* An exit record of a thread of the set (the collector's books took
 * it: proctree_exit, or a later read placed it: proctree_late), which
 * came at monotonic time at, from any thread, never waiting on a tick:
 * queued for the next tick, which gives it to waits_exits before it
 * samples (a thread it lists ends with the record's final figures, one
 * it never listed gets a row from it), or for the next read. */
void waitsampler_exit(struct waitsampler *s, const struct taskstats_exit *x,
		      double at);

/* A tick now, waited for within WAITSAMPLER_WAIT_SEC: 0, or 1 when it
 * did not end in time (stuck, or a long first listing). For a baseline
 * read just after the set was given (waitsampler_watch_pids): a tick
 * lists its threads, and a read before that had none of them, so a
 * process of the tree alive before the watch began had its first
 * interval skipped (make demo's server, watched from each set's begin:
 * up to a second of the client's waits on it "not seen"). */
int waitsampler_tick_now(struct waitsampler *s);

/* waits_read_whole under the lock: the next read reads every thread (a
 * sampler stuck in a tick past the bound: not set, the read is partial). */
void waitsampler_read_whole(struct waitsampler *s);

/* waits_budget at the next tick's end: the collector's thread sets it
 * without waiting on a tick. */
void waitsampler_budget(struct waitsampler *s, double share);

/* The sampler thread's id (for measuring its CPU time from outside). */
pid_t waitsampler_tid(struct waitsampler *s);

/* Stop the thread, close w, free everything. A tick under way ends at
 * its next thread and is waited for while it makes progress (up to 3 s);
 * a stuck one (no progress for 4 x WAITSAMPLER_WAIT_SEC) is left, and
 * frees it all itself when it returns. NULL is fine. */
void waitsampler_stop(struct waitsampler *s);

#endif
