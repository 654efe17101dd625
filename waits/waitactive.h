/*
 * waitactive.h - which of several processes is the one doing the work,
 * from what ROOT/proc says of each now (issue 46): the holder of a pipe's
 * end that writes it rather than the shell that only holds it (waitpeer.c),
 * the children a shell's wait4 is on (waitthread.c).
 *
 * Reads, all below ROOT/proc (a fake root in the unit tests), of a
 * process's main thread: PID/stat (the state letter), PID/wchan, and
 * PID/syscall only when the wait channel is hidden ("0" while asleep):
 * two or three small reads a process asked. No counters are kept: a
 * process is judged by what it does at the moment it is asked (the
 * callers ask again at least once a second while it matters).
 */
#ifndef PERFLOG_WAITACTIVE_H
#define PERFLOG_WAITACTIVE_H

#include <stddef.h>
#include <sys/types.h>

/* How active a process is, least first: the order in which holders and
 * children are preferred. */
enum waitactive {
	ACTIVE_UNKNOWN,	/* gone, or nothing could be read */
	ACTIVE_PARENT,	/* waiting on its children (wait4, waitid): it
			 * only holds what they use (a shell, a subshell) */
	ACTIVE_IDLE,	/* asleep on a timer or a signal it chose (sleep,
			 * pause): paces, moves nothing */
	ACTIVE_BLOCKED,	/* blocked on anything else: a pipe, a socket, a
			 * lock (a stage waiting on its neighbour) */
	ACTIVE_RUN	/* running or runnable, or in D (the disk) */
};

/* What process pid's main thread is doing now. */
enum waitactive waitactive_of(int procfd, pid_t pid);

/* Whether system call nr (this architecture's) waits on children: wait4,
 * waitid, waitpid. */
int waitactive_child_call(long nr);

/* The child a wait4 or waitid is on, from a syscall file's text
 * ("NR ARG0 ARG1 ..."): its pid (> 0) for wait4(pid > 0) and
 * waitid(P_PID, pid), 0 for any child (-1, a process group) or when the
 * text is not such a call. */
pid_t waitactive_waited(const char *syscall_text);

/* The parent of process pid (its stat's ppid), 0 unknown or gone. */
pid_t waitactive_parent(int procfd, pid_t pid);

/* The children of thread tid of process pid (PID/task/TID/children),
 * up to max into out: their count. */
size_t waitactive_children(int procfd, pid_t pid, pid_t tid, pid_t *out,
			   size_t max);

#endif
