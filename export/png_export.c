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

#define MAX_SERIES 24

struct plan {
	char what[96];
	char vlabel[32];
	enum counter_unit unit;
	double lower, upper;
	int stack;
	char file[MAX_SERIES][1024];
	char ds[MAX_SERIES][20];
	char legend[MAX_SERIES][96];
	double scale[MAX_SERIES];
	int share_of[MAX_SERIES];	/* png_series.share_of */
	long shift[MAX_SERIES];		/* png_series.shift */
	size_t n;
};

static void plan_init(struct plan *p, const char *what, const char *vlabel,
		      enum counter_unit unit, double lower, double upper)
{
	memset(p, 0, sizeof(*p));
	util_strlcpy(p->what, what, sizeof(p->what));
	util_strlcpy(p->vlabel, vlabel, sizeof(p->vlabel));
	p->unit = unit;
	p->lower = lower;
	p->upper = upper;
}

static void plan_add(struct plan *p, struct logset *ls, size_t i,
		     const char *legend)
{
	const struct logset_counter *c = &logset_meta(ls)->counters[i];

	if (p->n >= MAX_SERIES)
		return;
	snprintf(p->file[p->n], sizeof(p->file[0]), "%s/%s", logset_dir(ls),
		 c->file);
	util_strlcpy(p->ds[p->n], c->ds, sizeof(p->ds[0]));
	util_strlcpy(p->legend[p->n], legend, sizeof(p->legend[0]));
	p->scale[p->n] = 1;
	p->share_of[p->n] = 0;
	p->shift[p->n] = 0;
	p->n++;
}

/* A chart of a set (counters/chartset.h): its series marked CV_PNG, each
 * instance in perflog.meta order, "INSTANCE LEGEND" as the legend; of the
 * Process object only instance `proc` when it is not NULL (the session's
 * own tree: another run's states do not belong in its chart). */
/* Whether inst is one of list's comma-separated names. */
static void plan_chart(struct plan *p, struct logset *ls, const struct chart *c,
		       const char *proc, const char *net_only)
{
	const struct logset_meta *m = logset_meta(ls);

	plan_init(p, c->title, c->axis ? c->axis : catalog_unit_label(c->unit),
		  c->unit, c->lower, c->upper);
	p->stack = c->stack;
	for (size_t i = 0; i < chart_nseries(c); i++) {
		const struct chart_series *cs = &c->series[i];
		struct lookup_hit hit[MAX_SERIES];

		if (!(cs->views & CV_PNG))
			continue;
		size_t n = lookup_series(m, cs, NULL, 0, hit, MAX_SERIES);
		for (size_t h = 0; h < n; h++) {
			const char *inst = hit[h].instance;
			char lg[96];

			if (proc && catalog_counters[cs->ctr].object == OBJ_PROCESS &&
			    strcmp(inst, proc))
				continue;
			if (net_only && catalog_counters[cs->ctr].object == OBJ_NETWORK &&
			    !util_list_has(net_only, inst))
				continue;
			snprintf(lg, sizeof(lg), "%s%s%s", inst, inst[0] ? " " : "",
				 cs->legend ? cs->legend : catalog_counters[cs->ctr].name);
			plan_add(p, ls, hit[h].idx, lg);
			/* a stack is the shares of a whole: each state its
			 * percent of all the states' sum at each point (the
			 * threads' time, as the report's "all threads"
			 * column), not 100 a thread stacked to 1000% */
			if (c->stack && p->n)
				p->share_of[p->n - 1] = 1;
		}
	}
}

/* Where the charts go: the directory, the drawing options, charts.tsv,
 * and the names of the charts drawn so far. */
struct output {
	const char *outdir;
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
static int drop_zeros(struct plan *p, struct png_series *s,
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

static int draw(struct plan *p, const char *name, struct output *out,
		int drop_zero, struct perr *e)
{
	struct png_series s[MAX_SERIES];
	struct png_legend lg[MAX_SERIES];
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

/* "System\Processor Queue Length" -> "System_Processor_Queue_Length" */
static void file_stem(char *buf, size_t n, const char *text)
{
	size_t j = 0;

	for (const char *s = text; *s && j + 1 < n && j < 60; s++) {
		char c = *s;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '-' || c == '.';
		if (ok)
			buf[j++] = c;
		else if (j && buf[j - 1] != '_')
			buf[j++] = '_';
	}
	while (j && buf[j - 1] == '_')
		j--;
	buf[j] = '\0';
	if (!j)
		util_strlcpy(buf, "counters", n);
}

/* One --counters group ("A+B"): a chart of every matching counter. */
static int plan_group(struct plan *p, struct logset *ls, const char *group,
		      struct perr *e)
{
	const struct logset_meta *m = logset_meta(ls);
	char buf[512], *save = NULL;

	util_strlcpy(buf, group, sizeof(buf));
	plan_init(p, group, "", UNIT_COUNT, NAN, NAN);
	for (char *t = strtok_r(buf, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
		struct counter_path cp;
		size_t before = p->n;
		while (*t == ' ')
			t++;
		/* why, not e: perr_set must not read the message it
		 * writes (it printed "...: --counters: '...': bject") */
		struct perr why;
		if (catalog_parse_path(t, &cp, &why) < 0)
			return perr_set(e, "--counters: '%s': %s", t, why.msg);
		for (size_t i = 0; i < m->ncounters; i++) {
			const struct logset_counter *c = &m->counters[i];
			char lg[96];
			if (c->def != cp.def)
				continue;
			if (strcmp(cp.instance, "*") &&
			    strcasecmp(cp.instance, c->instance))
				continue;
			snprintf(lg, sizeof(lg), "%s%s%s", c->instance,
				 c->instance[0] ? " " : "", c->def->name);
			plan_add(p, ls, i, lg);
		}
		if (p->n == before)
			return perr_set(e, "--counters: the log set has no counter '%s'", t);
		if (!p->vlabel[0]) {
			util_strlcpy(p->vlabel, catalog_unit_label(cp.def->unit),
				     sizeof(p->vlabel));
			if (!p->vlabel[0])
				util_strlcpy(p->vlabel, "count", sizeof(p->vlabel));
			p->unit = cp.def->unit;
			if (cp.def->unit == UNIT_PERCENT)
				p->lower = 0;
		}
	}
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

/* Every marker, and the sessions as spans (an open one up to the last
 * row; the markers' milliseconds kept), into po; the caller frees
 * *marks, their labels and *spans (free_marks). */
static int marks_and_spans(struct logset *ls, const struct marker_list *ml,
			   const struct session *ss, long nss,
			   struct png_options *po, struct png_mark **marks,
			   struct png_span **spans)
{
	long sh = po->shift;
	time_t last = logset_last(ls);

	*marks = calloc(ml && ml->n ? ml->n : 1, sizeof(**marks));
	*spans = calloc(nss > 0 ? (size_t)nss : 1, sizeof(**spans));
	if (!*marks || !*spans)
		return -1;
	for (size_t i = 0; ml && i < ml->n; i++) {
		(*marks)[po->nmarks].t = (double)(ml->m[i].t + sh) +
					 ml->m[i].ms / 1000.0;
		if (!((*marks)[po->nmarks].label = mark_label(&ml->m[i])))
			return -1;
		po->nmarks++;
	}
	for (long k = 0; k < nss; k++) {
		(*spans)[k].begin = (double)(ss[k].begin->t + sh) +
				    ss[k].begin->ms / 1000.0;
		(*spans)[k].end = ss[k].end ?
			(double)(ss[k].end->t + sh) + ss[k].end->ms / 1000.0 :
			(double)(last ? last + sh : po->to);
		(*spans)[k].label = ss[k].name;
	}
	po->marks = *marks;
	po->spans = *spans;
	po->nspans = (size_t)nss;
	return 0;
}

/* The charts of every chart set, then one per --counters group. */
static int draw_all(struct logset *ls, const struct png_export_options *o,
		    struct plan *p, struct output *out, struct perr *e)
{
	const char *proc = o->session ?
		lookup_process(logset_meta(ls), o->session) : NULL;

	for (size_t k = 0; k < CHARTSET_COUNT; k++)
		for (size_t c = 0; c < CHARTSET_MAX_CHARTS; c++) {
			const struct chart *ch = &chartset_table[k].charts[c];

			if (!ch->title || !ch->png)
				continue;
			plan_chart(p, ls, ch, proc, o->net_only);
			if (draw(p, ch->png, out, o->drop_zero, e) < 0)
				return -1;
		}
	if (o->counters && *o->counters) {
		char buf[1024], *save = NULL;
		util_strlcpy(buf, o->counters, sizeof(buf));
		for (char *g = strtok_r(buf, ",", &save); g;
		     g = strtok_r(NULL, ",", &save)) {
			char stem[64], name[72];
			if (plan_group(p, ls, g, e) < 0)
				return -1;
			file_stem(stem, sizeof(stem), g);
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
	if (!waits || (nr = treefiles_edges(logset_dir(ls), waits, &rows)) < 0)
		return 0;
	waitedges_ifaces(rows, (size_t)nr, buf, n);
	free(rows);
	return 1;
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
	struct png_mark *marks = NULL;
	struct png_span *spans = NULL;
	struct plan *p = NULL;
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
	if (time_range(ls, o, ss, nss, &out.po, e) < 0)
		goto done;
	/* a session's network charts: the interfaces its connections went
	 * through (issue 29: another program's veth, an idle ifb0 were
	 * drawn), none for a local repository; a --with server's (fixed
	 * span) keeps every interface that moved: its receiver behind sshd
	 * has no edge to the network */
	if (o->session && !o->net_only && !o->fixed_span &&
	    session_ifaces(ls, ss, nss, o->session, ifs, sizeof(ifs)))
		so.net_only = ifs;
	p = malloc(sizeof(*p));
	if (!p || marks_and_spans(ls, ml, ss, nss, &out.po, &marks, &spans) < 0) {
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
	if (draw_all(ls, &so, p, &out, e) == 0)
		rc = out.count;
done:
	if (out.tsv && fclose(out.tsv) != 0 && rc >= 0)
		rc = perr_set(e, "unable to write '%s/charts.tsv': %s", outdir,
			      strerror(errno));
	free(p);
	for (size_t i = 0; marks && i < out.po.nmarks; i++)
		free((char *)marks[i].label);
	free(marks);
	free(spans);
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
