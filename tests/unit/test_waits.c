/*
 * test_waits.c - the wait-state sampler on a fake /proc
 * (tests/fixtures/proc/waits1, README there: a thread in each state, wait
 * channels hidden, garbage, a zombie, a cgroup), a thread vanishing
 * between ticks, the probe memo, and the interval arithmetic of
 * waits/waitrates.c on synthetic reads.
 */
#define _GNU_SOURCE
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../waits/waitrates.h"
#include "../../waits/waits.h"
#include "tap.h"
#include "waitsnap.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures"
#endif

static char root[64];

/* The class a thread's ticks fell in, when all fell in one. */
static int only_class(const struct waits_thread *t)
{
	int c = -1;

	for (int k = 0; t && k < WAIT_NCLASS; k++)
		if (t->ticks[k])
			c = c < 0 ? k : -2;
	return c;
}

static void expect(const struct waits_snap *s, pid_t tid, enum wait_class c,
		   int guessed, int hidden, const char *what)
{
	const struct waits_thread *t = snap_find(s, tid);
	char name[160];

	snprintf(name, sizeof(name), "fixture %d: %s", (int)tid, what);
	OK(t && only_class(t) == (int)c && (t->guessed > 0) == guessed &&
	   (t->hidden > 0) == hidden, name);
	if (t && only_class(t) != (int)c)
		printf("#   class %d, guessed %llu hidden %llu\n", only_class(t),
		       (unsigned long long)t->guessed,
		       (unsigned long long)t->hidden);
}

static void setup_root(void)
{
	char cmd[256];

	snprintf(root, sizeof(root), "/tmp/perflog-waits-XXXXXX");
	if (!mkdtemp(root))
		return;
	snprintf(cmd, sizeof(cmd), "cp -a %s/proc/waits1/. %s/", FIXTURES, root);
	OK(system(cmd) == 0, "fixture copied to a scratch root");
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

/* A socket waited on whose far end no table knows (younger than the
 * last look at them, waitprobe.h PROBE_LATER): the tick counts nothing
 * and the thread is asked again; still unknown 2.5 s on, it is the
 * network, as before. A pool of 2,000 threads read in turn had a
 * quarter of its time on the network from its first reads. */
/* Thread tid's file name of the fixture, written with text. */
static void put(pid_t tid, const char *name, const char *text)
{
	snap_put(root, tid, name, text);
}

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
	OK(t && only_class(t) == -1,
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

/* A process pid named server in the fixture, its fd 3 link. */
static int server_holds(pid_t pid, const char *link)
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
	OK(t && only_class(t) == -1 && t->held == 2,
	   "local unfound: its server's socket held by no process the fd tables showed: both ticks held, counted nowhere yet");
	if (t)
		printf("#   other %llu, held %llu\n",
		       (unsigned long long)t->ticks[WAIT_OTHER],
		       (unsigned long long)t->held);
	/* the server that accepted it, after the last scan */
	OK(server_holds(900, "socket:[5556]"),
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

/* The edges of 703's ticks so far, on the network and on local far ends. */
static void edge_ticks(const struct waits_snap *s, const struct waits_thread *t,
		       double *net, double *local)
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
	OK(server_holds(901, "socket:[5560]"),
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
	edge_ticks(&s, t, &net, &on901);	/* its local edges: to 901 */
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
	edge_ticks(&s, t, &net, &on901);
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

/* 703 in poll(2) on the entries set[n], at 0x100 of its memory. */
static void poll_on(const struct pollfd *set, size_t n)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/700/mem", root);
	if (!(f = fopen(path, "r+b")))
		return;
	fseek(f, 0x100, SEEK_SET);
	fwrite(set, sizeof(*set), n, f);
	fclose(f);
	snprintf(path, sizeof(path),
		 "7 0x100 0x%zx 0xffffffff 0x0 0x0 0x0 0x7ffc00000000 0x7f0000002000", n);
	put(703, "wchan", "poll_schedule_timeout.constprop.0");
	put(703, "syscall", path);
}

/* One tick of 703 at time at: its class alone, its edges' ticks. */
static int poll_tick(double at, double *net, double *local)
{
	struct perr e;
	struct waits *w;
	struct waits_snap s = { 0 };
	pid_t pid = 700;
	int c = -1;

	*net = *local = -1;
	if (!(w = waits_open(root, &e)))
		return -1;
	waits_watch_pids(w, &pid, 1, &e);
	waits_tick(w, at);
	if (waits_read(w, at, &s) == 0) {
		const struct waits_thread *t = snap_find(&s, 703);

		c = only_class(t);
		edge_ticks(&s, t, net, local);
	}
	waits_snap_free(&s);
	waits_close(w);
	return c;
}

static void poll_done(void)
{
	put(703, "wchan", "wait_woken");
	put(703, "syscall", "0 0x5 0x7f0000001000 0x10000 0x0 0x0 0x0 0x7ffc00000000 0x7f0000002000");
}

/* Which far ends a poll waits on, and which of them hold it. A poll's
 * entry that asks for nothing
 * (events 0: only an error or a hang-up is reported) is none: OpenSSH's
 * client keeps its connection in two entries, input and output, the
 * second with events 0 while it has nothing to send, and its wait on its
 * stdin's producer had the socket as two far ends of three, 2/3 of it on
 * the network (t3710's cdisk, ssh fed by dd: 4.7 s on its edge to the
 * server, 1.8 s on dd's). A pipe's input beside a connection's (ssh fed
 * by dd, listening to its server) is other, on both far ends alike:
 * either may wake it (rsync over ssh waits on the server's replies).
 * An output beside inputs holds the wait (waitprobe.c held_by_outputs):
 * the server's sshd polls its connection for input and its command's
 * pipe for output, and with the command slow on the disk half its wait
 * went to the network (t3741). */
static void test_poll_entries(void)
{
#ifdef __x86_64__
	/* fd 5: a connection to another host; fd 6: a pipe; 10-12 more
	 * pipes (made below) */
	static const struct {
		struct pollfd set[5];
		int cls;
		double net, local;
		const char *what;
	} cases[] = {
		{ { { 5, POLLIN, 0 }, { 6, 0, 0 } }, WAIT_NET, 1, 0,
		  "poll nothing: the connection's input beside a pipe asking nothing: net, on the network" },
		{ { { 6, POLLIN, 0 }, { 5, POLLIN, 0 } }, WAIT_OTHER, 0.5, 0.5,
		  "poll both: a pipe's input beside a connection's: other, half on each far end" },
		{ { { 5, POLLIN, 0 }, { 6, POLLOUT, 0 } }, WAIT_OTHER, 0, 1,
		  "poll held by its output: the connection's input beside a full pipe's output: other, all on the pipe's reader" },
		{ { { 6, POLLIN, 0 }, { 5, POLLOUT, 0 } }, WAIT_NET, 1, 0,
		  "poll held by its output: a pipe's input beside a full connection's output: net, all on the network" },
		{ { { 5, POLLIN, 0 }, { 10, POLLIN, 0 }, { 11, POLLIN, 0 },
		    { 12, POLLIN, 0 }, { 6, POLLOUT, 0 } }, WAIT_OTHER, 0, 1,
		  "poll held by its output, listed after more inputs than a wait keeps far ends: all on the pipe's reader" },
	};

	for (int fd = 10; fd <= 12; fd++) {
		char path[160], link[32];

		/* (the fixture's 703/fd is 700's) */
		snprintf(path, sizeof(path), "%s/proc/700/fd/%d", root, fd);
		snprintf(link, sizeof(link), "pipe:[%d]", 3000 + fd);
		OK(symlink(link, path) == 0, "poll entries: another pipe made");
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double net, local;
		size_t n = 0;
		int c;

		while (n < 5 && (cases[i].set[n].fd || cases[i].set[n].events))
			n++;
		poll_on(cases[i].set, n);
		c = poll_tick(7000.0 + 100.0 * (double)i, &net, &local);
		OK(c == cases[i].cls && net == cases[i].net &&
		   local == cases[i].local, cases[i].what);
		printf("#   class %d, on the network %.2f, on local far ends %.2f\n",
		       c, net, local);
	}
	poll_done();
#else
	OK(1, "# SKIP the fixture's syscall files are x86_64 numbers");
#endif
}

/* The seconds of t's edges to process pid. */
static double ticks_on(const struct waits_snap *s,
		       const struct waits_thread *t, pid_t pid)
{
	double n = 0;

	for (int k = 0; t && k < WAITS_EDGES; k++) {
		uint32_t id = t->edge[k].id;

		if (id != WAITS_NO_EDGE && id < s->nkeys &&
		    s->keys[id].peer_pid == pid)
			n += t->edge[k].ticks;
	}
	return n;
}

/* Process pid (server_holds) writes to its fd 3. */
static int writes_fd3(pid_t pid, const char *link)
{
	char path[160];
	FILE *f;

	if (!server_holds(pid, link))
		return 0;
	snprintf(path, sizeof(path), "%s/proc/%d/fdinfo", root, (int)pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/%d/fdinfo/3", root, (int)pid);
	if (!(f = fopen(path, "w")))
		return 0;
	fputs("pos:\t0\nflags:\t01\nmnt_id:\t9\n", f);
	return fclose(f) == 0;
}

/* A thread that does not run between two ticks is in the same wait, on
 * the same far ends, without a look: the server's sshd, blocked polling
 * its command's pipes, kept its edge to a login script's subshell that
 * had held one of them for the 6 s it stayed blocked after the subshell
 * ended (t3741's borg: "not seen"). A far end gone, the wait is probed
 * again. */
static void test_gone_end(void)
{
#ifdef __x86_64__
	struct perr e;
	struct waits *w;
	struct waits_snap s = { 0 };
	const struct waits_thread *t;
	struct pollfd set[1] = { { 13, POLLIN, 0 } };
	pid_t pid = 700;
	char cmd[200];

	/* (a pipe of its own: the fixture's 701-719 are 700's directory,
	 * each a holder of fd 6's and of this one, and only the first
	 * holders are asked: 605 and 606, before them, its writing end) */
	snprintf(cmd, sizeof(cmd), "%s/proc/700/fd/13", root);
	OK(symlink("pipe:[4001]", cmd) == 0 &&
	   writes_fd3(605, "pipe:[4001]"),
	   "gone end: the subshell (605) holds the pipe's other end");
	poll_on(set, 1);
	put(703, "schedstat", "50000000 1000000000 30\n");
	if (!(w = waits_open(root, &e)))
		return;
	waits_watch_pids(w, &pid, 1, &e);
	waits_tick(w, 9000.0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s/proc/605", root);
	OK(system(cmd) == 0 && writes_fd3(606, "pipe:[4001]"),
	   "gone end: the subshell ended, the command (606) holds it");
	waits_tick(w, 9002.0);	/* not run since: schedstat the same */
	EQ_INT(waits_read(w, 9002.0, &s), 0, "gone end: two ticks");
	t = snap_find(&s, 703);
	OK(ticks_on(&s, t, 605) == 1 && ticks_on(&s, t, 606) == 1,
	   "gone end: the tick after the far end ended on the one that holds it now");
	printf("#   on 605 %.1f, on 606 %.1f\n", ticks_on(&s, t, 605),
	       ticks_on(&s, t, 606));
	waits_snap_free(&s);
	waits_close(w);
	poll_done();
#else
	OK(1, "# SKIP the fixture's syscall files are x86_64 numbers");
#endif
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
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
		OK(system(cmd) == 0, "scratch root removed");
	}
}

/* A synthetic thread for the arithmetic. */
static double sum(const double *v, int n)
{
	double s = 0;

	for (int k = 0; k < n; k++)
		s += v[k];
	return s;
}

static void test_thread_math(void)
{
	double sec[WS_N];
	struct waits_thread a = crafted(1, 10, 1, 1, 0, 0, 0, 0);
	struct waits_thread b = crafted(1, 11, 1.3, 1.2, 30, 10, 0, 0);

	EQ_DBL(waitrates_thread(&a, &b, 10, 0, sec), 1.0, 1e-9, "elapsed 1 s");
	EQ_DBL(sec[WS_CPU], 0.3, 1e-9, "cpu from schedstat");
	EQ_DBL(sec[WS_CPU_WAIT], 0.2, 1e-9, "cpu wait from run delay");
	EQ_DBL(sec[WS_DISK], 0.375, 1e-9, "blocked 0.5 s, 3/4 of ticks disk");
	EQ_DBL(sec[WS_NET], 0.125, 1e-9, "1/4 net");
	EQ_DBL(sum(sec, WS_N), 1.0, 1e-9, "the states add to the time alive");

	a.blkio_ns = 1000000000;
	b.blkio_ns = 1450000000;
	waitrates_thread(&a, &b, 10, 1, sec);
	EQ_DBL(sec[WS_DISK], 0.45, 1e-9, "delay accounting above the ticks wins");
	EQ_DBL(sec[WS_NET], 0.05, 1e-9, "the rest to the other classes");
	b.blkio_ns = 1100000000;
	waitrates_thread(&a, &b, 10, 1, sec);
	EQ_DBL(sec[WS_DISK], 0.375, 1e-9, "delay accounting is a floor only");
	b.blkio_ns = 9000000000;
	waitrates_thread(&a, &b, 10, 1, sec);
	EQ_DBL(sec[WS_DISK], 0.5, 1e-9, "never more than the blocked time");
	waitrates_thread(&a, &b, 10, 0, sec);
	EQ_DBL(sec[WS_DISK], 0.375, 1e-9, "delay accounting off: ticks");

	b = crafted(1, 11, 1.9, 1.6, 30, 10, 0, 0);	/* 0.9 + 0.6 in 1 s */
	waitrates_thread(&a, &b, 10, 0, sec);
	EQ_DBL(sec[WS_CPU], 0.6, 1e-9, "cpu + wait > elapsed: scaled");
	EQ_DBL(sec[WS_CPU_WAIT], 0.4, 1e-9, "... both");
	EQ_DBL(sec[WS_DISK] + sec[WS_NET], 0, 1e-9, "nothing blocked");

	a = crafted(1, 10, 1, 1, 8, 0, 0, 2);
	b = crafted(1, 11, 1.5, 1, 8, 0, 0, 2);	/* no blocked tick this time */
	waitrates_thread(&a, &b, 10, 0, sec);
	EQ_DBL(sec[WS_DISK], 0.4, 1e-9, "no tick in the interval: life shares");
	EQ_DBL(sec[WS_SLEEP], 0.1, 1e-9, "... 8 disk : 2 sleep");
	a = crafted(1, 10, 1, 1, 0, 0, 0, 0);
	b = crafted(1, 11, 1.5, 1, 0, 0, 0, 0);
	waitrates_thread(&a, &b, 10, 0, sec);
	EQ_DBL(sec[WS_OTHER], 0.5, 1e-9, "never seen blocked: other");

	b = crafted(2, 11, 0.1, 0.1, 0, 0, 0, 5);	/* born at 10.5 */
	EQ_DBL(waitrates_thread(NULL, &b, 10.5, 0, sec), 0.5, 1e-9,
	       "born in the interval: from its birth");
	EQ_DBL(sec[WS_SLEEP], 0.3, 1e-9, "born: counters from 0");
	EQ_DBL(waitrates_thread(&a, &a, 10, 0, sec), -1, 0, "empty interval");
}

static void test_compute(void)
{
	struct waits_thread p[3], c[4];
	struct waits_snap prev = { .t = 10, .delayacct = 0, .th = p, .n = 3 };
	struct waits_snap cur = { .t = 12, .delayacct = 0, .th = c, .n = 4 };
	struct waits_values v;
	struct waits_totals tot = { 0 };
	double pct[WS_N];
	size_t n;
	char buf[4096];

	p[0] = crafted(1, 10, 0, 0, 0, 0, 0, 0);
	c[0] = crafted(1, 12, 1.0, 0.5, 0, 50, 0, 0);	/* busy sender */
	c[0].rchar = c[0].wchar = 0;
	p[0].rchar = p[0].wchar = 0;
	c[0].wchar = 50 << 20;
	p[1] = crafted(2, 10, 0, 0, 0, 0, 10, 0);
	c[1] = crafted(2, 11, 0, 0, 0, 0, 60, 0);	/* ended at 11 */
	c[1].alive = 0;
	p[2] = crafted(3, 10, 0, 0, 0, 0, 0, 0);
	c[2] = crafted(3, 12, 0, 0, 0, 0, 100, 0);	/* idle pool thread */
	c[3] = crafted(4, 12, 0, 0, 0, 0, 0, 100);	/* born at 11.5 */
	c[3].born = 11.5;
	EQ_INT(waitrates_compute(&prev, &cur, &v, &tot), 0, "compute");
	EQ_DBL(v.threads, 1 + 0.5 + 1 + 0.25, 1e-9,
	       "threads alive on average (ended at 11, born at 11.5)");
	EQ_DBL(v.pct[WS_CPU], 50, 1e-9, "% Processor Time, 100 per thread");
	EQ_DBL(v.pct[WS_CPU_WAIT], 25, 1e-9, "% CPU Wait Time");
	EQ_DBL(v.pct[WS_NET], 25, 1e-9, "% Network Wait Time");
	EQ_DBL(v.pct[WS_OTHER], 50 + 100, 1e-9, "% Other Wait Time");
	EQ_DBL(v.pct[WS_SLEEP], 25, 1e-9, "% Sleep Time");
	EQ_DBL(sum(v.pct, WS_N), 100 * v.threads, 1e-9,
	       "the states add to 100 per thread alive");
	EQ_DBL(v.guessed, 0, 0, "nothing guessed");
	EQ_INT(v.hidden, 0, "nothing hidden");

	c[2].guessed = 100;
	c[2].hidden = 100;
	c[3].born = 5;	/* existed at prev but was not read: no baseline */
	waitrates_compute(&prev, &cur, &v, NULL);
	EQ_DBL(v.threads, 2.5, 1e-9, "a thread with no baseline is left out");
	EQ_DBL(v.guessed, 100.0 * 100 / 200, 1e-9,
	       "share of guessed ticks (100 of 50 + 50 + 100 blocked)");
	EQ_INT(v.hidden, 1, "hidden flagged");

	EQ_INT(tot.n, 4, "totals: four threads");
	waitrates_split(&tot, 0, pct, &n);
	EQ_INT(n, 4, "split over all");
	waitrates_split(&tot, 1, pct, &n);
	EQ_INT(n, 1, "only the sender worked");
	EQ_DBL(pct[WS_NET], 25, 1e-9, "the working threads' split: net 25%");
	EQ_DBL(pct[WS_CPU], 50, 1e-9, "... cpu 50%");
	OK(waitrates_format(&tot, buf, sizeof(buf)) < sizeof(buf) &&
	   !strncmp(buf, "tid\tcomm\tstart\talive\tcpu\t", 24) &&
	   strstr(buf, "\n1\t\t5\t2.000\t1.000\t0.500\t0.000\t0.500\t0.000\t0.000\t52428800\t1\t1\t0\n"),
	   "TSV of the totals");
	{
		size_t full = waitrates_format(&tot, buf, sizeof(buf));
		size_t cut = waitrates_format(&tot, buf, 120);

		OK(cut == full && strlen(buf) < 120 && buf[strlen(buf) - 1] == '\n',
		   "a short buffer: cut after a whole line, full length returned");
	}

	{
		struct instance_values iv;

		for (int k = 0; k < CATALOG_MAX_PER_OBJECT; k++)
			iv.v[k] = -1;
		waitrates_fill(&v, &iv);
		OK(iv.v[0] == -1 && iv.v[3] == -1,
		   "fill: the tree's counters left alone");
		EQ_DBL(iv.v[catalog_counters[CTR_PROC_CPU_WAIT].index],
		       v.pct[WS_CPU_WAIT], 0, "fill: % CPU Wait Time");
		EQ_DBL(iv.v[catalog_counters[CTR_PROC_NET_WAIT].index],
		       v.pct[WS_NET], 0, "fill: % Network Wait Time");
		EQ_DBL(iv.v[catalog_counters[CTR_PROC_SLEEP].index],
		       v.pct[WS_SLEEP], 0, "fill: % Sleep Time");
	}
	cur.t = 10;
	EQ_INT(waitrates_compute(&prev, &cur, &v, NULL), -1, "dt 0: refused");
	OK(isnan(v.pct[WS_CPU]), "... values unknown");
	cur.t = 12;
	cur.n = 0;
	waitrates_compute(&prev, &cur, &v, NULL);
	OK(isnan(v.pct[WS_DISK]) && v.threads == 0, "no thread: unknown, not 0");
	waitrates_totals_free(&tot);
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

static void test_parse(void)
{
	struct waits_totals tot = { 0 }, back = { 0 };
	struct waits_total t;
	char buf[2048];
	size_t len, bad = 99;

	memset(&t, 0, sizeof(t));
	t.tid = 42;
	t.start = 777;
	memcpy(t.comm, "gzip", 5);
	t.alive = 10;
	t.sec[WS_CPU] = 9.5;
	t.sec[WS_CPU_WAIT] = 0.25;
	t.sec[WS_OTHER] = 0.25;
	t.io_bytes = 123456789;
	t.pid = 40;
	tot.t = &t;
	tot.n = 1;
	len = waitrates_format(&tot, buf, sizeof(buf));
	EQ_INT(waitrates_parse(buf, len, &back, &bad), 1, "parse: one thread back");
	EQ_INT(back.n ? back.t[0].pid : -1, 40, "parse: its process (pid column)");
	EQ_INT(bad, 0, "parse: no bad line");
	OK(back.n == 1 && back.t[0].tid == 42 && back.t[0].start == 777 &&
	   !strcmp(back.t[0].comm, "gzip") && back.t[0].io_bytes == 123456789,
	   "parse: tid, start, comm, bytes");
	EQ_DBL(back.n ? back.t[0].sec[WS_CPU] : NAN, 9.5, 1e-9, "parse: cpu seconds");
	EQ_DBL(back.n ? back.t[0].alive : NAN, 10, 1e-9, "parse: alive");
	snprintf(buf + len, sizeof(buf) - len,
		 "x\ty\n43\tsh\t1\t2\t3\n44\tsh\t1\t-1\t0\t0\t0\t0\t0\t0\t0\t0\n"
		 "45\ttar\t9\t1.000\t0.500\t0.000\t0.500\t0.000\t0.000\t0.000\t5\t1\t1\t45");
	EQ_INT(waitrates_parse(buf, strlen(buf), &back, &bad), 2,
	       "parse: garbage, short and negative lines skipped, an unended last line kept");
	EQ_INT(bad, 3, "parse: three bad lines counted");
	/* fuzz_waits: states that do not add up to the time alive gave a
	 * split over 100% */
	snprintf(buf + len, sizeof(buf) - len,
		 "46\tgzip\t777\t0.100\t9.500\t0.250\t0.000\t0.000\t0.250\t0.000\t0\t1\t1\n"
		 "47\tsh\t770\t10.000\t0.040\t0.000\t0.000\t0.000\t0.000\t9.950\t0\t1\t1\n");
	EQ_INT(waitrates_parse(buf, strlen(buf), &back, &bad), 1,
	       "parse: rows whose states do not add up to alive skipped");
	EQ_INT(bad, 2, "parse: ... and counted");
	EQ_INT(waitrates_parse("tid\tcomm\n", 10, &back, NULL), -1,
	       "parse: not our header: refused");
	waitrates_totals_free(&back);
}

/* The totals stay bounded (issue 21, item 4): 12,000 short threads of
 * one name ending over 12 reads, half of them working, beside a thread
 * alive all along, fold into a row per name and verdict once they are
 * WAITRATES_FOLD_AT; nothing they did is lost, and the file says how
 * many each row holds. */
static void test_fold(void)
{
	enum { ROUNDS = 12, PER = 1000 };
	struct waits_thread *p = calloc(1, sizeof(*p)),
			    *c = calloc(PER + 1, sizeof(*c));
	struct waits_totals tot = { 0 }, back = { 0 };
	struct waits_values v;
	size_t threads, working, len, most = 0;
	double pct[WS_N], alive_all = 0;
	char *buf;
	int bad = 0;

	if (!p || !c)
		return;
	p[0] = crafted(1, 0, 0, 0, 0, 0, 0, 0);
	memcpy(p[0].comm, "main", 5);
	for (int r = 0; r < ROUNDS; r++) {
		struct waits_snap prev = { .t = r, .th = p, .n = 1 };
		struct waits_snap cur = { .t = r + 1, .th = c, .n = PER + 1 };

		c[0] = crafted(1, r + 1, 0, 0, 0, 0, 0, 100 * (r + 1));
		memcpy(c[0].comm, "main", 5);
		for (int k = 1; k <= PER; k++) {
			/* born in the interval, ended in it: 0.5 s each */
			c[k] = crafted(1000 + r * PER + k, r + 1, k % 2 ? 0.1 : 0, 0,
				  0, 0, 0, 50);
			c[k].born = r + 0.5;
			c[k].alive = 0;
			memcpy(c[k].comm, "short", 6);
		}
		bad += waitrates_compute(&prev, &cur, &v, &tot) != 0;
		most = tot.n > most ? tot.n : most;
		p[0] = c[0];
	}
	EQ_INT(bad, 0, "12 reads of 1,000 short threads each");
	OK(most <= WAITRATES_FOLD_AT + PER, "the rows never went much past the fold");
	printf("# rows at most %zu, now %zu + %zu folded rows, %zu threads folded\n",
	       most, tot.n, tot.nagg, tot.folded);
	EQ_INT(tot.nagg, 2, "one folded row per name and verdict (short: worked, idle)");
	waitrates_count(&tot, &threads, &working);
	EQ_INT(threads, ROUNDS * PER + 1, "every thread counted, folded ones too");
	EQ_INT(working, ROUNDS * PER / 2, "the working half counted as working");
	waitrates_split(&tot, 0, pct, &threads);
	for (size_t i = 0; i < tot.n; i++)
		alive_all += tot.t[i].alive;
	for (size_t i = 0; i < tot.nagg; i++)
		alive_all += tot.agg[i].alive;
	EQ_DBL(alive_all, ROUNDS * PER * 0.5 + ROUNDS, 1e-6,
	       "their time kept: 0.5 s each and main's 12 s");
	EQ_DBL(pct[WS_CPU], 100.0 * ROUNDS * PER / 2 * 0.1 / alive_all, 1e-6,
	       "the split over every thread unchanged by the fold");

	len = waitrates_format(&tot, NULL, 0);
	buf = malloc(len + 1);
	if (buf) {
		waitrates_format(&tot, buf, len + 1);
		OK(strstr(buf, "\n0\tshort\t0\t") != NULL,
		   "a folded row in the file: tid 0, its name");
		OK(tot.folded == 10000 && strstr(buf, "\t1\t5000\t0\n") &&
		   strstr(buf, "\t0\t5000\t0\n"),
		   "... with its thread count (5,000 worked, 5,000 idle folded)");
		OK(len < 400000, "the file stays small");
		printf("# file %zu bytes for %d threads\n", len, ROUNDS * PER + 1);
		waitrates_parse(buf, len, &back, NULL);
		waitrates_count(&back, &threads, &working);
		EQ_INT(threads, ROUNDS * PER + 1, "parsed back: the same threads");
		EQ_INT(working, ROUNDS * PER / 2, "parsed back: the same working");
		free(buf);
	}
	/* a file of before the fold: no threads column */
	{
		static const char old[] =
			"tid\tcomm\tstart\talive\tcpu\tcpu_wait\tdisk\tnet"
			"\tother\tsleep\tio_bytes\tworking\n"
			"5\tgzip\t9\t1.000\t1.000\t0.000\t0.000\t0.000"
			"\t0.000\t0.000\t0\t1\n";

		static const char old1[] =
			"tid\tcomm\tstart\talive\tcpu\tcpu_wait\tdisk\tnet"
			"\tother\tsleep\tio_bytes\tworking\tthreads\n"
			"5\tgzip\t9\t1.000\t1.000\t0.000\t0.000\t0.000"
			"\t0.000\t0.000\t0\t1\t1\n";

		EQ_INT(waitrates_parse(old, sizeof(old) - 1, &back, NULL), 1,
		       "an old file (no threads column) is read");
		EQ_INT(waitrates_parse(old1, sizeof(old1) - 1, &back, NULL), 1,
		       "a file of before issue 29 (no pid column) is read");
		EQ_INT(back.n ? back.t[0].pid : -1, 0, "... its pid unknown (0)");
	}
	waitrates_totals_free(&back);
	waitrates_totals_free(&tot);
	free(p);
	free(c);
}

static void test_working(void)
{
	struct waits_total t;

	memset(&t, 0, sizeof(t));
	t.alive = 10;
	OK(!waitrates_working(&t), "nothing done: idle");
	t.sec[WS_CPU] = 0.02;
	OK(!waitrates_working(&t), "20 ms of 10 s: idle");
	t.sec[WS_CPU] = 0.06;
	OK(waitrates_working(&t), "60 ms of 10 s: working");
	t.sec[WS_CPU] = 0;
	t.io_bytes = 64 * 1024;
	OK(waitrates_working(&t), "64 KiB moved: working");
	t.io_bytes = 0;
	t.sec[WS_DISK] = 6;
	OK(waitrates_working(&t), "stuck on the disk: working");
	t.sec[WS_DISK] = 0;
	t.sec[WS_NET] = 10;
	OK(!waitrates_working(&t), "parked on an idle socket: idle");
}

/* restic under GOMAXPROCS=1 (a real session's waits-LABEL.tsv, the
 * sysmon given 20 ms of CPU as on a loaded host): only the sleep of the
 * threads that moved data paces it */
static void test_paced(void)
{
	struct waits_total th[3] = {
		{ .tid = 1, .pid = 1, .comm = "restic", .alive = 1.136,
		  .sec = { [WS_CPU] = 0.537, [WS_OTHER] = 0.599 },
		  .io_bytes = 13738 },
		{ .tid = 2, .pid = 1, .comm = "restic", .alive = 1.130,
		  .sec = { [WS_CPU] = 0.020, [WS_OTHER] = 0.074,
			   [WS_SLEEP] = 1.036 } },
		{ .tid = 7, .pid = 1, .comm = "restic", .alive = 0.398,
		  .sec = { [WS_CPU] = 0.397, [WS_DISK] = 0.001 },
		  .io_bytes = 18564158 },
	};
	struct waits_totals tot = { .t = th, .n = 3, .cap = 3 };
	double pct[WS_N];
	size_t n;

	waitrates_split(&tot, 1, pct, &n);
	OK(n == 3 && pct[WS_SLEEP] > 38, "restic: its working threads asleep 39% (sysmon)");
	EQ_DBL(waitrates_paced(&tot), 0, 1e-9, "... none of it a data mover's: paced 0%");
	th[2].sec[WS_CPU] = 0.040;
	th[2].sec[WS_SLEEP] = 0.357;	/* a mover that paces itself */
	EQ_DBL(waitrates_paced(&tot), 100 * 0.357 / (1.136 + 1.130 + 0.398), 1e-9,
	       "a mover asleep 0.357 s: that sleep paces");
	tot.n = 0;
	OK(isnan(waitrates_paced(&tot)), "no thread: unknown");
}

int main(void)
{
	test_unseen();
	test_run_seen();
	setup_root();
	test_fixture();
	test_unfound();
	test_local_unfound();
	test_held_not_run();
	test_memo_edges();
	test_poll_entries();
	test_gone_end();
	test_cgroup();
	test_thread_math();
	test_compute();
	test_late_member();
	test_working();
	test_paced();
	test_parse();
	test_fold();
	return done_testing();
}
