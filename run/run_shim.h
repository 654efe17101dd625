/*
 * run_shim.h - the shim between `perflog run` and its command.
 *
 * perflog run pumps the command's output (a tar to stdout moves every
 * byte through it); counted in the command's tree, that copying would be
 * logged as the command's I/O (a command writing 50 MiB to stdout logged
 * 157 MB written and 105 MB read). So the tree's root is a shim: a fork of
 * perflog run that does nothing but start the command, wait, and reap:
 *
 *   perflog run ── pumps output, marks, talks to the collector
 *     └─ shim (child subreaper: orphans of the command come back to it,
 *        │     so they stay in the tree; joined to the command's cgroup)
 *        └─ CMD ...
 *
 * Its own work (a few wait calls) is nothing next to the command's; its
 * resident set is perflog's and is left out of Working Set (process.h).
 * It ignores the signals perflog run relays (perflog run sends them to the
 * command); the command gets back the dispositions and mask perflog run
 * was started with.
 *
 * Protocol, over two pipes: perflog run writes 'g' (start the command),
 * 'r' (report the rusage) and 'q' (exit); the shim writes
 * struct shim_msg records: SHIM_PID, SHIM_EXEC_ERRNO (exec failed),
 * SHIM_EXIT (wait status and end time), SHIM_RUSAGE (RUSAGE_CHILDREN: the
 * command and every orphan it reaped). If perflog run dies (the pipe
 * closes), the shim waits for the command, then exits: the collector then
 * sees the tree end and the run gone, and closes the session itself.
 */
#ifndef PERFLOG_RUN_SHIM_H
#define PERFLOG_RUN_SHIM_H

#include <signal.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "../common/util.h"

struct shim {
	pid_t pid;		/* the shim */
	pid_t cmd;		/* the command, once started */
	int ctl, rep;		/* our ends of the two pipes */
	int exec_errno;		/* errno of a failed exec, else 0 */
	int status, exited;	/* wait status once the command ended */
	double t0, t1;		/* monotonic: started, ended */
	struct rusage ru;	/* filled by shim_finish */
};

/* Fork the shim (it waits for shim_go). out and err are the write ends
 * the command's stdout and stderr go to; close[0..nclose) are descriptors
 * of ours the shim must not keep (the read ends). sigs[0..nsigs) are the
 * signals perflog run relays, orig their dispositions at start. */
int shim_start(struct shim *s, char **argv, int out, int err,
	       const int *close_fds, size_t nclose, const char *logset,
	       const int *sigs, const struct sigaction *orig, size_t nsigs,
	       struct perr *e);

/* Start the command. Returns 0 (s->cmd set, or s->exec_errno when it
 * could not be run), -1 when the shim died. */
int shim_go(struct shim *s);

/* The descriptor to poll for the command's end; shim_read handles what
 * came (returns 1 once the command has ended, 0 not yet, -1 shim gone). */
int shim_fd(const struct shim *s);
int shim_read(struct shim *s);

/* The rusage of the command and every orphan the shim reaped so far, into
 * s->ru. 0 or -1. */
int shim_rusage(struct shim *s);

/* The processes of the command's tree still alive (its descendants: the
 * shim adopts every orphan, so a background job or a daemon the command
 * left is one): up to max pids and names (comm) into pid[] and comm[],
 * the shim itself left out. Returns how many there are (may be > max),
 * from one pass over /proc. */
long shim_left(const struct shim *s, pid_t *pid, char (*comm)[16],
	       size_t max);

/* Tell the shim to exit and wait for it. */
void shim_finish(struct shim *s);

#endif
