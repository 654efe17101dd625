/*
 * run_remote.h - `perflog run --server HOST[:DIR]`: the servers' log sets
 * get the session too, marked over ssh by `perflog mark --remote` on each
 * server (collector/mark.h has the protocol), and each remote collector's
 * clock is measured against the local one on the same connection.
 *
 *   begin  before the local begin marker: connect to every server at
 *          once, "hello", 5 "ping"s (the best round trip is kept,
 *          run_clock.h), the remote begin marker; the connection ends
 *   end    after the command: connect and ping again, then the local end
 *          marker is written (with the new offsets), then the remote end
 *          markers
 * The ssh command line is $PERFLOG_SSH, else [run] ssh, else
 * RUN_REMOTE_SSH; it is run by /bin/sh with HOST as given and the remote
 * command (shell-quoted, as git does) as its last two words, in a session
 * of its own with no terminal (no prompt can block) and stdin a pipe.
 * Every step of all the servers together is bounded by ONE deadline, the
 * ssh command's ConnectTimeout (10 s when it sets none): a server that
 * accepts the connection and then says nothing is killed (its process
 * group, by pid) when the deadline passes. A server that fails costs one
 * warning line on stderr, and the local markers say which failed and why
 * (peer.N.error); the run goes on.
 *
 * Marker fields. Local (the client's set), for server k: peer=HOST,
 * offset=S (server minus client, seconds), rtt=S, or peer.error=WHY
 * (peer.2, offset.2 ... for the second; run_clock.h, clock_key). Remote
 * (the server's set): peer=CLIENT (this host's name), offset=S (client
 * minus server), rtt=S, client.cmd=COMMAND LINE and, with --server-watch,
 * watch=SPEC and what the watch found (collector/mark.h).
 */
#ifndef PERFLOG_RUN_REMOTE_H
#define PERFLOG_RUN_REMOTE_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "run_clock.h"
#include "run_marks.h"

#define RUN_REMOTE_SSH "ssh -o BatchMode=yes -o ConnectTimeout=10"
#define RUN_REMOTE_PINGS 5
#define RUN_REMOTE_MAX 16

struct remote {
	char arg[PATH_MAX];	/* HOST[:DIR] as given */
	char host[256], dir[PATH_MAX];
	pid_t pid;		/* the ssh (its process group), 0 none */
	int in, out, err;	/* its stdin, stdout, stderr; -1 closed */
	char *obuf;		/* requests not yet written whole: stdin is */
	size_t olen, ooff;	/* non-blocking, the rest waits for POLLOUT */
	int state;		/* run_remote.c */
	char line[8192];	/* stdout read so far */
	size_t nline;
	char errtail[512];	/* the last line it said on stderr */
	size_t nerr;
	struct clock_sample s[RUN_REMOTE_PINGS];
	int ns;
	double sent;		/* local clock of the ping in flight */
	struct clock_fit fit;
	int have_fit;
	char error[512];	/* why it failed, "" while it has not */
	char warning[512];	/* what the remote mark warned of */
	int warned;		/* its failure was told (once a run) */
};

struct remotes {
	struct remote v[RUN_REMOTE_MAX];
	size_t n;
	char ssh[2048];
	double timeout;		/* the deadline of each step, seconds */
	const char *watch;	/* --server-watch SPEC, or NULL */
	const struct collector_info *col;	/* the local collector */
	double local_off;	/* its clock minus ours */
	double deadline;	/* monotonic: the current step's bound */
};

/* Add a server (HOST[:DIR]). -1 with e set when HOST is empty or there
 * are too many. */
int remotes_add(struct remotes *rs, const char *arg, struct perr *e);

/* Choose the ssh command (from [run] ssh when file_ssh is non-empty,
 * $PERFLOG_SSH first) and its deadline. */
void remotes_setup(struct remotes *rs, const char *file_ssh,
		   const struct collector_info *col, const char *watch);

/* Mark every server's begin (above) and add the local begin marker's
 * fields to x. */
void remotes_begin(struct remotes *rs, const char *session,
		   const char *text, const char *cmdline,
		   struct run_extras *x);

/* The end, in two halves around the local end marker: connect and ping
 * (adding the local end marker's fields to x), then the remote end
 * markers; a server that fails in the second half gets a warning and a
 * local point marker naming it. */
void remotes_end_open(struct remotes *rs, struct run_extras *x);
void remotes_end_mark(struct remotes *rs, const char *session,
		      const char *text, const char *cmdline);

#endif
