/*
 * report_waits.c - the client's wait states as the report's table reads
 * them (report_rules.h): the split that speaks for the client, the
 * state the table marks as dominant, and a memory limit's two parts.
 * Nothing here decides the verdict: the session's wait graph does
 * (verdict/, report_verdict.c; issue 46 deleted the rules that judged
 * the client's share of its own time).
 *
 * The dominant state, for the table and the JSON only: a state of the
 * working threads with at least REPORT_WAIT_DOMINANT % of the states
 * that name a resource (CPU, disk, network, paced sleep) and
 * REPORT_WAIT_MARGIN times the next, when those hold at least
 * REPORT_WAIT_VOTING of their time.
 */
#include "report_rules.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The shares that vote: the working threads' when the per-thread totals
 * tell them apart, else every thread's. */
const double *report_waits_shares(const struct report_waits *w)
{
	return w->from_totals && w->nwork ? w->work : w->all;
}

int report_waits_dominant(const struct report_waits *w)
{
	static const int state[4] = { WS_CPU, WS_DISK, WS_NET, WS_SLEEP };
	const double *p;
	double v[4], best = -1, second = 0, voting = 0, total = 0;
	int b = -1;

	if (!w || !w->have)
		return -1;
	p = report_waits_shares(w);
	v[0] = p[WS_CPU] + p[WS_CPU_WAIT];
	v[1] = p[WS_DISK];
	v[2] = p[WS_NET];
	/* the sleep of threads that moved data votes; a helper's (Go's
	 * sysmon) is left with "other" (waitrates_paced) */
	v[3] = p[WS_SLEEP];
	if (p == w->work && w->unpaced > 0 && !isnan(v[3]))
		v[3] = v[3] > w->unpaced ? v[3] - w->unpaced : 0;
	for (int k = 0; k < 4; k++) {
		if (isnan(v[k]))
			continue;
		voting += v[k];
		if (v[k] > best) {
			second = best > 0 ? best : 0;
			best = v[k];
			b = k;
		} else if (v[k] > second) {
			second = v[k];
		}
	}
	total = voting + (isnan(p[WS_OTHER]) ? 0 : p[WS_OTHER]) +
		(isnan(p[WS_SLEEP]) ? 0 : p[WS_SLEEP] - v[3]);
	/* the voting floor is a share of the threads' summed time; threads
	 * that take turns on one CPU (a runtime's single P handed from
	 * thread to thread, each waiting on the others: other) hold at most
	 * a share of one over their number, however CPU-bound: restic at
	 * GOMAXPROCS=1, 4 threads, 0.83 CPUs' worth, voted 24.9% and was
	 * 'nothing'. A CPU kept busy most of the session votes in full */
	if (b == 0 && !isnan(w->cpus) && w->cpus >= REPORT_WAIT_CPU_HELD)
		total = voting;
	if (b < 0 || !(voting > 0) || voting < REPORT_WAIT_VOTING * total ||
	    100 * best / voting < REPORT_WAIT_DOMINANT ||
	    best < REPORT_WAIT_MARGIN * second)
		return -1;
	if (state[b] == WS_CPU)
		return p[WS_CPU_WAIT] > p[WS_CPU] ? WS_CPU_WAIT : WS_CPU;
	return state[b];
}

void report_memory_parts(const double *p, struct report_verdict *v)
{
	/* Both parts, the larger first: how a limit's time splits between
	 * reclaim (running: the kernel reclaims in the faulting thread) and
	 * refaults (the disk) is the disk's speed against the CPU's, not a
	 * property of the limit (issue 50: running 58% on a fresh machine's
	 * fast disk, the disk 48-59% on another's) */
	if (p[WS_CPU] > p[WS_DISK])
		report_line_add(v, "; its threads ran %.0f%% (reclaiming memory) and waited on the disk %.0f%% (reading back pages its memory limit evicted)",
		    p[WS_CPU], p[WS_DISK]);
	else
		report_line_add(v, "; its threads waited on the disk %.0f%% (reading back pages its memory limit evicted) and ran %.0f%% (reclaiming memory)",
		    p[WS_DISK], p[WS_CPU]);
}
