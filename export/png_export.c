/*
 * png_export.c - plan a log set's charts from its counter map and draw
 * them (png_export.h). A chart is a list of (file, DS, legend) picked by
 * object, counter and instance from the metadata; the markers and the
 * sessions of markers.tsv are drawn on every chart.
 */
#include "png_export.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/strbuf.h"
#include "../common/suggest.h"
#include "../common/util.h"
#include "../counters/counters.h"
#include "../logs/lookup.h"
#include "../logs/treefiles.h"
#include "png.h"
#include "png_plan.h"


/* Where the charts go: the directory, the drawing options, charts.tsv,
 * and the names of the charts drawn so far. */
struct output {
	const char *outdir;
	struct png_mark *marks;	/* po's markers and sessions, owned */
	struct png_span *spans;
	unsigned long interval;	/* the files' step */
	struct png_options po;
	FILE *tsv;
	char (*names)[64];
	int maxnames;
	int count;
};

/* Whether a series moved over the chart's span: a known value other
 * than 0 (an idle loop0 stayed 0; a counter the set did not log there
 * has no value; Available Bytes is never 0). */
static int moved(const struct png_legend *lg)
{
	return !isnan(lg->max) && !(lg->max == 0 && lg->min == 0);
}

/* Leave out of c the series that did not move (not every one: a chart
 * of nothing that moved says so); p's legends follow. 1 when some
 * were. */
static int drop_zeros(struct png_plan *p, struct png_series *s,
		      const struct png_legend *lg, struct png_chart *c)
{
	size_t k = 0;

	for (size_t i = 0; i < p->n; i++)
		if (moved(&lg[i]))
			k++;
	if (k == p->n || k == 0)
		return 0;
	k = 0;
	for (size_t i = 0; i < p->n; i++) {
		if (!moved(&lg[i]))
			continue;
		s[k] = s[i];
		if (k != i) {
			memcpy(p->legend[k], p->legend[i], sizeof(p->legend[0]));
			s[k].legend = p->legend[k];
		}
		k++;
	}
	p->n = k;
	c->nseries = k;
	return 1;
}

static int draw(struct png_plan *p, const char *name, struct output *out,
		int drop_zero, struct perr *e)
{
	struct png_series s[PNG_PLAN_MAX];
	struct png_legend lg[PNG_PLAN_MAX];
	char path[1200];

	if (!p->n)
		return 0;
	for (size_t i = 0; i < p->n; i++) {
		s[i].file = p->file[i];
		s[i].ds = p->ds[i];
		s[i].legend = p->legend[i];
		s[i].scale = p->scale[i];
		s[i].step = out->interval;
		s[i].share_of = p->share_of[i];
		s[i].shift = p->shift[i];
	}
	struct png_chart c = { p->what, p->vlabel, p->unit, p->lower, p->upper,
			       s, p->n };
	snprintf(path, sizeof(path), "%s/%s", out->outdir, name);
	if ((p->stack ? png_render_stacked : png_render)(path, &c, &out->po, lg,
							 e) < 0)
		return -1;
	if (drop_zero && drop_zeros(p, s, lg, &c)) {
		/* drawn again without the series that stayed zero */
		if ((p->stack ? png_render_stacked : png_render)(path, &c,
								 &out->po, lg, e) < 0)
			return -1;
	}
	for (size_t i = 0; out->tsv && i < p->n; i++)
		fprintf(out->tsv, "%s\t%s\t%.9g\t%.9g\t%.9g\t%s\n", name,
			p->legend[i], lg[i].min, lg[i].avg, lg[i].max,
			lg[i].points);
	if (out->names && out->count < out->maxnames)
		util_strlcpy(out->names[out->count], name, 64);
	out->count++;
	return 0;
}

/* "log set 'DIR' has no session 'X': did you mean 'Y'? (its sessions:
 * a, b, c)", at most 8 named, or "(it has none)". -1. */
static int no_session(struct logset *ls, const char *name,
		      const struct session *ss, long nss, struct perr *e)
{
	struct strbuf list = STRBUF_INIT;
	struct suggest s;
	int rc;

	suggest_init(&s, name);
	for (long k = 0; k < nss; k++) {
		suggest_offer(&s, ss[k].name);
		if (k < 8)
			strbuf_printf(&list, "%s'%s'", k ? ", " : "",
				      ss[k].name);
	}
	if (nss > 8)
		strbuf_printf(&list, " and %ld more", nss - 8);
	rc = perr_set(e, "log set '%s' has no session '%s'%s%s%s (%s%s)",
		      logset_dir(ls), name,
		      suggest_best(&s) ? ": did you mean '" : "",
		      suggest_best(&s) ? suggest_best(&s) : "",
		      suggest_best(&s) ? "'?" : "",
		      nss ? "its sessions: " : "it has none",
		      nss && list.p ? list.p : "");
	strbuf_free(&list);
	return rc;
}

/* The time axis: the options' span or the whole log, or a session with
 * a margin each side. 0 or -1 with e set. */
static int time_range(struct logset *ls, const struct png_export_options *o,
		      const struct session *ss, long nss, struct png_options *po,
		      struct perr *e)
{
	const struct logset_meta *m = logset_meta(ls);
	time_t last = logset_last(ls);
	long k;

	po->from = o->from ? o->from : m->start + o->shift;
	po->to = o->to ? o->to : (last ? last : m->stop) + o->shift;
	if (o->session && !o->fixed_span) {
		for (k = 0; k < nss; k++)
			if (!strcmp(ss[k].name, o->session))
				break;
		if (k == nss)
			return no_session(ls, o->session, ss, nss, e);
		time_t b = ss[k].begin->t;
		time_t en = ss[k].end ? ss[k].end->t + (ss[k].end->ms > 0) :
			    (last ? last : b + 1);
		time_t margin = (en - b) / 20;
		if (margin < PNG_SESSION_MARGIN_MIN)
			margin = PNG_SESSION_MARGIN_MIN;
		if (margin < 2 * (time_t)m->interval)
			margin = 2 * (time_t)m->interval;
		po->from = b - margin + o->shift;
		po->to = en + margin + o->shift;
	}
	if (po->to <= po->from)
		return perr_set(e, "log set '%s' has no samples in the range",
				logset_dir(ls));
	return 0;
}

/* A marker's text as a chart lists it: a session's begin and end say
 * which ("begin full: dsmc incr /data"), a point marker its text. */
static char *mark_label(const struct marker *m)
{
	struct strbuf b = STRBUF_INIT;

	if (m->kind != MARK_POINT)
		strbuf_printf(&b, "%s %s%s", marker_kind_name(m->kind),
			      m->session ? m->session : "",
			      m->text && *m->text ? ": " : "");
	strbuf_printf(&b, "%s", m->text ? m->text : "");
	if (b.failed) {
		strbuf_free(&b);
		return NULL;
	}
	return b.p ? b.p : strdup("");
}

/* "TAG TEXT", allocated; NULL out of memory. */
static char *tagged(const char *tag, const char *text)
{
	struct strbuf b = STRBUF_INIT;

	strbuf_printf(&b, "%s %s", tag, text);
	if (b.failed || !b.p) {
		strbuf_free(&b);
		return NULL;
	}
	return b.p;
}

/* Every marker of ml, and the sessions ss as spans (an open one up to
 * the last row; the markers' milliseconds kept), moved by sh seconds,
 * their labels after "TAG " when tag is not NULL (a second run laid over
 * a first), appended to po's; *marks and *spans grow, their labels are
 * the caller's to free (free_marks). 0, or -1 out of memory. */
static int marks_and_spans(struct logset *ls, const struct marker_list *ml,
			   const struct session *ss, long nss, long sh,
			   const char *tag, struct png_options *po,
			   struct png_mark **marks, struct png_span **spans)
{
	time_t last = logset_last(ls);
	size_t nm = ml ? ml->n : 0, ns = nss > 0 ? (size_t)nss : 0;
	struct png_mark *m = realloc(*marks, (po->nmarks + nm + 1) * sizeof(*m));
	struct png_span *sp;

	if (m)
		*marks = m;
	sp = m ? realloc(*spans, (po->nspans + ns + 1) * sizeof(*sp)) : NULL;
	if (!sp)
		return -1;
	*spans = sp;
	po->marks = *marks;
	po->spans = *spans;
	for (size_t i = 0; i < nm; i++) {
		char *l = mark_label(&ml->m[i]);
		if (l && tag) {
			char *t = tagged(tag, l);
			free(l);
			l = t;
		}
		if (!l)
			return -1;
		m[po->nmarks].t = (double)(ml->m[i].t + sh) + ml->m[i].ms / 1000.0;
		m[po->nmarks++].label = l;
	}
	for (size_t k = 0; k < ns; k++) {
		char *l = tag ? tagged(tag, ss[k].name) : strdup(ss[k].name);
		if (!l)
			return -1;
		sp[po->nspans].begin = (double)(ss[k].begin->t + sh) +
				       ss[k].begin->ms / 1000.0;
		sp[po->nspans].end = ss[k].end ?
			(double)(ss[k].end->t + sh) + ss[k].end->ms / 1000.0 :
			(double)(last ? last + sh : po->to);
		sp[po->nspans++].label = l;
	}
	return 0;
}

static void free_marks(struct png_options *po, struct png_mark *marks,
		       struct png_span *spans)
{
	for (size_t i = 0; marks && i < po->nmarks; i++)
		free((char *)marks[i].label);
	for (size_t i = 0; spans && i < po->nspans; i++)
		free((char *)spans[i].label);
	free(marks);
	free(spans);
}

/* A second run laid over a first (export --png A B): its set, the
 * Process of its anchor session, and the seconds that move its anchor's
 * begin onto the first's. */
struct overlay_run {
	struct logset *ls;
	const char *proc;
	long shift;
};

/* The index of the session a run is laid over by: the one named, else
 * the first; -1 with e set when there is none. */
static long anchor(struct logset *ls, const char *name,
		   const struct session *ss, long nss, struct perr *e)
{
	if (!nss)
		return perr_set(e, "log set '%s' has no session to lay the other run over (compare runs by their sessions)",
				logset_dir(ls));
	for (long k = 0; name && k < nss; k++)
		if (!strcmp(ss[k].name, name))
			return k;
	if (name)
		return no_session(ls, name, ss, nss, e);
	return 0;
}

/* The charts of every chart set (with a second run, its series after
 * this set's: "A ...", "B ..."), then one per --counters group. */
static int draw_all(struct logset *ls, const struct png_export_options *o,
		    const struct overlay_run *b, struct png_plan *p,
		    struct output *out, struct perr *e)
{
	const char *proc = o->session ?
		lookup_process(logset_meta(ls), o->session) : NULL;
	struct png_plan *q = b ? malloc(sizeof(*q)) : NULL;

	if (b && !q)
		return perr_set(e, "out of memory");
	for (size_t k = 0; k < CHARTSET_COUNT; k++)
		for (size_t c = 0; c < CHARTSET_MAX_CHARTS; c++) {
			const struct chart *ch = &chartset_table[k].charts[c];

			if (!ch->title || !ch->png)
				continue;
			png_plan_chart(p, ls, ch, proc, o->net_only);
			if (b) {
				png_plan_chart(q, b->ls, ch, b->proc, NULL);
				png_plan_tag(p, "A");
				png_plan_append(p, q, "B", b->shift);
			}
			if (draw(p, ch->png, out, o->drop_zero, e) < 0) {
				free(q);
				return -1;
			}
		}
	free(q);
	if (o->counters && *o->counters) {
		char buf[1024], *save = NULL;
		util_strlcpy(buf, o->counters, sizeof(buf));
		for (char *g = strtok_r(buf, ",", &save); g;
		     g = strtok_r(NULL, ",", &save)) {
			char stem[64], name[72];
			if (png_plan_group(p, ls, g, e) < 0)
				return -1;
			png_file_stem(stem, sizeof(stem), g);
			snprintf(name, sizeof(name), "%s.png", stem);
			if (draw(p, name, out, 0, e) < 0)
				return -1;
		}
	}
	return 0;
}

/* --session S: the interfaces its connections went through, from the
 * edges file of its tree (its end marker's waits=, edges beside), into
 * buf; 1 when the file was read (buf "" when none went through one: a
 * local repository), 0 when there is none (an old set, an open session,
 * no tree: every interface then) */
static int session_ifaces(struct logset *ls, const struct session *ss,
			  long nss, const char *name, char *buf, size_t n)
{
	const char *waits = NULL;
	struct waitedge_row *rows;
	long nr;

	for (long k = 0; k < nss && !waits; k++)
		if (!strcmp(ss[k].name, name) && ss[k].end)
			waits = marker_get(ss[k].end, "waits");
	if (!waits || (nr = treefiles_edges(logset_dir(ls), waits, &rows, NULL)) < 0)
		return 0;
	waitedges_ifaces(rows, (size_t)nr, buf, n);
	free(rows);
	return 1;
}

/* The second run of o (export --png A B) laid over ls: its anchor
 * session's begin onto ls's anchor's (so->session, set to it), the time
 * axis taken to the longer of the two, the titles naming both, its
 * markers and sessions tagged "B" (ls's "A"). 0, or -1 with e set. */
static int overlay_setup(struct logset *ls, const struct marker_list *ml,
			 const struct session *ss, long nss,
			 struct png_export_options *so,
			 struct output *out, struct overlay_run *b,
			 char *host, size_t nhost, struct perr *e)
{
	struct session *bs = NULL;
	long nbs = so->cmp_ml ? markers_sessions(so->cmp_ml, &bs) : 0;
	long ia, ib;
	int rc = -1;

	if (nbs < 0)
		return perr_set(e, "out of memory");
	if ((ia = anchor(ls, so->session, ss, nss, e)) < 0 ||
	    (ib = anchor(so->cmp, so->cmp_session ? so->cmp_session :
			 so->session, bs, nbs, e)) < 0)
		goto out;
	so->session = ss[ia].name;
	so->drop_zero = 1;	/* as a session's charts: what moved */
	b->ls = so->cmp;
	b->proc = lookup_process(logset_meta(so->cmp), bs[ib].name);
	b->shift = (long)(ss[ia].begin->t - bs[ib].begin->t);
	snprintf(host, nhost, "A %s, B %s (%+ld s: both from their session's begin)",
		 logset_meta(ls)->host, logset_meta(so->cmp)->host, b->shift);
	if (time_range(ls, so, ss, nss, &out->po, e) < 0)
		goto out;
	time_t bend = (bs[ib].end ? bs[ib].end->t + 1 : logset_last(so->cmp)) +
		      b->shift + PNG_SESSION_MARGIN_MIN;
	if (bend > out->po.to)
		out->po.to = bend;
	rc = 0;
	if (marks_and_spans(ls, ml, ss, nss, so->shift, "A", &out->po,
			    &out->marks, &out->spans) < 0 ||
	    marks_and_spans(so->cmp, so->cmp_ml, bs, nbs, b->shift, "B",
			    &out->po, &out->marks, &out->spans) < 0)
		rc = perr_set(e, "out of memory");
out:
	free(bs);
	return rc;
}

int png_export(struct logset *ls, const struct marker_list *ml,
	       const char *outdir, const struct png_export_options *o,
	       char (*names)[64], int maxnames, struct perr *e)
{
	struct png_export_options so = *o;
	char ifs[256];
	struct output out = { .outdir = outdir, .names = names,
			      .maxnames = maxnames };
	struct session *ss = NULL;
	long nss = ml ? markers_sessions(ml, &ss) : 0;
	struct overlay_run b;
	struct png_plan *p = NULL;
	char path[1200], host[256];
	int rc = -1;

	if (nss < 0)
		return perr_set(e, "out of memory");
	if (o->host_note && *o->host_note)
		snprintf(host, sizeof(host), "%s (%s)", logset_meta(ls)->host,
			 o->host_note);
	else
		util_strlcpy(host, logset_meta(ls)->host, sizeof(host));
	out.po.host = host;
	out.po.shift = o->shift;
	out.interval = logset_meta(ls)->interval;
	out.po.width = o->width;
	out.po.height = o->height;
	if (o->cmp) {
		if (overlay_setup(ls, ml, ss, nss, &so, &out, &b, host,
				  sizeof(host), e) < 0)
			goto done;
	} else if (time_range(ls, o, ss, nss, &out.po, e) < 0) {
		goto done;
	}
	/* a session's network charts: the interfaces its connections went
	 * through (issue 29: another program's veth, an idle ifb0 were
	 * drawn), none for a local repository; a --with server's (fixed
	 * span) keeps every interface that moved: its receiver behind sshd
	 * has no edge to the network */
	if (o->session && !o->net_only && !o->fixed_span && !o->cmp &&
	    session_ifaces(ls, ss, nss, o->session, ifs, sizeof(ifs)))
		so.net_only = ifs;
	p = malloc(sizeof(*p));
	if (!p || (!o->cmp && marks_and_spans(ls, ml, ss, nss, o->shift, NULL,
					       &out.po, &out.marks,
					       &out.spans) < 0)) {
		perr_set(e, "out of memory");
		goto done;
	}
	if (util_mkdirs(outdir, 0755) < 0) {
		perr_set(e, "unable to create '%s': %s", outdir, strerror(errno));
		goto done;
	}
	snprintf(path, sizeof(path), "%s/charts.tsv", outdir);
	out.tsv = fopen(path, "w");
	if (!out.tsv) {
		perr_set(e, "unable to write '%s': %s", path, strerror(errno));
		goto done;
	}
	fprintf(out.tsv, "chart\tseries\tmin\tavg\tmax\tpoints\n");
	if (draw_all(ls, &so, o->cmp ? &b : NULL, p, &out, e) == 0)
		rc = out.count;
done:
	if (out.tsv && fclose(out.tsv) != 0 && rc >= 0)
		rc = perr_set(e, "unable to write '%s/charts.tsv': %s", outdir,
			      strerror(errno));
	free(p);
	free_marks(&out.po, out.marks, out.spans);
	free(ss);
	return rc;
}

int png_export_points(struct logset *ls, const struct marker_list *ml,
		      const struct png_export_options *o, char *buf, size_t n,
		      struct perr *e)
{
	const struct logset_meta *m = logset_meta(ls);
	struct png_options po = { .width = o->width, .height = o->height };
	struct session *ss = NULL;
	long nss = ml ? markers_sessions(ml, &ss) : 0;
	struct png_rows r;
	char file[1024];
	int rc;

	buf[0] = '\0';
	if (nss < 0)
		return perr_set(e, "out of memory");
	rc = m->ncounters ? time_range(ls, o, ss, nss, &po, e) :
			    perr_set(e, "log set '%s' has no counters",
				     logset_dir(ls));
	free(ss);
	if (rc < 0)
		return -1;
	snprintf(file, sizeof(file), "%s/%s", logset_dir(ls), m->counters[0].file);
	if (png_rows_of(file, po.from - o->shift, po.to - o->shift,
			png_point_step(&po), m->interval,
			&r, e) < 0)
		return -1;
	png_rows_note(buf, n, &r, 0);
	return 0;
}

int png_export_range(struct logset *ls, const struct marker_list *ml,
		     const struct png_export_options *o, time_t *from,
		     time_t *to, struct perr *e)
{
	struct png_options po = { 0 };
	struct session *ss = NULL;
	long nss = ml ? markers_sessions(ml, &ss) : 0;
	int rc;

	if (nss < 0)
		return perr_set(e, "out of memory");
	rc = time_range(ls, o, ss, nss, &po, e);
	free(ss);
	*from = po.from;
	*to = po.to;
	return rc;
}

int png_size_arg(const char *cmd, const char *opt, const char *v, int *out)
{
	long n;

	if (util_parse_long(v, 1, 100000, &n) < 0) {
		fprintf(stderr, "perflog %s: %s: bad size '%s'\n", cmd, opt, v);
		return -1;
	}
	*out = (int)n;
	return 0;
}
