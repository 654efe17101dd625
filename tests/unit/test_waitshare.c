/*
 * test_waitshare.c - the wait-state sampler's turns on a large set
 * (waits/waitshare.c): a fake /proc with one process of 300 sleeping
 * threads. A tick reads at most WAITS_TICK_THREADS (128) of them, in
 * turn; each read stands for the ticks since the thread's last, so after
 * T ticks every thread carries T ticks but for the ones whose turn has
 * not come round yet; a set of 128 or fewer is read whole at every tick.
 * The turn fitted to the budget (waits_share_fit): a tick of loadgen's
 * 2,000 threads cost 4 ms and 78 us more a thread of its turn, over the
 * 8 ms the budget allows at the rate's 1 Hz floor; cut past the budget,
 * grown back well under it, within 16..128.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../waits/waits.h"
#include "../../waits/waits_int.h"
#include "tap.h"
#include "waitsnap.h"

#define NTHREADS 300
#define PER_TICK 128

static char root[64];

/* The scratch root removed, w closed and a and b freed (each may be
 * NULL); what says whose, for the check that fails when it cannot. */
static void drop(struct waits *w, struct waits_snap *a, struct waits_snap *b,
		 const char *what)
{
	if (a)
		waits_snap_free(a);
	if (b)
		waits_snap_free(b);
	waits_close(w);
	if (rmtree(root) != 0)
		OK(0, what);
}

/* proc/700 with threads 700..700+n-1, each asleep in nanosleep. */
static int make_root(int n)
{
	char path[256], cmd[512];
	FILE *f;

	snprintf(root, sizeof(root), "/tmp/perflog-waitshare-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc/700/task %s/proc/sys/kernel"
		 " && echo 1 > %s/proc/sys/kernel/task_delayacct"
		 " && echo '1000.00 1500.00' > %s/proc/uptime", root, root, root,
		 root);
	if (system(cmd) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s/proc/700/stat", root);
	if (!(f = fopen(path, "w")))
		return -1;
	fprintf(f, "700 (client) S 1 700 700 0 -1 4194368 0 0 0 0 10 5 0 0 20 0 %d 0 99000 1000000 100 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", n);
	fclose(f);
	for (int t = 700; t < 700 + n; t++) {
		static const char *const name[] = { "stat", "schedstat", "wchan", "io" };

		for (int k = 0; k < 4; k++) {
			snprintf(path, sizeof(path), "%s/proc/700/task/%d", root, t);
			mkdir(path, 0755);
			snprintf(path, sizeof(path), "%s/proc/700/task/%d/%s", root, t,
				 name[k]);
			if (!(f = fopen(path, "w")))
				return -1;
			if (k == 0)
				fprintf(f, "%d (client) S 1 700 700 0 -1 4194368 0 0 0 0 10 5 0 0 20 0 1 0 99000 1000000 100 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", t);
			else if (k == 1)
				fprintf(f, "20000000 1000000000 7\n");
			else if (k == 2)
				fprintf(f, "hrtimer_nanosleep");
			else
				fprintf(f, "rchar: 0\nwchar: 0\nread_bytes: 0\nwrite_bytes: 0\n");
			fclose(f);
		}
		if (t != 700) {
			snprintf(path, sizeof(path), "%s/proc/%d", root, t);
			if (symlink("700", path) < 0)
				return -1;
		}
	}
	return 0;
}

static uint64_t sleep_ticks(const struct waits_snap *s, size_t i)
{
	return s->th[i].ticks[WAIT_SLEEP];
}

static void run(int n)
{
	struct perr e;
	struct waits *w;
	struct waits_snap a = { 0 }, b = { 0 };
	pid_t pid = 700;
	int ticks = 9, most = 0, fewest = 1 << 30, over = 0;
	uint64_t total = 0;
	char name[128];

	if (make_root(n) < 0) {
		OK(0, "scratch root made");
		return;
	}
	w = waits_open(root, &e);
	OK(w != NULL, "open on the scratch root");
	if (!w)
		return;
	EQ_INT(waits_watch_pids(w, &pid, 1, &e), 0, "watch pid 700");
	waits_read(w, 999.0, &a);
	for (int k = 0; k < ticks; k++) {
		int moved = 0;

		EQ_INT(waits_tick(w, 1000.0 + k), n, "a tick keeps every thread");
		waits_read(w, 1000.0 + k, &b);
		for (size_t i = 0; i < b.n; i++) {
			const struct waits_thread *p = NULL;

			for (size_t j = 0; j < a.n && !p; j++)
				if (a.th[j].tid == b.th[i].tid)
					p = &a.th[j];
			if (sleep_ticks(&b, i) != (p ? p->ticks[WAIT_SLEEP] : 0))
				moved++;
		}
		if (k == 0)
			EQ_INT(moved, n, "the first tick reads every new thread");
		else if (moved > PER_TICK)
			over++;
		{
			struct waits_snap t = a;

			a = b;
			b = t;
		}
	}
	snprintf(name, sizeof(name), "%d threads: no tick read more than %d",
		 n, PER_TICK);
	EQ_INT(over, 0, name);
	for (size_t i = 0; i < a.n; i++) {
		int t = (int)sleep_ticks(&a, i);

		total += (uint64_t)t;
		most = t > most ? t : most;
		fewest = t < fewest ? t : fewest;
	}
	EQ_INT((long)a.n, n, "every thread in the read");
	snprintf(name, sizeof(name),
		 "%d threads: each stands for at most %d ticks, at least %d",
		 n, ticks, n <= PER_TICK ? ticks : ticks - (n + PER_TICK - 1) / PER_TICK);
	OK(most == ticks &&
	   fewest >= (n <= PER_TICK ? ticks : ticks - (n + PER_TICK - 1) / PER_TICK),
	   name);
	printf("# %d threads, %d ticks: %llu ticks in all (%d to %d a thread)\n",
	       n, ticks, (unsigned long long)total, fewest, most);
	OK(total <= (uint64_t)n * ticks &&
	   total >= (uint64_t)n * ticks - (uint64_t)n * 2,
	   "the ticks in all are about threads x ticks");
	drop(w, &a, &b, "scratch root removed");
}

/* A thread read in turn may not have been read for seconds when it ends:
 * with a cgroup's list, taken at every tick, it lived at least until the
 * last tick that listed it (waits.c waits_end_thread), and its CPU grew
 * at its own rate meanwhile. 990 (born at 990 s, 20 ms of CPU, read at
 * the first tick and maybe in a turn) is gone after the third; 991
 * leaves the list at the fourth. A quarter of a 2,000-thread pool's
 * lives went uncounted. */
static void ended_in_turn(void)
{
	struct perr e;
	struct waits *w;
	struct waits_snap s = { 0 };
	const struct waits_thread *t;
	char path[256], cmd[640];
	FILE *f;
	double t0;

	if (make_root(NTHREADS) < 0) {
		OK(0, "ended: scratch root made");
		return;
	}
	snprintf(path, sizeof(path), "%s/cg", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/cg/cgroup.threads", root);
	if ((f = fopen(path, "w"))) {
		for (int k = 700; k < 700 + NTHREADS; k++)
			fprintf(f, "%d\n", k);
		fclose(f);
	}
	w = waits_open(root, &e);
	snprintf(path, sizeof(path), "%s/cg", root);
	OK(w && waits_watch_cgroup(w, path, &e) == 0, "ended: a cgroup's threads");
	if (!w)
		return;
	/* on the monotonic clock: a start is reckoned from it (waits.h
	 * born): 990 began 10 s before the first tick */
	t0 = util_monotonic();
	waits_tick(w, t0);	/* every new thread */
	waits_tick(w, t0 + 1.0);	/* 700-827 */
	waits_tick(w, t0 + 2.0);	/* 828-955 */
	/* in place: the sampler keeps both files open */
	snprintf(cmd, sizeof(cmd), ": > %s/proc/700/task/990/schedstat && "
		 "grep -vx 991 %s/cg/cgroup.threads > %s/cg/t && "
		 "cat %s/cg/t > %s/cg/cgroup.threads", root, root, root, root,
		 root);
	OK(system(cmd) == 0, "ended: 990's files gone, 991 off the list");
	waits_tick(w, t0 + 3.0);	/* 991 ended by the listing */
	waits_read_whole(w);
	EQ_INT(waits_read(w, t0 + 3.5, &s), 0, "ended: a whole read");
	t = snap_find(&s, 990);
	OK(t && !t->alive && t->t == t0 + 3.0 && t->cpu_ns > 20000000 &&
	   t->cpu_ns <= 26000000,
	   "ended: 990, gone since its last read, lived until the last tick "
	   "(t0 + 3), its CPU grown at its rate (20 ms in its first 10-12 s)");
	if (t)
		printf("#   990: t %.1f cpu %llu ns\n", t->t - t0,
		       (unsigned long long)t->cpu_ns);
	t = snap_find(&s, 991);
	OK(t && !t->alive && t->t == t0 + 2.0,
	   "ended: 991, off the list at t0 + 3, lived until the tick before");
	if (t)
		printf("#   991: t %.1f\n", t->t - t0);
	drop(w, &s, NULL, "ended: scratch root removed");
}

/* The fit's arithmetic; the limit is the budget at the floor, 8 ms. */
static void fit(void)
{
	const double lim = WAITS_CPU_BUDGET / WAITS_MIN_HZ;

	EQ_INT((long)waits_share_fit(128, lim), 128, "fit: at the budget, kept");
	EQ_INT((long)waits_share_fit(128, 0.8 * lim), 128,
	       "fit: a little under it, kept");
	/* 10 ms: (8/10)^2 = 0.64 of 128 */
	EQ_INT((long)waits_share_fit(128, 1.25 * lim), 81,
	       "fit: 1.25 times it, cut by the square of the ratio");
	EQ_INT((long)waits_share_fit(128, 4 * lim), 64,
	       "fit: 4 times it, cut by half at most");
	EQ_INT((long)waits_share_fit(20, 4 * lim), WAITS_TICK_MIN,
	       "fit: never under WAITS_TICK_MIN");
	EQ_INT((long)waits_share_fit(64, 0.5 * lim), 73,
	       "fit: well under it, grown by an eighth and one");
	EQ_INT((long)waits_share_fit(120, 0.1 * lim), WAITS_TICK_THREADS,
	       "fit: never over WAITS_TICK_THREADS");
	/* the loadgen pool on this host: 4 ms + 78 us a thread converges
	 * under the limit from a turn of 128 */
	{
		size_t turn = WAITS_TICK_THREADS;
		int fits = 0;

		while (fits < 20 && 0.004 + 78e-6 * (double)turn > lim) {
			turn = waits_share_fit(turn, 0.004 + 78e-6 * (double)turn);
			fits++;
		}
		OK(fits <= 3 && turn >= WAITS_TICK_MIN,
		   "fit: 4 ms + 78 us a thread, under the budget in 3 fits");
		printf("#   %d fits, turn %zu, %.2f ms a tick\n", fits, turn,
		       1e3 * (0.004 + 78e-6 * (double)turn));
	}
}

/* The mean period of 400 ticks of cost each (periods drawn in [0.5,
 * 1.5) of the nominal one). */
static double mean_period(struct waits *w, double cost)
{
	double now = 1000.0, sum = 0;

	w->deadline = 0;
	for (int i = 0; i < 400; i++) {
		double next;

		w->cost = cost;
		next = waits_next(w, now);
		sum += next - now;
		now = next;
	}
	return sum / 400;
}

/* The rate under a share of the budget (waits_budget: a night's
 * sessions' trees share one): a tick of 80 us at the whole budget runs
 * at the top rate, at a sixteenth of it every 0.16 s. */
static void budget(void)
{
	struct perr e;
	struct waits *w = waits_open("/", &e);

	OK(w != NULL, "budget: a sampler");
	if (!w)
		return;
	EQ_DBL(mean_period(w, 80e-6), 1.0 / WAITS_MAX_HZ, 0.15 / WAITS_MAX_HZ,
	       "budget: the whole of it, the top rate");
	waits_budget(w, WAITS_CPU_BUDGET / 16);
	EQ_DBL(mean_period(w, 80e-6), 0.16, 0.025,
	       "budget: a sixteenth of it, its cost over that share");
	waits_budget(w, 0);
	EQ_DBL(mean_period(w, 80e-6), 0.16, 0.025,
	       "budget: a share of 0 is no share (the last kept)");
	waits_close(w);
}

int main(void)
{
	fit();
	budget();
	run(NTHREADS);
	run(100);
	ended_in_turn();
	return done_testing();
}
