/*
 * test_procfs_absent.c - where backups land costs nothing while absent
 * (sources/procfs_absent.c, issue 30): on a root that behaves as a live
 * one (absent_retry set), a part that found nothing is not looked for
 * again at the next read, only after its retry or a mount table change
 * (procfs_absent_forget); a part that found something is read at every
 * read; a live root polls its mount table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../sources/procfs_int.h"
#include "tap.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures/targets"
#endif

static char root[64];

/* Copy part rel (a folder) of the t1 fixture into the root: 0 or not. */
static int add(const char *rel, const char *into)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/%s && cp -r %s/%s %s/%s",
		 root, into, FIXTURES "/t1", rel, root, into);
	return system(cmd);
}

/* Empty file rel under the root. */
static int empty(const char *rel)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), ": > %s/%s", root, rel);
	return system(cmd);
}

static int counts(struct procfs *p, struct raw_snapshot *s, size_t *n)
{
	struct perr e = { "" };
	int rc = procfs_read(p, s, &e);

	n[0] = s->nnfs;
	n[1] = s->ncifs;
	n[2] = s->ntapes;
	n[3] = s->nfcs;
	return rc;
}

static void test_fixture(void)
{
	struct raw_snapshot s = { 0 };
	struct perr e = { "" };
	struct procfs *p;
	size_t n[4];

	snprintf(root, sizeof(root), "/tmp/perflog-absent.%ld", (long)getpid());
	OK(add("proc/stat", "proc") == 0, "a root with proc/stat only");
	p = procfs_open(root, &e);
	OK(p != NULL, "it opens");
	if (!p)
		return;
	EQ_INT((long)p->absent_retry, 0, "a fixture root looks at every read");
	p->absent_retry = 3600;	/* as a live root, with a long retry */
	OK(counts(p, &s, n) == 0 && !n[0] && !n[1] && !n[2] && !n[3],
	   "nothing of NFS, CIFS, tape or FC");
	OK(add("proc/self", "proc") == 0 && add("proc/fs", "proc") == 0 &&
	   add("sys", ".") == 0,
	   "mounts, shares, drives and ports appear");
	OK(counts(p, &s, n) == 0 && !n[0] && !n[1] && !n[2] && !n[3],
	   "not looked for at the next read (absent: before the retry)");
	procfs_absent_forget(p);	/* the mount table changed */
	OK(counts(p, &s, n) == 0 && n[0] == 3 && n[1] == 3 && n[2] == 2 &&
	   n[3] > 0, "found at once after a mount table change");
	OK(counts(p, &s, n) == 0 && n[0] == 3 && n[1] == 3 && n[2] == 2 &&
	   n[3] > 0, "present parts are read at every read");
	OK(empty("proc/fs/cifs/Stats") == 0, "the last share unmounted");
	OK(counts(p, &s, n) == 0 && n[1] == 0 && n[0] == 3,
	   "a part that went is seen gone at the next read");
	OK(add("proc/fs", "proc") == 0 && counts(p, &s, n) == 0 && n[1] == 0,
	   "and, absent now, not looked for again before its retry");
	p->next_look[A_CIFS] = 1;	/* the retry is due */
	OK(counts(p, &s, n) == 0 && n[1] == 3, "found when its retry is due");
	procfs_close(p);
	snapshot_free(&s);
	if (rmtree(root) != 0)
		printf("# could not remove %s\n", root);
}

static void test_live(void)
{
	struct raw_snapshot s = { 0 };
	struct perr e = { "" };
	struct procfs *p = procfs_open("/", &e);

	OK(p != NULL, "/ opens");
	if (!p)
		return;
	OK(p->mounts_fd >= 0, "a live root polls proc/self/mounts");
	EQ_INT((long)p->absent_retry, (long)PROCFS_ABSENT_RETRY,
	       "and looks for an absent part every minute");
	OK(procfs_read(p, &s, &e) == 0, "/ reads");
	OK(s.nnfs > 0 ? p->next_look[A_NFS] == 0 : p->next_look[A_NFS] > 0,
	   "NFS: read again next time only when it has mounts");
	procfs_close(p);
	snapshot_free(&s);
}

int main(void)
{
	test_fixture();
	test_live();
	return done_testing();
}
