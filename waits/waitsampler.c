/*
 * waitsampler.c - waits_tick on its own thread (waitsampler.h says why).
 *
 * The thread sleeps on a condition variable bound to CLOCK_MONOTONIC
 * until the next tick's absolute deadline (waits_next), so stopping it
 * wakes it at once instead of after a sleep.
 *
 * Who frees what (state): RUN until waitsampler_stop sets STOPPING; the
 * thread, leaving, turns STOPPING into EXITED and stop joins it and frees;
 * or stop, tired of waiting, turns STOPPING into ORPHANED and returns,
 * and the thread frees everything when its stuck tick comes back. The
 * compare-and-swap makes exactly one of them the last.
 */
#define _GNU_SOURCE
#include "waitsampler.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct waitsampler {
	struct waits *w;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_cond_t ticked;	/* a tick ended (waitsampler_tick_now) */
	uint64_t ticks;		/* ticks ended, under lock */
	int asked;		/* a tick asked for now, under lock */
	atomic_int state;	/* RUN, STOPPING, EXITED, ORPHANED */
	pid_t tid;
	double cpu_end;		/* thread CPU clock when the last tick ended */
	_Atomic double budget;	/* waitsampler_budget's, for waits_budget */
	/* exit records of the set's threads (waitsampler_exit), queued by
	 * the collector's thread under qlock alone (never behind a tick),
	 * taken by the next tick before it samples, or by the next read */
	pthread_mutex_t qlock;
	struct exits {
		struct waits_exit *e;
		size_t n, cap;
	} q, work;
};

/* Records queued at most: beyond, the rest are dropped until a tick
 * takes them (a sampler stuck for long, a fork bomb). */
#define EXITS_MAX 65536

enum { RUN, STOPPING, EXITED, ORPHANED };

static void destroy(struct waitsampler *s)
{
	pthread_cond_destroy(&s->wake);
	pthread_cond_destroy(&s->ticked);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->qlock);
	free(s->q.e);
	free(s->work.e);
	waits_close(s->w);
	free(s);
}

/* The queued exit records to waits (s->lock held): the queue swapped
 * with the spare one under qlock, so the collector never waits long. */
static void take_exits(struct waitsampler *s)
{
	struct exits t;

	pthread_mutex_lock(&s->qlock);
	t = s->q;
	s->q = s->work;
	s->work = t;
	s->q.n = 0;
	pthread_mutex_unlock(&s->qlock);
	if (s->work.n)
		waits_exits(s->w, s->work.e, s->work.n);
	s->work.n = 0;
}

static void *run(void *arg)
{
	struct waitsampler *s = arg;
	int expect = STOPPING;

	pthread_mutex_lock(&s->lock);
	s->tid = (pid_t)syscall(SYS_gettid);
	s->cpu_end = util_thread_cpu();
	pthread_cond_broadcast(&s->wake);
	while (atomic_load(&s->state) == RUN) {
		double now = util_monotonic(), next, c0 = util_thread_cpu();
		struct timespec ts;

		/* the wake-up is part of the cost: on a busy VM it is most
		 * of it for a small set (bench/waits.sh) */
		waits_overhead(s->w, c0 - s->cpu_end);
		take_exits(s);
		s->asked = 0;
		waits_tick(s->w, now);
		s->ticks++;
		pthread_cond_broadcast(&s->ticked);
		s->cpu_end = util_thread_cpu();
		waits_budget(s->w, atomic_load(&s->budget));
		next = waits_next(s->w, util_monotonic());
		ts.tv_sec = (time_t)next;
		ts.tv_nsec = (long)((next - floor(next)) * 1e9);
		while (atomic_load(&s->state) == RUN && !s->asked &&
		       pthread_cond_timedwait(&s->wake, &s->lock, &ts) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&s->lock);
	if (!atomic_compare_exchange_strong(&s->state, &expect, EXITED)) {
		/* ORPHANED: stop gave up on us and returned */
		pthread_detach(pthread_self());
		destroy(s);
	}
	return NULL;
}

/* The absolute time sec from now on clock. */
static struct timespec after(clockid_t clock, double sec)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	ts.tv_sec += (time_t)sec;
	ts.tv_nsec += (long)((sec - floor(sec)) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}

/* The lock within WAITSAMPLER_WAIT_SEC: 0, or -1 (a tick is stuck). */
static int lock_bounded(struct waitsampler *s)
{
	struct timespec ts = after(CLOCK_MONOTONIC, WAITSAMPLER_WAIT_SEC);
	int err;

	while ((err = pthread_mutex_clocklock(&s->lock, CLOCK_MONOTONIC,
					      &ts)) == EINTR)
		;
	return err ? -1 : 0;
}

struct waitsampler *waitsampler_start(struct waits *w, struct perr *e)
{
	struct waitsampler *s = calloc(1, sizeof(*s));
	pthread_condattr_t ca;
	sigset_t all, old;
	int err;

	if (!s) {
		waits_close(w);
		perr_set(e, "out of memory");
		return NULL;
	}
	s->w = w;
	atomic_init(&s->budget, WAITS_CPU_BUDGET);
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->qlock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &ca);
	pthread_cond_init(&s->ticked, &ca);
	pthread_condattr_destroy(&ca);
	/* the new thread inherits the mask: no window where it could take
	 * a signal meant for the collector's loop */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&s->thread, NULL, run, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		perr_set(e, "unable to start the wait-state sampler: %s",
			 strerror(err));
		destroy(s);
		return NULL;
	}
	pthread_mutex_lock(&s->lock);
	while (!s->tid)
		pthread_cond_wait(&s->wake, &s->lock);
	pthread_mutex_unlock(&s->lock);
	return s;
}

int waitsampler_watch_pids(struct waitsampler *s, const pid_t *pids, size_t n,
			   struct perr *e)
{
	int r;

	if (lock_bounded(s) < 0)
		return perr_set(e, "the wait-state sampler is stuck in a tick");
	r = waits_watch_pids(s->w, pids, n, e);
	pthread_mutex_unlock(&s->lock);
	return r;
}

int waitsampler_tick_now(struct waitsampler *s)
{
	struct timespec ts = after(CLOCK_MONOTONIC, WAITSAMPLER_WAIT_SEC);
	uint64_t want;
	int r;

	if (lock_bounded(s) < 0)
		return 1;
	want = s->ticks + 1;
	s->asked = 1;
	pthread_cond_broadcast(&s->wake);
	while (s->ticks < want && atomic_load(&s->state) == RUN &&
	       pthread_cond_timedwait(&s->ticked, &s->lock, &ts) != ETIMEDOUT)
		;
	r = s->ticks >= want ? 0 : 1;
	pthread_mutex_unlock(&s->lock);
	return r;
}

int waitsampler_watch_cgroup(struct waitsampler *s, const char *dir,
			     struct perr *e)
{
	int r;

	if (lock_bounded(s) < 0)
		return perr_set(e, "the wait-state sampler is stuck in a tick");
	r = waits_watch_cgroup(s->w, dir, e);
	pthread_mutex_unlock(&s->lock);
	return r;
}

int waitsampler_read(struct waitsampler *s, struct waits_snap *out)
{
	int r;

	if (lock_bounded(s) < 0)
		return 1;
	take_exits(s);
	r = waits_read(s->w, util_monotonic(), out);
	pthread_mutex_unlock(&s->lock);
	return r;
}

void waitsampler_exit(struct waitsampler *s, const struct taskstats_exit *x,
		      double at)
{
	struct exits *q;

	if (!s || x->etime < WAITS_EXIT_MIN_SEC)
		return;		/* no row to make, not worth a final figure */
	pthread_mutex_lock(&s->qlock);
	q = &s->q;
	if (q->n < EXITS_MAX &&
	    util_grow(&q->e, &q->cap, q->n + 1, sizeof(*q->e)) == 0) {
		q->e[q->n].x = *x;
		q->e[q->n++].at = at;
	}
	pthread_mutex_unlock(&s->qlock);
}

void waitsampler_read_whole(struct waitsampler *s)
{
	if (lock_bounded(s) < 0)
		return;		/* stuck: its next read is partial */
	waits_read_whole(s->w);
	pthread_mutex_unlock(&s->lock);
}

void waitsampler_budget(struct waitsampler *s, double share)
{
	atomic_store(&s->budget, share);
}

pid_t waitsampler_tid(struct waitsampler *s)
{
	return s->tid;
}

/* How long a tick may go without progress before stop leaves it
 * (stuck: a read that does not return), and how long stop waits for a
 * tick that progresses (slow: valgrind's pace, a file system that
 * answers late). Stop runs on the collector's loop when a watch ends:
 * a stuck tick costs it 1.25 s there (it was 0.5 s). */
#define STILL_SEC (4 * WAITSAMPLER_WAIT_SEC)
#define SLOW_SEC 3.0

void waitsampler_stop(struct waitsampler *s)
{
	struct timespec ts;
	int expect = STOPPING;
	double t0 = util_monotonic(), still = 0;

	if (!s)
		return;
	atomic_store(&s->state, STOPPING);
	waits_stop(s->w);	/* a tick under way ends at its next thread */
	/* under the lock, the wake cannot fall between the thread's look at
	 * state and its wait; without it (a stuck tick) the thread looks at
	 * state before it waits again */
	if (lock_bounded(s) == 0) {
		pthread_cond_broadcast(&s->wake);
		pthread_mutex_unlock(&s->lock);
	}
	for (;;) {
		unsigned seen = waits_progress(s->w);

		ts = after(CLOCK_REALTIME, WAITSAMPLER_WAIT_SEC);
		if (pthread_timedjoin_np(s->thread, NULL, &ts) == 0) {
			destroy(s);
			return;
		}
		still = waits_progress(s->w) == seen ?
			still + WAITSAMPLER_WAIT_SEC : 0;
		if (still >= STILL_SEC || util_monotonic() - t0 >= SLOW_SEC)
			break;
	}
	if (atomic_compare_exchange_strong(&s->state, &expect, ORPHANED))
		return;		/* the thread frees it all when it is back */
	pthread_join(s->thread, NULL);	/* it was leaving: EXITED */
	destroy(s);
}
