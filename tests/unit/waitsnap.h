/*
 * waitsnap.h - the unit tests' look-up of one thread in a wait-state read
 * (waits/waits.h struct waits_snap), shared by test_waits,
 * test_waitsfar, test_waitpoll, test_waitshare and test_waitsfirst, its
 * only class, the waits1 fixture's scratch copy, a fixture thread's file
 * written (snap_put), a server process and a thread's edge seconds
 * (test_waitsfar, test_waitpoll), the crafted threads of test_waits,
 * test_waitrates and test_waitsplit, and for the exit records' tests
 * (test_waitsfirst, test_waitslate) a thread's rows counted, a record
 * made and a nap on the real clock.
 */
#ifndef PERFLOG_TEST_WAITSNAP_H
#define PERFLOG_TEST_WAITSNAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "../../waits/waits.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures"
#endif

/* A scratch copy of tests/fixtures/proc/waits1 in root (n bytes, at
 * least 32): 0, or -1 (test_waits, test_waitsfar). */
static inline int snap_root(char *root, size_t n)
{
	char cmd[256];

	snprintf(root, n, "/tmp/perflog-waits-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(cmd, sizeof(cmd), "cp -a %s/proc/waits1/. %s/", FIXTURES, root);
	return system(cmd) == 0 ? 0 : -1;
}

/* The class a thread's ticks fell in, when all fell in one; -1 none,
 * -2 several. */
static inline int snap_only_class(const struct waits_thread *t)
{
	int c = -1;

	for (int k = 0; t && k < WAIT_NCLASS; k++)
		if (t->ticks[k])
			c = c < 0 ? k : -2;
	return c;
}

/* The thread tid of read s, or NULL. */
static inline const struct waits_thread *snap_find(const struct waits_snap *s,
						   pid_t tid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->th[i].tid == tid)
			return &s->th[i];
	return NULL;
}

/* A thread of a crafted read: alive, born long before, its exact
 * figures at t (cpu and run-queue seconds), its tick counts by class. */
static inline struct waits_thread crafted(pid_t tid, double t, double cpu,
					  double rq, int disk, int net,
					  int other, int sleep)
{
	struct waits_thread x;

	memset(&x, 0, sizeof(x));
	x.tid = tid;
	x.start = 5;
	x.alive = 1;
	x.t = t;
	x.born = -100;
	x.cpu_ns = (uint64_t)(cpu * 1e9);
	x.runq_ns = (uint64_t)(rq * 1e9);
	x.blkio_ns = x.rchar = x.wchar = WAITS_NA;
	x.ticks[WAIT_DISK] = (uint64_t)disk;
	x.ticks[WAIT_NET] = (uint64_t)net;
	x.ticks[WAIT_OTHER] = (uint64_t)other;
	x.ticks[WAIT_SLEEP] = (uint64_t)sleep;
	return x;
}

/* Thread tid's file name in the fixture root (a copy of
 * tests/fixtures/proc/waits1: process 700's threads), written with text:
 * test_waits and test_waitdisk. */
static inline void snap_put(const char *root, pid_t tid, const char *name,
			    const char *text)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/700/task/%d/%s", root, (int)tid,
		 name);
	if ((f = fopen(path, "w"))) {
		fputs(text, f);
		fclose(f);
	}
}

/* A process pid named server in the fixture root, its fd 3 link:
 * test_waitsfar and test_waitpoll. */
static inline int snap_server_holds(const char *root, pid_t pid,
				    const char *link)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/%d", root, (int)pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/%d/fd", root, (int)pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/%d/comm", root, (int)pid);
	if (!(f = fopen(path, "w")))
		return 0;
	fputs("server\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/proc/%d/fd/3", root, (int)pid);
	return symlink(link, path) == 0;
}

/* The seconds of thread t's edges in read s, on the network and on
 * local far ends. */
static inline void snap_edge_ticks(const struct waits_snap *s,
				   const struct waits_thread *t, double *net,
				   double *local)
{
	*net = *local = 0;
	for (int k = 0; t && k < WAITS_EDGES; k++) {
		uint32_t id = t->edge[k].id;

		if (id == WAITS_NO_EDGE || id >= s->nkeys)
			continue;
		if (s->keys[id].kind == PEER_NET)
			*net += t->edge[k].ticks;
		else
			*local += t->edge[k].ticks;
	}
}

/* How many rows of thread tid read s has. */
static inline int snap_rows(const struct waits_snap *s, pid_t tid)
{
	int n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->th[i].tid == tid;
	return n;
}

/* The exit record of thread tid (its own process, its parent ppid), of
 * etime seconds' life and cpu_us of CPU, come at monotonic time at. */
static inline struct waits_exit snap_exit(pid_t tid, pid_t ppid, double etime,
					  uint64_t cpu_us, double at)
{
	struct waits_exit e;

	memset(&e, 0, sizeof(e));
	e.x.tid = e.x.tgid = tid;
	e.x.ppid = ppid;
	e.x.etime = etime;
	e.x.cpu_us = cpu_us;
	/* delay accounting off, as the kernel's default */
	e.x.runq_ns = e.x.blkio_ns = TASKSTATS_NA;
	e.x.rchar = 4096;
	e.x.wchar = 8192;
	snprintf(e.x.comm, sizeof(e.x.comm), "worker");
	e.at = at;
	return e;
}

/* Sleep s seconds (the sampler reads the real clock). */
static inline void snap_nap(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

#endif
