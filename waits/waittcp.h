/*
 * waittcp.h - the kernel's own account of a TCP connection (issue 47):
 * its struct tcp_info through sock_diag (inet_diag with INET_DIAG_INFO,
 * what `ss -ti` prints), in one dump of a network namespace's TCP
 * sockets: bytes each way, the round trip, retransmissions, the delivery
 * rate, and who limited the flow while it had data to send (busy time,
 * of it limited by the receiver's window or by the send buffer; the rest
 * by the network: its congestion window, the path).
 *
 *   waittcp_parse   one buffer of inet_diag replies (pure)
 *   waittcp_dump    every TCP socket of this namespace, both families
 *   waittcp_dump_states  the same for the states asked (the listening
 *                   sockets)
 *   waittcp_limit   who limited a connection's flow, and its share
 *   waittcp_events_open, waittcp_events_read (waittcp_events.c)
 *                   the kernel's last record of each TCP socket destroyed
 *                   in this namespace: its final figures
 */
#ifndef PERFLOG_WAITTCP_H
#define PERFLOG_WAITTCP_H

#include <stddef.h>
#include <stdint.h>

/* The kernel's TCP states used here (its enum in net/tcp_states.h; no
 * uapi header names them) */
#define WAITTCP_TIME_WAIT 6	/* a remnant, no longer the connection */
#define WAITTCP_CLOSE 7
#define WAITTCP_LISTEN 10

struct waittcp {
	int family;			/* AF_INET, AF_INET6 */
	unsigned char src[16], dst[16];	/* addresses (v4: first 4 bytes) */
	uint16_t sport, dport;		/* host order */
	unsigned long inode;
	uint8_t state;			/* TCP_ESTABLISHED ... */
	/* from tcp_info; have_limits 0: a kernel before 4.9 (no busy,
	 * rwnd_limited, sndbuf_limited) or a reply cut short */
	int have_info, have_limits;
	double rtt_ms;
	uint32_t total_retrans;
	uint64_t bytes_acked, bytes_received;
	uint64_t delivery_rate;		/* bytes a second */
	uint64_t busy_us, rwnd_limited_us, sndbuf_limited_us;
};

/* The rows of one buffer of replies appended to out (*n of cap): 1 when
 * the dump's end (NLMSG_DONE) is in it, 0 when more is to come, -1 for
 * an error reply or a malformed message (the rows before it kept). */
int waittcp_parse(const void *buf, size_t len, struct waittcp *out,
		  size_t *n, size_t cap);

/* Every TCP socket of this network namespace (IPv4 and IPv6) into *rows
 * (malloc'ed): their count, or -1 when sock_diag cannot be asked. */
long waittcp_dump(struct waittcp **rows);

/* The same for the sockets whose state is in the mask states (bit
 * 1 << TCP_LISTEN ...; linux/tcp.h's TCP_ESTABLISHED = 1 ...). */
long waittcp_dump_states(struct waittcp **rows, uint32_t states);

/* sock_diag's destroy groups (what `ss -E` listens to): the kernel sends
 * each TCP socket's diag record, tcp_info included, when the socket is
 * freed, so a connection's final bytes are known however short it was
 * and whenever it ended between two dumps. waittcp_events_open: a
 * non-blocking socket subscribed for IPv4 and IPv6 in this network
 * namespace, or -1 with errno (EPERM: it needs CAP_NET_ADMIN there).
 * waittcp_events_read: every record queued, appended to *rows (*n of
 * *cap, grown as util_grow does): how many, or -1 with errno; *lost is
 * set when the kernel dropped records (its queue overflowed). */
int waittcp_events_open(void);
long waittcp_events_read(int fd, struct waittcp **rows, size_t *n,
			 size_t *cap, int *lost);

/* Who limited the flow of t while it had data to send: "receiver" (its
 * window: the far end reads slowly), "sender" (the send buffer: the
 * sending process or its buffer size), "network" (the rest of the busy
 * time: the congestion window, the path); NULL when the kernel gave no
 * such figures or the connection never had data to send. *share: that
 * part's share 0..1 of the busy time. */
const char *waittcp_limit(const struct waittcp *t, double *share);

#endif
