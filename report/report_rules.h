/*
 * report_rules.h - the arithmetic and the judgement of `perflog report`,
 * kept pure (no log set, no I/O) so every rule is unit-tested on synthetic
 * series: the bottleneck verdict over a session's statistics
 * (report_stat.h: average, 95th percentile, peak). The rules and
 * thresholds are explained in report/README.md; the constants below are
 * the ones it cites.
 */
#ifndef PERFLOG_REPORT_RULES_H
#define PERFLOG_REPORT_RULES_H

#include <stddef.h>

#include "../client/instr.h"
#include "../waits/waitstates.h"
#include "report_stat.h"

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

/* The dominant state the waits table marks (report_waits.c): not a
 * verdict, which is the wait graph's */
#define REPORT_WAIT_DOMINANT 50.0	/* a state's share of the states
					   that name a resource, at least ... */
#define REPORT_WAIT_MARGIN 1.25		/* ... and this many times the next */
#define REPORT_WAIT_VOTING 0.25		/* those states' share of the
					   working threads' time, at least */
#define REPORT_WAIT_CPU_HELD 0.75	/* ... or, for the CPU, this many
					   CPUs' worth over the session (a
					   runtime's threads taking turns on
					   one CPU: restic at GOMAXPROCS=1) */
#define REPORT_THROTTLED_MIN 10.0	/* % Throttled Time: a quota held it */
#define REPORT_NET_FREE 50.0		/* link share below: not the link */
/* The system's pressure stalls, when no command was wrapped */
#define REPORT_PSI_MEM_AVG 10.0		/* Pressure(memory) some avg */
#define REPORT_PSI_IO_AVG 30.0		/* Pressure(io) some avg */
#define REPORT_PSI_CPU_AVG 30.0		/* Pressure(cpu) some avg */

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
	const char *proc_who;		/* whose tree that is: NULL the
					   client's, "server" a --with set's */
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
	struct report_stat psi[3];	/* Pressure(cpu|io|memory) some */
	struct report_stat runq;	/* System\Processor Queue Length */
	struct report_stat retrans;	/* TCP\Segments Retransmitted/sec */
	size_t rows;			/* rows the resource table rests on
					   (the most any system figure had) */
	unsigned step;			/* their interval, seconds (0: unknown) */
};
/* Fewer rows than this and the report says the figures are thin and
 * suggests a shorter interval (a 2.9 s backup at -i 5 is 2 rows). */
#define REPORT_FEW_ROWS 5

/* The client's wait states over a session (perflog run; report_waits.h
 * fills it from the log set). Shares in percent of the threads' summed
 * time, so the six add to 100. */
struct report_waits {
	int have;			/* 0: none for this session */
	int from_totals;		/* 1: from waits-LABEL.tsv (per thread);
					   0: from the logged counters (all
					   threads, no working/idle split) */
	char process[64];		/* the Process instance */
	char unused[200];		/* the end marker named a totals file
					   that was not used, and why ("" when
					   none was named or it was used) */
	char unread[200];		/* lines of its edges file skipped
					   ("'FILE' line L: ..."; "" none) */
	size_t folded;			/* ended threads the file summed by
					   name (waitrates.h) */
	double work[WS_N];		/* the threads that worked */
	double all[WS_N];		/* every thread */
	size_t nwork, nall;		/* threads */
	double cpus;			/* CPUs' worth the working threads ran
					   (CPU seconds / the session) */
	double unpaced;			/* % of the working time asleep in
					   threads that moved no data: sleep
					   that paces nothing and does not
					   vote (waitrates_paced); 0: all of
					   it votes */
	char top[16];			/* the command that ran the most */
	int hidden;			/* wait channels hidden (waits.hidden) */
	double guessed;			/* % of blocked ticks by the letter */
	/* a set read in turns (waits.read_share): the % of its blocked
	 * ticks read, and how far the split may be off, in points (95%),
	 * for the working threads and all; NAN: every tick read */
	double read_share, split_error, split_error_all;
	/* the command's cgroup (Process counters over the session) */
	struct report_stat stall_cpu, stall_io, stall_mem;
	struct report_stat throttled;	/* % Throttled Time: 100 per CPU */
	struct report_stat thr_periods;	/* % Throttled Periods: of time */
	struct report_stat io_read, io_write;	/* the tree's bytes/s */
	double quota;			/* CPUs (cgroup.cpu_quota), NAN none */
	char quota_group[128];		/* the group that has it, as the
					 * kernel names it ("/backup.slice",
					 * cgroup.quota_group); "" unknown */
	double kernel_share;		/* of the command's CPU time, the
					 * kernel's (rusage.stime over
					 * utime + stime), NAN unknown */
};

/* The logged Process counters give a tree's wait states only with at
 * least this many threads on average over the session. */
#define REPORT_WAITS_MIN_THREADS 0.5
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
	REPORT_STORAGE,		/* NetBackup: producers waited for empty buffers */
	/* the system's pressure stalls, without a wrapped command */
	REPORT_PSI_MEMORY,
	REPORT_PSI_IO,
	REPORT_PSI_CPU
};

struct report_verdict {
	enum report_kind kind;
	const char *detail;	/* the wait graph's verdict: its detail
				 * (verdict/words.c); NULL: the counters' */
	char line[640];		/* "Bottleneck: ..." */
	char hint[320];		/* what it suggests, "" when nothing */
};

/* Judge one session by the counters, where no wait graph speaks (a
 * session whose client no perflog run or watch read: the report's wait
 * graph replaces this line whenever the session has the client's wait
 * states). instr is the client's instrumentation (main thread) or NULL.
 * The line starts "Bottleneck: " and the resource word
 * (report_kind_word), then the evidence. */
void report_judge(const struct report_figures *f,
		  const struct instr_thread *instr, struct report_verdict *v);

/* Append printf-style text to v->line, cut at its size (the line keeps
 * what fits). */
void report_line_add(struct report_verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "CPU 22% (busiest CPU 30%), sdb 40% busy, eth0 31% of 1 Gb/s": the
 * resources a verdict of kind skip does not name. */
void report_others(const struct report_figures *f, enum report_kind skip,
		   char *buf, size_t n);

/* The dominant state of w's working threads by the rule above (WS_CPU
 * stands for running and CPU wait together), or -1 when none dominates.
 * Exposed for tests and the report's table. */
int report_waits_dominant(const struct report_waits *w);

/* "; its threads ran 34% (reclaiming memory) and waited on the disk 65%
 * (reading back pages its memory limit evicted)", the larger first, of
 * split p (report_waits_shares), appended to v. */
void report_memory_parts(const double *p, struct report_verdict *v);

/* The split that speaks for the client: its working threads' when the
 * totals file gave them, else every thread's (report_waits.c). */
const double *report_waits_shares(const struct report_waits *w);

/* Whether the session's busiest interface ran at its capacity (its
 * share of Current Bandwidth averaged REPORT_NET_FREE or more): "the
 * link is full" of the verdict's line, and the one network path of
 * every connection through it in the wait graph. */
int report_link_full(const struct report_figures *f);

/* The word a verdict's line starts with, after "Bottleneck: ": "CPU",
 * "disk", "network", "memory" or "nothing" (DESIGN.md, "The verdict"). */
const char *report_kind_word(enum report_kind k);

const char *report_kind_name(enum report_kind k);

#endif
