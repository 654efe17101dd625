/*
 * report_print.c - the text report (report.h): per session its times, the
 * command from the end marker, the backup client's figures
 * (report_client.h), a table of avg / p95 / peak / min per resource, the
 * client's instrumentation and the verdict.
 *
 * Two levels (issue 49). The default is what a manager reads: each
 * session in about 25 lines no wider than REPORT_WIDTH columns (a longer
 * line, the verdict's evidence or a quoted command, goes on at the next
 * "; " or space, indented), the resources a row each that matters, the
 * client's figures and wait states a line each, the stages table cut at
 * REPORT_STAGE_ROWS rows. -v (r->verbose) adds the method's fine print,
 * each line whole as scripts grep it: the client's checks and its own
 * summary lines, every resource row, the wait states' table and how they
 * were read (in turns, guessed), the wait graph's seconds.
 */
#include "report.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../logs/setdir.h"
#include "report_client.h"
#include "report_night.h"
#include "report_summary.h"

static void row(FILE *f, const char *label, const struct report_stat *s,
		double scale, const char *unit, int bytes)
{
	char a[32], b[32], c[32], d[32];

	if (!s->n) {
		fprintf(f, "    %-34s %s\n", label, "n/a");
		return;
	}
	if (bytes) {
		fprintf(f, "    %-34s %12s %12s %12s %12s\n", label,
			report_fmt_bytes(a, sizeof(a), s->avg, unit),
			report_fmt_bytes(b, sizeof(b), s->p95, unit),
			report_fmt_bytes(c, sizeof(c), s->peak, unit),
			report_fmt_bytes(d, sizeof(d), s->min, unit));
		return;
	}
	int w = 12 - (int)strlen(unit);
	fprintf(f, "    %-34s %*.1f%s %*.1f%s %*.1f%s %*.1f%s\n", label,
		w, s->avg * scale, unit, w, s->p95 * scale, unit,
		w, s->peak * scale, unit, w, s->min * scale, unit);
}

static void fmt_duration(char *buf, size_t n, time_t secs)
{
	snprintf(buf, n, "%lld:%02lld:%02lld", (long long)secs / 3600,
		 (long long)secs / 60 % 60, (long long)secs % 60);
}

/* The session's own length from its markers (milliseconds), or the span
 * judged when a marker is missing. */
static void fmt_session_duration(char *buf, size_t n,
				 const struct report_session *s)
{
	long long ms;

	if (!s->begin_m || !s->end_m) {
		fmt_duration(buf, n, s->end - s->begin);
		return;
	}
	ms = llround(s->seconds * 1000);
	if (ms < 0)
		ms = 0;
	snprintf(buf, n, "%lld:%02lld:%02lld.%03lld", ms / 3600000,
		 ms / 60000 % 60, ms / 1000 % 60, ms % 1000);
}

/* The OOM killer beside the exit status (the end marker's oom_kill):
 * the command itself killed (SIGKILL), or processes in its memory cgroup
 * (a wrapper script's child: the script went on or exited 137). */
static const char *oom_words(const struct marker *end, char *buf, size_t n)
{
	const char *k = marker_get(end, "oom_kill"), *sig = marker_get(end, "signal");
	long nk = k ? strtol(k, NULL, 10) : 0;

	if (nk <= 0)
		return "";
	if (sig && atoi(sig) == SIGKILL)
		return " (killed by the OOM killer)";
	snprintf(buf, n, " (the OOM killer ended %ld process%s in its memory cgroup)",
		 nk, nk == 1 ? "" : "es");
	return buf;
}

/* What the end marker says of the command: its line and its exit
 * status, on one line at the default level, its duration (the
 * session's within a few ms) with -v. */
static void print_command(FILE *f, const struct marker *end, int verbose)
{
	const char *cmd = marker_get(end, "cmd"), *st = marker_get(end, "status");
	const char *v;
	char ooms[96];

	if (cmd)
		fprintf(f, "  command: %s%s", cmd, verbose || !st ? "\n" : "; ");
	if (st)
		fprintf(f, "%sexit status: %s%s\n", cmd && !verbose ? "" : "  ", st,
			oom_words(end, ooms, sizeof(ooms)));
	if (verbose && (v = marker_get(end, "duration")))
		fprintf(f, "  command duration: %s s\n", v);
}

/* How many rows the table rests on; under REPORT_FEW_ROWS a warning
 * and what to do (a 2.9 s backup at -i 5: avg, p95, peak and min of 2
 * rows), and no row at all said once, here. */
void report_print_rows(FILE *f, const struct report_figures *g)
{
	char step[32] = "";
	/* at 1 s there is no shorter interval to suggest */
	const char *hint = g->step > 1 ?
		"; log a short session with -i 1" : "";

	if (g->step)
		snprintf(step, sizeof(step), " of %u s", g->step);
	if (!g->rows)
		fprintf(f, "  no row of the log covers this span (rows%s): no figures%s\n",
			step, hint);
	else if (g->rows < REPORT_FEW_ROWS)
		fprintf(f, "  figures from %zu row%s%s only: too few for avg, p95, peak and min to mean much%s\n",
			g->rows, g->rows == 1 ? "" : "s", step, hint);
	else
		fprintf(f, "  figures from %zu rows%s\n", g->rows, step);
}

/* The Pressure rows of the default level in one: each resource's
 * average (the table's avg column of -v). */
static void print_pressure(FILE *f, const struct report_figures *g)
{
	static const char *const name[3] = { "cpu", "io", "memory" };
	char line[128] = "";
	size_t k = 0;

	for (int r = 0; r < 3; r++)
		if (g->psi[r].n && k < sizeof(line))
			k += (size_t)snprintf(line + k, sizeof(line) - k, "%s%s %.1f%%",
					      k ? ", " : "", name[r], g->psi[r].avg);
	if (k)
		fprintf(f, "    %-34s %s (avg)\n", "Pressure some stalled", line);
}

/* The table: a row per resource figure, in the chart sets' order (CPU,
 * disk, memory and paging, network). The default level leaves out the
 * rows a reader of the verdict rarely needs (a transfer's time and size,
 * paging, a share of a bandwidth not known) and says the pressures in
 * one row. */
void report_print_resources(FILE *f, const struct report_figures *g,
			    int verbose)
{
	char lbl[192], bw[32];

	if (!verbose && g->rows >= REPORT_FEW_ROWS) {	/* the rows line heads the table */
		char rows[64];
		snprintf(rows, sizeof(rows), "figures from %zu rows", g->rows);
		if (g->step)
			snprintf(rows + strlen(rows), sizeof(rows) - strlen(rows),
				 " of %u s", g->step);
		fprintf(f, "  %-36s %12s %12s %12s %12s\n", rows, "avg", "p95",
			"peak", "min");
	} else {
		report_print_rows(f, g);
		if (!g->rows)	/* every figure n/a: said once, above */
			return;
		fprintf(f, "  %-36s %12s %12s %12s %12s\n", "resource", "avg", "p95",
			"peak", "min");
	}
	snprintf(lbl, sizeof(lbl), "CPU total (%d CPUs)", g->ncpu);
	row(f, lbl, &g->cpu, 1, "%", 0);
	snprintf(lbl, sizeof(lbl), "busiest CPU (%s most)",
		 g->cpu1_name[0] ? g->cpu1_name : "n/a");
	row(f, lbl, &g->cpu1, 1, "%", 0);
	row(f, "CPU I/O wait", &g->iowait, 1, "%", 0);
	if (g->proc_cpu.n) {
		snprintf(lbl, sizeof(lbl), "%s process tree CPU",
			 g->proc_who ? g->proc_who : "client");
		row(f, lbl, &g->proc_cpu, 1, "%", 0);
	}
	if (g->disk[0]) {
		snprintf(lbl, sizeof(lbl), "LogicalDisk(%s) %% Disk Time", g->disk);
		row(f, lbl, &g->disk_busy, 1, "%", 0);
		snprintf(lbl, sizeof(lbl), "LogicalDisk(%s) bytes/sec", g->disk);
		row(f, lbl, &g->disk_bytes, 1, "/s", 1);
		if (verbose) {
			snprintf(lbl, sizeof(lbl), "LogicalDisk(%s) transfers/sec", g->disk);
			row(f, lbl, &g->disk_xfers, 1, "", 0);
			snprintf(lbl, sizeof(lbl), "LogicalDisk(%s) ms/transfer", g->disk);
			row(f, lbl, &g->disk_service, 1000, "", 0);
		}
		if (verbose && !isnan(g->disk_xfer_size))
			fprintf(f, "    %-34s %12s\n", "average transfer size",
				report_fmt_bytes(lbl, sizeof(lbl), g->disk_xfer_size, NULL));
	} else {
		fprintf(f, "    %-34s n/a\n", "disk");
	}
	row(f, "Memory available", &g->mem_avail, 1, "", 1);
	if (verbose)
		row(f, "Memory pages/sec", &g->pages, 1, "", 0);
	if (g->net[0]) {
		snprintf(lbl, sizeof(lbl), "Network Interface(%s) bytes/sec", g->net);
		row(f, lbl, &g->net_bytes, 1, "/s", 1);
		snprintf(lbl, sizeof(lbl), "%s share of %s", g->net,
			 report_fmt_bits(bw, sizeof(bw), g->net_bandwidth));
		if (verbose || g->net_share.n)
			row(f, lbl, &g->net_share, 1, "%", 0);
	} else {
		fprintf(f, "    %-34s n/a\n", "network");
	}
	if (!verbose) {
		print_pressure(f, g);
		return;
	}
	for (int r = 0; r < 3; r++) {
		static const char *const name[3] = { "cpu", "io", "memory" };

		snprintf(lbl, sizeof(lbl), "Pressure(%s) some stalled", name[r]);
		if (g->psi[r].n)
			row(f, lbl, &g->psi[r], 1, "%", 0);
	}
}

/* Where backups land (report_targets.h): the mount that wrote most and
 * the busiest tape drive, when the log set has them. */
static void print_targets(FILE *f, const struct report_targets *t)
{
	char lbl[128];

	if (t->nfs[0]) {
		snprintf(lbl, sizeof(lbl), "NFS Client(%.40s) write B/s", t->nfs);
		row(f, lbl, &t->nfs_wbytes, 1, "/s", 1);
		row(f, "  execute ms per write", &t->nfs_exec_w, 1, "", 0);
		row(f, "  round trip ms per write", &t->nfs_rtt_w, 1, "", 0);
	}
	if (t->tape[0]) {
		snprintf(lbl, sizeof(lbl), "Tape(%.40s) %% Busy Time", t->tape);
		row(f, lbl, &t->tape_busy, 1, "%", 0);
		row(f, "  read + write bytes/sec", &t->tape_bytes, 1, "/s", 1);
	}
}

static void print_instr(FILE *f, const struct report_session *s)
{
	if (s->has_instr) {
		const struct instr_thread *t = instr_main_thread(&s->instr);
		fprintf(f, "  client instrumentation (thread %ld, %.3f s elapsed; %s):\n",
			t->id, t->elapsed_s, s->instr_src);
		for (size_t i = 0; i < t->n; i++)
			if (t->s[i].actual_s > 0)
				fprintf(f, "    %-20s %10.3f s %5.1f%%\n", t->s[i].name,
					t->s[i].actual_s,
					t->elapsed_s > 0 ? 100 * t->s[i].actual_s / t->elapsed_s : 0);
	} else if (s->instr_src[0]) {
		fprintf(f, "  client instrumentation: %s\n", s->instr_src);
	}
}

/* A log that stopped before the session's end (a `perflog stop` while
 * perflog run's command went on: its end marker says log.ended=early;
 * or the last row well before the end): the figures cover only the
 * start. */
static void print_log_end(FILE *f, const struct report *r,
			  const struct report_session *s)
{
	const char *v = s->end_m ? marker_get(s->end_m, "log.ended") : NULL;
	const struct logset_meta *m = logset_meta(r->ls);
	time_t last = logset_last(r->ls);
	char t[40];

	if (!s->end_m || !last || last >= s->end_m->t)
		return;
	/* the gap alone only in a stopped set: a live one holds rows */
	if ((v && !strcmp(v, "early")) ||
	    (m->stop && s->end_m->t > last + (time_t)m->interval))
		fprintf(f, "  the log ends early: its last row is at %s, %lld s before the session's end (the collector was stopped while the command ran)\n",
			util_iso8601(t, sizeof(t), last, -1),
			(long long)(s->end_m->t - last));
}

/* A line of the default level, cut to REPORT_WIDTH columns: at the last
 * "; " that fits past half the line, else the last space, else where it
 * must; what follows goes on indented 4 more than the line. */
static void put_wrapped(FILE *f, const char *line, size_t len)
{
	size_t ind = strspn(line, " "), more = ind + 4;

	if (more > REPORT_WIDTH / 2)
		more = ind;
	if (!len)
		fputc('\n', f);
	for (int first = 1; len; first = 0) {
		size_t pad = first ? 0 : more;
		size_t room = REPORT_WIDTH - pad, cut = len, semi = 0, space = 0;

		if (len > room) {
			for (size_t i = ind + 1; i < room; i++) {
				if (line[i] == ';' && line[i + 1] == ' ')
					semi = i + 1;
				if (line[i] == ' ' && i > ind)
					space = i;
			}
			/* a clause's end when it leaves the line half full */
			cut = semi > room / 2 ? semi : space ? space : room;
		}
		fprintf(f, "%*s%.*s\n", (int)pad, "", (int)cut, line);
		line += cut;
		len -= cut;
		while (len && *line == ' ') {
			line++;
			len--;
		}
		ind = 0;
	}
}

/* A row of the stages table names a stage the verdict line names: its
 * name (the row's text before its "(host)") is in the line. */
static int row_in_verdict(const char *row, size_t len, const char *verdict,
			  size_t vlen)
{
	const char *p = row + 4, *end = row + len, *host = p;
	char name[64];
	size_t n;

	while (host < end && *host != '(')
		host++;
	while (host > p && host[-1] == ' ')
		host--;
	n = (size_t)(host - p);
	if (!n || n >= sizeof(name) || !verdict)
		return 0;
	memcpy(name, p, n);
	name[n] = '\0';
	for (const char *v = verdict; v + n <= verdict + vlen; v++)
		if (!memcmp(v, name, n))
			return 1;
	return 0;
}

/* The stages table's rows from text (after its heading) to the first
 * line that is no row: at most REPORT_STAGE_ROWS, the ones the verdict
 * line names first, the others in order, then how many more -v shows.
 * Returns where the rows end. */
static const char *put_stage_rows(FILE *f, const char *text, const char *end)
{
	const char *row[REPORT_STAGES_MAX * 4], *p = text;
	size_t len[REPORT_STAGES_MAX * 4], n = 0, kept = 0;
	char keep[REPORT_STAGES_MAX * 4] = { 0 };
	const char *verdict = NULL;
	size_t vlen = 0;

	while (p < end && n < sizeof(len) / sizeof(len[0]) &&
	       !strncmp(p, "    ", 4)) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		row[n] = p;
		len[n++] = nl ? (size_t)(nl - p) : (size_t)(end - p);
		p = nl ? nl + 1 : end;
	}
	for (const char *q = p; q < end && !verdict; ) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		if (!strncmp(q, "  Bottleneck:", 13)) {
			verdict = q;
			vlen = nl ? (size_t)(nl - q) : (size_t)(end - q);
		}
		q = nl ? nl + 1 : end;
	}
	for (size_t i = 0; i < n && kept < REPORT_STAGE_ROWS; i++)
		if (row_in_verdict(row[i], len[i], verdict, vlen))
			keep[i] = 1, kept++;
	for (size_t i = 0; i < n && kept < REPORT_STAGE_ROWS; i++)
		if (!keep[i])
			keep[i] = 1, kept++;
	for (size_t i = 0; i < n; i++)
		if (keep[i])
			put_wrapped(f, row[i], len[i]);
	if (n > kept)
		fprintf(f, "    (%zu more stage%s: -v)\n", n - kept,
			n - kept == 1 ? "" : "s");
	return p;
}

/* The default level's text as it goes out: each line cut to
 * REPORT_WIDTH, the stages table (the verdict's, report_stages_print)
 * cut at REPORT_STAGE_ROWS rows (put_stage_rows). */
static void put_default(FILE *f, const char *text, size_t n)
{
	const char *end = text + n;

	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t len = nl ? (size_t)(nl - text) : (size_t)(end - text);

		put_wrapped(f, text, len);
		text += len + (nl != NULL);
		if (!strncmp(text - len - (nl != NULL), "  Stages (", 10))
			text = put_stage_rows(f, text, end);
	}
}

static void print_session(FILE *f, const struct report *r,
			  const struct report_session *s)
{
	char t1[40], t2[40], du[32];
	int v = r->verbose;

	util_iso8601(t1, sizeof(t1), s->begin_m ? s->begin_m->t : s->begin,
		     s->begin_m ? s->begin_m->ms : -1);
	util_iso8601(t2, sizeof(t2), s->end_m ? s->end_m->t : s->end,
		     s->end_m ? s->end_m->ms : -1);
	fmt_session_duration(du, sizeof(du), s);
	fprintf(f, "\nSession %s%s\n", s->name, s->open ? " (open: no end marker)" : "");
	fprintf(f, "  from %s to %s, duration %s\n", t1, t2, du);
	if (s->end_m)
		print_command(f, s->end_m, v);
	print_log_end(f, r, s);
	report_client_print(f, r->ls, s, v);
	report_print_resources(f, &s->fig, v);
	print_targets(f, &s->targets);
	report_print_waits(f, &s->waits, "client", v);
	print_instr(f, s);
	if (s->peers)
		report_hosts_print(f, r, s);
	report_stages_print(f, s->stages);
	fprintf(f, "  %s\n", s->verdict.line);
	/* with no row, "nothing near saturation" has nothing to explain:
	 * the rows line said why once */
	if (s->verdict.hint[0] &&
	    (s->fig.rows || s->verdict.kind != REPORT_NONE))
		fprintf(f, "  (%s)\n", s->verdict.hint);
	if (v)
		report_graph_print(f, s);
}

void report_print_session(FILE *f, const struct report *r,
			  const struct report_session *s)
{
	char *text = NULL;
	size_t n = 0;
	FILE *m;

	if (r->verbose || !(m = open_memstream(&text, &n))) {
		print_session(f, r, s);
		return;
	}
	print_session(m, r, s);
	if (fclose(m) == 0)
		put_default(f, text, n);
	free(text);
}

/* The report's head: the set, its host, its sessions at a glance. */
static void print_head(FILE *f, const struct report *r)
{
	const struct logset_meta *m = logset_meta(r->ls);
	unsigned long long bytes;
	char t[40], size[48] = "";

	/* the set's size follows its duration (logs/layout.h) */
	if (setdir_size(r->dir, &bytes, NULL) == 0) {
		report_fmt_bytes(size + 2, sizeof(size) - 2, (double)bytes,
				 " on disk");
		size[0] = ',';
		size[1] = ' ';
	}
	fprintf(f, "perflog report: %s\n", r->dir);
	fprintf(f, "  host %s, %s, interval %u s, started %s%s\n", m->host,
		m->os, m->interval, util_iso8601(t, sizeof(t), m->start, -1),
		size);
	fprintf(f, "  %zu session%s%s\n", r->n, r->n == 1 ? "" : "s",
		r->s[0].begin_m ? "" : " (no markers: the whole log)");
	if (r->markers.bad_lines)
		fprintf(f, "  warning: %zu malformed marker line(s), first: %s\n",
			r->markers.bad_lines, r->markers.first_bad.msg);
	/* a night (sessions that overlap): the same table ranked, with the
	 * limit they shared */
	if (r->s[0].begin_m && !report_night_print(f, r))
		report_summary_print(f, r);
}

void report_print(FILE *f, const struct report *r)
{
	char *text = NULL;
	size_t n = 0;
	FILE *m;

	if (r->verbose || !(m = open_memstream(&text, &n))) {
		print_head(f, r);
	} else {
		print_head(m, r);
		if (fclose(m) == 0)
			put_default(f, text, n);
		free(text);
	}
	for (size_t i = 0; i < r->n; i++)
		report_print_session(f, r, &r->s[i]);
}

