/*
 * report.c - build `perflog report` (report.h).
 *
 * Data flow: logset_open + markers_load -> the sessions (or the whole
 * log) -> for each, its figures (report_figures.c) and the client's
 * instrumentation when its output was kept -> report_judge
 * (report_rules.c) -> text (report_print.c), a comparison
 * (report_compare.c) or HTML (report_html.c).
 */
#include "report.h"
#include "report_names.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_client.h"
#include "report_night.h"

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

static void find_instr(const char *dir, struct report_session *s)
{
	char path[1200], name[300];
	const char *out = s->end_m ? marker_get(s->end_m, "output") : NULL;
	struct perr e;

	if (out && *out) {
		if (out[0] == '/')
			snprintf(path, sizeof(path), "%s", out);
		else
			snprintf(path, sizeof(path), "%s/%s", dir, out);
	} else {
		if (!s->begin_m)
			return;
		output_name(name, sizeof(name), s->name);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
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

/* The instrumentation report given with --instrumentation (it applies to
 * every session). NULL with e set when unreadable or without one. */
static struct instr_report *given_instr(const char *file, struct perr *e)
{
	struct instr_report *given = malloc(sizeof(*given));
	int n;

	if (!given) {
		perr_set(e, "out of memory");
		return NULL;
	}
	n = instr_parse_file(file, given, e);
	if (n <= 0) {
		if (n == 0)
			perr_set(e, "'%s' holds no instrumentation report "
				 "(Section / Actual (sec) / Average(msec) / Frequency used)",
				 file);
		free(given);
		return NULL;
	}
	return given;
}

/* The span of session i (ss NULL: the whole log, from its start to lend). */
static void session_span(struct report_session *s, const struct session *ss,
			 const struct logset_meta *m, time_t lend)
{
	if (ss) {
		util_strlcpy(s->name, ss->name, sizeof(s->name));
		s->begin_m = ss->begin;
		s->end_m = ss->end;
		s->begin = ss->begin->t;
		s->open = !ss->end;
		/* the interval holding the end marker belongs in */
		s->end = ss->end ? ss->end->t + (ss->end->ms > 0) : lend;
	} else {
		util_strlcpy(s->name, "whole log", sizeof(s->name));
		s->begin = m->start;
		s->end = lend;
	}
	s->seconds = s->begin_m && s->end_m ?
		(double)(s->end_m->t - s->begin_m->t) +
		(s->end_m->ms - s->begin_m->ms) / 1000.0 :
		(double)(s->end - s->begin);
}

int report_judge_session(struct logset *ls, const char *dir,
			 struct report_session *s,
			 const struct instr_report *given,
			 const char *given_file, time_t lend, struct perr *e)
{
	const struct logset_meta *m = logset_meta(ls);

	/* rows end after begin: the first row judged ends at the step
	 * after the begin */
	if (report_figures_used(ls, s->begin + 1,
				s->end > s->begin ? s->end : s->begin + 1,
				s->net_want, s->disk_want, &s->fig, e) < 0)
		return -1;
	s->fig.mem_avail_ref = report_mem_reference(ls, m->start, lend);
	if (given) {
		s->instr = *given;
		s->has_instr = 1;
		util_strlcpy(s->instr_src, given_file, sizeof(s->instr_src));
	} else {
		find_instr(dir, s);
	}
	report_waits_of(ls, dir, s, &s->waits);
	report_judge(&s->fig,
		     s->has_instr ? instr_main_thread(&s->instr) : NULL,
		     &s->verdict);
	report_client_judge(s, &s->verdict);
	/* where backups land: an NFS mount or a tape drive may say more
	 * (report_judge_targets, after the wait graph's verdict) */
	report_targets_of(ls, s->begin + 1,
			  s->end > s->begin ? s->end : s->begin + 1, &s->targets);
	return 0;
}

int report_build(const char *dir, const char *instr_file,
		 struct report **out, struct perr *e)
{
	struct report *r = calloc(1, sizeof(*r));
	struct instr_report *given = NULL;
	struct session *ss = NULL;
	long nss;

	if (!r)
		return perr_set(e, "out of memory");
	util_strlcpy(r->dir, dir, sizeof(r->dir));
	if (logset_open(dir, &r->ls, e) < 0 ||
	    markers_load(dir, &r->markers, e) < 0)
		goto fail;
	if (instr_file && !(given = given_instr(instr_file, e)))
		goto fail;
	const struct logset_meta *m = logset_meta(r->ls);
	time_t last = logset_last(r->ls);
	time_t lend = last ? last : (m->stop ? m->stop : m->start);
	nss = markers_sessions(&r->markers, &ss);
	r->n = nss > 0 ? (size_t)nss : 1;
	r->s = nss < 0 ? NULL : calloc(r->n, sizeof(*r->s));
	if (!r->s) {
		perr_set(e, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < r->n; i++) {
		session_span(&r->s[i], nss > 0 ? &ss[i] : NULL, m, lend);
		if (report_judge_session(r->ls, r->dir, &r->s[i], given,
					 instr_file, lend, e) < 0)
			goto fail;
		report_stages_of(r->ls, r->dir, &r->markers, &r->s[i]);
		report_names_of(r->s[i].stages, r->dir, &r->markers, &r->s[i]);
		/* its connections used another interface than the busiest,
		 * its processes another disk: judged again with those
		 * figures */
		if (report_stages_redo(r->ls, &r->s[i]) &&
		    report_judge_session(r->ls, r->dir, &r->s[i], given,
					 instr_file, lend, e) < 0)
			goto fail;
		report_graph_of(&r->s[i]);
		report_graph_verdict(&r->s[i], 0);
		/* an NFS server's commit time or a tape drive's busy time,
		 * which no wait on this host shows: the mount's and the
		 * drive's own figures rewrite the verdict, the graph's or
		 * the counters' */
		report_targets_judge(&r->s[i].targets, &r->s[i].fig,
				     &r->s[i].waits, &r->s[i].verdict);
	}
	report_night_of(r);
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
	report_hosts_free(r);
	report_night_free(r);
	if (r->ls)
		logset_close(r->ls);
	markers_free(&r->markers);
	for (size_t i = 0; r->s && i < r->n; i++)
		if (r->s[i].stages) {
			report_stages_free(r->s[i].stages);
			free(r->s[i].stages);
			report_graph_free(&r->s[i]);
		}
	free(r->s);
	free(r);
}

