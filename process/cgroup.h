/*
 * cgroup.h - the command's own control group.
 *
 * `perflog run` puts the command in a group of its own, created as a CHILD
 * of the group perflog run itself is in (read from /proc/self/cgroup), so
 * a CPU quota or memory limit the user put perflog run under still applies
 * to the command. The kernel keeps the CPU time of a group whole: tasks
 * that exited count, children auto-reaped by a parent that ignores SIGCHLD
 * count; no walk of the process tree can promise that.
 *
 * Both hierarchies are handled, and a host may have both (systemd's
 * "hybrid" layout: v1 controllers at /sys/fs/cgroup/NAME and a v2 tree at
 * /sys/fs/cgroup/unified; a pure v2 host has it at /sys/fs/cgroup):
 *   v2   every group has cpu.stat (usage_usec, user_usec, system_usec: the
 *        exact CPU time of the group), cgroup.procs / cgroup.threads and,
 *        with PSI on, cpu.pressure / io.pressure / memory.pressure, even
 *        when no controller is enabled for it
 *   v1   cpuacct.usage (ns) in the cpuacct hierarchy; cpu.stat
 *        (nr_throttled, throttled_time) in the cpu hierarchy, which may be
 *        co-mounted with cpuacct ("cpu,cpuacct") or not
 * Mount points come from /proc/self/mountinfo (the first mount of each
 * hierarchy; a hierarchy mounted from below its root, as in a container,
 * is used when our group lies inside what the mount shows).
 *
 * Names: a group is NAME = CGROUP_PREFIX "PID" (perflog run's pid), so a
 * group left behind by a `kill -9` of perflog run is recognised by a later
 * run (cgroup_clean_stale) and removed when its pid is gone and it is
 * empty (rmdir refuses a group that still holds a task, so removal is
 * never destructive).
 *
 * Without the right to create groups (not root, no delegated subtree, a
 * read-only cgroupfs) cgroup_create returns -1 and the caller falls back
 * to the process tree (process.h says what that loses).
 */
#ifndef PERFLOG_CGROUP_H
#define PERFLOG_CGROUP_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../common/util.h"

#define CGROUP_PREFIX "perflog-run."

/* A group in each hierarchy that has one; "" where there is none. */
struct cgroup_set {
	char v2[PATH_MAX];	/* cgroup2 directory */
	char cpu[PATH_MAX];	/* v1 cpu controller directory */
	char cpuacct[PATH_MAX];	/* v1 cpuacct directory (= cpu when the two
				 * are co-mounted) */
};

/* Is any group of the set present? */
int cgroup_any(const struct cgroup_set *g);

/* The groups this process is in, from mountinfo and cgroup text (the
 * contents of /proc/self/mountinfo and /proc/self/cgroup; pure, for
 * tests). Hierarchies it cannot place stay "". Returns 0, or -1 when no
 * hierarchy was found. */
int cgroup_parse(const char *mountinfo, const char *cgroup,
		 struct cgroup_set *out);

/* One hierarchy's directory of the group cgroup text places a process
 * in: cgroup2 (ctrl NULL) or the v1 one mounted with controller ctrl
 * ("memory"). 0, or -1 ("" in dir) when it cannot be placed. */
int cgroup_place(const char *mountinfo, const char *cgroup,
		 const char *ctrl, char *dir, size_t n);

/* How many processes the OOM killer has ended in the memory cgroup a
 * command runs in (ROOT/proc/self/{mountinfo,cgroup}; root "/" or "" the
 * real one, the directories under root too): the memory.events oom_kill
 * of cmd_v2 (the command's own v2 group, under root; NULL or "": none)
 * when the memory controller is on there, else of this process's v2
 * group (hierarchical: the kills below it), else v1's memory.oom_control
 * oom_kill of this process's memory group (v1 counts a kill in the
 * victim's group only; the groups above are not read). -1 when no such
 * file can be read (cgroup_oom.c). */
long cgroup_oom_kills(const char *root, const char *cmd_v2);

/* cgroup_parse of this process's own files. */
int cgroup_self(struct cgroup_set *out, struct perr *e);

/* The groups process pid is in (ROOT/proc/PID/cgroup placed with
 * ROOT/proc/self/mountinfo; root "/" or "" for the real one): a watched
 * daemon's, for its quota (collector/watch_waits.c). 0, or -1 when the
 * files cannot be read or place nothing. */
int cgroup_of(const char *root, pid_t pid, struct cgroup_set *out);

/* The groups of systemd service unit (NAME.service):
 * system.slice/NAME.service in each hierarchy this process's groups are
 * in (/sys/fs/cgroup/system.slice/NAME.service on a v2 host). Those that
 * do not exist are left "". Returns 0, or -1 with e set when the name is
 * not a service's or the unit has no group (it is not running). */
int cgroup_unit(const char *unit, struct cgroup_set *out, struct perr *e);

/* Create NAME below each group of base (mkdir, 0755). A hierarchy where
 * that fails is left "" in out (e says why for the first failure).
 * Returns 0 when at least one group was created, -1 otherwise. */
int cgroup_create(const struct cgroup_set *base, const char *name,
		  struct cgroup_set *out, struct perr *e);

/* Move process pid (all its threads) into every group of g. A group the
 * move fails for (a real-time task into a v1 cpu group without RT
 * runtime, a v2 group that became threaded ...) is removed and cleared
 * from g. Returns 0 when pid is in at least one group, -1 otherwise. */
int cgroup_join(struct cgroup_set *g, pid_t pid, struct perr *e);

/* CPU time the group's tasks used since it was created, living and exited
 * alike, in microseconds: v2 cpu.stat usage_usec, else v1 cpuacct.usage.
 * Returns 2 or 1 (the hierarchy read), or -1 when neither can be read. */
int cgroup_cpu_usage(const struct cgroup_set *g, uint64_t *usec);

/* The processes (thread group ids) in the group now: v2 cgroup.procs,
 * else the v1 one. *pids is malloc'ed. Returns the count or -1. */
long cgroup_procs(const struct cgroup_set *g, pid_t **pids);

/* Remove the groups: processes still in them (daemons the command left)
 * are moved to the parent group first, then each directory is removed
 * (retried for up to a second while an exiting task lingers). Returns 0,
 * or -1 with e naming the first group that could not be removed. */
int cgroup_remove(struct cgroup_set *g, struct perr *e);

/* Remove the groups named CGROUP_PREFIX "PID" below base whose PID no
 * longer exists and that hold no task (left by a kill -9). Returns how
 * many were removed. */
int cgroup_clean_stale(const struct cgroup_set *base);

/* "v2", "v1" or "" for a set, as logged in the begin marker. */
const char *cgroup_kind(const struct cgroup_set *g);

#endif
