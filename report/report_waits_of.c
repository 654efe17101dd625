/*
 * report_waits_of.c - a session's wait states from its log set (report.h):
 *   the per-thread totals perflog run had the collector write beside the
 *   end marker (waits=waits-LABEL.tsv): the split of the threads that
 *   worked and of all of them (waitrates_split), the CPUs' worth they ran,
 *   the command that ran the most; the seconds its processes waited on
 *   each other (edges-LABEL.tsv: a shell on its child, a sender on its
 *   receiver) left out, so the split is the tree's own;
 *   else the logged Process counters over the session's rows (log sets
 *   whose run had no totals: every thread, idle ones included);
 *   and the command's cgroup counters (pressure stalls, throttling), its
 *   bytes, and the end marker's waits.* and cgroup.cpu_quota fields.
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../counters/counters.h"
#include "../logs/lookup.h"

/* the cgroup's counters read beside the wait states */
#define NMORE 7

/* The Process counters of instance proc over the session: the wait
 * states from the rows (w->all, when known) and the cgroup's. */
static void from_counters(struct logset *ls, const struct report_session *s,
			  const char *proc, struct report_waits *w)
{
	static const enum counter_id state[WS_N] = { CTR_PROC_PROCESSOR_TIME,
		CTR_PROC_CPU_WAIT, CTR_PROC_DISK_WAIT, CTR_PROC_NET_WAIT,
		CTR_PROC_OTHER_WAIT, CTR_PROC_SLEEP };
	const enum counter_id more[NMORE] = { CTR_PROC_CPU_SOME,
		CTR_PROC_IO_SOME, CTR_PROC_MEM_SOME, CTR_PROC_THROTTLED,
		CTR_PROC_THROTTLED_PERIODS, CTR_PROC_IO_READ, CTR_PROC_IO_WRITE };
	struct report_stat *st[NMORE] = { &w->stall_cpu, &w->stall_io,
		&w->stall_mem, &w->throttled, &w->thr_periods, &w->io_read,
		&w->io_write };
	const struct logset_meta *m = logset_meta(ls);
	size_t idx[WS_N + NMORE], n = 0;
	long col[WS_N + NMORE];
	struct logset_series ser;
	struct perr e;
	double avg[WS_N], sum = 0;
	int known = 1;

	for (int k = 0; k < WS_N + NMORE; k++) {
		col[k] = lookup_counter(m, k < WS_N ? state[k] : more[k - WS_N],
					proc);
		if (col[k] >= 0)
			idx[n++] = (size_t)col[k];
	}
	if (!n || logset_fetch(ls, idx, n, s->begin + 1,
			       s->end > s->begin ? s->end : s->begin + 1,
			       "AVERAGE", m->interval, &ser, &e) < 0)
		return;
	for (int k = 0, j = 0; k < WS_N + NMORE; k++) {
		struct report_stat x;

		if (col[k] < 0) {
			known = known && k >= WS_N;
			continue;
		}
		report_stat_of(ser.values + j++, ser.rows, ser.ncols, &x);
		if (k < WS_N) {
			avg[k] = x.avg;
			known = known && x.n;
			sum += x.n ? x.avg : 0;
		} else {
			*st[k - WS_N] = x;
		}
	}
	logset_series_free(&ser);
	/* a tree with less than half a thread on average (the server's
	 * watch caught no receiver: waits.threads=0) has no split to
	 * judge by: normalised, its few ticks read "ran 100%" */
	if (!known || !(sum >= REPORT_WAITS_MIN_THREADS * 100))
		return;
	w->have = 1;
	for (int k = 0; k < WS_N; k++)
		w->all[k] = 100 * avg[k] / sum;
	w->nall = (size_t)lround(sum / 100);
	w->cpus = avg[WS_CPU] / 100;
}

/* The command that ran the most among the working threads (of the tree:
 * a local peer's are not, waits_total.peer). */
static void top_command(const struct waits_totals *t, char *out, size_t n)
{
	double best = 0;

	out[0] = '\0';
	for (size_t i = 0; i < t->n; i++) {
		double sum = 0;

		if (!waitrates_working(&t->t[i]) || t->t[i].peer)
			continue;
		for (size_t j = 0; j < t->n; j++)
			if (waitrates_working(&t->t[j]) && !t->t[j].peer &&
			    !strcmp(t->t[j].comm, t->t[i].comm))
				sum += t->t[j].sec[WS_CPU];
		if (sum > best) {
			best = sum;
			util_strlcpy(out, t->t[i].comm, n);
		}
	}
}

/* The edges file beside the totals (an old set has none): the seconds
 * the tree's processes waited on each other left out of its split
 * (waitedges_leave_out); its lines not read said in w->unread. */
static void leave_out_own(const char *dir, const char *waits,
			  struct waits_totals *t, struct report_waits *w)
{
	struct waitedge_row *rows;
	struct perr unread;
	long n = treefiles_edges(dir, waits, &rows, &unread);

	util_strlcpy(w->unread, unread.msg, sizeof(w->unread));
	if (n > 0)
		waitedges_leave_out(t, rows, (size_t)n);
	free(rows);
}

/* The per-thread totals beside the end marker; 0, or -1 without (then
 * w->unused says why, when the marker named a file). The fallback to the
 * counters gives another split (idle threads counted), so the report
 * says it took it. */
static int from_totals(const char *dir, const struct report_session *s,
		       struct report_waits *w)
{
	const char *name = s->end_m ? marker_get(s->end_m, "waits") : NULL;
	struct waits_totals t = { 0 };
	double cpu = 0, span = s->seconds, paced;
	size_t bad = 0, threads, working;
	struct perr e;
	long n;

	if (!name)
		return -1;
	if ((n = treefiles_waits(dir, name, &t, &bad, &e)) == -2) {
		util_strlcpy(w->unused, e.msg, sizeof(w->unused));
		return -1;
	}
	if (n <= 0) {
		snprintf(w->unused, sizeof(w->unused),
			 "'%s': no thread in it could be read (%zu bad lines)",
			 name, bad);
		waitrates_totals_free(&t);
		return -1;
	}
	leave_out_own(dir, name, &t, w);
	waitrates_split(&t, 1, w->work, &w->nwork);
	waitrates_split(&t, 0, w->all, &w->nall);
	paced = waitrates_paced(&t);
	w->unpaced = !isnan(paced) && w->work[WS_SLEEP] > paced ?
		w->work[WS_SLEEP] - paced : 0;
	waitrates_count(&t, &threads, &working);
	w->folded = 0;
	for (size_t i = 0; i < t.n; i++) {
		if (t.t[i].peer)
			continue;	/* a local peer's: not the tree's */
		if (waitrates_working(&t.t[i]))
			cpu += t.t[i].sec[WS_CPU];
		if (waitrates_nthreads(&t.t[i]) > 1 || t.t[i].tid == 0)
			w->folded += waitrates_nthreads(&t.t[i]);
	}
	w->cpus = span > 0 ? cpu / span : NAN;
	top_command(&t, w->top, sizeof(w->top));
	waitrates_totals_free(&t);
	w->have = w->from_totals = 1;
	return 0;
}

void report_waits_of(struct logset *ls, const char *dir,
		     const struct report_session *s, struct report_waits *w)
{
	struct report_stat *st[] = { &w->stall_cpu, &w->stall_io,
		&w->stall_mem, &w->throttled, &w->thr_periods, &w->io_read,
		&w->io_write };
	const char *proc, *group;

	memset(w, 0, sizeof(*w));
	for (int k = 0; k < WS_N; k++)
		w->work[k] = w->all[k] = NAN;
	for (size_t k = 0; k < sizeof(st) / sizeof(st[0]); k++)
		report_stat_of(NULL, 0, 1, st[k]);
	w->cpus = w->guessed = NAN;
	w->read_share = w->split_error = w->split_error_all = NAN;
	w->quota = marker_num(s->end_m, "cgroup.cpu_quota");
	double user = marker_num(s->end_m, "rusage.utime"),
	       kernel = marker_num(s->end_m, "rusage.stime");
	w->kernel_share = user >= 0 && kernel >= 0 && user + kernel > 0 ?
			  kernel / (user + kernel) : NAN;
	if (s->end_m && (group = marker_get(s->end_m, "cgroup.quota_group")))
		util_strlcpy(w->quota_group, group, sizeof(w->quota_group));
	proc = lookup_process(logset_meta(ls), s->begin_m ? s->name : NULL);
	if (!proc)
		return;
	util_strlcpy(w->process, proc, sizeof(w->process));
	from_counters(ls, s, proc, w);
	if (from_totals(dir, s, w) == 0 || w->have) {
		w->hidden = marker_num(s->end_m, "waits.hidden") == 1;
		w->guessed = marker_num(s->end_m, "waits.guessed");
		w->read_share = marker_num(s->end_m, "waits.read_share");
		w->split_error = marker_num(s->end_m, "waits.split_error");
		w->split_error_all = marker_num(s->end_m,
						"waits.split_error_all");
	}
}
