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

#include "../../common/rmtree.h"
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
	OK(rmtree(dir) == 0, "walk or scan: cleanup");
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
	OK(rmtree(dir) == 0, "reuse: cleanup");
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
		pid_t *tv = NULL;
		size_t tcap = 0;
		long nt = proctree_procs(f.t, &tv, &tcap);
		struct pidstat_io io = { 0 };
		unsigned long long st = 0;
		pid_t tid = nt == 1 ? tv[0] : 0;	/* one thread */

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

int main(void)
{
	test_fixture();
	test_rootless();
	test_walk_or_scan();
	test_pid_reuse();
	test_rates();
	test_carry();
	test_live();
	test_exits();
	return done_testing();
}
