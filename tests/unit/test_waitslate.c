/*
 * test_waitslate.c - exit records and reads that come late, each case on
 * a scratch /proc root of its own (test_waitsfirst.c has the slow tick
 * and the records of a tick's threads).
 *
 * A record that came before any tick listed its thread, and a tick that
 * lists the thread after it, alive late in its exit (a task sends its
 * record before it leaves /proc, and the collector's read had given it
 * to the set): one row, its CPU counted once in the session's totals.
 * Before, the tick made it a second row of the same (tid, start), and
 * t3015's six reaped jobs summed 0.452 s of CPU against the 0.383 s they
 * used, once in five runs beside other suites (record_then_listed).
 *
 * A tick that lists a new thread 0.5 s after its moment (the sampler
 * held on a loaded host): the thread's start is the uptime's, on the
 * monotonic clock, so the session's totals count it. Dated from the
 * tick's moment, it began before the session's first read, and t7720
 * missed up to 206 of 2,002 rows beside stress-ng (listed_late).
 *
 * A record placed late (it waited in the Process books for its parent)
 * finishes its thread's row however late it comes (placed_late), and
 * one that comes seconds after a read took its thread's row makes no
 * second (records_long_after); the sampler's memory of the rows it
 * ended, under churn (gone_churn). A thread whose read fails once is in
 * that read as it was, its CPU counted once (unreadable_once).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../process/process.h"
#include "../../waits/waits.h"
#include "../../waits/waitrates.h"
#include "../../waits/waits_int.h"
#include "fixtures.h"
#include "tap.h"
#include "waitsnap.h"

/* A record of tid (its parent 930, none of these roots' processes): each
 * case sets when it came. */
static struct waits_exit record(pid_t tid, double etime, uint64_t cpu_us)
{
	return snap_exit(tid, 930, etime, cpu_us, util_monotonic());
}

/* A scratch root of a case's own: its process's thread set, two reads
 * and the session's totals of them. */
struct root2 {
	char dir[64];
	struct waits *w;
	struct waits_snap a, b;
	struct waits_totals tot;
	struct waits_values v;
};

/* The sampler on root r, made by the caller, watching pid; 0 or -1. */
static int root2_watch(struct root2 *r, pid_t pid, const char *what)
{
	struct perr e;

	r->w = waits_open(r->dir, &e);
	OK(r->w && waits_watch_pids(r->w, &pid, 1, &e) == 0, what);
	return r->w ? 0 : -1;
}

/* Root r (its dir a mkdtemp template) made: process pid, named comm,
 * of one thread (uptime 50.30: started at 50.00 s), watched, ticked and
 * read into r->a, the session begun a second before: 0, or -1. */
static int root2_alone(struct root2 *r, pid_t pid, const char *comm,
		       const char *what)
{
	char path[200], stat[200];
	double t0;

	if (!mkdtemp(r->dir))
		return -1;
	fixture_put(r->dir, "proc/uptime", "50.30 80.00\n");
	snprintf(path, sizeof(path), "proc/%d/stat", (int)pid);
	snprintf(stat, sizeof(stat),
		 "%d (%s) S 1 %d %d 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5000 0 0 0\n",
		 (int)pid, comm, (int)pid, (int)pid);
	fixture_put(r->dir, path, stat);
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d", r->dir, (int)pid,
		 (int)pid);
	util_mkdirs(path, 0755);
	fixture_thread(r->dir, pid, pid, pid, comm, 'S', 1, 1000000, 0, 1);
	if (root2_watch(r, pid, what) < 0)
		return -1;
	t0 = util_monotonic();
	waits_tick(r->w, t0);
	EQ_INT(waits_read(r->w, t0, &r->a), 0, "... and read alone");
	r->tot.since = t0 - 1.0;
	return 0;
}

/* The totals of tid: how many, and the last (NULL: none). */
static int totals_of(const struct waits_totals *tot, pid_t tid,
		     const struct waits_total **last)
{
	int n = 0;

	for (size_t i = 0; i < tot->n; i++)
		if (tot->t[i].tid == tid) {
			if (last)
				*last = &tot->t[i];
			n++;
		}
	return n;
}

static void root2_drop(struct root2 *r, const char *what)
{
	waitrates_totals_free(&r->tot);
	waits_snap_free(&r->a);
	waits_snap_free(&r->b);
	waits_close(r->w);
	OK(rmtree(r->dir) == 0, what);
}

/* Process 960 of a scratch root of its own (uptime 50.30: started at
 * 50.00 s, it is 0.3 s old) with thread 960, watched; its thread 961,
 * 0.295 s old, ends: its record (250 ms of CPU) is taken before any
 * tick listed it, then a tick lists it, still there. The real clock
 * throughout: a record's start is reckoned from it. */
static void record_then_listed(void)
{
	static struct root2 r = { .dir = "/tmp/perflog-first-XXXXXX" };
	char *dir = r.dir, path[200];
	struct waits *w;
	struct waits_exit x;
	const struct waits_total *t = NULL;
	double t0 = util_monotonic();

	if (!mkdtemp(dir))
		return;
	fixture_put(dir, "proc/uptime", "50.30 80.00\n");
	fixture_put(dir, "proc/960/stat",
		    "960 (reaper) S 1 960 960 0 -1 0 0 0 0 0 0 0 0 0 20 0 2 0 5000 0 0 0\n");
	snprintf(path, sizeof(path), "%s/proc/960/task/960", dir);
	util_mkdirs(path, 0755);
	fixture_thread(dir, 960, 960, 960, "reaper", 'S', 1, 1000000, 0, 1);
	if (root2_watch(&r, 960, "a second root: 960 watched") < 0)
		return;
	w = r.w;
	waits_tick(w, t0);
	EQ_INT(waits_read(w, t0, &r.a), 0, "a read: 960 alone");
	r.tot.since = t0 - 1.0;	/* the session began before 961 */
	x = record(961, 0.295, 250000);
	x.x.tgid = 960;
	x.at = util_monotonic();
	EQ_INT(waits_exits(w, &x, 1), 1, "961's record, no tick having listed it: a row");
	snprintf(path, sizeof(path), "%s/proc/960/task/961", dir);
	util_mkdirs(path, 0755);
	fixture_thread(dir, 961, 960, 961, "worker", 'R', 2, 250000000, 0, 3);
	waits_tick(w, t0 + 1.1);	/* a full listing: 961 there */
	EQ_INT(waits_read(w, t0 + 1.2, &r.b), 0, "a read after a tick that lists 961");
	EQ_INT(snap_rows(&r.b, 961), 1, "961 alive late in its exit: one row, its record's");
	EQ_INT(waitrates_compute(&r.a, &r.b, &r.v, &r.tot), 0, "the session's totals");
	EQ_INT(totals_of(&r.tot, 961, &t), 1, "961 has one total");
	EQ_DBL(t ? t->sec[WS_CPU] : -1, 0.25, 0.0005,
	       "... its CPU the 0.25 s it used, counted once");
	root2_drop(&r, "second scratch root removed");
}

/* A tick that lists a new thread late: the sampler takes the tick's
 * moment, then is held before its listing (t7720 beside stress-ng: a
 * tick over 2,003 threads listed them 0.58 s after its moment). The
 * thread's start is reckoned from the uptime when it was read, on the
 * monotonic clock (waits.h born); from the tick's moment it was dated
 * 0.58 s early, before the session's first read, and the totals left it
 * out as a thread that lived before the watch: 206 of 2,002 threads had
 * no row. Process 970 of a scratch root (uptime 50.90 at every read),
 * watched from a read; 1 s later, its thread 971, begun 0.9 s before
 * (at 50.00 s), after that read, is listed by a tick whose moment was
 * 0.5 s before; its thread 972, begun 0.1 s before, after that moment,
 * ends before the next read: its figures' time was the tick's moment,
 * before its start, and a row of no time counts nothing. Every time on
 * the monotonic clock as it is when the call is made: a stalled test
 * only moves the starts later. */
static void listed_late(void)
{
	static struct root2 s = { .dir = "/tmp/perflog-first-XXXXXX" };
	char *dir = s.dir, path[200];
	struct waits *w;
	const struct waits_thread *r;
	double t;

	if (!mkdtemp(dir))
		return;
	fixture_put(dir, "proc/uptime", "50.90 80.00\n");
	fixture_put(dir, "proc/970/stat",
		    "970 (pool) S 1 970 970 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 4000 0 0 0\n");
	fixture_put(dir, "proc/970/task/970/stat",
		    "970 (pool) S 1 970 970 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 4000 0 0 0\n");
	fixture_put(dir, "proc/970/task/970/schedstat", "1000000 0 1\n");
	fixture_put(dir, "proc/970/task/970/wchan", "0");
	if (root2_watch(&s, 970, "late: 970 watched") < 0)
		return;
	w = s.w;
	t = util_monotonic();
	waits_tick(w, t);
	EQ_INT(waits_read(w, t, &s.a), 0, "late: the session's first read, 970 alone");
	s.tot.since = t;
	snap_nap(1.0);	/* the uptime file says 50.90 at its reads from now on */
	/* 971 begins (at 50.00 s of uptime); 970's count moves */
	snprintf(path, sizeof(path), "%s/proc/970/task/971", dir);
	util_mkdirs(path, 0755);
	fixture_thread(dir, 971, 970, 971, "pool", 'S', 2, 5000000, 0, 1);
	snprintf(path, sizeof(path), "%s/proc/970/task/972", dir);
	util_mkdirs(path, 0755);
	fixture_thread(dir, 972, 970, 972, "pool", 'S', 3, 5000000, 0, 1);
	fixture_put(dir, "proc/972/task/972/stat",
		    "972 (pool) S 1 970 970 0 -1 0 0 0 0 0 0 0 0 0 20 0 3 0 5080 0 0 0\n");
	fixture_put(dir, "proc/970/stat",
		    "970 (pool) S 1 970 970 0 -1 0 0 0 0 0 0 0 0 0 20 0 3 0 4000 0 0 0\n");
	/* its moment 0.5 s before its listing */
	waits_tick(w, util_monotonic() - 0.5);
	snprintf(path, sizeof(path), "%s/proc/972/task/972/schedstat", dir);
	OK(truncate(path, 0) == 0, "late: 972 is gone");
	EQ_INT(waits_read(w, util_monotonic(), &s.b), 0, "late: a read after the tick");
	r = snap_find(&s.b, 971);
	OK(r && r->born > t,
	   "late: 971 began after the session's first read, as the uptime says");
	if (r)
		printf("#   971 born %.3f s after the first read\n",
		       r->born - t);
	EQ_INT(waitrates_compute(&s.a, &s.b, &s.v, &s.tot), 0, "late: the session's totals");
	r = snap_find(&s.b, 972);
	OK(r && !r->alive && r->t > r->born,
	   "late: 972, begun after the tick's moment, ended: alive when listed");
	EQ_INT(totals_of(&s.tot, 971, NULL), 1,
	       "late: 971, begun since the session's first read, has its total");
	EQ_INT(totals_of(&s.tot, 972, NULL), 1, "late: 972 too");
	root2_drop(&s, "late: scratch root removed");
}

/* Records the Process books placed late (process.h proctree_late: a
 * child of a shell born since their last read waits for the read that
 * knows the shell). Process 980 of a scratch root (uptime 50.30: it and
 * its thread 981 started at 50.00 s) watched; a tick lists 981 (as sh:
 * not yet exec'ed), a read, then 981 ends (a tick ends its row, no read
 * takes it) and its record comes; the read that places it comes over
 * two seconds later, other rows made meanwhile. The record finishes
 * 981's row: one row, the record's bytes, CPU and name (`sh -c 'head |
 * cat; sleep 2'` at -i 5: head's and cat's rows kept io_bytes 0 and the
 * name sh). Records of 982, which came before the read, and 983, which
 * came after, no tick having listed either, make their rows: no read
 * took a row of theirs (the sampler keeps the rows it ended until their
 * records come; it dropped 982's when it kept them 1-2 s). */
static void placed_late(void)
{
	static struct root2 r = { .dir = "/tmp/perflog-first-XXXXXX" };
	char *dir = r.dir, path[200];
	struct waits *w;
	struct waits_exit x, other, before, after;
	const struct waits_thread *t;
	double t0, t1;

	if (!mkdtemp(dir))
		return;
	fixture_put(dir, "proc/uptime", "50.30 80.00\n");
	fixture_put(dir, "proc/980/stat",
		    "980 (sh) S 1 980 980 0 -1 0 0 0 0 0 0 0 0 0 20 0 2 0 5000 0 0 0\n");
	for (int tid = 980; tid <= 981; tid++) {
		snprintf(path, sizeof(path), "%s/proc/980/task/%d", dir, tid);
		util_mkdirs(path, 0755);
		fixture_thread(dir, tid, 980, tid, "sh", 'S', 2, 1000000, 0, 1);
	}
	if (root2_watch(&r, 980, "placed late: 980 watched") < 0)
		return;
	w = r.w;
	t0 = util_monotonic();
	waits_tick(w, t0);
	EQ_INT(waits_read(w, t0, &r.a), 0, "placed late: a read, 980 and 981 listed");
	before = record(982, 0.3, 1000);
	before.at = t0 - 0.05;	/* came before that read */
	snprintf(path, sizeof(path), "%s/proc/981/task/981/schedstat", dir);
	OK(truncate(path, 0) == 0, "placed late: 981 is gone");
	t1 = util_monotonic();
	waits_tick(w, t1);	/* ends its row: no read takes it */
	x = record(981, 0, 200000);
	x.x.tgid = 980;
	x.x.wchar = 100000000;
	x.x.rchar = 100000000;
	x.at = t1 + 0.01;	/* it came, and waited in the books */
	x.x.etime = x.at - (t0 - 0.30);
	for (int k = 0; k < 2; k++) {	/* other rows rotate the memory */
		snap_nap(1.05);
		other = record(990 + k, 0.3, 1000);
		other.at = util_monotonic();
		EQ_INT(waits_exits(w, &other, 1), 1, "placed late: another thread's row");
	}
	after = record(983, 0.3, 1000);
	after.at = util_monotonic() - 0.1;	/* came after the read */
	{
		struct waits_exit v[3] = { x, before, after };

		EQ_INT(waits_exits(w, v, 3), 2, "placed late: the records given at last: two rows made");
	}
	EQ_INT(waits_read(w, util_monotonic(), &r.b), 0, "placed late: the read after");
	EQ_INT(snap_rows(&r.b, 981), 1, "placed late: 981 has one row");
	t = snap_find(&r.b, 981);
	OK(t && t->rchar == 100000000 && t->wchar == 100000000 &&
	   t->cpu_ns == 200000000ULL && !strcmp(t->comm, "worker"),
	   "... with its record's bytes, CPU and name");
	if (t)
		printf("#   981: rchar %llu wchar %llu cpu %llu ns, %s\n",
		       (unsigned long long)t->rchar,
		       (unsigned long long)t->wchar,
		       (unsigned long long)t->cpu_ns, t->comm);
	EQ_INT(snap_rows(&r.b, 982), 1,
	       "placed late: a record that came before the last read, of a thread no tick listed, makes its row");
	EQ_INT(snap_rows(&r.b, 983), 1,
	       "placed late: one that came after it makes its row");
	root2_drop(&r, "placed late: scratch root removed");
}

/* Records that come long after the tick that ended their threads: the
 * collector's loop held (librrd writes, a 2-core host at load 20), they
 * were drained, or placed by the books (late), 2.5 s after. t3015's six
 * reaped jobs summed 0.640 s of CPU against the 0.557 s they used: the
 * memory of gone rows was kept 1-2 s, and a record that came after it
 * had forgotten a thread made a second row of it (dated from the
 * record's coming, another start), its CPU counted twice.
 *
 * Process 1000 of a scratch root (uptime 50.30: each thread started at
 * 50.00 s, 0.3 s before its listing) is read alone; threads 1001-1004
 * begin and a tick lists them. 1001, 1002 and 1004 end (a tick ends
 * their rows, a read takes them), then 1003 (a tick ends its row, no
 * read takes it). 2.5 s later, other rows made meanwhile, the records
 * come: 1001's drained, 1002's placed late, 1003's (its CPU now 260
 * ms), a new task of tid 1004 (begun 2.5 s after the old one, 50 ms
 * before its record) before the old 1004's, and a new task of tid 1001
 * after the old one's. Expected: no second row of 1001-1004, each one
 * total, its CPU once; 1003's row the record's final figures, dated at
 * its end (its birth and the record's life), not 2.5 s later when the
 * record came; a row for each new task. And a record of 1005, no tick
 * having listed it, drained 2.5 s after its end: its birth not dated
 * 2.5 s late (the record's begin time, in whole seconds, bounds it). */
static void records_long_after(void)
{
	static struct root2 r = { .dir = "/tmp/perflog-first-XXXXXX" };
	char *dir = r.dir, path[200];
	struct waits *w;
	struct waits_exit x[7], other;
	struct waits_snap c = { 0 };
	const struct waits_thread *t;
	const struct waits_total *tt = NULL;
	double t1, t2, born = 0, wall, late_at;

	/* the jobs begin within the session */
	if (root2_alone(&r, 1000, "jobs", "long after: 1000 watched") < 0)
		return;
	w = r.w;
	for (int tid = 1001; tid <= 1004; tid++) {
		snprintf(path, sizeof(path), "%s/proc/1000/task/%d", dir, tid);
		util_mkdirs(path, 0755);
		fixture_thread(dir, tid, 1000, tid, "job", 'R', 5, 250000000, 0, 1);
	}
	snap_nap(1.05);	/* a full listing a second */
	waits_tick(w, util_monotonic());	/* lists them */
	for (int tid = 1001; tid <= 1004; tid += tid == 1002 ? 2 : 1) {
		snprintf(path, sizeof(path), "%s/proc/%d/task/%d/schedstat",
			 dir, tid, tid);
		OK(truncate(path, 0) == 0, "long after: a job is gone");
	}
	t1 = util_monotonic();
	waits_tick(w, t1);	/* ends 1001, 1002, 1004 */
	EQ_INT(waits_read(w, util_monotonic(), &r.b), 0, "long after: a read takes their rows");
	t = snap_find(&r.b, 1001);
	OK(t && !t->alive, "long after: 1001's row ended, in that read");
	if (t)
		born = t->born;
	EQ_INT(waitrates_compute(&r.a, &r.b, &r.v, &r.tot), 0, "long after: the totals");
	snap_nap(0.1);	/* its last 10 ms of CPU since that read */
	snprintf(path, sizeof(path), "%s/proc/1003/task/1003/schedstat", dir);
	OK(truncate(path, 0) == 0, "long after: 1003 is gone");
	t2 = util_monotonic();
	waits_tick(w, t2);	/* ends 1003: a row no read has taken */
	for (int k = 0; k < 2; k++) {	/* other rows rotate the memory */
		snap_nap(1.25);
		other = record(1090 + k, 0.3, 1000);
		other.at = util_monotonic();
		EQ_INT(waits_exits(w, &other, 1), 1, "long after: another thread's row");
	}
	wall = util_walltime() - util_monotonic();
	late_at = util_monotonic();
	for (int i = 0; i < 7; i++) {
		static const pid_t tids[7] = { 1004, 1001, 1002, 1003, 1004, 1001, 1005 };

		x[i] = record(tids[i], t1 - 0.01 - born, 250000);
		x[i].x.tgid = 1000;
		x[i].x.btime = floor(born + wall);
		x[i].at = late_at;
	}
	x[0].x.etime = 0.05;	/* the new task of tid 1004 */
	x[0].x.btime = floor(late_at - 0.05 + wall);
	x[2].at = late_at - 0.1;	/* placed after the read */
	x[3].x.etime = t2 - 0.01 - born;
	x[3].x.cpu_us = 260000;
	x[5].x.etime = 0.05;	/* the new task of tid 1001 */
	x[5].x.btime = floor(late_at - 0.05 + wall);
	x[6].x.etime = 0.3;	/* 1005, ended at t2 */
	x[6].x.btime = floor(t2 - 0.3 + wall);
	EQ_INT(waits_exits(w, x, 7), 3,
	       "long after: the records 2.5 s late: rows for the new tasks of 1004 and 1001, and 1005, none else");
	EQ_INT(waits_read(w, util_monotonic(), &c), 0, "long after: the read after");
	EQ_INT(snap_rows(&c, 1001), 1, "long after: 1001 the new task's row alone");
	EQ_INT(snap_rows(&c, 1002), 0, "long after: 1002 (its record placed late) none");
	EQ_INT(snap_rows(&c, 1003), 1, "long after: 1003 one row");
	EQ_INT(snap_rows(&c, 1004), 1, "long after: 1004 the new task's row alone");
	t = snap_find(&c, 1003);
	OK(t && t->cpu_ns == 260000000ULL && t->t > t2 - 0.06 && t->t < t2 + 0.05,
	   "long after: 1003 has the record's final CPU, dated at its end");
	if (t)
		printf("#   1003: cpu %llu ns, ends %.3f s after the tick that found it gone\n",
		       (unsigned long long)t->cpu_ns, t->t - t2);
	t = snap_find(&c, 1005);
	OK(t && t->born < t2 - 0.3 + 1.05,
	   "long after: 1005, drained 2.5 s after its end, is not dated 2.5 s late");
	if (t)
		printf("#   1005: born %.3f s after its start\n", t->born - (t2 - 0.3));
	EQ_INT(waitrates_compute(&r.b, &c, &r.v, &r.tot), 0, "long after: the totals after");
	for (pid_t tid = 1002; tid <= 1003; tid++) {
		EQ_INT(totals_of(&r.tot, tid, &tt), 1, "long after: a job has one total");
		EQ_DBL(tt ? tt->sec[WS_CPU] : -1, tid == 1003 ? 0.26 : 0.25, 0.0005,
		       "... its CPU the time it used, counted once");
	}
	EQ_INT(totals_of(&r.tot, 1001, NULL), 2, "long after: 1001's two tasks, one total each");
	EQ_INT(totals_of(&r.tot, 1004, NULL), 2, "long after: 1004's two tasks, one total each");
	waits_snap_free(&c);
	root2_drop(&r, "long after: scratch root removed");
}

/* The memory of gone rows (waitgone.c) under churn: 6,000 rows, of 2,000
 * tids each ended three times, by tasks born 3 s apart, taken back by
 * their records in another order: each record takes its own task's row
 * (by its begin time), every row once, none left; a record of no row
 * takes none. */
static void gone_churn(void)
{
	struct waits_gones g = { 0 };
	struct waits_thread th;
	double now = util_monotonic(), wall = util_walltime() - now;
	int taken = 0, right = 0;

	memset(&th, 0, sizeof(th));
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < 2000; i++) {
			th.tid = 5000 + i * 7;
			th.born = now - 9 + 3 * k;
			waits_gone_add(&g, &th, th.born + 1.0, 0);
		}
	EQ_INT((int)g.n, 6000, "gone: 6,000 rows kept");
	for (int j = 0; j < 6000; j++) {
		int i = (j * 7919) % 2000, k = (j / 2000 + i) % 3;
		struct taskstats_exit x = { .tid = 5000 + i * 7, .etime = 0.9 };
		double born = 0;

		x.btime = floor(now - 9 + 3 * k + wall);
		if (waits_gone_take(&g, &x, now, wall, &born)) {
			taken++;
			right += born == now - 9 + 3 * k;
		}
	}
	EQ_INT(taken, 6000, "gone: each record took a row");
	EQ_INT(right, 6000, "... its own task's");
	EQ_INT((int)g.n, 0, "... and none is left");
	{
		struct taskstats_exit x = { .tid = 5000, .etime = 0.9 };
		double born = 0;

		EQ_INT(waits_gone_take(&g, &x, now, wall, &born), 0,
		       "gone: a record of no row takes none");
	}
	waits_gone_free(&g);
}

/* A thread whose read fails once (it ends between its schedstat and its
 * stat) is in that read as it was: left out, it had no previous at the
 * next read, which counted its whole life again in the same total
 * (t3015: six rows, their CPU 0.472 s against the 0.396 s they used).
 * Process 1100 of a scratch root read alone; its thread 1101 (100 ms of
 * CPU) listed and read; then its stat unreadable at a read; then gone. */
static void unreadable_once(void)
{
	static struct root2 r = { .dir = "/tmp/perflog-first-XXXXXX" };
	char *dir = r.dir, path[200];
	struct waits *w;
	struct waits_snap c = { 0 }, d = { 0 };
	const struct waits_total *tt = NULL;

	if (root2_alone(&r, 1100, "pool", "unreadable: 1100 watched") < 0)
		return;
	w = r.w;
	snprintf(path, sizeof(path), "%s/proc/1100/task/1101", dir);
	util_mkdirs(path, 0755);
	fixture_thread(dir, 1101, 1100, 1101, "job", 'R', 2, 100000000, 0, 1);
	snap_nap(1.05);	/* a full listing a second */
	waits_tick(w, util_monotonic());
	EQ_INT(waits_read(w, util_monotonic(), &r.b), 0, "unreadable: a read, 1101 listed");
	OK(snap_find(&r.b, 1101) != NULL, "unreadable: 1101 in it");
	EQ_INT(waitrates_compute(&r.a, &r.b, &r.v, &r.tot), 0, "unreadable: the totals");
	fixture_put(dir, "proc/1101/task/1101/schedstat", "100000000 0 2\n");
	fixture_put(dir, "proc/1101/task/1101/stat", "");
	snap_nap(0.05);
	EQ_INT(waits_read(w, util_monotonic(), &c), 0, "unreadable: a read, 1101's stat unreadable");
	OK(snap_find(&c, 1101) != NULL, "unreadable: 1101 in it as it was");
	EQ_INT(waitrates_compute(&r.b, &c, &r.v, &r.tot), 0, "unreadable: the totals");
	snprintf(path, sizeof(path), "%s/proc/1101/task/1101/schedstat", dir);
	OK(truncate(path, 0) == 0, "unreadable: 1101 is gone");
	snap_nap(0.05);
	waits_tick(w, util_monotonic());
	EQ_INT(waits_read(w, util_monotonic(), &d), 0, "unreadable: the read after");
	EQ_INT(waitrates_compute(&c, &d, &r.v, &r.tot), 0, "unreadable: the totals");
	EQ_INT(totals_of(&r.tot, 1101, &tt), 1, "unreadable: 1101 one total");
	EQ_DBL(tt ? tt->sec[WS_CPU] : -1, 0.1, 0.0005,
	       "... its CPU the 0.1 s it used, counted once");
	waits_snap_free(&c);
	waits_snap_free(&d);
	root2_drop(&r, "unreadable: scratch root removed");
}

/* A short job's record with delay accounting on carries its run-queue
 * wait: a job of a quota's loop ($(date) in t7771), alive 0.08 s, 8 ms
 * on a CPU and 70 ms queued (throttled), is 70 ms of CPU wait, not
 * "other" as a record without it (the kernel's default) leaves it. */
static void record_delays(void)
{
	for (int on = 0; on < 2; on++) {
		struct root2 r = { .dir = "/tmp/perflog-delay-XXXXXX" };
		const struct waits_total *t = NULL;
		struct waits_exit x;

		if (root2_alone(&r, 980, "sh", on ? "delays: 980 watched" :
			    "no delays: 980 watched") < 0)
			return;
		x = record(981, 0.08, 8000);
		x.x.tgid = 981;
		x.x.ppid = 980;
		if (on) {
			x.x.runq_ns = 70000000;
			x.x.blkio_ns = 0;
		}
		snprintf(x.x.comm, sizeof(x.x.comm), "date");
		x.at = util_monotonic();
		waits_exits(r.w, &x, 1);
		waits_tick(r.w, x.at + 0.1);
		EQ_INT(waits_read(r.w, x.at + 0.1, &r.b), 0, "delays: read");
		EQ_INT(waitrates_compute(&r.a, &r.b, &r.v, &r.tot), 0,
		       "delays: the totals");
		OK(totals_of(&r.tot, 981, &t) == 1, "delays: the job has a row");
		EQ_DBL(t ? t->sec[WS_CPU_WAIT] : -1, on ? 0.07 : 0, 0.0015,
		       on ? "delays on: its 70 ms queued are CPU wait" :
			    "delays off: no CPU wait known");
		EQ_DBL(t ? t->sec[WS_OTHER] : -1, on ? 0.002 : 0.072, 0.0015,
		       on ? "delays on: 2 ms other" : "delays off: the rest other");
		root2_drop(&r, "delays: scratch root removed");
	}
}

int main(void)
{
	record_then_listed();
	listed_late();
	placed_late();
	records_long_after();
	gone_churn();
	unreadable_once();
	record_delays();
	return done_testing();
}
