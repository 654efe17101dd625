/*
 * load.h - the machine's load during a C unit test's check, as tests/lib.sh
 * measures it for the end-to-end suites (load_begin/load_end there): the
 * other processes' CPU from /proc/stat, PSI's "some" for CPU and I/O
 * (/proc/pressure), and a thread's own run-queue wait (schedstat). A share
 * that a loaded machine changes gets a tolerance that follows these, not
 * an idle machine's (issue 22), and a failing check prints them.
 *
 *   struct load_win w;
 *   load_begin(&w);  ... the check's window ...  load_end(&w, own_cpu_s);
 *   load_print(&w);  "# load over 4.00s: others used ... of 2 CPUs, ..."
 *   load_run_delay(tid)  seconds tid waited for a CPU so far (-1 unknown)
 */
#ifndef PERFLOG_TEST_LOAD_H
#define PERFLOG_TEST_LOAD_H

#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

struct load_win {
	/* at load_begin */
	double t0, busy0, total0, cpu0[64][2], psi_cpu0, psi_io0;
	/* at load_end */
	double secs;		/* the window */
	int ncpu;		/* online CPUs (at most 64 counted) */
	double others;		/* CPUs' worth used by anything but own */
	double cpu_max;		/* % busy of the busiest CPU */
	double cpu_some, io_some;	/* % of the time (PSI), -1 none */
};

static inline double load_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* /proc/stat's busy and total ticks, all CPUs and each (n of them). */
static inline int load_stat(double *busy, double *total, double cpu[64][2])
{
	FILE *f = fopen("/proc/stat", "r");
	char line[512];
	int n = 0;

	*busy = *total = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		double v[8] = { 0 }, b, t;
		char label[16];

		if (strncmp(line, "cpu", 3) ||
		    sscanf(line, "%15s %lf %lf %lf %lf %lf %lf %lf %lf", label,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]) < 9)
			continue;
		/* user nice system idle iowait irq softirq steal */
		b = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
		t = b + v[3] + v[4];
		if (!strcmp(label, "cpu")) {
			*busy = b;
			*total = t;
		} else if (n < 64) {
			cpu[n][0] = b;
			cpu[n][1] = t;
			n++;
		}
	}
	fclose(f);
	return n;
}

/* PSI's "some" total (microseconds) of cpu or io; -1 without PSI. */
static inline double load_psi(const char *what)
{
	char path[64], line[256];
	double total = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/pressure/%s", what);
	if (!(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "total=");

		if (!strncmp(line, "some ", 5) && p)
			sscanf(p + 6, "%lf", &total);
	}
	fclose(f);
	return total;
}

static inline void load_begin(struct load_win *w)
{
	memset(w, 0, sizeof(*w));
	load_stat(&w->busy0, &w->total0, w->cpu0);
	w->psi_cpu0 = load_psi("cpu");
	w->psi_io0 = load_psi("io");
	w->t0 = load_now();
}

/* own_cpu_s: CPU seconds the check's own load used in the window. */
static inline void load_end(struct load_win *w, double own_cpu_s)
{
	double busy, total, cpu[64][2], c = load_psi("cpu"), io = load_psi("io");

	w->secs = load_now() - w->t0;
	if (w->secs <= 0)
		w->secs = 1e-3;
	w->ncpu = load_stat(&busy, &total, cpu);
	w->others = total > w->total0 ?
		    w->ncpu * (busy - w->busy0) / (total - w->total0) -
		    own_cpu_s / w->secs : 0;
	if (w->others < 0)
		w->others = 0;
	w->cpu_max = 0;
	for (int i = 0; i < w->ncpu; i++) {
		double dt = cpu[i][1] - w->cpu0[i][1];
		double pct = dt > 0 ? 100 * (cpu[i][0] - w->cpu0[i][0]) / dt : 0;

		if (pct > w->cpu_max)
			w->cpu_max = pct;
	}
	w->cpu_some = c >= 0 && w->psi_cpu0 >= 0 ?
		      (c - w->psi_cpu0) / 1e4 / w->secs : -1;
	w->io_some = io >= 0 && w->psi_io0 >= 0 ?
		     (io - w->psi_io0) / 1e4 / w->secs : -1;
}

static inline void load_print(const struct load_win *w)
{
	printf("# load over %.2fs: others used %.2f of %d CPUs, busiest CPU %.1f%%, PSI cpu some %.1f%%, io some %.1f%%\n",
	       w->secs, w->others, w->ncpu, w->cpu_max, w->cpu_some,
	       w->io_some);
}

/* Seconds thread tid of this process has waited on a run queue
 * (schedstat's run_delay); -1 when the kernel does not say. */
static inline double load_run_delay(pid_t tid)
{
	char path[64];
	unsigned long long run, delay;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)tid);
	if (!(f = fopen(path, "r")))
		return -1;
	n = fscanf(f, "%llu %llu", &run, &delay);
	fclose(f);
	return n == 2 ? (double)delay / 1e9 : -1;
}

#endif
