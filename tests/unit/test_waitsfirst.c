/*
 * test_waitsfirst.c - a thread listed by a tick and gone before the tick
 * samples it keeps a row (waittick.c new_thread reads its schedstat when
 * it lists it).
 *
 * Found with t7720 on a saturated host (stress-ng --cpu 6 --io 2 beside a
 * pool of 2,001 threads that live 3 s): the first tick over the new
 * threads took 1-3 s, and the threads that ended before it reached them
 * were dropped as never read: 0 to 2,002 rows of 2,002 (0 in 2 runs of
 * 2 with one build).
 *
 * The slow tick is made on a scratch /proc root. Process 930 has threads
 * 930, 931 and 932; listing 932 opens its wchan, a FIFO, and blocks. A
 * writer thread waits for that (the test's thread blocked in openat),
 * ends 931 (its schedstat emptied: a fixture's "gone"), then opens the
 * FIFO. The tick, going on, finds 931 gone when it samples it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../../waits/waits.h"
#include "fixtures.h"
#include "tap.h"

#define PID 930

static char root[64], fifo[200];
static pid_t tester;
static int writer_saw_block;

static void nap(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

static void put_thread(int tid, const char *comm)
{
	char rel[96], text[200], path[200];

	/* listed in PID/task; read, as the kernel's, at TID/task/TID */
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d", root, PID, tid);
	util_mkdirs(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d", root, tid, tid);
	util_mkdirs(path, 0755);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", tid, tid);
	snprintf(text, sizeof(text),
		 "%d (%s) S 1 %d %d 0 -1 0 0 0 0 0 0 0 0 0 20 0 3 0 5000 0 0 0\n",
		 tid, comm, PID, PID);
	fixture_put(root, rel, text);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/schedstat", tid, tid);
	fixture_put(root, rel, "7000000 1000000 5\n");
	if (tid == PID + 2) {
		snprintf(fifo, sizeof(fifo), "%s/proc/%d/task/%d/wchan", root,
			 tid, tid);
		mkfifo(fifo, 0600);
	} else {
		snprintf(rel, sizeof(rel), "proc/%d/task/%d/wchan", tid, tid);
		fixture_put(root, rel, "0");
	}
}

/* The test's thread blocked in openat (a FIFO's open waits for a
 * writer): /proc/self/task/TID/syscall starts with its number. */
static int blocked_in_open(void)
{
	char path[64], buf[64];
	FILE *f;
	int nr = -1;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tester);
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			nr = atoi(buf);
		fclose(f);
	}
	return nr == SYS_openat;
}

static void *writer(void *arg)
{
	char path[200];
	int fd = -1;

	(void)arg;
	for (int k = 0; k < 1000 && !blocked_in_open(); k++)
		nap(0.005);
	writer_saw_block = blocked_in_open();
	/* 931 ends while the tick is held at 932 */
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d/schedstat", root,
		 PID + 1, PID + 1);
	if (truncate(path, 0) < 0)
		printf("# truncate %s failed\n", path);
	for (int k = 0; k < 1000 && fd < 0; k++) {
		fd = open(fifo, O_WRONLY | O_NONBLOCK);
		if (fd < 0)
			nap(0.005);	/* ENXIO: no reader yet */
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

int main(void)
{
	char cmd[128];
	struct perr e;
	struct waits *w;
	struct waits_snap snap = { 0 };
	const struct waits_thread *row = NULL;
	pthread_t t;
	pid_t pid = PID;

	tester = (pid_t)syscall(SYS_gettid);
	snprintf(root, sizeof(root), "/tmp/perflog-first-XXXXXX");
	OK(mkdtemp(root) != NULL, "scratch root");
	fixture_put(root, "proc/uptime", "1000.00 1500.00\n");
	for (int i = 0; i < 3; i++)
		put_thread(PID + i, i == 1 ? "short" : "pool");
	fixture_put(root, "proc/930/stat",
		    "930 (pool) S 1 930 930 0 -1 0 0 0 0 0 0 0 0 0 20 0 3 0 5000 0 0 0\n");
	w = waits_open(root, &e);
	OK(w != NULL, "waits open on the scratch root");
	if (!w)
		return done_testing();
	EQ_INT(waits_watch_pids(w, &pid, 1, &e), 0, "watch the process");
	pthread_create(&t, NULL, writer, NULL);
	waits_tick(w, 10.0);
	pthread_join(t, NULL);
	OK(writer_saw_block, "the tick was held listing the third thread");
	EQ_INT(waits_read(w, 10.5, &snap), 0, "a read");
	for (size_t i = 0; i < snap.n; i++)
		if (snap.th[i].tid == PID + 1)
			row = &snap.th[i];
	OK(row != NULL, "the thread gone before the tick sampled it has a row");
	OK(row && !row->alive, "... reported ended");
	EQ_INT(row ? (int)(row->cpu_ns / 1000000) : -1, 7,
	       "... with the CPU time read when it was listed");
	EQ_INT(row ? (int)(row->runq_ns / 1000000) : -1, 1,
	       "... and its run-queue wait");
	waits_snap_free(&snap);
	waits_close(w);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	OK(system(cmd) == 0, "scratch root removed");
	return done_testing();
}
