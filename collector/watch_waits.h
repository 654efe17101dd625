/*
 * watch_waits.h - INTERNAL to the collector: what a watched tree's threads
 * were doing (the wait-state sampler, waits/waitsampler.h) and what its
 * cgroup says about limits (process/cgstat.h), for Process(LABEL).
 *
 * Per watched tree (watch.c calls these on the collector's thread):
 *   open      a sampler on a thread of its own, watching the command's
 *             cgroup (v2 cgroup.threads, else v1 tasks: it sees processes
 *             that live and die between two samples) or, without one, the
 *             tree's processes, as each sample's read found them
 *             (proctree_procs); perflog run's shim is left out (waits_exclude)
 *   baseline  the reads every later interval is a delta from
 *   sample    the interval's wait states (waitrates_compute, _fill) and
 *             cgroup counters (rates_cgroup, counters/rates.h) into the tree's values; each
 *             thread's seconds are added to the session's totals
 *   finish    the totals written beside the end marker as waits-LABEL.tsv
 *             (waitrates_format), the edges as edges-LABEL.tsv
 *             (waitedges.h), the same seconds interval by interval as
 *             waits-LABEL.rows.tsv (waitrows.h) and the end-marker
 *             fields about them
 * A tree without a cgroup of its own (watched by PID or name=) has its
 * first process's groups read for the cgroup counters and the quota (a
 * daemon held by a quota, issue 29); its threads are still the tree's.
 *   close     the sampler stopped, everything freed
 * The sampler's clock is its own (its reads' monotonic times): the wait
 * states are shares of each thread's time, so the few milliseconds
 * between its read and the counters' do not bias a row.
 */
#ifndef PERFLOG_WATCH_WAITS_H
#define PERFLOG_WATCH_WAITS_H

#include <stddef.h>
#include <sys/types.h>

#include "../common/util.h"
#include "../process/process.h"
#include "../counters/counters.h"

struct watch_waits;

/* Start sampling tree's threads below proc_root, leaving exclude (the
 * shim, 0 none) out; the session's rows in bins of step seconds at
 * first (the sample interval, waits/waitrows.h). NULL with e set when
 * the sampler cannot start (its counters are then unknown; the
 * cgroup's are still read). */
struct watch_waits *watch_waits_open(const char *proc_root,
				     struct proctree *tree, pid_t exclude,
				     double step, struct perr *e);

/* Whether the sampler runs (0: its counters are unknown). */
int watch_waits_ok(const struct watch_waits *ww);

/* The baseline reads (mono: the sample's clock, for the cgroup's rates). */
void watch_waits_baseline(struct watch_waits *ww, struct proctree *tree,
			  double mono);

/* The last cgroup read of a sample, for the next tree in the same group
 * (a night's 50 sessions under one sshd read its pressure, quota and
 * throttling once a sample, not 50 times: bench/night.sh). The
 * collector's, zeroed at start. */
struct cgstat_memo {
	struct cgroup_set g;
	double mono;		/* the sample's clock; 0 nothing read */
	struct cgstat_raw raw;
};

/* One interval into iv (the wait counters and the cgroup counters; NAN
 * where unknown); the group read through memo (NULL: read here). */
void watch_waits_sample(struct watch_waits *ww, struct proctree *tree,
			double mono, struct cgstat_memo *memo,
			struct instance_values *iv);

/* An exit record the tree took (proctree_exit), drained at monotonic
 * time at, to its sampler: a thread it listed ends with the record's
 * final figures, one it never listed gets a row from it (waits.h
 * waits_exits). */
void watch_waits_exit(struct watch_waits *ww, const struct taskstats_exit *x,
		      double at);

/* The records the tree's read placed late (proctree_late), with when
 * they came, to its sampler before it is read, as watch_waits_exit's:
 * however long ago one came, it makes no second row of a thread the
 * sampler rowed (waits.h waits_exits). */
void watch_waits_late(struct watch_waits *ww, const struct proctree_late *v,
		      size_t n);

/* The next sample reads every thread, not a turn of WAITS_READ_MAX
 * (waits.h): the session's last, before watch_waits_finish. */
void watch_waits_whole(struct watch_waits *ww);

/* The share of one CPU its sampler's rate is held to (waits_budget):
 * trees that share one budget (a night's sessions) each take a part. */
void watch_waits_budget(struct watch_waits *ww, double share);

/* The tree is gone between two samples (its last row is taken): its
 * threads' time since the last sample into the totals, read whole,
 * before watch_waits_finish. */
void watch_waits_last(struct watch_waits *ww);

/* Write the session's per-thread totals to a new waits-LABEL.tsv in the
 * log set dir and put the end-marker fields in out, tab-separated
 * ("waits=FILE<TAB>waits.threads=N<TAB>..."; counters/README.md lists
 * them). Returns 0, or -1 with e set (out then still says what is known). */
int watch_waits_finish(struct watch_waits *ww, const char *dir,
		       const char *label, char *out, size_t n, struct perr *e);

/* Stop and free (NULL is fine). */
void watch_waits_close(struct watch_waits *ww);

#endif
