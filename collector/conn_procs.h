/*
 * conn_procs.h - a server's watched daemons in /proc, and the sockets
 * they hold (issue 47): every process whose command name is one of the
 * daemons' (sshd, rsync, borg, rest-server, dsmserv ...) and every
 * descendant of one, found by one read of each ROOT/proc/PID/stat, and
 * the socket inodes in their fd tables (the link text "socket:[N]",
 * nothing followed). One read a sample: its cost follows the host's
 * process count, as a `mark --watch name=` tree's does.
 *
 * Of the processes holding a connection's socket, the topmost (whose
 * parent does not hold it) is the connection's own: sshd's per-connection
 * child (its privilege-separated child and the session's sftp-server,
 * rsync or borg serve under it), a daemon's fork (rsync --daemon). When
 * that process is the one listening on the port (rest-server: goroutines,
 * one process, many sockets) the connection has no process of its own.
 */
#ifndef PERFLOG_CONN_PROCS_H
#define PERFLOG_CONN_PROCS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../common/util.h"

struct conn_proc {
	pid_t pid, ppid;
	char comm[16];
	uint64_t start;		/* clock ticks after boot */
	int member;		/* a daemon's or a descendant of one */
};

struct conn_hold {
	unsigned long inode;
	pid_t pid;
};

struct conn_procs {
	struct conn_proc *p;	/* every process, by pid */
	size_t n, cap;
	struct conn_hold *h;	/* the members' sockets, by inode */
	size_t nh, caph;
};

/* Read ROOT/proc: every process, the members (names: a comma list of
 * command names), their sockets. 0, or -1 with e set (ROOT/proc cannot
 * be listed). */
int conn_procs_read(const char *root, const char *names,
		    struct conn_procs *out, struct perr *e);

/* The topmost member holding inode (0: none holds it). */
pid_t conn_procs_holder(const struct conn_procs *cp, unsigned long inode);

/* The process pid, or NULL. */
const struct conn_proc *conn_procs_find(const struct conn_procs *cp,
					pid_t pid);

/* The command names of pid and its descendants, a comma list into out
 * (each once, pid's first). */
void conn_procs_cmds(const struct conn_procs *cp, pid_t pid, char *out,
		     size_t n);

void conn_procs_free(struct conn_procs *cp);

#endif
