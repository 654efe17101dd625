/*
 * cgstat.h - what the command's own cgroup (cgroup.h) says about limits no
 * utilization counter shows: its pressure stalls and its CPU quota.
 *
 *   pressure   the group's v2 cpu.pressure, io.pressure, memory.pressure
 *              (sources/source.h, psi.c: the same format as /proc/pressure), cumulative
 *              microseconds in which some or all of the group's non-idle
 *              tasks were stalled. A v2 group has them with PSI on even
 *              when no controller is enabled for it, and a memory limit
 *              set in v1 still stalls the tasks of the v2 group (the
 *              kernel accounts stalls by the v2 group of the task).
 *   throttling the CPU quota that applies to the command: the group's own
 *              or, since perflog run makes the command's group a child of
 *              its own (a quota put on perflog run holds the command too),
 *              its ancestors' (every one that has one): walking up from the
 *              command's v2 group (cpu.max other than "max") and its v1
 *              cpu group (cpu.cfs_quota_us > 0) while the parent is still
 *              a cgroup (has cgroup.procs; the mount's root's parent has
 *              not; a v2 group without the cpu controller has no cpu.max
 *              and is passed over, its ancestors may have one). Each
 *              quota group's cpu.stat is read (v2 throttled_usec, v1
 *              throttled_time in ns): the smallest quota is not always
 *              the one that throttles (a parent's larger one used up by a
 *              sibling group holds the child while the child's own is
 *              never reached), so the group named is the one whose
 *              throttled time grew (cgstat_throttler). The walk is done
 *              at every read: a quota set or lifted during the run is
 *              followed.
 *
 * The kernel adds a run queue's throttled span to throttled_time once per
 * CPU whose queue of the group was held, so % Throttled Time is 100 per
 * CPU (like % Processor Time): a quota of a quarter CPU over one busy
 * thread gives about 75, over two threads on two CPUs up to 150. The
 * share of time the group was held is cpu.stat's nr_throttled over
 * nr_periods (both v1 and v2): % Throttled Periods, never over 100.
 *
 * Directories are runtime arguments: unit tests point them at plain files
 * under a temporary directory.
 */
#ifndef PERFLOG_CGSTAT_H
#define PERFLOG_CGSTAT_H

#include <limits.h>
#include <stdint.h>

#include "cgroup.h"
#include "../sources/source.h"

/* One group with a quota on the way up from the command's group: its
 * directory is the first len characters of cgstat_raw.from. */
struct cgstat_quota {
	size_t len;
	double cpus;		/* its quota / period */
	uint64_t throttled_us;	/* its throttled time; SRC_NA unknown */
	uint64_t nr_periods;	/* its quota periods gone by, and those in */
	uint64_t nr_throttled;	/* which it was held (SRC_NA unknown) */
};

#define CGSTAT_QUOTAS 8		/* groups with a quota kept, nearest first */

struct cgstat_raw {
	double mono;		/* CLOCK_MONOTONIC seconds of the read */
	struct psi_raw psi[PSI_COUNT];	/* present = 0: not read */
	int grouped;		/* 1: the command has a cgroup (and with
				 * no quota nothing can throttle it) */
	char from[PATH_MAX];	/* the group walked up from */
	int nq;			/* groups with a quota on the way up */
	struct cgstat_quota q[CGSTAT_QUOTAS];
	/* the quota named: the smallest after a read, the one that
	 * throttled after cgstat_choose */
	int pick;		/* its index in q, -1 none: a quota applies
				 * (quota_dir below) when pick >= 0 */
	double quota_cpus;	/* its quota / period, NAN without one */
	char quota_dir[PATH_MAX];
	char quota_group[PATH_MAX];	/* the same group as the kernel names
					 * it: below the hierarchy's root
					 * ("/backup.slice"), what the report
					 * says */
	size_t root;		/* from's length at the hierarchy's root */
};

/* Read the command's groups g now (mono is the caller's clock). */
void cgstat_read(const struct cgroup_set *g, double mono,
		 struct cgstat_raw *out);

/* The quota groups for v1 (v1 = 1: cpu.cfs_quota_us) or v2 (cpu.max)
 * starting at dir, up to the hierarchy's root: fills out->from, nq, q
 * (quota and throttling of each) and names the smallest (quota, pick,
 * quota_cpus, quota_dir, quota_group).
 * Returns 1 when one was found, 0 when not (exposed for tests). */
int cgstat_find_quota(const char *dir, int v1, struct cgstat_raw *out);

/* 1 when a and b read the same groups with a quota (their throttling
 * makes a delta), else 0. */
int cgstat_same_groups(const struct cgstat_raw *a, const struct cgstat_raw *b);

/* Of the quota groups of cur, the one whose throttled time grew most
 * since base (an earlier read of the same groups): a parent's larger
 * quota used up by a sibling holds the tree while a child's smaller one
 * is never reached. Its index in cur->q; when none grew, cur->pick (the
 * smallest); -1 when there is no quota or base's groups are not cur's. */
int cgstat_throttler(const struct cgstat_raw *base,
		     const struct cgstat_raw *cur);

/* Name in cur (quota_cpus, quota_dir, quota_group, pick) the group that
 * throttled since base (cgstat_throttler); unchanged when none did. */
void cgstat_choose(const struct cgstat_raw *base, struct cgstat_raw *cur);

#endif
