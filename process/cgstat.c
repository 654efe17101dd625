/*
 * cgstat.c - the command's cgroup: pressure stalls and CPU quota
 * throttling (cgstat.h).
 */
#define _GNU_SOURCE
#include "cgstat.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static const char *const psi_file[PSI_COUNT] = {
	"cpu.pressure", "io.pressure", "memory.pressure",
};

/* dir/name into buf; 0, or -1 when it does not fit. */
static int join(char *buf, size_t n, const char *dir, const char *name)
{
	return snprintf(buf, n, "%s/%s", dir, name) < (int)n ? 0 : -1;
}

/* The quota of the group at dir, as CPUs: > 0 with one, 0 with none
 * ("max", -1, or no file: a v2 group whose parent did not enable the cpu
 * controller for it), -1 when dir is not a cgroup (above the root). */
static double quota_at(const char *dir, int v1)
{
	char path[PATH_MAX + 32], buf[128];
	long long q, p;

	if (join(path, sizeof(path), dir, "cgroup.procs") < 0 ||
	    access(path, F_OK) < 0)
		return -1;
	if (join(path, sizeof(path), dir, v1 ? "cpu.cfs_quota_us" : "cpu.max") < 0 ||
	    util_read_small(path, buf, sizeof(buf)) <= 0)
		return 0;
	if (!v1) {
		if (!strncmp(buf, "max", 3))
			return 0;
		return sscanf(buf, "%lld %lld", &q, &p) == 2 && q > 0 && p > 0 ?
			(double)q / (double)p : 0;
	}
	if (sscanf(buf, "%lld", &q) != 1 || q <= 0)
		return 0;
	if (join(path, sizeof(path), dir, "cpu.cfs_period_us") < 0 ||
	    util_read_small(path, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%lld", &p) != 1 || p <= 0)
		return 0;
	return (double)q / (double)p;
}

/* The quota in force is the smallest on the way up to the root, not the
 * nearest: v2 lets a child ask for more than its parent allows (parent
 * 50000/100000, child 200000/100000 held the child to half a CPU, and
 * 2.0 was said), and its throttling is counted in the group that has it.
 * v1 refuses a child more than its parent; the walk is the same. */
int cgstat_find_quota(const char *dir, int v1, struct cgstat_raw *out)
{
	char cur[PATH_MAX];
	size_t root = 0;	/* the hierarchy's root: cur's length there */
	int found = 0;

	if (!dir[0] || util_strlcpy(cur, dir, sizeof(cur)) < 0)
		return 0;
	for (int depth = 0; depth < 64; depth++) {
		double q = quota_at(cur, v1);
		char *slash;

		if (q < 0)
			break;	/* above the hierarchy's root */
		root = strlen(cur);
		if (q > 0 && (!found || q < out->quota_cpus)) {
			found = out->quota = 1;
			out->quota_cpus = q;
			util_strlcpy(out->quota_dir, cur, sizeof(out->quota_dir));
		}
		slash = strrchr(cur, '/');
		if (!slash || slash == cur)
			break;
		*slash = '\0';
	}
	/* the group as the kernel names it (/proc/PID/cgroup): its path
	 * below the hierarchy's root, "/" the root itself */
	if (found)
		util_strlcpy(out->quota_group, out->quota_dir[root] ?
			     out->quota_dir + root : "/",
			     sizeof(out->quota_group));
	return found;
}

/* The quota group's throttling from its cpu.stat: the throttled time in
 * microseconds, the periods and the throttled periods (SRC_NA each when
 * unknown). */
static void throttled(const char *dir, int v1, struct cgstat_raw *out)
{
	const char *key = v1 ? "throttled_time " : "throttled_usec ";
	char path[PATH_MAX + 32], buf[1024], *p;
	uint64_t v;

	if (join(path, sizeof(path), dir, "cpu.stat") < 0 ||
	    util_read_small(path, buf, sizeof(buf)) <= 0)
		return;
	for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, strlen(key)) &&
		    sscanf(p + strlen(key), "%" SCNu64, &v) == 1)
			out->throttled_us = v1 ? v / 1000 : v;
		else if (sscanf(p, "nr_periods %" SCNu64, &v) == 1)
			out->nr_periods = v;
		else if (sscanf(p, "nr_throttled %" SCNu64, &v) == 1)
			out->nr_throttled = v;
	}
}

void cgstat_read(const struct cgroup_set *g, double mono,
		 struct cgstat_raw *out)
{
	char path[PATH_MAX + 32];
	struct perr e;
	int v1 = 0;

	memset(out, 0, sizeof(*out));
	out->mono = mono;
	out->quota_cpus = NAN;
	out->throttled_us = out->nr_periods = out->nr_throttled = SRC_NA;
	for (int r = 0; r < PSI_COUNT; r++) {
		out->psi[r].some_us = out->psi[r].full_us = SRC_NA;
		if (g && g->v2[0] &&
		    join(path, sizeof(path), g->v2, psi_file[r]) == 0)
			psi_read_file(path, &out->psi[r], &e);
	}
	if (!cgroup_any(g))
		return;
	if (!cgstat_find_quota(g->v2, 0, out))
		v1 = cgstat_find_quota(g->cpu, 1, out);
	if (out->quota)
		throttled(out->quota_dir, v1, out);
	else	/* nothing can hold it back */
		out->throttled_us = out->nr_periods = out->nr_throttled = 0;
}
