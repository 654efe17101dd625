/*
 * waitprobe.h - what a blocked thread waits on, from its system call:
 * the I/O half of the classification (waitclass.h has the rules).
 *
 * Reads, all below ROOT/proc (a fake root in the unit tests):
 *   TID/task/TID/syscall  "NR ARG0 .. ARG5 SP PC", "-1 SP PC" outside a
 *                         call, "running"; needs ptrace attach rights
 *   TID/fd/N              readlink: socket:[..], pipe:[..], anon_inode:..,
 *                         a path (then stat through it for the mode)
 *   TID/mem               poll's struct pollfd array and select's fd_sets,
 *                         at the addresses the call was given
 *   TID/fdinfo/EPFD       an epoll instance's "tfd:" lines
 * Only the first WAITPROBE_MAX_FDS descriptors of a set are looked at.
 * A thread parked in one call keeps the same arguments, so the verdict is
 * memoised per thread for WAITPROBE_MEMO_SEC (descriptors can be reused
 * for something else, so not for longer), and for a call on one or two
 * descriptors only while they are the same pipes and sockets (a
 * readlink a hit on a pipe or a socket; a file's read costs none).
 *
 * With a resolver (waitpeer.h, waitprobe_call), each pipe or socket
 * waited on is looked up: a socket whose far end is a process of this
 * host counts as a local producer, not a network wait (issue 29), and
 * the far ends found are kept in the memo as the wait's targets (its
 * edges; up to WAITPROBE_MAX_TARGETS).
 */
#ifndef PERFLOG_WAITPROBE_H
#define PERFLOG_WAITPROBE_H

#include <sys/types.h>

#include "waitclass.h"
#include "waitpeer.h"

#define WAITPROBE_MAX_FDS 64
#define WAITPROBE_MEMO_SEC 1.0
#define WAITPROBE_MAX_TARGETS 4

struct waitprobe_memo {
	int valid;
	long nr;		/* the call memoised (valid) */
	long call;		/* the call of the last look, of any kind, -1
				 * none: the memo keeps only the calls it looks
				 * past (descriptors, sockets), and a wait4 is
				 * a wait on children (waitthread.c probe) */
	unsigned long arg[4];
	/* the pipes' and sockets' inodes at the call's descriptors (a
	 * read, a write, a recv: up to two; 0 none or another kind): the
	 * same call on the same descriptor numbers may be on new ones (a
	 * shell's $(cmd) reads a new pipe at the same fd every command) */
	unsigned long ino[2];
	enum wait_class cls;
	double until;		/* monotonic seconds */
	int ntg;		/* the far ends of the last probe's wait */
	struct waitpeer_edge tg[WAITPROBE_MAX_TARGETS];
};

enum waitprobe_result {
	PROBE_CLASS,		/* *out is decided */
	PROBE_RUNNING,		/* the thread runs again ("running") */
	PROBE_REFUSED,		/* syscall unreadable: no rights, no such file */
	PROBE_UNDECIDED,	/* not a call or descriptor we can tell */
	PROBE_GONE,		/* the thread has exited */
	PROBE_LATER		/* *out is a guess: a socket waited on whose
				 * far end is not found yet (younger than the
				 * last look at the socket tables), or a local
				 * far end whose process is not (younger than
				 * the last look at the fd tables); not
				 * memoised, worth asking again */
};

/* Classify thread tid's current call. procfd: a directory descriptor of
 * ROOT/proc; syscall_fd: TID/task/TID/syscall kept open by the caller, or
 * -1 to open it now; now: monotonic seconds (for the memo). */
enum waitprobe_result waitprobe_syscall(int procfd, pid_t tid, int syscall_fd,
					double now, struct waitprobe_memo *memo,
					enum wait_class *out);

/* The same, the far ends of pipes and sockets looked up through peer
 * (NULL: none looked up, as waitprobe_syscall) for process tgid's thread
 * tid: memo->ntg and memo->tg say what they are after PROBE_CLASS. */
enum waitprobe_result waitprobe_call(int procfd, struct waitpeer *peer,
				     pid_t tgid, pid_t tid, int syscall_fd,
				     double now, struct waitprobe_memo *memo,
				     enum wait_class *out);

/* The kind of descriptor fd of process (or thread) tid. */
enum fd_kind waitprobe_fd_kind(int procfd, pid_t tid, long fd);

#endif
