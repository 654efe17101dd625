/*
 * model.c - the viewer's chart model (model.h): opening the log sets, their
 * markers and sessions on the common clock, refreshing a set still being
 * written. The panes are chosen in model_panes.c; fetching and the view
 * for layout are in model_view.c.
 *
 *   vm_open:  logset_open + markers_load per set -> a pane per chart set
 *             (model_panes.c) -> the window: the whole data range
 *   vm_fetch: per pane one logset_fetch over the window at span/dots
 *             -> vl_rows per series -> vl_resample into plot points
 *   vm_view:  window statistics, marker and session lists -> struct vl_view
 */
#include "model.h"
#include "lanes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
			if (m->compare)
				snprintf(o->label, sizeof(o->label), "%c %s",
					 i ? 'B' : 'A', mk->text);
			else
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
			vm_session_word(s->dir, logset_meta(s->ls)->host, ss,
					o->word, sizeof(o->word));
			if (m->compare)
				snprintf(o->name, sizeof(o->name), "%c %s",
					 i ? 'B' : 'A', ss->name);
			else if (m->nsrc > 1)
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

/* Each set's shift onto the first set's clock: --shift when given, else
 * the offset the markers recorded (logs/align.h), to the second. */
static void align_sources(struct vm_model *m, const double *shifts)
{
	for (size_t i = 0; i < m->nsrc; i++) {
		struct vm_source *s = &m->src[i];
		if (shifts && !isnan(shifts[i]))
			align_manual(shifts[i], &s->align);
		else if (i == 0)
			align_self(&s->align);
		else
			align_shift_of(logset_meta(m->src[0].ls), &m->src[0].marks,
				       logset_meta(s->ls), &s->marks, &s->align);
		s->shift = lround(s->align.seconds);
	}
}

int vm_open(struct vm_model *m, char *const *dirs, const double *shifts,
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
	align_sources(m, shifts);
	data_range(m);
	if (vm_default_panes(m) < 0)
		goto oom;
	if (m->npanes == 0) {
		perr_set(e, "log set '%s' has none of the counters the viewer "
			 "charts", dirs[0]);
		goto fail;
	}
	if (n > 1)
		for (size_t i = 0; i < m->npanes; i++) {
			char t[2 * sizeof(m->panes[i].name)];
			/* whole: a host name cut mid-word names another */
			snprintf(t, sizeof(t), "%s@%s", m->panes[i].name,
				 logset_meta(m->src[m->panes[i].src].ls)->host);
			util_strlcpy(m->panes[i].name, t, sizeof(m->panes[i].name));
		}
	if (load_marks(m, e) < 0)
		goto fail;
	m->nshown = m->npanes;
	for (size_t i = 0; i < m->npanes; i++)
		m->panes[i].twin = -1;
	vm_set_window(m, m->data_from, m->data_to);
	return 0;
oom:
	perr_set(e, "out of memory");
fail:
	vm_close(m);
	return -1;
}

int vm_overlap(const struct vm_model *m)
{
	if (m->nsrc != 2)
		return 1;
	double a0 = (double)(m->src[0].first + m->src[0].shift);
	double a1 = (double)(m->src[0].last + m->src[0].shift);
	double b0 = (double)(m->src[1].first + m->src[1].shift);
	double b1 = (double)(m->src[1].last + m->src[1].shift);
	return a0 <= b1 && b0 <= a1;
}

/* The session a run is laid over by: the one named, else the first. */
static long anchor(const struct vm_source *s, const char *name,
		   struct perr *e)
{
	if (s->nsessions <= 0)
		return perr_set(e, "log set '%s' has no session to lay the other run over",
				s->dir);
	for (long k = 0; name && k < s->nsessions; k++)
		if (!strcmp(s->sessions[k].name, name))
			return k;
	if (name)
		return perr_set(e, "log set '%s' has no session '%s' (its first: '%s')",
				s->dir, name, s->sessions[0].name);
	return 0;
}

static double begin_of(const struct session *ss)
{
	return (double)ss->begin->t + ss->begin->ms / 1000.0;
}

/* The second run's panes after the first's, each first-run pane's twin
 * the second's of its chart set; the labels tagged A and B, B's lines in
 * the colours after A's. */
static void pair_panes(struct vm_model *m)
{
	size_t k = 0;

	for (size_t i = 0; i < m->npanes; i++)	/* stable: A's first */
		if (m->panes[i].src == 0) {
			struct vm_pane t = m->panes[i];
			memmove(&m->panes[k + 1], &m->panes[k],
				(i - k) * sizeof(t));
			m->panes[k++] = t;
		}
	m->nshown = k;
	for (size_t i = 0; i < m->npanes; i++) {
		struct vm_pane *p = &m->panes[i];
		char *at = strrchr(p->name, '@');
		if (at)
			*at = '\0';	/* the pane names both runs */
		p->twin = -1;
		for (size_t j = m->nshown; i < m->nshown && j < m->npanes; j++)
			if (p->set >= 0 && m->panes[j].set == p->set)
				p->twin = (long)j;
		for (size_t s = 0; s < p->n; s++) {
			char l[sizeof(p->s[s].label)];
			snprintf(l, sizeof(l), "%c %s", p->src ? 'B' : 'A',
				 p->s[s].label);
			memcpy(p->s[s].label, l, sizeof(l));
		}
	}
	for (size_t i = 0; i < m->nshown; i++) {
		const struct vm_pane *a = &m->panes[i];
		if (a->twin < 0)
			continue;
		struct vm_pane *b = &m->panes[a->twin];
		for (size_t s = 0; s < b->n; s++)
			b->s[s].color = (int)((a->n + s) % VL_NSERIES_COLORS) + 1;
	}
}

int vm_compare(struct vm_model *m, const char *const names[2],
	       struct perr *e)
{
	if (m->nsrc != 2)
		return perr_set(e, "two runs are compared: give two log sets");
	long ia = anchor(&m->src[0], names[0], e);
	long ib = ia < 0 ? -1 : anchor(&m->src[1], names[1] ? names[1] :
				       names[0], e);
	if (ia < 0 || ib < 0)
		return -1;
	const struct session *a = &m->src[0].sessions[ia];
	const struct session *b = &m->src[1].sessions[ib];
	struct vm_source *sb = &m->src[1];
	double ab = begin_of(a) + (double)m->src[0].shift;

	sb->shift = lround(ab - begin_of(b));
	align_manual((double)sb->shift, &sb->align);
	m->compare = 1;
	data_range(m);
	if (load_marks(m, e) < 0)
		return -1;
	pair_panes(m);
	double da = a->end ? (double)a->end->t + a->end->ms / 1000.0 +
		      (double)m->src[0].shift - ab :
		      (double)(m->src[0].last + m->src[0].shift) - ab;
	double db = b->end ? (double)b->end->t + b->end->ms / 1000.0 - begin_of(b) :
		    (double)sb->last - begin_of(b);
	double span = da > db ? da : db, margin = span / 20 > 5 ? span / 20 : 5;
	vm_set_window(m, ab - margin, ab + span + margin);
	return 0;
}

void vm_close(struct vm_model *m)
{
	for (size_t i = 0; i < m->npanes; i++) {
		logset_series_free(&m->panes[i].data);
		logset_series_free(&m->panes[i].dlo);
		logset_series_free(&m->panes[i].dhi);
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

int vm_refresh(struct vm_model *m, struct perr *e)
{
	int grew = 0;

	m->rd_ok = 0;	/* the cursor's rows may have been written since */
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

