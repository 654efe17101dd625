/*
 * report_rules.c - the bottleneck verdict (report_rules.h; the rules in
 * prose are in report/README.md). The statistics it judges, and the
 * formatting of bytes and bits, are report_stat.c's.
 *
 * The verdict: each resource rule below either fires or not; paging wins
 * when it fires (memory shortage makes the disk and the CPU look busy);
 * otherwise the fired rule whose p95 is the largest multiple of its
 * threshold is the resource nearest saturation. The client's
 * instrumentation, when present, confirms the verdict, or names the
 * limit when no local resource is saturated (File I/O with an idle disk,
 * Data Verb with an idle network: the server).
 */
#include "report_rules.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *report_kind_name(enum report_kind k)
{
	switch (k) {
	case REPORT_NONE: return "none";
	case REPORT_CPU: return "cpu";
	case REPORT_CPU_SINGLE: return "cpu-single";
	case REPORT_DISK: return "disk";
	case REPORT_IOWAIT: return "iowait";
	case REPORT_NETWORK: return "network";
	case REPORT_PAGING: return "paging";
	case REPORT_FILE_IO: return "client-file-io";
	case REPORT_NET_OR_SERVER: return "network-or-server";
	case REPORT_SERVER: return "server";
	case REPORT_CLIENT_CPU: return "client-cpu";
	case REPORT_SOURCE: return "source";
	case REPORT_STORAGE: return "storage";
	case REPORT_PSI_MEMORY: return "psi-memory";
	case REPORT_PSI_IO: return "psi-io";
	case REPORT_PSI_CPU: return "psi-cpu";
	}
	return "?";
}

void report_line_add(struct report_verdict *v, const char *fmt, ...)
{
	size_t len = strlen(v->line);
	va_list ap;

	if (len >= sizeof(v->line) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(v->line + len, sizeof(v->line) - len, fmt, ap);
	va_end(ap);
}

const char *report_kind_word(enum report_kind k)
{
	switch (k) {
	case REPORT_CPU:
	case REPORT_CPU_SINGLE:
	case REPORT_CLIENT_CPU:
	case REPORT_PSI_CPU:
		return "CPU";
	case REPORT_DISK:
	case REPORT_IOWAIT:
	case REPORT_FILE_IO:
	case REPORT_STORAGE:
	case REPORT_PSI_IO:
		return "disk";
	case REPORT_NETWORK:
	case REPORT_NET_OR_SERVER:
	case REPORT_SERVER:
	case REPORT_SOURCE:
		return "network";
	case REPORT_PAGING:
	case REPORT_PSI_MEMORY:
		return "memory";
	case REPORT_NONE:
		break;
	}
	return "nothing";
}

int report_link_full(const struct report_figures *f)
{
	return f->net[0] && f->net_share.n && f->net_share.avg >= REPORT_NET_FREE;
}

static int fires(const struct report_stat *s, double p95, double avg)
{
	return s->n && s->p95 >= p95 && s->avg >= avg;
}

static int cpu_single_fires(const struct report_figures *f)
{
	if (fires(&f->cpu, REPORT_CPU_P95, REPORT_CPU_AVG))
		return 0;	/* all busy: plain CPU bound */
	if (f->ncpu >= 2 && fires(&f->cpu1, REPORT_CPU1_P95, REPORT_CPU1_AVG))
		return 1;
	/* the client's process tree used one CPU's worth while the scheduler
	 * moved it between CPUs (no single CPU looks pegged) */
	return f->ncpu >= 2 && fires(&f->proc_cpu, REPORT_CPU1_P95, REPORT_CPU1_AVG) &&
	       f->proc_cpu.p95 <= 100.0 + (100.0 - REPORT_CPU1_P95);
}

static int paging_fires(const struct report_figures *f)
{
	if (!fires(&f->pages, 0, REPORT_PAGES_AVG) ||
	    f->pages.positive < REPORT_PAGES_SUSTAINED)
		return 0;
	if (!f->mem_avail.n)
		return 1;	/* paging hard with no memory figure: trust it */
	double low = REPORT_MEM_LOW_BYTES;
	if (!isnan(f->mem_avail_ref) && f->mem_avail_ref * REPORT_MEM_LOW_SHARE > low)
		low = f->mem_avail_ref * REPORT_MEM_LOW_SHARE;
	return f->mem_avail.min <= low;
}

void report_others(const struct report_figures *f, enum report_kind skip,
		   char *buf, size_t n)
{
	char tmp[64], bw[32];
	size_t len = 0;

	buf[0] = '\0';
#define ADD(...) do { \
	if (len < n) \
		len += (size_t)snprintf(buf + len, n - len, __VA_ARGS__); \
} while (0)
	if (skip != REPORT_CPU && skip != REPORT_CPU_SINGLE && f->cpu.n) {
		ADD("%sCPU %.0f%%", len ? ", " : "", f->cpu.avg);
		if (f->ncpu >= 2 && f->cpu1.n)
			ADD(" (busiest CPU %.0f%%)", f->cpu1.avg);
	}
	if (skip != REPORT_DISK && skip != REPORT_IOWAIT && f->disk[0] &&
	    f->disk_busy.n)
		ADD("%s%s %.0f%% busy", len ? ", " : "", f->disk,
		    f->disk_busy.avg);
	if (skip != REPORT_NETWORK && f->net[0] && f->net_bytes.n) {
		if (f->net_share.n)
			ADD("%s%s %.0f%% of %s", len ? ", " : "", f->net,
			    f->net_share.avg,
			    report_fmt_bits(bw, sizeof(bw), f->net_bandwidth));
		else
			ADD("%s%s %s", len ? ", " : "", f->net,
			    report_fmt_bytes(tmp, sizeof(tmp), f->net_bytes.avg, "/s"));
	}
	if (skip != REPORT_PAGING && f->pages.n && f->pages.avg >= 1)
		ADD("%s%.0f pages/s", len ? ", " : "", f->pages.avg);
#undef ADD
}

static double ratio(const struct report_stat *s, double thr)
{
	return s->n ? s->p95 / thr : 0;
}

/* With no resource near saturation, the kernel's own account of lost
 * time: the pressure stall whose average is the largest multiple of its
 * threshold (memory, then I/O, then CPU on a tie). A limit no utilization
 * counter shows (a memory limit, an I/O throttle, a CPU quota, a slow
 * path) stalls the tasks all the same. */
static enum report_kind psi_kind(const struct report_figures *f)
{
	static const struct {
		int r;
		double thr;
		enum report_kind k;
	} rule[] = {
		{ 2, REPORT_PSI_MEM_AVG, REPORT_PSI_MEMORY },
		{ 1, REPORT_PSI_IO_AVG, REPORT_PSI_IO },
		{ 0, REPORT_PSI_CPU_AVG, REPORT_PSI_CPU },
	};
	enum report_kind k = REPORT_NONE;
	double best = 0;

	for (size_t i = 0; i < sizeof(rule) / sizeof(rule[0]); i++) {
		const struct report_stat *st = &f->psi[rule[i].r];

		if (st->n && st->avg >= rule[i].thr && st->avg / rule[i].thr > best) {
			best = st->avg / rule[i].thr;
			k = rule[i].k;
		}
	}
	return k;
}

/* The resource nearest saturation by the system counters alone: paging
 * when it fires (memory shortage makes the disk and the CPU look busy),
 * else the fired rule whose p95 is the largest multiple of its threshold,
 * else I/O wait without a saturated disk. */
static enum report_kind resource_kind(const struct report_figures *f)
{
	enum report_kind k = REPORT_NONE;
	double best = 0;

	if (paging_fires(f))
		return REPORT_PAGING;
	if (fires(&f->cpu, REPORT_CPU_P95, REPORT_CPU_AVG) &&
	    ratio(&f->cpu, REPORT_CPU_P95) > best) {
		k = REPORT_CPU;
		best = ratio(&f->cpu, REPORT_CPU_P95);
	}
	if (cpu_single_fires(f)) {
		const struct report_stat *s = f->cpu1.n &&
			f->cpu1.p95 >= REPORT_CPU1_P95 ? &f->cpu1 : &f->proc_cpu;
		if (ratio(s, REPORT_CPU1_P95) > best) {
			k = REPORT_CPU_SINGLE;
			best = ratio(s, REPORT_CPU1_P95);
		}
	}
	if (f->disk[0] && fires(&f->disk_busy, REPORT_DISK_P95, REPORT_DISK_AVG) &&
	    ratio(&f->disk_busy, REPORT_DISK_P95) > best) {
		k = REPORT_DISK;
		best = ratio(&f->disk_busy, REPORT_DISK_P95);
	}
	if (f->net[0] && fires(&f->net_share, REPORT_NET_P95, REPORT_NET_AVG) &&
	    ratio(&f->net_share, REPORT_NET_P95) > best)
		k = REPORT_NETWORK;
	if (k == REPORT_NONE)
		k = psi_kind(f);
	if (k == REPORT_NONE && f->iowait.n && f->iowait.avg >= REPORT_IOWAIT_AVG)
		k = REPORT_IOWAIT;
	return k;
}

/* The client's own account, when one category dominates its elapsed
 * time: the category and "client instrumentation: ..." in clause, else
 * INSTR_CAT_COUNT and "". */
static enum instr_category instr_clause(const struct instr_thread *instr,
					char *clause, size_t n)
{
	double share = 0;
	enum instr_category ic;

	clause[0] = '\0';
	if (!instr)
		return INSTR_CAT_COUNT;
	ic = instr_dominant(instr, &share);
	if (ic == INSTR_CAT_COUNT || share < REPORT_INSTR_DOMINANT)
		return INSTR_CAT_COUNT;
	snprintf(clause, n, "client instrumentation: %s %.0f%% of %.0f s elapsed",
		 ic == INSTR_CAT_FILE_IO ? "File I/O" :
		 ic == INSTR_CAT_NETWORK ? "Data Verb" :
		 ic == INSTR_CAT_SERVER ? "transaction verbs" :
		 ic == INSTR_CAT_CPU ? "compute/CRC/compression" :
		 ic == INSTR_CAT_DIRS ? "directory walk" : "other",
		 100 * share, instr->elapsed_s);
	return ic;
}

/* With no local resource saturated, the client says where its time went. */
static enum report_kind client_kind(enum report_kind k, enum instr_category ic)
{
	if (k != REPORT_NONE && k != REPORT_IOWAIT)
		return k;
	switch (ic) {
	case INSTR_CAT_FILE_IO: return REPORT_FILE_IO;
	case INSTR_CAT_NETWORK: return REPORT_NET_OR_SERVER;
	case INSTR_CAT_SERVER: return REPORT_SERVER;
	case INSTR_CAT_CPU: return REPORT_CLIENT_CPU;
	default: return k;
	}
}

/* a disk busy with transfers of a fair size: a slow device (its
 * service time), else one at its throughput */
static void disk_hint_device(const struct report_figures *f,
			     struct report_verdict *v)
{
	if (f->disk_service.n && f->disk_service.avg >= REPORT_SLOW_SERVICE)
		snprintf(v->hint, sizeof(v->hint),
			 "slow service time (%.0f ms per transfer): the device or its path is slow",
			 f->disk_service.avg * 1000);
	else
		snprintf(v->hint, sizeof(v->hint),
			 "the disk is at its throughput: a faster disk or spreading the data");
}

static void disk_hint(const struct report_figures *f, struct report_verdict *v)
{
	char b[48];

	if (!isnan(f->disk_xfer_size) && f->disk_xfer_size < REPORT_SMALL_XFER &&
	    (!f->disk_bytes.n || f->disk_bytes.avg < REPORT_LOW_THROUGHPUT))
		snprintf(v->hint, sizeof(v->hint),
			 "busy with small transfers (%s each) at low throughput: random I/O or no read-ahead (a file system mounted with cio/direct I/O)",
			 report_fmt_bytes(b, sizeof(b), f->disk_xfer_size, NULL));
	else
		disk_hint_device(f, v);
}

/* The line and hint for a CPU verdict (all CPUs, or one CPU's worth). */
static void describe_cpu(const struct report_figures *f, enum report_kind k,
			 struct report_verdict *v)
{
	if (k == REPORT_CPU) {
		snprintf(v->line, sizeof(v->line),
			 "Bottleneck: CPU: Processor(_Total) %.0f%% (avg %.0f%%, p95 %.0f%%, peak %.0f%%)",
			 f->cpu.p95, f->cpu.avg, f->cpu.p95, f->cpu.peak);
		snprintf(v->hint, sizeof(v->hint),
			 "all CPUs busy: compression, encryption or other load on this host");
		return;
	}
	if (f->cpu1.n && f->cpu1.p95 >= REPORT_CPU1_P95)
		snprintf(v->line, sizeof(v->line),
			 "Bottleneck: CPU: one CPU (busiest %s) %.0f%% (avg %.0f%%, p95 %.0f%%) while total CPU %.0f%% of %d CPUs",
			 f->cpu1_name[0] ? f->cpu1_name : "per interval",
			 f->cpu1.p95, f->cpu1.avg, f->cpu1.p95, f->cpu.avg, f->ncpu);
	else
		snprintf(v->line, sizeof(v->line),
			 "Bottleneck: CPU: one CPU's worth: the client used %.0f%% CPU (avg %.0f%%, p95 %.0f%%) while total CPU %.0f%% of %d CPUs",
			 f->proc_cpu.p95, f->proc_cpu.avg, f->proc_cpu.p95,
			 f->cpu.avg, f->ncpu);
	snprintf(v->hint, sizeof(v->hint),
		 "a single-threaded client is CPU-bound although the host is not: more sessions/streams (resourceutilization) or a faster CPU");
}

/* The line and hint for a verdict on a resource this host logs. */
static void describe_resource(const struct report_figures *f,
			      enum report_kind k, struct report_verdict *v)
{
	char a[48], bw[32];

	switch (k) {
	case REPORT_PAGING:
		snprintf(v->line, sizeof(v->line),
			 "Bottleneck: memory: paging %.0f pages/s (p95 %.0f, peak %.0f, >0 in %.0f%% of intervals) with available memory down to %s",
			 f->pages.avg, f->pages.p95, f->pages.peak,
			 100 * f->pages.positive,
			 report_fmt_bytes(a, sizeof(a), f->mem_avail.min, NULL));
		snprintf(v->hint, sizeof(v->hint),
			 "memory is short: the paging also loads the disk and the CPU; add memory or lower the client's memory use");
		break;
	case REPORT_CPU:
	case REPORT_CPU_SINGLE:
		describe_cpu(f, k, v);
		break;
	case REPORT_DISK:
		snprintf(v->line, sizeof(v->line),
			 "Bottleneck: disk: LogicalDisk(%s) busy %.0f%% (avg %.0f%%, p95 %.0f%%) at %s, %.1f ms per transfer",
			 f->disk, f->disk_busy.p95, f->disk_busy.avg,
			 f->disk_busy.p95,
			 report_fmt_bytes(a, sizeof(a), f->disk_bytes.avg, "/s"),
			 f->disk_service.n ? f->disk_service.avg * 1000 : NAN);
		disk_hint(f, v);
		break;
	case REPORT_IOWAIT:
		snprintf(v->line, sizeof(v->line),
			 "Bottleneck: disk: I/O wait %.0f%% of CPU time (p95 %.0f%%) with no disk saturated%s%s",
			 f->iowait.avg, f->iowait.p95, f->disk[0] ? ", busiest " : "",
			 f->disk);
		snprintf(v->hint, sizeof(v->hint),
			 "the CPUs wait on I/O: storage not logged here (network file system, SAN path) or latency-bound I/O");
		break;
	case REPORT_NETWORK:
		snprintf(v->line, sizeof(v->line),
			 "Bottleneck: network: Network Interface(%s) %.0f%% of %s (avg %.0f%%, p95 %.0f%%, %s)",
			 f->net, f->net_share.p95,
			 report_fmt_bits(bw, sizeof(bw), f->net_bandwidth),
			 f->net_share.avg, f->net_share.p95,
			 report_fmt_bytes(a, sizeof(a), f->net_bytes.avg, "/s"));
		snprintf(v->hint, sizeof(v->hint),
			 "the link is full: a faster network, compression at the client, or LAN-free");
		break;
	case REPORT_PSI_MEMORY:
		snprintf(v->line, sizeof(v->line),
			 "Bottleneck: memory: tasks stalled on memory %.0f%% of the time (Pressure(memory) some, p95 %.0f%%) with no resource saturated",
			 f->psi[2].avg, f->psi[2].p95);
		snprintf(v->hint, sizeof(v->hint),
			 "reclaim and re-reading evicted pages: a memory limit (cgroup) or a working set larger than memory");
		break;
	case REPORT_PSI_IO:
		snprintf(v->line, sizeof(v->line),
			 "Bottleneck: disk: tasks stalled on I/O %.0f%% of the time (Pressure(io) some, p95 %.0f%%) with no disk saturated%s%s",
			 f->psi[1].avg, f->psi[1].p95, f->disk[0] ? ", busiest " : "",
			 f->disk);
		snprintf(v->hint, sizeof(v->hint),
			 "I/O that waits although no device is busy: synchronous small writes, an I/O throttle (io.max, blkio), or storage not logged here");
		break;
	case REPORT_PSI_CPU:
		snprintf(v->line, sizeof(v->line),
			 "Bottleneck: CPU: runnable tasks waited for a CPU %.0f%% of the time (Pressure(cpu) some, p95 %.0f%%) with the CPUs not saturated",
			 f->psi[0].avg, f->psi[0].p95);
		snprintf(v->hint, sizeof(v->hint),
			 "a CPU quota (cgroup cpu.max, cfs_quota_us) or short bursts of contention; perflog run shows whose");
		break;
	default:	/* REPORT_NONE; REPORT_SOURCE and REPORT_STORAGE
			   only report_client_judge sets */
		snprintf(v->line, sizeof(v->line),
			 "Bottleneck: nothing near saturation");
		snprintf(v->hint, sizeof(v->hint),
			 "no logged resource was near its limit: the backup server, the path to it, or the client's own pacing");
		break;
	}
}

/* The line and hint for a verdict the client's instrumentation gives;
 * 0 when k is not one. */
static int describe_client(enum report_kind k, const char *iclause,
			   struct report_verdict *v)
{
	static const struct {
		enum report_kind k;
		const char *what, *hint;
	} client[] = {
		{ REPORT_FILE_IO, "client file reads",
		  "reading the files is slow although no logged disk is saturated: check read-ahead (cio mounts), a network file system, or many small files" },
		{ REPORT_NET_OR_SERVER, "network or server",
		  "sending takes the time while this host's network is not full: look at the server (its disks, tape mounts) and the path in between" },
		{ REPORT_SERVER, "the server",
		  "the client waits on transaction commits: server database or storage pool" },
		{ REPORT_CLIENT_CPU, "client CPU work",
		  "compression, encryption or CRC cost: consider turning them off or more streams" },
	};

	for (size_t i = 0; i < sizeof(client) / sizeof(client[0]); i++)
		if (client[i].k == k) {
			snprintf(v->line, sizeof(v->line), "Bottleneck: %s: %s (%s)",
				 report_kind_word(k), client[i].what, iclause);
			snprintf(v->hint, sizeof(v->hint), "%s", client[i].hint);
			return 1;
		}
	return 0;
}

/* After the verdict: the resources not named, then the client's account
 * when the verdict is the system's (and whether it agrees). */
static void append_context(const struct report_figures *f, enum report_kind k,
			   enum instr_category ic, const char *iclause,
			   struct report_verdict *v)
{
	char rest[256];

	report_others(f, k, rest, sizeof(rest));
	if (rest[0])
		report_line_add(v, "%s%s", k == REPORT_NONE ? ": " :
				strstr(v->line, " while ") ? ", " : " while ",
				rest);
	if (iclause[0] && k != REPORT_FILE_IO && k != REPORT_NET_OR_SERVER &&
	    k != REPORT_SERVER && k != REPORT_CLIENT_CPU) {
		int agrees = (k == REPORT_DISK && ic == INSTR_CAT_FILE_IO) ||
			     (k == REPORT_NETWORK && ic == INSTR_CAT_NETWORK) ||
			     ((k == REPORT_CPU || k == REPORT_CPU_SINGLE) &&
			      ic == INSTR_CAT_CPU);
		report_line_add(v, "; %s%s", iclause,
				agrees ? (k == REPORT_DISK ? ": disk read bound" :
					  " (agrees)") : "");
	}
}

void report_judge(const struct report_figures *f,
		  const struct instr_thread *instr, struct report_verdict *v)
{
	char iclause[160];
	enum instr_category ic = instr_clause(instr, iclause, sizeof(iclause));
	enum report_kind k = client_kind(resource_kind(f), ic);

	memset(v, 0, sizeof(*v));
	v->kind = k;
	if (!describe_client(k, iclause, v))
		describe_resource(f, k, v);
	append_context(f, k, ic, iclause, v);
}
