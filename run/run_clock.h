/*
 * run_clock.h - the arithmetic of `perflog run --server` (pure, for
 * tests/unit/test_run_clock.c): the offset of a remote collector's clock,
 * the connect timeout an ssh command line sets, and the marker keys of
 * the Nth server.
 *
 * One round trip: the local clock t1 when the "ping" is sent, the remote
 * collector's stamp tr, the local clock t4 when its "pong" is read. With
 * NTP's arithmetic for one remote stamp (RFC 5905 section 8 with T2 = T3):
 *   offset = tr - (t1 + t4) / 2     remote minus local
 *   rtt    = t4 - t1
 * The error of one sample is at most rtt / 2 (the stamp lies somewhere in
 * the round trip); the sample of smallest rtt is kept, as chrony's filter
 * does, since the longer ones waited in a queue on one leg or the other.
 */
#ifndef PERFLOG_RUN_CLOCK_H
#define PERFLOG_RUN_CLOCK_H

#include <stddef.h>

struct clock_sample {
	double t1;	/* local clock, request sent */
	double tr;	/* the remote collector's clock, in between */
	double t4;	/* local clock, reply read */
};

struct clock_fit {
	double offset;	/* remote minus local, seconds */
	double rtt;	/* the kept sample's round trip, seconds */
	size_t used;	/* the samples that were sane (t4 >= t1) */
};

/* The best of n samples (smallest rtt). Returns 0, or -1 when none is
 * sane (t4 < t1, or not finite). */
int clock_best(const struct clock_sample *v, size_t n, struct clock_fit *out);

/* Seconds of "-o ConnectTimeout=N" (or -oConnectTimeout=N,
 * "ConnectTimeout N", any case) in an ssh command line; dflt when absent
 * or not a positive number. */
double clock_connect_timeout(const char *ssh, double dflt);

/* The marker key of server k (1-based) for field ("peer", "offset",
 * "rtt", "error"): "peer", "offset", "rtt", "peer.error" for the first;
 * "peer.2", "offset.2", "rtt.2", "peer.2.error" for the second ... */
void clock_key(char *out, size_t n, size_t k, const char *field);

#endif
