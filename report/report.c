/*
 * report.c - build and print `perflog report` (report.h).
 *
 * Data flow: logset_open + markers_load -> the sessions (or the whole
 * log) -> for each, one logset_fetch of every counter over the session
 * -> report_figures (the busiest CPU per interval, the busiest disk and
 * interface by average, derived series such as read+write bytes and the
 * share of Current Bandwidth) -> report_judge -> text. Nothing here
 * decides a verdict: the rules are in report_rules.c.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../counters/catalog.h"
#include "../logs/setdir.h"
#include "report_client.h"

static double col_avg(const struct logset_series *s, size_t col)
{
	struct report_stat st;

	report_stat_of(s->values + col, s->rows, s->ncols, &st);
	return st.avg;
}

static double at(const struct logset_series *s, size_t row, long col)
{
	return col < 0 ? NAN : s->values[row * s->ncols + (size_t)col];
}

/* Column of counter id for instance inst, or -1. */
static long col_of(const struct logset_meta *m, enum counter_id id,
		   const char *inst)
{
	for (size_t i = 0; i < m->ncounters; i++)
		if (m->counters[i].def && m->counters[i].def->id == id &&
		    !strcmp(m->counters[i].instance, inst))
			return (long)i;
	return -1;
}

/* The instance (not _Total) of counter id with the largest average, among
 * those ok() accepts (all when ok is NULL). */
static long busiest_of(const struct logset_meta *m,
		       const struct logset_series *s, enum counter_id id,
		       int (*ok)(const struct logset_meta *,
				 const struct logset_series *, size_t))
{
	long best = -1;
	double bv = -1;

	for (size_t i = 0; i < m->ncounters; i++) {
		const struct logset_counter *c = &m->counters[i];
		if (!c->def || c->def->id != id || !strcmp(c->instance, "_Total"))
			continue;
		if (ok && !ok(m, s, i))
			continue;
		double a = col_avg(s, i);
		if (!isnan(a) && a > bv) {
			bv = a;
			best = (long)i;
		}
	}
	return best;
}

static long busiest(const struct logset_meta *m, const struct logset_series *s,
		    enum counter_id id)
{
	return busiest_of(m, s, id, NULL);
}

/* A disk that moved data: an idle loop or ram device (or one whose busy
 * time ticks with nothing done) must not stand for the disk the backup
 * used. Without its byte and transfer columns it cannot be told: kept. */
static int disk_did_io(const struct logset_meta *m,
		       const struct logset_series *s, size_t col)
{
	const char *d = m->counters[col].instance;
	const enum counter_id ids[] = { CTR_DISK_READ_BYTES,
		CTR_DISK_WRITE_BYTES, CTR_DISK_READS, CTR_DISK_WRITES };
	int known = 0;

	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		long c = col_of(m, ids[k], d);
		double a = c < 0 ? NAN : col_avg(s, (size_t)c);
		if (isnan(a))
			continue;
		known = 1;
		if (a > 0)
			return 1;
	}
	return !known;
}

/* lo (Linux), lo0 (the BSDs): the log set keeps names, not device types. */
static int is_loopback(const struct logset_meta *m,
		       const struct logset_series *s, size_t col)
{
	const char *n = m->counters[col].instance;

	(void)s;
	if (strncmp(n, "lo", 2))
		return 0;
	for (n += 2; *n; n++)
		if (*n < '0' || *n > '9')
			return 0;
	return 1;
}

static int not_loopback(const struct logset_meta *m,
			const struct logset_series *s, size_t col)
{
	return !is_loopback(m, s, col);
}

/* The busiest interface: a real one when it carried traffic (at least
 * 1 KiB/s and 1% of the loopback's), else the loopback (a client and
 * server on one host talk over lo; its background chatter is not what
 * the report is about when a NIC moved the backup). */
static long busiest_net(const struct logset_meta *m,
			const struct logset_series *s)
{
	long real = busiest_of(m, s, CTR_NET_BYTES_TOTAL, not_loopback);
	long lo = busiest_of(m, s, CTR_NET_BYTES_TOTAL, is_loopback);
	double r = real < 0 ? NAN : col_avg(s, (size_t)real);
	double l = lo < 0 ? NAN : col_avg(s, (size_t)lo);

	if (lo < 0 || isnan(l))
		return real;
	if (real >= 0 && !isnan(r) && r >= 1024 && r >= 0.01 * l)
		return real;
	return r > l ? real : lo;
}

int report_figures_of(struct logset *ls, time_t from, time_t to,
		      struct report_figures *f, struct perr *e)
{
	const struct logset_meta *m = logset_meta(ls);
	struct logset_series s;
	size_t *idx = malloc((m->ncounters ? m->ncounters : 1) * sizeof(*idx));
	double *tmp = NULL, *tmp2 = NULL;
	int rc = -1;

	memset(f, 0, sizeof(*f));
	f->disk_xfer_size = f->mem_avail_ref = f->net_bandwidth = NAN;
	struct report_stat *all[] = { &f->cpu, &f->cpu1, &f->iowait, &f->proc_cpu,
		&f->disk_busy, &f->disk_bytes, &f->disk_xfers, &f->disk_service,
		&f->mem_avail, &f->pages, &f->net_bytes, &f->net_share };
	for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++)
		report_stat_of(NULL, 0, 1, all[k]);
	if (!idx)
		return perr_set(e, "out of memory");
	if (!m->ncounters) {
		free(idx);
		return 0;
	}
	for (size_t i = 0; i < m->ncounters; i++)
		idx[i] = i;
	if (to < from)
		to = from;
	if (logset_fetch(ls, idx, m->ncounters, from, to, "AVERAGE",
			 m->interval, &s, e) < 0) {
		free(idx);
		return -1;
	}
	tmp = malloc((s.rows ? s.rows : 1) * sizeof(double));
	tmp2 = malloc((s.rows ? s.rows : 1) * sizeof(double));
	if (!tmp || !tmp2) {
		perr_set(e, "out of memory");
		goto out;
	}

	/* CPU */
	long c = col_of(m, CTR_CPU_PROCESSOR_TIME, "_Total");
	if (c >= 0)
		report_stat_of(s.values + c, s.rows, s.ncols, &f->cpu);
	c = col_of(m, CTR_CPU_IOWAIT_TIME, "_Total");
	if (c >= 0)
		report_stat_of(s.values + c, s.rows, s.ncols, &f->iowait);
	for (size_t r = 0; r < s.rows; r++)
		tmp[r] = NAN;
	for (size_t i = 0; i < m->ncounters; i++) {
		const struct logset_counter *k = &m->counters[i];
		if (!k->def || k->def->id != CTR_CPU_PROCESSOR_TIME ||
		    !strcmp(k->instance, "_Total"))
			continue;
		f->ncpu++;
		for (size_t r = 0; r < s.rows; r++) {
			double v = at(&s, r, (long)i);
			if (!isnan(v) && (isnan(tmp[r]) || v > tmp[r]))
				tmp[r] = v;
		}
	}
	report_stat_of(tmp, s.rows, 1, &f->cpu1);
	c = busiest(m, &s, CTR_CPU_PROCESSOR_TIME);
	if (c >= 0)
		snprintf(f->cpu1_name, sizeof(f->cpu1_name), "Processor(%s)",
			 m->counters[c].instance);
	c = busiest(m, &s, CTR_PROC_PROCESSOR_TIME);
	if (c >= 0)
		report_stat_of(s.values + c, s.rows, s.ncols, &f->proc_cpu);

	/* the busiest disk that did I/O */
	c = busiest_of(m, &s, CTR_DISK_TIME, disk_did_io);
	if (c >= 0) {
		const char *d = m->counters[c].instance;
		long rb = col_of(m, CTR_DISK_READ_BYTES, d);
		long wb = col_of(m, CTR_DISK_WRITE_BYTES, d);
		long rd = col_of(m, CTR_DISK_READS, d);
		long wr = col_of(m, CTR_DISK_WRITES, d);
		long sv = col_of(m, CTR_DISK_SEC_PER_TRANSFER, d);
		double bsum = 0, xsum = 0;

		util_strlcpy(f->disk, d, sizeof(f->disk));
		report_stat_of(s.values + c, s.rows, s.ncols, &f->disk_busy);
		for (size_t r = 0; r < s.rows; r++) {
			tmp[r] = at(&s, r, rb) + at(&s, r, wb);
			tmp2[r] = at(&s, r, rd) + at(&s, r, wr);
			if (!isnan(tmp[r]) && !isnan(tmp2[r])) {
				bsum += tmp[r];
				xsum += tmp2[r];
			}
		}
		report_stat_of(tmp, s.rows, 1, &f->disk_bytes);
		report_stat_of(tmp2, s.rows, 1, &f->disk_xfers);
		if (sv >= 0)
			report_stat_of(s.values + sv, s.rows, s.ncols,
				       &f->disk_service);
		if (xsum > 0)
			f->disk_xfer_size = bsum / xsum;
	}

	/* memory */
	c = col_of(m, CTR_MEM_AVAILABLE, "");
	if (c >= 0)
		report_stat_of(s.values + c, s.rows, s.ncols, &f->mem_avail);
	c = col_of(m, CTR_MEM_PAGES, "");
	if (c >= 0)
		report_stat_of(s.values + c, s.rows, s.ncols, &f->pages);

	/* the busiest interface and its share of its bandwidth */
	c = busiest_net(m, &s);
	if (c >= 0) {
		const char *n = m->counters[c].instance;
		long bw = col_of(m, CTR_NET_BANDWIDTH, n);
		double bws = 0;
		size_t nbw = 0;

		util_strlcpy(f->net, n, sizeof(f->net));
		report_stat_of(s.values + c, s.rows, s.ncols, &f->net_bytes);
		for (size_t r = 0; r < s.rows; r++) {
			double b = at(&s, r, bw);
			tmp[r] = NAN;
			if (!isnan(b) && b > 0) {
				bws += b;
				nbw++;
				tmp[r] = at(&s, r, c) * 8 / b * 100;
			}
		}
		report_stat_of(tmp, s.rows, 1, &f->net_share);
		if (nbw)
			f->net_bandwidth = bws / (double)nbw;
	}
	rc = 0;
out:
	free(tmp);
	free(tmp2);
	free(idx);
	logset_series_free(&s);
	return rc;
}

/* The log's largest Available Bytes: the reference for "memory low". */
static double mem_reference(struct logset *ls, time_t from, time_t to)
{
	const struct logset_meta *m = logset_meta(ls);
	long c = col_of(m, CTR_MEM_AVAILABLE, "");
	struct logset_series s;
	struct report_stat st;
	struct perr e;
	size_t idx;

	if (c < 0 || to <= from)
		return NAN;
	idx = (size_t)c;
	if (logset_fetch(ls, &idx, 1, from, to, "AVERAGE", m->interval, &s,
			 &e) < 0)
		return NAN;
	report_stat_of(s.values, s.rows, 1, &st);
	logset_series_free(&s);
	return st.peak;
}

/* "output-NAME.log" with NAME made file-safe as the log set names files */
static void output_name(char *buf, size_t n, const char *session)
{
	size_t j = snprintf(buf, n, "output-");
	for (const char *s = session; *s && j + 5 < n; s++) {
		char c = *s;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
		buf[j++] = ok ? c : '_';
	}
	snprintf(buf + j, n - j, ".log");
}

static void find_instr(const struct report *r, struct report_session *s)
{
	char path[1200], name[300];
	const char *out = s->end_m ? marker_get(s->end_m, "output") : NULL;
	struct perr e;

	if (out && *out) {
		if (out[0] == '/')
			snprintf(path, sizeof(path), "%s", out);
		else
			snprintf(path, sizeof(path), "%s/%s", r->dir, out);
	} else {
		if (!s->begin_m)
			return;
		output_name(name, sizeof(name), s->name);
		snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	}
	if (access(path, R_OK) != 0)
		return;
	int n = instr_parse_file(path, &s->instr, &e);
	if (n > 0) {
		s->has_instr = 1;
		util_strlcpy(s->instr_src, path, sizeof(s->instr_src));
	} else if (n < 0) {
		snprintf(s->instr_src, sizeof(s->instr_src),
			 "unreadable instrumentation: %s", e.msg);
	}
}

int report_build(const char *dir, const char *instr_file,
		 struct report **out, struct perr *e)
{
	struct report *r = calloc(1, sizeof(*r));
	struct instr_report *given = NULL;
	struct session *ss = NULL;

	if (!r)
		return perr_set(e, "out of memory");
	util_strlcpy(r->dir, dir, sizeof(r->dir));
	if (logset_open(dir, &r->ls, e) < 0)
		goto fail;
	if (markers_load(dir, &r->markers, e) < 0)
		goto fail;
	if (instr_file) {
		given = malloc(sizeof(*given));
		if (!given) {
			perr_set(e, "out of memory");
			goto fail;
		}
		int n = instr_parse_file(instr_file, given, e);
		if (n < 0)
			goto fail;
		if (n == 0) {
			perr_set(e, "'%s' holds no instrumentation report "
				 "(Section / Actual (sec) / Average(msec) / Frequency used)",
				 instr_file);
			goto fail;
		}
	}
	const struct logset_meta *m = logset_meta(r->ls);
	time_t last = logset_last(r->ls);
	time_t lend = last ? last : (m->stop ? m->stop : m->start);
	long nss = markers_sessions(&r->markers, &ss);
	if (nss < 0) {
		perr_set(e, "out of memory");
		goto fail;
	}
	r->n = nss > 0 ? (size_t)nss : 1;
	r->s = calloc(r->n, sizeof(*r->s));
	if (!r->s) {
		perr_set(e, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < r->n; i++) {
		struct report_session *s = &r->s[i];
		if (nss > 0) {
			util_strlcpy(s->name, ss[i].name, sizeof(s->name));
			s->begin_m = ss[i].begin;
			s->end_m = ss[i].end;
			s->begin = ss[i].begin->t;
			s->open = !ss[i].end;
			/* the interval holding the end marker belongs in */
			s->end = ss[i].end ? ss[i].end->t + (ss[i].end->ms > 0) : lend;
		} else {
			util_strlcpy(s->name, "whole log", sizeof(s->name));
			s->begin = m->start;
			s->end = lend;
		}
		/* rows end after begin: the first row judged ends at the
		 * step after the begin */
		if (report_figures_of(r->ls, s->begin + 1,
				      s->end > s->begin ? s->end : s->begin + 1,
				      &s->fig, e) < 0)
			goto fail;
		s->fig.mem_avail_ref = mem_reference(r->ls, m->start, lend);
		if (given) {
			s->instr = *given;
			s->has_instr = 1;
			util_strlcpy(s->instr_src, instr_file, sizeof(s->instr_src));
		} else {
			find_instr(r, s);
		}
		report_judge(&s->fig, s->has_instr ? instr_main_thread(&s->instr) : NULL,
			     &s->verdict);
		report_client_judge(s, &s->verdict);
	}
	free(ss);
	free(given);
	*out = r;
	return 0;
fail:
	free(ss);
	free(given);
	report_free(r);
	return -1;
}

void report_free(struct report *r)
{
	if (!r)
		return;
	if (r->ls)
		logset_close(r->ls);
	markers_free(&r->markers);
	free(r->s);
	free(r);
}

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
	ms = ((long long)s->end_m->t - (long long)s->begin_m->t) * 1000 +
	     s->end_m->ms - s->begin_m->ms;
	if (ms < 0)
		ms = 0;
	snprintf(buf, n, "%lld:%02lld:%02lld.%03lld", ms / 3600000,
		 ms / 60000 % 60, ms / 1000 % 60, ms % 1000);
}

static void print_session(FILE *f, const struct report *r,
			  const struct report_session *s)
{
	const struct report_figures *g = &s->fig;
	char t1[40], t2[40], du[32], lbl[192], bw[32];

	util_iso8601(t1, sizeof(t1), s->begin_m ? s->begin_m->t : s->begin,
		     s->begin_m ? s->begin_m->ms : -1);
	util_iso8601(t2, sizeof(t2), s->end_m ? s->end_m->t : s->end,
		     s->end_m ? s->end_m->ms : -1);
	fmt_session_duration(du, sizeof(du), s);
	fprintf(f, "\nSession %s%s\n", s->name, s->open ? " (open: no end marker)" : "");
	fprintf(f, "  from %s to %s, duration %s\n", t1, t2, du);
	if (s->end_m) {
		const char *v;
		if ((v = marker_get(s->end_m, "cmd")))
			fprintf(f, "  command: %s\n", v);
		if ((v = marker_get(s->end_m, "status")))
			fprintf(f, "  exit status: %s\n", v);
		if ((v = marker_get(s->end_m, "duration")))
			fprintf(f, "  command duration: %s s\n", v);
	}
	report_client_print(f, r->ls, s);
	fprintf(f, "  %-36s %12s %12s %12s %12s\n", "resource", "avg", "p95",
		"peak", "min");
	snprintf(lbl, sizeof(lbl), "CPU total (%d CPUs)", g->ncpu);
	row(f, lbl, &g->cpu, 1, "%", 0);
	snprintf(lbl, sizeof(lbl), "busiest CPU (%s most)",
		 g->cpu1_name[0] ? g->cpu1_name : "n/a");
	row(f, lbl, &g->cpu1, 1, "%", 0);
	row(f, "CPU I/O wait", &g->iowait, 1, "%", 0);
	if (g->proc_cpu.n)
		row(f, "client process tree CPU", &g->proc_cpu, 1, "%", 0);
	if (g->disk[0]) {
		snprintf(lbl, sizeof(lbl), "LogicalDisk(%s) %% Disk Time", g->disk);
		row(f, lbl, &g->disk_busy, 1, "%", 0);
		snprintf(lbl, sizeof(lbl), "LogicalDisk(%s) bytes/sec", g->disk);
		row(f, lbl, &g->disk_bytes, 1, "/s", 1);
		snprintf(lbl, sizeof(lbl), "LogicalDisk(%s) transfers/sec", g->disk);
		row(f, lbl, &g->disk_xfers, 1, "", 0);
		snprintf(lbl, sizeof(lbl), "LogicalDisk(%s) ms/transfer", g->disk);
		row(f, lbl, &g->disk_service, 1000, "", 0);
		if (!isnan(g->disk_xfer_size))
			fprintf(f, "    %-34s %12s\n", "average transfer size",
				report_fmt_bytes(lbl, sizeof(lbl), g->disk_xfer_size, NULL));
	} else {
		fprintf(f, "    %-34s n/a\n", "disk");
	}
	row(f, "Memory available", &g->mem_avail, 1, "", 1);
	row(f, "Memory pages/sec", &g->pages, 1, "", 0);
	if (g->net[0]) {
		snprintf(lbl, sizeof(lbl), "Network Interface(%s) bytes/sec", g->net);
		row(f, lbl, &g->net_bytes, 1, "/s", 1);
		snprintf(lbl, sizeof(lbl), "%s share of %s", g->net,
			 report_fmt_bits(bw, sizeof(bw), g->net_bandwidth));
		row(f, lbl, &g->net_share, 1, "%", 0);
	} else {
		fprintf(f, "    %-34s n/a\n", "network");
	}
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
	fprintf(f, "  %s\n", s->verdict.line);
	if (s->verdict.hint[0])
		fprintf(f, "  (%s)\n", s->verdict.hint);
}

void report_print(FILE *f, const struct report *r)
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
	for (size_t i = 0; i < r->n; i++)
		print_session(f, r, &r->s[i]);
}

/* ---- comparison ---- */

static void cmp_row(FILE *f, const char *label, double a, double b,
		    const char *unit)
{
	char ch[32] = "", pct[32] = "";

	if (!isnan(a) && !isnan(b)) {
		snprintf(ch, sizeof(ch), "%+.1f", b - a);
		if (a != 0)
			snprintf(pct, sizeof(pct), "%+.1f%%", 100 * (b - a) / fabs(a));
	}
	fprintf(f, "    %-30s %14.1f %14.1f %12s %9s  %s\n", label, a, b, ch, pct,
		unit);
}

/* Pair A's sessions with B's: by name first, then the rest in order, each
 * B session used once (before/after runs often name their sessions the
 * same; when they do not, the n-th unnamed-alike goes with the n-th).
 * pair[i] is B's index for A's session i, or -1. used[j] marks B's. */
static void pair_sessions(const struct report *a, const struct report *b,
			  long *pair, char *used)
{
	size_t next = 0;

	for (size_t i = 0; i < a->n; i++) {
		pair[i] = -1;
		for (size_t j = 0; j < b->n && pair[i] < 0; j++)
			if (!used[j] && !strcmp(b->s[j].name, a->s[i].name)) {
				pair[i] = (long)j;
				used[j] = 1;
			}
	}
	for (size_t i = 0; i < a->n; i++) {
		if (pair[i] >= 0)
			continue;
		while (next < b->n && used[next])
			next++;
		if (next < b->n) {
			pair[i] = (long)next;
			used[next++] = 1;
		}
	}
}

void report_compare(FILE *f, const struct report *a, const struct report *b)
{
	long *pair = calloc(a->n ? a->n : 1, sizeof(*pair));
	char *used = calloc(b->n ? b->n : 1, 1);

	fprintf(f, "perflog report: comparing\n  A %s\n  B %s\n", a->dir, b->dir);
	if (!pair || !used) {
		fprintf(f, "out of memory\n");
		free(pair);
		free(used);
		return;
	}
	pair_sessions(a, b, pair, used);
	for (size_t i = 0; i < a->n; i++) {
		const struct report_session *x = &a->s[i];
		const struct report_session *y = pair[i] >= 0 ? &b->s[pair[i]] : NULL;
		const double MiB = 1048576.0;

		if (!y) {
			fprintf(f, "\nSession %s: only in A\n", x->name);
			continue;
		}
		fprintf(f, "\nSession %s (A) vs %s (B)\n", x->name, y->name);
		fprintf(f, "    %-30s %14s %14s %12s %9s\n", "figure", "A", "B",
			"change", "change%");
		cmp_row(f, "duration", (double)(x->end - x->begin),
			(double)(y->end - y->begin), "s");
		report_client_compare(f, x, y, cmp_row);
		cmp_row(f, "CPU total avg", x->fig.cpu.avg, y->fig.cpu.avg, "%");
		cmp_row(f, "busiest CPU avg", x->fig.cpu1.avg, y->fig.cpu1.avg, "%");
		cmp_row(f, "busiest disk busy avg", x->fig.disk_busy.avg,
			y->fig.disk_busy.avg, "%");
		cmp_row(f, "busiest disk bytes/s avg", x->fig.disk_bytes.avg / MiB,
			y->fig.disk_bytes.avg / MiB, "MiB/s");
		cmp_row(f, "disk ms/transfer avg", x->fig.disk_service.avg * 1000,
			y->fig.disk_service.avg * 1000, "ms");
		cmp_row(f, "memory available min", x->fig.mem_avail.min / MiB,
			y->fig.mem_avail.min / MiB, "MiB");
		cmp_row(f, "pages/sec avg", x->fig.pages.avg, y->fig.pages.avg, "/s");
		cmp_row(f, "network bytes/s avg", x->fig.net_bytes.avg / MiB,
			y->fig.net_bytes.avg / MiB, "MiB/s");
		cmp_row(f, "network share avg", x->fig.net_share.avg,
			y->fig.net_share.avg, "%");
		fprintf(f, "  A: %s\n  B: %s\n", x->verdict.line, y->verdict.line);
	}
	for (size_t j = 0; j < b->n; j++)
		if (!used[j])
			fprintf(f, "\nSession %s: only in B\n", b->s[j].name);
	free(pair);
	free(used);
}
