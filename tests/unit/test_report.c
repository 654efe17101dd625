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

static void judge(const struct report_figures *f,
		  const struct instr_thread *it, enum report_kind want,
		  const char *must, const char *name)
{
	struct report_verdict v;

	report_judge(f, it, &v);
	int ok = v.kind == want && starts_with_word(&v) &&
		 (!must || strstr(v.line, must) || strstr(v.hint, must));
	OK(ok, name);
	printf("#   %s\n#   (%s)\n", v.line, v.hint);
	if (v.kind != want)
		printf("#   got %s, expected %s\n", report_kind_name(v.kind),
		       report_kind_name(want));
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

/* The client's wait states as the table reads them: its dominant state
 * (the table's mark and the JSON's, not a verdict: the session's wait
 * graph judges, test_verdict_solve) and a memory limit's two parts. */
static void test_client_waits(void)
{
	struct report_waits w;
	struct report_verdict v;

	/* one thread compressing */
	waits(&w, 96, 2, 0, 0, 2, 0);
	dominant(&w, WS_CPU, "one compressor: running dominates");
	/* restic, GOMAXPROCS=1, compressing (t3520 on a loaded host): its
	 * working threads ran 30%, waited on each other (futex) 38% and
	 * slept 32%, all of the sleep Go's sysmon's, which moved nothing:
	 * the sleep that counts is the data movers' (waitrates_paced) */
	waits(&w, 30, 0, 0, 0, 38, 32);
	dominant(&w, -1, "restic's split, all its sleep counted: none dominates");
	w.unpaced = 32;
	dominant(&w, WS_CPU, "... only the data movers' sleep counted: running dominates");
	w.unpaced = 0;
	dominant(&w, -1, "... its mover asleep as long: none");
	/* restic again, alone, a 1.4 s session: 4 working threads taking
	 * turns on its one P ran 23.7% and waited for a CPU 0.3% of their
	 * summed time (0.83 CPUs' worth), disk 0.9%, other 49.1%, sleep 26%
	 * (sysmon's): the states that name a resource held 24.9% */
	waits(&w, 23.7, 0.3, 0.9, 0, 49.1, 26);
	w.unpaced = 26;
	w.cpus = 0.5;
	dominant(&w, -1, "restic at 0.5 CPUs' worth, 24.9% named: none");
	w.cpus = 0.83;
	dominant(&w, WS_CPU, "... at 0.83 CPUs' worth: a CPU kept busy counts in full, running");
	/* a quota: runnable, not running */
	waits(&w, 24, 72, 0, 0, 4, 0);
	dominant(&w, WS_CPU_WAIT, "quota: CPU wait dominates");
	waits(&w, 26, 12, 57, 0, 5, 0);
	dominant(&w, WS_DISK, "O_DSYNC writes: disk dominates");
	waits(&w, 1, 0, 0, 0, 0, 99);
	dominant(&w, WS_SLEEP, "pacing: sleep dominates");
	/* idle threads shown but not counted: 7 pool threads parked on a
	 * futex, one thread sending */
	waits(&w, 2, 0, 0, 90, 8, 0);
	w.nall = 8;
	w.all[WS_NET] = 11.5;
	w.all[WS_OTHER] = 88;
	w.all[WS_CPU] = 0.5;
	dominant(&w, WS_NET, "the pool's futex waits do not outweigh the sender");
	/* a shell waiting on its child: other names no resource */
	waits(&w, 15, 2, 29, 0, 54, 0);
	dominant(&w, WS_DISK, "other left out: disk 29 of 46");
	waits(&w, 5, 0, 10, 0, 85, 0);
	dominant(&w, -1, "85% other: nothing dominates");
	waits(&w, 15, 0, 45, 40, 0, 0);
	dominant(&w, -1, "disk 45, network 40: nothing dominates");
	/* a memory limit's time: both parts, the larger first (issue 50:
	 * running 58% on a fresh machine's fast disk) */
	memset(&v, 0, sizeof(v));
	waits(&w, 22, 2, 75, 0, 1, 0);
	report_memory_parts(report_waits_shares(&w), &v);
	OK(strstr(v.line, "waited on the disk 75% (reading back pages its memory limit evicted) and ran 22% (reclaiming memory)") != NULL,
	   "memory limit: both parts, the disk first");
	memset(&v, 0, sizeof(v));
	waits(&w, 58, 0, 41, 0, 1, 0);
	report_memory_parts(report_waits_shares(&w), &v);
	OK(strstr(v.line, "ran 58% (reclaiming memory) and waited on the disk 41% (reading back pages") != NULL,
	   "memory limit on a fast disk: both parts, running first");
	printf("#   %s\n", v.line);
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

/* Two idle sessions of one name, one of A and one of B, to compare. */
static void compare_pair(struct report_session *sa, struct report_session *sb,
			 const char *name)
{
	memset(sa, 0, sizeof(*sa));
	memset(sb, 0, sizeof(*sb));
	snprintf(sa->name, sizeof(sa->name), "%s", name);
	snprintf(sb->name, sizeof(sb->name), "%s", name);
	idle(&sa->fig);
	idle(&sb->fig);
}

/* report_compare's text of session sa of A against sb of B (a
 * malloc'ed string), or NULL with a failed check. */
static char *compare_text(struct report_session *sa,
			  struct report_session *sb)
{
	struct report a, b;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.s = sa;
	b.s = sb;
	a.n = b.n = 1;
	if (!f) {
		OK(0, "compare: open_memstream");
		return NULL;
	}
	report_compare(f, &a, &b);
	fclose(f);
	return text;
}

/* issue 50 item 12: `report A B` printed "0.1 0.1 -0.1" for 0.14
 * against 0.06, the change of the unrounded figures beside the rounded
 * ones: the change and its share are of the figures as printed. */
static void test_compare_rounding(void)
{
	struct report_session sa, sb;
	char *text, *row;
	double va, vb, ch;

	compare_pair(&sa, &sb, "full");
	sa.fig.cpu.avg = 0.14;
	sb.fig.cpu.avg = 0.06;
	sa.fig.cpu1.avg = 2.25;	/* "2.2" or "2.3": printf's rounding */
	sb.fig.cpu1.avg = 3.36;	/* "3.4": +1.2 as printed, +1.11 not */
	sa.seconds = 6.817;
	sb.seconds = 7.182;
	if (!(text = compare_text(&sa, &sb)))
		return;
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

/* report A B of an incremental backup that sent nothing (restic's
 * "Added to the repository: 0 B"): read / sent has no figure, as the
 * single report's omitted line says, where the comparison printed "inf",
 * a change of "-inf" and "nan%" */
static void test_compare_nothing_sent(void)
{
	static char kv[2][3][2][16] = {
		{ { "client", "restic" }, { "client.read", "1048576" },
		  { "client.sent", "0" } },
		{ { "client", "restic" }, { "client.read", "2097152" },
		  { "client.sent", "1048576" } },
	};
	struct marker_extra xa[3], xb[3];
	struct marker ma = { .kind = MARK_END, .extra = xa, .nextra = 3 };
	struct marker mb = { .kind = MARK_END, .extra = xb, .nextra = 3 };
	struct report_session sa, sb;
	char *text, *row;

	for (int i = 0; i < 3; i++) {
		xa[i] = (struct marker_extra){ kv[0][i][0], kv[0][i][1] };
		xb[i] = (struct marker_extra){ kv[1][i][0], kv[1][i][1] };
	}
	compare_pair(&sa, &sb, "incr");
	sa.end_m = &ma;
	sb.end_m = &mb;
	if (!(text = compare_text(&sa, &sb)))
		return;
	OK(!strstr(text, "inf") && !strstr(text, "nan"),
	   "compare: nothing sent: no inf nor nan anywhere");
	row = strstr(text, "client read / sent");
	EQ_STR(row ? strtok(row, "\n") : NULL,
	       "client read / sent                          -            2.0                         x",
	       "compare: nothing sent: read / sent is unknown, no change");
	free(text);
}

/* A totals file the report could not use, with logged counters too thin
 * to stand in (t7720 beside a make check's load: a 2 s session): the
 * wait-state section said nothing, and nothing said the file was not
 * used. */
static void test_unused_no_counters(void)
{
	struct report_waits w;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		OK(0, "unused: open_memstream");
		return;
	}
	memset(&w, 0, sizeof(w));
	snprintf(w.unused, sizeof(w.unused),
		 "'waits-b.tsv': no thread in it could be read (1 bad lines)");
	report_print_waits(f, &w, "client", 1);
	fclose(f);
	OK(text && strstr(text, "the per-thread totals were not used: 'waits-b.tsv': no thread in it could be read"),
	   "unused totals, no counters' wait states: the file is still said");
	printf("# %s", text ? text : "");
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
	test_compare_nothing_sent();
	test_unused_no_counters();
	return done_testing();
}
