/*
 * waitclass.h - what a thread is waiting for, from what /proc shows of it:
 * pure functions and tables, no I/O (the sampler, waits.c, does the reads).
 *
 * Evidence, strongest first (counters/README.md "Wait states" has the full
 * table and the reasons):
 *   1. the wait channel, /proc/TID/wchan: the first kernel function on the
 *      sleeping thread's stack outside the scheduler (io_schedule, mutex,
 *      schedule_timeout ... are skipped by the kernel). Most names decide
 *      the class; a few are generic waits shared by sockets, pipes, ttys
 *      and timers (wait_woken, poll/select/epoll) and need 2. "0" means
 *      running or runnable, or hidden (no ptrace read access), or a
 *      sleeper the scheduler has not dequeued yet (kernels 6.12+ delay the
 *      dequeue of some sleepers; their wchan reads "0" too).
 *   2. the system call, /proc/TID/syscall: its number, and for calls on a
 *      descriptor the type of that descriptor (socket, pipe, file, ...),
 *      for poll/select/epoll the types of the descriptors waited on.
 *   3. the state letter alone (field 3 of stat): D counts as disk, any
 *      other sleep as other. Samples decided this way are "guessed" and
 *      reported as such.
 */
#ifndef PERFLOG_WAITCLASS_H
#define PERFLOG_WAITCLASS_H

#include <stddef.h>
#include <sys/types.h>

/* What a thread was doing at a sample. RUN covers both on a CPU and
 * runnable waiting for one: sampling cannot tell them apart, the
 * scheduler's exact figures (schedstat) split them. */
enum wait_class {
	WAIT_RUN,
	WAIT_DISK,	/* blocked in the block-I/O path or on file data */
	WAIT_NET,	/* blocked on a socket (send, receive, accept, connect) */
	WAIT_OTHER,	/* pipes, locks, children, signals, poll on non-sockets */
	WAIT_SLEEP,	/* a timed sleep the thread chose */
	WAIT_NCLASS
};

/* "run", "disk", "net", "other", "sleep". */
const char *waitclass_name(enum wait_class c);

/* What a wait channel says. */
enum wchan_verdict {
	WCHAN_CLASS,	/* *out is decided */
	WCHAN_PROBE,	/* a generic wait: look at the system call */
	WCHAN_UNKNOWN,	/* a name not in the table: look at the system call */
	WCHAN_NONE	/* "0" or empty: running, hidden or not yet dequeued */
};

/* One row of the wait-channel table. */
struct wchan_rule {
	const char *name;	/* kernel function, as wchan prints it */
	enum wchan_verdict verdict;	/* WCHAN_CLASS or WCHAN_PROBE */
	enum wait_class cls;	/* for WCHAN_CLASS */
};

/* The whole table, sorted by name (for counters/README.md and its test). */
const struct wchan_rule *waitclass_wchan_table(size_t *n);

/* Classify a wchan text as read (trailing newline and the compiler's
 * ".constprop.0", ".isra.0", ".part.0", ".cold" suffixes are ignored). */
enum wchan_verdict waitclass_wchan(const char *wchan, enum wait_class *out);

/* How a system call is classified (see waitclass_syscall). */
enum syscall_kind {
	SC_UNKNOWN,	/* not in the table: use the state letter */
	SC_CLASS,	/* fixed class (recvfrom: net, nanosleep: sleep ...) */
	SC_FD,		/* by the type of the descriptor(s) in fd_arg[] */
	SC_POLL,	/* poll, ppoll: arg0 struct pollfd *, arg1 nfds */
	SC_SELECT,	/* select, pselect6: arg0 nfds, arg1-3 fd_set * */
	SC_EPOLL	/* epoll_wait, epoll_pwait(2): arg0 the epoll fd */
};

struct syscall_rule {
	enum syscall_kind kind;
	enum wait_class cls;	/* SC_CLASS */
	int fd_arg[2];		/* SC_FD: argument indexes, -1 = none */
};

/* The rule for system call number nr of this architecture's native ABI
 * (the SYS_* numbers of <sys/syscall.h>). nr < 0 (not in a system call:
 * a page fault, for instance) and unknown numbers give SC_UNKNOWN. */
struct syscall_rule waitclass_syscall(long nr);

/* Whether system call nr writes to (waits to output on) its argument
 * number arg (write, send, connect; sendfile's out_fd, splice's fd_out
 * ...): 1, else 0 (reads, receives, accept). */
int waitclass_syscall_out(long nr, int arg);

/* The argument of system call nr that is the descriptor of a disk wait
 * of no other descriptor (fsync, fdatasync, syncfs, sync_file_range:
 * 0), or -1 (sync, io_getevents, and calls not a disk's). */
int waitclass_syscall_disk_fd(long nr);

/* Whether a wait channel is a wait on a socket's or a pipe's data, whose
 * far end may be a process of this host: the system call is probed for
 * the descriptor (waitprobe.h) even though the name decides a class. */
int waitclass_wchan_peer(const char *wchan);

/* Whether a wait channel is a wait for a child to change state
 * (wait4, waitid: do_wait, kernel_wait4). */
int waitclass_wchan_child(const char *wchan);

/* The type of an open descriptor, from the target of /proc/PID/fd/N and,
 * for a path, the st_mode of what it names. */
enum fd_kind {
	FD_UNKNOWN,
	FD_SOCKET,	/* socket:[ino], any family */
	FD_PIPE,	/* pipe:[ino] or a named FIFO */
	FD_FILE,	/* a regular file, a directory, a block device */
	FD_CHAR,	/* a character device: tty, /dev/null ... */
	FD_TIMER,	/* anon_inode:[timerfd] */
	FD_ANON,	/* other anon_inode: eventfd, signalfd, inotify ... */
	FD_NKIND
};

/* Kind from the link text; a path (or anything else) gives FD_UNKNOWN
 * unless mode (a stat st_mode, 0 = not known) says more. */
enum fd_kind waitclass_fd_kind(const char *link, mode_t mode);

/* The class of a blocking call on one descriptor of this kind:
 * socket: net; file: disk; timer: sleep; pipe, char, anon: other;
 * unknown: the state letter decides (returns WAIT_NCLASS). */
enum wait_class waitclass_fd(enum fd_kind kind);

/* The class of a wait on a set of descriptors (poll, select, epoll),
 * given how many of each kind it holds (count[FD_NKIND]): none at all is
 * a sleep (poll(NULL, 0, ms), select(0, ...) are sleep idioms); any
 * socket makes it a network wait; only timers is a sleep; otherwise
 * other. */
enum wait_class waitclass_fdset(const int count[FD_NKIND]);

/* The same where the call says what it waits for on each descriptor
 * (poll's events, select's sets, epoll's): in[] counts those waited on
 * for input only, out[] those waited on for output. A socket waited on
 * for output is a network wait (the send is held); sockets waited on for
 * input alone with no local producer beside them (a pipe, a file, a
 * terminal) too; but sockets and a local producer waited on together
 * for input is other: ssh or rsync polling its stdin pipe and its socket
 * waits for the process upstream to hand it data, and that process's
 * own wait is the one that says why (it votes, "other" does not). */
enum wait_class waitclass_pollset(const int in[FD_NKIND],
				  const int out[FD_NKIND]);

/* The class from the state letter alone: R and W run, D disk, any other
 * (S, T, t, I, P ...) other. Z and X (ended) give WAIT_NCLASS. */
enum wait_class waitclass_letter(char state);

#endif
