/* lookup.c - see lookup.h. */
#include "lookup.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

long lookup_counter(const struct logset_meta *m, enum counter_id id,
		    const char *inst)
{
	for (size_t i = 0; i < m->ncounters; i++) {
		const struct logset_counter *c = &m->counters[i];

		if (c->def && c->def->id == id && !strcmp(c->instance, inst))
			return (long)i;
	}
	return -1;
}

const char *lookup_process(const struct logset_meta *m, const char *session)
{
	const char *only = NULL;
	int n = 0;

	for (size_t i = 0; i < m->ncounters; i++) {
		const struct logset_counter *c = &m->counters[i];

		if (!c->def || c->def->id != CTR_PROC_PROCESSOR_TIME)
			continue;
		if (session && !strcmp(c->instance, session))
			return c->instance;
		only = c->instance;
		n++;
	}
	return n == 1 ? only : NULL;
}

int lookup_is_loopback(const char *n)
{
	if (strncmp(n, "lo", 2))
		return 0;
	for (n += 2; *n; n++)
		if (*n < '0' || *n > '9')
			return 0;
	return 1;
}

static int is_total(const struct logset_counter *c)
{
	return !strcmp(c->instance, "_Total");
}

/* Mean of the known values of column col, NAN when none. */
static double col_mean(const struct logset_series *s, size_t col)
{
	double sum = 0;
	size_t k = 0;

	for (size_t r = 0; r < s->rows; r++) {
		double v = s->values[r * s->ncols + col];

		if (!isnan(v)) {
			sum += v;
			k++;
		}
	}
	return k ? sum / (double)k : NAN;
}

/* Sort key: known means first, busiest first; idle loopback and unknown
 * last. */
static double key(const struct logset_meta *m, const struct lookup_rank *r)
{
	if (isnan(r->mean))
		return -2;
	if (r->mean <= 0 && lookup_is_loopback(m->counters[r->idx].instance))
		return -1;
	return r->mean;
}

/* A stable selection of the max busiest of all[0..n) into out (all is
 * reordered); how many. */
static long select_busiest(const struct logset_meta *m,
			   struct lookup_rank *all, size_t n,
			   struct lookup_rank *out, size_t max)
{
	size_t got = 0;

	for (; got < max && got < n; got++) {
		size_t best = got;

		for (size_t i = got + 1; i < n; i++)
			if (key(m, &all[i]) > key(m, &all[best]))
				best = i;
		struct lookup_rank t = all[best];
		memmove(all + got + 1, all + got, (best - got) * sizeof(*all));
		all[got] = t;
		out[got] = t;
	}
	return (long)got;
}

/* Whether counter c is one of id's instances lookup_busiest ranks. */
static int ranked(const struct logset_counter *c, enum counter_id id)
{
	return c->def && c->def->id == id && !is_total(c);
}

long lookup_busiest_in(const struct logset_meta *m, enum counter_id id,
		       const struct logset_series *s, const long *col,
		       struct lookup_rank *out, size_t max)
{
	struct lookup_rank *all = malloc((m->ncounters + 1) * sizeof(*all));
	size_t n = 0;

	if (!all)
		return -1;
	for (size_t i = 0; i < m->ncounters; i++)
		if (ranked(&m->counters[i], id))
			all[n++] = (struct lookup_rank){ i, col[i] < 0 ? NAN :
						col_mean(s, (size_t)col[i]) };
	long got = select_busiest(m, all, n, out, max);
	free(all);
	return got;
}

long lookup_busiest(struct logset *ls, enum counter_id id, time_t from,
		    time_t to, unsigned long res, struct lookup_rank *out,
		    size_t max)
{
	const struct logset_meta *m = logset_meta(ls);
	struct lookup_rank *all = malloc((m->ncounters + 1) * sizeof(*all));
	size_t *idx = malloc((m->ncounters + 1) * sizeof(*idx));
	struct logset_series s;
	struct perr e;
	size_t n = 0;

	if (!all || !idx) {
		free(all);
		free(idx);
		return -1;
	}
	for (size_t i = 0; i < m->ncounters; i++)
		if (ranked(&m->counters[i], id))
			idx[n++] = i;
	for (size_t i = 0; i < n; i++)
		all[i] = (struct lookup_rank){ idx[i], NAN };
	if (n && logset_fetch(ls, idx, n, from, to, "AVERAGE", res, &s,
			      &e) == 0) {
		for (size_t i = 0; i < n; i++)
			all[i].mean = col_mean(&s, i);
		logset_series_free(&s);
	}
	long got = select_busiest(m, all, n, out, max);
	free(all);
	free(idx);
	return got;
}

/* The instance CI_TOTAL_ELSE_TOP stands for. */
static const char *total_else_top(const struct logset_meta *m,
				  const struct chart_series *s,
				  const size_t *rank, size_t nrank)
{
	if (lookup_counter(m, s->ctr, "_Total") >= 0)
		return "_Total";
	if (rank)
		return nrank ? m->counters[rank[0]].instance : NULL;
	for (size_t i = 0; i < m->ncounters; i++)
		if (m->counters[i].def && m->counters[i].def->id == s->ctr)
			return m->counters[i].instance;
	return NULL;
}

static size_t add_hit(const struct logset_meta *m, const struct chart_series *s,
		      const char *inst, struct lookup_hit *out, size_t n,
		      size_t max)
{
	long i = inst ? lookup_counter(m, s->ctr, inst) : -1;

	if (i < 0 || n >= max)
		return n;
	out[n].idx = (size_t)i;
	out[n].instance = m->counters[i].instance;
	out[n].ref = s->has_ref ? lookup_counter(m, s->ref, inst) : -1;
	return n + 1;
}

size_t lookup_series(const struct logset_meta *m, const struct chart_series *s,
		     const size_t *rank, size_t nrank, struct lookup_hit *out,
		     size_t max)
{
	size_t n = 0;

	switch (s->inst) {
	case CI_NONE:
		return add_hit(m, s, "", out, 0, max);
	case CI_TOTAL:
		return add_hit(m, s, "_Total", out, 0, max);
	case CI_TOTAL_ELSE_TOP:
		return add_hit(m, s, total_else_top(m, s, rank, nrank), out, 0,
			       max);
	case CI_NAMED:
		return add_hit(m, s, s->instance, out, 0, max);
	case CI_EACH:
		if (rank) {
			for (size_t k = 0; k < nrank; k++)
				n = add_hit(m, s, m->counters[rank[k]].instance,
					    out, n, max);
			return n;
		}
		for (size_t i = 0; i < m->ncounters; i++) {
			const struct logset_counter *c = &m->counters[i];

			if (c->def && c->def->id == s->ctr && !is_total(c))
				n = add_hit(m, s, c->instance, out, n, max);
		}
		return n;
	}
	return 0;
}
