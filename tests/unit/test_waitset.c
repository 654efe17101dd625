/*
 * test_waitset.c - the watched tasks (waits/waitset.h) on a fixture /proc:
 * a process set lists its processes' threads; a process added by the
 * sampler (a child a watched shell waits for, issue 29) is listed from
 * the next call, once; one already gone is left out; a cgroup's set
 * lists its own and takes no addition.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../waits/waitset.h"
#include "fixtures.h"
#include "tap.h"

static char root[64];

/* ROOT/REL with its directories made */
static void put(const char *rel, const char *text)
{
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/%s", root, rel);
	*strrchr(dir, '/') = '\0';
	if (util_mkdirs(dir, 0755) == 0)
		fixture_put(root, rel, text);
}

/* The listing as "a b c". */
static const char *listed(struct waitset *s)
{
	static char out[256];
	size_t n = 0, len = 0;
	const pid_t *t = waitset_list(s, &n);

	out[0] = '\0';
	for (size_t i = 0; t && i < n && len < sizeof(out); i++)
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%d",
					i ? " " : "", (int)t[i]);
	return out;
}

static void proc(int pid, const int *tids, int n)
{
	char rel[64], text[160];

	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	snprintf(text, sizeof(text),
		 "%d (p) S 1 %d %d 0 -1 0 0 0 0 0 0 0 0 0 20 0 %d 0 5000 0 0 0\n",
		 pid, pid, pid, n);
	put(rel, text);
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", pid, tids[i]);
		put(rel, text);
	}
}

int main(void)
{
	static const int one[] = { 500 }, two[] = { 501, 502 };
	char path[128];
	struct perr e;
	struct waitset *s;
	pid_t pid = 500;
	int procfd;

	snprintf(root, sizeof(root), "/tmp/perflog-waitset-XXXXXX");
	if (!mkdtemp(root))
		return 1;
	proc(500, one, 1);
	proc(501, two, 2);
	snprintf(path, sizeof(path), "%s/proc", root);
	procfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	OK(procfd >= 0, "a fixture /proc");

	s = waitset_pids(procfd, &pid, 1, &e);
	OK(s != NULL, "a set of one process");
	EQ_STR(listed(s), "500", "its thread listed");
	/* the collector hands the same tree in at every sample: kept */
	OK(waitset_same_pids(s, &pid, 1), "the same process: the same set");
	{
		pid_t other[] = { 500, 501 };

		OK(!waitset_same_pids(s, other, 2) &&
		   !waitset_same_pids(s, other + 1, 1) &&
		   !waitset_same_pids(s, NULL, 0),
		   "another list of processes: another set");
	}
	EQ_INT(waitset_add_pid(s, procfd, 501), 0, "a child added");
	OK(!waitset_same_pids(s, &pid, 1),
	   "... a set with an addition is made anew (the child may be gone)");
	EQ_STR(listed(s), "500 501 502", "... its threads listed from the next call");
	EQ_INT(waitset_add_pid(s, procfd, 501), 0, "added again");
	EQ_INT(waitset_add_pid(s, procfd, 500), 0, "a process given added");
	EQ_STR(listed(s), "500 501 502", "... each listed once");
	EQ_INT(waitset_add_pid(s, procfd, 777), 0, "a child gone already");
	EQ_STR(listed(s), "500 501 502", "... left out");
	for (int k = 0; k < 2 * WAITSET_ADDED_MAX; k++)
		waitset_add_pid(s, procfd, 1000 + k);
	snprintf(path, sizeof(path), "proc/%d/task/%d/stat",
		 1000 + 2 * WAITSET_ADDED_MAX + 1, 1000 + 2 * WAITSET_ADDED_MAX + 1);
	put(path, "1 (p) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5000 0 0 0\n");
	waitset_add_pid(s, procfd, 1000 + 2 * WAITSET_ADDED_MAX + 1);
	EQ_STR(listed(s), "500 501 502", "past WAITSET_ADDED_MAX additions, none more");
	waitset_free(s);

	snprintf(path, sizeof(path), "cg/cgroup.threads");
	put(path, "7\n8\n");
	snprintf(path, sizeof(path), "%s/cg", root);
	s = waitset_cgroup(path, &e);
	OK(s != NULL, "a cgroup's set");
	EQ_INT(waitset_add_pid(s, procfd, 501), 0, "an addition to it");
	EQ_STR(listed(s), "7 8", "... changes nothing: the cgroup lists its own");
	waitset_free(s);

	close(procfd);
	OK(rmtree(root) == 0, "scratch root removed");
	return done_testing();
}
