/*
 * waitset.h - the tasks the wait-state sampler watches, listed afresh at
 * every tick: the threads of a list of processes (ROOT/proc/PID/task,
 * each directory kept open and rewound) or of a cgroup (cgroup.threads
 * on v2, tasks on v1, kept open and read with pread). A cgroup lists the
 * processes that start and end between two samples of the collector,
 * which a process list handed in at each sample misses.
 *
 * A process's task directory is listed again only when its thread count
 * (num_threads in PID/stat, one pread) moved or the set was invalidated:
 * listing it costs as much as reading every thread's schedstat.
 */
#ifndef PERFLOG_WAITSET_H
#define PERFLOG_WAITSET_H

#include <stddef.h>
#include <sys/types.h>

#include "../common/util.h"

struct waitset;

/* The threads of these processes; procfd is a descriptor of ROOT/proc.
 * A process already gone is left out, not an error. */
struct waitset *waitset_pids(int procfd, const pid_t *pids, size_t n,
			     struct perr *e);
/* Add process pid to a set of processes, seen by the sampler before the
 * collector's next sample hands it in (a child a watched shell waits
 * for: one that lives between two samples had no row of its own). A
 * cgroup's set lists it already: nothing done. At most
 * WAITSET_ADDED_MAX a set (a loop forking a thousand a second). 0, or
 * -1 out of memory. */
#define WAITSET_ADDED_MAX 64
int waitset_add_pid(struct waitset *s, int procfd, pid_t pid);
/* Whether s is a set of exactly these processes, in this order, none
 * added since (waitset_add_pid): a collector's sample that hands in the
 * same tree keeps the set, its open files and its last listing. */
int waitset_same_pids(const struct waitset *s, const pid_t *pids, size_t n);
/* The threads of the cgroup directory dir (v2 or v1). */
struct waitset *waitset_cgroup(const char *dir, struct perr *e);

/* The thread ids now, sorted and unique, in an array the set owns (valid
 * until the next call); *n gets the count. NULL when out of memory. An
 * unreadable list (the cgroup removed, the processes gone) is empty. */
const pid_t *waitset_list(struct waitset *s, size_t *n);

/* Whether every waitset_list lists afresh (a cgroup's thread list): a
 * thread missing from a listing was in the one before. */
int waitset_fresh(const struct waitset *s);

/* Force a full listing at the next call (a thread was seen to end: one
 * may have started meanwhile, keeping the count). */
void waitset_invalidate(struct waitset *s);

void waitset_free(struct waitset *s);

#endif
