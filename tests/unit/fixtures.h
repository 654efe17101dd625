/*
 * fixtures.h - the unit tests' reader of tests/fixtures/clients/ (the
 * captured backup client outputs), shared by test_summary and
 * test_clients, and a writer of scratch trees (test_cgstat,
 * test_waitsampler; a process's descriptors and doings for the far ends
 * of waits: test_waitpeer, test_waitholder, test_waitrelay,
 * test_waitforget), and its remover: a part of a scratch tree taken away
 * mid-test (a process that ended: test_process_books, test_waitforget,
 * test_waitpoll). FIXTURES may be set at build time; by default the
 * tests run from the top of the tree.
 */
#ifndef PERFLOG_TEST_FIXTURES_H
#define PERFLOG_TEST_FIXTURES_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/rmtree.h"
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

/* Remove ROOT/REL and all under it (a process of a scratch /proc that
 * ends mid-test), as fixture_put writes it: 0, or -1 (said on stdout). */
static inline int fixture_remove(const char *root, const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (rmtree(path) == 0)
		return 0;
	printf("# fixture_remove: cannot remove %s: %s\n", path, strerror(errno));
	return -1;
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

/* Descriptor fd of process pid in ROOT/proc: a link to target (a
 * "pipe:[N]" text, or a path: a real FIFO made in the scratch tree is
 * what a stat through the link then finds, as a stat of /proc/PID/fd/N
 * reaches the open file), made anew, and its fdinfo's flags. */
static inline void fixture_fd(const char *root, int pid, int fd,
			      const char *target, int flags)
{
	char path[256], info[64];

	snprintf(path, sizeof(path), "%s/proc/%d/fd/%d", root, pid, fd);
	unlink(path);
	if (symlink(target, path) < 0)
		printf("# symlink %s: failed\n", path);
	snprintf(path, sizeof(path), "proc/%d/fdinfo/%d", pid, fd);
	snprintf(info, sizeof(info), "pos:\t0\nflags:\t%o\nmnt_id:\t9\n", flags);
	fixture_put(root, path, info);
}

/* Process pid of ROOT/proc named comm: its fd, fdinfo and net
 * directories (empty) and its comm. */
static inline void fixture_process(const char *root, int pid,
				   const char *comm)
{
	static const char *const sub[] = { "", "/fd", "/fdinfo", "/net" };
	char rel[64], text[32];

	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		snprintf(rel, sizeof(rel), "%s/proc/%d%s", root, pid, sub[i]);
		util_mkdirs(rel, 0755);
	}
	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	snprintf(text, sizeof(text), "%s\n", comm);
	fixture_put(root, rel, text);
}

/* Process pid of ROOT/proc doing something: its main thread's state and
 * wait channel (waits/waitactive.h), and its children ("720 710 "). */
static inline void fixture_doing(const char *root, int pid, char state,
				 const char *wchan, const char *kids)
{
	char rel[64], text[160];

	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	snprintf(text, sizeof(text),
		 "%d (x) %c 1 %d %d 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5000 0 0 0\n",
		 pid, state, pid, pid);
	fixture_put(root, rel, text);
	snprintf(rel, sizeof(rel), "proc/%d/wchan", pid);
	fixture_put(root, rel, wchan);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/children", pid, pid);
	fixture_put(root, rel, kids);
}

#endif
