/*
 * test_report.c - report statistics and verdict rules on synthetic series:
 * percentiles, unknown values, and one session per case of the seeds
 * (CPU-bound, a single busy CPU, a disk without read-ahead, a slow
 * network, paging, idle) plus the client instrumentation's say.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/report_rules.h"
#include "tap.h"

#define N 60

/* A series around base with a deterministic wobble of +-amp. */
static void series(double *v, double base, double amp)
{
	for (int i = 0; i < N; i++)
		v[i] = base + amp * sin(i * 0.7);
}

static void stat_of(struct report_stat *s, double base, double amp)
{
	double v[N];

	series(v, base, amp);
	report_stat_of(v, N, 1, s);
}

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

/* An idle 4-CPU host with a disk and a 1 Gb/s interface. */
static void idle(struct report_figures *f)
{
	memset(f, 0, sizeof(*f));
	f->ncpu = 4;
	stat_of(&f->cpu, 3, 1);
	stat_of(&f->cpu1, 8, 3);
	strcpy(f->cpu1_name, "2");
	stat_of(&f->iowait, 0.5, 0.3);
	stat_of(&f->proc_cpu, NAN, 0);
	strcpy(f->disk, "sdb");
	stat_of(&f->disk_busy, 2, 1);
	stat_of(&f->disk_bytes, 100e3, 50e3);
	stat_of(&f->disk_xfers, 10, 5);
	stat_of(&f->disk_service, 0.002, 0.001);
	f->disk_xfer_size = 10e3;
	stat_of(&f->mem_avail, 6e9, 1e8);
	f->mem_avail_ref = 6.2e9;
	stat_of(&f->pages, 0, 0);
	strcpy(f->net, "eth0");
	stat_of(&f->net_bytes, 12.5e6 * 0.02, 1e4);
	f->net_bandwidth = 1e9;
	stat_of(&f->net_share, 2, 0.1);
}

static void judge(const struct report_figures *f,
		  const struct instr_thread *it, enum report_kind want,
		  const char *must, const char *name)
{
	struct report_verdict v;

	report_judge(f, it, &v);
	int ok = v.kind == want && !strncmp(v.line, "Bottleneck: ", 12) &&
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
	judge(&f, NULL, REPORT_CPU, "Processor(_Total) 9", "all CPUs busy");

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
	judge(&f, NULL, REPORT_DISK, "LogicalDisk(sdb) busy 9", "names the disk");
	/* busy disk streaming large transfers: at its throughput */
	f.disk_xfer_size = 512 * 1024.0;
	stat_of(&f.disk_bytes, 180e6, 5e6);
	judge(&f, NULL, REPORT_DISK, "at its throughput", "busy disk, streaming");

	/* the slow network: 100 Mb/s link full */
	idle(&f);
	f.net_bandwidth = 100e6;
	stat_of(&f.net_bytes, 11.8e6, 2e5);
	stat_of(&f.net_share, 94, 2);
	judge(&f, NULL, REPORT_NETWORK, "Network Interface(eth0) 9",
	      "network near its bandwidth");
	judge(&f, NULL, REPORT_NETWORK, "100 Mb/s", "bandwidth shown");

	/* paging: sustained, memory low; the disk looks busy too */
	idle(&f);
	stat_of(&f.pages, 400, 300);
	stat_of(&f.mem_avail, 120e6, 20e6);
	stat_of(&f.disk_busy, 90, 5);
	judge(&f, NULL, REPORT_PAGING, "Memory paging", "paging wins over disk");
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

int main(void)
{
	test_stats();
	test_verdicts();
	test_with_instr();
	test_format();
	return done_testing();
}
