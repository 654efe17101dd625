/*
 * procroot.h - the unit tests' reader of fixture roots (a fake / for
 * procfs_open), its writer and the reader of a sample's values, shared
 * by test_rates, test_targets, test_procfs and test_procfs_speed.
 */
#ifndef PERFLOG_TEST_PROCROOT_H
#define PERFLOG_TEST_PROCROOT_H

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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

/* Write text to DIR/REL, making REL's folders: 0, or -1. */
static inline int root_write(const char *dir, const char *rel,
			     const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *c = path + strlen(dir) + 1; *c; c++)
		if (*c == '/') {
			*c = '\0';
			mkdir(path, 0755);
			*c = '/';
		}
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

#endif
