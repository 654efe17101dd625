/*
 * conn_sessions.h - a server's client connections as sessions (issue 47,
 * a night at the server), with no perflog on the clients. With `[server]
 * daemons = sshd rsync ...` in the settings, each connection a daemon of
 * those names serves (conn_procs.h: held by one of its processes, on a
 * port one of them listens on) is a session of its own in the log set:
 *
 *   begin  when a sample first sees it (stamped with its process's start
 *          when that is later than the previous sample): its label
 *          DAEMON-HOST-PORT (the peer's name from ROOT/etc/hosts, never
 *          asked of DNS, else its address; its port), the peer's address,
 *          port and name, the daemon
 *   tree   the connection's own process (the topmost holding its socket;
 *          one first seen in the listener's hands, sshd's between its
 *          accept and its fork, gets it at a later sample) and what runs
 *          under it (sshd's child, then
 *          sftp-server, rsync, borg serve) is watched as Process(LABEL)
 *          with its wait states, as `perflog mark --watch PID` would: the
 *          session's waits-LABEL.tsv and edges-LABEL.tsv; a connection the
 *          listener serves itself (rest-server) has none
 *   end    at the first sample without it (or with the kernel's record of
 *          its end, waits/waittcp.h): the bytes each way, the kernel's
 *          tcp_info (round trip, retransmissions, delivery rate, busy
 *          time and of it the receiver's window and the send buffer, who
 *          limited the flow), its process (conn.pid, or conn.tree=socket
 *          when none), the commands its tree ran, its wait-state
 *          fields, and the session of a client that ran `perflog run
 *          --server` from the same address over the same span
 *
 * man/perftest.pml.5 and man/perflog-logset.5 list the markers' fields.
 * Called by the loop's sample (collector.c take_sample): before the
 * watched trees' part (a new connection's tree logs its zero row in the
 * same sample, as a watch request's does) and after it (an ended one's
 * tree gives its last figures, then its totals). The collector's stop
 * ends the sessions still open.
 */
#ifndef PERFLOG_CONN_SESSIONS_H
#define PERFLOG_CONN_SESSIONS_H

#include <stddef.h>

struct collector;

/* Find the connections at this sample (a no-op without daemons). */
void conn_sessions_sample(struct collector *c);
/* After the watched trees' part of the sample: end the sessions whose
 * connection ended, with their trees' wait states. */
void conn_sessions_after(struct collector *c);
/* The stop: every session still open ended at stop, the last sample's
 * time ("still open when the collector stopped"), everything freed. */
void conn_sessions_close(struct collector *c, double stop);

/* conn_host.c: the name ROOT/etc/hosts gives the address (family
 * AF_INET or AF_INET6, addr its bytes) into out; 0, or -1 when none. No
 * resolver is asked: a server's collector sends no query anywhere. */
int conn_host_name(const char *root, int family, const void *addr,
		   char *out, size_t n);

#endif
