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

/* The pane's counters (and reference counters) to fetch: idx[], and
 * each series' column and reference column in the block. Returns n. */
static size_t pane_columns(const struct vm_pane *p, size_t *idx, size_t *col,
			   size_t *refcol)
{
	size_t n = 0;

	for (size_t k = 0; k < p->n; k++) {
		col[k] = n;
		idx[n++] = p->s[k].idx;
		refcol[k] = (size_t)-1;
		if (p->s[k].ref_idx >= 0) {
			refcol[k] = n;
			idx[n++] = (size_t)p->s[k].ref_idx;
		}
	}
	return n;
}

/* Fetch one pane's counters over [from, to] (common clock) with the
 * consolidation cf. */
static int fetch_pane(struct vm_model *m, struct vm_pane *p, double from,
		      double to, unsigned long res, const char *cf,
		      struct logset_series *out, size_t *col, size_t *refcol,
		      struct perr *e)
{
	struct vm_source *s = &m->src[p->src];
	size_t idx[2 * VM_MAX_SERIES];
	size_t n = pane_columns(p, idx, col, refcol);

	memset(out, 0, sizeof(*out));
	if (!n)
		return 0;
	time_t a = (time_t)floor(from) - s->shift;
	time_t b = (time_t)ceil(to) - s->shift;
	if (logset_fetch(s->ls, idx, n, a, b, cf, res, out, e) < 0)
		return -1;
	out->first += s->shift;
	return 0;
}

/* When avg's rows are consolidations (coarser than the set's interval),
 * their MIN and MAX into lo and hi, asked as avg was (same span and
 * resolution res): librrd keeps the three side by side in each
 * consolidated archive, so it picks the same archive and grid. Left
 * empty when not consolidated, or when a grid differs (a damaged file):
 * the band then comes from the AVERAGE rows alone. */
static void fetch_band(struct vm_model *m, struct vm_pane *p, double from,
		       double to, unsigned long res,
		       const struct logset_series *avg,
		       struct logset_series *lo, struct logset_series *hi)
{
	unsigned long iv = logset_meta(m->src[p->src].ls)->interval;
	size_t col[VM_MAX_SERIES], refcol[VM_MAX_SERIES];
	struct perr e;

	memset(lo, 0, sizeof(*lo));
	memset(hi, 0, sizeof(*hi));
	if (!avg->values || avg->step <= iv)
		return;
	if (fetch_pane(m, p, from, to, res, "MIN", lo, col, refcol, &e) < 0 ||
	    fetch_pane(m, p, from, to, res, "MAX", hi, col, refcol, &e) < 0 ||
	    lo->first != avg->first || lo->step != avg->step ||
	    lo->rows != avg->rows || hi->first != avg->first ||
	    hi->step != avg->step || hi->rows != avg->rows) {
		logset_series_free(lo);
		logset_series_free(hi);
	}
}

static void bind_rows(struct vm_pane *p, const size_t *col,
		      const size_t *refcol)
{
	const struct logset_series *d = &p->data;

	for (size_t k = 0; k < p->n; k++) {
		struct vm_series *s = &p->s[k];
		s->rows = (struct vl_rows){ d->values ? d->values + col[k] : NULL,
					    d->values ? d->rows : 0, d->ncols,
					    d->first, d->step, NULL, NULL };
		if (d->values && p->dlo.values && p->dhi.values) {
			s->rows.lo = p->dlo.values + col[k];
			s->rows.hi = p->dhi.values + col[k];
		}
		if (refcol[k] != (size_t)-1 && d->values)
			s->ref_rows = (struct vl_rows){
				d->values + refcol[k], d->rows, d->ncols,
				d->first, d->step, NULL, NULL };
		else
			s->ref_rows = (struct vl_rows){ 0 };
	}
}

/* Stacked series plot running sums: each on the previous stacked one of
 * its axis. They have no band: the lowest and highest of a share do not
 * stack (the sum of the maxima was never reached together). */
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

/* Points for dots plot columns: one allocation of avg, lo and hi. */
static int series_points(struct vm_series *s, size_t dots, int realloc_)
{
	size_t n = dots ? dots : 1;

	if (realloc_ || !s->pts) {
		free(s->pts);
		s->pts = malloc(3 * n * sizeof(double));
		if (!s->pts) {
			s->lo = s->hi = NULL;
			return -1;
		}
		s->lo = s->pts + n;
		s->hi = s->pts + 2 * n;
	}
	return 0;
}

/* What the first pane shows, for the header. */
static void note_rows(struct vm_model *m, size_t dots)
{
	const struct vm_pane *p = m->npanes ? &m->panes[0] : NULL;

	m->rows_step = 0;
	m->rows_cons = 0;
	m->rows_per_dot = 0;
	if (!p || !p->data.values || !p->data.step || !dots)
		return;
	m->rows_step = p->data.step;
	m->rows_cons = p->dlo.values != NULL;
	m->rows_per_dot = (m->to - m->from) / (double)dots /
			  (double)p->data.step;
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
		struct logset_series fresh, lo, hi;
		unsigned long iv = logset_meta(m->src[p->src].ls)->interval;
		unsigned long r = res < iv ? iv : res;
		/* one row of margin on each side: the first column's row and
		 * the newest value are inside */
		double a = m->from - (double)r, b = m->to + (double)r;
		if (fetch_pane(m, p, a, b, r, "AVERAGE", &fresh, col, refcol,
			       e) < 0) {
			rc = -1;
			memset(&fresh, 0, sizeof(fresh));
		}
		fetch_band(m, p, a, b, r, &fresh, &lo, &hi);
		logset_series_free(&p->data);
		logset_series_free(&p->dlo);
		logset_series_free(&p->dhi);
		p->data = fresh;
		p->dlo = lo;
		p->dhi = hi;
		bind_rows(p, col, refcol);
		for (size_t k = 0; k < p->n; k++) {
			struct vm_series *s = &p->s[k];
			if (series_points(s, dots, dots != m->f_dots) < 0)
				return perr_set(e, "out of memory");
			vl_resample_band(&s->rows, m->from, m->to, s->pts,
					 s->lo, s->hi, dots);
		}
		stack_pane(p, dots);
	}
	m->f_from = m->from;
	m->f_to = m->to;
	m->f_dots = dots;
	note_rows(m, dots);
	return rc;
}

/* The cursor's row of each series of pane p from the blocks avg (and
 * lo, hi when consolidated); returns 1 and *stamp when one was found. */
static int read_pane_at(struct vm_pane *p, double t, const size_t *col,
			const struct logset_series *avg,
			const struct logset_series *lo,
			const struct logset_series *hi, time_t *stamp)
{
	int have = 0;

	for (size_t k = 0; k < p->n; k++) {
		struct vl_rows r = { avg->values + col[k], avg->rows,
				     avg->ncols, avg->first, avg->step,
				     NULL, NULL };
		time_t st;
		long row = vl_row_at(&r, t, &st);
		if (row < 0)
			continue;
		size_t at = (size_t)row * avg->ncols + col[k];
		p->s[k].at_cursor = avg->values[at];
		if (lo->values && hi->values) {
			p->s[k].at_lo = lo->values[at];
			p->s[k].at_hi = hi->values[at];
		}
		if (!have)
			*stamp = st;
		have = 1;
	}
	return have;
}

/* The cursor's rows of pane p: from the window's block when its rows are
 * the set's own interval (the finest there is), else fetched at the
 * interval, with the MIN and MAX of a consolidated row. 1 and *stamp when
 * a row was found. */
static int read_pane(struct vm_model *m, struct vm_pane *p, double t,
		     time_t *stamp)
{
	unsigned long iv = logset_meta(m->src[p->src].ls)->interval;
	size_t col[VM_MAX_SERIES], refcol[VM_MAX_SERIES], idx[2 * VM_MAX_SERIES];
	struct logset_series s, lo, hi;
	struct perr e;
	int have;

	memset(&lo, 0, sizeof(lo));
	memset(&hi, 0, sizeof(hi));
	if (p->data.values && p->data.step == iv && m->f_from <= t &&
	    t <= m->f_to) {
		pane_columns(p, idx, col, refcol);
		return read_pane_at(p, t, col, &p->data, &lo, &hi, stamp);
	}
	if (fetch_pane(m, p, t - (double)iv, t + (double)iv, iv, "AVERAGE",
		       &s, col, refcol, &e) < 0 || !s.values)
		return 0;
	/* older than the full-resolution archive: a consolidated row, read
	 * with its MIN and MAX */
	fetch_band(m, p, t - (double)iv, t + (double)iv, iv, &s, &lo, &hi);
	have = read_pane_at(p, t, col, &s, &lo, &hi, stamp);
	logset_series_free(&s);
	logset_series_free(&lo);
	logset_series_free(&hi);
	return have;
}

double vm_read_at(struct vm_model *m, double t)
{
	double stamp = t;
	int have = 0;

	if (m->rd_ok && m->rd_t == t)
		return m->rd_stamp;
	for (size_t i = 0; i < m->npanes; i++) {
		struct vm_pane *p = &m->panes[i];
		time_t st = 0;
		for (size_t k = 0; k < p->n; k++)
			p->s[k].at_cursor = p->s[k].at_lo = p->s[k].at_hi = NAN;
		if (read_pane(m, p, t, &st) && !have) {
			stamp = (double)st;
			have = 1;
		}
	}
	m->rd_ok = 1;
	m->rd_t = t;
	m->rd_stamp = stamp;
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
	/* a stacked series has no band (stack_pane) */
	l->lo = s->stack ? NULL : s->lo;
	l->hi = s->stack ? NULL : s->hi;
	l->st = vl_window_stats(&s->rows, m->from, m->to);
	l->at_cursor = s->at_cursor;
	l->at_lo = s->at_lo;
	l->at_hi = s->at_hi;
	l->ref = NAN;
	if (s->ref_rows.v) {
		struct vl_stats rs = vl_window_stats(
			&s->ref_rows, m->from - (double)s->ref_rows.step,
			m->to + (double)s->ref_rows.step);
		if (!isnan(rs.cur) && rs.cur > 0)
			l->ref = rs.cur / 8;	/* bit/s -> B/s */
	}
}

/* The header: hosts with their shifts and where each came from
 * ("tsmsrv(-30s) by its markers"; a set with no recorded offset says so). */
static void view_header(struct vm_model *m)
{
	size_t k = (size_t)snprintf(m->header, sizeof(m->header), " perflog");

	if (m->compare) {
		snprintf(m->header + k, sizeof(m->header) - k,
			 "  A %s | B %s(%+lds): from session begins",
			 logset_meta(m->src[0].ls)->host,
			 logset_meta(m->src[1].ls)->host, m->src[1].shift);
		return;
	}

	for (size_t i = 0; i < m->nsrc && k < sizeof(m->header); i++) {
		const struct vm_source *s = &m->src[i];
		const char *host = logset_meta(s->ls)->host;
		int w;
		if (s->shift || (i && s->align.source != ALIGN_NONE))
			w = snprintf(m->header + k, sizeof(m->header) - k,
				     " %s%s(%+lds) by %s", i ? "| " : " ", host,
				     s->shift, align_source_note(&s->align));
		else if (i)
			w = snprintf(m->header + k, sizeof(m->header) - k,
				     " | %s(+0s) no recorded offset", host);
		else
			w = snprintf(m->header + k, sizeof(m->header) - k,
				     "  %s", host);
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
	for (size_t i = 0; i < m->nshown; i++) {
		struct vm_pane *p = &m->panes[i];
		struct vl_pane *vp = &m->vpanes[i];
		util_strlcpy(vp->title, p->name, sizeof(vp->title));
		vp->unit[0] = p->unit[0];
		vp->unit[1] = p->unit[1];
		vp->lines = m->vlines + li;
		vp->nlines = 0;
		/* its lines, each followed by its twin's of the same rank
		 * (two runs compared: "A total", "B total", "A user" ...),
		 * so the rows a short pane has room for show both runs */
		const struct vm_pane *t = p->twin >= 0 ? &m->panes[p->twin] : NULL;
		size_t most = t && t->n > p->n ? t->n : p->n;
		for (size_t k = 0; k < 2 * most; k++) {
			const struct vm_pane *q = k % 2 ? t : p;
			if (!q || k / 2 >= q->n || !q->s[k / 2].pts)
				continue;
			view_line(m, &q->s[k / 2], &m->vlines[li++]);
			vp->has_axis[q->s[k / 2].axis] = 1;
			vp->nlines++;
		}
	}
	for (size_t i = 0; i < m->nmarks; i++)
		m->vmarks[i] = (struct vl_mark){ m->marks[i].t, m->marks[i].label };
	for (size_t i = 0; i < m->nsessions; i++)
		m->vspans[i] = (struct vl_span){ m->sessions[i].from,
						 m->sessions[i].to,
						 m->sessions[i].name,
						 m->sessions[i].word,
						 m->sessions[i].src };
	view_header(m);
	v->from = m->from;
	v->to = m->to;
	v->header = m->header;
	v->panes = m->vpanes;
	v->npanes = m->nshown;
	v->marks = m->vmarks;
	v->nmarks = m->nmarks;
	v->spans = m->vspans;
	v->nspans = m->nsessions;
}
