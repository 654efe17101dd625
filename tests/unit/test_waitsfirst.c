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
 *
 * Then the exit records (waits_exits): a thread of the set no tick
 * listed (a daemon's worker reaped in a signal handler, a pool's thread
 * between two listings) gets a row from its record; a listed thread's
 * record gives its row the final figures; the record of a row the
 * sampler ended itself, or of the task left out, makes none.
 *
 * The records and reads that come late, each case on a scratch root of
 * its own, are test_waitslate.c's.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../process/process.h"
#include "../../waits/waits.h"
#include "../../waits/waitrates.h"
#include "../../waits/waits_int.h"
#include "fixtures.h"
#include "tap.h"
#include "waitsnap.h"

#define PID 930

static char root[64], fifo[200];
/* the test's clock: the monotonic one at its start (a thread's start is
 * reckoned from the uptime on it, waits.h born) */
static double T;
static pid_t tester;
static int writer_saw_block;

static void put_thread(int tid, const char *comm)
{
	char path[200];

	/* listed in PID/task; read, as the kernel's, at TID/task/TID */
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d", root, PID, tid);
	util_mkdirs(path, 0755);
	fixture_thread(root, tid, PID, tid, comm, 'S', 3, 7000000, 1000000, 5);
	if (tid == PID + 2) {
		snprintf(fifo, sizeof(fifo), "%s/proc/%d/task/%d/wchan", root,
			 tid, tid);
		unlink(fifo);
		mkfifo(fifo, 0600);
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
		snap_nap(0.005);
	writer_saw_block = blocked_in_open();
	/* 931 ends while the tick is held at 932 */
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d/schedstat", root,
		 PID + 1, PID + 1);
	if (truncate(path, 0) < 0)
		printf("# truncate %s failed\n", path);
	for (int k = 0; k < 1000 && fd < 0; k++) {
		fd = open(fifo, O_WRONLY | O_NONBLOCK);
		if (fd < 0)
			snap_nap(0.005);	/* ENXIO: no reader yet */
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* The record of tid, which came at T + 0.6. */
static struct waits_exit record(pid_t tid, double etime, uint64_t cpu_us)
{
	return snap_exit(tid, PID, etime, cpu_us, T + 0.6);
}

/* After the first part (a tick at T, a read at T + 0.5): 930 and 932
 * listed, 931 ended by the tick. 930's record comes at T + 0.6 and it
 * is gone by the read at T + 0.7. */
static void exit_records(struct waits *w, struct waits_snap *snap)
{
	char path[200];
	struct waits_exit x[5] = {
		record(940, 0.3, 250000),	/* never listed */
		record(PID + 1, 0.5, 9000),	/* ended by the tick, read */
		record(PID, 950.6, 8000),	/* listed (born at 50 s of
						 * uptime 1000, at T) */
		record(950, 1.0, 1000),		/* left out */
		record(PID + 2, 950.52, 9000),	/* ended by a tick, not read */
	};
	const struct waits_thread *r;

	waits_exclude(w, 950);
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d/schedstat", root,
		 PID + 2, PID + 2);
	OK(truncate(path, 0) == 0, "932 is gone");
	waits_tick(w, T + 0.55);	/* ends it: a row no read has taken */
	EQ_INT(waits_exits(w, x, 5), 1, "exit records: one row added");
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d/schedstat", root, PID, PID);
	OK(truncate(path, 0) == 0, "930 is gone");
	EQ_INT(waits_read(w, T + 0.7, snap), 0, "a read");
	r = snap_find(snap, 940);
	OK(r != NULL, "a thread no tick listed has a row from its record");
	OK(r && !r->alive && r->cpu_ns == 250000000ULL && r->pid == 940 &&
	   !strcmp(r->comm, "worker"),
	   "... ended, its CPU time, process and name the record's");
	OK(r && fabs(r->t - (T + 0.6)) < 1e-6 && r->born > T + 0.29 &&
	   r->born < T + 0.31,
	   "... alive from its start to the record");
	OK(r && r->rchar == 4096 && r->wchar == 8192 &&
	   r->runq_ns == WAITS_NA && r->edge[0].id == WAITS_NO_EDGE,
	   "... its bytes; no run-queue time, no edge");
	EQ_INT(snap_rows(snap, PID + 1), 0, "the thread the tick ended: no second row");
	EQ_INT(snap_rows(snap, 950), 0, "the task left out: none");
	r = snap_find(snap, PID);
	OK(r && !r->alive && r->cpu_ns == 8000000ULL &&
	   fabs(r->t - (T + 0.6)) < 0.05,
	   "a listed thread ends with its record's final CPU time, at its end (its birth and the record's life)");
	r = snap_find(snap, PID + 2);
	EQ_INT(snap_rows(snap, PID + 2), 1, "a thread a tick ended before its record: one row");
	OK(r && r->cpu_ns == 9000000ULL && fabs(r->t - (T + 0.52)) < 0.05,
	   "... with the record's final figures, no read having taken it");
}

int main(void)
{
	struct perr e;
	struct waits *w;
	struct waits_snap snap = { 0 };
	const struct waits_thread *row = NULL;
	pthread_t t;
	pid_t pid = PID;

	tester = (pid_t)syscall(SYS_gettid);
	snprintf(root, sizeof(root), "/tmp/perflog-first-XXXXXX");
	OK(mkdtemp(root) != NULL, "scratch root");
	for (int i = 0; i < 3; i++)
		put_thread(PID + i, i == 1 ? "short" : "pool");
	fixture_put(root, "proc/uptime", "1000.00 1500.00\n");
	fixture_put(root, "proc/930/stat",
		    "930 (pool) S 1 930 930 0 -1 0 0 0 0 0 0 0 0 0 20 0 3 0 5000 0 0 0\n");
	w = waits_open(root, &e);
	OK(w != NULL, "waits open on the scratch root");
	if (!w)
		return done_testing();
	EQ_INT(waits_watch_pids(w, &pid, 1, &e), 0, "watch the process");
	pthread_create(&t, NULL, writer, NULL);
	T = util_monotonic();
	waits_tick(w, T);
	pthread_join(t, NULL);
	OK(writer_saw_block, "the tick was held listing the third thread");
	EQ_INT(waits_read(w, T + 0.5, &snap), 0, "a read");
	row = snap_find(&snap, PID + 1);
	OK(row != NULL, "the thread gone before the tick sampled it has a row");
	OK(row && !row->alive, "... reported ended");
	EQ_INT(row ? (int)(row->cpu_ns / 1000000) : -1, 7,
	       "... with the CPU time read when it was listed");
	EQ_INT(row ? (int)(row->runq_ns / 1000000) : -1, 1,
	       "... and its run-queue wait");
	exit_records(w, &snap);
	waits_snap_free(&snap);
	waits_close(w);
	OK(rmtree(root) == 0, "scratch root removed");
	return done_testing();
}
