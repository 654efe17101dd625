/*
 * fixtures.h - the unit tests' reader of tests/fixtures/clients/ (the
 * captured backup client outputs), shared by test_summary and
 * test_clients, and a writer of scratch trees (test_cgstat,
 * test_waitsampler). FIXTURES may be set at build time; by default the tests
 * run from the top of the tree.
 */
#ifndef PERFLOG_TEST_FIXTURES_H
#define PERFLOG_TEST_FIXTURES_H

#include <stdio.h>
#include <string.h>

#include "../../common/util.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures"
#endif

/* tests/fixtures/clients/NAME, whole; NULL (said on stdout) when it
 * cannot be read. */
static inline char *load(const char *name, size_t *len)
{
	char path[256];
	snprintf(path, sizeof(path), FIXTURES "/clients/%s", name);
	char *t = util_read_file(path, len);
	if (!t)
		printf("# cannot read %s\n", path);
	return t;
}

/* Write text to ROOT/REL (a scratch /proc or cgroup tree), its
 * directories made first. A file that cannot be written is said on
 * stdout: silent, it changed what a test tested (test_waitsfirst's
 * proc/uptime, written before proc/ existed: every thread born "now"). */
static inline void fixture_put(const char *root, const char *rel,
			       const char *text)
{
	char path[256], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if ((slash = strrchr(path, '/')) && slash != path) {
		*slash = '\0';
		util_mkdirs(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	} else {
		printf("# fixture_put: cannot write %s\n", path);
	}
}

#endif
