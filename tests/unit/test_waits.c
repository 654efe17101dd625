/*
 * test_waits.c - the wait-state sampler on a fake /proc
 * (tests/fixtures/proc/waits1, README there: a thread in each state, wait
 * channels hidden, garbage, a zombie, a cgroup), a thread vanishing
 * between ticks, a cgroup, a late member, an unseen first second, a
 * spinner's run seen (a wait's far ends: test_waitsfar.c; the interval
 * arithmetic: test_waitrates.c).
 */
#define _GNU_SOURCE
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../waits/waitrates.h"
#include "../../waits/waits.h"
#include "tap.h"
#include "waitsnap.h"

static char root[64];

static void expect(const struct waits_snap *s, pid_t tid, enum wait_class c,
		   int guessed, int hidden, const char *what)
{
	const struct waits_thread *t = snap_find(s, tid);
	char name[160];

	snprintf(name, sizeof(name), "fixture %d: %s", (int)tid, what);
	OK(t && snap_only_class(t) == (int)c && (t->guessed > 0) == guessed &&
	   (t->hidden > 0) == hidden, name);
	if (t && snap_only_class(t) != (int)c)
		printf("#   class %d, guessed %llu hidden %llu\n", snap_only_class(t),
		       (unsigned long long)t->guessed,
		       (unsigned long long)t->hidden);
}

static void setup_root(void)
{
	OK(snap_root(root, sizeof(root)) == 0, "fixture copied to a scratch root");
}

static void test_fixture(void)
{
	struct perr e;
	struct waits *w = waits_open(root, &e);
	struct waits_snap s = { 0 };
	pid_t pid = 700;
	char path[128];

	OK(w != NULL, "open on the fixture root");
	if (!w)
		return;
	EQ_INT(waits_watch_pids(w, &pid, 1, &e), 0, "watch pid 700");
	EQ_INT(waits_tick(w, 1000.0), 18,
	       "tick: 20 threads less 714 (stat without ')') and 715 (zombie)");
	EQ_INT(waits_read(w, 1000.0, &s), 0, "read");
	EQ_INT(s.delayacct, 1, "task_delayacct read");
	expect(&s, 700, WAIT_RUN, 0, 0, "R: run");
	expect(&s, 701, WAIT_SLEEP, 0, 0, "hrtimer_nanosleep: sleep");
#ifdef __x86_64__
	expect(&s, 702, WAIT_NET, 0, 0, "wait_woken in recvfrom: net");
	expect(&s, 703, WAIT_NET, 0, 0, "wait_woken in read(socket): net");
	expect(&s, 706, WAIT_NET, 0, 0, "poll on a socket for output and a pipe: net");
	expect(&s, 707, WAIT_OTHER, 0, 0, "epoll on a pipe and a timer: other");
	expect(&s, 708, WAIT_SLEEP, 0, 0, "select(0, ..., &tv): sleep");
	expect(&s, 711, WAIT_OTHER, 0, 0, "unknown wchan, read(pipe): other");
	expect(&s, 712, WAIT_DISK, 0, 0, "D, wchan 0, write(file): disk");
	expect(&s, 717, WAIT_SLEEP, 0, 0, "poll(NULL, 0, ms): sleep");
	expect(&s, 718, WAIT_OTHER, 0, 0, "futex, comm 'a) b (c': other");
#else
	OK(1, "# SKIP the fixture's syscall files are x86_64 numbers");
#endif
	expect(&s, 704, WAIT_OTHER, 0, 0, "anon_pipe_read: other");
	expect(&s, 705, WAIT_DISK, 0, 0, "folio_wait_bit_common: disk");
	expect(&s, 709, WAIT_DISK, 1, 1, "D, hidden: disk by letter");
	expect(&s, 710, WAIT_OTHER, 1, 1, "S, hidden: other by letter");
	expect(&s, 716, WAIT_RUN, 0, 0, "syscall says running: run");
	OK(!snap_find(&s, 714), "stat without ')': never added");
	OK(!snap_find(&s, 715), "zombie thread: not watched");
	OK(!snap_find(&s, 719), "schedstat garbage: not in the read");
	{
		const struct waits_thread *t = snap_find(&s, 705);

		OK(t && t->blkio_ns == 250ULL * (1000000000ULL /
						 (unsigned long long)sysconf(_SC_CLK_TCK)),
		   "blkio ticks read as ns");
		OK(t && t->rchar == 1000 && t->wchar == 2000 &&
		   t->write_bytes == 8192, "io read");
		OK(t && t->cpu_ns == 20000000 && t->runq_ns == 1000000000,
		   "schedstat read");
		EQ_STR(t ? t->comm : NULL, "client", "comm");
	}

	/* 713 exits: its schedstat reads empty from now on */
	snprintf(path, sizeof(path), "%s/proc/700/task/713/schedstat", root);
	OK(truncate(path, 0) == 0, "713 vanishes");
	/* 706's socket becomes a pipe: the memo holds it for a second */
	snprintf(path, sizeof(path), "%s/proc/700/fd/5", root);
	OK(unlink(path) == 0 && symlink("pipe:[77]", path) == 0, "fd 5 reused");
	EQ_INT(waits_tick(w, 1000.5), 17, "second tick: 713 ended");
	EQ_INT(waits_read(w, 1001.0, &s), 0, "second read");
	{
		const struct waits_thread *t = snap_find(&s, 713);

		OK(t && !t->alive && t->ticks[WAIT_SLEEP] == 1 && t->t == 1000.0,
		   "713 in the read once more, ended, with its last tick's figures");
		t = snap_find(&s, 701);
		OK(t && t->ticks[WAIT_SLEEP] == 2, "701 unmoved: same wait, counted");
		t = snap_find(&s, 700);
		OK(t && t->ticks[WAIT_RUN] == 2 && t->t == 1001.0, "700: two runs");
#ifdef __x86_64__
		t = snap_find(&s, 706);
		OK(t && t->ticks[WAIT_NET] == 2, "706: the memo kept net");
#endif
	}
	EQ_INT(waits_tick(w, 1002.0), 17, "third tick, 1.5 s after the probe");
	EQ_INT(waits_read(w, 1002.0, &s), 0, "third read");
	OK(!snap_find(&s, 713), "713 reported once, then gone");
	OK(snap_find(&s, 701) && snap_find(&s, 701)->ticks[WAIT_SLEEP] == 3, "701: 3 ticks");
	/* 701 exits after the tick, before the read: the read reports it */
	snprintf(path, sizeof(path), "%s/proc/700/task/701/schedstat", root);
	OK(truncate(path, 0) == 0, "701 vanishes between a tick and a read");
	EQ_INT(waits_read(w, 1003.0, &s), 0, "fourth read");
	OK(snap_find(&s, 701) && !snap_find(&s, 701)->alive && snap_find(&s, 701)->t == 1002.0,
	   "701 reported ended at once, with its last tick's time");
	EQ_INT(waits_tick(w, 1003.5), 16, "701 no longer sampled");
	EQ_INT(waits_read(w, 1004.0, &s), 0, "fifth read");
	OK(!snap_find(&s, 701), "701 reported once");
	waits_snap_free(&s);
	waits_close(w);
}

static void test_cgroup(void)
{
	struct perr e;
	struct waits *w = waits_open(root, &e);
	struct waits_snap s = { 0 };
	char dir[128];
	pid_t two[2] = { 800, 99999 };

	if (!w)
		return;
	snprintf(dir, sizeof(dir), "%s/sys/fs/cgroup/unified/job", root);
	EQ_INT(waits_watch_cgroup(w, dir, &e), 0, "cgroup v2: cgroup.threads");
	/* 701 and 713 (vanished above), 714, 715 are not watched, 719 is
	 * (unreadable) */
	EQ_INT(waits_tick(w, 1.0), 16 + 2, "cgroup v2: its threads, garbage skipped");
	snprintf(dir, sizeof(dir), "%s/sys/fs/cgroup/cpu/job", root);
	EQ_INT(waits_watch_cgroup(w, dir, &e), 0, "cgroup v1: tasks");
	EQ_INT(waits_tick(w, 2.0), 3, "cgroup v1: 700, 800, 801");
	waits_exclude(w, 800);
	EQ_INT(waits_tick(w, 2.5), 2, "800 excluded (perflog run's shim): 700, 801");
	waits_exclude(w, 0);
	EQ_INT(waits_read(w, 2.0, &s), 0, "read after the set changed");
	OK(snap_find(&s, 702) && !snap_find(&s, 702)->alive, "702 left the set: ended");
	snprintf(dir, sizeof(dir), "%s/sys/fs/cgroup/unified/nosuch", root);
	OK(waits_watch_cgroup(w, dir, &e) < 0 && strstr(e.msg, "nosuch"),
	   "a missing cgroup: the error names it");
	EQ_INT(waits_watch_pids(w, two, 2, &e), 0, "watch 800 and a pid gone");
	EQ_INT(waits_tick(w, 3.0), 2, "800's two threads");
	expect(&s, 800, WAIT_OTHER, 0, 0, "800 do_wait: other");
	waits_snap_free(&s);
	waits_close(w);
	OK(rmtree(root) == 0, "scratch root removed");
}

/* A process of a watch by name= or PID tree joins the sampler's set at
 * the collector's next sample (the pid list is refreshed once a sample),
 * so its threads are first read a sample or two after their birth: with
 * no figures of theirs at prev, they were left out as "existed before the
 * watch" until the next interval, and a receiver rsync forked and done
 * within two samples was never counted (issue 29, t3720 sfsync). Born
 * after the session's baseline (tot->since), such a thread counts from
 * its birth: its counters are all the session's. */
static void test_late_member(void)
{
	struct waits_thread p[1], c[2];
	struct waits_snap prev = { .t = 12, .delayacct = 0, .th = p, .n = 1 };
	struct waits_snap cur = { .t = 13, .delayacct = 0, .th = c, .n = 2 };
	struct waits_values v;
	struct waits_totals tot = { 0 };

	p[0] = crafted(1, 12, 0, 0, 0, 0, 0, 10);
	c[0] = crafted(1, 13, 0, 0, 0, 0, 0, 20);	/* the parent, asleep */
	c[1] = crafted(2, 13, 0.2, 0, 80, 0, 0, 0);	/* the child: born at 11 */
	c[1].born = 11;
	c[1].alive = 0;		/* ... and ended before this read */
	c[1].rchar = 0;
	c[1].wchar = 32u << 20;
	tot.since = 10;		/* the watch began at 10 */
	EQ_INT(waitrates_compute(&prev, &cur, &v, &tot), 0, "compute");
	EQ_INT(tot.n, 2, "the late member has its total");
	EQ_DBL(tot.n == 2 ? tot.t[1].alive : 0, 2, 1e-9,
	       "... counted from its birth (11), not left out");
	EQ_DBL(tot.n == 2 ? tot.t[1].sec[WS_DISK] : 0, 1.8, 1e-9,
	       "... its disk wait whole");
	OK(tot.n == 2 && tot.t[1].io_bytes == 32u << 20, "... and its bytes");
	EQ_DBL(v.threads, 2, 1e-9,
	       "the row: one second of each (its earlier second was a row gone)");
	EQ_DBL(v.pct[WS_DISK], 90, 1e-9, "the row: its disk wait in the interval");
	EQ_DBL(v.pct[WS_SLEEP], 100, 1e-9, "the row: the parent asleep");
	waitrates_totals_free(&tot);

	memset(&tot, 0, sizeof(tot));
	tot.since = 11.5;	/* born before the watch: no baseline */
	waitrates_compute(&prev, &cur, &v, &tot);
	EQ_INT(tot.n, 1, "a thread born before the watch is still left out");
	waitrates_totals_free(&tot);
}

/* A thread whose first second had no blocked tick (the sampler at 3 Hz
 * caught it running): that second's blocked time is other in the row,
 * and in the totals until its first blocked ticks say disk. */
static void test_unseen(void)
{
	struct waits_thread a[1], b[1], c[1];
	struct waits_snap s0 = { .t = 10, .th = a, .n = 1 };
	struct waits_snap s1 = { .t = 11, .th = b, .n = 1 };
	struct waits_snap s2 = { .t = 12, .th = c, .n = 1 };
	struct waits_values v;
	struct waits_totals tot = { 0 };

	a[0] = crafted(1, 10, 0, 0, 0, 0, 0, 0);
	b[0] = crafted(1, 11, 0.5, 0, 0, 0, 0, 0);	/* 0.5 s blocked, unseen */
	c[0] = crafted(1, 12, 1.0, 0, 9, 0, 1, 0);	/* then seen: disk 9, other 1 */
	waitrates_compute(&s0, &s1, &v, &tot);
	EQ_DBL(v.pct[WS_OTHER], 50, 1e-9, "unseen: the first row's blocked half is other");
	EQ_DBL(tot.n ? tot.t[0].sec[WS_OTHER] : -1, 0.5, 1e-9,
	       "unseen: ... in the totals too, for now");
	waitrates_compute(&s1, &s2, &v, &tot);
	EQ_DBL(v.pct[WS_DISK], 45, 1e-9, "unseen: the second row: disk 90% of its blocked half");
	EQ_DBL(tot.n ? tot.t[0].sec[WS_DISK] : -1, 0.9, 1e-9,
	       "unseen: the totals' first half second moved to disk and other by the ticks (0.45 + 0.45)");
	EQ_DBL(tot.n ? tot.t[0].sec[WS_OTHER] : -1, 0.1, 1e-9,
	       "unseen: ... and other keeps its own share (0.05 + 0.05)");
	EQ_DBL(tot.n ? tot.t[0].alive : -1, 2, 1e-9, "unseen: alive unchanged");
	waitrates_totals_free(&tot);
}

/* A spinner on a host whose hypervisor steals its CPU: its schedstat's
 * run and wait add up to 84% of the interval, every tick saw it running.
 * The rest is CPU taken from it (CPU wait), not other; with too few ticks
 * to tell, still other (a mostly blocked thread caught running twice). */
static void test_run_seen(void)
{
	struct waits_thread a[1], b[1];
	struct waits_snap s0 = { .t = 10, .th = a, .n = 1 };
	struct waits_snap s1 = { .t = 11, .th = b, .n = 1 };
	struct waits_values v;
	struct waits_totals tot = { 0 };

	a[0] = crafted(1, 10, 0, 0, 0, 0, 0, 0);
	b[0] = crafted(1, 11, 0.63, 0.21, 0, 0, 0, 0);
	a[0].ticks[WAIT_RUN] = 4;
	b[0].ticks[WAIT_RUN] = 12;
	waitrates_compute(&s0, &s1, &v, &tot);
	EQ_DBL(v.pct[WS_CPU_WAIT], 37, 1e-6, "run seen: the row's 16% unaccounted is CPU wait (21 + 16)");
	EQ_DBL(v.pct[WS_OTHER], 0, 1e-9, "run seen: ... not other");
	EQ_DBL(tot.n ? tot.t[0].sec[WS_CPU_WAIT] : -1, 0.37, 1e-6, "run seen: the totals too");
	waitrates_totals_free(&tot);

	memset(&tot, 0, sizeof(tot));
	b[0].ticks[WAIT_RUN] = 2;
	waitrates_compute(&s0, &s1, &v, &tot);
	EQ_DBL(v.pct[WS_OTHER], 16, 1e-6, "run seen twice only: other");
	waitrates_totals_free(&tot);

	/* held apart first (too few ticks), then enough: moved to CPU wait */
	{
		struct waits_thread c[1];
		struct waits_snap s2 = { .t = 12, .th = c, .n = 1 };

		memset(&tot, 0, sizeof(tot));
		c[0] = crafted(1, 12, 1.26, 0.42, 0, 0, 0, 0);
		c[0].ticks[WAIT_RUN] = 10;
		waitrates_compute(&s0, &s1, &v, &tot);
		waitrates_compute(&s1, &s2, &v, &tot);
		EQ_DBL(tot.n ? tot.t[0].sec[WS_OTHER] : -1, 0, 1e-6,
		       "run seen later: the first second's other moved");
		EQ_DBL(tot.n ? tot.t[0].sec[WS_CPU_WAIT] : -1, 0.74, 1e-6,
		       "run seen later: ... to CPU wait (0.21 + 0.16, twice)");
		waitrates_totals_free(&tot);
	}
}

int main(void)
{
	test_unseen();
	test_run_seen();
	setup_root();
	test_fixture();
	test_cgroup();
	test_late_member();
	return done_testing();
}
