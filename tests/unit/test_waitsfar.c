/*
 * test_waitsfar.c - a wait's far ends on a fake /proc (a copy of
 * tests/fixtures/proc/waits1, README there): a socket whose far end no
 * table knows yet, a loopback far end accepted late, a thread held while
 * it did not run, the probe memo's edges. Split from test_waits.c at its
 * seam (the thread's far ends, not its states); a poll's far ends, and
 * which of them hold it, are test_waitpoll's.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../waits/waitrates.h"
#include "../../waits/waits.h"
#include "fixtures.h"
#include "tap.h"
#include "waitsnap.h"

static char root[64];

/* Thread tid's file name of the fixture, written with text. */
static void put(pid_t tid, const char *name, const char *text)
{
	snap_put(root, tid, name, text);
}

/* A socket waited on whose far end no table knows (younger than the
 * last look at them, waitprobe.h PROBE_LATER): the tick counts nothing
 * and the thread is asked again; still unknown 2.5 s on, it is the
 * network, as before. A pool of 2,000 threads read in turn had a
 * quarter of its time on the network from its first reads. */
static void test_unfound(void)
{
#ifdef __x86_64__
	struct perr e;
	struct waits *w = waits_open(root, &e);
	struct waits_snap s = { 0 };
	const struct waits_thread *t;
	pid_t pid = 700;
	char path[128];

	if (!w)
		return;
	snprintf(path, sizeof(path), "%s/proc/700/fd/5", root);
	OK(unlink(path) == 0 && symlink("socket:[3999999999]", path) == 0,
	   "unfound: fd 5 a socket no table knows");
	waits_watch_pids(w, &pid, 1, &e);
	waits_tick(w, 2000.0);
	waits_tick(w, 2001.0);
	EQ_INT(waits_read(w, 2001.0, &s), 0, "unfound: two ticks, 1 s apart");
	t = snap_find(&s, 703);
	OK(t && snap_only_class(t) == -1,
	   "unfound: 703's read(socket) counted nowhere yet");
	/* then asleep for a tick: its own tick, not the two held */
	put(703, "wchan", "hrtimer_nanosleep");
	put(703, "schedstat", "20000000 1000000000 8\n");
	waits_tick(w, 2002.0);
	put(703, "wchan", "wait_woken");
	put(703, "schedstat", "20000000 1000000000 9\n");
	waits_tick(w, 2003.0);
	EQ_INT(waits_read(w, 2003.0, &s), 0, "unfound: a tick 3 s after the first");
	t = snap_find(&s, 703);
	OK(t && t->ticks[WAIT_NET] == 1 && t->held == 2 &&
	   t->held_as[WAIT_NET - WAIT_DISK] == 2 && t->ticks[WAIT_SLEEP] == 1,
	   "unfound: still unknown 2.5 s on: net, as before; the two ticks held for it given its class (net 2 of 2 held); the sleep between, its own tick (1)");
	if (t)
		printf("#   net %llu, held %llu (as net %llu), sleep %llu\n",
		       (unsigned long long)t->ticks[WAIT_NET],
		       (unsigned long long)t->held,
		       (unsigned long long)t->held_as[WAIT_NET - WAIT_DISK],
		       (unsigned long long)t->ticks[WAIT_SLEEP]);
	/* the set read whole: its share of blocked ticks read is all of
	 * them (waits.read_share in the end marker); the held ticks counted
	 * as one read said 3 of 4, "read in turns" in the report (t7740's
	 * 41 threads beside other load, 80-95% read) */
	EQ_INT(t ? (int)t->reads : -1, 4,
	       "unfound: each tick a read, the held ones too (4 reads of 4 blocked ticks)");
	OK(unlink(path) == 0 && symlink("socket:[1234]", path) == 0,
	   "unfound: fd 5 a known socket to another host");
	waits_tick(w, 2003.5);
	EQ_INT(waits_read(w, 2004.0, &s), 0, "unfound: read");
	t = snap_find(&s, 703);
	OK(t && t->ticks[WAIT_NET] == 2, "unfound: a known socket to another host: net");
	waits_snap_free(&s);
	waits_close(w);
#else
	OK(1, "# SKIP the fixture's syscall files are x86_64 numbers");
#endif
}

/* A loopback connection 127.0.0.1:lport -> 127.0.0.1:rport (inode ino)
 * and its mirror (ino + 1) added to the fixture's socket table, and 703's
 * fd 5 (the one its read waits on) made to point at link. */
static void loopback_pair(int sl, unsigned lport, unsigned rport,
			  unsigned long ino)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/700/net/tcp", root);
	if (!(f = fopen(path, "a")))
		return;
	for (int k = 0; k < 2; k++)
		fprintf(f, "   %d: 0100007F:%04X 0100007F:%04X 01 00000000:00000000 00:00000000 00000000     0        0 %lu 1 0000000000000000 20 4 30 10 -1\n",
			sl + k, k ? rport : lport, k ? lport : rport, ino + (unsigned long)k);
	fclose(f);
}

static int point_fd5(const char *link)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/proc/700/fd/5", root);
	return unlink(path) == 0 && symlink(link, path) == 0;
}

/* A loopback connection whose far end was accepted after the resolver's
 * last look at the fd tables (make demo: each set's client connects to
 * the workload's server): its process is not known until the next scan.
 * The ticks were counted at once as other on an edge to no process (pid
 * 0): the client's first second "waited on what the log does not see"
 * and t3520's 1m1k, 10m10k and 25m100k said 'nothing'. Now held like a
 * socket of no table (PROBE_LATER), and given to the far end's process
 * once a scan finds it. */
static void test_local_unfound(void)
{
#ifdef __x86_64__
	struct perr e;
	struct waits *w;
	struct waits_snap s = { 0 }, s0 = { 0 }, s2 = { 0 };
	struct waits_values v;
	struct waits_totals tot = { 0 };
	const struct waits_thread *t;
	pid_t pid = 700;
	int named = 0, nobody = 0;
	double other = 0, on900 = 0;

	loopback_pair(1, 40000, 5000, 5555);
	OK(point_fd5("socket:[5555]"), "local unfound: fd 5 a loopback connection");
	put(703, "wchan", "wait_woken");
	if (!(w = waits_open(root, &e)))
		return;
	waits_watch_pids(w, &pid, 1, &e);
	waits_tick(w, 3000.0);
	EQ_INT(waits_read(w, 3000.0, &s0), 0, "local unfound: a first read");
	waits_tick(w, 3001.0);
	EQ_INT(waits_read(w, 3001.0, &s), 0, "local unfound: two ticks, 1 s apart");
	EQ_INT(waitrates_compute(&s0, &s, &v, &tot), 0, "local unfound: its first interval");
	t = snap_find(&s, 703);
	OK(t && snap_only_class(t) == -1 && t->held == 2,
	   "local unfound: its server's socket held by no process the fd tables showed: both ticks held, counted nowhere yet");
	if (t)
		printf("#   other %llu, held %llu\n",
		       (unsigned long long)t->ticks[WAIT_OTHER],
		       (unsigned long long)t->held);
	/* the server that accepted it, after the last scan */
	OK(snap_server_holds(root, 900, "socket:[5556]"),
	   "local unfound: the server (900) holds the mirror");
	waits_tick(w, 3002.2);
	EQ_INT(waits_read(w, 3002.2, &s2), 0, "local unfound: a tick after the next scan");
	EQ_INT(waitrates_compute(&s, &s2, &v, &tot), 0, "local unfound: its second interval");
	waits_snap_free(&s);
	s = s2;
	t = snap_find(&s, 703);
	OK(t && t->ticks[WAIT_OTHER] == 1 &&
	   t->held_as[WAIT_OTHER - WAIT_DISK] == 2,
	   "local unfound: found: other, the two ticks held given its class");
	for (int k = 0; t && k < WAITS_EDGES; k++) {
		uint32_t id = t->edge[k].id;

		if (id == WAITS_NO_EDGE || id >= s.nkeys || !(t->edge[k].ticks > 0))
			continue;
		named += s.keys[id].peer_pid == 900;
		nobody += s.keys[id].peer_pid == 0;
	}
	OK(named == 1 && nobody == 0,
	   "local unfound: its ticks on an edge to the server, none to no process");
	printf("#   edges to 900: %d, to no process: %d\n", named, nobody);
	/* the seconds: the held interval's other is the server's edge's too
	 * (it was the second interval's alone: half its other on no edge) */
	for (size_t i = 0; i < tot.n; i++)
		if (tot.t[i].tid == 703)
			other = tot.t[i].sec[WS_OTHER];
	for (size_t id = 0; id < tot.nedge && id < s.nkeys; id++)
		if (s.keys[id].pid == 703 && s.keys[id].peer_pid == 900)
			on900 += tot.edge_sec[id];
	OK(other > 0 && on900 > 0.95 * other,
	   "local unfound: its other seconds, the held ones too, on the edge to the server");
	printf("#   other %.3f s, on the edge to 900 %.3f s\n", other, on900);
	waitrates_totals_free(&tot);
	waits_snap_free(&s);
	waits_snap_free(&s0);
	waits_close(w);
	OK(point_fd5("socket:[1234]"),
	   "local unfound: fd 5 back to the socket to another host");
#else
	OK(1, "# SKIP the fixture's syscall files are x86_64 numbers");
#endif
}

/* A thread that ran between two ticks, then waited on a loopback
 * connection whose far end's process is not known yet (held, PROBE_LATER),
 * then did not run again before the next tick: that tick was counted as
 * the class of its last counted tick (a pipe's other, before it ran),
 * with no edge, where it is the held wait still. */
static void test_held_not_run(void)
{
#ifdef __x86_64__
	struct perr e;
	struct waits *w;
	struct waits_snap s = { 0 };
	const struct waits_thread *t;
	pid_t pid = 700;

	loopback_pair(3, 40001, 5001, 5557);
	OK(point_fd5("pipe:[2345]"), "held, not run: fd 5 a pipe");
	put(703, "wchan", "wait_woken");
	put(703, "schedstat", "30000000 1000000000 10\n");
	if (!(w = waits_open(root, &e)))
		return;
	waits_watch_pids(w, &pid, 1, &e);
	waits_tick(w, 4000.0);
	/* it ran, and waits on a connection now */
	OK(point_fd5("socket:[5557]"),
	   "held, not run: fd 5 a loopback connection no process holds the far end of");
	put(703, "schedstat", "40000000 1000000000 11\n");
	waits_tick(w, 4001.5);	/* (past the pipe's memo, 1 s) */
	waits_tick(w, 4002.0);	/* not run since */
	EQ_INT(waits_read(w, 4002.0, &s), 0, "held, not run: three ticks");
	t = snap_find(&s, 703);
	OK(t && t->ticks[WAIT_OTHER] == 1 && t->held == 2,
	   "held, not run: the pipe's tick other, the two on the connection held");
	if (t)
		printf("#   other %llu, held %llu\n",
		       (unsigned long long)t->ticks[WAIT_OTHER],
		       (unsigned long long)t->held);
	waits_snap_free(&s);
	waits_close(w);
	OK(point_fd5("socket:[1234]"),
	   "held, not run: fd 5 back to the socket to another host");
#else
	OK(1, "# SKIP the fixture's syscall files are x86_64 numbers");
#endif
}

/* The edges of the probe's memo at each of its answers (waitthread.c
 * call): make demo's client writes chunk after chunk to its server's
 * socket, write(fd, buf, n) with the same arguments each time, and
 * between two writes waits on the disk for its source file (a wait
 * channel that needs no probe, no edge). The memo answered the second
 * write within its second, and the wait counted other with no edge: in
 * t3520's 25m100k, 0.8 s of the client's 1.6 s other was on no process,
 * and the server's fsyncs it waited on were charged to nothing. */
static void test_memo_edges(void)
{
#ifdef __x86_64__
	struct perr e;
	struct waits *w;
	struct waits_snap s = { 0 };
	const struct waits_thread *t;
	pid_t pid = 700;
	double on901 = 0, net = 0;

	loopback_pair(5, 40002, 5002, 5559);
	OK(snap_server_holds(root, 901, "socket:[5560]"),
	   "memo edges: the server (901) holds the far end");
	OK(point_fd5("socket:[5559]"),
	   "memo edges: fd 5 a loopback connection to it");
	put(703, "wchan", "wait_woken");
	put(703, "schedstat", "50000000 1000000000 20\n");
	if (!(w = waits_open(root, &e)))
		return;
	waits_watch_pids(w, &pid, 1, &e);
	waits_tick(w, 6000.0);	/* on the server's socket */
	put(703, "wchan", "folio_wait_bit_common");
	put(703, "schedstat", "60000000 1000000000 21\n");
	waits_tick(w, 6000.2);	/* ran, then on the disk */
	put(703, "wchan", "wait_woken");
	put(703, "schedstat", "70000000 1000000000 22\n");
	waits_tick(w, 6000.4);	/* ran, the same call on the socket again */
	EQ_INT(waits_read(w, 6000.4, &s), 0, "memo edges: three ticks");
	t = snap_find(&s, 703);
	snap_edge_ticks(&s, t, &net, &on901);	/* its local edges: to 901 */
	OK(t && t->ticks[WAIT_OTHER] == 2 && t->ticks[WAIT_DISK] == 1 &&
	   on901 == 2,
	   "memo edges: both waits on the socket on the server's edge, the disk's between on none");
	if (t)
		printf("#   other %llu, disk %llu, on the edge to 901 %.1f\n",
		       (unsigned long long)t->ticks[WAIT_OTHER],
		       (unsigned long long)t->ticks[WAIT_DISK], on901);
	/* a probed call of no descriptor between (nanosleep): the probe
	 * cleared the memo's far ends and kept the memo, and its next hit
	 * on the socket's call answered with none */
	put(703, "syscall", "35 0x7f0000001000 0x0 0x0 0x0 0x0 0x0 0x7ffc00000000 0x7f0000002000");
	put(703, "schedstat", "80000000 1000000000 23\n");
	waits_tick(w, 6000.6);
	put(703, "syscall", "0 0x5 0x7f0000001000 0x10000 0x0 0x0 0x0 0x7ffc00000000 0x7f0000002000");
	put(703, "schedstat", "90000000 1000000000 24\n");
	waits_tick(w, 6000.8);
	EQ_INT(waits_read(w, 6000.8, &s), 0, "memo edges: two ticks more");
	t = snap_find(&s, 703);
	snap_edge_ticks(&s, t, &net, &on901);
	OK(t && t->ticks[WAIT_OTHER] == 3 && t->ticks[WAIT_SLEEP] == 1 &&
	   on901 == 3,
	   "memo edges: a sleep between, then the socket's call again: on the server's edge");
	if (t)
		printf("#   other %llu, sleep %llu, on the edge to 901 %.1f\n",
		       (unsigned long long)t->ticks[WAIT_OTHER],
		       (unsigned long long)t->ticks[WAIT_SLEEP], on901);
	waits_snap_free(&s);
	waits_close(w);
	put(703, "wchan", "wait_woken");
	OK(point_fd5("socket:[1234]"),
	   "memo edges: fd 5 back to the socket to another host");
#else
	OK(1, "# SKIP the fixture's syscall files are x86_64 numbers");
#endif
}

int main(void)
{
	OK(snap_root(root, sizeof(root)) == 0, "fixture copied to a scratch root");
	test_unfound();
	test_local_unfound();
	test_held_not_run();
	test_memo_edges();
	OK(rmtree(root) == 0, "scratch root removed");
	return done_testing();
}
