/*
 * test_process_books.c - the Process object's books against a scratch
 * /proc (process/process_books.c, process_threads.c, procfds.c): the
 * members' files kept open, the thread reads (a schedstat a thread, io
 * only when it may have moved, none while its process stood still and
 * its CPU time is its cgroup's), the task lists, and an exit record that
 * waited for its parent to be known.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../process/cgroup.h"
#include "../../process/process.h"
#include "../../process/process_books.h"
#include "fixtures.h"
#include "tap.h"

#define US(ticks) ((uint64_t)(ticks) * 1000000 / (uint64_t)sysconf(_SC_CLK_TCK))

/* The members' files kept open (procfds.c): one open for reads in a
 * row, a dead task's file read as gone and let go, the files no scan
 * read closed at its end. */
static void test_procfds(void)
{
	struct procfds *c = procfds_new();
	char buf[1024];
	pid_t kid = fork();
	long a, b;

	if (kid == 0) {
		pause();
		_exit(0);
	}
	a = procfds_read(c, "", kid, 0, PF_STAT, buf, sizeof(buf));
	b = procfds_read(c, "", kid, 0, PF_STAT, buf, sizeof(buf));
	OK(c && a > 0 && b > 0 && procfds_open(c) == 1,
	   "procfds: two reads, one descriptor kept");
	procfds_read(c, "", getpid(), 0, PF_STAT, buf, sizeof(buf));
	EQ_INT(procfds_open(c), 2, "procfds: another task's file, a second");
	procfds_sweep(c);
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	a = procfds_read(c, "", kid, 0, PF_STAT, buf, sizeof(buf));
	OK(a < 0 && procfds_open(c) == 1,
	   "procfds: the reaped task's read fails, its descriptor let go");
	procfds_sweep(c);	/* read in this scan: the kid's slot only */
	EQ_INT(procfds_open(c), 0, "procfds: the file no scan read closed at its end");
	procfds_free(c);
}

/* Thread tid of process 700 in the scratch /proc at dir: its stat (utime
 * ticks, start), its io (rchar) and, sched non-NULL, its schedstat. */
static void put_thread(const char *dir, int tid, int utime, int start,
		       int rchar, const char *sched)
{
	char rel[64], line[256];

	snprintf(rel, sizeof(rel), "proc/700/task/%d/stat", tid);
	snprintf(line, sizeof(line), "%d (w) S 1 700 700 0 -1 0 0 0 0 0 %d 0 "
		 "0 0 20 0 3 0 %d 1000000 100\n", tid, utime, start);
	fixture_put(dir, rel, line);
	snprintf(rel, sizeof(rel), "proc/700/task/%d/io", tid);
	snprintf(line, sizeof(line), "rchar: %d\nwchar: 2000\n", rchar);
	fixture_put(dir, rel, line);
	if (sched) {
		snprintf(rel, sizeof(rel), "proc/700/task/%d/schedstat", tid);
		fixture_put(dir, rel, sched);
	}
}

/* A scratch /proc at dir (mkdtemp'ed here) with process 700 of three
 * threads, 700-702, whose files the test writes: 0, or -1. */
static int pool_root(char *dir)
{
	char cmd[256];

	if (!mkdtemp(dir))
		return -1;
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc/700/task/700 "
		 "%s/proc/700/task/701 %s/proc/700/task/702", dir, dir, dir);
	if (system(cmd) != 0)
		return -1;
	fixture_put(dir, "proc/stat", "cpu  1 1 1 1\nbtime 1000\n");
	fixture_put(dir, "proc/700/stat", "700 (w) S 1 700 700 0 -1 0 0 0 0 0 30 0 "
		    "0 0 20 0 3 0 5000 1000000 100\n");
	return 0;
}

/* The "taskstats" books read every thread's schedstat (process_books.c
 * look_at): a thread whose run time and count of slices stood still has
 * not run, its figures stand; one that ran has its CPU time from the
 * schedstat (nanoseconds) and its io read, not its stat; a new thread,
 * one whose counts went back (another task on the id) and one without a
 * schedstat (none, or zeros: no sched_info) have their stat read. */
static void test_idle_threads(void)
{
	char dir[] = "/tmp/perflog-idle.XXXXXX";
	struct proctree_options o = { .pid = 700, .exits = 1 };
	struct perr e = { "" };
	struct proctree *t = NULL;
	struct proc_raw r;

	if (pool_root(dir) == 0) {
		/* 700's schedstat: 250 ms run, 3 slices; its stat says 10
		 * ticks: the schedstat is its CPU time */
		put_thread(dir, 700, 10, 5000, 1000, "250000000 5 3\n");
		put_thread(dir, 701, 10, 5000, 1000, "0 0 0\n");
		put_thread(dir, 702, 10, 5000, 1000, NULL);
		o.root = dir;
		t = proctree_open(&o, &e);
	}
	OK(t && proctree_read(t, &r, &e) == 0 &&
	   r.cpu_us == 250000 + US(20) && r.read_bytes == 3000,
	   "idle: three threads read, 700's CPU time its schedstat's");
	/* read by read: 700's stat utime, start and rchar, its schedstat
	 * (NULL: as it was), 701's and 702's utime and rchar (0: as they
	 * were), the tree's CPU time and bytes read */
	const struct {
		int utime, start, rchar;
		const char *sched;
		int others;
		uint64_t cpu, rd;
		const char *what;
	} step[] = {
		{ 50, 5000, 9000, NULL, 0, 250000 + US(20), 3000,
		  "idle: a thread whose schedstat stood still is not read "
		  "(its new stat and io not seen)" },
		{ 50, 5000, 9000, "400000000 5 3\n", 20, 400000 + US(40),
		  11000, "idle: one whose run time moved: CPU time from its "
		  "schedstat (not its stat), io read; none or zeros: stat read" },
		{ 60, 5000, 9500, "400000000 5 4\n", 0, 400000 + US(40),
		  11500, "idle: a count of slices that moved is a run too" },
		{ 70, 5000, 9900, NULL, 0, 400000 + US(40), 11500,
		  "idle: standing still again: not read" },
		/* another task on tid 700 (a lost record): counts back, a new
		 * start; the old one's figures stay counted */
		{ 3, 9000, 100, "30000000 1 1\n", 0, 430000 + US(40), 11600,
		  "idle: counts gone back: stat read, a new task, the old "
		  "one's work kept" },
	};
	for (size_t i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
		put_thread(dir, 700, step[i].utime, step[i].start,
			   step[i].rchar, step[i].sched);
		if (step[i].others) {
			put_thread(dir, 701, step[i].others, 5000, 1000, NULL);
			put_thread(dir, 702, step[i].others, 5000, 1000, NULL);
		}
		OK(t && proctree_read(t, &r, &e) == 0 &&
		   r.cpu_us == step[i].cpu && r.read_bytes == step[i].rd,
		   step[i].what);
		printf("# read %zu: cpu %llu us, read %llu bytes\n", i + 2,
		       (unsigned long long)r.cpu_us,
		       (unsigned long long)r.read_bytes);
	}
	proctree_close(t);
	OK(rmtree(dir) == 0, "idle: cleanup");
}

/* A process's threads that ran have their io read only when its whole
 * io (/proc/PID/io) moved since the last read (process_threads.c
 * whole_io_same, read_ios): the whole of a process of two threads or
 * more is read at every read, before its threads. The thread files
 * below move while the whole does not, so a read of them shows. */
static void test_whole_io(void)
{
	char dir[] = "/tmp/perflog-wio.XXXXXX", line[64];
	struct proctree_options o = { .pid = 700, .exits = 1 };
	struct perr e = { "" };
	struct proctree *t = NULL;
	struct proc_raw r;

	if (pool_root(dir) == 0) {
		fixture_put(dir, "proc/700/io", "rchar: 3000\nwchar: 6000\n");
		put_thread(dir, 700, 10, 5000, 1000, "100000000 5 1\n");
		put_thread(dir, 701, 10, 5000, 1000, "100000000 5 1\n");
		put_thread(dir, 702, 10, 5000, 1000, "100000000 5 1\n");
		o.root = dir;
		t = proctree_open(&o, &e);
	}
	OK(t && proctree_read(t, &r, &e) == 0 && r.read_bytes == 3000,
	   "whole io: three new threads read");
	/* read by read: the whole rchar, the threads that ran (a bit
	 * each: 700, 701, 702) with their new rchar, the bytes read then
	 * (702 ran only at the first: its 1000 stands after) */
	const struct {
		int whole, ran, rchar;
		uint64_t rd;
		const char *what;
	} step[] = {
		{ 3000, 7, 2000, 3000,
		  "whole io: three ran, the whole as at the last read: their "
		  "io not read" },
		{ 3300, 3, 2100, 2100 + 2100 + 1000,
		  "whole io: the whole moved: the two that ran read" },
		{ 3300, 1, 2200, 2100 + 2100 + 1000,
		  "whole io: one ran, the whole as at the last read: not read" },
		{ 3400, 1, 2300, 2300 + 2100 + 1000,
		  "whole io: one ran, the whole moved: read" },
		{ 3400, 3, 2400, 2300 + 2100 + 1000,
		  "whole io: the same as at the last read: not read" },
	};
	for (size_t i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
		snprintf(line, sizeof(line), "rchar: %d\nwchar: 6000\n",
			 step[i].whole);
		fixture_put(dir, "proc/700/io", line);
		for (int k = 0; k < 3; k++) {
			char sched[64];

			if (!(step[i].ran >> k & 1))
				continue;
			snprintf(sched, sizeof(sched), "%d 5 %zu\n",
				 100000000 + (int)i + 1, i + 2);
			put_thread(dir, 700 + k, 10, 5000, step[i].rchar, sched);
		}
		OK(t && proctree_read(t, &r, &e) == 0 &&
		   r.read_bytes == step[i].rd, step[i].what);
		printf("# read %zu: read %llu bytes\n", i + 2,
		       (unsigned long long)r.read_bytes);
	}
	/* the whole moved, 702 ran and its io cannot be read: its old io
	 * is not lent to the wait-state sampler as this read's; 700's (not
	 * run) is */
	{
		struct pidstat_io io;
		char rel[64];

		fixture_put(dir, "proc/700/io", "rchar: 3500\nwchar: 6000\n");
		snprintf(rel, sizeof(rel), "%s/proc/700/task/702/io", dir);
		unlink(rel);
		put_thread(dir, 702, 10, 5000, 0, "200000000 9 9\n");
		unlink(rel);
		OK(t && proctree_read(t, &r, &e) == 0 &&
		   proctree_thread_io(t, 702, 5000, &io) < 0 &&
		   proctree_thread_io(t, 700, 5000, &io) == 0 &&
		   io.rchar == 2300,
		   "whole io: a thread that ran, its io unreadable: not lent; "
		   "one not run: lent");
	}
	proctree_close(t);
	OK(rmtree(dir) == 0, "whole io: cleanup");
}

/* With the tree's CPU time its cgroup's (perflog run's command, a unit:
 * proctree_options.cgroup), a process whose whole io stood still has
 * none of its known threads read (process_threads.c scan_threads_of):
 * their files are let go at the scan's end, the CPU time is the
 * group's; once the whole moves, the threads that ran since their last
 * read are read; a new thread is read at once. */
static void test_still(void)
{
	char dir[] = "/tmp/perflog-still.XXXXXX", cmd[256];
	struct cgroup_set g;
	struct proctree_options o = { .pid = 700, .exits = 1, .cgroup = &g };
	struct perr e = { "" };
	struct proctree *t = NULL;
	struct proc_raw r;

	memset(&g, 0, sizeof(g));
	if (pool_root(dir) == 0) {
		snprintf(g.v2, sizeof(g.v2), "%s/cg", dir);
		snprintf(cmd, sizeof(cmd), "mkdir -p %s", g.v2);
		if (system(cmd) == 0) {
			fixture_put(dir, "cg/cgroup.procs", "700\n");
			fixture_put(dir, "cg/cpu.stat", "usage_usec 500000\n");
			fixture_put(dir, "proc/700/io", "rchar: 3000\nwchar: 6000\n");
			for (int k = 0; k < 3; k++)
				put_thread(dir, 700 + k, 10, 5000, 1000,
					   "100000000 5 1\n");
			o.root = dir;
			t = proctree_open(&o, &e);
		}
	}
	OK(t && proctree_read(t, &r, &e) == 0 && r.read_bytes == 3000 &&
	   r.cpu_us == 500000,
	   "still: three new threads read, the CPU time the group's");
	/* each thread ran and its io file moved; the whole did not */
	for (int k = 0; k < 3; k++)
		put_thread(dir, 700 + k, 20, 5000, 2000, "200000000 6 2\n");
	fixture_put(dir, "cg/cpu.stat", "usage_usec 600000\n");
	OK(t && proctree_read(t, &r, &e) == 0 && r.read_bytes == 3000 &&
	   r.cpu_us == 600000,
	   "still: the whole as at the last read: no thread read");
	EQ_INT(t ? procfds_open(t->fds) : -1, 2,
	       "still: the process's stat and io the only files read");
	fixture_put(dir, "proc/700/io", "rchar: 6000\nwchar: 6000\n");
	OK(t && proctree_read(t, &r, &e) == 0 && r.read_bytes == 6000,
	   "still: the whole moved: the threads that ran since read");
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc/700/task/703", dir);
	OK(system(cmd) == 0, "still: a fourth thread's directory");
	put_thread(dir, 703, 10, 5100, 500, "10000000 1 1\n");
	OK(t && proctree_read(t, &r, &e) == 0 && r.read_bytes == 6500,
	   "still: a new thread read at once, the others not");
	printf("# read %llu bytes\n", (unsigned long long)r.read_bytes);
	proctree_close(t);
	OK(rmtree(dir) == 0, "still: cleanup");
}

/* 700's stat in the scratch /proc at dir, with threads of them. */
static void put_process(const char *dir, int threads)
{
	char line[160];

	snprintf(line, sizeof(line), "700 (w) S 1 700 700 0 -1 0 0 0 0 0 30 0 "
		 "0 0 20 0 %d 0 5000 1000000 100\n", threads);
	fixture_put(dir, "proc/700/stat", line);
}

/* A process's task directory is listed only when its threads may have
 * changed (process_books.c list_unchanged; a process of 8 threads or
 * more): its stat's thread count moved since the last read, or an exit
 * record of one of its threads came (proctree_exit_seen), or records
 * were lost. A thread put in the scratch /proc without its count is not
 * seen until the count or a record says so: that is the listing left
 * out. */
static void test_task_list(void)
{
	char dir[] = "/tmp/perflog-tl.XXXXXX", cmd[256];
	struct proctree_options o = { .pid = 700, .exits = 1 };
	struct perr e = { "" };
	struct proctree *t = NULL;
	struct proc_raw r;
	struct taskstats_exit x = { 0 };

	if (pool_root(dir) == 0) {
		snprintf(cmd, sizeof(cmd), "cd %s/proc/700/task && "
			 "mkdir 703 704 705 706 707 708 709", dir);
		if (system(cmd) == 0) {
			for (int k = 0; k < 10; k++)
				put_thread(dir, 700 + k, 10, 5000, 1000,
					   "100000000 5 1\n");
			put_process(dir, 10);
			o.root = dir;
			t = proctree_open(&o, &e);
		}
	}
	OK(t && proctree_read(t, &r, &e) == 0 && r.cpu_us == 1000000,
	   "task list: ten threads");
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc/700/task/710", dir);
	OK(system(cmd) == 0, "task list: an eleventh thread's directory");
	put_thread(dir, 710, 10, 5100, 1000, "50000000 2 1\n");
	OK(t && proctree_read(t, &r, &e) == 0 && r.cpu_us == 1000000,
	   "task list: the count as at the last read, no record: not listed");
	put_process(dir, 11);
	OK(t && proctree_read(t, &r, &e) == 0 && r.cpu_us == 1050000,
	   "task list: the count moved (11): listed, the new thread counted");
	/* 701 ends and 711 begins between two reads: the count stays 11,
	 * the record says a thread of 700 went */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc/700/task/711", dir);
	OK(fixture_remove(dir, "proc/700/task/701") == 0 && system(cmd) == 0,
	   "task list: 701 gone, 711 come");
	put_thread(dir, 711, 10, 5200, 1000, "70000000 2 1\n");
	x.tid = 701;
	x.tgid = 700;
	x.ppid = 1;
	x.cpu_us = 100000;
	x.btime = 1000 + 50;
	if (t) {
		proctree_exit_seen(t, &x);
		proctree_exit(t, &x);
	}
	OK(t && proctree_read(t, &r, &e) == 0 && r.cpu_us == 1120000,
	   "task list: a record of one of its threads: listed, 711 counted "
	   "and 701's work kept");
	/* a record of an old kernel (no tgid): every list taken */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc/700/task/712", dir);
	OK(system(cmd) == 0, "task list: 712 come, the count as it was");
	put_thread(dir, 712, 10, 5300, 1000, "10000000 1 1\n");
	x.tid = 99;
	x.tgid = 0;
	x.ppid = 1;
	if (t)
		proctree_exit_seen(t, &x);
	OK(t && proctree_read(t, &r, &e) == 0 && r.cpu_us == 1130000,
	   "task list: a record without its process: listed, 712 counted");
	printf("# cpu %llu us\n", (unsigned long long)r.cpu_us);
	proctree_close(t);
	OK(rmtree(dir) == 0, "task list: cleanup");
}

/* Single-threaded process pid (parent ppid, state, start in ticks, wchar
 * bytes written, half of them to storage: write_bytes; children its
 * children file) in the scratch /proc at dir. */
static void put_task(const char *dir, int pid, int ppid, char state,
		     int start, int wchar, const char *children)
{
	char rel[64], line[256], cmd[320];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc/%d/task/%d", dir, pid, pid);
	if (system(cmd) != 0)
		return;
	snprintf(line, sizeof(line), "%d (c) %c %d %d %d 0 -1 0 0 0 0 0 10 0 "
		 "0 0 20 0 1 0 %d 1000000 100\n", pid, state, ppid, pid, pid,
		 start);
	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	fixture_put(dir, rel, line);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", pid, pid);
	fixture_put(dir, rel, line);
	snprintf(line, sizeof(line), "rchar: 0\nwchar: %d\nread_bytes: 0\n"
		 "write_bytes: %d\n", wchar, wchar / 2);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/io", pid, pid);
	fixture_put(dir, rel, line);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/schedstat", pid, pid);
	fixture_put(dir, rel, "100000000 5 1\n");
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/children", pid, pid);
	fixture_put(dir, rel, children);
}

/* A scratch root dir (mkdtemp'ed here) of process 700 alone, its tree
 * opened with o; NULL when it cannot be made. */
static struct proctree *root_alone(char *dir, struct proctree_options *o,
				   struct perr *e)
{
	if (!mkdtemp(dir))
		return NULL;
	fixture_put(dir, "proc/stat", "cpu  1 1 1 1\nbtime 1000\n");
	put_task(dir, 700, 1, 'S', 5000, 2000, "");
	o->root = dir;
	return proctree_open(o, e);
}

/* A task sends its exit record before it leaves /proc. A child of a
 * parent born since the last read: its record comes, waits (the parent
 * is not known yet: process_books.c pending_add), and the next read
 * lists the parent and the child still in its exit. The record, placed
 * then, closes the child's entry that read opened: its 1 MB counted
 * once, and not again when the entry would have been folded. */
static void test_pending_entry(void)
{
	char dir[] = "/tmp/perflog-pend.XXXXXX";
	struct proctree_options o = { .pid = 700, .exits = 1 };
	struct perr e = { "" };
	struct proctree *t = NULL;
	struct proc_raw r;
	struct taskstats_exit x = { 0 };

	t = root_alone(dir, &o, &e);
	OK(t && proctree_read(t, &r, &e) == 0 && r.write_bytes == 2000,
	   "pending: the root alone");
	/* 800 born and 900 its child, after that read; 900's record comes
	 * before either is read */
	x.tid = x.tgid = 900;
	x.ppid = 800;
	x.wchar = 1000000;
	x.write_bytes = 500000;
	x.cpu_us = 100000;
	x.btime = 1000 + 60;
	OK(t && proctree_exit(t, &x) == 0,
	   "pending: the record of a child of an unknown parent waits");
	put_task(dir, 700, 1, 'S', 5000, 2000, "800 ");
	put_task(dir, 800, 700, 'S', 5900, 16, "900 ");
	put_task(dir, 900, 800, 'R', 6000, 1000000, "");
	OK(t && proctree_read(t, &r, &e) == 0 && r.nprocs == 3 &&
	   r.write_bytes == 2000 + 16 + 1000000,
	   "pending: the child read late in its exit and its record placed: "
	   "its bytes once");
	printf("# written %llu bytes\n", (unsigned long long)r.write_bytes);
	{
		const struct proctree_late *late = NULL;
		size_t n = t ? proctree_late(t, &late) : 0;

		OK(n == 1 && late[0].x.tid == 900 && late[0].x.wchar == 1000000,
		   "pending: the record placed is handed on (proctree_late: "
		   "the wait-state sampler's too)");
		OK(t && proctree_read(t, &r, &e) == 0 &&
		   proctree_late(t, &late) == 0,
		   "... once: the next read has none");
	}
	put_task(dir, 800, 700, 'S', 5900, 16, "");
	OK(fixture_remove(dir, "proc/900") == 0, "pending: the child gone");
	for (int i = 0; i < 3; i++)	/* past the books' grace */
		OK(t && proctree_read(t, &r, &e) == 0, "pending: read after");
	EQ_INT(r.write_bytes, 2000 + 16 + 1000000,
	       "pending: still once after the child's entry is gone");
	EQ_INT(r.disk_write, 1000 + 8 + 500000,
	       "pending: its storage bytes (write_bytes) once too, the record's");
	proctree_close(t);
	OK(rmtree(dir) == 0, "pending: cleanup");
}

/* The root gone right after its child shell's pipeline (`sh -c 'sh -c
 * "head | cat"; exit'` watched by PID): head's record waited for the
 * child shell (born after the last read), whose own record made it
 * known; the read that finds the root gone places head's record all the
 * same, for the wait-state sampler (proctree_late): before, its bytes
 * never reached the tree's waits rows (head's and cat's io_bytes 0). */
static void test_pending_root_gone(void)
{
	char dir[] = "/tmp/perflog-pend.XXXXXX";
	struct proctree_options o = { .pid = 700, .exits = 1 };
	struct perr e = { "" };
	struct proctree *t = NULL;
	struct proc_raw r;
	struct taskstats_exit x = { 0 };
	const struct proctree_late *late = NULL;

	t = root_alone(dir, &o, &e);
	OK(t && proctree_read(t, &r, &e) == 0, "root gone: the root alone");
	x.tid = x.tgid = 900;	/* head, child of 800 born since */
	x.ppid = 800;
	x.wchar = 1000000;
	x.btime = 1000 + 60;
	x.etime = 0.5;
	OK(t && proctree_exit(t, &x) == 0, "root gone: head's record waits");
	x.tid = x.tgid = 800;	/* the child shell, the root's */
	x.ppid = 700;
	x.wchar = 16;
	OK(t && proctree_exit(t, &x) == 1, "root gone: the child shell's record taken");
	put_task(dir, 700, 1, 'X', 5000, 2000, "");	/* the root exits */
	OK(t && proctree_read(t, &r, &e) < 0, "root gone: the read fails");
	OK(t && proctree_late(t, &late) == 1 && late[0].x.tid == 900 &&
	   late[0].x.wchar == 1000000,
	   "root gone: head's record placed all the same (proctree_late)");
	proctree_close(t);
	OK(rmtree(dir) == 0, "root gone: cleanup");
}

/* Two trees sharing the start times of the records' parents
 * (proc_starts: a night's 50 sessions read a parent's stat once a
 * drain, not 50 times). A record whose parent is a stranger (a process
 * of the host alive long before the trees' last read, not theirs) is
 * dropped by both, the second tree taking the first's read of the
 * parent (its stat is gone by then: a tree reading it itself would keep
 * the record waiting for a parent it can no longer judge); the next
 * drain reads it again. */
static void test_shared_starts(void)
{
	char dir[] = "/tmp/perflog-starts.XXXXXX";
	struct proctree_options o = { .exits = 1 };
	struct perr e = { "" };
	struct proctree *a = NULL, *b = NULL;
	struct proc_starts *s = proc_starts_new();
	struct proc_raw r;
	struct taskstats_exit x = { 0 };
	size_t na = 0, nb = 0;

	if (mkdtemp(dir)) {
		fixture_put(dir, "proc/stat", "cpu  1 1 1 1\nbtime 1000\n");
		put_task(dir, 700, 1, 'S', 5000, 10, "");
		put_task(dir, 710, 1, 'S', 5000, 10, "");
		put_task(dir, 600, 1, 'S', 100, 10, "");	/* the host's */
		o.root = dir;
		o.pid = 700;
		a = proctree_open(&o, &e);
		o.pid = 710;
		b = proctree_open(&o, &e);
	}
	OK(s && a && b && proctree_read(a, &r, &e) == 0 &&
	   proctree_read(b, &r, &e) == 0, "starts: two trees read");
	if (!s || !a || !b)
		goto out;
	proctree_share_starts(a, s);
	proctree_share_starts(b, s);
	na = a->npend;
	nb = b->npend;
	proc_starts_next(s);	/* a drain */
	x.tid = x.tgid = 601;
	x.ppid = 600;
	x.btime = 1000 + 60;
	OK(proctree_exit(a, &x) == 0 && a->npend == na,
	   "starts: the first tree reads the parent's start: a stranger's child, dropped");
	OK(fixture_remove(dir, "proc/600") == 0, "starts: the parent's stat gone");
	OK(proctree_exit(b, &x) == 0 && b->npend == nb,
	   "starts: the second takes that read, not its own: dropped too");
	/* two reads: the parent's stat the first tree kept open (procfds)
	 * is closed by the second's sweep (a fixture's unlinked file would
	 * still read; the kernel's says ESRCH) */
	OK(proctree_read(a, &r, &e) == 0 && proctree_read(a, &r, &e) == 0,
	   "starts: the next reads");
	proc_starts_next(s);	/* the next drain */
	x.tid = x.tgid = 602;
	OK(proctree_exit(a, &x) == 0 && a->npend == na + 1,
	   "starts: the next drain reads it again (gone: its child's record waits)");
out:
	proctree_close(a);
	proctree_close(b);
	proc_starts_free(s);
	OK(rmtree(dir) == 0, "starts: cleanup");
}

int main(void)
{
	test_procfds();
	test_idle_threads();
	test_whole_io();
	test_task_list();
	test_still();
	test_pending_entry();
	test_pending_root_gone();
	test_shared_starts();
	return done_testing();
}
