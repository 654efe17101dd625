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

/* A thread of a scratch /proc, in ROOT/proc/DIR/task/TID (DIR: its
 * process, or TID itself, where the sampler reads a thread): a stat of
 * process pid with that comm, state and thread count, started 5000
 * ticks after boot; a schedstat of cpu_ns on a CPU, runq_ns on a run
 * queue, runs times run; a wchan of "0" (running, or not dequeued). */
static inline void fixture_thread(const char *root, int dir, int pid,
				  int tid, const char *comm, char state,
				  int nthreads, unsigned long long cpu_ns,
				  unsigned long long runq_ns,
				  unsigned long long runs)
{
	char rel[96], text[200];

	snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", dir, tid);
	snprintf(text, sizeof(text),
		 "%d (%s) %c 1 %d %d 0 -1 0 0 0 0 0 0 0 0 0 20 0 %d 0 5000 0 0 0\n",
		 tid, comm, state, pid, pid, nthreads);
	fixture_put(root, rel, text);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/schedstat", dir, tid);
	snprintf(text, sizeof(text), "%llu %llu %llu\n", cpu_ns, runq_ns, runs);
	fixture_put(root, rel, text);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/wchan", dir, tid);
	fixture_put(root, rel, "0");
}

#endif
