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

/* A quota group's throttling from its cpu.stat: the throttled time in
 * microseconds, the periods and the throttled periods (SRC_NA each when
 * unknown). */
static void throttled(const char *dir, int v1, struct cgstat_quota *q)
{
	const char *key = v1 ? "throttled_time " : "throttled_usec ";
	char path[PATH_MAX + 32], buf[1024], *p;
	uint64_t v;

	q->throttled_us = q->nr_periods = q->nr_throttled = SRC_NA;
	if (join(path, sizeof(path), dir, "cpu.stat") < 0 ||
	    util_read_small(path, buf, sizeof(buf)) <= 0)
		return;
	for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, strlen(key)) &&
		    sscanf(p + strlen(key), "%" SCNu64, &v) == 1)
			q->throttled_us = v1 ? v / 1000 : v;
		else if (sscanf(p, "nr_periods %" SCNu64, &v) == 1)
			q->nr_periods = v;
		else if (sscanf(p, "nr_throttled %" SCNu64, &v) == 1)
			q->nr_throttled = v;
	}
}

/* Name q[i] of out as the quota. */
static void name_quota(struct cgstat_raw *out, int i)
{
	size_t len = out->q[i].len;

	out->pick = i;
	out->quota_cpus = out->q[i].cpus;
	memcpy(out->quota_dir, out->from, len);
	out->quota_dir[len] = '\0';
	/* the group as the kernel names it (/proc/PID/cgroup): its path
	 * below the hierarchy's root, "/" the root itself */
	util_strlcpy(out->quota_group, len > out->root ?
		     out->quota_dir + out->root : "/",
		     sizeof(out->quota_group));
}

/* Every group with a quota on the way up to the root is kept with its
 * throttling: v2 lets a child ask for more than its parent allows
 * (parent 50000/100000, child 200000/100000 held the child to half a
 * CPU), and a parent's quota used up by a sibling group throttles a child
 * whose own smaller quota is never reached. v1 refuses a child more than
 * its parent; the walk is the same. After a read the smallest is named;
 * cgstat_choose names the one that throttled. */
int cgstat_find_quota(const char *dir, int v1, struct cgstat_raw *out)
{
	char cur[PATH_MAX];

	out->nq = 0;
	out->pick = -1;
	out->root = 0;
	if (!dir[0] || util_strlcpy(out->from, dir, sizeof(out->from)) < 0) {
		out->from[0] = '\0';
		return 0;
	}
	memcpy(cur, out->from, sizeof(cur));
	for (int depth = 0; depth < 64; depth++) {
		double q = quota_at(cur, v1);
		char *slash;

		if (q < 0)
			break;	/* above the hierarchy's root */
		out->root = strlen(cur);
		if (q > 0 && out->nq < CGSTAT_QUOTAS) {
			struct cgstat_quota *g = &out->q[out->nq];

			g->len = out->root;
			g->cpus = q;
			throttled(cur, v1, g);
			if (out->pick < 0 || q < out->q[out->pick].cpus)
				out->pick = out->nq;
			out->nq++;
		}
		slash = strrchr(cur, '/');
		if (!slash || slash == cur)
			break;
		*slash = '\0';
	}
	if (out->pick >= 0)
		name_quota(out, out->pick);
	return out->pick >= 0;
}

int cgstat_same_groups(const struct cgstat_raw *a, const struct cgstat_raw *b)
{
	if (a->nq != b->nq || strcmp(a->from, b->from))
		return 0;
	for (int i = 0; i < a->nq; i++)
		if (a->q[i].len != b->q[i].len)
			return 0;
	return 1;
}

int cgstat_throttler(const struct cgstat_raw *base,
		     const struct cgstat_raw *cur)
{
	uint64_t most = 0;
	int best = cur->pick;

	if (cur->pick < 0 || !cgstat_same_groups(base, cur))
		return -1;
	for (int i = 0; i < cur->nq; i++) {
		const struct cgstat_quota *a = &base->q[i], *b = &cur->q[i];

		if (a->throttled_us != SRC_NA && b->throttled_us != SRC_NA &&
		    b->throttled_us > a->throttled_us &&
		    b->throttled_us - a->throttled_us > most) {
			most = b->throttled_us - a->throttled_us;
			best = i;
		}
	}
	return best;
}

void cgstat_choose(const struct cgstat_raw *base, struct cgstat_raw *cur)
{
	int i = cgstat_throttler(base, cur);

	if (i >= 0)
		name_quota(cur, i);
}

void cgstat_read(const struct cgroup_set *g, double mono,
		 struct cgstat_raw *out)
{
	char path[PATH_MAX + 32];
	struct perr e;

	memset(out, 0, sizeof(*out));
	out->mono = mono;
	out->quota_cpus = NAN;
	out->pick = -1;
	for (int r = 0; r < PSI_COUNT; r++) {
		out->psi[r].some_us = out->psi[r].full_us = SRC_NA;
		if (g && g->v2[0] &&
		    join(path, sizeof(path), g->v2, psi_file[r]) == 0)
			psi_read_file(path, &out->psi[r], &e);
	}
	if (!cgroup_any(g))
		return;
	out->grouped = 1;
	/* v2's groups, else v1's cpu group; from names the one walked
	 * (a group and no quota: nothing can throttle it) */
	if (!cgstat_find_quota(g->v2, 0, out) && g->cpu[0])
		cgstat_find_quota(g->cpu, 1, out);
}
