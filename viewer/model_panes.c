/*
 * model_panes.c - the viewer's panes (model.h): by default one per chart
 * set (counters/chartset.h) and log set, with the series the set marks for
 * the pane (CV_PANE) found in that log set (logs/lookup.h: the busiest
 * disks and interfaces ranked by their mean over the whole log, fetched
 * coarse); the counter chooser replaces a pane's series.
 */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../counters/counters.h"
#include "../logs/lookup.h"

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
	s->at_cursor = s->at_lo = s->at_hi = NAN;
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
	p->set = -1;
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
		snprintf(buf, n, "%s %s", strcmp(inst, "_Total") ? inst : "all",
			 cs->label);
}

/* Every series of the pane of one instance ("reference run", "reference
 * disk"): the instance goes once into the pane's name and the labels keep
 * their word, so a legend has room for them whole. */
static void common_instance(struct vm_pane *p, const char *const *inst,
			    const char *const *word)
{
	for (size_t i = 0; i < p->n; i++)
		if (!inst[i] || strcmp(inst[i], inst[0]) || !strcmp(inst[i], "_Total"))
			return;
	if (p->n < 2 || strlen(p->name) + strlen(inst[0]) + 3 > sizeof(p->name))
		return;
	char name[2 * sizeof(p->name) + 64];
	snprintf(name, sizeof(name), "%s, %s", p->name, inst[0]);
	util_strlcpy(p->name, name, sizeof(p->name));
	for (size_t i = 0; i < p->n; i++)
		util_strlcpy(p->s[i].label, word[i], sizeof(p->s[i].label));
}

/* The set's instances, busiest first over [first, last] of the set's own
 * clock (fetched coarse, about 200 rows), up to the set's `top`. */
static size_t ranked(struct vm_source *src, const struct chartset *set,
		     time_t first, time_t last, size_t *rank)
{
	const struct logset_meta *mt = logset_meta(src->ls);
	struct lookup_rank r[VM_MAX_SERIES];
	unsigned long res = last > first ? (unsigned long)(last - first) / 200 : 0;
	size_t want = set->top < VM_MAX_SERIES ? set->top : VM_MAX_SERIES;

	if (!set->ranked || !want)
		return 0;
	if (res < mt->interval)
		res = mt->interval;
	long n = lookup_busiest(src->ls, set->rank, first, last, res, r, want);
	for (long i = 0; i < n; i++)
		rank[i] = r[i].idx;
	return n > 0 ? (size_t)n : 0;
}

/* Pane p of chart set `set`: the series marked CV_PANE, a chart's unit
 * per axis, the ranked instances the busiest over [first, last] of its
 * log set's clock. */
static void fill_pane(struct vm_model *m, struct vm_pane *p,
		      const struct chartset *set, time_t first, time_t last)
{
	struct vm_source *src = &m->src[p->src];
	const struct logset_meta *mt = logset_meta(src->ls);
	size_t rank[VM_MAX_SERIES], nrank;
	const char *inst[VM_MAX_SERIES], *word[VM_MAX_SERIES];
	int axis = 0;

	nrank = ranked(src, set, first, last, rank);
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
			char lab[96];

			if (!(cs->views & CV_PANE))
				continue;
			size_t nh = lookup_series(mt, cs, set->ranked ? rank : NULL,
						  nrank, hit, VM_MAX_SERIES);
			for (size_t h = 0; h < nh; h++) {
				series_label(lab, sizeof(lab), cs, hit[h].instance);
				if (add_series(p, (long)hit[h].idx, lab, axis) == 0) {
					int named = cs->inst != CI_NONE &&
						    cs->inst != CI_TOTAL &&
						    cs->label && cs->label[0];
					inst[p->n - 1] = named ? hit[h].instance : NULL;
					word[p->n - 1] = cs->label;
					p->s[p->n - 1].ref_idx = hit[h].ref;
					p->s[p->n - 1].stack = c->stack;
				}
			}
		}
		axis++;
	}
	if (p->n)
		common_instance(p, inst, word);
}

/* The pane of chart set `set` for log set si, ranked over the whole log.
 * No pane when the set logged none of its series. */
static int default_pane(struct vm_model *m, size_t si,
			const struct chartset *set)
{
	struct vm_pane *p = new_pane(m, set->title, si);

	if (!p)
		return -1;
	p->set = (int)set->id;
	fill_pane(m, p, set, m->src[si].first, m->src[si].last);
	if (p->n == 0)
		m->npanes--;	/* nothing of this set was logged */
	return 0;
}

void vm_repick_panes(struct vm_model *m, double from, double to)
{
	for (size_t i = 0; i < m->npanes; i++) {
		struct vm_pane *p = &m->panes[i];
		const struct vm_source *src = &m->src[p->src];
		const struct chartset *set;
		time_t a, b;

		if (p->set < 0 || p->set >= CHARTSET_COUNT || p->chosen)
			continue;
		set = &chartset_table[p->set];
		if (!set->ranked)
			continue;
		/* the window on the set's own clock, within its data */
		a = (time_t)floor(from) - src->shift;
		b = (time_t)ceil(to) - src->shift;
		if (a < src->first)
			a = src->first;
		if (b > src->last)
			b = src->last;
		if (b <= a)
			continue;
		struct vm_pane old = *p;
		p->n = 0;
		util_strlcpy(p->name, set->title, sizeof(p->name));
		fill_pane(m, p, set, a, b);
		if (m->nsrc > 1) {	/* as vm_open names it */
			char t[2 * sizeof(p->name)];
			snprintf(t, sizeof(t), "%s@%s", p->name,
				 logset_meta(src->ls)->host);
			util_strlcpy(p->name, t, sizeof(p->name));
		}
		if (p->n == 0) {	/* none logged there: keep what it had */
			*p = old;
			continue;
		}
		for (size_t k = 0; k < old.n; k++)
			free(old.s[k].pts);
		p->data = old.data;	/* the fetch replaces it */
		p->dlo = old.dlo;
		p->dhi = old.dhi;
		m->f_dots = 0;	/* fetch again */
		m->rd_ok = 0;
	}
}

int vm_default_panes(struct vm_model *m)
{
	/* set by set, so the log sets' CPU panes sit together */
	for (int k = 0; k < CHARTSET_COUNT; k++)
		for (size_t i = 0; i < m->nsrc; i++)
			if (default_pane(m, i, &chartset_table[k]) < 0)
				return -1;
	return 0;
}

/* ---- choosing series ---- */

/* Set k's counters of the log set into order (those not taken yet). */
static size_t set_counters(const struct logset_meta *mt, int k, char *taken,
			   size_t *order, size_t n)
{
	const struct chartset *set = &chartset_table[k];
	struct lookup_hit *hit = malloc(mt->ncounters * sizeof(*hit));

	for (size_t c = 0; hit && c < CHARTSET_MAX_CHARTS && set->charts[c].title;
	     c++)
		for (size_t i = 0; i < chart_nseries(&set->charts[c]); i++) {
			size_t nh = lookup_series(mt, &set->charts[c].series[i],
						  NULL, 0, hit, mt->ncounters);
			for (size_t h = 0; h < nh; h++)
				if (!taken[hit[h].idx]) {
					taken[hit[h].idx] = 1;
					order[n++] = hit[h].idx;
				}
		}
	free(hit);
	return n;
}

size_t vm_chooser_order(const struct vm_model *m, size_t pi, size_t *order)
{
	const struct vm_pane *p = &m->panes[pi];
	const struct logset_meta *mt = logset_meta(m->src[p->src].ls);
	char *taken = calloc(mt->ncounters ? mt->ncounters : 1, 1);
	size_t n = 0;

	if (!taken)
		return 0;
	if (p->set >= 0)
		n = set_counters(mt, p->set, taken, order, n);
	for (int k = 0; k < CHARTSET_COUNT; k++)
		if (k != p->set)
			n = set_counters(mt, k, taken, order, n);
	for (size_t i = 0; i < mt->ncounters; i++)
		if (!taken[i])
			order[n++] = i;
	free(taken);
	return n;
}

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
		snprintf(buf, n, "%s %s", c->instance, word);
	else
		snprintf(buf, n, "%s", word);
	return buf;
}

int vm_set_series(struct vm_model *m, size_t pi, const size_t *idx, size_t n)
{
	if (pi >= m->npanes)
		return -1;
	struct vm_pane *p = &m->panes[pi];
	const struct logset_meta *mt = logset_meta(m->src[p->src].ls);

	p->chosen = 1;
	for (size_t k = 0; k < p->n; k++) {
		free(p->s[k].pts);
		p->s[k].pts = p->s[k].lo = p->s[k].hi = NULL;
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
		char lab[96];
		add_series(p, (long)idx[i], short_label(c, lab, sizeof(lab)), axis);
	}
	m->f_dots = 0;	/* fetch again */
	m->rd_ok = 0;
	return 0;
}

