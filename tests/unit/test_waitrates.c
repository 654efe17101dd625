/*
 * test_waitrates.c - the interval arithmetic of waits/waitrates.c on
 * synthetic reads (waitsnap.h crafted): a thread's shares, a tree's
 * totals, their file parsed back, the totals' fold of many short
 * threads, the threads counted working, a paced client's waits. Split
 * from test_waits.c at its seam (arithmetic, not the sampler).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../waits/waitrates.h"
#include "../../waits/waits.h"
#include "tap.h"
#include "waitsnap.h"

/* A synthetic thread for the arithmetic. */
static double sum(const double *v, int n)
{
	double s = 0;

	for (int k = 0; k < n; k++)
		s += v[k];
	return s;
}

static void test_thread_math(void)
{
	double sec[WS_N];
	struct waits_thread a = crafted(1, 10, 1, 1, 0, 0, 0, 0);
	struct waits_thread b = crafted(1, 11, 1.3, 1.2, 30, 10, 0, 0);

	EQ_DBL(waitrates_thread(&a, &b, 10, 0, sec), 1.0, 1e-9, "elapsed 1 s");
	EQ_DBL(sec[WS_CPU], 0.3, 1e-9, "cpu from schedstat");
	EQ_DBL(sec[WS_CPU_WAIT], 0.2, 1e-9, "cpu wait from run delay");
	EQ_DBL(sec[WS_DISK], 0.375, 1e-9, "blocked 0.5 s, 3/4 of ticks disk");
	EQ_DBL(sec[WS_NET], 0.125, 1e-9, "1/4 net");
	EQ_DBL(sum(sec, WS_N), 1.0, 1e-9, "the states add to the time alive");

	a.blkio_ns = 1000000000;
	b.blkio_ns = 1450000000;
	waitrates_thread(&a, &b, 10, 1, sec);
	EQ_DBL(sec[WS_DISK], 0.45, 1e-9, "delay accounting above the ticks wins");
	EQ_DBL(sec[WS_NET], 0.05, 1e-9, "the rest to the other classes");
	b.blkio_ns = 1100000000;
	waitrates_thread(&a, &b, 10, 1, sec);
	EQ_DBL(sec[WS_DISK], 0.375, 1e-9, "delay accounting is a floor only");
	b.blkio_ns = 9000000000;
	waitrates_thread(&a, &b, 10, 1, sec);
	EQ_DBL(sec[WS_DISK], 0.5, 1e-9, "never more than the blocked time");
	waitrates_thread(&a, &b, 10, 0, sec);
	EQ_DBL(sec[WS_DISK], 0.375, 1e-9, "delay accounting off: ticks");

	b = crafted(1, 11, 1.9, 1.6, 30, 10, 0, 0);	/* 0.9 + 0.6 in 1 s */
	waitrates_thread(&a, &b, 10, 0, sec);
	EQ_DBL(sec[WS_CPU], 0.6, 1e-9, "cpu + wait > elapsed: scaled");
	EQ_DBL(sec[WS_CPU_WAIT], 0.4, 1e-9, "... both");
	EQ_DBL(sec[WS_DISK] + sec[WS_NET], 0, 1e-9, "nothing blocked");

	a = crafted(1, 10, 1, 1, 8, 0, 0, 2);
	b = crafted(1, 11, 1.5, 1, 8, 0, 0, 2);	/* no blocked tick this time */
	waitrates_thread(&a, &b, 10, 0, sec);
	EQ_DBL(sec[WS_DISK], 0.4, 1e-9, "no tick in the interval: life shares");
	EQ_DBL(sec[WS_SLEEP], 0.1, 1e-9, "... 8 disk : 2 sleep");
	a = crafted(1, 10, 1, 1, 0, 0, 0, 0);
	b = crafted(1, 11, 1.5, 1, 0, 0, 0, 0);
	waitrates_thread(&a, &b, 10, 0, sec);
	EQ_DBL(sec[WS_OTHER], 0.5, 1e-9, "never seen blocked: other");

	b = crafted(2, 11, 0.1, 0.1, 0, 0, 0, 5);	/* born at 10.5 */
	EQ_DBL(waitrates_thread(NULL, &b, 10.5, 0, sec), 0.5, 1e-9,
	       "born in the interval: from its birth");
	EQ_DBL(sec[WS_SLEEP], 0.3, 1e-9, "born: counters from 0");
	EQ_DBL(waitrates_thread(&a, &a, 10, 0, sec), -1, 0, "empty interval");
}

static void test_compute(void)
{
	struct waits_thread p[3], c[4];
	struct waits_snap prev = { .t = 10, .delayacct = 0, .th = p, .n = 3 };
	struct waits_snap cur = { .t = 12, .delayacct = 0, .th = c, .n = 4 };
	struct waits_values v;
	struct waits_totals tot = { 0 };
	double pct[WS_N];
	size_t n;
	char buf[4096];

	p[0] = crafted(1, 10, 0, 0, 0, 0, 0, 0);
	c[0] = crafted(1, 12, 1.0, 0.5, 0, 50, 0, 0);	/* busy sender */
	c[0].rchar = c[0].wchar = 0;
	p[0].rchar = p[0].wchar = 0;
	c[0].wchar = 50 << 20;
	p[1] = crafted(2, 10, 0, 0, 0, 0, 10, 0);
	c[1] = crafted(2, 11, 0, 0, 0, 0, 60, 0);	/* ended at 11 */
	c[1].alive = 0;
	p[2] = crafted(3, 10, 0, 0, 0, 0, 0, 0);
	c[2] = crafted(3, 12, 0, 0, 0, 0, 100, 0);	/* idle pool thread */
	c[3] = crafted(4, 12, 0, 0, 0, 0, 0, 100);	/* born at 11.5 */
	c[3].born = 11.5;
	EQ_INT(waitrates_compute(&prev, &cur, &v, &tot), 0, "compute");
	EQ_DBL(v.threads, 1 + 0.5 + 1 + 0.25, 1e-9,
	       "threads alive on average (ended at 11, born at 11.5)");
	EQ_DBL(v.pct[WS_CPU], 50, 1e-9, "% Processor Time, 100 per thread");
	EQ_DBL(v.pct[WS_CPU_WAIT], 25, 1e-9, "% CPU Wait Time");
	EQ_DBL(v.pct[WS_NET], 25, 1e-9, "% Network Wait Time");
	EQ_DBL(v.pct[WS_OTHER], 50 + 100, 1e-9, "% Other Wait Time");
	EQ_DBL(v.pct[WS_SLEEP], 25, 1e-9, "% Sleep Time");
	EQ_DBL(sum(v.pct, WS_N), 100 * v.threads, 1e-9,
	       "the states add to 100 per thread alive");
	EQ_DBL(v.guessed, 0, 0, "nothing guessed");
	EQ_INT(v.hidden, 0, "nothing hidden");

	c[2].guessed = 100;
	c[2].hidden = 100;
	c[3].born = 5;	/* existed at prev but was not read: no baseline */
	waitrates_compute(&prev, &cur, &v, NULL);
	EQ_DBL(v.threads, 2.5, 1e-9, "a thread with no baseline is left out");
	EQ_DBL(v.guessed, 100.0 * 100 / 200, 1e-9,
	       "share of guessed ticks (100 of 50 + 50 + 100 blocked)");
	EQ_INT(v.hidden, 1, "hidden flagged");

	EQ_INT(tot.n, 4, "totals: four threads");
	waitrates_split(&tot, 0, pct, &n);
	EQ_INT(n, 4, "split over all");
	waitrates_split(&tot, 1, pct, &n);
	EQ_INT(n, 1, "only the sender worked");
	EQ_DBL(pct[WS_NET], 25, 1e-9, "the working threads' split: net 25%");
	EQ_DBL(pct[WS_CPU], 50, 1e-9, "... cpu 50%");
	OK(waitrates_format(&tot, buf, sizeof(buf)) < sizeof(buf) &&
	   !strncmp(buf, "tid\tcomm\tstart\talive\tcpu\t", 24) &&
	   strstr(buf, "\n1\t\t5\t2.000\t1.000\t0.500\t0.000\t0.500\t0.000\t0.000\t52428800\t1\t1\t0\n"),
	   "TSV of the totals");
	{
		size_t full = waitrates_format(&tot, buf, sizeof(buf));
		size_t cut = waitrates_format(&tot, buf, 120);

		OK(cut == full && strlen(buf) < 120 && buf[strlen(buf) - 1] == '\n',
		   "a short buffer: cut after a whole line, full length returned");
	}

	{
		struct instance_values iv;

		for (int k = 0; k < CATALOG_MAX_PER_OBJECT; k++)
			iv.v[k] = -1;
		waitrates_fill(&v, &iv);
		OK(iv.v[0] == -1 && iv.v[3] == -1,
		   "fill: the tree's counters left alone");
		EQ_DBL(iv.v[catalog_counters[CTR_PROC_CPU_WAIT].index],
		       v.pct[WS_CPU_WAIT], 0, "fill: % CPU Wait Time");
		EQ_DBL(iv.v[catalog_counters[CTR_PROC_NET_WAIT].index],
		       v.pct[WS_NET], 0, "fill: % Network Wait Time");
		EQ_DBL(iv.v[catalog_counters[CTR_PROC_SLEEP].index],
		       v.pct[WS_SLEEP], 0, "fill: % Sleep Time");
	}
	cur.t = 10;
	EQ_INT(waitrates_compute(&prev, &cur, &v, NULL), -1, "dt 0: refused");
	OK(isnan(v.pct[WS_CPU]), "... values unknown");
	cur.t = 12;
	cur.n = 0;
	waitrates_compute(&prev, &cur, &v, NULL);
	OK(isnan(v.pct[WS_DISK]) && v.threads == 0, "no thread: unknown, not 0");
	waitrates_totals_free(&tot);
}

static void test_parse(void)
{
	struct waits_totals tot = { 0 }, back = { 0 };
	struct waits_total t;
	char buf[2048];
	size_t len, bad = 99;

	memset(&t, 0, sizeof(t));
	t.tid = 42;
	t.start = 777;
	memcpy(t.comm, "gzip", 5);
	t.alive = 10;
	t.sec[WS_CPU] = 9.5;
	t.sec[WS_CPU_WAIT] = 0.25;
	t.sec[WS_OTHER] = 0.25;
	t.io_bytes = 123456789;
	t.pid = 40;
	tot.t = &t;
	tot.n = 1;
	len = waitrates_format(&tot, buf, sizeof(buf));
	EQ_INT(waitrates_parse(buf, len, &back, &bad), 1, "parse: one thread back");
	EQ_INT(back.n ? back.t[0].pid : -1, 40, "parse: its process (pid column)");
	EQ_INT(bad, 0, "parse: no bad line");
	OK(back.n == 1 && back.t[0].tid == 42 && back.t[0].start == 777 &&
	   !strcmp(back.t[0].comm, "gzip") && back.t[0].io_bytes == 123456789,
	   "parse: tid, start, comm, bytes");
	EQ_DBL(back.n ? back.t[0].sec[WS_CPU] : NAN, 9.5, 1e-9, "parse: cpu seconds");
	EQ_DBL(back.n ? back.t[0].alive : NAN, 10, 1e-9, "parse: alive");
	snprintf(buf + len, sizeof(buf) - len,
		 "x\ty\n43\tsh\t1\t2\t3\n44\tsh\t1\t-1\t0\t0\t0\t0\t0\t0\t0\t0\n"
		 "45\ttar\t9\t1.000\t0.500\t0.000\t0.500\t0.000\t0.000\t0.000\t5\t1\t1\t45");
	EQ_INT(waitrates_parse(buf, strlen(buf), &back, &bad), 2,
	       "parse: garbage, short and negative lines skipped, an unended last line kept");
	EQ_INT(bad, 3, "parse: three bad lines counted");
	/* fuzz_waits: states that do not add up to the time alive gave a
	 * split over 100% */
	snprintf(buf + len, sizeof(buf) - len,
		 "46\tgzip\t777\t0.100\t9.500\t0.250\t0.000\t0.000\t0.250\t0.000\t0\t1\t1\n"
		 "47\tsh\t770\t10.000\t0.040\t0.000\t0.000\t0.000\t0.000\t9.950\t0\t1\t1\n");
	EQ_INT(waitrates_parse(buf, strlen(buf), &back, &bad), 1,
	       "parse: rows whose states do not add up to alive skipped");
	EQ_INT(bad, 2, "parse: ... and counted");
	EQ_INT(waitrates_parse("tid\tcomm\n", 10, &back, NULL), -1,
	       "parse: not our header: refused");
	waitrates_totals_free(&back);
}

/* The totals stay bounded (issue 21, item 4): 12,000 short threads of
 * one name ending over 12 reads, half of them working, beside a thread
 * alive all along, fold into a row per name and verdict once they are
 * WAITRATES_FOLD_AT; nothing they did is lost, and the file says how
 * many each row holds. */
static void test_fold(void)
{
	enum { ROUNDS = 12, PER = 1000 };
	struct waits_thread *p = calloc(1, sizeof(*p)),
			    *c = calloc(PER + 1, sizeof(*c));
	struct waits_totals tot = { 0 }, back = { 0 };
	struct waits_values v;
	size_t threads, working, len, most = 0;
	double pct[WS_N], alive_all = 0;
	char *buf;
	int bad = 0;

	if (!p || !c)
		return;
	p[0] = crafted(1, 0, 0, 0, 0, 0, 0, 0);
	memcpy(p[0].comm, "main", 5);
	for (int r = 0; r < ROUNDS; r++) {
		struct waits_snap prev = { .t = r, .th = p, .n = 1 };
		struct waits_snap cur = { .t = r + 1, .th = c, .n = PER + 1 };

		c[0] = crafted(1, r + 1, 0, 0, 0, 0, 0, 100 * (r + 1));
		memcpy(c[0].comm, "main", 5);
		for (int k = 1; k <= PER; k++) {
			/* born in the interval, ended in it: 0.5 s each */
			c[k] = crafted(1000 + r * PER + k, r + 1, k % 2 ? 0.1 : 0, 0,
				  0, 0, 0, 50);
			c[k].born = r + 0.5;
			c[k].alive = 0;
			memcpy(c[k].comm, "short", 6);
		}
		bad += waitrates_compute(&prev, &cur, &v, &tot) != 0;
		most = tot.n > most ? tot.n : most;
		p[0] = c[0];
	}
	EQ_INT(bad, 0, "12 reads of 1,000 short threads each");
	OK(most <= WAITRATES_FOLD_AT + PER, "the rows never went much past the fold");
	printf("# rows at most %zu, now %zu + %zu folded rows, %zu threads folded\n",
	       most, tot.n, tot.nagg, tot.folded);
	EQ_INT(tot.nagg, 2, "one folded row per name and verdict (short: worked, idle)");
	waitrates_count(&tot, &threads, &working);
	EQ_INT(threads, ROUNDS * PER + 1, "every thread counted, folded ones too");
	EQ_INT(working, ROUNDS * PER / 2, "the working half counted as working");
	waitrates_split(&tot, 0, pct, &threads);
	for (size_t i = 0; i < tot.n; i++)
		alive_all += tot.t[i].alive;
	for (size_t i = 0; i < tot.nagg; i++)
		alive_all += tot.agg[i].alive;
	EQ_DBL(alive_all, ROUNDS * PER * 0.5 + ROUNDS, 1e-6,
	       "their time kept: 0.5 s each and main's 12 s");
	EQ_DBL(pct[WS_CPU], 100.0 * ROUNDS * PER / 2 * 0.1 / alive_all, 1e-6,
	       "the split over every thread unchanged by the fold");

	len = waitrates_format(&tot, NULL, 0);
	buf = malloc(len + 1);
	if (buf) {
		waitrates_format(&tot, buf, len + 1);
		OK(strstr(buf, "\n0\tshort\t0\t") != NULL,
		   "a folded row in the file: tid 0, its name");
		OK(tot.folded == 10000 && strstr(buf, "\t1\t5000\t0\n") &&
		   strstr(buf, "\t0\t5000\t0\n"),
		   "... with its thread count (5,000 worked, 5,000 idle folded)");
		OK(len < 400000, "the file stays small");
		printf("# file %zu bytes for %d threads\n", len, ROUNDS * PER + 1);
		waitrates_parse(buf, len, &back, NULL);
		waitrates_count(&back, &threads, &working);
		EQ_INT(threads, ROUNDS * PER + 1, "parsed back: the same threads");
		EQ_INT(working, ROUNDS * PER / 2, "parsed back: the same working");
		free(buf);
	}
	/* a file of before the fold: no threads column */
	{
		static const char old[] =
			"tid\tcomm\tstart\talive\tcpu\tcpu_wait\tdisk\tnet"
			"\tother\tsleep\tio_bytes\tworking\n"
			"5\tgzip\t9\t1.000\t1.000\t0.000\t0.000\t0.000"
			"\t0.000\t0.000\t0\t1\n";

		static const char old1[] =
			"tid\tcomm\tstart\talive\tcpu\tcpu_wait\tdisk\tnet"
			"\tother\tsleep\tio_bytes\tworking\tthreads\n"
			"5\tgzip\t9\t1.000\t1.000\t0.000\t0.000\t0.000"
			"\t0.000\t0.000\t0\t1\t1\n";

		EQ_INT(waitrates_parse(old, sizeof(old) - 1, &back, NULL), 1,
		       "an old file (no threads column) is read");
		EQ_INT(waitrates_parse(old1, sizeof(old1) - 1, &back, NULL), 1,
		       "a file of before issue 29 (no pid column) is read");
		EQ_INT(back.n ? back.t[0].pid : -1, 0, "... its pid unknown (0)");
	}
	waitrates_totals_free(&back);
	waitrates_totals_free(&tot);
	free(p);
	free(c);
}

static void test_working(void)
{
	struct waits_total t;

	memset(&t, 0, sizeof(t));
	t.alive = 10;
	OK(!waitrates_working(&t), "nothing done: idle");
	t.sec[WS_CPU] = 0.02;
	OK(!waitrates_working(&t), "20 ms of 10 s: idle");
	t.sec[WS_CPU] = 0.06;
	OK(waitrates_working(&t), "60 ms of 10 s: working");
	t.sec[WS_CPU] = 0;
	t.io_bytes = 64 * 1024;
	OK(waitrates_working(&t), "64 KiB moved: working");
	t.io_bytes = 0;
	t.sec[WS_DISK] = 6;
	OK(waitrates_working(&t), "stuck on the disk: working");
	t.sec[WS_DISK] = 0;
	t.sec[WS_NET] = 10;
	OK(!waitrates_working(&t), "parked on an idle socket: idle");
}

/* restic under GOMAXPROCS=1 (a real session's waits-LABEL.tsv, the
 * sysmon given 20 ms of CPU as on a loaded host): only the sleep of the
 * threads that moved data paces it */
static void test_paced(void)
{
	struct waits_total th[3] = {
		{ .tid = 1, .pid = 1, .comm = "restic", .alive = 1.136,
		  .sec = { [WS_CPU] = 0.537, [WS_OTHER] = 0.599 },
		  .io_bytes = 13738 },
		{ .tid = 2, .pid = 1, .comm = "restic", .alive = 1.130,
		  .sec = { [WS_CPU] = 0.020, [WS_OTHER] = 0.074,
			   [WS_SLEEP] = 1.036 } },
		{ .tid = 7, .pid = 1, .comm = "restic", .alive = 0.398,
		  .sec = { [WS_CPU] = 0.397, [WS_DISK] = 0.001 },
		  .io_bytes = 18564158 },
	};
	struct waits_totals tot = { .t = th, .n = 3, .cap = 3 };
	double pct[WS_N];
	size_t n;

	waitrates_split(&tot, 1, pct, &n);
	OK(n == 3 && pct[WS_SLEEP] > 38, "restic: its working threads asleep 39% (sysmon)");
	EQ_DBL(waitrates_paced(&tot), 0, 1e-9, "... none of it a data mover's: paced 0%");
	th[2].sec[WS_CPU] = 0.040;
	th[2].sec[WS_SLEEP] = 0.357;	/* a mover that paces itself */
	EQ_DBL(waitrates_paced(&tot), 100 * 0.357 / (1.136 + 1.130 + 0.398), 1e-9,
	       "a mover asleep 0.357 s: that sleep paces");
	tot.n = 0;
	OK(isnan(waitrates_paced(&tot)), "no thread: unknown");
}

int main(void)
{
	test_thread_math();
	test_compute();
	test_working();
	test_paced();
	test_parse();
	test_fold();
	return done_testing();
}
