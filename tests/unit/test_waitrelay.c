/*
 * test_waitrelay.c - the local peers of a watched set (waits/waitrelay.c,
 * issue 46 item 2), on a scratch /proc: head (800, watched) blocked
 * writing a pipe whose reader is gzip (810, not watched, running). The
 * edge names gzip, and from the next tick its thread is read too, marked
 * peer, its figures from its first read on (its CPU before is no part of
 * the session); the totals give it a row of its own, written with the
 * 15th field "peer" and read back so, in none of the tree's sums nor its
 * Process counters. Once head no longer waits, gzip is read still: an
 * edge of head's names it while head lives. gzip then blocks writing a pipe of its own to ssh
 * (820, not watched either): a peer's edge names a peer, ssh is read
 * too. When head ends, nothing names gzip: PEER_KEEP_SEC later it ends,
 * a row ended, no longer read (ssh PEER_KEEP_SEC after gzip). Before, gzip and ssh were never read: the graph had a
 * vertex of no seconds for them ("not seen").
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../waits/waitrates.h"
#include "../../waits/waits.h"
#include "fixtures.h"
#include "tap.h"
#include "waitsnap.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	fixture_put(root, rel, text);
}

/* A process of one thread: its stat (PID/ and task/TID/), schedstat,
 * wchan, comm, and the directories of its descriptors. */
static void proc_of(int pid, const char *comm, char state, const char *wchan,
		    unsigned long long cpu_ns)
{
	char rel[96], text[200];

	fixture_thread(root, pid, pid, pid, comm, state, 1, cpu_ns, 1000000,
		       cpu_ns / 1000);
	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	snprintf(text, sizeof(text),
		 "%d (%s) %c 1 %d %d 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5000 0 0 0\n",
		 pid, comm, state, pid, pid);
	put(rel, text);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/wchan", pid, pid);
	put(rel, wchan);
	snprintf(rel, sizeof(rel), "proc/%d/wchan", pid);
	put(rel, wchan);
	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	snprintf(text, sizeof(text), "%s\n", comm);
	put(rel, text);
	snprintf(rel, sizeof(rel), "proc/%d/fdinfo/.keep", pid);
	put(rel, "");
	snprintf(rel, sizeof(rel), "proc/%d/fd/.keep", pid);
	put(rel, "");
}

/* Process pid's fd holds link, opened with flags. */
static void link_fd(int pid, int fd, const char *target, int flags)
{
	fixture_fd(root, pid, fd, target, flags);
}

/* Thread pid blocked in write(fd) (x86_64's number), or running. */
static void writes(int pid, int fd, unsigned long long cpu_ns)
{
	char rel[96], text[160];

	snprintf(rel, sizeof(rel), "proc/%d/task/%d/syscall", pid, pid);
	snprintf(text, sizeof(text), "%d 0x%x 0x7f00 0x10000 0x0 0x0 0x0 0x7ffd00 0x7f00\n",
		 (int)SYS_write, fd);
	put(rel, text);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/schedstat", pid, pid);
	snprintf(text, sizeof(text), "%llu 1000000 %llu\n", cpu_ns, cpu_ns / 1000);
	put(rel, text);
}

static void runs(int pid, const char *comm, unsigned long long cpu_ns)
{
	proc_of(pid, comm, 'R', "0", cpu_ns);
}

/* Whether a pipe edge from -> to is a key of s (with seconds in tot,
 * when given). */
static int has_edge(const struct waits_snap *s, const struct waits_totals *tot,
		    pid_t from, pid_t to)
{
	for (size_t k = 0; k < s->nkeys; k++)
		if (s->keys[k].pid == from && s->keys[k].peer_pid == to &&
		    s->keys[k].kind == PEER_PIPE &&
		    (!tot || (k < tot->nedge && tot->edge_sec[k] > 0)))
			return 1;
	return 0;
}

static const struct waits_total *total_of(const struct waits_totals *t,
					  pid_t tid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->t[i].tid == tid)
			return &t->t[i];
	return NULL;
}

int main(void)
{
#ifdef __x86_64__
	struct perr e;
	struct waits *w;
	struct waits_snap s0 = { 0 }, s1 = { 0 }, s2 = { 0 }, s3 = { 0 };
	struct waits_values v;
	struct waits_totals tot = { 0 }, back = { 0 };
	const struct waits_thread *g;
	const struct waits_total *gt;
	size_t threads, working, bad = 0;
	pid_t pid = 800;
	char buf[4096];

	snprintf(root, sizeof(root), "/tmp/perflog-relay-XXXXXX");
	if (!mkdtemp(root))
		return 1;
	/* head writes pipe 4242, gzip reads it and runs: 9 s of CPU
	 * before the session */
	proc_of(800, "head", 'S', "pipe_write", 5000000);
	writes(800, 1, 5000000);
	link_fd(800, 1, "pipe:[4242]", O_WRONLY);
	runs(810, "gzip", 9000000000ULL);
	link_fd(810, 0, "pipe:[4242]", O_RDONLY);
	link_fd(810, 1, "pipe:[4343]", O_WRONLY);
	runs(820, "ssh", 2000000000ULL);
	link_fd(820, 0, "pipe:[4343]", O_RDONLY);

	w = waits_open(root, &e);
	OK(w != NULL, "waits open on the scratch root");
	if (!w)
		return 1;
	EQ_INT(waits_watch_pids(w, &pid, 1, &e), 0, "watch head alone");
	EQ_INT(waits_tick(w, 1000.0), 1, "first tick: head alone");
	EQ_INT(waits_tick(w, 1000.02), 2, "the next: gzip too, named by head's edge");
	EQ_INT(waits_read(w, 1000.02, &s0), 0, "a read");
	g = snap_find(&s0, 810);
	OK(g && g->peer, "gzip is read, marked peer");
	OK(snap_find(&s0, 820) == NULL, "ssh, named by nothing, is not read");
	OK(g && g->cpu_ns == 0, "gzip's CPU counts from its first read (9 s before)");
	OK(!snap_find(&s0, 800)->peer, "head is the set's");

	/* gzip runs 0.4 s more */
	runs(810, "gzip", 9400000000ULL);
	link_fd(810, 0, "pipe:[4242]", O_RDONLY);
	waits_tick(w, 1000.3);
	waits_tick(w, 1000.6);
	EQ_INT(waits_read(w, 1000.6, &s1), 0, "a second read");
	g = snap_find(&s1, 810);
	OK(g && g->cpu_ns == 400000000ULL, "gzip: 0.4 s on a CPU since");
	OK(g && g->ticks[WAIT_RUN] >= 2, "gzip's ticks: running");
	EQ_INT(waitrates_compute(&s0, &s1, &v, &tot), 0, "the interval");
	OK(v.threads > 0.9 && v.threads < 1.1, "the Process counters: head's thread alone");
	OK(v.pct[WS_CPU] < 1, "... no CPU of gzip's in them");
	gt = total_of(&tot, 810);
	OK(gt && gt->peer, "gzip has a row of its own in the totals, a peer's");
	OK(gt && gt->sec[WS_CPU] > 0.39 && gt->sec[WS_CPU] < 0.41,
	   "... its 0.4 s on a CPU");
	OK(has_edge(&s1, &tot, 800, 810), "head waited on gzip, in seconds");
	waitrates_count(&tot, &threads, &working);
	EQ_INT((int)threads, 1, "the tree's threads: head's alone");

	/* the file: gzip's row with a 15th field, read back as a peer's */
	OK(waitrates_format(&tot, buf, sizeof(buf)) < sizeof(buf), "formatted");
	OK(strstr(buf, "\t810\tpeer\n") != NULL, "gzip's line ends in \"peer\"");
	EQ_INT((int)waitrates_parse(buf, strlen(buf), &back, &bad), 2,
	       "both rows read back");
	EQ_INT((int)bad, 0, "none bad");
	gt = total_of(&back, 810);
	OK(gt && gt->peer, "gzip's row read back as a peer's");
	gt = total_of(&back, 800);
	OK(gt && !gt->peer, "head's as the tree's");
	waitrates_count(&back, &threads, &working);
	EQ_INT((int)threads, 1, "read back: the tree's threads, head's alone");
	/* a reader of before: the header's 14 fields; the line is not one */
	{
		char *peer = strstr(buf, "\tpeer\n");
		OK(peer != NULL && strchr(buf, '\n') < peer,
		   "the header has no 15th column (old readers skip the line)");
	}

	/* gzip blocks writing its pipe to ssh: a peer's edge names ssh */
	proc_of(810, "gzip", 'S', "pipe_write", 9500000000ULL);
	writes(810, 1, 9500000000ULL);
	link_fd(810, 0, "pipe:[4242]", O_RDONLY);
	link_fd(810, 1, "pipe:[4343]", O_WRONLY);
	runs(820, "ssh", 2000000000ULL);
	link_fd(820, 0, "pipe:[4343]", O_RDONLY);
	waits_tick(w, 1001.7);
	waits_tick(w, 1001.72);
	waits_tick(w, 1001.9);
	EQ_INT(waits_read(w, 1001.9, &s2), 0, "a third read");
	g = snap_find(&s2, 820);
	OK(g && g->peer, "ssh is read too: gzip's own edge names it");
	OK(has_edge(&s2, NULL, 810, 820), "gzip's edge to ssh is a key");

	/* head runs, no longer waiting: gzip is read still (head's edge
	 * to it names it while head lives: a relay waited on now and then
	 * is read all along) */
	runs(800, "head", 6000000);
	link_fd(800, 1, "pipe:[4242]", O_WRONLY);
	for (double t = 1002.0; t < 1005.0; t += 0.25)
		waits_tick(w, t);
	EQ_INT(waits_tick(w, 1005.0), 3, "head no longer waits: gzip and ssh read still");
	/* head ends (its files empty: a fixture's end, as the kernel's
	 * ESRCH): nothing names gzip; PEER_KEEP_SEC later it ends */
	put("proc/800/task/800/schedstat", "");
	put("proc/800/task/800/stat", "");
	put("proc/800/stat", "");
	for (double t = 1005.25; t < 1007.5; t += 0.25)
		waits_tick(w, t);
	EQ_INT(waits_read(w, 1007.5, &s3), 0, "a read once nothing names gzip");
	g = snap_find(&s3, 810);
	OK(g && !g->alive, "gzip ends: no edge names it");
	OK(snap_find(&s3, 820) && snap_find(&s3, 820)->alive,
	   "ssh is read still: gzip named it until it ended");
	for (double t = 1007.6; t < 1010.0; t += 0.25)
		waits_tick(w, t);
	EQ_INT(waits_tick(w, 1010.0), 0, "then ssh ends too: none is read");

	waitrates_totals_free(&tot);
	waitrates_totals_free(&back);
	waits_snap_free(&s0);
	waits_snap_free(&s1);
	waits_snap_free(&s2);
	waits_snap_free(&s3);
	waits_close(w);
	if (rmtree(root) != 0)
		printf("# cannot remove %s\n", root);
#else
	OK(1, "# SKIP the fixture's syscall files are x86_64 numbers");
#endif
	return done_testing();
}
