/*
 * report_targets.c - where backups land in the verdict (report_targets.h;
 * the rules in prose in report/README.md "Where backups land").
 *
 * A backup that writes to an NFS share waits in the RPC layer, which the
 * client's wait states count as network or "other", and the host's own
 * disks and links look idle: the system rules then say "network" or
 * "nothing". The mount's own counters say where the time went: the
 * execute time of a WRITE is the whole call (queued for a transport slot,
 * on the wire, at the server), its RTT the part after it was sent. High
 * execute time with the client blocked there is the NFS server's: its
 * disks commit the writes slowly, unless the RTT carries the time and the
 * path shows loss or a full link, which makes it the network. A tape
 * drive is the opposite case: the backup blocks on every write to it, so
 * the wait says "disk"; whether the drive is the limit is its own busy
 * time. Below half busy it streams in bursts and waits for data (shoe
 * shining: the source is slow); above, it is the bottleneck.
 */
#include "report_targets.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../logs/lookup.h"

/* The busiest instance of counter id: its name into name, or 0. */
static int busiest(struct logset *ls, enum counter_id id, time_t from,
		   time_t to, char *name, size_t n)
{
	const struct logset_meta *m = logset_meta(ls);
	struct lookup_rank r;

	if (lookup_busiest(ls, id, from, to, m->interval, &r, 1) != 1 ||
	    isnan(r.mean))
		return 0;
	util_strlcpy(name, m->counters[r.idx].instance, n);
	return 1;
}

/* Statistics of counters ids[0..n) of instance inst into st[]; a pair
 * (sum) when sum is set: st[0] gets ids[0] + ids[1] row by row. */
static void stats_of(struct logset *ls, time_t from, time_t to,
		     const char *inst, const enum counter_id *ids, size_t n,
		     struct report_stat **st, int sum)
{
	const struct logset_meta *m = logset_meta(ls);
	size_t idx[8], cols = 0;
	long col[8];
	struct logset_series s;
	struct perr e;

	for (size_t i = 0; i < n && i < 8; i++) {
		col[i] = lookup_counter(m, ids[i], inst);
		if (col[i] >= 0) {
			idx[cols] = (size_t)col[i];
			col[i] = (long)cols++;
		}
	}
	if (!cols || logset_fetch(ls, idx, cols, from, to, "AVERAGE",
				  m->interval, &s, &e) < 0)
		return;
	if (sum) {
		double *v = malloc((s.rows ? s.rows : 1) * sizeof(*v));

		if (v) {
			for (size_t r = 0; r < s.rows; r++) {
				double a = col[0] >= 0 ? s.values[r * s.ncols + (size_t)col[0]] : 0;
				double b = col[1] >= 0 ? s.values[r * s.ncols + (size_t)col[1]] : 0;

				v[r] = a + b;
			}
			report_stat_of(v, s.rows, 1, st[0]);
			free(v);
		}
	} else {
		for (size_t i = 0; i < n; i++)
			if (col[i] >= 0)
				report_stat_of(s.values + col[i], s.rows,
					       s.ncols, st[i]);
	}
	logset_series_free(&s);
}

void report_targets_of(struct logset *ls, time_t from, time_t to,
		       struct report_targets *t)
{
	struct report_stat *all[] = { &t->nfs_wbytes, &t->nfs_writes,
		&t->nfs_exec_w, &t->nfs_rtt_w, &t->nfs_retrans,
		&t->tape_busy, &t->tape_bytes };

	memset(t, 0, sizeof(*t));
	for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++)
		report_stat_of(NULL, 0, 1, all[k]);
	if (busiest(ls, CTR_NFS_WRITE_BYTES, from, to, t->nfs, sizeof(t->nfs))) {
		static const enum counter_id ids[] = { CTR_NFS_WRITE_BYTES,
			CTR_NFS_WRITES, CTR_NFS_EXEC_WRITE, CTR_NFS_RTT_WRITE,
			CTR_NFS_RETRANS };
		struct report_stat *st[] = { &t->nfs_wbytes, &t->nfs_writes,
			&t->nfs_exec_w, &t->nfs_rtt_w, &t->nfs_retrans };

		stats_of(ls, from, to, t->nfs, ids, 5, st, 0);
	}
	if (busiest(ls, CTR_TAPE_BUSY, from, to, t->tape, sizeof(t->tape))) {
		static const enum counter_id busy[] = { CTR_TAPE_BUSY };
		static const enum counter_id bytes[] = { CTR_TAPE_WRITE_BYTES,
			CTR_TAPE_READ_BYTES };
		struct report_stat *st1[] = { &t->tape_busy };
		struct report_stat *st2[] = { &t->tape_bytes };

		stats_of(ls, from, to, t->tape, busy, 1, st1, 0);
		stats_of(ls, from, to, t->tape, bytes, 2, st2, 1);
	}
}

/* The client's share of its time blocked in the given states (of its
 * working threads when known), or NAN without wait states. */
static double blocked(const struct report_waits *w, int net, int other,
		      int disk)
{
	const double *p;
	double sum = 0, all = 0;

	if (!w || !w->have)
		return NAN;
	p = report_waits_shares(w);
	for (int k = 0; k < WS_N; k++)
		if (!isnan(p[k]))
			all += p[k];
	if (!(all > 0))
		return NAN;
	sum = (net ? p[WS_NET] : 0) + (other ? p[WS_OTHER] : 0) +
	      (disk ? p[WS_DISK] : 0);
	return 100.0 * sum / all;
}

/* Without wait states: no local resource named (the system rules said
 * nothing, I/O wait without a busy disk, or NetBackup's storage). */
static int nothing_local(const struct report_verdict *v)
{
	return v->kind == REPORT_NONE || v->kind == REPORT_IOWAIT ||
	       v->kind == REPORT_STORAGE ||
	       v->kind == REPORT_NET_OR_SERVER;
}

static int judge_nfs(const struct report_targets *t,
		     const struct report_figures *f,
		     const struct report_waits *w, struct report_verdict *v)
{
	double b = blocked(w, 1, 1, 0), exec = t->nfs_exec_w.avg,
	       rtt = t->nfs_rtt_w.avg;
	char rate[32], why[96];
	int net;

	if (!t->nfs[0] || !(t->nfs_writes.avg > 0) ||
	    !(exec >= REPORT_NFS_EXEC_WRITE))
		return 0;
	if (isnan(b) ? !nothing_local(v) : b < REPORT_TARGET_WAITS)
		return 0;
	/* the RTT holds the server's time too: it is the network's only
	 * when the path shows it */
	net = !isnan(rtt) && rtt >= REPORT_NFS_RTT_CARRIES * exec &&
	      (t->nfs_retrans.avg > 0 || f->retrans.avg > 0 ||
	       f->net_share.avg >= REPORT_NET_FREE);
	report_fmt_bytes(rate, sizeof(rate), t->nfs_wbytes.avg, "/s");
	if (isnan(b))
		snprintf(why, sizeof(why), "with no local resource near saturation");
	else
		snprintf(why, sizeof(why),
			 "while the client waited on the network or other %.0f%% of the time", b);
	memset(v, 0, sizeof(*v));
	v->kind = net ? REPORT_NET_OR_SERVER : REPORT_STORAGE;
	if (net)
		report_line_add(v, "Bottleneck: network to the NFS server of %s: "
				"writes took %.1f ms each to execute, %.1f ms of it "
				"the round trip, with %.2f retransmissions/s "
				"(%.1f writes/s, %s) %s", t->nfs, exec, rtt,
				t->nfs_retrans.avg, t->nfs_writes.avg, rate, why);
	else
		report_line_add(v, "Bottleneck: disk on the NFS server of %s: "
				"writes took %.1f ms each to execute (round trip "
				"%.1f ms; %.1f writes/s, %s) %s", t->nfs, exec,
				rtt, t->nfs_writes.avg, rate, why);
	snprintf(v->hint, sizeof(v->hint), net ?
		 "the path to the server loses or queues requests: check the link, its errors and the server's network" :
		 "the server commits writes slowly: look at its disks and its export options (sync), or the client's wsize");
	return 1;
}

static int judge_tape(const struct report_targets *t,
		      const struct report_figures *f,
		      const struct report_waits *w, struct report_verdict *v)
{
	double b = blocked(w, 0, 1, 1), busy = t->tape_busy.avg;
	char rate[32], clause[256];

	if (!t->tape[0] || !(t->tape_bytes.avg > 0) || isnan(busy))
		return 0;
	/* the backup waits on the tape: blocked on it (the st driver's
	 * waits count as disk or other), or, without wait states, nothing
	 * local named */
	if (isnan(b) ? !nothing_local(v) : b < REPORT_TARGET_WAITS)
		return 0;
	report_fmt_bytes(rate, sizeof(rate), t->tape_bytes.avg, "/s");
	if (busy >= REPORT_TAPE_BUSY) {
		memset(v, 0, sizeof(*v));
		v->kind = REPORT_STORAGE;
		report_line_add(v, "Bottleneck: disk: Tape(%s) busy %.0f%% "
				"(p95 %.0f%%) at %s: the tape drive is the "
				"bottleneck", t->tape, busy, t->tape_busy.p95,
				rate);
		snprintf(v->hint, sizeof(v->hint),
			 "the drive streams at its speed: more drives, or compression on the drive");
		return 1;
	}
	snprintf(clause, sizeof(clause), "Tape(%s) busy %.0f%% at %s: the "
		 "tape waits for data: it is not the bottleneck", t->tape,
		 busy, rate);
	if ((v->kind == REPORT_DISK || v->kind == REPORT_STORAGE ||
	     v->kind == REPORT_IOWAIT || v->kind == REPORT_NONE) &&
	    !(f->disk_busy.avg >= REPORT_DISK_AVG)) {
		/* the disk waits were the tape's (no local disk busy): nothing
		 * on this host holds the backup */
		memset(v, 0, sizeof(*v));
		v->kind = REPORT_NONE;
		report_line_add(v, "Bottleneck: nothing: %s", clause);
		snprintf(v->hint, sizeof(v->hint),
			 "the data reaches the drive slower than it streams (shoe-shining): look at the source, the network or the client");
	} else {
		report_line_add(v, "; %s", clause);
	}
	return 1;
}

int report_targets_judge(const struct report_targets *t,
			 const struct report_figures *f,
			 const struct report_waits *w, struct report_verdict *v)
{
	if (!t)
		return 0;
	return judge_nfs(t, f, w, v) || judge_tape(t, f, w, v);
}
