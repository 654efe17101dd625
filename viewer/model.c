/*
 * model.c - the viewer's chart model; see model.h.
 *
 *   vm_open:  logset_open + markers_load per set -> a pane per chart set
 *             (counters/chartset.h) with the counters the set has there
 *             (logs/lookup.h: busiest disks and interfaces ranked by their
 *             mean over the whole log, fetched coarse)
 *   vm_fetch: per pane one logset_fetch over the window at span/dots
 *             -> vl_rows per series -> vl_resample into plot points
 *   vm_view:  window statistics, marker and session lists -> struct vl_view
 */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../counters/chartset.h"
#include "../logs/lookup.h"

/* ---- default panes: one per chart set (counters/chartset.h) ---- */

static int add_series(struct vm_pane *p, long idx, const char *label,
		      int axis)
{
	if (idx < 0 || p->n >= VM_MAX_SERIES)
		return -1;
	struct vm_series *s = &p->s[p->n];
	memset(s, 0, sizeof(*s));
	s->idx = (size_t)idx;
	s->ref_idx = -1;
	s->axis = axis;
	s->color = (int)(p->n % VL_NSERIES_COLORS) + 1;
	s->at_cursor = NAN;
	util_strlcpy(s->label, label, sizeof(s->label));
	p->n++;
	return 0;
}

static struct vm_pane *new_pane(struct vm_model *m, const char *name,
				size_t src)
{
	struct vm_pane *p = realloc(m->panes, (m->npanes + 1) * sizeof(*p));
	if (!p)
		return NULL;
	m->panes = p;
	p = &m->panes[m->npanes++];
	memset(p, 0, sizeof(*p));
	util_strlcpy(p->name, name, sizeof(p->name));
	p->src = src;
	return p;
}

/* The pane's label of one counter of a series (chart_series.label). */
static void series_label(char *buf, size_t n, const struct chart_series *cs,
			 const char *inst)
{
	if (cs->inst == CI_NONE || cs->inst == CI_TOTAL)
		snprintf(buf, n, "%s", cs->label);
	else if (!cs->label || !cs->label[0])
		snprintf(buf, n, "%s", inst);
	else
		snprintf(buf, n, "%.8s %s", strcmp(inst, "_Total") ? inst : "all",
			 cs->label);
}

/* The set's instances, busiest first over the whole log (fetched coarse,
 * about 200 rows), up to the set's `top`. */
static size_t ranked(struct vm_source *src, const struct chartset *set,
		     size_t *rank)
{
	const struct logset_meta *mt = logset_meta(src->ls);
	struct lookup_rank r[VM_MAX_SERIES];
	unsigned long res = (unsigned long)(src->last - src->first) / 200;
	size_t want = set->top < VM_MAX_SERIES ? set->top : VM_MAX_SERIES;

	if (!set->ranked || !want)
		return 0;
	if (res < mt->interval)
		res = mt->interval;
	long n = lookup_busiest(src->ls, set->rank, src->first, src->last, res,
				r, want);
	for (long i = 0; i < n; i++)
		rank[i] = r[i].idx;
	return n > 0 ? (size_t)n : 0;
}

/* The pane of chart set `set` for log set si: the series marked CV_PANE,
 * a chart's unit per axis. No pane when the set logged none of them. */
static int default_pane(struct vm_model *m, size_t si,
			const struct chartset *set)
{
	struct vm_source *src = &m->src[si];
	const struct logset_meta *mt = logset_meta(src->ls);
	struct vm_pane *p = new_pane(m, set->title, si);
	size_t rank[VM_MAX_SERIES], nrank;
	int axis = 0;

	if (!p)
		return -1;
	nrank = ranked(src, set, rank);
	for (size_t k = 0; k < CHARTSET_MAX_CHARTS && set->charts[k].title; k++) {
		const struct chart *c = &set->charts[k];

		if (!chart_shows(c, CV_PANE) || axis > 1)
			continue;
		p->unit[axis] = c->unit;
		if (axis == 0)
			p->unit[1] = c->unit;
		for (size_t i = 0; i < chart_nseries(c); i++) {
			const struct chart_series *cs = &c->series[i];
			struct lookup_hit hit[VM_MAX_SERIES];
			char lab[40];

			if (!(cs->views & CV_PANE))
				continue;
			size_t nh = lookup_series(mt, cs, set->ranked ? rank : NULL,
						  nrank, hit, VM_MAX_SERIES);
			for (size_t h = 0; h < nh; h++) {
				series_label(lab, sizeof(lab), cs, hit[h].instance);
				if (add_series(p, (long)hit[h].idx, lab, axis) == 0)
					p->s[p->n - 1].ref_idx = hit[h].ref;
			}
		}
		axis++;
	}
	if (p->n == 0)
		m->npanes--;	/* nothing of this set was logged */
	return 0;
}

/* ---- opening ---- */

static int load_marks(struct vm_model *m, struct perr *e)
{
	free(m->marks);
	free(m->sessions);
	m->marks = NULL;
	m->sessions = NULL;
	m->nmarks = m->nsessions = 0;
	size_t nm = 0, ns = 0;
	for (size_t i = 0; i < m->nsrc; i++) {
		nm += m->src[i].marks.n;
		ns += (size_t)(m->src[i].nsessions > 0 ? m->src[i].nsessions : 0);
	}
	m->marks = calloc(nm ? nm : 1, sizeof(*m->marks));
	m->sessions = calloc(ns ? ns : 1, sizeof(*m->sessions));
	if (!m->marks || !m->sessions)
		return perr_set(e, "out of memory");
	for (size_t i = 0; i < m->nsrc; i++) {
		struct vm_source *s = &m->src[i];
		for (size_t k = 0; k < s->marks.n; k++) {
			const struct marker *mk = &s->marks.m[k];
			if (mk->kind != MARK_POINT)
				continue;
			struct vm_mark *o = &m->marks[m->nmarks++];
			o->t = (double)mk->t + mk->ms / 1000.0 + (double)s->shift;
			o->src = i;
			util_strlcpy(o->label, mk->text, sizeof(o->label));
		}
		for (long k = 0; k < s->nsessions; k++) {
			const struct session *ss = &s->sessions[k];
			struct vm_session *o = &m->sessions[m->nsessions++];
			o->from = (double)ss->begin->t + ss->begin->ms / 1000.0 +
				  (double)s->shift;
			o->to = ss->end ? (double)ss->end->t + ss->end->ms / 1000.0
					: (double)s->last;
			if (ss->end)
				o->to += (double)s->shift;
			else
				o->to += (double)s->shift;
			if (o->to < o->from)
				o->to = o->from;
			o->src = i;
			if (m->nsrc > 1)
				snprintf(o->name, sizeof(o->name), "%s@%s",
					 ss->name, logset_meta(s->ls)->host);
			else
				util_strlcpy(o->name, ss->name, sizeof(o->name));
		}
	}
	/* both lists by time (few entries: insertion sort) */
	for (size_t i = 1; i < m->nmarks; i++)
		for (size_t j = i; j > 0 && m->marks[j].t < m->marks[j - 1].t; j--) {
			struct vm_mark t = m->marks[j];
			m->marks[j] = m->marks[j - 1];
			m->marks[j - 1] = t;
		}
	for (size_t i = 1; i < m->nsessions; i++)
		for (size_t j = i; j > 0 &&
		     m->sessions[j].from < m->sessions[j - 1].from; j--) {
			struct vm_session t = m->sessions[j];
			m->sessions[j] = m->sessions[j - 1];
			m->sessions[j - 1] = t;
		}
	return 0;
}

static void data_range(struct vm_model *m)
{
	m->data_from = m->data_to = 0;
	m->finest = 0;
	for (size_t i = 0; i < m->nsrc; i++) {
		const struct vm_source *s = &m->src[i];
		unsigned iv = logset_meta(s->ls)->interval;
		double a = (double)(s->first - (time_t)iv + s->shift);
		double b = (double)(s->last + s->shift);
		if (!i || a < m->data_from)
			m->data_from = a;
		if (!i || b > m->data_to)
			m->data_to = b;
		if (!m->finest || iv < m->finest)
			m->finest = iv;
	}
}

static int source_range(struct vm_source *s, struct perr *e)
{
	const struct logset_meta *mt = logset_meta(s->ls);
	s->last = logset_last(s->ls);
	s->first = mt->start + (time_t)mt->interval;
	if (!s->last || s->last < s->first)
		return perr_set(e, "log set '%s' holds no samples", s->dir);
	return 0;
}

int vm_open(struct vm_model *m, char *const *dirs, const long *shifts,
	    size_t n, struct perr *e)
{
	memset(m, 0, sizeof(*m));
	m->src = calloc(n, sizeof(*m->src));
	if (!m->src)
		return perr_set(e, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct vm_source *s = &m->src[i];
		m->nsrc++;
		s->dir = strdup(dirs[i]);
		s->shift = shifts ? shifts[i] : 0;
		if (!s->dir)
			goto oom;
		if (logset_open(dirs[i], &s->ls, e) < 0)
			goto fail;
		const struct logset_meta *mt = logset_meta(s->ls);
		if (mt->ncounters == 0) {
			perr_set(e, "log set '%s' has no counters", dirs[i]);
			goto fail;
		}
		if (mt->interval == 0) {
			perr_set(e, "log set '%s': interval is 0", dirs[i]);
			goto fail;
		}
		if (source_range(s, e) < 0)
			goto fail;
		if (markers_load(dirs[i], &s->marks, e) < 0)
			goto fail;
		s->nsessions = markers_sessions(&s->marks, &s->sessions);
		if (s->nsessions < 0) {
			s->nsessions = 0;
			goto oom;
		}
	}
	data_range(m);
	/* panes kind by kind, so the sets' CPU panes sit together */
	for (int k = 0; k < CHARTSET_COUNT; k++)
		for (size_t i = 0; i < n; i++)
			if (default_pane(m, i, &chartset_table[k]) < 0)
				goto oom;
	if (m->npanes == 0) {
		perr_set(e, "log set '%s' has none of the counters the viewer "
			 "charts", dirs[0]);
		goto fail;
	}
	if (n > 1)
		for (size_t i = 0; i < m->npanes; i++) {
			char t[48];
			snprintf(t, sizeof(t), "%.24s@%.20s", m->panes[i].name,
				 logset_meta(m->src[m->panes[i].src].ls)->host);
			util_strlcpy(m->panes[i].name, t, sizeof(m->panes[i].name));
		}
	if (load_marks(m, e) < 0)
		goto fail;
	vm_set_window(m, m->data_from, m->data_to);
	return 0;
oom:
	perr_set(e, "out of memory");
fail:
	vm_close(m);
	return -1;
}

void vm_close(struct vm_model *m)
{
	for (size_t i = 0; i < m->npanes; i++) {
		logset_series_free(&m->panes[i].data);
		for (size_t k = 0; k < m->panes[i].n; k++)
			free(m->panes[i].s[k].pts);
	}
	for (size_t i = 0; i < m->nsrc; i++) {
		free(m->src[i].dir);
		free(m->src[i].sessions);
		markers_free(&m->src[i].marks);
		if (m->src[i].ls)
			logset_close(m->src[i].ls);
	}
	free(m->src);
	free(m->panes);
	free(m->marks);
	free(m->sessions);
	free(m->vpanes);
	free(m->vmarks);
	free(m->vspans);
	free(m->vlines);
	memset(m, 0, sizeof(*m));
}

/* ---- window and fetch ---- */

void vm_set_window(struct vm_model *m, double from, double to)
{
	double span = to - from, range = m->data_to - m->data_from;
	double minspan = 8.0 * (double)(m->finest ? m->finest : 1);
	if (span < minspan)
		span = minspan;
	if (span > range && range > 0)
		span = range;
	if (from + span > m->data_to)
		from = m->data_to - span;
	if (from < m->data_from)
		from = m->data_from;
	m->from = from;
	m->to = from + span;
}

/* Fetch one pane's counters over [from, to] (common clock). */
static int fetch_pane(struct vm_model *m, struct vm_pane *p, double from,
		      double to, unsigned long res, struct logset_series *out,
		      size_t *col, size_t *refcol, struct perr *e)
{
	struct vm_source *s = &m->src[p->src];
	size_t idx[2 * VM_MAX_SERIES], n = 0;
	for (size_t k = 0; k < p->n; k++) {
		col[k] = n;
		idx[n++] = p->s[k].idx;
		refcol[k] = (size_t)-1;
		if (p->s[k].ref_idx >= 0) {
			refcol[k] = n;
			idx[n++] = (size_t)p->s[k].ref_idx;
		}
	}
	if (!n)
		return 0;
	time_t a = (time_t)floor(from) - s->shift;
	time_t b = (time_t)ceil(to) - s->shift;
	if (logset_fetch(s->ls, idx, n, a, b, "AVERAGE", res, out, e) < 0)
		return -1;
	out->first += s->shift;
	return 0;
}

static void bind_rows(struct vm_pane *p, const size_t *col,
		      const size_t *refcol)
{
	for (size_t k = 0; k < p->n; k++) {
		struct vm_series *s = &p->s[k];
		s->rows = (struct vl_rows){ p->data.values ? p->data.values + col[k]
							   : NULL,
					    p->data.values ? p->data.rows : 0,
					    p->data.ncols, p->data.first,
					    p->data.step };
		if (refcol[k] != (size_t)-1 && p->data.values)
			s->ref_rows = (struct vl_rows){
				p->data.values + refcol[k], p->data.rows,
				p->data.ncols, p->data.first, p->data.step };
		else
			s->ref_rows = (struct vl_rows){ 0 };
	}
}

int vm_fetch(struct vm_model *m, size_t dots, int force, struct perr *e)
{
	if (!force && dots == m->f_dots && m->from == m->f_from &&
	    m->to == m->f_to)
		return 0;
	double span = m->to - m->from;
	unsigned long res = dots ? (unsigned long)(span / (double)dots) : 0;
	if (res < m->finest)
		res = m->finest;
	int rc = 0;
	for (size_t i = 0; i < m->npanes; i++) {
		struct vm_pane *p = &m->panes[i];
		size_t col[VM_MAX_SERIES], refcol[VM_MAX_SERIES];
		struct logset_series fresh;
		unsigned long iv = logset_meta(m->src[p->src].ls)->interval;
		unsigned long r = res < iv ? iv : res;
		/* one row of margin on each side: the first column's row and
		 * the newest value are inside */
		if (fetch_pane(m, p, m->from - (double)r, m->to + (double)r, r,
			       &fresh, col, refcol, e) < 0) {
			rc = -1;
			memset(&fresh, 0, sizeof(fresh));
		}
		logset_series_free(&p->data);
		p->data = fresh;
		bind_rows(p, col, refcol);
		for (size_t k = 0; k < p->n; k++) {
			struct vm_series *s = &p->s[k];
			if (dots != m->f_dots || !s->pts) {
				free(s->pts);
				s->pts = malloc((dots ? dots : 1) * sizeof(double));
				if (!s->pts)
					return perr_set(e, "out of memory");
			}
			vl_resample(&s->rows, m->from, m->to, s->pts, dots);
		}
	}
	m->f_from = m->from;
	m->f_to = m->to;
	m->f_dots = dots;
	return rc;
}

double vm_read_at(struct vm_model *m, double t)
{
	double stamp = t;
	int have = 0;
	for (size_t i = 0; i < m->npanes; i++) {
		struct vm_pane *p = &m->panes[i];
		unsigned long iv = logset_meta(m->src[p->src].ls)->interval;
		size_t col[VM_MAX_SERIES], refcol[VM_MAX_SERIES];
		struct logset_series s;
		struct perr e;
		for (size_t k = 0; k < p->n; k++)
			p->s[k].at_cursor = NAN;
		if (fetch_pane(m, p, t - (double)iv, t + (double)iv, iv, &s,
			       col, refcol, &e) < 0 || !s.values)
			continue;
		for (size_t k = 0; k < p->n; k++) {
			struct vl_rows r = { s.values + col[k], s.rows, s.ncols,
					     s.first, s.step };
			time_t st;
			long row = vl_row_at(&r, t, &st);
			if (row < 0)
				continue;
			p->s[k].at_cursor = s.values[(size_t)row * s.ncols + col[k]];
			if (!have) {
				stamp = (double)st;
				have = 1;
			}
		}
		logset_series_free(&s);
	}
	return stamp;
}

int vm_refresh(struct vm_model *m, struct perr *e)
{
	int grew = 0;
	for (size_t i = 0; i < m->nsrc; i++) {
		struct vm_source *s = &m->src[i];
		time_t last = s->last;
		if (logset_refresh(s->ls, e) < 0)
			return -1;
		s->last = logset_last(s->ls);
		if (s->last > last)
			grew = 1;
		else
			s->last = last;
		struct marker_list ml;
		if (markers_load(s->dir, &ml, e) == 0) {
			if (ml.n != s->marks.n)
				grew = 1;
			free(s->sessions);
			markers_free(&s->marks);
			s->marks = ml;
			s->nsessions = markers_sessions(&s->marks, &s->sessions);
			if (s->nsessions < 0)
				s->nsessions = 0;
		}
	}
	data_range(m);
	if (load_marks(m, e) < 0)
		return -1;
	return grew;
}

/* ---- choosing series ---- */

static const char *short_label(const struct logset_counter *c, char *buf,
			       size_t n)
{
	/* "sda busy", "eth0 B/s": instance and a short counter name */
	const char *name = c->def ? c->def->name : c->path;
	char word[16];
	size_t k = 0;
	for (const char *q = name; *q && k + 1 < sizeof(word); q++)
		if (*q != '%' && *q != ' ' && *q != '.')
			word[k++] = *q;
		else if (k && *q == ' ' && k > 4)
			break;
	word[k] = '\0';
	if (*c->instance)
		snprintf(buf, n, "%.10s %.8s", c->instance, word);
	else
		snprintf(buf, n, "%.12s", word);
	return buf;
}

int vm_set_series(struct vm_model *m, size_t pi, const size_t *idx, size_t n)
{
	if (pi >= m->npanes)
		return -1;
	struct vm_pane *p = &m->panes[pi];
	const struct logset_meta *mt = logset_meta(m->src[p->src].ls);
	for (size_t k = 0; k < p->n; k++) {
		free(p->s[k].pts);
		p->s[k].pts = NULL;
	}
	p->n = 0;
	int have_unit[2] = { 0, 0 };
	for (size_t i = 0; i < n && p->n < VM_MAX_SERIES; i++) {
		if (idx[i] >= mt->ncounters)
			continue;
		const struct logset_counter *c = &mt->counters[idx[i]];
		enum counter_unit u = c->def ? c->def->unit : UNIT_COUNT;
		int axis;
		if (!have_unit[0] || p->unit[0] == u)
			axis = 0;
		else if (!have_unit[1] || p->unit[1] == u)
			axis = 1;
		else
			continue;	/* a third unit does not fit a pane */
		p->unit[axis] = u;
		have_unit[axis] = 1;
		char lab[32];
		add_series(p, (long)idx[i], short_label(c, lab, sizeof(lab)), axis);
	}
	m->f_dots = 0;	/* fetch again */
	return 0;
}

/* ---- the view ---- */

void vm_view(struct vm_model *m, struct vl_view *v)
{
	free(m->vpanes);
	free(m->vmarks);
	free(m->vspans);
	m->vpanes = calloc(m->npanes ? m->npanes : 1, sizeof(*m->vpanes));
	m->vmarks = calloc(m->nmarks ? m->nmarks : 1, sizeof(*m->vmarks));
	m->vspans = calloc(m->nsessions ? m->nsessions : 1, sizeof(*m->vspans));
	size_t nl = 0;
	for (size_t i = 0; i < m->npanes; i++)
		nl += m->panes[i].n;
	if (nl > m->vlines_cap) {
		struct vl_line *l = realloc(m->vlines, nl * sizeof(*l));
		if (l) {
			m->vlines = l;
			m->vlines_cap = nl;
		}
	}
	struct vl_line *lines = m->vlines;
	size_t lines_cap = m->vlines_cap;
	v->npanes = 0;
	if (!m->vpanes || !m->vmarks || !m->vspans || (nl && nl > lines_cap))
		return;
	size_t li = 0;
	for (size_t i = 0; i < m->npanes; i++) {
		struct vm_pane *p = &m->panes[i];
		struct vl_pane *vp = &m->vpanes[i];
		util_strlcpy(vp->title, p->name, sizeof(vp->title));
		vp->unit[0] = p->unit[0];
		vp->unit[1] = p->unit[1];
		vp->lines = lines + li;
		vp->nlines = 0;
		for (size_t k = 0; k < p->n; k++) {
			struct vm_series *s = &p->s[k];
			if (!s->pts)
				continue;
			struct vl_line *l = &lines[li++];
			l->label = s->label;
			l->axis = s->axis;
			l->color = s->color;
			l->pts = s->pts;
			l->st = vl_window_stats(&s->rows, m->from, m->to);
			l->at_cursor = s->at_cursor;
			l->ref = NAN;
			if (s->ref_rows.v) {
				struct vl_stats rs = vl_window_stats(
					&s->ref_rows, m->from - (double)s->ref_rows.step,
					m->to + (double)s->ref_rows.step);
				if (!isnan(rs.cur) && rs.cur > 0)
					l->ref = rs.cur / 8;	/* bit/s -> B/s */
			}
			vp->has_axis[s->axis] = 1;
			vp->nlines++;
		}
	}
	for (size_t i = 0; i < m->nmarks; i++)
		m->vmarks[i] = (struct vl_mark){ m->marks[i].t, m->marks[i].label };
	for (size_t i = 0; i < m->nsessions; i++)
		m->vspans[i] = (struct vl_span){ m->sessions[i].from,
						 m->sessions[i].to,
						 m->sessions[i].name };
	/* header: hosts with their shifts */
	size_t k = 0;
	k += (size_t)snprintf(m->header, sizeof(m->header), " perflog");
	for (size_t i = 0; i < m->nsrc && k < sizeof(m->header); i++) {
		const struct logset_meta *mt = logset_meta(m->src[i].ls);
		int w;
		if (m->src[i].shift)
			w = snprintf(m->header + k, sizeof(m->header) - k,
				     " %s%s(%+lds)", i ? "| " : " ", mt->host,
				     m->src[i].shift);
		else
			w = snprintf(m->header + k, sizeof(m->header) - k,
				     " %s%s", i ? "| " : " ", mt->host);
		if (w < 0)
			break;
		k += (size_t)w;
	}
	v->from = m->from;
	v->to = m->to;
	v->header = m->header;
	v->panes = m->vpanes;
	v->npanes = m->npanes;
	v->marks = m->vmarks;
	v->nmarks = m->nmarks;
	v->spans = m->vspans;
	v->nspans = m->nsessions;
}
