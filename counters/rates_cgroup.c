/*
 * rates_cgroup.c - the Process object's cgroup counters from two reads of
 * the command's cgroup (process/cgstat.h): its pressure stalls and its
 * CPU quota throttling (rates.h, rates_cgroup).
 */
#include "rates.h"

#include <math.h>
#include <stdint.h>

void rates_cgroup(const struct cgstat_raw *prev, const struct cgstat_raw *cur,
		  struct instance_values *iv)
{
	static const enum counter_id some[PSI_COUNT] = {
		CTR_PROC_CPU_SOME, CTR_PROC_IO_SOME, CTR_PROC_MEM_SOME };
	static const enum counter_id full[PSI_COUNT] = {
		CTR_PROC_CPU_FULL, CTR_PROC_IO_FULL, CTR_PROC_MEM_FULL };
	double dt = cur->mono - prev->mono, thr = NAN, per = NAN;
	int i;

	for (int r = 0; r < PSI_COUNT; r++) {
		const struct psi_raw *p = &prev->psi[r], *c = &cur->psi[r];
		int ok = dt > 0 && p->present && c->present;

		iv->v[catalog_counters[some[r]].index] =
			ok ? rates_stalled_pct(p->some_us, c->some_us, dt) : NAN;
		iv->v[catalog_counters[full[r]].index] =
			ok ? rates_stalled_pct(p->full_us, c->full_us, dt) : NAN;
	}
	/* no quota in either read: nothing could throttle, 0 is measured */
	if (dt > 0 && prev->grouped && cur->grouped && prev->pick < 0 &&
	    cur->pick < 0)
		thr = per = 0;
	/* else the group that throttled in the interval (a parent's quota
	 * used up by a sibling, not always the smallest), unknown when the
	 * groups with a quota changed between the reads */
	else if (dt > 0 && (i = cgstat_throttler(prev, cur)) >= 0) {
		const struct cgstat_quota *p = &prev->q[i], *c = &cur->q[i];

		if (p->throttled_us != SRC_NA && c->throttled_us != SRC_NA &&
		    c->throttled_us >= p->throttled_us)
			thr = (double)(c->throttled_us - p->throttled_us) /
			      (dt * 1e4);
		/* periods: a quota but no period ended in the interval (an
		 * idle group: the kernel counts only periods with runnable
		 * tasks): 0% */
		if (p->nr_periods != SRC_NA && c->nr_periods != SRC_NA &&
		    p->nr_throttled != SRC_NA && c->nr_throttled != SRC_NA &&
		    c->nr_periods >= p->nr_periods &&
		    c->nr_throttled >= p->nr_throttled) {
			uint64_t np = c->nr_periods - p->nr_periods;
			uint64_t nt = c->nr_throttled - p->nr_throttled;

			per = np ? 100.0 * (double)(nt < np ? nt : np) /
				   (double)np : 0;
		}
	}
	iv->v[catalog_counters[CTR_PROC_THROTTLED].index] = thr;
	iv->v[catalog_counters[CTR_PROC_THROTTLED_PERIODS].index] = per;
}
