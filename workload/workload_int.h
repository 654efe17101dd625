/*
 * workload_int.h - what cmd_workload.c and perf.c share: the run's
 * settings and state, and one set's session (perf.c).
 */
#ifndef PERFLOG_WORKLOAD_INT_H
#define PERFLOG_WORKLOAD_INT_H

#include <stdio.h>

#include "../collector/control.h"
#include "workload.h"

struct wl_run {
	int marking;		/* a collector takes the markers */
	struct collector_info col;
	char base[4096], src[4200], tgt[4200];
	const char *target;	/* --target as given */
	double scale, seconds;
	struct workload_server srv;
	FILE *perfdata;		/* the dsmc-like summaries (the seed's
				 * perfdata.txt) */
	char perfdata_path[4300];
};

/* Back set i up as its session: 0, or 1 when it failed. kbs[i] gets its
 * KB/sec. */
int wl_run_set(struct wl_run *w, int i, double *kbs);

#endif
