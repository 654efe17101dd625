/*
 * test_waitchild.c - the children a thread's wait4 is on (waits/
 * waitthread.c child_wait, issue 46), on a scratch /proc: a shell (960)
 * in wait4(-1) with three children, sleep (961, asleep on a timer, the
 * first listed), head (962, blocked writing a pipe) and gzip (963,
 * running). `sh -c 'sleep 20 & head | gzip'` said the shell waited on
 * sleep, the first of task/TID/children, for its whole wait: its edges
 * now go to head and gzip, the tick split between them. Then the shell
 * waits by pid (wait4(961), a `wait $!`): on sleep alone.
 * A second shell (970) whose wait channel reads 0 while it sleeps in
 * wait4(-1): the kernel says 0 for a sleeper still on its run queue (its
 * dequeue delayed on a busy CPU), so the tick classifies it by its call;
 * that look found wait4 but not the children (the memo kept only calls
 * on descriptors), and t7725's shell, never running again, was 'other'
 * with no edge for its whole wait (1 run in 8-10 beside other suites).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "../../common/rmtree.h"
#include "../../waits/waits.h"
#include "fixtures.h"
#include "tap.h"
#include "waitsnap.h"

#define SH 960

static char root[64];

/* A process of one thread in the scratch /proc: its state, wait channel
 * and (for the shell) call. */
static void proc_of(int pid, const char *comm, char state, const char *wchan)
{
	char rel[96];

	fixture_thread(root, pid, pid, pid, comm, state, 1, 7000000, 1000000, 5);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/wchan", pid, pid);
	fixture_put(root, rel, wchan);
	/* as the kernel's: PID/stat, PID/wchan of its main thread too */
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", pid, pid);
	{
		char path[200], buf[256];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", root, rel);
		f = fopen(path, "r");
		buf[0] = '\0';
		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = '\0';
			fclose(f);
		}
		snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
		fixture_put(root, rel, buf);
	}
	snprintf(rel, sizeof(rel), "proc/%d/wchan", pid);
	fixture_put(root, rel, wchan);
	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	fixture_put(root, rel, comm);
}

static void shell_call(int sh, const char *args, unsigned long long cpu_ns)
{
	char rel[96], text[160];

	snprintf(rel, sizeof(rel), "proc/%d/task/%d/syscall", sh, sh);
	snprintf(text, sizeof(text), "%d %s 0x7ffd10 0x0 0x0 0x0 0x0 0x7ffd00 0x7f00\n",
		 (int)SYS_wait4, args);
	fixture_put(root, rel, text);
	/* it ran (its schedstat moved): the wait is looked at afresh */
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/schedstat", sh, sh);
	snprintf(text, sizeof(text), "%llu 1000000 %llu\n", cpu_ns, cpu_ns / 1000);
	fixture_put(root, rel, text);
}

/* Shell sh's edges in read s: their children's names, comma-separated
 * by id, with the ticks each has. */
static void edges_of(const struct waits_snap *s, pid_t sh, char *out,
		     size_t n, double *ticks)
{
	const struct waits_thread *t = snap_find(s, sh);

	out[0] = '\0';
	for (int k = 0; t && k < WAITS_EDGES; k++) {
		uint32_t id = t->edge[k].id;

		if (id == WAITS_NO_EDGE || id >= s->nkeys ||
		    s->keys[id].kind != PEER_CHILD || !(t->edge[k].ticks > 0))
			continue;
		if (out[0])
			strncat(out, ",", n - strlen(out) - 1);
		strncat(out, s->keys[id].peer_comm, n - strlen(out) - 1);
		ticks[k] = t->edge[k].ticks;
	}
}

/* Shell 970 in wait4(-1), its wait channel read 0 (queued still), with
 * sleep, head and gzip as children: its wait is on head and gzip. */
static void wchan_untold(void)
{
	char names[128];
	double ticks[WAITS_EDGES] = { 0 };
	struct perr e;
	struct waits *w;
	struct waits_snap snap = { 0 };
	const struct waits_thread *t;
	pid_t pid = 970;

	proc_of(970, "sh", 'S', "0");
	proc_of(971, "sleep", 'S', "hrtimer_nanosleep");
	proc_of(972, "head", 'S', "pipe_write");
	proc_of(973, "gzip", 'R', "0");
	fixture_put(root, "proc/970/task/970/children", "971 972 973 ");
	shell_call(970, "0xffffffffffffffff", 7000000);
	w = waits_open(root, &e);
	OK(w != NULL, "waits open on the scratch root");
	if (!w)
		return;
	EQ_INT(waits_watch_pids(w, &pid, 1, &e), 0, "watch the second shell");
	waits_tick(w, 20.0);	/* its first look: by its call */
	waits_tick(w, 20.02);	/* not run since: the same wait */
	EQ_INT(waits_read(w, 20.5, &snap), 0, "a read");
	t = snap_find(&snap, 970);
	OK(t && t->ticks[WAIT_OTHER] == 2, "wchan 0, state S, wait4: other, both ticks");
	edges_of(&snap, 970, names, sizeof(names), ticks);
	EQ_STR(names, "head,gzip",
	       "... on the children at work (its wchan untold, its call wait4)");
	OK(ticks[0] > 0 && ticks[0] == ticks[1],
	   "... the ticks split evenly between them");
	waits_snap_free(&snap);
	waits_close(w);
}

int main(void)
{
	char names[128];
	double ticks[WAITS_EDGES] = { 0 };
	struct perr e;
	struct waits *w;
	struct waits_snap snap = { 0 };
	pid_t pid = SH;

	snprintf(root, sizeof(root), "/tmp/perflog-child-XXXXXX");
	OK(mkdtemp(root) != NULL, "scratch root");
	fixture_put(root, "proc/uptime", "1000.00 1500.00\n");
	proc_of(SH, "sh", 'S', "do_wait");
	proc_of(961, "sleep", 'S', "hrtimer_nanosleep");
	proc_of(962, "head", 'S', "pipe_write");
	proc_of(963, "gzip", 'R', "0");
	fixture_put(root, "proc/960/task/960/children", "961 962 963 ");
	shell_call(SH, "0xffffffffffffffff", 7000000);
	w = waits_open(root, &e);
	OK(w != NULL, "waits open on the scratch root");
	if (!w)
		return done_testing();
	EQ_INT(waits_watch_pids(w, &pid, 1, &e), 0, "watch the shell");
	waits_tick(w, 10.0);
	waits_tick(w, 10.02);
	EQ_INT(waits_read(w, 10.5, &snap), 0, "a read");
	edges_of(&snap, SH, names, sizeof(names), ticks);
	EQ_STR(names, "head,gzip",
	       "wait4(-1): on the children at work, not on sleep (the first listed)");
	OK(ticks[0] > 0 && ticks[0] == ticks[1],
	   "... the ticks split evenly between them");

	shell_call(SH, "0x3c1", 9000000);	/* wait4(961) */
	waits_tick(w, 11.0);
	waits_tick(w, 11.02);
	EQ_INT(waits_read(w, 11.5, &snap), 0, "a read");
	memset(ticks, 0, sizeof(ticks));
	edges_of(&snap, SH, names, sizeof(names), ticks);
	OK(strstr(names, "sleep") != NULL,
	   "wait4(961): on that child, asleep or not");
	waits_snap_free(&snap);
	waits_close(w);
	wchan_untold();
	OK(rmtree(root) == 0, "scratch root removed");
	return done_testing();
}
