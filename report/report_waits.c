/*
 * report_waits.c - the verdict from the client's side (report_rules.h;
 * the rules in prose, with their thresholds and why, in report/README.md
 * "The verdict from the client's side").
 *
 * The client's threads that did work in the session (waitrates_working:
 * idle pools are shown but do not vote) spent their time in six states.
 * Four of them name a resource and vote: CPU (running and runnable but
 * not running, together), disk, network, and sleep (the client's own
 * pacing). "Other" (pipes, locks, children) does not: a thread waiting
 * on another thread of the client (a shell on its child, a reader on a
 * pipe to the compressor) waits on whatever that one waits on. A state
 * dominates with at least REPORT_WAIT_DOMINANT % of the voting time and
 * REPORT_WAIT_MARGIN times the next voting state, when the voting states
 * hold at least REPORT_WAIT_VOTING of the working threads' time (else
 * the client mostly waited on things this host does not see). Then:
 *   CPU        running most:  compute-bound (one CPU's worth or more)
 *              CPU wait most: a quota (the group was throttled) or the
 *                             host's CPUs are taken (contention)
 *   disk, network             blocked there
 *   sleep                     nothing: the client paced itself
 *   memory     the command's cgroup stalled on memory (its PSI) at least
 *              REPORT_MEMSTALL_GROUP %: its disk waits (re-reads of what
 *              the limit evicted) and CPU (reclaim) are the memory's
 *   none       the system counters' verdict when a rule fired, with the
 *              split as evidence; else "nothing: no one state dominated"
 * Each line is corroborated by the system counters: the host's CPU and
 * run queue, the busiest disk, the busiest interface and its share, the
 * cgroup's stalls and throttling. Its percentages are shares of the
 * voting states' time (the table beside it has the raw split).
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

/* The split as "ran 30%, CPU wait 5%, disk 35% ..." (states at 0.5% or
 * more). */
static void split_text(const double *p, char *buf, size_t n)
{
	static const char *const label[WS_N] = { "ran", "CPU wait", "disk",
		"network", "other", "sleep" };
	size_t len = 0;

	buf[0] = '\0';
	for (int k = 0; k < WS_N && len < n; k++)
		if (!isnan(p[k]) && p[k] >= 0.5)
			len += (size_t)snprintf(buf + len, n - len, "%s%s %.0f%%",
						len ? ", " : "", label[k], p[k]);
}

void report_waits_clause(const struct report_waits *w, char *buf, size_t n)
{
	char split[160];

	split_text(report_waits_shares(w), split, sizeof(split));
	/* said when the totals file was there but not used: the counters
	 * count idle threads too, and the verdict may differ */
	snprintf(buf, n, "; the client's %s%s: %s",
		 w->from_totals && w->nwork ? "working threads" : "threads",
		 w->unused[0] ? " (logged counters: its totals file was not readable)" : "",
		 split);
}

/* The kind the wait states give, or REPORT_NONE when they give none. */
static enum report_kind waits_kind(const struct report_figures *f,
				   const struct report_waits *w, int d)
{
	if (w->stall_mem.n && w->stall_mem.avg >= REPORT_MEMSTALL_GROUP &&
	    (d < 0 || d == WS_CPU || d == WS_CPU_WAIT || d == WS_DISK))
		return REPORT_W_MEMORY;
	switch (d) {
	case WS_CPU:
		return REPORT_W_CPU;
	case WS_CPU_WAIT:
		if (w->throttled.n && w->throttled.avg >= REPORT_THROTTLED_MIN)
			return REPORT_W_QUOTA;
		/* runnable while the host's CPUs idle is no contention: a
		 * watched daemon's cgroup may have no throttling figure, or
		 * none of its own (a quota on a parent group is counted in
		 * the parent's cpu.stat), or an affinity keeps it off them */
		if (f->cpu.n && f->cpu.avg < REPORT_CPU_IDLE)
			return REPORT_W_QUOTA_AFFINITY;
		return REPORT_W_CONTENTION;
	case WS_DISK:
		return REPORT_W_DISK;
	case WS_NET:
		return REPORT_W_NETWORK;
	case WS_SLEEP:
		return REPORT_W_PACED;
	default:
		return REPORT_NONE;
	}
}

/* the evidence, appended to the verdict's line (v in every caller) */
#define ADD(...) report_line_add(v, __VA_ARGS__)

/* "; the host is 55% busy (busiest CPU 98%)" */
static void host_cpu(const struct report_figures *f, struct report_verdict *v)
{
	if (!f->cpu.n)
		return;
	ADD("; the host is %.0f%% busy", f->cpu.avg);
	if (f->ncpu >= 2 && f->cpu1.n)
		ADD(" (busiest CPU %.0f%%)", f->cpu1.avg);
}

static void describe_cpu(const struct report_figures *f,
			 const struct report_waits *w, const double *p,
			 struct report_verdict *v)
{
	int one = f->ncpu >= 2 && !isnan(w->cpus) && w->cpus <= REPORT_ONE_CPU;

	snprintf(v->line, sizeof(v->line),
		 "Bottleneck: CPU: the client ran on a CPU %.0f%% of the time",
		 p[WS_CPU]);
	if (one)
		ADD(", one CPU's worth of %d%s%s%s: a single thread", f->ncpu,
		    w->top[0] ? " (" : "", w->top, w->top[0] ? ")" : "");
	else if (!isnan(w->cpus) && f->ncpu)
		ADD(", %.1f CPUs' worth of %d", w->cpus, f->ncpu);
	host_cpu(f, v);
	snprintf(v->hint, sizeof(v->hint), "%s", one ?
		 "a single-threaded client is CPU-bound although the host is not: more sessions or streams, or a faster CPU" :
		 "the client keeps the CPUs busy: compression, encryption or deduplication; lighter settings or more CPUs");
}

/* "throttled in 70% of its periods; % Throttled Time 139, 100 per CPU":
 * % Throttled Time adds a held run queue per CPU, so it is no share of
 * the time; the periods' share is (a log set from before that counter
 * has only the first). */
static void throttling(const struct report_waits *w, struct report_verdict *v)
{
	if (w->thr_periods.n)
		ADD("throttled in %.0f%% of its periods; ", w->thr_periods.avg);
	ADD("%% Throttled Time %.0f, 100 per CPU", w->throttled.avg);
}

static void describe_cpu_wait(const struct report_figures *f,
			      const struct report_waits *w, const double *p,
			      enum report_kind k, struct report_verdict *v)
{
	snprintf(v->line, sizeof(v->line),
		 "Bottleneck: CPU %s: runnable but not running %.0f%% of the time (ran %.0f%%)",
		 k == REPORT_W_QUOTA ? "quota" : k == REPORT_W_QUOTA_AFFINITY ?
		 "quota or affinity" : "contention",
		 p[WS_CPU_WAIT], p[WS_CPU]);
	if (k == REPORT_W_QUOTA) {
		/* the group that has the quota, an ancestor as often as
		 * not: perflog run's command is a child of its own group */
		if (w->quota_group[0])
			ADD("; cgroup %s's quota", w->quota_group);
		else
			ADD("; its cgroup's quota");
		if (!isnan(w->quota))
			ADD(" of %.2g CPU", w->quota);
		ADD(" held it back (");
		throttling(w, v);
		ADD(")");
	}
	if (k == REPORT_W_QUOTA_AFFINITY)
		ADD("; %s, and the host had idle CPUs", w->throttled.n ?
		    "its cgroup was hardly throttled (a parent group's quota counts in the parent)" :
		    "no throttling figure for its cgroup");
	host_cpu(f, v);
	if (k == REPORT_W_CONTENTION && f->runq.n)
		ADD(", %.1f tasks waiting for a CPU", f->runq.avg);
	if (f->psi[0].n)
		ADD(", Pressure(cpu) %.0f%%", f->psi[0].avg);
	snprintf(v->hint, sizeof(v->hint), "%s", k == REPORT_W_QUOTA ?
		 "a CPU quota (cgroup cpu.max or cpu.cfs_quota_us) limits the client, not the host's CPUs: raise the quota" :
		 k == REPORT_W_QUOTA_AFFINITY ?
		 "runnable while CPUs idle: a CPU quota (cgroup cpu.max, cpu.cfs_quota_us) or an affinity (taskset, cpuset) that keeps the client off them; check both" :
		 "other work on this host holds the CPUs the client could use: move it, or give the client priority");
}

/* "; it read 7.9 MiB/s, wrote 8.0 MiB/s; vda 15% busy at 263.6 MiB/s,
 * 133 transfers/s of 2.0 MiB, 26.1 ms each; its cgroup stalled on I/O" */
static void disk_evidence(const struct report_figures *f,
			  const struct report_waits *w, struct report_verdict *v)
{
	char a[48], b[48];

	if (w->io_read.n && w->io_write.n)
		ADD("; it read %s, wrote %s",
		    report_fmt_bytes(a, sizeof(a), w->io_read.avg, "/s"),
		    report_fmt_bytes(b, sizeof(b), w->io_write.avg, "/s"));
	if (f->disk[0] && f->disk_busy.n) {
		ADD("; %s %.0f%% busy", f->disk, f->disk_busy.avg);
		if (f->disk_bytes.n)
			ADD(" at %s", report_fmt_bytes(a, sizeof(a),
						       f->disk_bytes.avg, "/s"));
		if (f->disk_xfers.n && !isnan(f->disk_xfer_size))
			ADD(", %.0f transfers/s of %s", f->disk_xfers.avg,
			    report_fmt_bytes(a, sizeof(a), f->disk_xfer_size, NULL));
		if (f->disk_service.n)
			ADD(", %.1f ms each", f->disk_service.avg * 1000);
	}
	if (w->stall_io.n)
		ADD("; its cgroup stalled on I/O %.0f%%", w->stall_io.avg);
}

/* Why the client waits on a disk: a device that is not busy (a limit
 * outside it, or each synchronous write waiting for its flush), small
 * transfers on a busy one (synchronous or random I/O), a slow device, or
 * one at its throughput. */
static void disk_hint(const struct report_figures *f, struct report_verdict *v)
{
	int busy = f->disk_busy.n && f->disk_busy.avg >= REPORT_DISK_AVG;
	int small = !isnan(f->disk_xfer_size) && f->disk_xfer_size < REPORT_SMALL_XFER;

	if (!busy)
		snprintf(v->hint, sizeof(v->hint),
			 "the disk is not saturated while the client waits on it: an I/O limit outside the device (a cgroup io.max or blkio throttle), a slow path, or synchronous writes each waiting for its flush");
	else if (small)
		snprintf(v->hint, sizeof(v->hint),
			 "small transfers, each quick, and the client waits for every one: synchronous writes (O_DSYNC, fsync per file) or random reads; latency, not throughput: fewer syncs, larger writes, a write cache");
	else
		report_disk_hint_device(f, v);
}

static void describe_network(const struct report_figures *f,
			     const double *p, struct report_verdict *v)
{
	char a[48], bw[32];

	snprintf(v->line, sizeof(v->line),
		 "Bottleneck: network: the client waited on its socket %.0f%% of the time (ran %.0f%%)",
		 p[WS_NET], p[WS_CPU]);
	if (f->net[0] && f->net_bytes.n) {
		ADD("; %s carried %s%s", f->net,
		    report_fmt_bytes(a, sizeof(a), f->net_bytes.avg, "/s"),
		    f->net_bytes.p95 <= 1.15 * f->net_bytes.avg ? " flat" : "");
		if (f->net_share.n)
			ADD(", %.0f%% of its %s", f->net_share.avg,
			    report_fmt_bits(bw, sizeof(bw), f->net_bandwidth));
	}
	if (f->retrans.n && f->retrans.avg >= 1)
		ADD(", %.0f TCP retransmissions/s", f->retrans.avg);
	if (f->net_share.n && f->net_share.avg >= REPORT_NET_AVG)
		ADD(": the link is full");
	else if (f->net_share.n && f->net_share.avg < REPORT_NET_FREE)
		ADD(": a shaper, the path or the receiver");
	else
		ADD(": the path or the receiver");
	snprintf(v->hint, sizeof(v->hint), "%s",
		 f->net_share.n && f->net_share.avg >= REPORT_NET_AVG ?
		 "the link is full: a faster network, compression at the client, or LAN-free" :
		 "the client's sends wait while its link is far from full: a traffic shaper or policer, a slow hop on the path, or a receiver (the server) that takes the data slowly");
}

static void describe_memory(const struct report_figures *f,
			    const struct report_waits *w, const double *p,
			    struct report_verdict *v)
{
	snprintf(v->line, sizeof(v->line),
		 "Bottleneck: memory: the client's cgroup stalled on memory %.0f%% of the time (memory.pressure some, p95 %.0f%%)",
		 w->stall_mem.avg, w->stall_mem.p95);
	/* Both parts, the larger first: how a limit's time splits between
	 * reclaim (running: the kernel reclaims in the faulting thread) and
	 * refaults (the disk) is the disk's speed against the CPU's, not a
	 * property of the limit (issue 50: running 58% on a fresh machine's
	 * fast disk, the disk 48-59% on another's) */
	if (p[WS_CPU] > p[WS_DISK])
		ADD("; its threads ran %.0f%% (reclaiming memory) and waited on the disk %.0f%% (reading back pages its memory limit evicted)",
		    p[WS_CPU], p[WS_DISK]);
	else
		ADD("; its threads waited on the disk %.0f%% (reading back pages its memory limit evicted) and ran %.0f%% (reclaiming memory)",
		    p[WS_DISK], p[WS_CPU]);
	if (f->disk[0] && f->disk_busy.n)
		ADD("; %s %.0f%% busy", f->disk, f->disk_busy.avg);
	snprintf(v->hint, sizeof(v->hint),
		 "the client's working set does not fit its memory limit (cgroup memory.max or memory.limit_in_bytes): raise the limit or shrink the client's cache");
}

int report_waits_judge(const struct report_figures *f,
		       const struct report_waits *w, enum report_kind sys,
		       struct report_verdict *v)
{
	return report_waits_judge_as(f, w, sys, report_waits_dominant(w), v);
}

int report_waits_judge_as(const struct report_figures *f,
			  const struct report_waits *w, enum report_kind sys,
			  int d, struct report_verdict *v)
{
	char split[160], rest[256];
	double p[WS_N];
	enum report_kind k;

	if (!w || !w->have)
		return 0;
	/* the line quotes the table's figures (report_print_waits: the
	 * working threads' shares, other included), not shares of the
	 * voting states alone: a receiver's table said network wait 65%
	 * where its line said 97% */
	memcpy(p, report_waits_shares(w), sizeof(p));
	k = waits_kind(f, w, d);
	if (k == REPORT_NONE && sys != REPORT_NONE)
		return 0;	/* the system's verdict, the split as evidence */
	memset(v, 0, sizeof(*v));
	v->kind = k == REPORT_NONE ? REPORT_W_MIXED : k;
	switch (v->kind) {
	case REPORT_W_CPU:
		describe_cpu(f, w, p, v);
		break;
	case REPORT_W_QUOTA:
	case REPORT_W_QUOTA_AFFINITY:
	case REPORT_W_CONTENTION:
		describe_cpu_wait(f, w, p, v->kind, v);
		break;
	case REPORT_W_DISK:
		snprintf(v->line, sizeof(v->line),
			 "Bottleneck: disk: the client waited on the disk %.0f%% of the time (ran %.0f%%)",
			 p[WS_DISK], p[WS_CPU]);
		disk_evidence(f, w, v);
		disk_hint(f, v);
		break;
	case REPORT_W_NETWORK:
		describe_network(f, p, v);
		break;
	case REPORT_W_MEMORY:
		describe_memory(f, w, p, v);
		break;
	case REPORT_W_PACED:
		snprintf(v->line, sizeof(v->line),
			 "Bottleneck: nothing: the client slept %.0f%% of the time by its own choice (it paces itself)",
			 p[WS_SLEEP]);
		snprintf(v->hint, sizeof(v->hint),
			 "no resource held it back: the client's own limits (a bandwidth limit such as rsync --bwlimit or restic --limit-upload, a schedule, a throttle option)");
		break;
	default:
		split_text(report_waits_shares(w), split, sizeof(split));
		snprintf(v->line, sizeof(v->line),
			 "Bottleneck: nothing: no one state dominated the client's time (%s)",
			 split);
		snprintf(v->hint, sizeof(v->hint),
			 "the client divides its time between resources and none is a single limit; the wait-state chart shows when each took over");
		break;
	}
	if (v->kind == REPORT_W_PACED || v->kind == REPORT_W_MIXED) {
		report_others(f, REPORT_NONE, rest, sizeof(rest));
		if (rest[0])
			ADD("; %s", rest);
	}
	return 1;
}
