/*
 * png_plan.c - what a chart of png_export draws (png_plan.h): the
 * counters of a log set picked by object, counter and instance from its
 * metadata, as (file, DS, legend).
 */
#include "png_plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../logs/lookup.h"

static void plan_init(struct png_plan *p, const char *what, const char *vlabel,
		      enum counter_unit unit, double lower, double upper)
{
	memset(p, 0, sizeof(*p));
	util_strlcpy(p->what, what, sizeof(p->what));
	util_strlcpy(p->vlabel, vlabel, sizeof(p->vlabel));
	p->unit = unit;
	p->lower = lower;
	p->upper = upper;
}

static void plan_add(struct png_plan *p, struct logset *ls, size_t i,
		     const char *legend)
{
	const struct logset_counter *c = &logset_meta(ls)->counters[i];

	if (p->n >= PNG_PLAN_MAX)
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
void png_plan_chart(struct png_plan *p, struct logset *ls, const struct chart *c,
		       const char *proc, const char *net_only)
{
	const struct logset_meta *m = logset_meta(ls);

	plan_init(p, c->title, c->axis ? c->axis : catalog_unit_label(c->unit),
		  c->unit, c->lower, c->upper);
	p->stack = c->stack;
	for (size_t i = 0; i < chart_nseries(c); i++) {
		const struct chart_series *cs = &c->series[i];
		struct lookup_hit hit[PNG_PLAN_MAX];

		if (!(cs->views & CV_PNG))
			continue;
		size_t n = lookup_series(m, cs, NULL, 0, hit, PNG_PLAN_MAX);
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

/* "System\Processor Queue Length" -> "System_Processor_Queue_Length" */
void png_file_stem(char *buf, size_t n, const char *text)
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
int png_plan_group(struct png_plan *p, struct logset *ls, const char *group,
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

void png_plan_append(struct png_plan *p, const struct png_plan *q,
		     const char *tag, long shift)
{
	for (size_t i = 0; i < q->n && p->n < PNG_PLAN_MAX; i++, p->n++) {
		memcpy(p->file[p->n], q->file[i], sizeof(p->file[0]));
		memcpy(p->ds[p->n], q->ds[i], sizeof(p->ds[0]));
		snprintf(p->legend[p->n], sizeof(p->legend[0]), "%s %s", tag,
			 q->legend[i]);
		p->scale[p->n] = q->scale[i];
		p->share_of[p->n] = q->share_of[i] ? q->share_of[i] + 1 : 0;
		p->shift[p->n] = q->shift[i] + shift;
	}
}

void png_plan_tag(struct png_plan *p, const char *tag)
{
	char lg[sizeof(p->legend[0])];

	for (size_t i = 0; i < p->n; i++) {
		snprintf(lg, sizeof(lg), "%s %s", tag, p->legend[i]);
		memcpy(p->legend[i], lg, sizeof(lg));
	}
}
