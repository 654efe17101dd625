/*
 * test_waitholder.c - who is at the other end of a waited-on pipe or
 * named FIFO (waits/waitpeer_fds.c waitpeer_holder, through
 * waitpeer_resolve), on a scratch /proc whose fd links point at real
 * FIFOs made here (a stat through the link reaches the FIFO, as one of
 * /proc/PID/fd/N reaches the open FIFO):
 *   fifo   head (100) blocked writing a named FIFO that python3 (200)
 *          reads, opened by python3 through a second name (a hard
 *          link): head's edge names python3, python3's names head,
 *          kind pipe. A pipe whose inode number is the FIFO's (another
 *          file system's numbers), held by cat (150), is not it. Before,
 *          a FIFO's link (a path) gave no edge: t3730's unwatched
 *          reader was "nothing (not-seen)" (issue 46)
 *   self   the waiter is never its own far end: a self-pipe (both ends
 *          its own) is its own (WAITPEER_OWN: no process, no edge),
 *          and no scan again for it; a reader the
 *          scan saw alone on its pipe (the writer not forked yet) has
 *          none until the next scan, which names the writer; a shell
 *          waiting on its children, the other holder, does not give way
 *          to the waiter though it holds the end too. Before, each of
 *          these answered the waiter ("head -> head 0.4 s" in an edges
 *          file, issue 46)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../waits/waitpeer.h"
#include "fixtures.h"
#include "tap.h"

static char root[64];
static int procfd = -1;

static int resolve(struct waitpeer *p, int pid, int fd, int dir, double now,
		   struct waitpeer_edge *e)
{
	memset(e, 0, sizeof(*e));
	return waitpeer_resolve(p, pid, pid, fd, NULL, dir, now, e);
}

static unsigned scans(const struct waitpeer *p)
{
	unsigned n, reads;

	waitpeer_stats(p, &n, &reads);
	return n;
}

static void test_fifo(struct waitpeer *p)
{
	char ff[128], alias[128], text[64];
	struct waitpeer_edge e;
	struct stat st;

	snprintf(ff, sizeof(ff), "%s/ff", root);
	snprintf(alias, sizeof(alias), "%s/ff-too", root);
	if (mkfifo(ff, 0600) < 0 || link(ff, alias) < 0 || stat(ff, &st) < 0) {
		OK(0, "fifo: made in the scratch tree");
		return;
	}
	fixture_process(root, 100, "head");
	fixture_process(root, 200, "python3");
	fixture_process(root, 150, "cat");
	fixture_fd(root, 100, 1, ff, O_WRONLY);
	fixture_fd(root, 200, 3, alias, O_RDONLY);
	/* a pipe numbered as the FIFO is, its reading end held by a lower
	 * pid (the first of equals) */
	snprintf(text, sizeof(text), "pipe:[%lu]", (unsigned long)st.st_ino);
	fixture_fd(root, 150, 0, text, O_RDONLY);
	fixture_fd(root, 150, 1, text, O_WRONLY);

	OK(resolve(p, 100, 1, PEER_OUT, 10.0, &e) && e.kind == PEER_PIPE,
	   "fifo: head blocked writing a named FIFO: a wait on a process (pipe)");
	EQ_INT(e.peer_pid, 200, "... its reader, python3 (the FIFO opened "
	       "through another name is the same FIFO)");
	EQ_STR(e.peer_comm, "python3", "... named");
	OK(resolve(p, 200, 3, PEER_IN, 10.1, &e) && e.kind == PEER_PIPE,
	   "fifo: python3 blocked reading it");
	EQ_INT(e.peer_pid, 100, "... its writer, head (not cat, whose pipe's "
	       "inode number is the FIFO's)");
	EQ_INT(resolve(p, 150, 0, PEER_IN, 10.2, &e), WAITPEER_OWN,
	       "fifo: cat's pipe, both ends its own: its own (no FIFO holder "
	       "named for it)");
	EQ_INT(e.peer_pid, 0, "... no process");
}

static void test_self(struct waitpeer *p)
{
	struct waitpeer_edge e;
	unsigned s0;

	/* a self-pipe: an event loop's wake-up, both ends the waiter's */
	fixture_process(root, 400, "loop");
	fixture_fd(root, 400, 3, "pipe:[9001]", O_RDONLY);
	fixture_fd(root, 400, 4, "pipe:[9001]", O_WRONLY);
	EQ_INT(resolve(p, 400, 3, PEER_IN, 20.0, &e), WAITPEER_OWN,
	       "self: a self-pipe waited on: the waiter's own end");
	OK(e.kind == PEER_PIPE && e.peer_pid == 0,
	   "... a pipe, no far end: not the waiter itself");
	s0 = scans(p);
	EQ_INT(resolve(p, 400, 3, PEER_IN, 20.0 + 3 * WAITPEER_RESCAN_SEC, &e),
	       WAITPEER_OWN, "... asked again later: its own still");
	EQ_INT(e.peer_pid, 0, "... no process");
	EQ_INT((int)(scans(p) - s0), 0, "... and no scan again for it (held "
	       "by it alone, as the last scan saw)");

	/* cat reads a pipe the scan saw it alone on: its writer, forked
	 * after, is found by the next scan, and until then nobody is */
	fixture_process(root, 500, "cat");
	fixture_fd(root, 500, 0, "pipe:[9002]", O_RDONLY);
	s0 = scans(p);
	EQ_INT(resolve(p, 500, 0, PEER_IN, 30.0, &e), 1,
	   "alone: a pipe no scan knew, cat alone on it: a wait on a process");
	EQ_INT((int)(scans(p) - s0), 1, "... scanned for");
	EQ_INT(e.peer_pid, 0, "... no writer seen: not found yet, not cat "
	       "itself");
	fixture_process(root, 510, "head");
	fixture_fd(root, 510, 1, "pipe:[9002]", O_WRONLY);
	resolve(p, 500, 0, PEER_IN, 30.5, &e);
	EQ_INT(e.peer_pid, 0, "... its writer forked since, within the scan's "
	       "second: none yet");
	resolve(p, 500, 0, PEER_IN, 30.0 + WAITPEER_RESCAN_SEC + 0.1, &e);
	EQ_INT(e.peer_pid, 510, "... a second later, scanned again: head");
	EQ_STR(e.peer_comm, "head", "... named");
	EQ_INT((int)(scans(p) - s0), 2, "... one scan more");

	/* the other holder a shell waiting on its children, among them
	 * the waiter, which holds the write end too (left open) */
	fixture_process(root, 600, "sh");
	fixture_process(root, 610, "cat");
	fixture_doing(root, 600, 'S', "do_wait", "610\n");
	fixture_doing(root, 610, 'S', "pipe_read", "");
	fixture_fd(root, 600, 1, "pipe:[9003]", O_WRONLY);
	fixture_fd(root, 610, 0, "pipe:[9003]", O_RDONLY);
	fixture_fd(root, 610, 5, "pipe:[9003]", O_WRONLY);
	resolve(p, 610, 0, PEER_IN, 40.0, &e);
	EQ_INT(e.peer_pid, 600, "child: a shell holding the write end, its "
	       "child the waiter: the shell, not the waiter as its busiest "
	       "child");
}

int main(void)
{
	char path[128];
	struct waitpeer *p;

	snprintf(root, sizeof(root), "/tmp/perflog-holder-XXXXXX");
	if (!mkdtemp(root)) {
		OK(0, "a scratch root");
		return done_testing();
	}
	snprintf(path, sizeof(path), "%s/proc", root);
	util_mkdirs(path, 0755);
	procfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	p = procfd >= 0 ? waitpeer_open(procfd, 0) : NULL;
	OK(p != NULL, "a resolver on the scratch /proc");
	if (p) {
		test_fifo(p);
		test_self(p);
		waitpeer_close(p);
	}
	if (procfd >= 0)
		close(procfd);
	if (rmtree(root) != 0)
		printf("# could not remove %s\n", root);
	return done_testing();
}
