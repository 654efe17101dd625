/*
 * waittcp.c - TCP connections' tcp_info through sock_diag (waittcp.h).
 * One dump a family (inet_diag_req_v2 with INET_DIAG_INFO asked), read
 * until NLMSG_DONE, bounded in time as the AF_UNIX dump of waitpeer.c
 * is. The kernel sends as much of struct tcp_info as it knows: a field
 * is read only when the attribute reaches past its end, so an older
 * kernel's shorter struct leaves the newer figures unknown, never
 * garbage.
 */
#define _GNU_SOURCE
#include "waittcp.h"

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
#include <sys/time.h>
#include <unistd.h>

#include "../common/util.h"

/* the attribute holds field f of struct tcp_info whole */
#define HAS(len, f) ((len) >= offsetof(struct tcp_info, f) + \
		     sizeof(((struct tcp_info *)0)->f))

static void info_of(const void *p, size_t len, struct waittcp *t)
{
	struct tcp_info ti;

	memset(&ti, 0, sizeof(ti));
	memcpy(&ti, p, len < sizeof(ti) ? len : sizeof(ti));
	if (!HAS(len, tcpi_total_retrans))
		return;
	t->have_info = 1;
	t->rtt_ms = ti.tcpi_rtt / 1000.0;
	t->total_retrans = ti.tcpi_total_retrans;
	if (HAS(len, tcpi_bytes_received)) {
		t->bytes_acked = ti.tcpi_bytes_acked;
		t->bytes_received = ti.tcpi_bytes_received;
	}
	if (HAS(len, tcpi_delivery_rate))
		t->delivery_rate = ti.tcpi_delivery_rate;
	if (HAS(len, tcpi_sndbuf_limited)) {
		t->have_limits = 1;
		t->busy_us = ti.tcpi_busy_time;
		t->rwnd_limited_us = ti.tcpi_rwnd_limited;
		t->sndbuf_limited_us = ti.tcpi_sndbuf_limited;
	}
}

static int one(const struct nlmsghdr *h, struct waittcp *t)
{
	const struct inet_diag_msg *m = NLMSG_DATA(h);
	size_t len = h->nlmsg_len;

	if (len < NLMSG_LENGTH(sizeof(*m)))
		return -1;
	memset(t, 0, sizeof(*t));
	t->family = m->idiag_family;
	t->state = m->idiag_state;
	t->sport = ntohs(m->id.idiag_sport);
	t->dport = ntohs(m->id.idiag_dport);
	memcpy(t->src, m->id.idiag_src, sizeof(t->src));
	memcpy(t->dst, m->id.idiag_dst, sizeof(t->dst));
	t->inode = m->idiag_inode;
	size_t left = len - NLMSG_LENGTH(sizeof(*m));
	const struct rtattr *a = (const struct rtattr *)((const char *)m +
		NLMSG_ALIGN(sizeof(*m)));
	for (; RTA_OK(a, left); a = RTA_NEXT(a, left))
		if (a->rta_type == INET_DIAG_INFO)
			info_of(RTA_DATA(a), RTA_PAYLOAD(a), t);
	return 0;
}

int waittcp_parse(const void *buf, size_t len, struct waittcp *out,
		  size_t *n, size_t cap)
{
	const struct nlmsghdr *h = buf;
	size_t left = len;

	for (; NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR)
			return -1;
		if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY)
			continue;
		if (*n >= cap)
			continue;	/* past cap: the caller grows for the most
					 * a datagram holds first */
		if (one(h, &out[*n]) < 0)
			return -1;
		(*n)++;
	}
	/* a message cut short is malformed; an empty rest is the end of
	 * this datagram */
	return left == 0 ? 0 : -1;
}

static long dump_family(int family, uint32_t states, struct waittcp **rows,
			size_t *n, size_t *cap)
{
	struct {
		struct nlmsghdr h;
		struct inet_diag_req_v2 r;
	} req = {
		.h = { .nlmsg_len = sizeof(req), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.r = { .sdiag_family = (unsigned char)family,
		       .sdiag_protocol = IPPROTO_TCP,
		       .idiag_ext = 1u << (INET_DIAG_INFO - 1),
		       .idiag_states = states },
	};
	static char buf[65536];
	struct timeval tv = { 0, 200000 };
	int s, done = 0;

	s = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (s < 0)
		return -1;
	/* the kernel answers at once; the bound is against a surprise */
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (send(s, &req, sizeof(req), 0) != (ssize_t)sizeof(req)) {
		close(s);
		return -1;
	}
	while (!done) {
		ssize_t r = recv(s, buf, sizeof(buf), 0);
		/* a message is at least a header and an inet_diag_msg */
		size_t most = r > 0 ? (size_t)r / NLMSG_LENGTH(sizeof(struct inet_diag_msg)) : 0;
		if (r <= 0 || util_grow(rows, cap, *n + most + 1, sizeof(**rows)) < 0)
			break;
		done = waittcp_parse(buf, (size_t)r, *rows, n, *cap);
	}
	close(s);
	return done == 1 ? 0 : -1;
}

long waittcp_dump_states(struct waittcp **rows, uint32_t states)
{
	size_t n = 0, cap = 0;

	*rows = NULL;
	int v4 = dump_family(AF_INET, states, rows, &n, &cap);
	int v6 = dump_family(AF_INET6, states, rows, &n, &cap);
	if (v4 < 0 && v6 < 0) {
		free(*rows);
		*rows = NULL;
		return -1;
	}
	return (long)n;
}

long waittcp_dump(struct waittcp **rows)
{
	return waittcp_dump_states(rows, ~((1u << WAITTCP_LISTEN) |
					   (1u << WAITTCP_CLOSE)));
}

const char *waittcp_limit(const struct waittcp *t, double *share)
{
	if (!t->have_limits || !t->busy_us)
		return NULL;
	double busy = (double)t->busy_us, rwnd = (double)t->rwnd_limited_us,
	       sndbuf = (double)t->sndbuf_limited_us;
	double net = busy - rwnd - sndbuf;

	if (net < 0)
		net = 0;
	if (rwnd >= sndbuf && rwnd >= net) {
		*share = rwnd / busy;
		return "receiver";
	}
	if (sndbuf >= net) {
		*share = sndbuf / busy;
		return "sender";
	}
	*share = net / busy;
	return "network";
}
