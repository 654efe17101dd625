/*
 * waitsbench.c - the wait-state sampler's cost, for bench/waits.sh:
 *
 *   waitsbench THREADS SECONDS idle|active
 *
 * THREADS 0 watches nothing: the sampler only wakes up at its full rate,
 * the floor every other figure stands on.
 * A child process starts THREADS threads: idle ones park on a condition
 * variable (a thread pool with nothing to do: one pread a tick each),
 * active ones poll their own socket with a 20 ms timeout, so each has run
 * between two ticks and takes the whole path (schedstat, wchan, syscall,
 * the memoised descriptor probe). The sampler (waits/waitsampler.h)
 * watches the child on its own thread for SECONDS, read once a second as
 * the collector would. Printed, one line:
 *   threads mode ticks/s sampler-CPU-ms/s %-of-one-CPU read-ms-mean read-ms-max
 * The sampler thread's CPU comes from /proc/self/task/TID/schedstat (ns,
 * exact, read from outside the sampler); the reads' CPU is the calling
 * thread's clock around each read, added in.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../common/util.h"
#include "../../waits/waits.h"
#include "../../waits/waitsampler.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

static void *idle(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	for (;;)
		pthread_cond_wait(&never, &lock);
	return NULL;
}

static void *active(void *arg)
{
	int sv[2];

	(void)arg;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return NULL;
	for (;;) {
		struct pollfd p = { .fd = sv[0], .events = POLLIN };

		poll(&p, 1, 20);
	}
	return NULL;
}

static void child(int n, int act, int ready)
{
	pthread_attr_t a;

	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	for (int i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, &a, act ? active : idle, NULL)) {
			perror("waitsbench: pthread_create");
			_exit(1);
		}
	}
	if (write(ready, "x", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static double sampler_cpu(pid_t tid)
{
	char path[64];
	unsigned long long ns = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)tid);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	if (f)
		fclose(f);
	return (double)ns / 1e9;
}

int main(int argc, char **argv)
{
	int n, act, fd[2], secs;
	pid_t pid;
	char c;
	struct perr e;
	struct waits *w;
	struct waitsampler *s;
	struct waits_snap snap = { 0 };
	double c0, c1, t0, t1, rcpu = 0, rsum = 0, rmax = 0;
	uint64_t k0;

	if (argc != 4 || (n = atoi(argv[1])) < 0 || (secs = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: waitsbench THREADS SECONDS idle|active\n");
		return 2;
	}
	act = !strcmp(argv[3], "active");
	if (pipe(fd) < 0 || (pid = fork()) < 0)
		return 1;
	if (pid == 0) {
		close(fd[0]);
		child(n, act, fd[1]);
	}
	close(fd[1]);
	if (read(fd[0], &c, 1) != 1)
		return 1;
	w = waits_open("/", &e);
	s = w ? waitsampler_start(w, &e) : NULL;
	if (!s || (n > 0 && waitsampler_watch_pids(s, &pid, 1, &e) < 0)) {
		fprintf(stderr, "waitsbench: %s\n", e.msg);
		kill(pid, SIGKILL);
		return 1;
	}
	sleep(1);	/* warm up: descriptors opened, rate settled */
	waitsampler_read(s, &snap);
	k0 = snap.nticks;
	c0 = sampler_cpu(waitsampler_tid(s));
	t0 = util_monotonic();
	for (int i = 0; i < secs; i++) {
		double r0, rc0;

		sleep(1);
		rc0 = util_thread_cpu();
		r0 = util_monotonic();
		waitsampler_read(s, &snap);
		r0 = util_monotonic() - r0;
		rcpu += util_thread_cpu() - rc0;
		rsum += r0;
		rmax = r0 > rmax ? r0 : rmax;
	}
	t1 = util_monotonic();
	c1 = sampler_cpu(waitsampler_tid(s));
	printf("%d %s %.1f %.3f %.3f %.3f %.3f\n", n, act ? "active" : "idle",
	       (double)(snap.nticks - k0) / (t1 - t0),
	       (c1 - c0 + rcpu) / (t1 - t0) * 1e3,
	       (c1 - c0 + rcpu) / (t1 - t0) * 100, rsum / secs * 1e3, rmax * 1e3);
	waitsampler_stop(s);
	waits_snap_free(&snap);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return 0;
}
