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
#include <sys/resource.h>
#include <unistd.h>

#include "../process/process.h"
#include "../logs/markers.h"
#include "../logs/setdir.h"
#include "collector_int.h"
#include "conn_sessions.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
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
			/* a watched tree did nothing before its
			 * watch: its zeros cover its row from the start */
			if ((iv->object == OBJ_PROCESS ?
			     logset_add_idle_instance :
			     logset_add_instance)(c->w, iv->object,
						  iv->instance, e->counters,
						  (size_t)e->ncounters,
						  &pe) < 0) {
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

/* Rows the writer could not keep (held past its limit while files could
 * not be written) are lost for good: say so, with the count, apart from
 * the write failure that caused it (which keeps its own complaint). */
static void tell_rows_lost(struct collector *c, double now)
{
	unsigned long lost = logset_rows_lost(c->w);

	if (lost > c->rows_lost)
		complain(&c->c_lost, now,
			 "%lu rows lost in all: held over 15 minutes while the log set could not be written",
			 lost);
	else
		complain_release(&c->c_lost, "no more rows lost (%lu in all)",
				 lost);
	c->rows_lost = lost;
}

/* Markers held while markers.tsv could not be written (markhold.h): in
 * once it takes them again. */
static void write_held_marks(struct collector *c, double now)
{
	struct perr pe;

	if (!c->held.n)
		return;
	if (markhold_flush(&c->held, logset_writer_dir(c->w), &pe) < 0)
		complain(&c->c_marks, now, "markers held (%zu): %s",
			 c->held.n, pe.msg);
	else
		complain_release(&c->c_marks,
				 "the held markers are written");
}

/* The read just taken becomes the baseline the next is a delta from
 * (the two snapshots trade places: no copy). */
static void cur_to_prev(struct collector *c)
{
	struct raw_snapshot *t = c->prev;

	c->prev = c->cur;
	c->cur = t;
}

/* Read, compute and write one sample. stamp and deadline are the next
 * scheduled sample's; the update carries when the counters were really
 * read on the schedule's clock, stamp + (read - deadline), which is before
 * stamp for a sample off the schedule. */
static int take_sample(struct collector *c, time_t stamp, double deadline)
{
	struct perr pe;
	double now, when, lap;

	cost_begin(c, &lap);
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
	cost_lap(c, ST_READ, &lap);
	if (rates_compute(c->prev, c->cur, &c->sample) < 0) {
		complain(&c->c_read, now, "unable to compute rates");
		return -1;
	}
	cost_lap(c, ST_RATES, &lap);
	when = (double)stamp + (c->cur->mono - deadline);
	if (when < c->last_update + 0.001)
		when = c->last_update + 0.001;
	conn_sessions_sample(c);
	watch_sample(c, when);
	conn_sessions_after(c);
	cost_lap(c, ST_WATCH, &lap);
	select_instances(c, now);
	cost_lap(c, ST_SELECT, &lap);
	/* the values cover the monotonic time since the previous read: a wall
	 * clock that jumped further leaves the difference unknown */
	if (logset_write_span(c->w, when - (c->cur->mono - c->prev->mono), when,
			      &c->sample, &pe) < 0)
		complain(&c->c_write, now, "%s", pe.msg);
	else
		complain_release(&c->c_write, "writing the log set works again");
	tell_rows_lost(c, now);
	write_held_marks(c, now);
	cost_lap(c, ST_WRITE, &lap);
	c->cost.samples++;
	c->samples++;
	c->last = (time_t)floor(when);
	c->last_update = when;
	cur_to_prev(c);
	return 0;
}

/* Now on the schedule's clock (the wall clock the stamps follow). */
static double sched_now(const struct collector *c)
{
	return (double)schedule_stamp(&c->sched) +
	       (util_monotonic() - schedule_deadline(&c->sched));
}

/* Take a sample now, off the schedule (collector_int.h). Returns 0, or -1
 * when none can be taken (within a millisecond of the last one, or
 * before the set's start). */
static int sample_now(struct collector *c)
{
	double deadline = schedule_deadline(&c->sched);
	time_t stamp = schedule_stamp(&c->sched);
	double when = sched_now(c);

	/* the set starts a step before the first deadline (setup.c): a
	 * clock stepped back may put now before it */
	if (when < c->last_update + 0.001 ||
	    when <= (double)logset_writer_meta(c->w)->start)
		return -1;
	return take_sample(c, stamp, deadline);
}

/*
 * Stop: take a last sample, then close the row it falls in when that is
 * worth it: when a watched tree ended in it (its zeros make the row hold
 * exactly the tree's work, not an average over the part it lived), or
 * when at least half of it was measured (librrd keeps a row whose unknown
 * part is at most half, as the average of the rest). Returns the stop
 * time for the metadata.
 */
static double closing(struct collector *c)
{
	double step = c->set->interval, row_end, known;
	struct perr pe;

	if (!c->samples || !c->w)
		return c->last_update;
	if (sched_now(c) > c->last_update + 0.05)	/* else: just taken */
		sample_now(c);
	row_end = ceil(c->last_update / step) * step;
	if (row_end < c->last_update + 0.001)
		return c->last_update;
	known = c->last_update - (row_end - step);
	sample_reset(&c->sample);
	if (!watch_closing(c) && known < step / 2)
		return c->last_update;
	if (logset_write_sample(c->w, row_end, &c->sample, &pe) < 0) {
		complain(&c->c_write, util_monotonic(), "%s", pe.msg);
		return c->last_update;
	}
	c->last_update = row_end;
	return row_end;
}

static void teardown(struct collector *c)
{
	struct perr pe;
	int closed = 1;

	double stop = c->w ? closing(c) : 0;

	/* the connections' sessions still open end at the last sample,
	 * before the set closes (closing's sample saw the last ends) */
	conn_sessions_close(c, stop);
	if (c->w && c->held.n &&
	    markhold_flush(&c->held, logset_writer_dir(c->w), &pe) < 0)
		fprintf(stderr, "perflog: %zu marker(s) lost: %s\n", c->held.n,
			pe.msg);
	markhold_free(&c->held);
	/* a daemon: stderr is collector.log; its cost line before the
	 * close, whose last step sends the set's files to a remote
	 * rrdcached's host (logs/mirror.h); the close is no sample's cost */
	if (c->opt->notify_fd >= 0)
		cost_log(c, stderr);
	if (c->w && logset_close_writer(c->w, stop, &pe) < 0) {
		fprintf(stderr, "perflog: %s\n", pe.msg);
		closed = 0;
	}
	c->w = NULL;
	/* `perflog stop` says so when the set could not be closed whole
	 * (its stop line not in perflog.meta on a full disk) */
	for (int i = 0; i < c->nstop; i++)
		if (closed)
			server_reply(&c->stopper[i], 1, "stopped");
		else
			server_reply(&c->stopper[i], 0,
				     "stopped, but the log set is not closed whole: %s",
				     pe.msg);
	watch_free_all(c);
	for (size_t i = 0; i < c->nopen; i++)
		free(c->open[i]);
	free(c->open);
	server_close(c->srv);
	select_free(c->sel);
	source_close(c->proc);
	snapshot_free(&c->a);
	snapshot_free(&c->b);
	sample_free(&c->sample);
	if (c->trace)
		fclose(c->trace);
}

/* Exit records are read in batches: waking for each one (a thread or a
 * process ending) cost more in context switches than the reading, 4.7%
 * of a CPU at 10,000 exits a second, most of it in the scheduler. After a
 * drain the socket is left alone for DRAIN_GAP (a few hundred records at
 * that rate; the 4 MiB receive buffer holds thousands), less after a
 * large batch so a faster burst does not overflow it. */
#define DRAIN_GAP 0.05
#define DRAIN_GAP_BUSY 0.01
#define DRAIN_BUSY 1000

/* A span of s seconds (s >= 0) as a timespec. */
static struct timespec span(double s)
{
	struct timespec ts;

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - floor(s)) * 1e9);
	return ts;
}

/* Between deadlines: serve requests and drain exit records until the
 * deadline, a request or a signal (unblocked only inside ppoll, so none
 * is lost between the check and the wait). */
static void wait_for(struct collector *c, double deadline,
		     const sigset_t *old)
{
	double now = util_monotonic(), until = deadline;
	struct timespec ts;
	struct pollfd p[2] = {
		{ .fd = server_fd(c->srv), .events = POLLIN },
		{ .fd = watch_fd(c), .events = POLLIN },
	};
	nfds_t n = p[1].fd >= 0 ? 2 : 1;
	int r;

	if (n > 1 && now < c->drain_at) {
		n = 1;		/* not yet: wake for it when it is time */
		if (c->drain_at < until)
			until = c->drain_at;
	}
	ts = span(until > now ? until - now : 0);
	r = ppoll(p, n, &ts, old);
	if (r < 0)
		return;
	if (r > 0 && p[0].revents) {
		struct loop_request lr;

		serve_one(c, &lr);
		if (lr.want == WANT_STOP)
			stop_signal = -1;
		if (lr.want == WANT_SAMPLE)
			sample_now(c);
		serve_finish(c, &lr);
	}
	if (p[1].fd >= 0 && util_monotonic() >= c->drain_at &&
	    (n == 1 || (r > 0 && p[1].revents))) {
		long got = watch_drain(c);

		/* none: back to waking when one comes, not every gap */
		c->drain_at = got <= 0 ? 0 : util_monotonic() +
			(got >= DRAIN_BUSY ? DRAIN_GAP_BUSY : DRAIN_GAP);
	}
}

/* A scheduled sample. */
static void at_deadline(struct collector *c, double deadline, double now)
{
	time_t stamp = schedule_stamp(&c->sched);
	long skipped;

	take_sample(c, stamp, deadline);
	if (c->trace)
		fprintf(c->trace, "%.6f %.6f %.6f\n", deadline, now,
			util_monotonic());
	skipped = schedule_advance(&c->sched, util_monotonic(), collector_clock());
	/* the perflog run that started us was killed: stop once its tree
	 * and those of the runs that joined are done */
	if (c->opt->owner && !c->release &&
	    proctree_start_time("/", c->opt->owner) != c->owner_start)
		c->release = 1;
	if (skipped > 0)
		complain(&c->c_late, util_monotonic(),
			 "sampling fell behind: %ld sample(s) skipped", skipped);
	watch_check(c);
}

static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * The set's files and the baseline, made before the starter hears of the
 * set (issue 48: `perflog start` returns once the set exists and the
 * collector answers, not after its first sample, 7.6 s at the default
 * interval). The instances two reads find (rates_compute lists those
 * present in both) are selected as a sample's are and their files
 * created now, and perflog.meta maps them: a set that cannot be made
 * whole (a nearly full disk) fails the start with the file and the
 * errno. An instance that comes later joins at its sample, as any new
 * device does. The second read (setup.c read_baseline) is the baseline
 * every later sample is a delta from, and the set starts a step before
 * the first aligned deadline (setup.c): from the moment the starter
 * hears of the set a sample can be taken, so a tree watched before the
 * first deadline has its zero row and, ended before it, its last
 * figures at once (a command of 0.3 s that joined a set just started
 * had no rows at all when the baseline waited for that deadline: t3110
 * 'big', t7030).
 */
static int make_files(struct collector *c, struct perr *e)
{
	if (rates_compute(c->prev, c->cur, &c->sample) < 0)
		return perr_set(e, "unable to compute rates");
	select_instances(c, c->cur->mono);
	if (logset_flush(c->w, e) < 0 || logset_failing(c->w, e))
		return -1;
	cur_to_prev(c);
	return 0;
}

/* A collector answers at its set's start at the earliest: a run's watch
 * takes a sample at once, and a sample at or before the start is refused
 * (sample_now), so a tree watched then had no baseline (t7725: a 1 s
 * command without a wait tick); a marker made then would come before the
 * set. With the first deadline half a step ahead (START_LEAD_MAX at
 * most, setup.c) the start, a step before it, may be up to that much
 * ahead of now; the signals that stop us are blocked here. A baseline
 * read before the start is read again at it: the first sample's average
 * would otherwise cover time before the set, and its share of that
 * sample (a load begun once the start returned) would be lost with it
 * (t2105: 1.28 of 1.5 core-s). */
static void wait_for_start(struct collector *c)
{
	double at = schedule_deadline(&c->sched) - c->set->interval + 0.002;
	double now = util_monotonic();
	struct perr pe;

	if (now >= at)
		return;
	while (now < at) {
		struct timespec ts = span(at - now);

		nanosleep(&ts, NULL);
		now = util_monotonic();
	}
	snapshot_reset(c->cur);
	if (source_read(c->proc, c->cur, &pe) < 0)
		return;		/* the first baseline stays */
	cur_to_prev(c);
}

/* A start that failed (its set not made whole: a full disk; set up only
 * in part) leaves no set behind: nothing was logged, and on a full disk
 * the set held the space and read as a normal log. One that someone
 * marked meanwhile stays (logset_discard). */
static void teardown_failed(struct collector *c)
{
	char dir[PATH_MAX] = "";
	struct perr pe;

	if (c->w)
		util_strlcpy(dir, logset_writer_dir(c->w), sizeof(dir));
	teardown(c);
	if (dir[0] && logset_discard(dir, NULL, &pe) < 0)
		fprintf(stderr, "perflog: %s\n", pe.msg);
	/* -o NEW/DIR: the directories made for it go too (those still
	 * empty: another set may have come to share them) */
	util_rmdirs_made(c->set->directory, c->made_dir);
}

int collector_run(const struct collector_options *opt)
{
	struct collector c;
	struct perr e;
	sigset_t block, old;
	struct sigaction sa;

	memset(&c, 0, sizeof(c));
	c.opt = opt;
	c.set = opt->settings;
	if (opt->owner)
		c.owner_start = proctree_start_time("/", opt->owner);
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

	/* The wait-state sampler keeps up to five descriptors per thread of
	 * a watched command (waits/waits.h; past half the soft limit it
	 * opens and closes instead, which costs more): the hard limit is
	 * ours to take. */
	raise_nofile();
	/* A fixed mmap threshold: big blocks (librrd's buffers) go back to
	 * the system when freed, instead of glibc raising the threshold and
	 * keeping them in the heap for the collector's whole life. */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	if (collector_setup(&c, &e) < 0 || make_files(&c, &e) < 0) {
		teardown_failed(&c);
		notify(&c, 0, e.msg);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 1;
	}
	wait_for_start(&c);
	/* requests are answered from here on */
	notify(&c, 1, logset_writer_dir(c.w));
	while (!stop_signal) {
		double deadline = schedule_deadline(&c.sched);
		double now = util_monotonic();

		if (c.release && !watch_active(&c))
			break;	/* the run that started us is done, and
				 * every run that joined */
		if (now < deadline)
			wait_for(&c, deadline, &old);
		else
			at_deadline(&c, deadline, now);
		if (opt->max_samples && (long)c.samples >= opt->max_samples)
			break;
	}
	teardown(&c);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}
