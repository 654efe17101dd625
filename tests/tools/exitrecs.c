/*
 * exitrecs - the kernel's exit records (taskstats) of the tasks named
 * COMM, as the collector gets them, for a suite to check a log against
 * the kernel's own count (tests/t3015-watch-short-child.t).
 *
 *   exitrecs FILE COMM
 *       listens until SIGTERM, then writes FILE: a line a task named COMM
 *       that exited meanwhile, "tid ppid cpu_us" (the record's ac_utime +
 *       ac_stime, the figure the collector logs). FILE.ready is made once
 *       the listener is registered; "lost" is the last line when the
 *       kernel dropped records.
 *
 * Why not the task's own getrusage: the record counts CPU time by the
 * scheduler's ticks (a whole tick to the task running when it comes),
 * getrusage by the nanoseconds it ran; beside other work the two part
 * (burns of 0.15 s beside stress-ng --cpu 2: 0.160 s in their records,
 * 0.125 s by getrusage, every job's record the larger). Needs root
 * (CAP_NET_ADMIN), as the collector's listener does.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "../../process/taskstats.h"

struct recs {
	const char *comm;
	FILE *out;
};

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_record(void *arg, const struct taskstats_exit *x)
{
	struct recs *r = arg;

	if (!strcmp(x->comm, r->comm))
		fprintf(r->out, "%d %d %llu\n", (int)x->tid, (int)x->ppid,
			(unsigned long long)x->cpu_us);
}

int main(int argc, char **argv)
{
	struct perr e;
	struct taskstats_listener *l;
	struct recs r;
	struct sigaction sa;
	char ready[4096];
	FILE *f;
	int lost = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: exitrecs FILE COMM\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	l = taskstats_open(&e);
	if (!l) {
		fprintf(stderr, "exitrecs: %s\n", e.msg);
		return 1;
	}
	/* the records are kept in memory (tmpfile) and FILE written whole
	 * at the end, so a reader never sees a part */
	r.comm = argv[2];
	r.out = tmpfile();
	snprintf(ready, sizeof(ready), "%s.ready", argv[1]);
	f = fopen(ready, "w");
	if (!r.out || !f) {
		perror("exitrecs");
		return 1;
	}
	fclose(f);
	while (!stop) {
		struct pollfd p = { taskstats_fd(l), POLLIN, 0 };
		int lost_now = 0;

		poll(&p, 1, 100);
		if (taskstats_drain(l, on_record, &r, &lost_now) < 0)
			break;
		lost |= lost_now;
	}
	if (taskstats_drain(l, on_record, &r, &lost) >= 0 && lost)
		fprintf(r.out, "lost\n");
	taskstats_close(l);
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	rewind(r.out);
	for (int c; (c = getc(r.out)) != EOF;)
		putc(c, f);
	return fclose(f) ? 1 : 0;
}
