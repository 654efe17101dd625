/*
 * test_process.c - the Process object (process/process.c): a fixture
 * /proc tree with garbage in it (tests/fixtures/proc/README), pid reuse,
 * the rates, and a live tree of forked children that burn a known amount
 * of CPU and write a known number of bytes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../counters/catalog.h"
#include "../../process/process.h"
#include "../../process/process_books.h"
#include "../../counters/rates.h"
#include "fixtures.h"
#include "tap.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures"
#endif

#define IDX(id) ((int)(id) - (int)CTR_PROC_PROCESSOR_TIME)

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Burn sec of this process's CPU time. */
static void burn(double sec)
{
	double until = cpu_seconds() + sec;
	volatile unsigned long x = 1;
	while (cpu_seconds() < until)
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005UL + 1442695040888963407UL;
}

static void write_bytes(size_t total)
{
	int fd = open("/dev/null", O_WRONLY);
	char buf[8192];
	memset(buf, 'x', sizeof(buf));
	while (total > 0) {
		size_t n = total < sizeof(buf) ? total : sizeof(buf);
		ssize_t w = write(fd, buf, n);
		if (w <= 0)
			_exit(3);
		total -= (size_t)w;
	}
	close(fd);
}

static struct proctree *open_tree(const char *root, pid_t pid,
				   struct perr *e)
{
	struct proctree_options o = { .root = root, .pid = pid };

	return proctree_open(&o, e);
}

#define US(ticks) ((uint64_t)(ticks) * 1000000 / (uint64_t)sysconf(_SC_CLK_TCK))

static void test_fixture(void)
{
	struct perr e = { "" };
	struct proctree *t = open_tree(FIXTURES "/proc/tree1", 100, &e);
	OK(t != NULL, "fixture: open pid 100");
	if (!t)
		return;
	struct proc_raw r;
	EQ_INT(proctree_read(t, &r, &e), 0, "fixture: read");
	EQ_INT(r.nprocs, 4, "fixture: 100, 101 (odd comm), 102, zombie 103");
	EQ_INT(r.cpu_us, US(42 + 330 + 10 + 13), "fixture: ticks summed");
	EQ_INT(r.read_bytes, 41000, "fixture: rchar summed (102 has no io)");
	EQ_INT(r.write_bytes, 52000, "fixture: wchar summed");
	long ps = sysconf(_SC_PAGESIZE);
	EQ_DBL(r.rss_bytes, 350.0 * (double)ps, 0.5, "fixture: rss in bytes");
	{
		struct pidstat_io io;

		OK(proctree_thread_io(t, 100, proctree_start_time(FIXTURES "/proc/tree1", 100), &io) < 0,
		   "fixture: books of processes lend no thread's io");
	}
	proctree_close(t);

	t = open_tree(FIXTURES "/proc/tree1", 101, &e);
	OK(t && proctree_read(t, &r, &e) == 0 && r.nprocs == 2 &&
	   r.cpu_us == US(340), "fixture: subtree of 101 (odd comm) only");
	proctree_close(t);
	t = open_tree(FIXTURES "/proc/tree1", 302, &e);
	OK(t && proctree_read(t, &r, &e) == 0 && r.nprocs == 2,
	   "fixture: a ppid cycle terminates");
	proctree_close(t);

	OK(open_tree(FIXTURES "/proc/tree1", 300, &e) == NULL,
	   "fixture: garbage stat refused as root");
	OK(open_tree(FIXTURES "/proc/tree1", 301, &e) == NULL,
	   "fixture: vanished pid refused");
	OK(strstr(e.msg, "301") != NULL, "fixture: message names the pid");
	OK(open_tree(FIXTURES "/proc/nonexistent", 1, &e) == NULL,
	   "fixture: missing root refused");
}

/* A tree's members by the children walk (a children file a thread) or
 * by the ppid scan (a stat a process of the host), whichever reads less
 * (process.c walk_dearer): a process of 70 threads on a host of 4
 * processes is walked once (the books do not know its threads yet),
 * then scanned. The scratch /proc says two things: thread 700's children
 * file names 800 and 900, while 900's stat names 1 its parent, so the
 * walk finds 900 and the scan does not. */
static void test_walk_or_scan(void)
{
	char dir[] = "/tmp/perflog-walk.XXXXXX", rel[96], line[160];
	struct perr e = { "" };
	struct proctree *t = NULL;
	struct proc_raw r;
	char cmd[192];
	int made = mkdtemp(dir) != NULL;

	snprintf(cmd, sizeof(cmd), "cd %s && mkdir -p proc/1 proc/800/task/800 "
		 "proc/900/task/900 && for i in $(seq 700 769); do "
		 "mkdir -p proc/700/task/$i; done", dir);
	made = made && system(cmd) == 0;
	for (int tid = 700; made && tid < 770; tid++) {
		snprintf(rel, sizeof(rel), "proc/700/task/%d/children", tid);
		fixture_put(dir, rel, tid == 700 ? "800 900 " : "");
	}
	if (made) {
		fixture_put(dir, "proc/stat", "cpu  1 1 1 1\nbtime 1000\n");
		fixture_put(dir, "proc/1/stat", "1 (init) S 0 1 1 0 -1 0 0 0 0 0 1 0 "
			    "0 0 20 0 1 0 1 1000000 100\n");
		fixture_put(dir, "proc/700/stat", "700 (pool) S 1 700 700 0 -1 0 0 0 0 0 30 0 "
			    "0 0 20 0 70 0 5000 1000000 100\n");
		for (int pid = 800; pid <= 900; pid += 100) {
			snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
			snprintf(line, sizeof(line), "%d (c) S %d %d %d 0 -1 0 0 0 0 0 5 0 "
				 "0 0 20 0 1 0 6000 1000000 100\n", pid,
				 pid == 800 ? 700 : 1, pid, pid);
			fixture_put(dir, rel, line);
			snprintf(rel, sizeof(rel), "proc/%d/task/%d/children", pid, pid);
			fixture_put(dir, rel, "");
		}
		/* the taskstats books: a member the listing leaves out is
		 * not read (the tree books read it again while it lives) */
		struct proctree_options o = { .root = dir, .pid = 700, .exits = 1 };

		t = proctree_open(&o, &e);
	}
	OK(t && proctree_read(t, &r, &e) == 0 && r.nprocs == 3,
	   "walk or scan: the first read walks the children files (700, 800, 900)");
	OK(t && proctree_read(t, &r, &e) == 0 && r.nprocs == 2,
	   "walk or scan: 70 threads on a host of 4 processes: the ppid scan "
	   "(700, 800)");
	proctree_close(t);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	OK(system(cmd) == 0, "walk or scan: cleanup");
}

/* Rootless trees (perflog mark --watch name=COMM): every process of the
 * name and its descendants; empty is not gone. */
static void test_rootless(void)
{
	struct proctree_options o = { .root = FIXTURES "/proc/tree1" };
	struct perr e = { "" };
	struct proctree *t;
	struct proc_raw r, r2;
	struct instance_values iv;

	o.comm = "other";
	t = proctree_open(&o, &e);
	OK(t != NULL, "name=other: opened without a root");
	OK(t && proctree_read(t, &r, &e) == 0 && r.nprocs == 2,
	   "name=other: 200 and its child 201 (named otherwise)");
	OK(t && proctree_alive(t), "name=: alive");
	proctree_close(t);
	o.comm = "a) b (c";
	t = proctree_open(&o, &e);
	OK(t && proctree_read(t, &r, &e) == 0 && r.nprocs == 2 &&
	   r.cpu_us == US(340), "name= with parentheses in it: 101 and 102");
	proctree_close(t);
	o.comm = "nosuch";
	t = proctree_open(&o, &e);
	OK(t && proctree_read(t, &r, &e) == 0 && r.nprocs == 0 && r.rootless,
	   "name= matching nothing: an empty tree, not a gone one");
	OK(t && proctree_alive(t), "empty: still alive (one may start)");
	/* an empty rootless tree's rates are zeros, not unknown */
	r2 = r;
	r2.mono = r.mono + 1;
	memset(&iv, 0, sizeof(iv));
	rates_process(&r, &r2, &iv);
	EQ_DBL(iv.v[IDX(CTR_PROC_IO_WRITE)], 0, 0, "empty rootless tree: 0 B/s written");
	proctree_close(t);
	o.comm = "sixteen-bytes-xx";
	OK(proctree_open(&o, &e) == NULL && strstr(e.msg, "15 bytes"),
	   "a name over 15 bytes refused");
	o.comm = NULL;
	OK(proctree_open(&o, &e) == NULL, "pid 0 with no name nor cgroup refused");
}

/* The root's pid reused by another process (other start time) is "gone". */
static void test_pid_reuse(void)
{
	char dir[] = "/tmp/perflog-proc.XXXXXX";
	OK(mkdtemp(dir) != NULL, "reuse: temp dir");
	char cmd[512], path[256];
	snprintf(cmd, sizeof(cmd), "cp -r %s/proc/tree1/proc %s/",
		 FIXTURES, dir);
	OK(system(cmd) == 0, "reuse: copy fixture");
	struct perr e = { "" };
	struct proctree *t = open_tree(dir, 100, &e);
	struct proc_raw r;
	OK(t && proctree_read(t, &r, &e) == 0, "reuse: read before");
	snprintf(path, sizeof(path), "%s/proc/100/stat", dir);
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "100 (imposter) S 1 1 1 0 -1 0 0 0 0 0 1 1 0 0 "
			"20 0 1 0 9999 1 1\n");
		fclose(f);
	}
	int rc = t ? proctree_read(t, &r, &e) : 0;
	EQ_INT(rc, -1, "reuse: a new process with the old pid is not the root");
	EQ_INT(r.nprocs, 0, "reuse: nprocs 0 when the root is gone");
	proctree_close(t);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	OK(system(cmd) == 0, "reuse: cleanup");
}

static void test_rates(void)
{
	struct proc_raw a = { .mono = 10, .cpu_us = 1000,
			      .read_bytes = 100, .write_bytes = 50,
			      .rss_bytes = 4096, .nprocs = 3 };
	struct proc_raw b = a;
	b.mono = 12;
	b.cpu_us += 3000000;	/* 3 CPU seconds in 2 s */
	b.read_bytes += 2000;
	b.write_bytes += 4000;
	b.rss_bytes = 8192;
	struct instance_values v;
	memset(&v, 0, sizeof(v));
	rates_process(&a, &b, &v);
	EQ_INT(v.object, OBJ_PROCESS, "rates: object");
	EQ_DBL(v.v[IDX(CTR_PROC_PROCESSOR_TIME)], 150.0, 1e-9,
	       "rates: % Processor Time may exceed 100");
	EQ_DBL(v.v[IDX(CTR_PROC_IO_READ)], 1000.0, 1e-9, "rates: read B/s");
	EQ_DBL(v.v[IDX(CTR_PROC_IO_WRITE)], 2000.0, 1e-9, "rates: write B/s");
	EQ_DBL(v.v[IDX(CTR_PROC_WORKING_SET)], 8192.0, 0, "rates: working set");
	rates_process(&b, &a, &v);
	OK(isnan(v.v[IDX(CTR_PROC_PROCESSOR_TIME)]),
	   "rates: time going backwards is unknown");
	b.nprocs = 0;
	rates_process(&a, &b, &v);
	OK(isnan(v.v[IDX(CTR_PROC_PROCESSOR_TIME)]) &&
	   isnan(v.v[IDX(CTR_PROC_WORKING_SET)]), "rates: tree gone = unknown");
	b = a;
	b.mono = 11;
	b.cpu_us = 10;	/* work left the tree */
	rates_process(&a, &b, &v);
	OK(isnan(v.v[IDX(CTR_PROC_PROCESSOR_TIME)]),
	   "rates: ticks going down are unknown");
	rates_process(NULL, &a, &v);
	OK(isnan(v.v[IDX(CTR_PROC_IO_READ)]) &&
	   v.v[IDX(CTR_PROC_WORKING_SET)] == 4096, "rates: first read");
}

/*
 * Live: child C burns 0.4 s and writes 1 MB; its child G burns 0.3 s and
 * writes 300000 bytes and is reaped by C. While C waits (work done, not yet
 * reaped) the tree must hold >= both; after we reap C the books must still
 * hold it (cutime/cstime and the io the kernel adds to the parent).
 */
static void test_live(void)
{
	const double burn_c = 0.4, burn_g = 0.3;
	const size_t wr_c = 1 << 20, wr_g = 300000;
	long hz = sysconf(_SC_CLK_TCK);
	struct perr e = { "" };
	struct proctree *t = open_tree("/", getpid(), &e);
	OK(t != NULL, "live: open self");
	if (!t)
		return;
	struct proc_raw r0, r1, r2;
	OK(proctree_read(t, &r0, &e) == 0 && r0.nprocs == 1,
	   "live: just us at first");
	OK(r0.rss_bytes > 0, "live: rss > 0");
	int done[2], go[2];
	if (pipe(done) || pipe(go))
		return;
	fflush(stdout);
	pid_t c = fork();
	if (c == 0) {
		pid_t g = fork();
		if (g == 0) {
			burn(burn_g);
			write_bytes(wr_g);
			_exit(0);
		}
		burn(burn_c);
		write_bytes(wr_c);
		waitpid(g, NULL, 0);
		char x = 1;
		if (write(done[1], &x, 1) != 1 || read(go[0], &x, 1) != 1)
			_exit(2);
		_exit(0);
	}
	char x;
	OK(read(done[0], &x, 1) == 1, "live: children did their work");
	OK(proctree_read(t, &r1, &e) == 0, "live: read with child alive");
	EQ_INT(r1.nprocs, 2, "live: us and the child (grandchild reaped)");
	double want = (burn_c + burn_g) * (double)hz;
	double got = (double)(r1.cpu_us - r0.cpu_us) * (double)hz / 1e6;
	OK(got >= want * 0.9 - 2 && got <= want * 1.5 + 50,
	   "live: ticks of child + reaped grandchild");
	printf("#   ticks %.0f, expected about %.0f\n", got, want);
	uint64_t wgot = r1.write_bytes - r0.write_bytes;
	OK(wgot >= wr_c + wr_g && wgot <= wr_c + wr_g + 65536,
	   "live: bytes written by child + grandchild");
	printf("#   wrote %llu, expected %zu\n", (unsigned long long)wgot,
	       wr_c + wr_g);
	if (write(go[1], &x, 1) != 1)
		return;
	int st;
	waitpid(c, &st, 0);
	OK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "live: child exit 0");
	OK(proctree_read(t, &r2, &e) == 0, "live: read after reaping");
	EQ_INT(r2.nprocs, 1, "live: just us again");
	OK(r2.cpu_us >= r1.cpu_us, "live: reaped ticks not lost");
	OK(r2.write_bytes >= r1.write_bytes,
	   "live: reaped bytes not lost");
	struct instance_values v;
	rates_process(&r0, &r2, &v);
	double expect = 100.0 * (burn_c + burn_g) / (r2.mono - r0.mono);
	double pct = v.v[IDX(CTR_PROC_PROCESSOR_TIME)];
	OK(pct >= expect * 0.85, "live: % Processor Time over the run");
	printf("#   %.1f%% over %.2f s\n", pct, r2.mono - r0.mono);
	close(done[0]), close(done[1]), close(go[0]), close(go[1]);
	proctree_close(t);
}

/* Exit records: a child read live, then exiting; a child that lives and
 * dies between two reads; a grandchild whose parent ignores SIGCHLD. The
 * books must hold each one's bytes once. Root only (taskstats). */
struct exit_feed {
	struct proctree *t;
	int taken;
};

static void feed(void *arg, const struct taskstats_exit *x)
{
	struct exit_feed *f = arg;

	f->taken += proctree_exit(f->t, x);
}

static void drain_into(struct taskstats_listener *l, struct exit_feed *f)
{
	for (int i = 0; i < 50; i++) {
		int lost = 0;

		taskstats_drain(l, feed, f, &lost);
		usleep(10000);
	}
}

/* The worker of test_exits: writes 1 MiB, waits; forks an auto-reaped
 * child writing 3 MiB, writes 1 MiB, waits; ends. */
static void worker(int go)
{
	char x;

	write_bytes(1 << 20);
	if (read(go, &x, 1) != 1)
		_exit(2);
	signal(SIGCHLD, SIG_IGN);
	if (fork() == 0) {
		write_bytes(3 << 20);
		_exit(0);
	}
	write_bytes(1 << 20);
	if (read(go, &x, 1) != 1)
		_exit(2);
	_exit(0);
}

static void test_exits(void)
{
	struct perr e = { "" };
	struct taskstats_listener *l = taskstats_open(&e);
	struct proctree_options o = { .root = "/", .exits = 1, .shim = 1 };
	struct proc_raw r0, r1, r2;
	struct exit_feed f = { 0 };
	int go[2], end[2];
	char x = 1;
	pid_t root;

	if (!l) {
		printf("ok %d # SKIP taskstats: %s\n", ++tap_n, e.msg);
		return;
	}
	if (pipe(go) < 0 || pipe(end) < 0)
		return;
	fflush(stdout);
	root = fork();
	if (root == 0) {	/* a shim: start the worker, wait, reap */
		pid_t w = fork();

		if (w == 0)
			worker(go[0]);
		waitpid(w, NULL, 0);
		if (read(end[0], &x, 1) < 0)
			_exit(2);
		_exit(0);
	}
	o.pid = root;
	usleep(200000);
	f.t = proctree_open(&o, &e);
	OK(f.t != NULL, "exits: open the tree");
	if (!f.t)
		return;
	OK(proctree_read(f.t, &r0, &e) == 0, "exits: read it");
	OK(r0.write_bytes >= 1 << 20, "exits: 1 MiB written so far");
	{
		/* the books' read of a thread's io, lent to the wait-state
		 * sampler (waits_io_from): the worker's own, at its start */
		struct proctree_task *tv = NULL;
		size_t tcap = 0;
		long nt = proctree_tasks(f.t, &tv, &tcap, &e);
		struct pidstat_io io = { 0 };
		unsigned long long st = 0;
		pid_t tid = nt == 1 ? tv[0].tid : 0;

		st = tid ? proctree_start_time("/", tid) : 0;
		OK(tid && proctree_thread_io(f.t, tid, st, &io) == 0 &&
		   io.wchar >= 1 << 20 && io.rchar < io.wchar,
		   "exits: the worker's io as the books read it (wchar 1 MiB)");
		OK(tid && proctree_thread_io(f.t, tid, st + 1, &io) < 0,
		   "exits: ... not for another start time (a reused id)");
		free(tv);
	}
	OK(write(go[1], &x, 1) == 1, "exits: let the worker go on");
	usleep(300000);
	drain_into(l, &f);
	OK(proctree_read(f.t, &r1, &e) == 0, "exits: read after the child");
	EQ_INT(f.taken, 1, "exits: the auto-reaped child's record taken");
	EQ_DBL((double)(r1.write_bytes - r0.write_bytes), 4 << 20, 1024,
	       "exits: its 3 MiB and the worker's 1 MiB, once");
	OK(write(go[1], &x, 1) == 1, "exits: let the worker end");
	usleep(300000);
	drain_into(l, &f);
	EQ_INT(f.taken, 2, "exits: the worker's own record taken");
	for (int i = 0; i < 4; i++)	/* past the books' grace */
		OK(proctree_read(f.t, &r2, &e) == 0, "exits: read after the end");
	EQ_DBL((double)r2.write_bytes, (double)r1.write_bytes, 1024,
	       "exits: nothing counted twice after the end");
	OK(write(end[1], &x, 1) == 1, "exits: the shim ends");
	waitpid(root, NULL, 0);
	close(go[0]), close(go[1]), close(end[0]), close(end[1]);
	proctree_close(f.t);
	taskstats_close(l);
}

/* A late catch-up of exit records: the excess over the CPUs is carried
 * into the next rows, none lost, no row above the CPUs (issue 21). */
static void test_carry(void)
{
	/* the tree's totals at five reads a second apart: 3.3 CPU-s in the
	 * first second on 2 CPUs (records read late), then 0.1 s a second */
	static const uint64_t total[5] = { 0, 3300000, 3400000, 3500000,
					   3600000 };
	struct proc_raw a = { .mono = 10, .cpu_us = 0, .nprocs = 1 }, b;
	struct instance_values v;
	double sum = 0, top = 0;

	for (int i = 1; i < 5; i++) {
		uint64_t over;
		double p;

		b = a;
		b.mono = 10 + i;
		b.cpu_us = total[i];
		over = rates_process_carry(&a, &b, 2);
		if (i == 1)
			EQ_INT(over, 1300000, "carry: 1.3 s over 2 CPUs carried");
		memset(&v, 0, sizeof(v));
		rates_process(&a, &b, &v);
		p = v.v[IDX(CTR_PROC_PROCESSOR_TIME)];
		sum += p;
		top = p > top ? p : top;
		a = b;	/* the lowered total is the next prev */
	}
	OK(top <= 200.0 + 1e-9, "carry: no row above 2 CPUs");
	EQ_DBL(sum, 360.0, 1e-6, "carry: the integral is kept (3.6 CPU-s)");
	printf("# rows summed %.1f%%, highest %.1f%%\n", sum, top);
	b = a;
	b.mono += 1;
	b.cpu_us += 500000;
	EQ_INT(rates_process_carry(&a, &b, 2), 0, "carry: none when it fits");
	b.cpu_us += 5000000;
	EQ_INT(rates_process_carry(&a, &b, 0), 0, "carry: none for unknown CPUs");
}

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
	char dir[] = "/tmp/perflog-idle.XXXXXX", cmd[256];
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
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	OK(system(cmd) == 0, "idle: cleanup");
}

/* A process's threads that ran have their io read only when its whole
 * io (/proc/PID/io) moved since the last read (process_books.c
 * read_ios): two or more of them, and the whole read at the last read
 * too. The thread files below move while the whole does not, so a read
 * of them shows. */
static void test_whole_io(void)
{
	char dir[] = "/tmp/perflog-wio.XXXXXX", cmd[256], line[64];
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
		{ 3300, 1, 2200, 2200 + 2100 + 1000,
		  "whole io: one ran: read, the whole not" },
		{ 3300, 3, 2300, 2300 + 2300 + 1000,
		  "whole io: the whole as two reads ago, not read at the last: "
		  "read" },
		{ 3300, 3, 2400, 2300 + 2300 + 1000,
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
	/* 702 ran and its io cannot be read: its old io is not lent to
	 * the wait-state sampler as this read's; 700's (not run) is */
	{
		struct pidstat_io io;
		char rel[64];

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
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	OK(system(cmd) == 0, "whole io: cleanup");
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
	snprintf(cmd, sizeof(cmd), "rm -rf %s/proc/700/task/701 && "
		 "mkdir -p %s/proc/700/task/711", dir, dir);
	OK(system(cmd) == 0, "task list: 701 gone, 711 come");
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
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	OK(system(cmd) == 0, "task list: cleanup");
}

int main(void)
{
	test_procfds();
	test_fixture();
	test_rootless();
	test_walk_or_scan();
	test_pid_reuse();
	test_idle_threads();
	test_whole_io();
	test_task_list();
	test_rates();
	test_carry();
	test_live();
	test_exits();
	return done_testing();
}
