/*
 * rates_cgroup.c - the Process object's cgroup counters from two reads of
 * the command's cgroup (process/cgstat.h): its pressure stalls and its
 * CPU quota throttling (rates.h, rates_cgroup).
 */
#include "rates.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

void rates_cgroup(const struct cgstat_raw *prev, const struct cgstat_raw *cur,
		  struct instance_values *iv)
{
	static const enum counter_id some[PSI_COUNT] = {
		CTR_PROC_CPU_SOME, CTR_PROC_IO_SOME, CTR_PROC_MEM_SOME };
	static const enum counter_id full[PSI_COUNT] = {
		CTR_PROC_CPU_FULL, CTR_PROC_IO_FULL, CTR_PROC_MEM_FULL };
	double dt = cur->mono - prev->mono, thr = NAN, per = NAN;
	int same;

	for (int r = 0; r < PSI_COUNT; r++) {
		const struct psi_raw *p = &prev->psi[r], *c = &cur->psi[r];
		int ok = dt > 0 && p->present && c->present;

		iv->v[catalog_counters[some[r]].index] =
			ok ? rates_stalled_pct(p->some_us, c->some_us, dt) : NAN;
		iv->v[catalog_counters[full[r]].index] =
			ok ? rates_stalled_pct(p->full_us, c->full_us, dt) : NAN;
	}
	same = dt > 0 && prev->quota == cur->quota &&
	       !strcmp(prev->quota_dir, cur->quota_dir);
	if (same && prev->throttled_us != SRC_NA &&
	    cur->throttled_us != SRC_NA &&
	    cur->throttled_us >= prev->throttled_us)
		thr = (double)(cur->throttled_us - prev->throttled_us) /
		      (dt * 1e4);
	/* periods: no quota, none went by and none was throttled (0%); a
	 * quota but no period ended in the interval (an idle group: the
	 * kernel counts only periods with runnable tasks): 0% too */
	if (same && prev->nr_periods != SRC_NA && cur->nr_periods != SRC_NA &&
	    prev->nr_throttled != SRC_NA && cur->nr_throttled != SRC_NA &&
	    cur->nr_periods >= prev->nr_periods &&
	    cur->nr_throttled >= prev->nr_throttled) {
		uint64_t np = cur->nr_periods - prev->nr_periods;
		uint64_t nt = cur->nr_throttled - prev->nr_throttled;

		per = np ? 100.0 * (double)(nt < np ? nt : np) / (double)np : 0;
	}
	iv->v[catalog_counters[CTR_PROC_THROTTLED].index] = thr;
	iv->v[catalog_counters[CTR_PROC_THROTTLED_PERIODS].index] = per;
}
