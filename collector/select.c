/* select.c - see select.h. */
#define _GNU_SOURCE
#include "select.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NBUCKETS 1024

struct selector {
	const struct settings *s;
	struct select_entry *bucket[NBUCKETS];
};

static unsigned hash(enum counter_object obj, const char *name)
{
	unsigned h = 2166136261u ^ (unsigned)obj;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return h % NBUCKETS;
}

struct selector *select_new(const struct settings *s)
{
	struct selector *sel = calloc(1, sizeof(*sel));

	if (sel)
		sel->s = s;
	return sel;
}

void select_free(struct selector *sel)
{
	if (!sel)
		return;
	for (int i = 0; i < NBUCKETS; i++)
		for (struct select_entry *e = sel->bucket[i], *n; e; e = n) {
			n = e->next;
			free(e);
		}
	free(sel);
}

int select_wants_object(const struct selector *sel, enum counter_object obj)
{
	for (size_t i = 0; i < sel->s->nsel; i++)
		if (sel->s->sel[i].path.def->object == obj)
			return 1;
	return 0;
}

static void decide(const struct settings *s, struct select_entry *e)
{
	for (size_t i = 0; i < s->nsel; i++) {
		const struct counter_path *p = &s->sel[i].path;
		int idx = p->def->index, dup = 0;

		if (p->def->object != e->object)
			continue;
		if (strcmp(p->instance, "*") != 0 && p->instance[0] &&
		    strcasecmp(p->instance, e->instance) != 0)
			continue;
		if (strcmp(p->instance, "*") != 0)
			e->named = 1;
		for (int j = 0; j < e->ncounters; j++)
			if (e->counters[j] == idx)
				dup = 1;
		if (!dup && e->ncounters < CATALOG_MAX_PER_OBJECT)
			e->counters[e->ncounters++] = idx;
	}
}

struct select_entry *select_get(struct selector *sel,
				enum counter_object obj, const char *instance)
{
	unsigned h = hash(obj, instance);
	struct select_entry *e;

	for (e = sel->bucket[h]; e; e = e->next)
		if (e->object == obj && !strcmp(e->instance, instance))
			return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->object = obj;
	util_strlcpy(e->instance, instance, sizeof(e->instance));
	decide(sel->s, e);
	e->next = sel->bucket[h];
	sel->bucket[h] = e;
	return e;
}
