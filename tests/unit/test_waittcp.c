/*
 * test_waittcp.c - waits/waittcp.h: crafted sock_diag replies (two
 * connections, a tcp_info cut short as an older kernel sends it, an
 * error reply, a message cut mid-way, the dump's end) and who limited a
 * flow; then a real loopback connection in the kernel's dump, its bytes
 * acknowledged counted.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../waits/waitstates.h"
#include "tap.h"

/* One reply message into buf at *off: a connection sport -> dport whose
 * tcp_info is the first info_len bytes of ti (0: no attribute). */
static void put_msg(char *buf, size_t *off, uint16_t sport, uint16_t dport,
		    const struct tcp_info *ti, size_t info_len)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(buf + *off);
	struct inet_diag_msg *m = NLMSG_DATA(h);
	size_t len = NLMSG_LENGTH(sizeof(*m));

	memset(h, 0, NLMSG_SPACE(sizeof(*m)) + RTA_SPACE(sizeof(*ti)));
	m->idiag_family = AF_INET;
	m->idiag_state = 1;	/* TCP_ESTABLISHED */
	m->id.idiag_sport = htons(sport);
	m->id.idiag_dport = htons(dport);
	m->id.idiag_src[0] = htonl(0x7f000001);
	m->idiag_inode = 4242 + sport;
	if (info_len) {
		struct rtattr *a = (struct rtattr *)((char *)m + NLMSG_ALIGN(sizeof(*m)));
		a->rta_type = INET_DIAG_INFO;
		a->rta_len = (unsigned short)RTA_LENGTH(info_len);
		memcpy(RTA_DATA(a), ti, info_len);
		len = NLMSG_ALIGN(len) + RTA_ALIGN(a->rta_len);
	}
	h->nlmsg_len = (unsigned)len;
	h->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	*off += NLMSG_ALIGN(len);
}

static void put_type(char *buf, size_t *off, int type)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(buf + *off);

	memset(h, 0, NLMSG_SPACE(sizeof(int)));
	h->nlmsg_len = NLMSG_LENGTH(sizeof(int));
	h->nlmsg_type = (unsigned short)type;
	*off += NLMSG_SPACE(sizeof(int));
}

static void crafted(void)
{
	static char buf[8192];
	struct waittcp t[8];
	struct tcp_info ti;
	size_t off = 0, n = 0;

	memset(&ti, 0, sizeof(ti));
	ti.tcpi_rtt = 25000;		/* 25 ms */
	ti.tcpi_total_retrans = 7;
	ti.tcpi_bytes_acked = 40000000;
	ti.tcpi_delivery_rate = 5000000;
	ti.tcpi_busy_time = 10000000;	/* 10 s sending */
	ti.tcpi_rwnd_limited = 8000000;	/* 8 of them on the receiver */
	ti.tcpi_sndbuf_limited = 500000;
	put_msg(buf, &off, 40000, 22, &ti, sizeof(ti));
	/* an older kernel's struct: up to tcpi_total_retrans only */
	put_msg(buf, &off, 40001, 22, &ti,
		offsetof(struct tcp_info, tcpi_total_retrans) + sizeof(ti.tcpi_total_retrans));
	put_msg(buf, &off, 40002, 22, &ti, 0);
	EQ_INT(waittcp_parse(buf, off, t, &n, 8), 0, "three messages, no end yet: more to come");
	EQ_INT((int)n, 3, "three connections");
	EQ_INT(t[0].sport, 40000, "the source port, host order");
	EQ_INT(t[0].dport, 22, "the destination port");
	EQ_INT((int)t[0].inode, 4242 + 40000, "the inode");
	EQ_DBL(t[0].rtt_ms, 25.0, 1e-9, "the round trip in ms");
	EQ_INT((int)t[0].total_retrans, 7, "retransmissions");
	OK(t[0].bytes_acked == 40000000 && t[0].delivery_rate == 5000000,
	   "bytes acknowledged and the delivery rate");
	OK(t[0].have_limits && t[0].busy_us == 10000000 &&
	   t[0].rwnd_limited_us == 8000000, "busy time and the receiver's share");
	double share = 0;
	const char *who = waittcp_limit(&t[0], &share);
	EQ_STR(who ? who : "(null)", "receiver", "8 of 10 s on the receiver's window: the receiver");
	EQ_DBL(share, 0.8, 1e-9, "... 80% of the busy time");
	OK(t[1].have_info && !t[1].have_limits && t[1].bytes_acked == 0,
	   "a shorter tcp_info: the figures it has, none it has not");
	OK(waittcp_limit(&t[1], &share) == NULL, "... and no limit named");
	OK(!t[2].have_info, "no tcp_info attribute: no figures");

	/* the send buffer, then the network */
	t[0].rwnd_limited_us = 0;
	t[0].sndbuf_limited_us = 6000000;
	EQ_STR(waittcp_limit(&t[0], &share), "sender", "6 of 10 s on the send buffer: the sender");
	t[0].sndbuf_limited_us = 1000000;
	EQ_STR(waittcp_limit(&t[0], &share), "network", "9 of 10 s limited by neither: the network");
	EQ_DBL(share, 0.9, 1e-9, "... 90%");

	off = 0;
	n = 0;
	put_msg(buf, &off, 40003, 22, &ti, sizeof(ti));
	put_type(buf, &off, NLMSG_DONE);
	EQ_INT(waittcp_parse(buf, off, t, &n, 8), 1, "the dump's end");
	EQ_INT((int)n, 1, "... after its one connection");
	off = 0;
	n = 0;
	put_type(buf, &off, NLMSG_ERROR);
	EQ_INT(waittcp_parse(buf, off, t, &n, 8), -1, "an error reply");
	off = 0;
	n = 0;
	put_msg(buf, &off, 40004, 22, &ti, sizeof(ti));
	EQ_INT(waittcp_parse(buf, off - 9, t, &n, 8), -1, "a message cut short: malformed");
	EQ_INT((int)n, 0, "... and no row of it");
	off = 0;
	n = 0;
	for (int i = 0; i < 4; i++)
		put_msg(buf, &off, (uint16_t)(41000 + i), 22, &ti, sizeof(ti));
	EQ_INT(waittcp_parse(buf, off, t, &n, 2), 0, "more messages than room");
	EQ_INT((int)n, 2, "... the rows that fit");
}

/* A loopback connection: 1 MB sent and read; the kernel's dump has it,
 * both ends, with the bytes acknowledged. */
static void live(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (l < 0 || c < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(l, 1) < 0 || getsockname(l, (struct sockaddr *)&a, &al) < 0 ||
	    connect(c, (struct sockaddr *)&a, sizeof(a)) < 0) {
		OK(0, "a loopback connection");
		return;
	}
	int s = accept(l, NULL, NULL);
	static char data[65536];
	size_t sent = 0, got = 0;
	while (sent < 1000000) {
		ssize_t w = write(c, data, sizeof(data));
		if (w <= 0)
			break;
		sent += (size_t)w;
		while (got < sent) {
			ssize_t r = read(s, data, sizeof(data));
			if (r <= 0)
				break;
			got += (size_t)r;
		}
	}
	OK(got == sent && sent >= 1000000, "1 MB over loopback");
	struct sockaddr_in me;
	socklen_t ml = sizeof(me);
	getsockname(c, (struct sockaddr *)&me, &ml);
	struct waittcp *rows;
	long n = waittcp_dump(&rows);
	OK(n >= 2, "the kernel's dump has rows");
	const struct waittcp *mine = NULL;
	for (long i = 0; i < n; i++)
		if (rows[i].family == AF_INET && rows[i].sport == ntohs(me.sin_port) &&
		    rows[i].dport == ntohs(a.sin_port))
			mine = &rows[i];
	OK(mine != NULL, "the sender's end found by its ports");
	if (mine) {
		OK(mine->have_info, "with its tcp_info");
		AT_LEAST((double)mine->bytes_acked, (double)sent, (double)sent,
			 "its bytes acknowledged: all that was sent");
		/* the busy time itself may be 0 over loopback: 1 MB is sent
		 * in well under its tick (1 run of 2 in make check) */
		OK(mine->have_limits, "the limits' figures (kernel 4.9 and later)");
	}
	free(rows);
	close(s);
	close(c);
	close(l);
}

int main(void)
{
	crafted();
	live();
	return done_testing();
}
