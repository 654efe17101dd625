/*
 * test_waitpeer.c - the far ends of waited-on descriptors (waits/
 * waitpeer.h) on a fake /proc made here, without a kernel behind it:
 *   resolve    fd tables of five processes (a pipe, a unix socketpair,
 *              a loopback TCP pair, a TCP connection to another host,
 *              one to an own address), the namespace's net files
 *              (waitpeertab.h); each edge's kind, direction, peer
 *   rescan     an unknown inode scans the fd tables once, not again
 *              within a second; a known one never; a costly scan waits
 *              longer for the next
 *   holders    of several, the one doing the work (gzip, not the shell
 *              that holds the pipe it gave it), a child forked since the
 *              scan (issue 46), the waiter's own end it gave away
 *   namespaces ten network namespaces, more than the MAX_NS kept: each
 *              still resolves, the least recently used goes, the
 *              sockets kept stay bounded
 * The parsers are test_waitpeer_parse.c's, the edges file
 * test_waitedges.c's.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../waits/waitpeer.h"
#include "../../waits/waitpeer_int.h"	/* the namespaces kept */
#include "fixtures.h"
#include "tap.h"
#include "waitpeertab.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	fixture_put(root, rel, text);
}

static void dir(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkdir(path, 0755);
}

static void link_fd(int pid, int fd, const char *target, int flags)
{
	fixture_fd(root, pid, fd, target, flags);
}

static void process(int pid, const char *comm)
{
	fixture_process(root, pid, comm);
}

static void make_root(void)
{
	snprintf(root, sizeof(root), "/tmp/perflog-peer-XXXXXX");
	if (!mkdtemp(root))
		return;
	dir("proc");
	process(100, "rsync");	/* the waiter */
	process(200, "gzip");	/* the pipe's other end */
	process(300, "rsync");	/* the socketpair's */
	process(400, "sshd");	/* the loopback TCP mirror's */
	process(500, "cat");	/* holds the pipe's read end too */
	link_fd(100, 3, "pipe:[5001]", O_WRONLY);	/* 100 writes */
	link_fd(500, 0, "pipe:[5001]", O_WRONLY);	/* a second writer */
	link_fd(200, 0, "pipe:[5001]", O_RDONLY);	/* 200 reads */
	link_fd(100, 5, "socket:[6001]", O_RDWR);
	link_fd(300, 7, "socket:[6002]", O_RDWR);
	link_fd(100, 8, "socket:[7001]", O_RDWR);
	link_fd(400, 3, "socket:[7002]", O_RDWR);
	link_fd(100, 9, "socket:[7003]", O_RDWR);
	link_fd(100, 10, "socket:[7004]", O_RDWR);
	link_fd(100, 11, "socket:[7005]", O_RDWR);
	link_fd(100, 12, "socket:[7006]", O_RDWR);
	link_fd(100, 13, "socket:[9999]", O_RDWR);	/* nobody knows it */
	link_fd(100, 14, "/tmp/some/fifo", O_RDONLY);
	put("proc/100/net/tcp", tcp);
	put("proc/100/net/tcp6", tcp6);
	put("proc/100/net/fib_trie", fib);
	put("proc/100/net/if_inet6", if6);
	put("proc/100/net/route", route);
}

/* A resolver on the fake /proc (*procfd its descriptor), or NULL. */
static struct waitpeer *open_root(int *procfd)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/proc", root);
	*procfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return *procfd >= 0 ? waitpeer_open(*procfd, 0) : NULL;
}

static int resolve(struct waitpeer *p, int fd, int dir, double now,
		   struct waitpeer_edge *e)
{
	memset(e, 0, sizeof(*e));
	return waitpeer_resolve(p, 100, 100, fd, NULL, dir, now, e);
}

/* A scan of fd tables that costs waits longer for the next: at most
 * SCAN_SHARE (1%) of a CPU (waitpeer.c scan_fds). A process of 40,000
 * descriptors makes the scan cost (tens of ms); its CPU time is measured
 * here as the scan's is there. */
static void test_scan_share(struct waitpeer *p)
{
	char path[256];
	struct waitpeer_edge e;
	unsigned scans, before;
	double c0, cost;
	int made = 0;

	process(600, "many");
	for (int fd = 0; fd < 40000; fd++) {
		snprintf(path, sizeof(path), "%s/proc/600/fd/%d", root, fd);
		made += symlink("socket:[7]", path) == 0;
	}
	EQ_INT(made, 40000, "scan share: a process of 40,000 descriptors");
	waitpeer_stats(p, &before, &(unsigned){ 0 });
	link_fd(100, 21, "pipe:[5003]", O_WRONLY);
	c0 = util_thread_cpu();
	resolve(p, 21, PEER_OUT, 30.0, &e);
	cost = util_thread_cpu() - c0;
	waitpeer_stats(p, &scans, &(unsigned){ 0 });
	EQ_INT((int)(scans - before), 1, "scan share: an unknown pipe scans");
	printf("# the scan took %.1f ms of CPU\n", cost * 1e3);
	link_fd(100, 22, "pipe:[5004]", O_WRONLY);
	resolve(p, 22, PEER_OUT, 30.0 + WAITPEER_RESCAN_SEC + 0.1, &e);
	waitpeer_stats(p, &scans, &(unsigned){ 0 });
	if (cost > 1.5 * WAITPEER_RESCAN_SEC * 0.01)
		EQ_INT((int)(scans - before), 1,
		       "scan share: another unknown a second later: no scan "
		       "(the last cost more than 1% of a second)");
	else
		OK(1, "# SKIP the scan was too cheap here to wait longer");
	link_fd(100, 23, "pipe:[5005]", O_WRONLY);
	resolve(p, 23, PEER_OUT, 30.2 + 1.2 * cost / 0.01 + WAITPEER_RESCAN_SEC, &e);
	waitpeer_stats(p, &scans, &(unsigned){ 0 });
	EQ_INT((int)(scans - before), 2,
	       "scan share: once 100 times its cost has passed: scanned");
}

/* A socket's far end held by two processes when the fd tables were read:
 * rsync's receiver and, for a moment after the fork, the generator,
 * which then closes it. The scan's first holder (the generator, the
 * lower pid) was kept as the answer, and known inodes are never scanned
 * for again: the sender's waits on the receiver went to a process that
 * did not hold the socket (make check: "the client waited on the disk",
 * no stage linked). */
static void test_forked_holder(struct waitpeer *p)
{
	struct waitpeer_edge e;
	char path[256];

	process(250, "rsync");	/* the generator, forked first */
	process(260, "rsync");	/* the receiver */
	waitpeer_add_unix(p, 6101, 6102);
	link_fd(100, 30, "socket:[6101]", O_RDWR);
	link_fd(250, 4, "socket:[6102]", O_RDWR);
	link_fd(260, 4, "socket:[6102]", O_RDWR);
	OK(resolve(p, 30, PEER_OUT, 20.0, &e) && e.kind == PEER_UNIX,
	   "forked holder: a socketpair held by two processes");
	EQ_INT(e.peer_pid, 250, "... the first of them, for now");
	snprintf(path, sizeof(path), "%s/proc/250/fd/4", root);
	unlink(path);	/* the generator closes its copy */
	resolve(p, 30, PEER_OUT, 20.0 + WAITPEER_RESCAN_SEC + 0.1, &e);
	EQ_INT(e.peer_pid, 260,
	       "... a second later: the one that still holds it (an answer "
	       "among several is kept a second, and each holder asked again)");
	resolve(p, 30, PEER_OUT, 20.0 + WAITPEER_KEEP_SEC + 2.0, &e);
	EQ_INT(e.peer_pid, 260, "... and after the answers' time");
}

/* A process of the fake /proc doing something (fixture_doing). */
static void doing(int pid, char state, const char *wchan, const char *kids)
{
	fixture_doing(root, pid, state, wchan, kids);
}

/* `(head | gzip; echo done) | cat` (issue 46): the pipe cat reads is
 * written by gzip, and held by the subshell too, which only waits on its
 * children. The fd tables list the subshell first (the lower pid): cat
 * "waited on sh". Then the subshell alone in the tables (gzip forked
 * after the scan): found among its children. */
static void test_busy_holder(struct waitpeer *p)
{
	struct waitpeer_edge e;

	process(700, "sh");	/* the subshell */
	process(710, "gzip");
	process(720, "head");
	doing(700, 'S', "do_wait", "720 710 ");
	doing(710, 'R', "0", "");
	doing(720, 'S', "pipe_write", "");
	link_fd(100, 40, "pipe:[8001]", O_RDONLY);	/* 100: cat */
	link_fd(700, 1, "pipe:[8001]", O_WRONLY);
	link_fd(710, 1, "pipe:[8001]", O_WRONLY);
	OK(resolve(p, 40, PEER_IN, 200.0, &e) && e.kind == PEER_PIPE,
	   "busy holder: a pipe with two writers");
	EQ_INT(e.peer_pid, 710, "... the running one (gzip), not the shell "
	       "waiting on its children");
	EQ_STR(e.peer_comm, "gzip", "... named");
	doing(710, 'S', "pipe_write", "");
	resolve(p, 40, PEER_IN, 200.0 + WAITPEER_RESCAN_SEC + 0.1, &e);
	EQ_INT(e.peer_pid, 710, "... blocked writing, still it (asked again "
	       "a second later: one of several)");

	process(800, "sh");
	process(810, "head");
	process(820, "gzip");
	doing(800, 'S', "do_wait", "");
	doing(810, 'S', "pipe_write", "");
	doing(820, 'S', "pipe_write", "");
	link_fd(100, 41, "pipe:[8002]", O_RDONLY);
	link_fd(800, 1, "pipe:[8002]", O_WRONLY);
	OK(resolve(p, 41, PEER_IN, 300.0, &e) && e.peer_pid == 800,
	   "busy holder: the subshell alone holds it, no child yet: it");
	link_fd(820, 1, "pipe:[8002]", O_WRONLY);	/* after the scan */
	doing(800, 'S', "do_wait", "810 820\n");
	resolve(p, 41, PEER_IN, 300.0 + WAITPEER_RESCAN_SEC + 0.1, &e);
	EQ_INT(e.peer_pid, 820, "... its children forked since: the one "
	       "holding the pipe (gzip), though no scan saw it");
	EQ_STR(e.peer_comm, "gzip", "... named");

	/* t7725 beside a loaded make check: cat blocked on the pipe while
	 * the subshell, running, had not forked its pipeline yet. Its
	 * answer was kept WAITPEER_KEEP_SEC as one sure holder's, and cat's
	 * whole wait (1.9-4.3 s) went to sh, none to gzip */
	process(900, "sh");
	process(910, "head");
	process(920, "gzip");
	doing(900, 'R', "0", "");
	link_fd(100, 42, "pipe:[8003]", O_RDONLY);
	link_fd(900, 1, "pipe:[8003]", O_WRONLY);
	OK(resolve(p, 42, PEER_IN, 400.0, &e) && e.peer_pid == 900,
	   "busy holder: the subshell alone holds it, running (forking): it");
	doing(900, 'S', "do_wait", "910 920\n");
	doing(910, 'S', "pipe_write", "");
	doing(920, 'R', "0", "");
	link_fd(920, 1, "pipe:[8003]", O_WRONLY);
	resolve(p, 42, PEER_IN, 400.0 + WAITPEER_RESCAN_SEC + 0.1, &e);
	EQ_INT(e.peer_pid, 920, "... a second later, its pipeline forked: "
	       "gzip (a running holder may be forking the writer: its "
	       "answer is kept a second, not five)");
}

/* OpenSSH's server makes its command's pipes, forks, and closes the
 * ends it gave: an fd scan between the two sees both ends in its own
 * table and none in its command's (cat, forked after the scan). The
 * waiter, holding the end its write waited on, was that end's far end,
 * an answer kept WAITPEER_KEEP_SEC as one sure holder's: in t3741 the
 * server's sshd waited 4.8 s "on sshd", its own pipe, while cat wrote
 * to the throttled disk. */
static void test_own_end(struct waitpeer *p)
{
	struct waitpeer_edge e;
	char path[256];

	process(1010, "cat");
	doing(1010, 'D', "io_schedule", "");
	link_fd(100, 50, "pipe:[8101]", O_WRONLY);	/* 100 (sshd) writes */
	link_fd(100, 51, "pipe:[8101]", O_RDONLY);	/* not closed yet */
	OK(resolve(p, 50, PEER_OUT, 600.0, &e) && e.kind == PEER_PIPE,
	   "own end: a pipe whose both ends the waiter holds");
	snprintf(path, sizeof(path), "%s/proc/100/fd/51", root);
	unlink(path);			/* closed after the fork */
	link_fd(1010, 0, "pipe:[8101]", O_RDONLY);	/* after the scan */
	/* (later than a scan's gap: test_scan_share's 40,000 descriptors
	 * make each scan of this root wait 100 times its cost) */
	resolve(p, 50, PEER_OUT, 1200.0, &e);
	EQ_INT(e.peer_pid, 1010, "... later, the end given away: its "
	       "command, not the waiter");
	EQ_STR(e.peer_comm, "cat", "... named");
}

static void test_resolve(void)
{
	int procfd;
	struct waitpeer *p;
	struct waitpeer_edge e;
	unsigned scans, reads;

	p = open_root(&procfd);
	OK(p != NULL, "resolver on the fake /proc");
	if (!p)
		return;
	waitpeer_add_unix(p, 6001, 6002);

	OK(resolve(p, 3, PEER_OUT, 10.0, &e) && e.kind == PEER_PIPE, "a pipe written to: pipe");
	EQ_INT(e.peer_pid, 200, "... its reader is the peer (the other writer is not)");
	EQ_STR(e.peer_comm, "gzip", "... named");
	EQ_STR(e.comm, "rsync", "... the waiter named");
	EQ_INT(e.dir, PEER_OUT, "... out: the peer is downstream");
	waitpeer_stats(p, &scans, &reads);
	EQ_INT((int)scans, 1, "the fd tables scanned once for it");

	OK(resolve(p, 5, PEER_IN, 10.1, &e) && e.kind == PEER_UNIX, "a socketpair: unix");
	EQ_INT(e.peer_pid, 300, "... the process holding the peer inode");
	OK(!e.local[0] && !e.remote[0], "... no addresses");

	OK(resolve(p, 8, PEER_IN, 10.2, &e) && e.kind == PEER_TCP, "loopback TCP: tcp");
	EQ_INT(e.peer_pid, 400, "... the mirror's holder");
	EQ_STR(e.peer_comm, "sshd", "... named");
	EQ_STR(e.local, "127.0.0.1:40000", "... local address");
	EQ_STR(e.remote, "127.0.0.1:5000", "... remote");

	OK(resolve(p, 9, PEER_OUT, 10.3, &e) && e.kind == PEER_NET, "TCP to another host: net");
	EQ_INT(e.peer_pid, 0, "... no peer process");
	EQ_STR(e.peer_comm, "veth9", "... the interface toward it");

	OK(resolve(p, 10, PEER_IN, 10.4, &e) && e.kind == PEER_TCP,
	   "TCP to an own address, mirror unseen: still local (tcp)");
	EQ_INT(e.peer_pid, 0, "... its process unknown");

	OK(resolve(p, 12, PEER_IN, 10.5, &e) && e.kind == PEER_NET, "TCP over IPv6 to another host: net");
	EQ_STR(e.peer_comm, "eth0", "... the interface holding the local address");

	EQ_INT(resolve(p, 11, PEER_IN, 10.6, &e), 0, "a listener: no far end told");
	EQ_INT(resolve(p, 14, PEER_IN, 10.6, &e), 0,
	       "a path with no FIFO at it: not told (test_waitholder: a FIFO's)");

	waitpeer_stats(p, &scans, &reads);
	EQ_INT((int)scans, 1, "known inodes: no scan again");
	EQ_INT(resolve(p, 13, PEER_IN, 10.7, &e), 0, "an inode nobody knows: not told");
	waitpeer_stats(p, &scans, &reads);
	EQ_INT((int)scans, 1, "... no fd scan for it (not a pipe, not a known socket)");
	{
		unsigned r0 = reads;

		resolve(p, 13, PEER_IN, 10.8, &e);
		waitpeer_stats(p, &scans, &reads);
		EQ_INT((int)(reads - r0), 0, "... asked again: the cached answer, no read");
	}
	/* the pipe's reader changes: a new holder appears, and the answer
	 * is kept WAITPEER_KEEP_SEC, then looked for again */
	link_fd(500, 9, "pipe:[5002]", O_RDONLY);
	link_fd(100, 20, "pipe:[5002]", O_WRONLY);
	OK(resolve(p, 20, PEER_OUT, 10.9, &e) && e.peer_pid == 0,
	   "a pipe seen after the scan, within a second of it: peer not yet known");
	waitpeer_stats(p, &scans, &reads);
	EQ_INT((int)scans, 1, "... no second scan within the second");
	OK(resolve(p, 20, PEER_OUT, 10.9 + WAITPEER_RESCAN_SEC, &e) && e.peer_pid == 500,
	   "an answer without its process kept only a second: found then");
	waitpeer_stats(p, &scans, &reads);
	EQ_INT((int)scans, 2, "... one more scan");
	test_forked_holder(p);
	test_scan_share(p);
	{
		/* issue 50 item 5: a comm with a newline of its own is
		 * the name, not its end (it was cut to "he", the waits
		 * file's he?ad: the files disagreed) */
		char comm[16];

		process(7001, "he\nad");
		waitpeer_comm(p, 7001, 100, comm);
		EQ_STR(comm, "he\nad", "comm: a newline in the name kept, the kernel's dropped");
	}
	test_busy_holder(p);
	test_own_end(p);
	waitpeer_close(p);
	close(procfd);
}

/* Process 1000 + k, alone in network namespace k, waits on socket fd 3
 * of a loopback TCP pair whose both ends its namespace's table has. */
#define NS_PROCS 10
static void ns_process(int k)
{
	char rel[64], text[512];
	int pid = 1000 + k, ino = 8000 + 2 * k;

	process(pid, "client");
	snprintf(rel, sizeof(rel), "proc/%d/ns", pid);
	dir(rel);
	snprintf(rel, sizeof(rel), "%s/proc/%d/ns/net", root, pid);
	snprintf(text, sizeof(text), "net:[%ld]", 4026532000L + k);
	if (symlink(text, rel) < 0)
		printf("# symlink %s: failed\n", rel);
	snprintf(text, sizeof(text), "socket:[%d]", ino);
	link_fd(pid, 3, text, O_RDWR);
	snprintf(text, sizeof(text), "%s"
		 "   0: 0100007F:9C40 0100007F:1388 01 00000000:00000000 00:00000000 00000000     0        0 %d 1 0000000000000000 20 4 30 10 -1\n"
		 "   1: 0100007F:1388 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 %d 1 0000000000000000 20 4 30 10 -1\n",
		 "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n",
		 ino, ino + 1);
	snprintf(rel, sizeof(rel), "proc/%d/net/tcp", pid);
	put(rel, text);
}

static int ns_resolve(struct waitpeer *p, int k, double now)
{
	struct waitpeer_edge e;

	memset(&e, 0, sizeof(e));
	return waitpeer_resolve(p, 1000 + k, 1000 + k, 3, NULL, PEER_IN, now,
				&e) == 1 && e.kind == PEER_TCP;
}

/* More network namespaces than the MAX_NS whose tables are kept (a host
 * of many containers). The ninth took the place of the first read, not
 * of the least used, and left the evicted namespace's sockets in the
 * table: they grew with each namespace seen, and a socket of an evicted
 * namespace whose mirror was among them was never read again (its far
 * end unknown for good: the resolver returned 0). */
static void test_many_ns(void)
{
	int procfd, all;
	struct waitpeer *p;
	unsigned scans, reads, r0;
	double t = 100;

	for (int k = 0; k < NS_PROCS; k++)
		ns_process(k);
	p = open_root(&procfd);
	OK(p != NULL, "namespaces: a resolver");
	if (!p)
		return;
	all = 1;
	for (int k = 0; k < NS_PROCS; k++)
		all &= ns_resolve(p, k, t + 0.01 * k);
	OK(all, "namespaces: a socket in each of 10 namespaces resolved (tcp)");
	/* past the answers' time: each asks its namespace's table again */
	t += WAITPEER_KEEP_SEC + 1;
	all = 1;
	for (int k = 0; k < NS_PROCS; k++) {
		int ok = ns_resolve(p, k, t + 0.01 * k);

		if (!ok)
			printf("# namespace %d: not resolved\n", k);
		all &= ok;
	}
	OK(all, "namespaces: ... and again, those evicted read again");
	printf("# %zu namespaces kept, %zu sockets\n", p->nns, p->ninet);
	OK(p->nns <= MAX_NS && p->ninet <= 2 * MAX_NS,
	   "namespaces: at most MAX_NS kept, and only their sockets");
	waitpeer_close(p);

	/* a namespace looked up between each new one stays: the least
	 * recently used goes, not the first read */
	p = waitpeer_open(procfd, 0);
	if (!p)
		return;
	t = 200;
	all = ns_resolve(p, 0, t);
	waitpeer_stats(p, &scans, &r0);
	for (int k = 1; k < NS_PROCS; k++) {
		t += WAITPEER_KEEP_SEC + 1;	/* its answer forgotten */
		all &= ns_resolve(p, k, t);
		all &= ns_resolve(p, 0, t + 0.5);
	}
	waitpeer_stats(p, &scans, &reads);
	OK(all, "namespaces: one in use throughout resolves throughout");
	EQ_INT((int)(reads - r0), NS_PROCS - 1,
	       "... its table read once: kept while the others came and went");
	waitpeer_close(p);
	close(procfd);
}

int main(void)
{
	make_root();
	test_resolve();
	test_many_ns();
	if (root[0] && rmtree(root) != 0)
		printf("# could not remove %s\n", root);
	return done_testing();
}
