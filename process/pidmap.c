/*
 * pidmap.c - a set of task ids (pidmap.h).
 */
#include "pidmap.h"

#include <stdint.h>
#include <stdlib.h>

static size_t home(pid_t id, size_t cap)
{
	/* Fibonacci hashing: consecutive pids spread over the table */
	return (size_t)(((uint32_t)id * 2654435769u) >> 7) & (cap - 1);
}

struct pidmap_entry *pidmap_get(const struct pidmap *m, pid_t id)
{
	if (!m->cap || id <= 0)
		return NULL;
	for (size_t i = home(id, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->slot[i].id == id)
			return &m->slot[i];
		if (!m->slot[i].id)
			return NULL;
	}
}

/* Place e in a table known to have room and not to hold e->id. */
static struct pidmap_entry *place(struct pidmap_entry *slot, size_t cap,
				  const struct pidmap_entry *e)
{
	size_t i = home(e->id, cap);

	while (slot[i].id)
		i = (i + 1) & (cap - 1);
	slot[i] = *e;
	return &slot[i];
}

/* A table of cap slots holding the entries of m kept by oldest. */
static int rebuild(struct pidmap *m, size_t cap, unsigned oldest, int all)
{
	struct pidmap_entry *s = calloc(cap, sizeof(*s));
	size_t n = 0;

	if (!s)
		return -1;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slot[i].id && (all || m->slot[i].gen >= oldest)) {
			place(s, cap, &m->slot[i]);
			n++;
		}
	free(m->slot);
	m->slot = s;
	m->cap = cap;
	m->n = n;
	return 0;
}

struct pidmap_entry *pidmap_put(struct pidmap *m, pid_t id)
{
	struct pidmap_entry *e = pidmap_get(m, id), fresh = { .id = id };

	if (e || id <= 0)
		return e;
	if ((m->n + 1) * 2 > m->cap) {
		if (m->cap > SIZE_MAX / 4 / sizeof(*m->slot) ||
		    rebuild(m, m->cap ? m->cap * 2 : 64, 0, 1) < 0)
			return NULL;
	}
	m->n++;
	return place(m->slot, m->cap, &fresh);
}

void pidmap_expire(struct pidmap *m, unsigned oldest)
{
	size_t cap = m->cap, keep = 0;

	if (!m->n)
		return;
	for (size_t i = 0; i < m->cap; i++)
		keep += m->slot[i].id && m->slot[i].gen >= oldest;
	if (keep == m->n)
		return;
	/* shrink when a burst is over, never below the first size */
	while (cap > 64 && keep * 8 < cap)
		cap /= 2;
	/* out of memory: the table stays as it was, all of it */
	(void)rebuild(m, cap, oldest, 0);
}

void pidmap_free(struct pidmap *m)
{
	free(m->slot);
	m->slot = NULL;
	m->n = m->cap = 0;
}
