/*
 * taskstats.h - the kernel's exit accounting of every task, as it exits.
 *
 * Linux sends a taskstats record for each task (thread) that exits to the
 * generic-netlink listeners registered for the CPU it exits on
 * (TASKSTATS_CMD_ATTR_REGISTER_CPUMASK, Documentation/accounting/
 * taskstats.rst). The record is sent from do_exit, before the task can be
 * reaped, so it is queued on our socket by the time the task is gone from
 * /proc. It carries the task's own final figures, whoever reaps it and
 * even when nobody does (a parent that ignores SIGCHLD):
 *   ac_utime, ac_stime   CPU time of the thread, microseconds
 *   read_char, write_char   bytes through read/write-like calls (rchar,
 *                        wchar of /proc/PID/task/TID/io), rounded DOWN to
 *                        a multiple of 1024 by the kernel (xacct_add_tsk)
 *   read_bytes, write_bytes   bytes it made the storage read, and bytes it
 *                        dirtied in files on a block device (read_bytes
 *                        and write_bytes of its io), rounded down alike
 *   ac_pid, ac_tgid, ac_ppid   thread, its process, the process's parent
 *   ac_btime64, ac_etime the wall time it began (s) and ran (us)
 *   cpu_count, cpu_delay_total, blkio_delay_total   with delay accounting
 *                        on: the times it got a CPU, its run-queue wait
 *                        and its block-I/O wait (ns); all 0 when off
 * Only the per-thread records (TASKSTATS_TYPE_AGGR_PID) are passed on; the
 * per-process aggregate sent at a multi-threaded group's end would count
 * the same work twice.
 *
 * Registering needs CAP_NET_ADMIN (root): taskstats_open fails with EPERM
 * otherwise, and the caller falls back (process.h). Records arrive for the
 * whole host; the caller decides which belong to it. The socket's buffer
 * is raised to 4 MiB (SO_RCVBUFFORCE); when the kernel still had to drop
 * records (ENOBUFS), taskstats_drain says so.
 */
#ifndef PERFLOG_TASKSTATS_H
#define PERFLOG_TASKSTATS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../common/util.h"

struct taskstats_exit {
	pid_t tid, tgid, ppid;	/* tgid 0 when the kernel predates it */
	double btime;		/* wall clock seconds it began (0 unknown) */
	double etime;		/* seconds it ran */
	uint64_t cpu_us;	/* utime + stime, microseconds */
	/* with delay accounting on (kernel.task_delayacct = 1 at its
	 * start): its run-queue wait (cpu_delay_total, schedstat's
	 * run_delay) and block-I/O wait (blkio_delay_total), ns; else the
	 * kernel sends the delays as 0 with no CPU count, and both are
	 * TASKSTATS_NA */
	uint64_t runq_ns, blkio_ns;
	uint64_t rchar, wchar;	/* rounded down to KiB by the kernel */
	uint64_t read_bytes, write_bytes;	/* storage; rounded alike */
	char comm[16];		/* its name (ac_comm, as /proc/PID/stat's) */
};

#define TASKSTATS_NA UINT64_MAX

struct taskstats_listener;

typedef void (*taskstats_fn)(void *arg, const struct taskstats_exit *x);

/* Register for the exit records of every possible CPU. NULL with e set
 * ("taskstats: Operation not permitted" when not root). */
struct taskstats_listener *taskstats_open(struct perr *e);
/* The socket, to poll for POLLIN. */
int taskstats_fd(const struct taskstats_listener *l);
/* Read every record queued, without blocking, calling fn for each.
 * Returns the number of records, -1 on a socket error; *lost is set to 1
 * when the kernel dropped records since the last drain. */
long taskstats_drain(struct taskstats_listener *l, taskstats_fn fn,
		     void *arg, int *lost);
void taskstats_close(struct taskstats_listener *l);

/* Parse one datagram of netlink messages (exposed for tests and
 * fuzzing): calls fn for each per-thread exit record. Returns the number
 * of records, never fails on garbage (it is skipped). */
long taskstats_parse(const void *buf, size_t len, taskstats_fn fn,
		     void *arg);

#endif
