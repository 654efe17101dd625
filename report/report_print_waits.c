/*
 * report_print_waits.c - the client's wait states in the text report
 * (report.h report_print_waits): at the default level two lines (the
 * split of the working threads, the dominant state), with -v the table
 * of working and all threads, how they were read (in turns, guessed) and
 * the command's cgroup; a totals file not used is said at both. Split
 * from report_print.c, which prints the rest of a session.
 */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A set read in turns: how many of its blocked ticks were read, and
 * what that may have cost the split above (waitrates_split_error). */
static void print_turns(FILE *f, const struct report_waits *w)
{
	const char *sep = "; its blocked states within";

	if (isnan(w->read_share))
		return;
	fprintf(f, "    (read in turns: %.0f%% of the blocked ticks read, each standing for the ticks since the thread's last read",
		w->read_share);
	if (!isnan(w->split_error)) {
		fprintf(f, "%s +-%.1f points (working)", sep, w->split_error);
		sep = ",";
	}
	if (!isnan(w->split_error_all)) {
		fprintf(f, "%s +-%.1f points (all threads)", sep,
			w->split_error_all);
		sep = ",";
	}
	fprintf(f, "%s)\n", sep[0] == ',' ? ", 95%" : "");
}

/* The default level's wait states: the header and the dominant state
 * on a line, the shares of the working threads (all of them from the
 * logged counters) on the next. */
static void print_waits_short(FILE *f, const struct report_waits *w,
			      const char *who, int d)
{
	static const char *const label[WS_N] = { "running", "CPU wait",
		"disk", "network", "other", "sleep" };
	const double *pct = w->from_totals ? w->work : w->all;

	if (w->from_totals)
		fprintf(f, "  %s wait states, Process(%s): %zu of %zu threads worked; ",
			who, w->process, w->nwork, w->nall);
	else
		fprintf(f, "  %s wait states, Process(%s), logged counters: ",
			who, w->process);
	fprintf(f, "dominant wait state: %s\n    %s:",
		d < 0 ? "none" : waitrates_name((enum waits_state)d),
		w->from_totals ? "working" : "all threads");
	for (int k = 0; k < WS_N; k++)
		if (!isnan(pct[k]))
			fprintf(f, "%s %s %.1f%%", k ? "," : "", label[k], pct[k]);
	fputc('\n', f);
	if (w->unread[0])
		fprintf(f, "    not read: %s\n", w->unread);
}

/* The client's wait states: a row per state, its working threads and all
 * of them; the dominant one; the command's cgroup (-v; the default level
 * in two lines: print_waits_short). */
void report_print_waits(FILE *f, const struct report_waits *w,
			const char *who, int verbose)
{
	static const char *const label[WS_N] = { "running", "CPU wait",
		"disk wait", "network wait", "other wait", "sleep" };
	int d = report_waits_dominant(w);
	char q[192] = "", p[48] = "";

	if (!w->have) {
		/* a totals file not used, and counters too thin to stand in
		 * (a 2 s session on a loaded host): said all the same, or
		 * the report is silent on what its end marker names */
		if (w->unused[0])
			fprintf(f, "  %s wait states: none; the per-thread totals were not used: %s, and the logged counters hold too few of its rows\n",
				who, w->unused);
		return;
	}
	if (!verbose) {
		print_waits_short(f, w, who, d);
		return;
	}
	if (w->from_totals)
		fprintf(f, "  %s wait states, Process(%s): %zu of %zu threads worked\n", who,
			w->process, w->nwork, w->nall);
	else
		fprintf(f, "  %s wait states, Process(%s): %zu threads on average (logged counters: idle threads not told apart)\n", who,
			w->process, w->nall);
	if (w->unused[0])
		fprintf(f, "    the per-thread totals were not used: %s\n",
			w->unused);
	if (w->unread[0])
		fprintf(f, "    not read: %s\n", w->unread);
	if (w->folded)
		fprintf(f, "    %zu ended threads summed by command name in the totals file\n",
			w->folded);
	fprintf(f, "    %-34s %12s %12s\n", "state", "working", "all threads");
	for (int k = 0; k < WS_N; k++) {
		char a[16] = "n/a", b[16] = "n/a";

		if (w->from_totals && !isnan(w->work[k]))
			snprintf(a, sizeof(a), "%.1f%%", w->work[k]);
		if (!isnan(w->all[k]))
			snprintf(b, sizeof(b), "%.1f%%", w->all[k]);
		fprintf(f, "    %-34s %12s %12s\n", label[k], a, b);
	}
	fprintf(f, "    dominant wait state: %s\n",
		d < 0 ? "none" : waitrates_name((enum waits_state)d));
	if (w->hidden || (!isnan(w->guessed) && w->guessed >= 1))
		fprintf(f, "    (%s%.0f%% of the blocked time decided by the thread's state letter alone)\n",
			w->hidden ? "wait channels hidden: " : "",
			isnan(w->guessed) ? 100.0 : w->guessed);
	print_turns(f, w);
	if (!isnan(w->quota))
		snprintf(q, sizeof(q), ", CPU quota %.2g%s%s%s", w->quota,
			 w->quota_group[0] ? " (cgroup " : "", w->quota_group,
			 w->quota_group[0] ? ")" : "");
	if (w->thr_periods.n)
		snprintf(p, sizeof(p), "throttled in %.0f%% of its periods, ",
			 w->thr_periods.avg);
	if (w->stall_cpu.n || w->stall_io.n || w->stall_mem.n || w->throttled.n)
		fprintf(f, "    its cgroup: stalled on CPU %.0f%%, I/O %.0f%%, memory %.0f%%; %s%% Throttled Time %.0f (100 per CPU)%s\n",
			w->stall_cpu.avg, w->stall_io.avg, w->stall_mem.avg,
			p, w->throttled.avg, q);
}
