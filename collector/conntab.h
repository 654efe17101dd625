/*
 * conntab.h - the connections a server's daemons serve, from one sample
 * to the next (issue 47, a night at the server): which began, which
 * ended, and the kernel's figures of each (waits/waittcp.h: bytes each
 * way, round trip, retransmissions, delivery rate, who limited the flow).
 * Pure: the caller hands it what the kernel and /proc said at a sample
 * (conn_procs.h for who holds a socket, waittcp_dump for the sockets,
 * waittcp_events_read for those freed since), conn_sessions.c turns its
 * answer into sessions.
 *
 * A connection is known by its addresses and ports. It begins when a
 * dump first shows it held by a served process (conn_seen.served); it is
 * followed in every dump that lists it, held or not (a socket its
 * process closed lingers in LAST_ACK or FIN_WAIT with its figures); it
 * ends at the first dump without it, with the kernel's last record of it
 * (its final bytes) when that came. The record of a socket freed just
 * after a dump may come a moment later, so a connection gone from a
 * dump with no record yet is held one step, stamped with the time it was
 * first missed. A record of a connection never seen in a dump whose
 * local port is a served one came and went between two samples: it gets
 * its session all the same (begin: the previous dump, the earliest it
 * can have begun; `between`). Records of connections ended within
 * RECENT_S are not taken for new ones (an orphaned FIN_WAIT2 socket is
 * freed up to tcp_fin_timeout, 60 s, after its process let it go).
 */
#ifndef PERFLOG_CONNTAB_H
#define PERFLOG_CONNTAB_H

#include <stddef.h>
#include <sys/types.h>

#include "../waits/waitstates.h"

#define CONN_CMDS 128		/* the commands under a root at a sample */
#define CONN_NCMDS 48		/* the commands a connection counts */
#define CONN_LABEL 64

/* One socket of the dump, with what /proc says of its holder. */
struct conn_seen {
	struct waittcp t;
	int served;		/* held by a watched daemon's process, its
				 * local port one they listen on */
	pid_t root;		/* the connection's own process (sshd's
				 * per-connection child, a daemon's fork);
				 * 0: the listener holds it alone (one
				 * process, many sockets: rest-server; or
				 * sshd between its accept and its fork: a
				 * later dump gives the connection its
				 * process, conn.root) */
	double began;		/* root's start (wall clock), 0 unknown */
	char daemon[16];	/* the listener's command name */
	char cmds[CONN_CMDS];	/* the commands under root now: "sshd,rsync" */
};

/* A served port: the daemon listening on it. */
struct conn_port {
	unsigned port;
	char daemon[16];
};

/* A command seen under a connection's process, and in how many samples
 * (a login's scripts run a dozen commands once each before the one that
 * moves the data runs in every sample: the most seen come first). */
struct conn_cmd {
	char name[16];
	unsigned samples;
};

struct conn {
	struct waittcp t;	/* its last figures (the kernel's final
				 * record when final) */
	pid_t root;		/* its own process, once a dump showed one */
	char daemon[16];
	struct conn_cmd cmds[CONN_NCMDS];	/* seen under root, in the
						 * order first seen; past
						 * CONN_NCMDS not counted */
	size_t ncmds;
	char label[CONN_LABEL];	/* the caller's: its session */
	double begin, seen;	/* wall clock: began, last in a dump */
	double gone;		/* first missed by a dump (0: listed) */
	int final;		/* t is the kernel's record of its end */
	int between;		/* came and went between two dumps */
	int tree;		/* the caller's: 1 root's tree is watched,
				 * -1 it could not be */
};

struct conn_recent {
	struct waittcp key;
	double at;
};

struct conntab {
	struct conn *v;		/* open connections */
	size_t n, cap;
	struct conn_recent *recent;	/* ended lately (RECENT_S) */
	size_t nrecent, caprecent;
	double last;		/* the previous step's time (the caller
				 * sets the first: the log set's start) */
};

/* One step's answer: the connections begun (indices into tab->v, valid
 * until the next step) and those ended (copies, out of the table; one
 * that came and went between two dumps is only here, `between`). */
struct conntab_step {
	size_t *begun;
	size_t nbegun, capbegun;
	struct conn *ended;
	size_t nended, capended;
};

#define CONNTAB_RECENT_S 120.0

/* The step at wall time now: seen, every socket of the dump (seen[i].t
 * a dump row; TIME_WAIT remnants are no longer the connection), gone,
 * the kernel's records of sockets freed since the last step, ports, the
 * served ports. 0, or -1 out of memory (the table as it was). */
int conntab_update(struct conntab *tab, const struct conn_seen *seen,
		   size_t nseen, const struct waittcp *gone, size_t ngone,
		   const struct conn_port *ports, size_t nports, double now,
		   struct conntab_step *out);

/* Whether a and b are one connection (family, addresses, ports). */
int conntab_same(const struct waittcp *a, const struct waittcp *b);

/* Count the names of the comma list cmds (one sample's, each once:
 * conn_procs_cmds) a sample more for c. */
void conntab_count_cmds(struct conn *c, const char *cmds);

/* c's commands as a comma list into out (n bytes), the most seen first
 * (of those seen as often, the first seen first), as many as fit: the
 * end marker's conn.cmds. */
void conntab_cmds_text(const struct conn *c, char *out, size_t n);

void conntab_step_free(struct conntab_step *s);
void conntab_free(struct conntab *tab);

#endif
