/*
 * test_waitsampler.c - a wait-state sampler whose tick is stuck (issue 21,
 * item 2: a /proc read of a thread in a hung FUSE mount held the
 * sampler's lock and the collector's loop waited on it for 37 s).
 *
 * The stuck tick is made on a scratch /proc root: task/900/stat of the
 * watched thread is a FIFO nobody writes, so the tick's open of it blocks
 * as a read into a dead file system does. Then the collector's calls must
 * each come back within the bound (waitsampler.h): a read says "stuck"
 * (1), a watch fails, a stop returns; once the FIFO is opened for writing
 * the orphaned thread frees everything itself (ASan's leak check at exit
 * says it did). On the old code the first read never returned: an alarm
 * turns that into a failure.
 *
 * A slow tick is not a stuck one (slow_tick): ten threads whose stat
 * FIFOs a writer opens one every 0.1 s make a tick of a second that
 * progresses. A stop must end it at its next thread and join it; it
 * used to leave it after half a second, and the process exited under a
 * tick of valgrind's pace with its fd-table DIR open (t7600's flake).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../waits/waitsampler.h"
#include "fixtures.h"
#include "tap.h"

#ifndef WAITSAMPLER_WAIT_SEC	/* a sampler without the bound */
#define WAITSAMPLER_WAIT_SEC 0.25
#endif

static char root[64];

static void on_alarm(int sig)
{
	static const char msg[] =
		"not ok - a call into the stuck sampler never came back\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

#define put(rel, text) fixture_put(root, (rel), (text))

static void nap(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

static int make_root(char *fifo, size_t n)
{
	char path[160];

	snprintf(root, sizeof(root), "/tmp/perflog-stuck-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(path, sizeof(path), "%s/proc/900/task/900", root);
	snprintf(fifo, n, "%s/stat", path);
	{
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "mkdir -p %s", path);
		if (system(cmd) != 0)
			return -1;
	}
	put("proc/uptime", "1000.00 1500.00\n");
	put("proc/900/stat",
	    "900 (stuck) S 1 900 900 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5000 0 0 0\n");
	return mkfifo(fifo, 0600);
}

/* slow_tick's writer: opens each FIFO once a reader waits on it. */
#define SLOW_N 10
static char slow_fifo[SLOW_N][200];
static atomic_int slow_opened, slow_quit;

static void *slow_writer(void *arg)
{
	(void)arg;
	for (int i = 0; i < SLOW_N && !atomic_load(&slow_quit); i++) {
		int fd;

		while ((fd = open(slow_fifo[i], O_WRONLY | O_NONBLOCK)) < 0 &&
		       !atomic_load(&slow_quit))
			nap(0.005);	/* ENXIO: no reader yet */
		if (fd < 0)
			break;
		close(fd);
		atomic_fetch_add(&slow_opened, 1);
		nap(0.1);
	}
	return NULL;
}

static void slow_tick(void)
{
	char path[200];
	struct perr e;
	struct waits *w;
	struct waitsampler *s;
	pthread_t writer;
	pid_t pid = 910, tid;
	double t0, t;

	snprintf(root, sizeof(root), "/tmp/perflog-slow-XXXXXX");
	if (!mkdtemp(root)) {
		OK(0, "a scratch root");
		return;
	}
	put("proc/uptime", "1000.00 1500.00\n");
	put("proc/910/stat",
	    "910 (slow) S 1 910 910 0 -1 0 0 0 0 0 0 0 0 0 20 0 10 0 5000 0 0 0\n");
	for (int i = 0; i < SLOW_N; i++) {
		/* listed in 910/task; read, as the kernel's, at TID/task/TID */
		snprintf(path, sizeof(path), "%s/proc/910/task/%d", root, 910 + i);
		if (util_mkdirs(path, 0755) < 0)
			return;
		snprintf(path, sizeof(path), "%s/proc/%d/task/%d", root,
			 910 + i, 910 + i);
		if (util_mkdirs(path, 0755) < 0)
			return;
		snprintf(slow_fifo[i], sizeof(slow_fifo[i]), "%s/stat", path);
		if (mkfifo(slow_fifo[i], 0600) < 0)
			return;
	}
	w = waits_open(root, &e);
	s = w ? waitsampler_start(w, &e) : NULL;
	OK(s != NULL, "slow: sampler started");
	if (!s)
		return;
	tid = waitsampler_tid(s);
	pthread_create(&writer, NULL, slow_writer, NULL);
	EQ_INT(waitsampler_watch_pids(s, &pid, 1, &e), 0, "slow: watch ten threads");
	for (int k = 0; k < 200 && atomic_load(&slow_opened) < 2; k++)
		nap(0.01);
	OK(atomic_load(&slow_opened) >= 2, "slow: the tick is under way");

	t0 = util_monotonic();
	waitsampler_stop(s);
	t = util_monotonic() - t0;
	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	OK(access(path, F_OK) < 0, "slow: stop joined the sampler's thread");
	OK(t < 8 * WAITSAMPLER_WAIT_SEC, "slow: stop came back in time");
	printf("# slow: stop came back after %.3f s, %d of %d threads read\n", t,
	       atomic_load(&slow_opened), SLOW_N);
	atomic_store(&slow_quit, 1);
	pthread_join(writer, NULL);
	OK(atomic_load(&slow_opened) < SLOW_N, "slow: the tick ended at its next thread");
	OK(rmtree(root) == 0, "slow: scratch root removed");
}

/* A baseline read just after the set is given (collector/watch_waits.c
 * watch_waits_baseline): the sampler's first tick ran on an empty set,
 * its next was up to a second away, and the read had no thread; a
 * process alive before the watch then had its first interval skipped
 * (waitrates_compute: "it lived before the watch"), make demo's server
 * up to a second of each set. waitsampler_tick_now lists them first. */
static void tick_now(void)
{
	struct perr e;
	struct waits *w = waits_open("/", &e);
	struct waitsampler *s = w ? waitsampler_start(w, &e) : NULL;
	struct waits_snap snap = { 0 };
	pid_t kid = fork();
	int found = 0;

	if (kid == 0) {
		pause();
		_exit(0);
	}
	OK(s != NULL && kid > 0, "tick now: a sampler on /proc, a child asleep");
	if (!s || kid < 0) {
		waitsampler_stop(s);
		return;
	}
	nap(0.05);	/* its first tick, on an empty set, is over */
	EQ_INT(waitsampler_watch_pids(s, &kid, 1, &e), 0, "tick now: the child watched");
	EQ_INT(waitsampler_tick_now(s), 0, "tick now: a tick at once, ended within the bound");
	EQ_INT(waitsampler_read(s, &snap), 0, "tick now: read at once");
	for (size_t i = 0; i < snap.n; i++)
		found += snap.th[i].tid == kid;
	EQ_INT(found, 1, "tick now: the read has the child's thread");
	waits_snap_free(&snap);
	waitsampler_stop(s);
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
}

int main(void)
{
	char fifo[200];
	struct perr e;
	struct waits *w;
	struct waitsampler *s;
	struct waits_snap snap = { 0 };
	pid_t pid = 900;
	double t0, t;
	int r, fd;

	signal(SIGALRM, on_alarm);
	alarm(20);
	tick_now();
	OK(make_root(fifo, sizeof(fifo)) == 0, "a root whose thread's stat is a FIFO");
	w = waits_open(root, &e);
	s = w ? waitsampler_start(w, &e) : NULL;
	OK(s != NULL, "sampler started");
	if (!s)
		return done_testing();
	EQ_INT(waitsampler_watch_pids(s, &pid, 1, &e), 0, "watch the thread");
	nap(0.3);	/* its next tick opens the FIFO and blocks */

	t0 = util_monotonic();
	r = waitsampler_read(s, &snap);
	t = util_monotonic() - t0;
	EQ_INT(r, 1, "a read of the stuck sampler says so");
	OK(t < 4 * WAITSAMPLER_WAIT_SEC, "... within the bound");
	printf("# read came back after %.3f s (bound %.2f s)\n", t,
	       WAITSAMPLER_WAIT_SEC);

	t0 = util_monotonic();
	r = waitsampler_watch_pids(s, &pid, 1, &e);
	t = util_monotonic() - t0;
	OK(r < 0 && strstr(e.msg, "stuck"), "a watch fails, saying why");
	OK(t < 4 * WAITSAMPLER_WAIT_SEC, "... within the bound");

	t0 = util_monotonic();
	waitsampler_stop(s);
	t = util_monotonic() - t0;
	OK(t < 8 * WAITSAMPLER_WAIT_SEC, "stop returns, the thread still stuck");
	printf("# stop came back after %.3f s\n", t);

	/* the file system answers at last: the thread frees what it had */
	fd = open(fifo, O_WRONLY | O_NONBLOCK);
	OK(fd >= 0, "the FIFO opened for writing: the tick goes on");
	if (fd >= 0)
		close(fd);
	nap(0.5);
	waits_snap_free(&snap);
	OK(rmtree(root) == 0, "scratch root removed");
	slow_tick();
	alarm(0);
	return done_testing();
}
