/*
 * test_waitforget.c - a far end that ended is looked at once (waits/
 * waitpeer.c waitpeer_forget), on a copy of tests/fixtures/proc/waits1:
 * 703 (watched) reads a pipe whose writer is another process. A cached
 * answer was given only after a look at ROOT/proc/PID of the process it
 * names, each hit a system call; and a writer found gone by the look of
 * a waiter that has not run (waitthread.c far_end_gone) was looked at
 * again at once by that answer's hit. Now the sampler says a far end
 * ended (that look, or its own end of a process it reads: the set's, a
 * peer's) and the answers naming it are forgotten; a new pipe at the
 * same descriptor is not the memo's (test_new_pipe), and its writer, a
 * child of the waiter's, is found at once (test_new_pipe_child).
 *
 * The looks are counted here: this file's faccessat stands before the C
 * library's for the whole program, the library's calls too, and counts
 * those at a process's directory (the path its pid alone, below the
 * fake root's proc).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../waits/waits.h"
#include "fixtures.h"
#include "tap.h"
#include "waitsnap.h"

static char root[64];
static const char *look_pid;	/* whose looks are counted */
static int looks;

int faccessat(int dirfd, const char *path, int mode, int flags)
{
	if (look_pid && !strcmp(path, look_pid))
		looks++;
	if (flags)	/* (the library's calls pass none) */
		return (int)syscall(SYS_faccessat2, dirfd, path, mode, flags);
	return (int)syscall(SYS_faccessat, dirfd, path, mode);
}

/* 703 blocked reading its fd 13, a pipe:[ino] (no other thread of
 * the fixture's reads it); it has run since the last tick when runs
 * (its schedstat's run count) has grown. */
static void reads_pipe(unsigned ino, unsigned runs)
{
	char link[32], text[64];

	snprintf(link, sizeof(link), "pipe:[%u]", ino);
	fixture_fd(root, 700, 13, link, 0);
	snap_put(root, 703, "wchan", "pipe_read");
	snap_put(root, 703, "syscall", "0 0xd 0x7f0000001000 0x10000 0x0 0x0 0x0 0x7ffc00000000 0x7f0000002000");
	snprintf(text, sizeof(text), "20000000 1000000000 %u\n", runs);
	snap_put(root, 703, "schedstat", text);
}

/* Process pid (comm) holds the writing end of pipe:[ino] at its fd 3. */
static void writer(int pid, const char *comm, unsigned ino)
{
	char link[32];

	snprintf(link, sizeof(link), "pipe:[%u]", ino);
	fixture_process(root, pid, comm);
	fixture_fd(root, pid, 3, link, O_WRONLY);
}

static void gone(int pid)
{
	char rel[32];

	snprintf(rel, sizeof(rel), "proc/%d", pid);
	fixture_remove(root, rel);
}

/* The ticks of 703's edges to command comm by command (no pid: its
 * own children's) in read s. */
static double ticks_on_command(const struct waits_snap *s, const char *comm)
{
	const struct waits_thread *t = snap_find(s, 703);
	double n = 0;

	for (int k = 0; t && k < WAITS_EDGES; k++)
		if (t->edge[k].id != WAITS_NO_EDGE && t->edge[k].id < s->nkeys &&
		    s->keys[t->edge[k].id].peer_pid == 0 &&
		    !strcmp(s->keys[t->edge[k].id].peer_comm, comm))
			n += t->edge[k].ticks;
	return n;
}

/* The ticks of 703's edges to process pid in read s. */
static double ticks_on(const struct waits_snap *s, pid_t pid)
{
	const struct waits_thread *t = snap_find(s, 703);
	double n = 0;

	for (int k = 0; t && k < WAITS_EDGES; k++)
		if (t->edge[k].id != WAITS_NO_EDGE && t->edge[k].id < s->nkeys &&
		    s->keys[t->edge[k].id].peer_pid == pid)
			n += t->edge[k].ticks;
	return n;
}

/* The sampler on the scratch root, watching process 700 (703's); NULL
 * when it cannot open. */
static struct waits *watching_700(void)
{
	struct perr e;
	pid_t pid = 700;
	struct waits *w = waits_open(root, &e);

	if (w)
		waits_watch_pids(w, &pid, 1, &e);
	return w;
}

/* 703's ticks on processes a and b in read s, to the test's output. */
static void show_ticks(const struct waits_snap *s, pid_t a, pid_t b)
{
	printf("#   on %d %.1f, on %d %.1f\n", (int)a, ticks_on(s, a), (int)b,
	       ticks_on(s, b));
}

/* A waiter that does not run: its far end's end is seen by its own
 * look (far_end_gone), once; the probe then gets a new answer with no
 * second look (there were two, the cached answer's hit looked again). */
static void test_not_run(void)
{
	struct waits *w;
	struct waits_snap s = { 0 };

	reads_pipe(4101, 40);
	writer(607, "sub", 4101);
	if (!(w = watching_700()))
		return;
	waits_tick(w, 9000.0);
	gone(607);
	writer(608, "cmd", 4101);
	look_pid = "607";
	looks = 0;
	waits_tick(w, 9002.0);	/* not run since */
	EQ_INT(looks, 1, "not run: the gone writer looked at once in the tick that finds it gone");
	EQ_INT(waits_read(w, 9002.0, &s), 0, "not run: read");
	OK(ticks_on(&s, 607) == 1 && ticks_on(&s, 608) == 1,
	   "not run: that tick on the writer that holds the pipe now");
	printf("#   looks at 607: %d; on 607 %.1f, on 608 %.1f\n", looks,
	       ticks_on(&s, 607), ticks_on(&s, 608));
	look_pid = NULL;
	waits_snap_free(&s);
	waits_close(w);
}

/* A waiter that runs between ticks is probed anew each memo second, its
 * far end's answer given from the cache with no look; the writer, a
 * peer the sampler reads (named by 703's edge), ends: the sampler's own
 * end of it forgets the answers naming it, and the next probe names the
 * writer now. */
static void test_runs(void)
{
	struct waits *w;
	struct waits_snap s = { 0 };
	unsigned n = 50;

	reads_pipe(4102, n);
	writer(609, "sub", 4102);
	fixture_thread(root, 609, 609, 609, "sub", 'S', 1, 1000000, 1000, 5);
	fixture_put(root, "proc/609/task/609/wchan", "hrtimer_nanosleep");
	if (!(w = watching_700()))
		return;
	look_pid = "609";
	looks = 0;
	waits_tick(w, 9100.0);	/* the answer made: 609 */
	reads_pipe(4102, ++n);
	waits_tick(w, 9100.5);	/* 609 read from here, a peer */
	reads_pipe(4102, ++n);
	waits_tick(w, 9101.2);	/* the memo's second past: a hit */
	EQ_INT(looks, 0, "runs: a cached answer given with no look at its process");
	gone(609);
	writer(610, "cmd", 4102);
	reads_pipe(4102, ++n);
	waits_tick(w, 9102.4);
	EQ_INT(waits_read(w, 9102.4, &s), 0, "runs: read");
	OK(ticks_on(&s, 610) == 1,
	   "runs: the writer ended, the tick after on the one that holds it now");
	printf("#   looks at 609: %d; on 609 %.1f, on 610 %.1f\n", looks,
	       ticks_on(&s, 609), ticks_on(&s, 610));
	look_pid = NULL;
	waits_snap_free(&s);
	waits_close(w);
}

/* A shell's $(cmd) in a loop: it reads a new pipe at the same
 * descriptor for each command, in the same call with the same arguments
 * (read(13, buf, 64K)); the memo answered for a second with the first
 * command's pipe and its writer, which had ended (t7771's quota loop:
 * one date alive 0.08 s was waited on 2.0 s). The memo holds only while
 * the descriptor is the same pipe. */
static void test_new_pipe(void)
{
	struct waits *w;
	struct waits_snap s = { 0 };
	unsigned n = 70;

	reads_pipe(4201, n);
	writer(611, "date", 4201);
	if (!(w = watching_700()))
		return;
	waits_tick(w, 9200.0);	/* the memo made: 611's pipe */
	writer(612, "date", 4202);
	reads_pipe(4202, ++n);	/* ran: the next $(date), a new pipe */
	waits_tick(w, 9200.3);	/* within the memo's second */
	EQ_INT(waits_read(w, 9200.3, &s), 0, "new pipe: read");
	/* (its writer is found at the fd tables' next look, a second
	 * after the last: the tick is held until then) */
	EQ_DBL(ticks_on(&s, 611), 1, 0, "new pipe: the tick after not on the memo's writer");
	show_ticks(&s, 611, 612);
	reads_pipe(4202, ++n);
	waits_tick(w, 9201.3);
	EQ_INT(waits_read(w, 9201.3, &s), 0, "new pipe: read again");
	OK(ticks_on(&s, 611) == 1 && ticks_on(&s, 612) >= 1,
	   "new pipe: then on the new pipe's writer");
	show_ticks(&s, 611, 612);
	waits_snap_free(&s);
	waits_close(w);
}

/* The same loop as the shell runs it: each $(date)'s writer is its own
 * child. A pipe the fd tables' last look did not see is looked for in
 * the waiter's children's tables at once: the tick is on the new date,
 * not held until the next look (then given to whichever date held the
 * newest pipe: t7771's loop, a date alive 0.08 s waited on 1.7 s). */
static void test_new_pipe_child(void)
{
	struct waits *w;
	struct waits_snap s = { 0 };
	unsigned n = 90;

	reads_pipe(4301, n);
	writer(621, "date", 4301);
	fixture_put(root, "proc/700/task/703/children", "621 ");
	if (!(w = watching_700()))
		return;
	waits_tick(w, 9300.0);
	fixture_remove(root, "proc/621");
	writer(622, "date", 4302);
	fixture_put(root, "proc/700/task/703/children", "622 ");
	reads_pipe(4302, ++n);
	waits_tick(w, 9300.3);	/* no look at the fd tables due */
	EQ_INT(waits_read(w, 9300.3, &s), 0, "new pipe, a child's: read");
	OK(ticks_on(&s, 621) == 1 && ticks_on(&s, 622) == 1,
	   "new pipe, a child's: the tick after on the child that holds it now");
	show_ticks(&s, 621, 622);
	waits_snap_free(&s);
	/* its stat says so too (ppid 703, the waiter as the sampler
	 * knows it): a wait on that command, as a
	 * wait4 on children is, one edge for the loop's dates, not one a
	 * date (a thread's WAITS_EDGES slots gave way to each new one) */
	fixture_remove(root, "proc/622");
	writer(623, "date", 4303);
	fixture_put(root, "proc/623/stat",
		    "623 (date) R 703 623 623 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5000 0 0 0\n");
	fixture_put(root, "proc/700/task/703/children", "623 ");
	reads_pipe(4303, ++n);
	waits_tick(w, 9300.6);
	EQ_INT(waits_read(w, 9300.6, &s), 0, "new pipe, a child's: read again");
	OK(ticks_on(&s, 623) == 0 && ticks_on_command(&s, "date") == 1,
	   "new pipe, a child's: the tick on its command, no pid");
	printf("#   on 623 %.1f, on date %.1f\n", ticks_on(&s, 623),
	       ticks_on_command(&s, "date"));
	fixture_remove(root, "proc/700/task/703/children");
	waits_snap_free(&s);
	waits_close(w);
}

int main(void)
{
	OK(snap_root(root, sizeof(root)) == 0, "fixture copied to a scratch root");
#ifdef __x86_64__
	test_not_run();
	test_runs();
	test_new_pipe();
	test_new_pipe_child();
#else
	OK(1, "# SKIP the fixture's syscall files are x86_64 numbers");
#endif
	OK(rmtree(root) == 0, "scratch root removed");
	return done_testing();
}
