/*
 * test_waitpeer.c - the far ends of waited-on descriptors (waits/
 * waitpeer.h) and edges-LABEL.tsv (waits/waitedges.h), without a kernel
 * behind them:
 *   parsers    /proc/net/tcp{,6} and udp lines, fib_trie, if_inet6,
 *              route, link texts, a crafted sock_diag reply
 *   resolve    a fake /proc made here: fd tables of five processes
 *              (a pipe, a unix socketpair, a loopback TCP pair, a TCP
 *              connection to another host, one to an own address), the
 *              namespace's net files; each edge's kind, direction, peer
 *   rescan     an unknown inode scans the fd tables once, not again
 *              within a second; a known one never
 *   holders    of several, the one doing the work (gzip, not the shell
 *              that holds the pipe it gave it), a child forked since the
 *              scan (issue 46); wait4's child from its arguments
 *   the file   rows summed per peer, formatted, parsed back; one name
 *              for each process, its last
 *   namespaces ten network namespaces, more than the MAX_NS kept: each
 *              still resolves, the least recently used goes, the
 *              sockets kept stay bounded
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <math.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../waits/waitactive.h"
#include "../../waits/waitedges.h"
#include "../../waits/waitpeer.h"
#include "../../waits/waitpeer_int.h"	/* the namespaces kept */
#include "../../waits/waitrates.h"
#include "fixtures.h"
#include "tap.h"

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

/* The namespace's tables, as the kernel prints them (little endian). */
static const char tcp[] =
	"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
	/* 127.0.0.1:40000 -> 127.0.0.1:5000, and its mirror */
	"   0: 0100007F:9C40 0100007F:1388 01 00000000:00000000 00:00000000 00000000     0        0 7001 1 0000000000000000 20 4 30 10 -1\n"
	"   1: 0100007F:1388 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 7002 1 0000000000000000 20 4 30 10 -1\n"
	/* 10.0.0.5:40001 -> 192.0.2.7:22: another host */
	"   2: 0500000A:9C41 070200C0:0016 01 00000000:00000000 00:00000000 00000000     0        0 7003 1 0000000000000000 20 4 30 10 -1\n"
	/* 10.0.0.5:40002 -> 10.0.0.5:873: its own address, no mirror seen */
	"   3: 0500000A:9C42 0500000A:0369 01 00000000:00000000 00:00000000 00000000     0        0 7004 1 0000000000000000 20 4 30 10 -1\n"
	/* a listener: no far end */
	"   4: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 7005 1 0000000000000000 100 0 0 10 0\n";
static const char tcp6[] =
	"  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
	/* [2001:db8::5]:40010 -> [2001:db8::9]:22 */
	"   0: B80D0120000000000000000005000000:9C4A B80D0120000000000000000009000000:0016 01 00000000:00000000 00:00000000 00000000     0        0 7006 1 0000000000000000 20 4 30 10 -1\n";
static const char fib[] =
	"Main:\n  +-- 0.0.0.0/0 3 0 5\n     |-- 0.0.0.0\n        /0 universe UNICAST\n"
	"     +-- 10.0.0.0/24 2 0 2\n        |-- 10.0.0.0\n           /24 link UNICAST\n"
	"        |-- 10.0.0.5\n           /32 host LOCAL\n"
	"     |-- 127.0.0.1\n        /32 host LOCAL\n"
	"Local:\n  +-- 0.0.0.0/0 3 0 5\n        |-- 10.0.0.5\n           /32 host LOCAL\n";
static const char if6[] =
	"00000000000000000000000000000001 01 80 10 80       lo\n"
	"20010db8000000000000000000000005 02 40 00 80     eth0\n";
static const char route[] =
	"Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
	"eth0\t00000000\t0100000A\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
	"eth0\t0000000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
	"veth9\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n";

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

static void test_parsers(void)
{
	struct waitpeer_inet s, m;
	unsigned long ino = 0;
	uint32_t local[8];
	char name[16] = "", text[64];
	uint8_t a6[16];
	struct in_addr a4;

	EQ_INT(waitpeer_link("pipe:[5001]", &ino), 'p', "link: a pipe");
	EQ_INT((int)ino, 5001, "... its inode");
	EQ_INT(waitpeer_link("socket:[77]", &ino), 's', "link: a socket");
	EQ_INT(waitpeer_link("/dev/null", &ino), 0, "link: a path is neither");
	EQ_INT(waitpeer_link("pipe:[12", &ino), 0, "link: cut short");
	EQ_INT(waitpeer_inet_line(strchr(tcp, '\n') + 1, 0, &s), 0, "tcp line parsed");
	waitpeer_format(s.laddr, s.lport, text, sizeof(text));
	EQ_STR(text, "127.0.0.1:40000", "... its local address");
	waitpeer_format(s.raddr, s.rport, text, sizeof(text));
	EQ_STR(text, "127.0.0.1:5000", "... its remote");
	OK(s.ino == 7001 && s.state == 1, "... its inode and state");
	OK(waitpeer_loopback(s.raddr), "127.0.0.1 is loopback");
	EQ_INT(waitpeer_inet_line(tcp, 0, &s), -1, "the header is not a socket");
	EQ_INT(waitpeer_inet_line("  0: 0100007F:9C40 garbage", 0, &s), -1,
	       "a damaged line is refused");
	EQ_INT(waitpeer_inet_line(strchr(tcp6, '\n') + 1, 1, &s), 0, "tcp6 line parsed");
	waitpeer_format(s.raddr, s.rport, text, sizeof(text));
	EQ_STR(text, "[2001:db8::9]:22", "... as [ADDR]:PORT");
	OK(!waitpeer_loopback(s.raddr), "2001:db8::9 is not loopback");
	/* the mirror: ports swapped */
	{
		const char *l1 = strchr(tcp, '\n') + 1, *l2 = strchr(l1, '\n') + 1;

		waitpeer_inet_line(l1, 0, &s);
		waitpeer_inet_line(l2, 0, &m);
		EQ_INT(waitpeer_is_mirror(&m, &s, 0), 2, "the loopback pair mirror each other");
		EQ_INT(waitpeer_is_mirror(&s, &s, 0), 0, "a socket is not its own mirror");
	}
	/* UDP: a receiver bound to the port, never connected */
	memset(&m, 0, sizeof(m));
	m.lport = 5000;
	m.laddr[10] = m.laddr[11] = 0xff;
	m.raddr[10] = m.raddr[11] = 0xff;
	EQ_INT(waitpeer_is_mirror(&m, &s, 1), 1, "udp: a receiver bound to any address will do");
	EQ_INT(waitpeer_is_mirror(&m, &s, 0), 0, "... not for tcp");

	EQ_INT((int)waitpeer_fib_local(fib, local, 8), 2, "fib_trie: two own addresses");
	inet_pton(AF_INET, "10.0.0.5", &a4);
	OK(local[0] == a4.s_addr, "... 10.0.0.5 first");
	inet_pton(AF_INET6, "2001:db8::5", a6);
	OK(waitpeer_inet6_local(if6, a6, name, sizeof(name)), "if_inet6: an own address");
	EQ_STR(name, "eth0", "... on eth0");
	inet_pton(AF_INET6, "2001:db8::9", a6);
	OK(!waitpeer_inet6_local(if6, a6, NULL, 0), "if_inet6: not ours");
	inet_pton(AF_INET, "192.0.2.7", &a4);
	EQ_INT(waitpeer_route(route, a4.s_addr, name, sizeof(name)), 0, "route found");
	EQ_STR(name, "veth9", "route: the longest prefix (veth9's /24, not the default)");
	inet_pton(AF_INET, "8.8.8.8", &a4);
	waitpeer_route(route, a4.s_addr, name, sizeof(name));
	EQ_STR(name, "eth0", "route: the default");
}

/* A sock_diag reply as the kernel sends it: two sockets with peers,
 * one without, then NLMSG_DONE. */
static size_t diag_reply(char *buf, size_t n)
{
	const unsigned long ino[3] = { 6001, 6002, 6100 }, peer[3] = { 6002, 6001, 0 };
	size_t len = 0;

	memset(buf, 0, n);
	for (int i = 0; i < 3; i++) {
		struct nlmsghdr *h = (struct nlmsghdr *)(buf + len);
		struct unix_diag_msg *m = NLMSG_DATA(h);
		struct rtattr *a = (struct rtattr *)((char *)m + NLMSG_ALIGN(sizeof(*m)));
		size_t plen = NLMSG_ALIGN(sizeof(*m));

		m->udiag_family = AF_UNIX;
		m->udiag_ino = (uint32_t)ino[i];
		if (peer[i]) {
			uint32_t p = (uint32_t)peer[i];

			a->rta_type = UNIX_DIAG_PEER;
			a->rta_len = RTA_LENGTH(sizeof(p));
			memcpy(RTA_DATA(a), &p, sizeof(p));
			plen += RTA_ALIGN(a->rta_len);
		}
		h->nlmsg_len = NLMSG_LENGTH(plen);
		h->nlmsg_type = SOCK_DIAG_BY_FAMILY;
		len += NLMSG_ALIGN(h->nlmsg_len);
	}
	{
		struct nlmsghdr *h = (struct nlmsghdr *)(buf + len);

		h->nlmsg_len = NLMSG_LENGTH(sizeof(int));
		h->nlmsg_type = NLMSG_DONE;
		len += NLMSG_ALIGN(h->nlmsg_len);
	}
	return len;
}

static void test_diag(void)
{
	char buf[1024];
	size_t len = diag_reply(buf, sizeof(buf)), n = 0;
	struct waitpeer_pair pairs[4];

	EQ_INT(waitpeer_unix_diag(buf, len, pairs, &n, 4), 1, "sock_diag: read to NLMSG_DONE");
	EQ_INT((int)n, 2, "... two sockets with a peer");
	OK(n == 2 && pairs[0].ino == 6001 && pairs[0].peer == 6002 &&
	   pairs[1].ino == 6002 && pairs[1].peer == 6001, "... each with its peer");
	n = 0;
	EQ_INT(waitpeer_unix_diag(buf, len / 2, pairs, &n, 4), 0,
	       "a reply cut short: more to come");
	n = 0;
	EQ_INT(waitpeer_unix_diag(buf, len, pairs, &n, 1), 1, "room for one: no overflow");
	EQ_INT((int)n, 1, "... one kept");
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

static void test_file(void)
{
	struct waitpeer_edge keys[4];
	double sec[4] = { 1.5, 0.5, 2.5, 0 };
	struct waitedge_row *rows = NULL, *back = NULL;
	long n;
	size_t len, bad = 9;
	char buf[2048], name[64];

	memset(keys, 0, sizeof(keys));
	for (int i = 0; i < 4; i++) {
		keys[i].pid = 100;
		strcpy(keys[i].comm, "rsync");
		keys[i].kind = PEER_TCP;
		keys[i].dir = PEER_IN;
		keys[i].peer_pid = 400;
		strcpy(keys[i].peer_comm, "sshd");
		snprintf(keys[i].local, sizeof(keys[i].local), "127.0.0.1:%d", 40000 + i);
		strcpy(keys[i].remote, "127.0.0.1:22");
	}
	strcpy(keys[0].peer_comm, "sh");	/* before it exec'ed sshd */
	keys[2].kind = PEER_NET;
	keys[2].peer_pid = 0;
	strcpy(keys[2].peer_comm, "eth0");
	strcpy(keys[2].remote, "[2001:db8::9]:22");
	n = waitedges_rows(sec, 4, keys, 4, &rows);
	EQ_INT((int)n, 2, "rows: two sockets to one peer summed, the net one apart");
	OK(n == 2 && rows[0].e.kind == PEER_NET && rows[0].seconds == 2.5,
	   "... the busiest first");
	OK(n == 2 && rows[1].seconds == 2.0 && !strcmp(rows[1].e.local, "127.0.0.1:40000"),
	   "... 1.5 + 0.5 s, shown with the busier socket's addresses");
	OK(n == 2 && !strcmp(rows[1].e.peer_comm, "sshd"),
	   "... the peer by its pid, named as last seen (sh exec'ed sshd)");
	len = waitedges_format(rows, (size_t)n, buf, sizeof(buf));
	OK(len < sizeof(buf) &&
	   !strncmp(buf, "pid\tcomm\tdir\tkind\tpeer_pid\tpeer_comm\tlocal\tremote\tseconds\tbytes\n", 63),
	   "the file's header");
	OK(strstr(buf, "\n100\trsync\tin\ttcp\t400\tsshd\t127.0.0.1:40000\t127.0.0.1:22\t2.000\t-\n") != NULL,
	   "a tcp row");
	OK(strstr(buf, "\n100\trsync\tin\tnet\t0\teth0\t127.0.0.1:40002\t[2001:db8::9]:22\t2.500\t-\n") != NULL,
	   "a net row: the interface as peer_comm");
	snprintf(buf + len, sizeof(buf) - len,
		 "1\tx\tsideways\tpipe\t0\t-\t-\t-\t1.000\t0\n"
		 "2\tcat\tout\tpipe\t0\t-\t-\t-\t0.250\t0");
	EQ_INT((int)waitedges_parse(buf, strlen(buf), &back, &bad, NULL), 3,
	       "parsed back, an unended last line too");
	EQ_INT((int)bad, 1, "... a bad direction counted");
	OK(back && back[2].e.pid == 2 && back[2].e.kind == PEER_PIPE &&
	   back[2].e.dir == PEER_OUT && back[2].e.peer_comm[0] == '\0' &&
	   back[2].seconds == 0.25, "... '-' read as unknown");
	OK(back && isnan(back[0].bytes) && isnan(back[2].bytes),
	   "... bytes: '-' and the first files' 0 read as not measured");
	free(back);
	snprintf(buf, sizeof(buf), "%s", "pid\tcomm\tdir\tkind\tpeer_pid\tpeer_comm\tlocal\tremote\tseconds\tbytes\n"
		 "3\tcat\tout\tpipe\t4\tgzip\t-\t-\t0.500\t4096\n"
		 "3\tcat\tout\tpipe\t5\tgzip\t-\t-\t0.500\t4k\n");
	EQ_INT((int)waitedges_parse(buf, strlen(buf), &back, &bad, NULL), 1,
	       "bytes: a count read back, a word refused");
	OK(back && back[0].bytes == 4096, "... 4096");
	len = waitedges_format(back, 1, buf, sizeof(buf));
	OK(strstr(buf, "\t0.500\t4096\n") != NULL, "... and written again");
	free(back);
	EQ_INT((int)waitedges_parse("tid\tx\n", 6, &back, NULL, NULL), -1, "not our header: refused");
	EQ_INT(waitedges_name("waits-rs-2.tsv", name, sizeof(name)), 0, "the file's name");
	EQ_STR(name, "edges-rs-2.tsv", "... from the waits file's");
	EQ_INT(waitedges_name("figures-rs.tsv", name, sizeof(name)), -1, "... only from a waits file");
	/* the interfaces the rows went through (issue 29: a session's
	 * network chart draws only them): the net row's, lo for the tcp */
	EQ_INT((int)waitedges_ifaces(rows, (size_t)n, name, sizeof(name)), 2,
	       "interfaces: two");
	EQ_STR(name, "eth0,lo", "... the net row's, and lo for a local tcp peer");
	rows[1].e.kind = PEER_UNIX;
	EQ_INT((int)waitedges_ifaces(rows, (size_t)n, name, sizeof(name)), 1,
	       "interfaces: an AF_UNIX socket goes through none");
	rows[0].e.kind = PEER_PIPE;
	EQ_INT((int)waitedges_ifaces(rows, (size_t)n, name, sizeof(name)), 0,
	       "interfaces: none for pipes and local sockets (a local repository)");
	EQ_STR(name, "", "... an empty list");
	OK(!waitedges_iface("net", "-") && !waitedges_iface("net", "a,b"),
	   "interfaces: a net row whose interface was not found names none");
	free(rows);
	free(back);
}

/* A process renamed by its exec (waits_renamed adds its edges again
 * under the new name): one name for each process in every row, the
 * last it was seen under, though a row's own ids are all older. */
static void test_last_name(void)
{
	struct waitpeer_edge keys[3];
	double sec[3] = { 0.7, 0.4, 0 };
	struct waitedge_row *rows = NULL;
	long n;

	memset(keys, 0, sizeof(keys));
	keys[0].pid = 10;	/* head, seen before its exec */
	strcpy(keys[0].comm, "sh");
	keys[0].dir = PEER_OUT;
	keys[0].kind = PEER_PIPE;
	keys[0].peer_pid = 11;
	strcpy(keys[0].peer_comm, "gzip");
	keys[1] = keys[0];	/* its wait on 12, then named sh too */
	keys[1].peer_pid = 12;
	strcpy(keys[1].peer_comm, "sh");
	keys[2] = keys[1];	/* renamed: both exec'ed */
	strcpy(keys[2].comm, "head");
	strcpy(keys[2].peer_comm, "python3");
	n = waitedges_rows(sec, 3, keys, 3, &rows);
	EQ_INT((int)n, 2, "names: two rows");
	OK(n == 2 && !strcmp(rows[0].e.comm, "head") &&
	   !strcmp(rows[1].e.comm, "head"),
	   "... the waiter by its last name in both (the first row's ids "
	   "all named it sh)");
	OK(n == 2 && rows[1].e.peer_pid == 12 &&
	   !strcmp(rows[1].e.peer_comm, "python3"),
	   "... its peer too");
	OK(n == 2 && !strcmp(rows[0].e.peer_comm, "gzip"), "... gzip kept");
	free(rows);
}

/* wait4's and waitid's arguments: which child (waitactive.h) */
static void test_waited(void)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%d 0xffffffffffffffff 0x7ffd1 0x0 0x0",
		 (int)SYS_wait4);
	EQ_INT(waitactive_waited(buf), 0, "wait4(-1): any child");
	snprintf(buf, sizeof(buf), "%d 0x1f5 0x7ffd1 0x0 0x0", (int)SYS_wait4);
	EQ_INT(waitactive_waited(buf), 501, "wait4(501): that child");
	snprintf(buf, sizeof(buf), "%d 0x1 0x1f6 0x7ffd1 0x4", (int)SYS_waitid);
	EQ_INT(waitactive_waited(buf), 502, "waitid(P_PID, 502): that child");
	snprintf(buf, sizeof(buf), "%d 0x0 0x0 0x7ffd1 0x4", (int)SYS_waitid);
	EQ_INT(waitactive_waited(buf), 0, "waitid(P_ALL): any");
	snprintf(buf, sizeof(buf), "%d 0x1f5 0x0", (int)SYS_read);
	EQ_INT(waitactive_waited(buf), 0, "another call: none");
	EQ_INT(waitactive_waited("running"), 0, "running: none");
	OK(waitactive_child_call(SYS_wait4) && !waitactive_child_call(SYS_read),
	   "wait4 is a wait on children, read is not");
}

/* a shell's loop of gzips, and rsync's sender on its receiver: the waits
 * on the tree's own processes leave its split */
static void test_leave_out(void)
{
	struct waits_total th[4] = {
		{ .tid = 10, .pid = 10, .comm = "sh", .alive = 6.0,
		  .sec = { [WS_CPU] = 0.05, [WS_OTHER] = 5.95 } },
		{ .tid = 11, .pid = 11, .comm = "gzip", .alive = 1.0,
		  .sec = { [WS_CPU] = 1.0 } },
		{ .tid = 20, .pid = 20, .comm = "rsync", .alive = 4.0,
		  .sec = { [WS_CPU] = 1.0, [WS_OTHER] = 3.0 } },
		{ .tid = 21, .pid = 21, .comm = "rsync", .alive = 4.0,
		  .sec = { [WS_DISK] = 3.0, [WS_OTHER] = 1.0 } },
	};
	struct waits_totals tot = { .t = th, .n = 4, .cap = 4 };
	struct waitedge_row rows[3];

	memset(rows, 0, sizeof(rows));
	rows[0].e.pid = 10;
	rows[0].e.kind = PEER_CHILD;
	strcpy(rows[0].e.peer_comm, "gzip");
	rows[0].seconds = 5.9;
	rows[1].e.pid = 20;
	rows[1].e.kind = PEER_UNIX;
	rows[1].e.peer_pid = 21;
	rows[1].seconds = 2.5;
	rows[2].e.pid = 21;
	rows[2].e.kind = PEER_PIPE;
	rows[2].e.peer_pid = 999;	/* not of the tree: its own wait */
	rows[2].seconds = 1.0;
	waitedges_leave_out(&tot, rows, 3);
	OK(fabs(th[0].sec[WS_OTHER] - 0.05) < 1e-9 && fabs(th[0].alive - 0.1) < 1e-9,
	   "leave out: the shell's wait on its children taken from other and alive");
	OK(fabs(th[2].sec[WS_OTHER] - 0.5) < 1e-9 && fabs(th[2].alive - 1.5) < 1e-9,
	   "leave out: the sender's wait on the receiver (a process of the tree)");
	OK(th[3].sec[WS_OTHER] == 1.0 && th[3].alive == 4.0,
	   "leave out: a wait on a process outside the tree stays");
	OK(th[1].alive == 1.0, "leave out: the gzip untouched");
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

/* issue 50 item 5: a command named with a tab or a newline (a process's
 * comm can hold them) added a field to edges-LABEL.tsv, whose row the
 * report then dropped, and the waits file named it s?h: both files write
 * a name as waitrates_comm does, and read it back as one row. */
static void test_names(void)
{
	struct waitedge_row row, *back = NULL;
	struct waits_total th;
	struct waits_totals tot;
	char buf[1024], name[16];
	size_t bad = 99;
	long n;

	memset(&row, 0, sizeof(row));
	row.e.pid = 10;
	row.e.kind = PEER_PIPE;
	row.e.dir = PEER_IN;
	row.e.peer_pid = 11;
	strcpy(row.e.comm, "s\th");
	strcpy(row.e.peer_comm, "he\nad\x01");
	row.seconds = 1.5;
	row.bytes = NAN;
	waitrates_comm(name, "s\th");
	EQ_STR(name, "s?h", "names: a tab as '?'");
	waitrates_comm(name, "0123456789abcdefgh");
	EQ_STR(name, "0123456789abcde", "names: cut at 15 bytes");
	waitedges_format(&row, 1, buf, sizeof(buf));
	n = waitedges_parse(buf, strlen(buf), &back, &bad, NULL);
	EQ_INT((int)n, 1, "names: the edges row with a tab and a newline reads back");
	EQ_INT((int)bad, 0, "names: no row dropped");
	if (n == 1) {
		EQ_STR(back[0].e.comm, "s?h", "names: edges comm as the waits file writes it");
		EQ_STR(back[0].e.peer_comm, "he?ad?", "names: edges peer_comm too");
		EQ_DBL(back[0].seconds, 1.5, 0, "names: the row's seconds are its own");
	}
	free(back);
	{	/* the row as a perflog before the fix wrote it: the tab a
		 * field of its own; the reader says which line it skipped */
		size_t first = 99;

		snprintf(buf, sizeof(buf), "%s",
			 "pid\tcomm\tdir\tkind\tpeer_pid\tpeer_comm\tlocal\tremote\tseconds\tbytes\n"
			 "3\tcat\tout\tpipe\t4\tgzip\t-\t-\t0.500\t-\n"
			 "10\ts\th\tin\tpipe\t11\the?ad\t-\t-\t1.500\t-\n"
			 "3\tcat\tin\tpipe\t10\ts\th\t-\t-\t0.250\t-\n");
		n = waitedges_parse(buf, strlen(buf), &back, &bad, &first);
		EQ_INT((int)n, 1, "names: an old file's rows with a raw tab are skipped");
		EQ_INT((int)bad, 2, "... two lines");
		EQ_INT((int)first, 3, "... the first of them line 3");
		free(back);
		n = waitedges_parse(buf, 98, &back, &bad, &first);
		EQ_INT((int)(n * 10 + (long)first), 10, "... none skipped: line 0");
		free(back);
	}
	memset(&th, 0, sizeof(th));
	memset(&tot, 0, sizeof(tot));
	th.tid = th.pid = 10;
	th.alive = 1;
	th.sec[WS_OTHER] = 1;
	strcpy(th.comm, "s\th");
	tot.t = &th;
	tot.n = 1;
	waitrates_format(&tot, buf, sizeof(buf));
	OK(strstr(buf, "\n10\ts?h\t") != NULL, "names: the waits file's comm is the same");
}

int main(void)
{
	char cmd[128];

	make_root();
	test_parsers();
	test_diag();
	test_resolve();
	test_file();
	test_last_name();
	test_waited();
	test_leave_out();
	test_many_ns();
	test_names();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (root[0] && system(cmd) != 0)
		printf("# could not remove %s\n", root);
	return done_testing();
}
