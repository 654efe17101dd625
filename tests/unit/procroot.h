/*
 * procroot.h - the unit tests' reader of fixture roots (a fake / for
 * procfs_open) and of a sample's values, shared by test_rates and
 * test_targets.
 */
#ifndef PERFLOG_TEST_PROCROOT_H
#define PERFLOG_TEST_PROCROOT_H

#include <stdio.h>

#include "../../counters/rates.h"

/* Read root into s, stamped mono (fixtures are "one second apart" by
 * construction); 0 or -1 (said on stdout). */
static inline int load(const char *root, double mono, struct raw_snapshot *s)
{
	struct perr e = { "" };
	struct procfs *p = procfs_open(root, &e);
	int rc;

	if (!p) {
		printf("# %s\n", e.msg);
		return -1;
	}
	rc = procfs_read(p, s, &e);
	procfs_close(p);
	s->mono = mono;
	return rc;
}

/* The values of an instance, or -1s when it is missing (said). */
static inline const double *vals(const struct sample *s,
				 enum counter_object o, const char *inst)
{
	static const double none[CATALOG_MAX_PER_OBJECT] = {
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
	struct instance_values *iv = sample_find(s, o, inst);

	if (!iv)
		printf("# instance %d '%s' missing\n", (int)o, inst);
	return iv ? iv->v : none;
}

#endif
