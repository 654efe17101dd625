/*
 * report_stat.h - statistics of one series over a session and the
 * formatting of bytes and bits, for the report's figures, rules and
 * printing (report_stat.c; pure, unit-tested in tests/unit/test_report.c).
 */
#ifndef PERFLOG_REPORT_STAT_H
#define PERFLOG_REPORT_STAT_H

#include <stddef.h>

/* Statistics of one series over a span. Unknown (NAN) values are left
 * out; with no known value every field is NAN and n is 0. */
struct report_stat {
	double avg, p95, peak, min;
	double positive;	/* share (0..1) of known values above 0 */
	size_t n;		/* known values */
};

/* Percentile p (0..100) of the known values of v[0..n), by linear
 * interpolation between closest ranks (numpy's default, Hyndman & Fan
 * type 7): p95 of 1..100 is 95.05. NAN when no value is known. */
double report_percentile(const double *v, size_t n, double p);

/* Every statistic of v[0], v[stride], ... (n values). */
void report_stat_of(const double *v, size_t n, size_t stride,
		    struct report_stat *out);

/* "23.0 GiB"-style formatting (base 1024 for bytes, 1000 for bits:
 * "1 Gb/s"): counters/units.h's format; a suffix "/s" makes bytes a rate,
 * in the report's one unit of a rate (units_fmt_rate: "11.3 MiB/s",
 * "0.30 MiB/s"); bits at or below 0 are "unknown bandwidth". */
char *report_fmt_bytes(char *buf, size_t n, double bytes, const char *suffix);
char *report_fmt_bits(char *buf, size_t n, double bits_per_sec);

#endif
