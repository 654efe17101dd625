/*
 * report_fixture.h - crafted figures for the report's unit tests
 * (test_report.c, test_report_hosts.c): a series with a known wobble and
 * its statistics, and an idle host to change one resource of.
 */
#ifndef PERFLOG_TESTS_REPORT_FIXTURE_H
#define PERFLOG_TESTS_REPORT_FIXTURE_H

#include <math.h>
#include <string.h>

#include "../../report/report_rules.h"

#define N 60

/* A series around base with a deterministic wobble of +-amp. */
static inline void series(double *v, double base, double amp)
{
	for (int i = 0; i < N; i++)
		v[i] = base + amp * sin(i * 0.7);
}

static inline void stat_of(struct report_stat *s, double base, double amp)
{
	double v[N];

	series(v, base, amp);
	report_stat_of(v, N, 1, s);
}

/* An idle 4-CPU host with a disk and a 1 Gb/s interface. */
static inline void idle(struct report_figures *f)
{
	memset(f, 0, sizeof(*f));
	f->ncpu = 4;
	stat_of(&f->cpu, 3, 1);
	stat_of(&f->cpu1, 8, 3);
	strcpy(f->cpu1_name, "2");
	stat_of(&f->iowait, 0.5, 0.3);
	stat_of(&f->proc_cpu, NAN, 0);
	strcpy(f->disk, "sdb");
	stat_of(&f->disk_busy, 2, 1);
	stat_of(&f->disk_bytes, 100e3, 50e3);
	stat_of(&f->disk_xfers, 10, 5);
	stat_of(&f->disk_service, 0.002, 0.001);
	f->disk_xfer_size = 10e3;
	stat_of(&f->mem_avail, 6e9, 1e8);
	f->mem_avail_ref = 6.2e9;
	stat_of(&f->pages, 0, 0);
	strcpy(f->net, "eth0");
	stat_of(&f->net_bytes, 12.5e6 * 0.02, 1e4);
	f->net_bandwidth = 1e9;
	stat_of(&f->net_share, 2, 0.1);
}

#endif
