/*
 * test_waitpeer_parse.c - the pure parsers of the far ends of waits
 * (waits/waitpeer.h, waitactive.h), fed crafted text and buffers, no
 * /proc and no kernel behind them: /proc/net/tcp{,6} and udp lines and
 * their mirrors, fib_trie, if_inet6, route, link texts, a sock_diag
 * reply, wait4's and waitid's arguments. Split from test_waitpeer.c at
 * its seam (the parsers, not the resolver).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "../../waits/waitactive.h"
#include "../../waits/waitpeer.h"
#include "tap.h"
#include "waitpeertab.h"

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

int main(void)
{
	test_parsers();
	test_diag();
	test_waited();
	return done_testing();
}
