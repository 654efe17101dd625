/*
 * sample.c - a sample's storage (rates.h: sample_find, sample_add,
 * sample_reset, sample_free): every instance's values of one interval,
 * reused from sample to sample. Below rates.c and rates_targets.c, which
 * both fill samples.
 */
#include "rates.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct instance_values *sample_find(const struct sample *s,
				    enum counter_object obj,
				    const char *instance)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->inst[i].object == obj &&
		    strcmp(s->inst[i].instance, instance) == 0)
			return &s->inst[i];
	return NULL;
}

struct instance_values *sample_add(struct sample *s, enum counter_object obj,
				   const char *instance)
{
	struct instance_values *iv;

	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 32;
		void *p = realloc(s->inst, ncap * sizeof(*s->inst));

		if (!p)
			return NULL;
		s->inst = p;
		s->cap = ncap;
	}
	iv = &s->inst[s->n++];
	iv->object = obj;
	util_strlcpy(iv->instance, instance, sizeof(iv->instance));
	for (int i = 0; i < CATALOG_MAX_PER_OBJECT; i++)
		iv->v[i] = NAN;
	return iv;
}

void sample_reset(struct sample *s)
{
	s->n = 0;
}

void sample_free(struct sample *s)
{
	free(s->inst);
	s->inst = NULL;
	s->n = s->cap = 0;
}

