/*
 * model_view.c - the model's window (model.h): fetching it at the
 * resolution the plot can show, reading the values at the cursor, and the
 * struct vl_view that layout.h draws.
 */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Stacked series plot running sums: each on the previous stacked one of
 * its axis. */
static void stack_pane(struct vm_pane *p, size_t dots)
{
	for (int axis = 0; axis < 2; axis++) {
		const double *below = NULL;

		for (size_t k = 0; k < p->n; k++) {
			struct vm_series *s = &p->s[k];
			if (!s->stack || s->axis != axis || !s->pts)
				continue;
			if (below)
				vl_stack_onto(s->pts, below, dots);
			below = s->pts;
		}
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
		stack_pane(p, dots);
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

/* ---- the view ---- */

/* The drawing buffers for the panes, marks, spans and every pane's
 * lines; 0, or -1 out of memory. */
static int view_buffers(struct vm_model *m)
{
	size_t nl = 0;

	free(m->vpanes);
	free(m->vmarks);
	free(m->vspans);
	m->vpanes = calloc(m->npanes ? m->npanes : 1, sizeof(*m->vpanes));
	m->vmarks = calloc(m->nmarks ? m->nmarks : 1, sizeof(*m->vmarks));
	m->vspans = calloc(m->nsessions ? m->nsessions : 1, sizeof(*m->vspans));
	for (size_t i = 0; i < m->npanes; i++)
		nl += m->panes[i].n;
	if (nl > m->vlines_cap) {
		struct vl_line *l = realloc(m->vlines, nl * sizeof(*l));
		if (l) {
			m->vlines = l;
			m->vlines_cap = nl;
		}
	}
	return !m->vpanes || !m->vmarks || !m->vspans ||
	       (nl && nl > m->vlines_cap) ? -1 : 0;
}

/* One series as a line: its points, window statistics, the value at the
 * cursor and its reference level (Current Bandwidth, bit/s, as B/s). */
static void view_line(const struct vm_model *m, const struct vm_series *s,
		      struct vl_line *l)
{
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
}

/* The header: hosts with their shifts. */
static void view_header(struct vm_model *m)
{
	size_t k = (size_t)snprintf(m->header, sizeof(m->header), " perflog");

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
}

void vm_view(struct vm_model *m, struct vl_view *v)
{
	size_t li = 0;

	v->npanes = 0;
	if (view_buffers(m) < 0)
		return;
	for (size_t i = 0; i < m->npanes; i++) {
		struct vm_pane *p = &m->panes[i];
		struct vl_pane *vp = &m->vpanes[i];
		util_strlcpy(vp->title, p->name, sizeof(vp->title));
		vp->unit[0] = p->unit[0];
		vp->unit[1] = p->unit[1];
		vp->lines = m->vlines + li;
		vp->nlines = 0;
		for (size_t k = 0; k < p->n; k++) {
			if (!p->s[k].pts)
				continue;
			view_line(m, &p->s[k], &m->vlines[li++]);
			vp->has_axis[p->s[k].axis] = 1;
			vp->nlines++;
		}
	}
	for (size_t i = 0; i < m->nmarks; i++)
		m->vmarks[i] = (struct vl_mark){ m->marks[i].t, m->marks[i].label };
	for (size_t i = 0; i < m->nsessions; i++)
		m->vspans[i] = (struct vl_span){ m->sessions[i].from,
						 m->sessions[i].to,
						 m->sessions[i].name };
	view_header(m);
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
