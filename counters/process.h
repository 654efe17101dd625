/*
 * process.h - the Process object for `perflog run`: a command's whole
 * process tree counted as one instance.
 *
 * The tree is the root pid and every live descendant (found through the
 * ppid links of ROOT/proc/[0-9]*\/stat, one scan per sample). Its counters
 * are the sums over the tree of:
 *   cpu ticks   utime + stime + cutime + cstime (/proc/PID/stat); a child
 *               that exits and is reaped moves its ticks into its parent's
 *               cutime/cstime, so the sum never loses work
 *   read/write  rchar / wchar of /proc/PID/io: every byte the tree read or
 *               wrote through read/write-like calls (files, sockets, pipes),
 *               as perfmon's IO Read/Write Bytes/sec count all I/O; reaped
 *               children's bytes are added to the parent's by the kernel
 *   rss         resident set of the live processes (Working Set)
 * `perflog run` makes itself the root and a child subreaper
 * (PR_SET_CHILD_SUBREAPER), so orphaned grandchildren come back to it and
 * their work is still counted when they are reaped.
 */
#ifndef PERFLOG_PROCESS_H
#define PERFLOG_PROCESS_H

#include <stdint.h>
#include <sys/types.h>

#include "../common/util.h"
#include "rates.h"

struct proc_raw {
	double mono;		/* CLOCK_MONOTONIC seconds of the read */
	uint64_t cpu_ticks;	/* USER_HZ ticks, see above */
	uint64_t read_bytes, write_bytes;
	double rss_bytes;
	int nprocs;		/* live processes in the tree; 0 = root gone */
};

struct proctree;

/* Watch the tree under pid, reading below root ("/" in production). */
struct proctree *proctree_open(const char *root, pid_t pid, struct perr *e);
/* Read the tree's current sums. Returns 0, or -1 when the root is gone
 * (out->nprocs is then 0). */
int proctree_read(struct proctree *t, struct proc_raw *out, struct perr *e);
void proctree_close(struct proctree *t);

/* Fill the Process counters of out (by counter_def.index) from two reads:
 * % Processor Time = 100 * ticks delta / (USER_HZ * dt) (can exceed 100
 * with several CPUs busy, as perfmon's), IO Read/Write Bytes/sec = bytes
 * delta / dt, Working Set = cur rss. Unknown (NAN) where not computable. */
void proctree_rates(const struct proc_raw *prev, const struct proc_raw *cur,
		    struct instance_values *out);

#endif
