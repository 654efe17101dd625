/*
 * test_waitpoll.c - which far ends a poll, select or epoll waits on, and
 * which of them hold it, on a fake /proc (a copy of
 * tests/fixtures/proc/waits1, README there): an entry that asks for
 * nothing, an output beside inputs (waitprobe.c held_by_outputs), an
 * epoll's edge-triggered output, a local far end at work beside a
 * connection (held_by_working), a far end that ended. Split from
 * test_waitsfar.c at its seam (a wait on several ends, not one).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../waits/waits.h"
#include "fixtures.h"
#include "tap.h"
#include "waitsnap.h"

static char root[64];

/* The stat of process 607, a pipe's writer, in state S (a letter: R, D, S) */
#define WRITER_STAT(S) \
	"607 (sync) " S " 1 607 607 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 99000 0 0 0\n"

/* Thread tid's file name of the fixture, written with text. */
static void put(pid_t tid, const char *name, const char *text)
{
	snap_put(root, tid, name, text);
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

		c = snap_only_class(t);
		snap_edge_ticks(&s, t, net, local);
	}
	waits_snap_free(&s);
	waits_close(w);
	return c;
}

/* A tick of 703 at time at, checked: its class alone cls, its ticks on
 * the network's edges net and on local far ends' local. */
static void poll_expect(double at, int cls, double net, double local,
			const char *what)
{
	double n, l;
	int c = poll_tick(at, &n, &l);

	OK(c == cls && n == net && l == local, what);
	printf("#   class %d, on the network %.2f, on local far ends %.2f\n",
	       c, n, l);
}

static void poll_done(void)
{
	put(703, "wchan", "wait_woken");
	put(703, "syscall", "0 0x5 0x7f0000001000 0x10000 0x0 0x0 0x0 0x7ffc00000000 0x7f0000002000");
}

static int writes_fd3(pid_t pid, const char *link);

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
	/* fd 5: a connection to another host; fd 6: a pipe; 10-12 and 15
	 * more pipes (made below) */
	char path15[160];
	static const struct {
		struct pollfd set[5];
		int cls;
		double net, local;
		const char *what;
	} cases[] = {
		{ { { 5, POLLIN, 0 }, { 6, 0, 0 } }, WAIT_NET, 1, 0,
		  "poll nothing: the connection's input beside a pipe asking nothing: net, on the network" },
		{ { { 15, POLLIN, 0 }, { 5, POLLIN, 0 } }, WAIT_OTHER, 0.5, 0.5,
		  "poll both: a pipe's input beside a connection's, its writer blocked: other, half on each far end" },
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
	/* fd 15: a pipe its writer (607) holds, blocked on its own input
	 * (the fixture's 701-719, holders of fd 6, are 700 running) */
	snprintf(path15, sizeof(path15), "%s/proc/700/fd/15", root);
	OK(symlink("pipe:[4020]", path15) == 0 &&
	   writes_fd3(607, "pipe:[4020]"),
	   "poll entries: the command (607) writes the pipe of fd 15");
	fixture_put(root, "proc/607/stat", WRITER_STAT("S"));
	fixture_put(root, "proc/607/wchan", "pipe_read");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = 0;

		while (n < 5 && (cases[i].set[n].fd || cases[i].set[n].events))
			n++;
		poll_on(cases[i].set, n);
		poll_expect(7000.0 + 100.0 * (double)i, cases[i].cls,
			    cases[i].net, cases[i].local, cases[i].what);
	}
	poll_done();
#else
	OK(1, "# SKIP the fixture's syscall files are x86_64 numbers");
#endif
}

/* An epoll's entries (fdinfo's events; EPOLLET 0x80000000): an
 * edge-triggered EPOLLOUT is an event loop's for good (Go registers each
 * fd IN|OUT|RDHUP|ET) and says nothing of a buffer; a level-triggered
 * one that it is full. Go's wait on a connection to another host beside
 * a pipe was net, all on the network, held by the connection's output.
 * (The pipe's writer, 607, is blocked: one at work would hold the wait,
 * test_poll_working.) */
static void test_epoll_edge(void)
{
#ifdef __x86_64__
	static const struct {
		const char *tfds, *what;
		double net, local;
	} cases[] = {
		{ "tfd: 5 events: 80002005\ntfd: 15 events: 19\n",
		  "epoll edge: Go's connection (IN|OUT|ET) beside a pipe's input: other, half on each", 0.5, 0.5 },
		{ "tfd: 5 events: 19\ntfd: 15 events: 80002005\n",
		  "epoll edge: Go's pipe (IN|OUT|ET) beside a connection's input: other, half on each", 0.5, 0.5 },
		{ "tfd: 5 events: 19\ntfd: 6 events: 1d\n",
		  "epoll level: a pipe's level-triggered output beside a connection's input: other, held by the pipe", 0, 1 },
	};
	char path[160];

	snprintf(path, sizeof(path), "%s/proc/700/fdinfo/14", root);
	put(703, "wchan", "do_epoll_wait");
	put(703, "syscall", "232 0xe 0x7f0000003000 0x40 0xffffffff 0x0 0x0 0x7ffc00000000 0x7f0000002000");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = fopen(path, "w");

		if (f) {	/* (unwritten: the check fails) */
			fprintf(f, "pos:\t0\nflags:\t02\n%s", cases[i].tfds);
			fclose(f);
		}
		poll_expect(8000.0 + 100.0 * (double)i, WAIT_OTHER,
			    cases[i].net, cases[i].local, cases[i].what);
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

	if (!snap_server_holds(root, pid, link))
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
	OK(fixture_remove(root, "proc/605") == 0 && writes_fd3(606, "pipe:[4001]"),
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

/* A poll on inputs alone, its connection beside a pipe whose writer is
 * at work (waitprobe.c held_by_working): held by the pipe. The server's
 * sshd, its client's data handed on, polls its connection and its
 * command's output: with tar's `sync f` on the disk (D), a third of the
 * wait was on the network (t3741: sshd 1.7 s on the path, sync 4.1 s
 * on the disk). Its writer blocked itself (reading the stdin the
 * server has nothing more for), the split stays (test_poll_entries). */
static void test_poll_working(void)
{
#ifdef __x86_64__
	struct pollfd set[2] = { { 5, POLLIN, 0 }, { 15, POLLIN, 0 } };

	poll_on(set, 2);
	fixture_put(root, "proc/607/stat", WRITER_STAT("D"));
	poll_expect(9500.0, WAIT_OTHER, 0, 1,
		    "poll working: the pipe's writer in D holds it, nothing on the network");
	fixture_put(root, "proc/607/stat", WRITER_STAT("R"));
	poll_expect(9600.0, WAIT_OTHER, 0, 1,
		    "poll working: the pipe's writer running holds it");
	poll_done();
#else
	OK(1, "# SKIP the fixture's syscall files are x86_64 numbers");
#endif
}
int main(void)
{
	OK(snap_root(root, sizeof(root)) == 0, "fixture copied to a scratch root");
	test_poll_entries();
	test_epoll_edge();
	test_gone_end();
	test_poll_working();
	OK(rmtree(root) == 0, "scratch root removed");
	return done_testing();
}
