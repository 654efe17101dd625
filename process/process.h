/*
 * process.h - the Process object for `perflog run`: a command's whole
 * process tree counted as one instance, without losing the work of tasks
 * that exit between two samples.
 *
 * Who is in the tree (membership), at any moment:
 *   - with a cgroup of the command's own (cgroup.h): the processes in it
 *     (cgroup.procs), which nothing the command does can leave;
 *   - else the root and its descendants, walked down through
 *     /proc/PID/task/TID/children (proc(5)); without those files, through
 *     the ppid links of every /proc/PID/stat. `perflog run` makes the root
 *     a child subreaper that does nothing but wait (its "shim", see
 *     run/run_shim.h), so orphans stay below it.
 *
 * What is counted (the tree's cumulative figures; the rates are deltas,
 * rates_process in rates.h):
 *   cpu         CPU time, microseconds
 *   read/write  rchar / wchar: every byte read or written through
 *               read/write-like calls (files, sockets, pipes), as
 *               perfmon's IO Read/Write Bytes/sec count all I/O
 *   disk        read_bytes / write_bytes: the bytes it made the storage
 *               read, and the bytes it dirtied in files on a block
 *               device (written back later, by whoever), as pidstat -d
 *               counts; a pipe, a socket, tmpfs or a page-cache hit
 *               adds none
 *   rss         resident set of the live processes (Working Set); a shim
 *               root's own is left out (it is perflog's, not the command's)
 *
 * Two ways to keep the books, chosen at open (the method is logged with the
 * session, see proctree_method):
 *
 * "taskstats" (exits = 1; root, the caller feeds proctree_exit with the
 *   kernel's exit records, taskstats.h): one entry per THREAD holding its
 *   own figures (/proc/PID/task/TID/stat utime+stime, .../io rchar and
 *   wchar, which hold nothing of reaped children). A thread that exits is
 *   closed by its exit record, whose figures are final (the larger of the
 *   record and the last read is kept: the kernel rounds the record's bytes
 *   down to KiB). A task that lived and died between two samples is
 *   recognised by its record's tgid or ppid being a member (live, or dead
 *   at most a few seconds). Nothing is counted twice (an entry is either
 *   open, read live, or closed by its record) and nothing is lost, auto-
 *   reaped children included. The rounding loses < 1 KiB a task.
 *
 * "tree" (exits = 0; the fallback without taskstats): one entry per
 *   PROCESS holding utime+stime+cutime+cstime and the whole-process
 *   /proc/PID/io, which the kernel grows by each child the process reaps.
 *   A member found gone at the end of a scan is dropped and its nearest
 *   live ancestor re-read, whose figures now hold it (the reaped child is
 *   thus counted once, whatever the order of the reads). Lost: the last
 *   interval's work of a child auto-reaped by a parent that ignores
 *   SIGCHLD (its last read is kept), and all of it when it lived less than
 *   a sample. With a cgroup, CPU is still exact (the group's usage).
 *
 * CPU comes from the cgroup when there is one (v2 cpu.stat usage_usec,
 * v1 cpuacct.usage: exact for exited tasks), else from the books above.
 */
#ifndef PERFLOG_PROCESS_H
#define PERFLOG_PROCESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../common/util.h"
/* the rest of the folder's interface: other folders include process.h
 * alone (the command's cgroup, its exit records, its cgroup's counters,
 * one /proc/PID/stat parser) */
#include "cgroup.h"
#include "cgstat.h"
#include "pidstat.h"
#include "taskstats.h"

struct proc_raw {
	double mono;		/* CLOCK_MONOTONIC seconds of the read */
	uint64_t cpu_us;	/* CPU time, microseconds */
	uint64_t read_bytes, write_bytes;	/* rchar, wchar */
	uint64_t disk_read, disk_write;	/* read_bytes, write_bytes: storage */
	double rss_bytes;
	int nprocs;		/* live processes in the tree; 0 = root gone */
	int rootless;		/* a rootless tree (below): 0 processes is
				 * a tree empty for now, its sums still whole */
	int io_lost;		/* exit records were lost since the previous
				 * read: this interval's I/O is not known */
};

struct proctree_options {
	const char *root;	/* "/" in production, else a fixture root */
	pid_t pid;		/* the tree's root; 0 for a rootless tree:
				 * the cgroup's processes, or comm's */
	const char *comm;	/* rootless: every process of this name
				 * (/proc/PID/stat's, at most 15 bytes) and
				 * its descendants, found anew at each read */
	int shim;		/* the root is perflog run's waiting shim */
	const struct cgroup_set *cgroup;	/* the command's groups, or NULL */
	int exits;		/* 1: the caller feeds exit records */
};

struct proctree;

/* Watch the tree under o->pid. NULL with e set when the root does not
 * exist (or its stat cannot be parsed).
 *
 * Rootless trees (`perflog mark --watch`, a server's daemon): with pid 0
 * and a cgroup, the group's processes (a systemd unit's); with pid 0 and
 * comm, every process of that name and their children, those that start
 * later included: each read scans every /proc/PID/stat once (6 to 25 us
 * a process, measured on a loaded 2-core VM: 0.6-2.7 ms for 107), so its
 * cost follows the host's process count, once a sample. A rootless tree is alive while its group exists (cgroup) or
 * for good (comm: it may be empty now and match later). */
struct proctree *proctree_open(const struct proctree_options *o,
			       struct perr *e);

/* Read the tree's cumulative figures. Returns 0, or -1 when the root is
 * gone (out->nprocs is then 0; the root is identified by pid and start
 * time, so a reused pid is not mistaken for it). */
int proctree_read(struct proctree *t, struct proc_raw *out, struct perr *e);

/* Offer one exit record (any task of the host). Returns 1 when it was the
 * tree's and is counted, 0 otherwise (a record that may yet turn out to
 * be the tree's, when its parent shows up, is kept until the next two
 * reads: proctree_late). */
int proctree_exit(struct proctree *t, const struct taskstats_exit *x);

/* The start times of the processes exit records name (a record's parent,
 * its process), read once a drain for every tree that shares them: a
 * record no tree takes has each tree ask whether its parent is a
 * stranger (alive before the tree's last read, not its own), and 50
 * trees read the same /proc/PID/stat 50 times (a night at the server,
 * bench/night.sh). proc_starts_next at each drain: the starts read
 * again (a pid may be reused between two). NULL from new: out of memory
 * (each tree reads its own then). */
struct proc_starts;
struct proc_starts *proc_starts_new(void);
void proc_starts_next(struct proc_starts *s);
void proc_starts_free(struct proc_starts *s);
void proctree_share_starts(struct proctree *t, struct proc_starts *s);

/* A record proctree_exit kept waiting that a later read found to be the
 * tree's, and the monotonic time it came (util_monotonic). */
struct proctree_late {
	struct taskstats_exit x;
	double at;
};

/* The records the last proctree_read placed (also when it failed for a
 * tree gone: `sh -c 'sh -c "head | cat"; exit'` watched by PID, the
 * inner shell's record placing head's and cat's, then the root's exit),
 * *v valid until the next read: counted in its figures like those
 * proctree_exit took, and owed to whoever else wants the tree's records
 * (the wait-state sampler: a child of a parent born since the last read,
 * `sh -c 'head | cat'`, had its bytes in Process and 0 in its waits
 * row). */
size_t proctree_late(const struct proctree *t,
		     const struct proctree_late **v);

/* Tell the tree of an exit record before any tree takes it (every tree
 * is told; one takes it): a process whose thread exited has its task
 * list taken again at the next read (process_threads.c). */
void proctree_exit_seen(struct proctree *t, const struct taskstats_exit *x);

/* The kernel dropped exit records: the next read is flagged io_lost. */
void proctree_exits_lost(struct proctree *t);

/* "cpu=cgroup-v2 io=taskstats" and the like: where the CPU time comes
 * from (cgroup-v2, cgroup-v1, taskstats, tree) and the bytes (taskstats,
 * tree). Logged in the session's begin marker. */
const char *proctree_method(const struct proctree *t);

pid_t proctree_root(const struct proctree *t);

/* Is the root still the process the tree was opened on, and not a
 * zombie? One small read. */
int proctree_alive(const struct proctree *t);

/* The start time of process pid under root (stat field 22, clock ticks
 * since boot), 0 when there is no such process or it is a zombie: with
 * the pid, it names a process for good (a pid is reused, a pid and start
 * time are not). */
unsigned long long proctree_start_time(const char *root, pid_t pid);

/* Has process pid under root ended, its parent not having reaped it yet
 * (a zombie, no thread of it left)? 1 only when its stat says so; 0 when
 * it runs, and when there is no such process or its stat cannot be read
 * (ask kill(2)). */
int proctree_ended(const char *root, pid_t pid);

/* ---- for the wait-state sampler (issue 12): which processes ----
 *
 * proctree_procs copies the tree's processes as the last proctree_read
 * found them (the shim root left out) into (*v, *cap), grown as needed
 * (free(*v) at the end): their number, or -1 out of memory. It reads
 * nothing: the collector hands the list to the sampler right after the
 * sample's read (it listed the members and each one's task directory
 * again, a getdents of every thread of a pool to keep one pid). Not
 * thread-safe: called on the collector's thread, between reads. */
long proctree_procs(const struct proctree *t, pid_t **v, size_t *cap);

/* A thread's io as the last proctree_read read it. The "taskstats" books
 * read every live thread's task/TID/io at each read; the wait-state
 * sampler, reading at the same sample, takes it from here instead of
 * reading the file a second time (issue 30: 2,000 preads a second for a
 * client of 2,000 busy threads). 0 with *io filled when thread tid of
 * start time start (stat field 22) was read by the last proctree_read;
 * -1 when not (the books count processes, the thread is new or gone, or
 * its io was not readable). */
int proctree_thread_io(const struct proctree *t, pid_t tid,
		       unsigned long long start, struct pidstat_io *io);

/* The command's cgroups (v2 for PSI and cpu.stat, v1 cpu for throttling:
 * cpu.stat nr_throttled / throttled_time; a quota set on perflog run's own
 * group shows in the parent directory's files), or NULL when the tree has
 * none. */
const struct cgroup_set *proctree_cgroup(const struct proctree *t);

void proctree_close(struct proctree *t);

#endif
