/*
 * setup.c - a collector's making (collector_int.h collector_setup): the
 * log directory and the set's name, the source, the schedule (the set
 * starts a step before its first deadline), the writer and its batches, a
 * daemon's collector.log, the control socket. collector.c runs the loop
 * and takes it down.
 */
#define _GNU_SOURCE
#include "collector.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../logs/setdir.h"
#include "collector_int.h"

/* A directory name for the log set: HOST-YYYYmmddTHHMMSS, with -2, -3 ...
 * when two collectors start in the same second. */
static void default_name(const char *parent, time_t now, char *buf,
			 size_t n)
{
	struct utsname u;
	struct tm tm;
	char stamp[32], host[65];

	if (uname(&u) < 0)
		strcpy(u.nodename, "localhost");
	util_strlcpy(host, u.nodename, sizeof(host));
	host[strcspn(host, ".")] = '\0';	/* short host name */
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	snprintf(buf, n, "%s-%s", host, stamp);
	for (int i = 2; i < 1000; i++) {
		char path[PATH_MAX];

		if (snprintf(path, sizeof(path), "%s/%s", parent, buf) >=
		    (int)sizeof(path) || access(path, F_OK) < 0)
			return;
		snprintf(buf, n, "%s-%s-%d", host, stamp, i);
	}
}

/* Two reads: the instances present in both are the set's first files
 * (collector.c make_files), and the second is the baseline every later
 * sample is a delta from. */
static int read_baseline(struct collector *c, struct perr *e)
{
	snapshot_reset(c->prev);
	snapshot_reset(c->cur);
	if (source_read(c->proc, c->prev, e) < 0 ||
	    source_read(c->proc, c->cur, e) < 0)
		return -1;
	return 0;
}

int collector_setup(struct collector *c, struct perr *e)
{
	const struct settings *s = c->set;
	struct logset_options lo;
	char name[300], parent[PATH_MAX];
	double mono, wall;

	if (util_mkdirs_made(s->directory, 0755, c->made_dir,
			     sizeof(c->made_dir)) < 0)
		return perr_set(e, "unable to create log directory '%s': %s",
				s->directory, strerror(errno));
	if (!realpath(s->directory, parent))
		return perr_set(e, "log directory '%s': %s", s->directory,
				strerror(errno));
	c->proc = source_open(c->opt->proc_root, e);
	if (!c->proc)
		return -1;
	c->prev = &c->a;
	c->cur = &c->b;
	c->sel = select_new(s);
	if (!c->sel)
		return perr_set(e, "out of memory");
	/* The baseline is read at once, between deadlines, and the schedule
	 * starts from it: the set starts a step before the first deadline,
	 * which is half a step (START_LEAD_MAX at most) or more after the
	 * baseline, so a sample can be taken from the moment the starter
	 * hears of the set (a tree watched then has its zero row, and its
	 * last figures when it ends before that deadline). The first row is
	 * known for the part after the baseline, unknown when that is less
	 * than half of it (logs/rows.h): with that lead, never up to a 5 s
	 * interval (at -i 10, when the start falls in its first 2.5 s of
	 * the step: a quarter of the starts). With the first deadline
	 * 0.05 s ahead and the baseline's first values stretched over the
	 * whole row, a burst in those 50 ms counted twenty times (t2105). The
	 * collector answers at its set's start at the earliest (collector.c
	 * wait_for_start): a run watches its tree and marks its session's
	 * begin once the collector answers, and with the deadline 0.05 s
	 * ahead the set's first row ended before that marker in 3 of 6 make
	 * checks (t3130, 0.14-0.17 s). */
	if (read_baseline(c, e) < 0)
		return -1;
	mono = util_monotonic();
	wall = collector_clock();
	schedule_init(&c->sched, s->interval, mono, wall,
		      fmin(s->interval / 2.0, START_LEAD_MAX));
	memset(&lo, 0, sizeof(lo));
	lo.parent = parent;
	if (s->name[0])
		util_strlcpy(name, s->name, sizeof(name));
	else
		default_name(parent, (time_t)wall, name, sizeof(name));
	lo.name = name;
	lo.interval = s->interval;
	lo.retention = s->retention;
	lo.rrdcached = s->rrdcached[0] ? s->rrdcached : getenv("RRDCACHED_ADDRESS");
	lo.start = schedule_stamp(&c->sched) - (time_t)s->interval;
	/* Rows are held back and each file written every [log] flush seconds
	 * (60 by default): one librrd update per file per batch instead of
	 * per sample, since the update, not the reading, is what costs
	 * (docs/PERFORMANCE.md). A "sync" or stop flushes; the journal keeps
	 * the rows held through a kill -9 (logs/journal.h). $PERFLOG_BATCH=N
	 * (samples) overrides, for tests. */
	lo.batch = s->flush > s->interval ? (unsigned)(s->flush / s->interval) : 1;
	if (getenv("PERFLOG_BATCH")) {
		long b = strtol(getenv("PERFLOG_BATCH"), NULL, 10);

		lo.batch = b >= 1 && b <= 3600 ? (unsigned)b : lo.batch;
	}
	if (logset_create(&lo, &c->w, e) < 0)
		return -1;
	if (c->opt->notify_fd >= 0) {
		/* a daemon: its complaints go with the log set they concern */
		int fd;

		fd = setdir_open_file(logset_writer_dir(c->w), "collector.log",
				      O_WRONLY | O_CREAT | O_EXCL | O_APPEND,
				      0644, NULL);
		if (fd >= 0) {
			dup2(fd, 2);
			close(fd);
		}
		complain_syslog(1);
	}
	c->srv = server_open(logset_writer_dir(c->w), s->interval, e);
	if (!c->srv)
		return -1;
	/* $PERFLOG_TRACE=FILE (a debugging and benchmark knob, bench/timing.sh):
	 * append "DEADLINE ACTUAL DONE" per sample, monotonic seconds: when the
	 * sample was due, when taking it began, and when it was written */
	if (getenv("PERFLOG_TRACE") && *getenv("PERFLOG_TRACE")) {
		c->trace = fopen(getenv("PERFLOG_TRACE"), "ae");
		if (!c->trace)
			return perr_set(e, "unable to open PERFLOG_TRACE '%s': %s",
					getenv("PERFLOG_TRACE"), strerror(errno));
	}
	return 0;
}

