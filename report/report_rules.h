/*
 * report_rules.h - the arithmetic and the judgement of `perflog report`,
 * kept pure (no log set, no I/O) so every rule is unit-tested on synthetic
 * series: statistics over a session (average, 95th percentile, peak) and
 * the bottleneck verdict. The rules and thresholds are explained in
 * report/README.md; the constants below are the ones it cites.
 */
#ifndef PERFLOG_REPORT_RULES_H
#define PERFLOG_REPORT_RULES_H

#include <stddef.h>

#include "../client/instr.h"

/* Thresholds (percent unless said otherwise). */
#define REPORT_CPU_P95 85.0	/* total CPU: p95 at least ... */
#define REPORT_CPU_AVG 70.0	/* ... and average at least */
#define REPORT_CPU1_P95 90.0	/* one CPU (busiest per interval) p95 */
#define REPORT_CPU1_AVG 75.0	/* and average */
#define REPORT_DISK_P95 80.0	/* % Disk Time p95 */
#define REPORT_DISK_AVG 60.0	/* and average */
#define REPORT_NET_P95 70.0	/* share of Current Bandwidth p95 */
#define REPORT_NET_AVG 50.0	/* and average */
#define REPORT_PAGES_AVG 10.0	/* Pages/sec average at least */
#define REPORT_PAGES_SUSTAINED 0.5	/* and > 0 in this share of intervals */
#define REPORT_MEM_LOW_BYTES (256.0 * 1024 * 1024)	/* available below */
#define REPORT_MEM_LOW_SHARE 0.10	/* or below this share of the log's peak */
#define REPORT_IOWAIT_AVG 30.0	/* % IOWait average: waiting on I/O */
#define REPORT_SMALL_XFER (32.0 * 1024)	/* bytes per transfer: "small" */
#define REPORT_LOW_THROUGHPUT (20.0 * 1024 * 1024)	/* bytes/s: "low" */
#define REPORT_SLOW_SERVICE 0.020	/* seconds per transfer: "slow" */
#define REPORT_INSTR_DOMINANT 0.40	/* a category's share of elapsed */

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

/* What one session looked like, resource by resource (filled by report.c
 * from a log set, or by hand in tests). Names are "" and stats have n == 0
 * when the log set lacks the resource. */
struct report_figures {
	int ncpu;			/* CPU instances, 0 when unknown */
	struct report_stat cpu;		/* Processor(_Total)\% Processor Time */
	struct report_stat cpu1;	/* the busiest CPU of each interval */
	char cpu1_name[96];		/* the CPU busiest on average */
	struct report_stat iowait;	/* Processor(_Total)\% IOWait Time */
	struct report_stat proc_cpu;	/* Process(...)\% Processor Time */
	char disk[64];			/* busiest disk by average % Disk Time */
	struct report_stat disk_busy;	/* its % Disk Time */
	struct report_stat disk_bytes;	/* read + write bytes/sec */
	struct report_stat disk_xfers;	/* reads + writes /sec */
	struct report_stat disk_service;	/* Avg. Disk sec/Transfer */
	double disk_xfer_size;		/* bytes per transfer over the span */
	struct report_stat mem_avail;	/* Memory\Available Bytes */
	double mem_avail_ref;		/* the log's largest Available Bytes */
	struct report_stat pages;	/* Memory\Pages/sec */
	char net[64];			/* busiest interface by bytes/sec */
	struct report_stat net_bytes;	/* its Bytes Total/sec */
	struct report_stat net_share;	/* % of Current Bandwidth */
	double net_bandwidth;		/* bits/sec, NAN when unknown */
};

enum report_kind {
	REPORT_NONE,		/* nothing near saturation */
	REPORT_CPU,		/* all CPUs busy */
	REPORT_CPU_SINGLE,	/* one CPU busy: a single-threaded client */
	REPORT_DISK,		/* the busiest disk */
	REPORT_IOWAIT,		/* CPUs waiting on I/O, no one disk saturated */
	REPORT_NETWORK,		/* the busiest interface near its bandwidth */
	REPORT_PAGING,		/* memory short: sustained paging */
	REPORT_FILE_IO,		/* instrumentation: client file reads */
	REPORT_NET_OR_SERVER,	/* instrumentation: Data Verb, network idle */
	REPORT_SERVER,		/* instrumentation: waiting on transactions */
	REPORT_CLIENT_CPU,	/* instrumentation: client CPU work */
	REPORT_SOURCE,		/* NetBackup: consumers waited for full buffers */
	REPORT_STORAGE		/* NetBackup: producers waited for empty buffers */
};

struct report_verdict {
	enum report_kind kind;
	char line[640];		/* "Bottleneck: ..." */
	char hint[320];		/* what it suggests, "" when nothing */
};

/* Judge one session. instr is the client's instrumentation (main thread)
 * or NULL. */
void report_judge(const struct report_figures *f,
		  const struct instr_thread *instr, struct report_verdict *v);

/* "11.3 MiB/s"-style formatting (base 1024 for bytes, 1000 for bits:
 * "1 Gb/s"). */
char *report_fmt_bytes(char *buf, size_t n, double bytes, const char *suffix);
char *report_fmt_bits(char *buf, size_t n, double bits_per_sec);

const char *report_kind_name(enum report_kind k);

#endif
