/*
 * test_report.c - report statistics and verdict rules on synthetic series:
 * percentiles, unknown values, and one session per case of the seeds
 * (CPU-bound, a single busy CPU, a disk without read-ahead, a slow
 * network, paging, idle) plus the client instrumentation's say; the
 * verdict from the client's own wait states (one per limit of the zoo,
 * idle threads that must not outvote, a quota against contention, memory
 * stalls behind disk waits, no state dominating) and the host's pressure
 * stalls when no command was wrapped. Every line starts with its word.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/report.h"
#include "../../report/report_rules.h"
#include "report_fixture.h"
#include "tap.h"

static void test_stats(void)
{
	double v[100];
	struct report_stat s;

	for (int i = 0; i < 100; i++)
		v[i] = i + 1;
	EQ_DBL(report_percentile(v, 100, 95), 95.05, 1e-9, "p95 of 1..100");
	EQ_DBL(report_percentile(v, 100, 50), 50.5, 1e-9, "median of 1..100");
	EQ_DBL(report_percentile(v, 100, 100), 100, 0, "p100 = peak");
	EQ_DBL(report_percentile(v, 1, 95), 1, 0, "one value");
	EQ_DBL(report_percentile(v, 0, 95), NAN, 0, "no value: NAN");
	v[3] = NAN;
	v[50] = NAN;
	report_stat_of(v, 100, 1, &s);
	EQ_INT(s.n, 98, "unknowns left out");
	EQ_DBL(s.avg, (5050.0 - 4 - 51) / 98, 1e-9, "average of known");
	EQ_DBL(s.peak, 100, 0, "peak");
	EQ_DBL(s.min, 1, 0, "min");
	double w[6] = { 0, 1, 0, 2, 0, 3 };	/* stride 2 reads 0,0,0 */
	report_stat_of(w, 3, 2, &s);
	EQ_DBL(s.peak, 0, 0, "stride");
	EQ_DBL(s.positive, 0, 0, "none above zero");
	double u[3] = { NAN, NAN, NAN };
	report_stat_of(u, 3, 1, &s);
	OK(s.n == 0 && isnan(s.avg) && isnan(s.p95), "all unknown: NAN");
}

/* The line starts "Bottleneck: WORD" and WORD is the kind's, followed
 * by something that is not a letter (scripts read that word). */
static int starts_with_word(const struct report_verdict *v)
{
	const char *w = report_kind_word(v->kind);
	size_t n = strlen(w);

	return !strncmp(v->line, "Bottleneck: ", 12) &&
	       !strncmp(v->line + 12, w, n) &&
	       !((v->line[12 + n] >= 'a' && v->line[12 + n] <= 'z') ||
		 (v->line[12 + n] >= 'A' && v->line[12 + n] <= 'Z'));
}

static void judge_w(const struct report_figures *f,
		    const struct report_waits *w,
		    const struct instr_thread *it, enum report_kind want,
		    const char *must, const char *name)
{
	struct report_verdict v;

	report_judge(f, w, it, &v);
	int ok = v.kind == want && starts_with_word(&v) &&
		 (!must || strstr(v.line, must) || strstr(v.hint, must));
	OK(ok, name);
	printf("#   %s\n#   (%s)\n", v.line, v.hint);
	if (v.kind != want)
		printf("#   got %s, expected %s\n", report_kind_name(v.kind),
		       report_kind_name(want));
}

static void judge(const struct report_figures *f,
		  const struct instr_thread *it, enum report_kind want,
		  const char *must, const char *name)
{
	judge_w(f, NULL, it, want, must, name);
}

static void test_verdicts(void)
{
	struct report_figures f;

	idle(&f);
	judge(&f, NULL, REPORT_NONE, "nothing near saturation", "idle");

	idle(&f);
	stat_of(&f.cpu, 95, 4);
	stat_of(&f.cpu1, 99, 1);
	judge(&f, NULL, REPORT_CPU, "CPU: Processor(_Total) 9", "all CPUs busy");

	/* the CPU-starved client: one of 4 CPUs pegged, total 27% */
	idle(&f);
	stat_of(&f.cpu, 27, 2);
	stat_of(&f.cpu1, 97, 2);
	judge(&f, NULL, REPORT_CPU_SINGLE, "single-threaded",
	      "one busy CPU with low total is CPU-bound");
	/* same, but the scheduler spread the thread: the process says so */
	idle(&f);
	stat_of(&f.cpu, 26, 2);
	stat_of(&f.cpu1, 55, 10);
	stat_of(&f.proc_cpu, 97, 2);
	judge(&f, NULL, REPORT_CPU_SINGLE, "client used 9",
	      "a process at one CPU's worth is CPU-bound");
	/* two busy threads of a 4-CPU host: the process at 190% is not
	 * single-threaded and the host is not full */
	idle(&f);
	stat_of(&f.cpu, 48, 2);
	stat_of(&f.cpu1, 60, 5);
	stat_of(&f.proc_cpu, 190, 5);
	judge(&f, NULL, REPORT_NONE, NULL, "two threads on four CPUs: not bound");

	/* the disk without read-ahead: busy, small transfers, low throughput */
	idle(&f);
	stat_of(&f.disk_busy, 93, 5);
	stat_of(&f.disk_bytes, 4e6, 5e5);
	stat_of(&f.disk_xfers, 1000, 50);
	f.disk_xfer_size = 4096;
	stat_of(&f.disk_service, 0.0009, 0.0001);
	judge(&f, NULL, REPORT_DISK, "no read-ahead", "busy disk, small transfers");
	judge(&f, NULL, REPORT_DISK, "disk: LogicalDisk(sdb) busy 9", "names the disk");
	/* busy disk streaming large transfers: at its throughput */
	f.disk_xfer_size = 512 * 1024.0;
	stat_of(&f.disk_bytes, 180e6, 5e6);
	judge(&f, NULL, REPORT_DISK, "at its throughput", "busy disk, streaming");

	/* the slow network: 100 Mb/s link full */
	idle(&f);
	f.net_bandwidth = 100e6;
	stat_of(&f.net_bytes, 11.8e6, 2e5);
	stat_of(&f.net_share, 94, 2);
	judge(&f, NULL, REPORT_NETWORK, "network: Network Interface(eth0) 9",
	      "network near its bandwidth");
	judge(&f, NULL, REPORT_NETWORK, "100 Mb/s", "bandwidth shown");

	/* paging: sustained, memory low; the disk looks busy too */
	idle(&f);
	stat_of(&f.pages, 400, 300);
	stat_of(&f.mem_avail, 120e6, 20e6);
	stat_of(&f.disk_busy, 90, 5);
	judge(&f, NULL, REPORT_PAGING, "memory: paging", "paging wins over disk");
	/* page-ins with plenty of memory (a file mapped): not paging */
	stat_of(&f.mem_avail, 5e9, 1e8);
	judge(&f, NULL, REPORT_DISK, NULL, "pages but memory plentiful");
	/* a short burst only: not sustained */
	idle(&f);
	double v[N];
	for (int i = 0; i < N; i++)
		v[i] = i < 5 ? 2000 : 0;
	report_stat_of(v, N, 1, &f.pages);
	stat_of(&f.mem_avail, 100e6, 1e6);
	judge(&f, NULL, REPORT_NONE, NULL, "paging burst is not sustained");

	/* waiting on I/O without a busy local disk */
	idle(&f);
	stat_of(&f.iowait, 45, 5);
	judge(&f, NULL, REPORT_IOWAIT, "I/O wait", "iowait");

	/* the log set lacks everything: still a verdict, no crash */
	struct report_figures empty;
	memset(&empty, 0, sizeof(empty));
	stat_of(&empty.cpu, NAN, 0);
	judge(&empty, NULL, REPORT_NONE, NULL, "no figures at all");
}

static void test_with_instr(void)
{
	struct report_figures f;
	struct instr_report r;
	struct perr e;

	int n = instr_parse_file("tests/fixtures/clients/sp-instrument-detail.txt",
				 &r, &e);
	EQ_INT(n, 1, "seed instrumentation read");
	if (n != 1)
		return;
	/* the seed's case: File I/O 70% and the disk busy */
	idle(&f);
	stat_of(&f.disk_busy, 95, 3);
	f.disk_xfer_size = 4096;
	stat_of(&f.disk_bytes, 5e6, 1e5);
	judge(&f, &r.t[0], REPORT_DISK, "disk read bound",
	      "File I/O + busy disk: disk read bound");
	/* File I/O dominating while no logged disk is busy */
	idle(&f);
	judge(&f, &r.t[0], REPORT_FILE_IO, "File I/O 70%",
	      "File I/O with idle disk: client file reads");
	/* Data Verb dominating, network idle: network or server */
	n = instr_parse_file("tests/fixtures/clients/sp-instrument-two-threads.txt",
			     &r, &e);
	idle(&f);
	judge(&f, instr_main_thread(&r), REPORT_NET_OR_SERVER, "Data Verb 77%",
	      "Data Verb: network or server");
	/* Data Verb and a full network agree */
	stat_of(&f.net_share, 92, 2);
	judge(&f, instr_main_thread(&r), REPORT_NETWORK, "(agrees)",
	      "Data Verb + full link: network");
}

static void test_format(void)
{
	char b[32];

	EQ_STR(report_fmt_bits(b, sizeof(b), 1e9), "1 Gb/s", "1 Gb/s");
	EQ_STR(report_fmt_bits(b, sizeof(b), 2.5e9), "2.5 Gb/s", "2.5 Gb/s");
	EQ_STR(report_fmt_bits(b, sizeof(b), NAN), "unknown bandwidth", "NAN bw");
	EQ_STR(report_fmt_bytes(b, sizeof(b), 4096, NULL), "4.0 KiB", "KiB");
	EQ_STR(report_fmt_bytes(b, sizeof(b), 11.5 * 1048576, "/s"),
	       "11.5 MiB/s", "MiB/s");
	EQ_STR(report_fmt_bytes(b, sizeof(b), 12, NULL), "12 B", "bytes");
}

/* A session's wait states: working threads' split (and all threads') */
static void waits(struct report_waits *w, double run, double cpuw, double disk,
		  double net, double other, double sleep)
{
	const double p[WS_N] = { run, cpuw, disk, net, other, sleep };

	memset(w, 0, sizeof(*w));
	w->have = w->from_totals = 1;
	strcpy(w->process, "job");
	for (int k = 0; k < WS_N; k++)
		w->work[k] = w->all[k] = p[k];
	w->nwork = w->nall = 1;
	w->cpus = run / 100;
	w->quota = w->guessed = NAN;
	struct report_stat *st[] = { &w->stall_cpu, &w->stall_io, &w->stall_mem,
		&w->throttled, &w->thr_periods, &w->io_read, &w->io_write };
	for (size_t k = 0; k < sizeof(st) / sizeof(st[0]); k++)
		report_stat_of(NULL, 0, 1, st[k]);
}

static void dominant(const struct report_waits *w, int want, const char *name)
{
	EQ_INT(report_waits_dominant(w), want, name);
}

static void test_client_waits(void)
{
	struct report_figures f;
	struct report_waits w;
	char clause[400];

	/* issue 21: a totals file that could not be used is said, not
	 * silently replaced by the counters */
	waits(&w, 96, 2, 0, 0, 2, 0);
	w.from_totals = 0;
	report_waits_clause(&w, clause, sizeof(clause));
	OK(!strstr(clause, "not readable"), "the counters by choice: nothing to say");
	strcpy(w.unused, "'waits-x.tsv' is larger than 64 MiB");
	report_waits_clause(&w, clause, sizeof(clause));
	OK(strstr(clause, "logged counters: its totals file was not readable") != NULL,
	   "a totals file not used: the verdict says it took the counters");
	printf("# %s\n", clause);

	/* one thread compressing on an otherwise quiet 4-CPU host */
	idle(&f);
	stat_of(&f.cpu, 27, 2);
	waits(&w, 96, 2, 0, 0, 2, 0);
	strcpy(w.top, "gzip");
	dominant(&w, WS_CPU, "one compressor: running dominates");
	judge_w(&f, &w, NULL, REPORT_W_CPU, "one CPU's worth of 4 (gzip): a single thread",
		"one compressor: CPU, a single thread");
	/* restic, GOMAXPROCS=1, compressing (t3520 on a loaded host): its
	 * working threads ran 30%, waited on each other (futex) 38% and
	 * slept 32%, all of the sleep Go's sysmon's, which moved nothing:
	 * the sleep that votes is the data movers' (waitrates_paced) */
	waits(&w, 30, 0, 0, 0, 38, 32);
	dominant(&w, -1, "restic's split, all its sleep voting: none dominates");
	w.unpaced = 32;
	dominant(&w, WS_CPU, "... only the data movers' sleep voting: running dominates");
	w.unpaced = 0;
	dominant(&w, -1, "... its mover asleep as long: none");
	/* restic again, alone, a 1.4 s session: 4 working threads taking
	 * turns on its one P ran 23.7% and waited for a CPU 0.3% of their
	 * summed time (0.83 CPUs' worth), disk 0.9%, other 49.1%, sleep 26%
	 * (sysmon's): the voting states held 24.9%, under the floor */
	waits(&w, 23.7, 0.3, 0.9, 0, 49.1, 26);
	w.unpaced = 26;
	w.cpus = 0.5;
	dominant(&w, -1, "restic at 0.5 CPUs' worth, 24.9% voting: none");
	w.cpus = 0.83;
	dominant(&w, WS_CPU, "... at 0.83 CPUs' worth: a CPU kept busy votes in full, running");
	/* every CPU compressing */
	stat_of(&f.cpu, 98, 1);
	waits(&w, 85, 12, 0, 0, 3, 0);
	w.cpus = 3.9;
	judge_w(&f, &w, NULL, REPORT_W_CPU, "3.9 CPUs' worth of 4",
		"all CPUs compressing: CPU");
	/* a quota: runnable, not running, throttled; the host idle */
	stat_of(&f.cpu, 18, 2);
	waits(&w, 24, 72, 0, 0, 4, 0);
	stat_of(&w.throttled, 74, 3);
	w.quota = 0.25;
	dominant(&w, WS_CPU_WAIT, "quota: CPU wait dominates");
	judge_w(&f, &w, NULL, REPORT_W_QUOTA, "CPU quota: runnable but not running 72%",
		"quota: CPU quota");
	judge_w(&f, &w, NULL, REPORT_W_QUOTA, "; its cgroup's quota of 0.25 CPU",
		"quota: its size (a set without the group's name: its cgroup's)");
	/* the group that has the quota, an ancestor of the command's
	 * (issue 50 item 7: "its cgroup's" named none) */
	util_strlcpy(w.quota_group, "/backup.slice", sizeof(w.quota_group));
	judge_w(&f, &w, NULL, REPORT_W_QUOTA,
		"; cgroup /backup.slice's quota of 0.25 CPU held it back",
		"quota: the group that has it named");
	w.quota_group[0] = '\0';
	/* two threads under a quota on two CPUs: % Throttled Time adds a
	 * held run queue per CPU (139), the group was held in 70% of its
	 * periods; "throttled 139% of the time" read the first as a share */
	stat_of(&w.throttled, 139, 0);
	stat_of(&w.thr_periods, 70, 0);
	judge_w(&f, &w, NULL, REPORT_W_QUOTA,
		"held it back (throttled in 70% of its periods; % Throttled Time 139, 100 per CPU)",
		"quota: throttled in 70% of its periods, the per-CPU figure beside it");
	{
		struct report_verdict v;

		report_judge(&f, &w, NULL, &v);
		OK(!strstr(v.line, "139% of the time"),
		   "quota: 139 per-CPU throttling is never said as a share of the time");
		/* a log set from before % Throttled Periods: the per-CPU
		 * figure alone, named for what it is */
		stat_of(&w.thr_periods, 0, 0);
		w.thr_periods.n = 0;
		report_judge(&f, &w, NULL, &v);
		OK(strstr(v.line, "held it back (% Throttled Time 139, 100 per CPU)") &&
		   !strstr(v.line, "of its periods"),
		   "quota without the periods counter: % Throttled Time by its name");
		printf("#   %s\n", v.line);
	}
	stat_of(&w.throttled, 74, 3);
	/* the same waits without throttling: the host's CPUs are taken */
	stat_of(&w.throttled, 0, 0);
	stat_of(&f.cpu, 100, 0);
	stat_of(&f.runq, 3.2, 0.5);
	judge_w(&f, &w, NULL, REPORT_W_CONTENTION, "tasks waiting for a CPU",
		"no throttling: CPU contention");
	/* small synchronous writes: disk, the device far from busy */
	idle(&f);
	waits(&w, 26, 12, 57, 0, 5, 0);
	stat_of(&f.disk_busy, 60, 10);
	f.disk_xfer_size = 3072;
	dominant(&w, WS_DISK, "O_DSYNC writes: disk dominates");
	judge_w(&f, &w, NULL, REPORT_W_DISK, "synchronous writes",
		"O_DSYNC writes: disk, latency-bound");
	/* a throttle: large transfers, the disk not busy */
	waits(&w, 1, 0, 99, 0, 0, 0);
	stat_of(&f.disk_busy, 15, 10);
	f.disk_xfer_size = 1 << 20;
	judge_w(&f, &w, NULL, REPORT_W_DISK, "I/O limit outside the device",
		"throttle: disk, not saturated");
	/* a shaped link: socket waits, the link at 2% */
	idle(&f);
	f.net_bandwidth = 10e9;
	stat_of(&f.net_bytes, 21.9e6, 1e5);
	stat_of(&f.net_share, 2, 0.1);
	waits(&w, 1, 0, 0, 99, 0, 0);
	judge_w(&f, &w, NULL, REPORT_W_NETWORK,
		"waited on its socket 99% of the time (ran 1%); eth0 carried 20.9 MiB/s flat, 2% of its 10 Gb/s: a shaper",
		"shaped link: network, a shaper");
	/* the link full instead */
	stat_of(&f.net_share, 94, 2);
	judge_w(&f, &w, NULL, REPORT_W_NETWORK, "the link is full", "full link: network");
	/* memory: the cgroup stalls on memory, the threads wait on the disk */
	idle(&f);
	waits(&w, 22, 2, 75, 0, 1, 0);
	stat_of(&w.stall_mem, 12, 3);
	judge_w(&f, &w, NULL, REPORT_W_MEMORY, "stalled on memory 12%",
		"memory limit: memory, not disk");
	judge_w(&f, &w, NULL, REPORT_W_MEMORY,
		"waited on the disk 75% (reading back pages its memory limit evicted) and ran 22% (reclaiming memory)",
		"memory limit: both parts, the disk first");
	/* on a faster disk the reclaim is the larger part (issue 50: running
	 * 58% on a fresh machine): the same verdict, both parts named */
	waits(&w, 58, 0, 41, 0, 1, 0);
	stat_of(&w.stall_mem, 21, 3);
	judge_w(&f, &w, NULL, REPORT_W_MEMORY,
		"ran 58% (reclaiming memory) and waited on the disk 41% (reading back pages",
		"memory limit on a fast disk: memory, both parts, running first");
	waits(&w, 22, 2, 75, 0, 1, 0);
	stat_of(&w.stall_mem, 2, 1);
	judge_w(&f, &w, NULL, REPORT_W_DISK, NULL,
		"2% memory stalls: the disk after all");
	/* pacing: asleep by choice, nothing else near its limit */
	idle(&f);
	waits(&w, 1, 0, 0, 0, 0, 99);
	dominant(&w, WS_SLEEP, "pacing: sleep dominates");
	judge_w(&f, &w, NULL, REPORT_W_PACED, "slept 99% of the time by its own choice",
		"pacing: nothing");
	/* idle threads shown but not voting: 7 pool threads parked on a
	 * futex, one thread sending */
	waits(&w, 2, 0, 0, 90, 8, 0);
	w.nall = 8;
	w.all[WS_NET] = 11.5;
	w.all[WS_OTHER] = 88;
	w.all[WS_CPU] = 0.5;
	dominant(&w, WS_NET, "the pool's futex waits do not outvote the sender");
	/* a shell waiting on its child: other does not vote */
	waits(&w, 15, 2, 29, 0, 54, 0);
	dominant(&w, WS_DISK, "other left out: disk 29 of 46 voting");
	/* the line quotes the table's figure (it gave the share of the
	 * voting time, 98%, where the table said 39%): a compressor looped
	 * by a shell ran 39% of the working threads' time and waited 60% on
	 * the shell's side; other still does not vote, CPU is the verdict */
	idle(&f);
	waits(&w, 39, 1, 0, 0, 60, 0);
	judge_w(&f, &w, NULL, REPORT_W_CPU, "ran on a CPU 39% of the time",
		"the line's figure is the table's, the shell's waits do not vote");
	/* mostly waiting on what this host does not see: no verdict */
	waits(&w, 5, 0, 10, 0, 85, 0);
	dominant(&w, -1, "85% other: nothing dominates");
	/* no state dominates: disk 45, network 40 */
	idle(&f);
	waits(&w, 15, 0, 45, 40, 0, 0);
	dominant(&w, -1, "disk 45, network 40: nothing dominates");
	judge_w(&f, &w, NULL, REPORT_W_MIXED, "no one state dominated",
		"split time, no rule fired: nothing");
	/* ... and a system rule fired: its verdict, the split as evidence */
	stat_of(&f.disk_busy, 93, 5);
	judge_w(&f, &w, NULL, REPORT_DISK, "the client's working threads: ran 15%",
		"split time, disk saturated: the disk, with the split");
	/* paging overrides the client's states */
	idle(&f);
	stat_of(&f.pages, 400, 300);
	stat_of(&f.mem_avail, 120e6, 20e6);
	waits(&w, 20, 0, 80, 0, 0, 0);
	judge_w(&f, &w, NULL, REPORT_PAGING, "memory: paging", "paging over disk waits");
	/* totals missing: the logged counters, every thread */
	idle(&f);
	waits(&w, 1, 0, 0, 99, 0, 0);
	w.from_totals = 0;
	w.nwork = 0;
	for (int k = 0; k < WS_N; k++)
		w.work[k] = NAN;
	judge_w(&f, &w, NULL, REPORT_W_NETWORK, NULL, "from the counters: network");
}

/* Without a wrapped command: the host's pressure stalls. */
static void test_psi(void)
{
	struct report_figures f;

	idle(&f);
	stat_of(&f.psi[2], 15, 3);
	judge(&f, NULL, REPORT_PSI_MEMORY, "Pressure(memory)", "memory stalls: memory");
	idle(&f);
	stat_of(&f.psi[1], 45, 5);
	judge(&f, NULL, REPORT_PSI_IO, "Pressure(io)", "I/O stalls, no disk busy: disk");
	idle(&f);
	stat_of(&f.psi[0], 70, 5);
	judge(&f, NULL, REPORT_PSI_CPU, "Pressure(cpu)", "CPU stalls, CPUs idle: CPU");
	stat_of(&f.psi[2], 12, 2);
	judge(&f, NULL, REPORT_PSI_CPU, NULL, "the larger multiple of its threshold wins");
	idle(&f);
	stat_of(&f.psi[0], 20, 5);
	stat_of(&f.psi[1], 20, 5);
	judge(&f, NULL, REPORT_NONE, "nothing", "stalls below thresholds: nothing");
	stat_of(&f.cpu, 95, 4);
	stat_of(&f.cpu1, 99, 1);
	stat_of(&f.psi[0], 70, 5);
	judge(&f, NULL, REPORT_CPU, NULL, "a saturated CPU before its stalls");
}

/* issue 50 item 12: `report A B` printed "0.1 0.1 -0.1" for 0.14
 * against 0.06, the change of the unrounded figures beside the rounded
 * ones: the change and its share are of the figures as printed. */
static void test_compare_rounding(void)
{
	struct report_session sa, sb;
	struct report a, b;
	char *text = NULL, *row;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	double va, vb, ch;

	memset(&sa, 0, sizeof(sa));
	memset(&sb, 0, sizeof(sb));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	strcpy(sa.name, "full");
	strcpy(sb.name, "full");
	idle(&sa.fig);
	idle(&sb.fig);
	sa.fig.cpu.avg = 0.14;
	sb.fig.cpu.avg = 0.06;
	sa.fig.cpu1.avg = 2.25;	/* "2.2" or "2.3": printf's rounding */
	sb.fig.cpu1.avg = 3.36;	/* "3.4": +1.2 as printed, +1.11 not */
	sa.seconds = 6.817;
	sb.seconds = 7.182;
	a.s = &sa;
	b.s = &sb;
	a.n = b.n = 1;
	if (!f) {
		OK(0, "compare: open_memstream");
		return;
	}
	report_compare(f, &a, &b);
	fclose(f);
	row = strstr(text, "CPU total avg");
	OK(row && sscanf(row + strlen("CPU total avg"), "%lf %lf %lf", &va,
			 &vb, &ch) == 3, "compare: the CPU row reads");
	EQ_STR(row ? strtok(row, "\n") : NULL,
	       "CPU total avg                             0.1            0.1         +0.0     +0.0%  %",
	       "compare: 0.14 against 0.06 is 0.1 -> 0.1, change +0.0, +0.0%");
	row = strstr(row ? row + strlen(row) + 1 : text, "busiest CPU avg");
	OK(row && sscanf(row + strlen("busiest CPU avg"), "%lf %lf %lf", &va,
			 &vb, &ch) == 3 && fabs(vb - va - ch) < 1e-9,
	   "compare: the busiest CPU's change is B - A as printed");
	if (row)
		printf("# %s\n", strtok(row, "\n"));
	free(text);
}

int main(void)
{
	test_stats();
	test_verdicts();
	test_with_instr();
	test_client_waits();
	test_psi();
	test_format();
	test_compare_rounding();
	return done_testing();
}
