/*
 * report_hosts.h - the verdict across hosts (`perflog report CLIENT
 * --with SERVER...`), kept pure like report_rules.h: each host's figures,
 * its watched process's wait states and its own one-host verdict in, one
 * line out. The rules in prose are in report/README.md, "The verdict
 * across hosts"; report_hosts_of.c fills the sides from the log sets.
 */
#ifndef PERFLOG_REPORT_HOSTS_H
#define PERFLOG_REPORT_HOSTS_H

#include <stddef.h>

#include "report_rules.h"

/* The retransmission rate (segments/s, average) at which the network
 * between two hosts is named even with its links not full, when the
 * client waited on its socket: a lossy path. */
#define REPORT_HOSTS_RETRANS 50.0

/* One host's side of a session. */
struct report_host_side {
	const char *host;			/* its perflog.meta host */
	const struct report_figures *f;		/* its figures over the session */
	const struct report_waits *w;		/* the client's wait states, or the
						   server's receiver's (mark
						   --watch); NULL or !have: none */
	const struct report_verdict *v;		/* its own verdict (report_judge
						   on f and w) */
};

/* Judge a session along the data path: the client's source disk and its
 * CPU (its own verdict names a resource of its host), the network between
 * it and a server (a link full at either end, a lossy path, or both ends
 * waiting on their sockets), each server's receiver and resources in
 * order (its own verdict), else nothing. out->line is "Bottleneck: WORD
 * on HOST: ..." for one host's resource, "Bottleneck: network between
 * CLIENT and SERVER: ..." for the path, "Bottleneck: nothing ..." when no
 * host shows one; host receives the host named ("" for the network or
 * nothing), peer the server the network verdict names (""). */
void report_hosts_judge(const struct report_host_side *client,
			const struct report_host_side *servers, size_t n,
			struct report_verdict *out, char *host, size_t hostn,
			char *peer, size_t peern);

/* The share (percent) of wait state st (WS_CPU counts running and CPU
 * wait) in w as its table prints it (report_waits_shares: the working
 * threads', other included); NAN without. */
double report_hosts_wait_share(const struct report_waits *w, int st);

/* A server's one-host line speaks of its watched process as the rules
 * speak of "the client": here it is the receiver. in rewritten into out
 * ("the client's " -> "the receiver's ", "the client " -> "the
 * receiver "), cut at n. in and out must not overlap. */
void report_hosts_receiver(const char *in, char *out, size_t n);

#endif
