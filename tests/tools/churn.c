/*
 * churn - a client that starts and ends tasks at a steady rate, as a
 * backup that makes a thread or forks a process per file does (issue 21,
 * item 1: exit records cost the collector the square of their rate).
 *
 *   churn threads|procs RATE SECONDS [SPIN_US]
 *
 * Starts RATE threads (or processes: fork, _exit) a second for SECONDS,
 * on absolute deadlines a millisecond apart, each spinning SPIN_US
 * microseconds of CPU (default 20) before it ends; the parent joins (or
 * reaps) each at once. Prints on stdout, at the end:
 *   tasks N rate R cpu C
 * N the tasks it ended, R their rate a second, C the CPU seconds of the
 * whole tree (itself and its reaped children, getrusage), which the
 * collector's Process object should match.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long spin_us = 20;

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of this thread, not wall time: a loaded host stretches it */
static void spin(void)
{
	double end = thread_cpu() + (double)spin_us / 1e6;
	volatile unsigned long x = 0;

	while (thread_cpu() < end)
		x++;
}

static void *task(void *arg)
{
	(void)arg;
	spin();
	return NULL;
}

static int one(int procs)
{
	pthread_t t;
	pid_t p;

	if (!procs) {
		if (pthread_create(&t, NULL, task, NULL))
			return -1;
		return pthread_join(t, NULL) ? -1 : 0;
	}
	p = fork();
	if (p < 0)
		return -1;
	if (p == 0) {
		spin();
		_exit(0);
	}
	return waitpid(p, NULL, 0) == p ? 0 : -1;
}

static double ru_cpu(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	int procs;
	double rate, secs, t0, next;
	long n = 0;

	if (argc < 4 || (strcmp(argv[1], "threads") && strcmp(argv[1], "procs"))) {
		fputs("usage: churn threads|procs RATE SECONDS [SPIN_US]\n", stderr);
		return 2;
	}
	procs = !strcmp(argv[1], "procs");
	rate = atof(argv[2]);
	secs = atof(argv[3]);
	if (argc > 4)
		spin_us = atol(argv[4]);
	if (rate <= 0 || secs <= 0 || spin_us < 0) {
		fputs("churn: RATE and SECONDS must be positive\n", stderr);
		return 2;
	}
	t0 = next = mono();
	while (mono() - t0 < secs) {
		/* the tasks due by now: late ones are made up, never skipped */
		long due = (long)((mono() - t0) * rate) + 1;
		struct timespec ts;

		while (n < due && mono() - t0 < secs) {
			if (one(procs) < 0) {
				perror("churn");
				return 1;
			}
			n++;
		}
		next += 0.001;
		ts.tv_sec = (time_t)next;
		ts.tv_nsec = (long)((next - (double)ts.tv_sec) * 1e9);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	printf("tasks %ld rate %.0f cpu %.3f\n", n, (double)n / (mono() - t0),
	       ru_cpu(RUSAGE_SELF) + ru_cpu(RUSAGE_CHILDREN));
	return 0;
}
