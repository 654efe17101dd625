/*
 * pidstat.h - one parser of /proc/PID/stat and /proc/PID/task/TID/stat,
 * one of their io files (pidstat_parse_io) and one of their schedstat
 * (pidstat_parse_schedstat).
 *
 * The line is "PID (COMM) STATE PPID ...": comm may hold spaces and
 * parentheses ("a) b (c"), so the fields are counted from the LAST ')'.
 * Field numbers below are proc(5)'s (1-based). Fields an old kernel does
 * not print (delayacct_blkio_ticks before 2.6.18) read as PIDSTAT_NA.
 * For a thread (task/TID/stat) the times are the thread's own; for a
 * process (PID/stat) they are the whole thread group's.
 */
#ifndef PERFLOG_PIDSTAT_H
#define PERFLOG_PIDSTAT_H

#include <stdint.h>
#include <sys/types.h>

#define PIDSTAT_NA UINT64_MAX

struct pidstat {
	pid_t pid;		/* field 1 */
	char comm[16];		/* field 2, without the parentheses, cut to 15 */
	char state;		/* field 3: R S D T t Z X I P W ... */
	pid_t ppid;		/* field 4 */
	uint64_t utime, stime;	/* fields 14, 15: clock ticks (USER_HZ) */
	uint64_t cutime, cstime;	/* fields 16, 17: reaped children's */
	uint64_t num_threads;	/* field 20 */
	uint64_t starttime;	/* field 22: clock ticks after boot */
	uint64_t rss;		/* field 24: pages */
	uint64_t blkio_ticks;	/* field 42: delayacct_blkio_ticks, clock
				 * ticks spent waiting for block I/O; 0
				 * unless kernel.task_delayacct is on */
};

/* Parse one stat line (NUL-terminated). Returns 0, or -1 when it is
 * malformed (no ')', a field missing before starttime, not a number). */
int pidstat_parse(const char *text, struct pidstat *out);

/* The fields of /proc/PID/io or task/TID/io that perflog keeps: rchar
 * and wchar (every read and write call: files, pipes, sockets),
 * read_bytes and write_bytes (what reached the storage). For a process
 * they are the whole thread group's, dead threads and reaped children
 * included; for a thread, its own. */
struct pidstat_io {
	uint64_t rchar, wchar, read_bytes, write_bytes;
};
#define PIDSTAT_IO_RCHAR 1u
#define PIDSTAT_IO_WCHAR 2u
#define PIDSTAT_IO_READ_BYTES 4u
#define PIDSTAT_IO_WRITE_BYTES 8u

/* Parse an io file's text (NUL-terminated): each field found, at the
 * start of its line, as a plain count, is set in io, the others left as
 * they are. Returns the PIDSTAT_IO_ bits of those found. */
unsigned pidstat_parse_io(const char *text, struct pidstat_io *io);

/* A schedstat file's three counts (proc(5), sched-stats.rst): [0] the
 * time run on a CPU, ns; [1] the time waited on a run queue, ns; [2] the
 * times it was given a CPU. A task that has not run since a read has
 * the same [0] and [2]: the books and the wait-state sampler read its
 * other files only when these moved. A kernel without sched_info prints
 * "0 0 0". Returns 0, or -1 when the text is not three counts. */
int pidstat_parse_schedstat(const char *text, uint64_t v[3]);

#endif
