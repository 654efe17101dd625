/*
 * waitsnap.h - the unit tests' look-up of one thread in a wait-state read
 * (waits/waits.h struct waits_snap), shared by test_waits,
 * test_waitshare and test_waitsfirst, a fixture thread's file written
 * (snap_put), and the crafted threads of test_waits and
 * test_waitsplit.
 */
#ifndef PERFLOG_TEST_WAITSNAP_H
#define PERFLOG_TEST_WAITSNAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "../../waits/waits.h"

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

#endif
