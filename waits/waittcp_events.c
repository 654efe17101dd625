/*
 * waittcp_events.c - the kernel's last record of each TCP socket freed
 * in this network namespace (waittcp.h): sock_diag's destroy groups
 * (SKNLGRP_INET_TCP_DESTROY, SKNLGRP_INET6_TCP_DESTROY; `ss -E`). The
 * record is the dump's (inet_diag_msg with INET_DIAG_INFO: struct
 * tcp_info as the socket ended), sent when the socket is freed, after
 * its last byte was acknowledged or it was reset; its inode is 0 by then
 * (no file holds it), so it is matched by its addresses and ports.
 *
 * A connection that came and went between two dumps is in these records
 * and nowhere else: the kernel keeps no freed socket (a TIME_WAIT
 * remnant has no tcp_info). Subscribing needs CAP_NET_ADMIN in the
 * namespace's user namespace; without it the caller has the dumps only.
 */
#define _GNU_SOURCE
#include "waittcp.h"

#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../common/util.h"

int waittcp_events_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int groups[] = { SKNLGRP_INET_TCP_DESTROY, SKNLGRP_INET6_TCP_DESTROY };
	int rcv = 4 << 20;	/* a night's burst of ends, not dropped */
	int s = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		       NETLINK_SOCK_DIAG);

	if (s < 0)
		return -1;
	if (setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &rcv, sizeof(rcv)) < 0)
		setsockopt(s, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	if (bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto fail;
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (setsockopt(s, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
			       &groups[i], sizeof(groups[i])) < 0)
			goto fail;
	return s;
fail:;
	int err = errno;

	close(s);
	errno = err;
	return -1;
}

long waittcp_events_read(int fd, struct waittcp **rows, size_t *n,
			 size_t *cap, int *lost)
{
	static char buf[65536];
	long got = 0;

	for (;;) {
		ssize_t r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == ENOBUFS) {
			*lost = 1;	/* the queue overflowed: go on */
			continue;
		}
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return got;
		if (r <= 0)
			return r < 0 ? -1 : got;
		size_t most = (size_t)r / NLMSG_LENGTH(sizeof(struct inet_diag_msg));
		size_t before = *n;

		if (util_grow(rows, cap, *n + most + 1, sizeof(**rows)) < 0)
			return -1;
		/* a malformed record is skipped with the rest of its
		 * datagram; the records before it are kept */
		waittcp_parse(buf, (size_t)r, *rows, n, *cap);
		got += (long)(*n - before);
	}
}
