/*
 * collector.c - the sampling loop (collector.h has the data flow).
 *
 * Timing: samples land on absolute monotonic deadlines (schedule.h); the
 * time between them is spent in ppoll() on the control socket with the
 * termination signals unblocked only inside ppoll, so a SIGTERM is never
 * lost between the check and the wait (STYLE 7: the handler only sets a
 * flag, the loop does the work).
 *
 * Failures while logging (a full disk, a vanished device, a file that
 * cannot be written) are reported once through complain() and sampling
 * goes on: the log set must outlive whatever happens during a backup.
 */
#define _GNU_SOURCE
#include "collector.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../counters/process.h"
#include "../counters/rates.h"
#include "../counters/source.h"
#include "../logs/logset.h"
#include "../logs/markers.h"
#include "../logs/setdir.h"
#include "complain.h"
#include "schedule.h"
#include "select.h"
#include "server.h"

#define MAX_SYNC 64
#define MAX_WATCH 16

static volatile sig_atomic_t stop_signal;

/*
 * The wall clock the collector stamps with. Test seam (STYLE 4, like git's
 * GIT_TEST_DATE_NOW): when $PERFLOG_TEST_CLOCK_OFFSET_FILE names a file, the
 * number of seconds it holds (may be negative or fractional) is added to
 * CLOCK_REALTIME, re-read at every call (once per sample), so a test can
 * step the "wall clock" forward or back mid-run without root and without
 * disturbing the machine. A missing or unreadable file means no offset.
 * Not for production use; tests/t7300-clock.t is its user.
 */
static double wall_clock(void)
{
	const char *f = getenv("PERFLOG_TEST_CLOCK_OFFSET_FILE");
	double wall = util_walltime();
	char buf[64];
	ssize_t n;
	int fd;

	if (!f || !*f)
		return wall;
	fd = open(f, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return wall;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n > 0) {
		char *end;
		double off;

		buf[n] = '\0';
		off = strtod(buf, &end);
		if (end != buf && isfinite(off) && fabs(off) < 1e9)
			wall += off;
	}
	return wall;
}

static void on_signal(int sig)
{
	stop_signal = sig;
}

struct watch {
	pid_t pid;
	char label[SRC_NAME_MAX];
	struct proctree *tree;
	struct proc_raw prev;
	int have_prev;
};

struct collector {
	const struct collector_options *opt;
	const struct settings *set;
	struct source *proc;
	struct raw_snapshot a, b, *prev, *cur;
	struct sample sample;
	struct selector *sel;
	struct logset_writer *w;
	struct server *srv;
	struct schedule sched;
	int have_base;		/* the first deadline's read, the baseline */
	unsigned long samples;
	time_t last;		/* nominal stamp of the last sample */
	double last_update;	/* when it was really read (wall clock) */
	struct request sync[MAX_SYNC];
	int nsync;
	struct request stopper[MAX_SYNC];
	int nstop;
	struct watch watch[MAX_WATCH];
	int nwatch;
	struct complaint c_read, c_write, c_add, c_late;
	FILE *trace;		/* $PERFLOG_TRACE: one line per sample */
};

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

static void notify(const struct collector *c, int ok, const char *msg)
{
	if (c->opt->notify_fd >= 0) {
		char buf[PATH_MAX + 600];
		int n = snprintf(buf, sizeof(buf), "%s %s\n",
				 ok ? "ok" : "error", msg);

		if (write(c->opt->notify_fd, buf, (size_t)n) < 0) {
			/* the starter died; nobody to tell */
		}
	} else if (ok) {
		printf("%s\n", msg);
		fflush(stdout);
	} else {
		fprintf(stderr, "perflog start: %s\n", msg);
	}
}

/* Add watched process trees to the sample. */
static void sample_watches(struct collector *c)
{
	for (int i = 0; i < c->nwatch; i++) {
		struct watch *wt = &c->watch[i];
		struct proc_raw now;
		struct instance_values *iv;

		if (proctree_read(wt->tree, &now, NULL) < 0) {
			wt->have_prev = 0;
			continue;
		}
		if (wt->have_prev) {
			iv = sample_add(&c->sample, OBJ_PROCESS, wt->label);
			if (iv)
				proctree_rates(&wt->prev, &now, iv);
		}
		wt->prev = now;
		wt->have_prev = 1;
	}
}

static int instance_has_io(const struct raw_snapshot *s, const char *name)
{
	const struct disk_raw *d = snapshot_find_disk(s, name);

	if (!d)
		return 1;	/* _Total and the like */
	return (d->rd_ios != 0 && d->rd_ios != SRC_NA) ||
	       (d->wr_ios != 0 && d->wr_ios != SRC_NA);
}

/* Make sure every selected instance of the sample has its RRD file; drop
 * the instances that are not logged so the writer does not look at them.
 * The writer's worker creates the files (logs/grow.h), so adding an
 * instance costs microseconds; the budget of half an interval per sample
 * (the objects without instances and the _Totals excepted) is a guard
 * that only a host with many thousands of new devices reaches: they then
 * join over a few intervals instead of the collector stalling. */
static void select_instances(struct collector *c, double now)
{
	size_t keep = 0;
	double budget = now + c->set->interval * 0.5;

	for (size_t i = 0; i < c->sample.n; i++) {
		struct instance_values *iv = &c->sample.inst[i];
		struct select_entry *e =
			select_get(c->sel, iv->object, iv->instance);
		struct perr pe;

		if (!e)
			continue;
		if (iv->object == OBJ_PROCESS && e->ncounters == 0) {
			/* watched trees log the whole Process object */
			const struct object_def *od =
				&catalog_objects[OBJ_PROCESS];

			for (int k = 0; k < od->ncounters; k++)
				e->counters[k] = k;
			e->ncounters = od->ncounters;
		}
		if (e->ncounters == 0)
			continue;
		if (!e->added) {
			if (iv->object == OBJ_LOGICALDISK && !e->named &&
			    !instance_has_io(c->cur, iv->instance))
				continue;	/* idle loop/ram device */
			/* Memory, System and the _Totals always come first */
			if (iv->instance[0] && strcmp(iv->instance, "_Total") &&
			    util_monotonic() > budget)
				continue;	/* next sample */
			if (logset_add_instance(c->w, iv->object, iv->instance,
						e->counters,
						(size_t)e->ncounters, &pe) < 0) {
				complain(&c->c_add, now, "%s", pe.msg);
				continue;
			}
			e->added = 1;
			complain_release(&c->c_add, "creating %s(%s) works again",
					 catalog_objects[iv->object].name,
					 iv->instance);
		}
		if (keep != i)
			c->sample.inst[keep] = *iv;
		keep++;
	}
	c->sample.n = keep;
}

/* stamp: the sample's nominal wall time; deadline: its monotonic
 * deadline. The update carries when the counters were really read. */
static int take_sample(struct collector *c, time_t stamp, double deadline)
{
	struct perr pe;
	struct raw_snapshot *t;
	double now, when;

	snapshot_reset(c->cur);
	pe.msg[0] = '\0';
	if (source_read(c->proc, c->cur, &pe) < 0) {
		complain(&c->c_read, util_monotonic(), "%s", pe.msg);
		return -1;
	}
	now = c->cur->mono;
	if (pe.msg[0])
		complain(&c->c_read, now, "%s", pe.msg);
	else
		complain_release(&c->c_read, "reading counters works again");
	if (rates_compute(c->prev, c->cur, &c->sample) < 0) {
		complain(&c->c_read, now, "unable to compute rates");
		return -1;
	}
	sample_watches(c);
	select_instances(c, now);
	when = (double)stamp + (c->cur->mono - deadline);
	if (when < c->last_update + 0.001)
		when = c->last_update + 0.001;
	/* the values cover the monotonic time since the previous read: a wall
	 * clock that jumped further leaves the difference unknown */
	if (logset_write_span(c->w, when - (c->cur->mono - c->prev->mono), when,
			      &c->sample, &pe) < 0)
		complain(&c->c_write, now, "%s", pe.msg);
	else
		complain_release(&c->c_write, "writing the log set works again");
	c->samples++;
	c->last = stamp;
	c->last_update = when;
	t = c->prev;
	c->prev = c->cur;
	c->cur = t;
	return 0;
}

static void handle_mark(struct collector *c, struct request *r, char *args)
{
	char *field[64];
	int n = 0;
	enum marker_kind kind;
	char *session, *text;
	const char *extra[64];
	struct perr pe;
	int ok, bad_extra = 0;

	for (char *p = args; n < 64;) {
		field[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (n < 3) {
		server_reply(r, 0, "mark: expected KIND, SESSION and TEXT");
		return;
	}
	if (!strcmp(field[0], "begin"))
		kind = MARK_BEGIN;
	else if (!strcmp(field[0], "end"))
		kind = MARK_END;
	else if (!strcmp(field[0], "point"))
		kind = MARK_POINT;
	else {
		server_reply(r, 0, "mark: unknown kind '%.32s'", field[0]);
		return;
	}
	session = markers_unescape(field[1]);
	text = markers_unescape(field[2]);
	for (int i = 3; i < n; i++)
		bad_extra |= !(extra[i - 3] = markers_unescape(field[i]));
	ok = session && text && !bad_extra &&
	     markers_append(logset_writer_dir(c->w), kind, session, text,
			    extra, (size_t)(n - 3), &pe) == 0;
	if (!session || !text || bad_extra)
		util_strlcpy(pe.msg, "mark: bad escape in a field",
			     sizeof(pe.msg));
	free(session);
	free(text);
	for (int i = 3; i < n; i++)
		free((char *)extra[i - 3]);
	if (ok)
		server_reply(r, 1, "%s", "");
	else
		server_reply(r, 0, "%s", pe.msg);
}

static void handle_watch(struct collector *c, struct request *r, char *args)
{
	char *tab = strchr(args, '\t'), *end;
	long pid;
	struct perr pe;
	struct watch *wt;

	if (!tab) {
		server_reply(r, 0, "watch: expected PID and LABEL");
		return;
	}
	*tab++ = '\0';
	pid = strtol(args, &end, 10);
	if (*end || pid <= 0 || !*tab || strlen(tab) >= SRC_NAME_MAX) {
		server_reply(r, 0, "watch: bad pid or label");
		return;
	}
	if (c->nwatch == MAX_WATCH) {
		server_reply(r, 0, "watch: too many process trees (%d)",
			     MAX_WATCH);
		return;
	}
	wt = &c->watch[c->nwatch];
	memset(wt, 0, sizeof(*wt));
	wt->tree = proctree_open(c->opt->proc_root, (pid_t)pid, &pe);
	if (!wt->tree) {
		server_reply(r, 0, "%s", pe.msg);
		return;
	}
	wt->pid = (pid_t)pid;
	util_strlcpy(wt->label, tab, sizeof(wt->label));
	/* the first read is the baseline: the tree is logged from the next
	 * sample on, like any new instance */
	if (proctree_read(wt->tree, &wt->prev, NULL) == 0)
		wt->have_prev = 1;
	c->nwatch++;
	server_reply(r, 1, "%s", "");
}

static void handle_unwatch(struct collector *c, struct request *r,
			   const char *args)
{
	long pid = strtol(args, NULL, 10);

	for (int i = 0; i < c->nwatch; i++)
		if (c->watch[i].pid == pid) {
			proctree_close(c->watch[i].tree);
			c->watch[i] = c->watch[--c->nwatch];
			server_reply(r, 1, "%s", "");
			return;
		}
	server_reply(r, 0, "unwatch: pid %ld is not watched", pid);
}

static void serve(struct collector *c)
{
	struct request r;
	char last[40] = "-";

	if (server_accept(c->srv, &r, schedule_deadline(&c->sched)) != 1)
		return;
	if (!strcmp(r.line, "status")) {
		if (c->last)
			util_iso8601(last, sizeof(last), c->last, -1);
		server_reply(&r, 1, "logset=%s interval=%u samples=%lu last=%s",
			     logset_writer_dir(c->w), c->set->interval,
			     c->samples, last);
	} else if (!strcmp(r.line, "stop")) {
		if (c->nstop < MAX_SYNC)
			c->stopper[c->nstop++] = r;
		else
			server_reply(&r, 1, "stopping");
		stop_signal = -1;
	} else if (!strcmp(r.line, "sync")) {
		if (c->nsync < MAX_SYNC)
			c->sync[c->nsync++] = r;
		else
			server_reply(&r, 0, "too many waiting clients");
	} else if (!strncmp(r.line, "mark ", 5)) {
		handle_mark(c, &r, r.line + 5);
	} else if (!strncmp(r.line, "watch ", 6)) {
		handle_watch(c, &r, r.line + 6);
	} else if (!strncmp(r.line, "unwatch ", 8)) {
		handle_unwatch(c, &r, r.line + 8);
	} else {
		server_reply(&r, 0, "unknown request");
	}
}

static int setup(struct collector *c, struct perr *e)
{
	const struct settings *s = c->set;
	struct logset_options lo;
	char name[300], parent[PATH_MAX];
	double mono, wall;

	if (util_mkdirs(s->directory, 0755) < 0)
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
	mono = util_monotonic();
	wall = wall_clock();
	/* The first deadline takes the baseline and the file starts there:
	 * every row, the first included, then covers exactly the time its
	 * counters were measured over (a baseline read between deadlines
	 * would have its first delta spread over a whole step by librrd). */
	schedule_init(&c->sched, s->interval, mono, wall, 0.05);
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
	lo.start = schedule_stamp(&c->sched);
	/* Rows are held back and each file written every [log] flush seconds
	 * (10 by default): one librrd update per file per batch instead of
	 * per sample, since the update, not the reading, is what costs
	 * (docs/PERFORMANCE.md). A "sync" or stop flushes; a kill -9 loses
	 * the rows held. $PERFLOG_BATCH=N (samples) overrides, for tests. */
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

static void teardown(struct collector *c)
{
	struct perr pe;

	if (c->w && logset_close_writer(c->w, c->last_update, &pe) < 0)
		fprintf(stderr, "perflog: %s\n", pe.msg);
	c->w = NULL;
	for (int i = 0; i < c->nstop; i++)
		server_reply(&c->stopper[i], 1, "stopped");
	for (int i = 0; i < c->nsync; i++)
		server_reply(&c->sync[i], 0, "collector stopped");
	for (int i = 0; i < c->nwatch; i++)
		proctree_close(c->watch[i].tree);
	server_close(c->srv);
	select_free(c->sel);
	source_close(c->proc);
	snapshot_free(&c->a);
	snapshot_free(&c->b);
	sample_free(&c->sample);
	if (c->trace)
		fclose(c->trace);
}

int collector_run(const struct collector_options *opt)
{
	struct collector c;
	struct perr e;
	sigset_t block, old;
	struct sigaction sa;
	int first = 1;

	memset(&c, 0, sizeof(c));
	c.opt = opt;
	c.set = opt->settings;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);

	/* A fixed mmap threshold: big blocks (librrd's buffers) go back to
	 * the system when freed, instead of glibc raising the threshold and
	 * keeping them in the heap for the collector's whole life. */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	if (setup(&c, &e) < 0) {
		notify(&c, 0, e.msg);
		teardown(&c);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 1;
	}
	while (!stop_signal) {
		double deadline = schedule_deadline(&c.sched);
		double now = util_monotonic();

		if (now < deadline) {
			double wait = deadline - now;
			struct timespec ts = {
				.tv_sec = (time_t)wait,
				.tv_nsec = (long)((wait - floor(wait)) * 1e9),
			};
			struct pollfd p = { .fd = server_fd(c.srv),
					    .events = POLLIN };
			int r = ppoll(&p, 1, &ts, &old);

			if (r > 0)
				serve(&c);
			continue;	/* re-check the signal and the clock */
		}
		if (!c.have_base) {
			struct perr pe;

			snapshot_reset(c.prev);
			if (source_read(c.proc, c.prev, &pe) == 0)
				c.have_base = 1;
			else
				complain(&c.c_read, util_monotonic(), "%s", pe.msg);
			schedule_advance(&c.sched, util_monotonic(), wall_clock());
			continue;
		}
		{
			time_t stamp = schedule_stamp(&c.sched);
			long skipped;

			if (take_sample(&c, stamp, deadline) == 0 && first) {
				first = 0;
				/* the first row is on disk before start returns */
				logset_flush(c.w, NULL);
				notify(&c, 1, logset_writer_dir(c.w));
			}
			if (c.trace)
				fprintf(c.trace, "%.6f %.6f %.6f\n", deadline, now,
					util_monotonic());
			if (c.nsync) {
				struct perr pe;

				if (logset_flush(c.w, &pe) < 0)
					complain(&c.c_write, util_monotonic(),
						 "%s", pe.msg);
			}
			skipped = schedule_advance(&c.sched, util_monotonic(),
						   wall_clock());
			if (skipped > 0)
				complain(&c.c_late, util_monotonic(),
					 "sampling fell behind: %ld sample(s) skipped",
					 skipped);
			for (int i = 0; i < c.nsync; i++)
				server_reply(&c.sync[i], 1, "samples=%lu",
					     c.samples);
			c.nsync = 0;
			if (opt->max_samples && (long)c.samples >= opt->max_samples)
				break;
		}
	}
	if (first)
		notify(&c, 0, "stopped before the first sample");
	teardown(&c);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return first ? 1 : 0;
}
