/*
 * fill.h - for the tools and unit tests that write crafted log sets
 * through the real writer (mklogset, test_chartset): an object instance
 * with every counter of its object, and one value into a sample.
 */
#ifndef PERFLOG_TESTS_FILL_H
#define PERFLOG_TESTS_FILL_H

#include <stdio.h>

#include "../../counters/catalog.h"
#include "../../counters/rates.h"
#include "../../logs/logset.h"

/* Add instance inst of obj with all its counters; complains on stderr. */
static inline int fill_add_object(struct logset_writer *w,
				  enum counter_object obj, const char *inst)
{
	int idx[CATALOG_MAX_PER_OBJECT];
	int n = catalog_objects[obj].ncounters;
	struct perr e;

	for (int i = 0; i < n; i++)
		idx[i] = i;
	if (logset_add_instance(w, obj, inst, idx, (size_t)n, &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		return -1;
	}
	return 0;
}

/* Counter id of instance inst = v in sample s (the instance added to s
 * when it is not there yet). */
static inline void fill_value(struct sample *s, enum counter_object obj,
			      const char *inst, enum counter_id id, double v)
{
	struct instance_values *iv = sample_find(s, obj, inst);

	if (!iv)
		iv = sample_add(s, obj, inst);
	if (iv)
		iv->v[catalog_counters[id].index] = v;
}

#endif
