/*
 * test_waitsturn.c - a read of the wait-state sampler reads at most
 * WAITS_READ_MAX threads, in turn (waits.h; issue 30: 2,000 busy threads
 * cost 22 ms a read, read whole every second), and a read asked whole
 * (a session's last) reads them all.
 *
 * A scratch /proc root holds one process of 300 threads, each with a
 * stat and a schedstat. After a tick has them all, their schedstats move
 * and three reads follow: the first reads 256 of them (their figures'
 * time is the read's, the others keep the tick's and their old counters),
 * the second, asked whole, all 300, and the third starts its turn where
 * the first stopped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../waits/waits.h"
#include "fixtures.h"
#include "tap.h"

#define NT 300
#define PID 900

static char root[64];

static void put_thread(int tid, unsigned long long cpu_ns)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/proc/%d/task/%d", root, PID, tid);
	mkdir(path, 0755);
	/* the sampler reads TID/task/TID/ (a thread's own /proc entry, which
	 * the kernel has for every thread, listed or not) */
	snprintf(path, sizeof(path), "%s/proc/%d", root, tid);
	if (tid != PID && symlink("900", path) < 0 && errno != EEXIST)
		printf("# symlink %s: %s\n", path, strerror(errno));
	fixture_thread(root, PID, PID, tid, "busy", 'R', NT, cpu_ns, 0,
		       cpu_ns / 1000000);
}

/* Threads of snap s whose figures are of time t. */
static int at(const struct waits_snap *s, double t)
{
	int n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->th[i].t == t;
	return n;
}

int main(void)
{
	char path[160], cmd[128];
	struct perr e;
	struct waits *w;
	struct waits_snap snap = { 0 };
	pid_t pid = PID;
	int first_tid_read;

	snprintf(root, sizeof(root), "/tmp/perflog-turn-XXXXXX");
	OK(mkdtemp(root) != NULL, "scratch root");
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc/%d/task", root, PID);
	OK(system(cmd) == 0, "its task directory");
	fixture_put(root, "proc/uptime", "1000.00 1500.00\n");
	snprintf(path, sizeof(path), "proc/%d/stat", PID);
	fixture_put(root, path,
		    "900 (busy) R 1 900 900 0 -1 0 0 0 0 0 0 0 0 0 20 0 300 0 5000 0 0 0\n");
	for (int i = 0; i < NT; i++)
		put_thread(PID + i, 1000000);
	w = waits_open(root, &e);
	OK(w != NULL, "waits open on the scratch root");
	if (!w)
		return done_testing();
	EQ_INT(waits_watch_pids(w, &pid, 1, &e), 0, "watch the process");
	/* ticks until every thread has been sampled once (a tick's turn may
	 * be a share of them, waitshare.c) */
	for (int k = 0; k < 20; k++)
		waits_tick(w, 10.0 + k * 0.01);
	for (int i = 0; i < NT; i++)
		put_thread(PID + i, 2000000);

	EQ_INT(waits_read(w, 20.0, &snap), 0, "a read");
	EQ_INT((int)snap.n, NT, "... has every thread");
	EQ_INT(at(&snap, 20.0), WAITS_READ_MAX, "... 256 of them read now");
	{
		int moved = 0;

		for (size_t i = 0; i < snap.n; i++)
			moved += snap.th[i].t == 20.0 && snap.th[i].cpu_ns == 2000000;
		EQ_INT(moved, WAITS_READ_MAX, "... with their new CPU time; the others as the tick left them");
	}
	first_tid_read = 0;
	for (size_t i = 0; i < snap.n; i++)
		if (snap.th[i].t != 20.0)
			first_tid_read = first_tid_read ? first_tid_read : snap.th[i].tid;
	EQ_INT(first_tid_read, PID + WAITS_READ_MAX, "... the turn ended at the 257th");

	waits_read_whole(w);
	EQ_INT(waits_read(w, 21.0, &snap), 0, "a read asked whole");
	EQ_INT(at(&snap, 21.0), NT, "... reads every thread");

	EQ_INT(waits_read(w, 22.0, &snap), 0, "the next read");
	EQ_INT(at(&snap, 22.0), WAITS_READ_MAX, "... a turn again");
	{
		int tail = 0;

		for (size_t i = 0; i < snap.n; i++)
			tail += snap.th[i].t == 22.0 &&
				snap.th[i].tid >= PID + WAITS_READ_MAX;
		EQ_INT(tail, NT - WAITS_READ_MAX, "... starting where the first stopped");
	}
	waits_snap_free(&snap);
	waits_close(w);
	OK(rmtree(root) == 0, "scratch root removed");
	return done_testing();
}
