/*
 * logset_write.c - the collector's side of a log set: create the
 * directory, add instances, turn samples into rows, close.
 *
 *   logset_create        a fresh set directory (setdir.h), .lock (flock +
 *                        pid), perflog.meta, markers.tsv
 *   logset_add_instance  (writer_add.c) a file to be: its create job goes
 *                        to the worker (writer_grow.c) and its rows are
 *                        held until the file exists; its counters enter
 *                        perflog.meta then
 *   logset_write_span    each file's values into whole rows (rows.h);
 *                        every opt->batch samples one update per file with
 *                        the rows it holds (writer_send.c)
 *   logset_close_writer  the worker's last jobs, every held row, stop
 *                        time, perflog.meta, rrdcached flush, unlock
 *
 * The per-sample path is what the collector pays every interval on every
 * file, so it allocates nothing in the steady state: each file's rows
 * buffer is sized for a batch, values come straight from the sample
 * (found through a position hint, since a sample lists its instances in
 * the same order interval after interval), and the metadata is rewritten
 * only when files were created since the last sample (always after they
 * exist, so a reader never sees a counter whose file is missing).
 *
 * rrdcached: with opt->rrdcached (or $RRDCACHED_ADDRESS) every update goes
 * through librrd's client (rrdc_update). On a local socket the paths are
 * absolute and the files are created and grown by the worker on the file
 * system (the daemon sees the set's directory at the same path); over TCP
 * the names are relative to the daemon's base directory and the daemon
 * creates the files (writer_remote.c). logset_close_writer flushes every
 * file so the set is complete on the daemon's disk when it returns.
 */
#define _GNU_SOURCE
#include "writer.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <rrd.h>
#include <rrd_client.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "rrdlock.h"
#include "setdir.h"

#define DEFAULT_RETENTION (2UL * 86400)
/* files written together in one sample (logset_write_span) */
#define WRITE_GROUP 64

const char *logset_writer_dir(const struct logset_writer *w)
{
	return w->dir;
}

const struct logset_meta *logset_writer_meta(const struct logset_writer *w)
{
	return &w->meta;
}

void writer_failed(struct logset_writer *w, struct wfile *f, int *flag,
		   const char *msg)
{
	if (!f->job_failed && !f->send_failed)
		w->nfailing++;
	*flag = 1;
	util_strlcpy(w->failure.msg, msg, sizeof(w->failure.msg));
}

void writer_recovered(struct logset_writer *w, struct wfile *f, int *flag)
{
	if (!*flag)
		return;
	*flag = 0;
	if (!f->job_failed && !f->send_failed)
		w->nfailing--;
}

int writer_write_meta(struct logset_writer *w, struct perr *e)
{
	char *text = logset_meta_format(&w->meta);
	int rc;

	if (!text)
		return perr_set(e, "out of memory");
	rc = setdir_write_atomic(w->dfd, w->dir, LOGSET_META, text,
				 strlen(text), e);
	free(text);
	if (rc == 0)
		w->meta_dirty = 0;
	return rc;
}

/* .lock in the new set: flock()ed with our pid while we write the set. */
static int take_lock(struct logset_writer *w, struct perr *e)
{
	char pid[32];
	int n;

	w->lockfd = setdir_openat(w->dfd, w->dir, ".lock",
				  O_RDWR | O_CREAT | O_EXCL, 0644, e);
	if (w->lockfd < 0)
		return -1;
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (flock(w->lockfd, LOCK_EX | LOCK_NB) < 0 ||
	    pwrite(w->lockfd, pid, (size_t)n, 0) != n)
		return perr_set(e, "unable to lock '%s/.lock': %s", w->dir,
				strerror(errno));
	return 0;
}

/* The set directory under the (absolute) parent: opt->name, or
 * HOST-YYYYmmddTHHMMSS with -2, -3 ... when that exists. */
static int make_set(struct logset_writer *w, const char *parent,
		    const char *name, struct perr *e)
{
	char host[64], stamp[32], base[128], try[160];
	time_t now = time(NULL);
	struct tm tm;

	if (name) {
		if (snprintf(w->dir, sizeof(w->dir), "%s/%s", parent, name) >=
		    (int)sizeof(w->dir))
			return perr_set(e, "path too long: '%s'", parent);
		w->dfd = setdir_create(parent, name, e);
		return w->dfd < 0 ? -1 : 0;
	}
	if (gethostname(host, sizeof(host)) < 0 || !*host)
		util_strlcpy(host, "localhost", sizeof(host));
	host[sizeof(host) - 1] = '\0';
	for (char *p = host; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	snprintf(base, sizeof(base), "%s-%s", host, stamp);
	for (int i = 1; i <= 100; i++) {
		if (i == 1)
			snprintf(try, sizeof(try), "%s", base);
		else
			snprintf(try, sizeof(try), "%s-%d", base, i);
		w->dfd = setdir_create(parent, try, e);
		if (w->dfd >= 0 || errno != EEXIST)
			break;
	}
	if (w->dfd >= 0 && snprintf(w->dir, sizeof(w->dir), "%s/%s", parent,
				    try) >= (int)sizeof(w->dir))
		return perr_set(e, "path too long: '%s'", parent);
	return w->dfd < 0 ? -1 : 0;
}

static void init_meta(struct logset_writer *w,
		      const struct logset_options *opt)
{
	struct utsname u;
	char host[64];

	if (gethostname(host, sizeof(host)) < 0 || !*host)
		util_strlcpy(host, "localhost", sizeof(host));
	host[sizeof(host) - 1] = '\0';
	w->meta.format = LOGSET_FORMAT;
	util_strlcpy(w->meta.version, PERFLOG_VERSION, sizeof(w->meta.version));
	util_strlcpy(w->meta.host, host, sizeof(w->meta.host));
	if (uname(&u) == 0)
		snprintf(w->meta.os, sizeof(w->meta.os), "%.30s %.60s %.30s",
			 u.sysname, u.release, u.machine);
	if (opt->host && *opt->host)
		util_strlcpy(w->meta.host, opt->host, sizeof(w->meta.host));
	if (opt->os)
		util_strlcpy(w->meta.os, opt->os, sizeof(w->meta.os));
	if (opt->source)
		util_strlcpy(w->meta.source, opt->source,
			     sizeof(w->meta.source));
	w->meta.interval = opt->interval;
	w->meta.retention = opt->retention ? opt->retention : DEFAULT_RETENTION;
	w->meta.start = opt->start ? opt->start : time(NULL);
	w->meta.start -= w->meta.start % (time_t)opt->interval;
	w->batch = opt->batch > 1 ? opt->batch : 1;
	if (w->batch > 3600)
		w->batch = 3600;
	w->layout.step = opt->interval;
	w->layout.retention = w->meta.retention;
	w->span = opt->first_span ? opt->first_span : layout_first_span();
}

static int connect_cached(struct logset_writer *w, const char *cached,
			  struct perr *e)
{
	if (!cached || !*cached)
		cached = getenv("RRDCACHED_ADDRESS");
	if (!cached || !*cached)
		return 0;
	if (util_strlcpy(w->cached, cached, sizeof(w->cached)) < 0)
		return perr_set(e, "rrdcached address too long: '%s'", cached);
	cachedconn_init(&w->conn, w->cached);
	if (writer_remote_reach(w, e) < 0) {
		w->cached[0] = '\0';
		return -1;
	}
	rrd_clear_error();
	if (rrdc_connect(cached) != 0 || !rrdc_is_connected(cached)) {
		const char *why = rrd_get_error();

		w->cached[0] = '\0';
		return perr_set(e, "unable to connect to rrdcached at '%s': %s",
				cached, why && *why ? why : "connection failed");
	}
	writer_remote_bound(w);
	return 0;
}

static int check_options(const struct logset_options *opt, struct perr *e)
{
	if (opt->interval == 0 || opt->interval > 86400)
		return perr_set(e, "bad interval %u (want 1 to 86400 seconds)",
				opt->interval);
	if (opt->name && (!*opt->name || strchr(opt->name, '/') ||
			  !strcmp(opt->name, ".") || !strcmp(opt->name, "..")))
		return perr_set(e, "bad log set name '%s'", opt->name);
	return 0;
}

/* Everything of logset_create after the directory and the lock. */
static int start_set(struct logset_writer *w,
		     const struct logset_options *opt, struct perr *e)
{
	int mfd;

	init_meta(w, opt);
	w->lines = malloc((size_t)SEND_ROWS * LINE_MAX_LEN);
	w->argv = calloc(SEND_ROWS, sizeof(*w->argv));
	if (!w->lines || !w->argv)
		return perr_set(e, "out of memory");
	if (connect_cached(w, opt->rrdcached, e) < 0 ||
	    writer_remote_open(w, e) < 0 || writer_write_meta(w, e) < 0)
		return -1;
	mfd = setdir_openat(w->dfd, w->dir, LOGSET_MARKERS,
			    O_WRONLY | O_CREAT | O_EXCL, 0644, e);
	if (mfd < 0)
		return -1;
	close(mfd);
	w->grower.dfd = w->dfd;
	w->grower.dir = w->dir;
	w->grower.layout = w->layout;
	w->grower.cached = w->cached[0] ? w->cached : NULL;
	w->grower.conn = w->conn;
	return journal_create(w->dfd, w->dir, w->meta.interval,
			      (double)w->meta.start, &w->journal, e);
}

int logset_create(const struct logset_options *opt,
		  struct logset_writer **out, struct perr *e)
{
	const char *parent = opt->parent && *opt->parent ? opt->parent : ".";
	char abs[PATH_MAX];
	struct logset_writer *w;
	int made;

	*out = NULL;
	if (check_options(opt, e) < 0)
		return -1;
	if (util_mkdirs(parent, 0755) < 0 || !realpath(parent, abs))
		return perr_set(e, "unable to create log set under '%s': %s",
				parent, strerror(errno));
	w = calloc(1, sizeof(*w));
	if (!w)
		return perr_set(e, "out of memory");
	w->dfd = -1;
	w->lockfd = -1;
	w->grower.fd = -1;
	made = make_set(w, abs, opt->name, e) == 0;
	if (!made || take_lock(w, e) < 0 || start_set(w, opt, e) < 0) {
		struct perr re;

		/* a set made here and not started whole (a full disk: its
		 * .lock or perflog.meta could not be written) is removed,
		 * not left to hold a start that failed (what cannot be
		 * removed stays: e says why the start failed) */
		if (made)
			setdir_remove(w->dir, &re);
		mirror_discard(w->mirror);
		if (w->cached[0])
			rrdc_disconnect();
		if (w->lockfd >= 0)
			close(w->lockfd);
		if (w->dfd >= 0)
			close(w->dfd);
		free(w->lines);
		free(w->argv);
		free(w);
		return -1;
	}
	*out = w;
	return 0;
}

/* ---- samples ---- */

static const struct instance_values *find_values(const struct sample *s,
						 struct wfile *f)
{
	if (!s)
		return NULL;
	if (f->hint < s->n && s->inst[f->hint].object == f->obj &&
	    !strcmp(s->inst[f->hint].instance, f->instance))
		return &s->inst[f->hint];
	for (size_t i = 0; i < s->n; i++)
		if (s->inst[i].object == f->obj &&
		    !strcmp(s->inst[i].instance, f->instance)) {
			f->hint = i;
			return &s->inst[i];
		}
	return NULL;
}

/* f's values of the sample (NAN unknown; outside the data source's bounds
 * unknown too, as librrd would store them) over (from, t]. A new file's
 * first values cover its row from the start, as librrd's first update of
 * a file always did: the collector relies on it (a watched tree's first
 * sample is its zeros up to the watch request, collector_int.h). */
static void hold(struct wfile *f, double from, double t,
		 const struct instance_values *iv, double *v)
{
	if (f->fresh) {
		from = (double)f->born;
		f->fresh = 0;
	}

	for (size_t i = 0; i < f->n; i++) {
		const struct counter_def *d = catalog_counter_at(f->obj,
								 f->idx[i]);

		v[i] = iv ? iv->v[f->idx[i]] : NAN;
		if (v[i] < d->min || v[i] > d->max)
			v[i] = NAN;
		if (!isnan(v[i]))
			f->last_known = t;
	}
	rows_add(&f->rows, from, t, v);
}

static int check_time(const struct logset_writer *w, double t,
		      struct perr *e)
{
	char t1[40], t2[40];

	/* librrd keeps milliseconds: closer updates would be the same time */
	if (t < w->last + 0.001)
		return perr_set(e, "sample time %s is not after the last one written (%s)",
				util_iso8601(t1, sizeof(t1), (time_t)t,
					     (int)(fmod(t, 1) * 1000)),
				util_iso8601(t2, sizeof(t2), (time_t)w->last,
					     (int)(fmod(w->last, 1) * 1000)));
	if (t <= (double)w->meta.start)
		return perr_set(e, "sample time %s is not after the log set's start (%s)",
				util_iso8601(t1, sizeof(t1), (time_t)t, -1),
				util_iso8601(t2, sizeof(t2), w->meta.start, -1));
	return 0;
}

/* The end of the rows every file has written: the journal keeps the
 * samples after it. A file's held rows start one step before the first
 * one's end (a held unknown row may stand for more: those rows are
 * unknown in the file and in the replay alike); a file that holds
 * nothing but an unknown row has written all it will. */
static double written_through(const struct logset_writer *w)
{
	double step = (double)w->meta.interval, base = floor(w->last / step) * step;

	for (size_t i = 0; i < w->nfiles; i++) {
		const struct rows *r = &w->files[i].rows;
		double f = floor(r->at / step) * step;

		if (r->nheld > 1 || (r->nheld == 1 && !r->tail_unknown))
			f = r->held_t[0] - step;
		if (f < base)
			base = f;
	}
	return base;
}

/* The sample's values into the files' rows and, first, the journal:
 * -1 with e set when the journal could not be written (the rows still
 * go in). */
static int hold_all(struct logset_writer *w, double from, double t,
		    const struct sample *s, struct perr *e)
{
	double local[CATALOG_MAX_PER_OBJECT], *v = NULL;
	size_t off = 0;

	for (size_t i = journal_files(w->journal); i < w->nfiles; i++) {
		struct wfile *f = &w->files[i];

		if (journal_announce(w->journal, f->name, f->n,
				     (double)f->born, f->fresh) < 0)
			return perr_set(e, "out of memory");
	}
	v = journal_sample_begin(w->journal, from, t);
	for (size_t i = 0; i < w->nfiles; i++) {
		struct wfile *f = &w->files[i];

		hold(f, from, t, find_values(s, f), v ? v + off : local);
		off += f->n;
	}
	if (!v)
		return perr_set(e, "out of memory");
	return journal_sample_end(w->journal, e);
}

/* The cost clock's time since *lap to part, the clock restarted. */
static void charge(struct logset_writer *w, enum logset_cost_part part,
		   double *lap)
{
	double now = util_cost_clock();

	w->cost[part] += now - *lap;
	*lap = now;
}

int logset_write_span(struct logset_writer *w, double from, double t,
		      const struct sample *s, struct perr *e)
{
	struct perr pe;
	int rc = 0;
	double lap;

	if (check_time(w, t, e) < 0)
		return -1;
	lap = util_cost_clock();
	w->lock_until = rrdlock_deadline(RRDLOCK_SAMPLE_WAIT);
	writer_jobs(w, t);
	if (w->meta_dirty && writer_write_meta(w, e) < 0)
		rc = -1;	/* the rows still go in */
	charge(w, LC_RRD, &lap);
	/* Each file is written every batch samples, in groups of
	 * WRITE_GROUP files: group g in the samples where g == nsamples (mod
	 * batch). The groups spread the writes over the samples (at 1000
	 * files, one burst would take longer than the interval); within a
	 * group librrd's updates follow one another with its code and the
	 * kernel's paths warm: an update a second apart from the last costs
	 * about three times one right after it (docs/PERFORMANCE.md: the
	 * default set's 17 files in one sample instead of one or two a
	 * sample cut the collector's CPU by a fifth). */
	if (hold_all(w, from, t, s, &pe) < 0) {
		perr_set(e, "%s", pe.msg);
		rc = -1;
	}
	charge(w, LC_JOURNAL, &lap);
	for (size_t i = 0; i < w->nfiles; i++) {
		struct wfile *f = &w->files[i];

		if ((f->rows.nheld >= w->batch ||
		     (i / WRITE_GROUP) % w->batch == w->nsamples % w->batch) &&
		    writer_send(w, f, rc ? NULL : e) < 0)
			rc = -1;
	}
	charge(w, LC_RRD, &lap);
	w->nsamples++;
	w->last = t;
	if (journal_cut(w->journal, written_through(w), rc ? NULL : e) < 0)
		rc = -1;
	charge(w, LC_CUT, &lap);
	/* over TCP, the sample's changes to the set's other files (the
	 * journal's, at least) go to the daemon's host */
	if (w->mirror && writer_remote_mirror(w, rc ? NULL : e) < 0)
		rc = -1;
	/* a problem that lasts (a file that cannot be created or grown,
	 * rrdcached away) is reported at every sample until it is over, so
	 * the collector complains once and hears of the recovery once */
	if (rc == 0 && w->nfailing)
		rc = perr_set(e, "%s", w->failure.msg);
	return rc;
}

const char *logset_cost_name(enum logset_cost_part part)
{
	static const char *const name[LC_COUNT] = {
		[LC_JOURNAL] = "journal", [LC_RRD] = "rrd", [LC_CUT] = "cut",
	};

	return part < LC_COUNT ? name[part] : "?";
}

void logset_cost(const struct logset_writer *w, double sec[LC_COUNT])
{
	for (int i = 0; i < LC_COUNT; i++)
		sec[i] = w ? w->cost[i] : 0;
}

size_t logset_failing(const struct logset_writer *w, struct perr *e)
{
	if (w->nfailing)
		perr_set(e, "%s", w->failure.msg);
	return w->nfailing;
}

int logset_write_sample(struct logset_writer *w, double t,
			const struct sample *s, struct perr *e)
{
	double from = w->last > 0 ? w->last : (double)w->meta.start;

	return logset_write_span(w, from, t, s, e);
}

unsigned long logset_rows_lost(const struct logset_writer *w)
{
	unsigned long n = 0;

	for (size_t i = 0; i < w->nfiles; i++)
		n += w->files[i].rows.dropped;
	return n;
}

int logset_flush(struct logset_writer *w, struct perr *e)
{
	int rc = 0;
	double lap = util_cost_clock();

	writer_jobs_wait(w);
	/* at the close nothing else waits on the writer: a reader's lock
	 * is waited out as long as a reading command would wait */
	w->lock_until = rrdlock_deadline(w->closing ? RRDLOCK_READ_WAIT :
					 RRDLOCK_SAMPLE_WAIT);
	if (w->meta_dirty && writer_write_meta(w, e) < 0)
		rc = -1;
	for (size_t i = 0; i < w->nfiles; i++)
		if (writer_send(w, &w->files[i], rc ? NULL : e) < 0)
			rc = -1;
	charge(w, LC_RRD, &lap);
	return rc;
}

/* rrdcached, at close: every file on disk; rows a file still holds (the
 * daemon is gone, or refused them) are written directly, better than
 * lost. A failed flush fails the close only if rows could not be kept. */
static int close_cached(struct logset_writer *w, int rc, struct perr *e)
{
	struct perr pe;
	int flushed = writer_cached_flush(w, &pe) == 0, kept = 1;

	w->cached[0] = '\0';
	for (size_t i = 0; i < w->nfiles; i++) {
		struct wfile *f = &w->files[i];

		if (f->state != WF_READY || !f->rows.nheld)
			continue;
		f->stale = 1;
		if (writer_send(w, f, NULL) < 0)
			kept = 0;
	}
	rrdc_disconnect();
	if (!flushed && !kept && rc == 0)
		rc = perr_set(e, "%s", pe.msg);
	return rc;
}

static void free_writer(struct logset_writer *w)
{
	size_t held = 0;

	/* the journal goes when the files hold every row */
	for (size_t i = 0; i < w->nfiles; i++)
		held += w->files[i].rows.nheld > 1 ||
			(w->files[i].rows.nheld && !w->files[i].rows.tail_unknown);
	journal_close(w->journal, held == 0);
	logset_meta_free(&w->meta);
	for (size_t i = 0; i < w->nfiles; i++)
		rows_free(&w->files[i].rows);
	if (w->dfd >= 0)
		close(w->dfd);
	free(w->files);
	free(w->lines);
	free(w->argv);
	free(w);
}

int logset_close_writer(struct logset_writer *w, double stop, struct perr *e)
{
	struct mirror *m;
	int rc = 0;
	time_t step, end;

	if (!w)
		return 0;
	/* a file that could not grow gets its rows anyway: its oldest
	 * rows are lost rather than its newest */
	w->closing = 1;
	if (!w->cached[0] && logset_flush(w, e) < 0)
		rc = -1;
	if (w->cached[0]) {
		struct perr pe;

		logset_flush(w, &pe);	/* what fails is kept for below */
		rc = close_cached(w, rc, e);
	}
	/* the last row written: rows end on multiples of the step, and one
	 * still open at the last sample is not in the archive */
	if (stop <= 0 || stop > w->last)
		stop = w->last;
	step = (time_t)w->meta.interval;
	end = ((time_t)floor(stop) / step) * step;
	if (end < w->meta.start)
		end = w->meta.start;
	w->meta.stop = end;
	if (writer_write_meta(w, rc ? NULL : e) < 0)
		rc = -1;
	if (w->lockfd >= 0) {
		/* no pid left behind: the set is closed */
		if (ftruncate(w->lockfd, 0) < 0 && rc == 0)
			rc = perr_set(e, "unable to clear '%s/.lock': %s",
				      w->dir, strerror(errno));
		close(w->lockfd);
	}
	/* the set's last state to the daemon's host, its journal gone */
	m = w->mirror;
	free_writer(w);
	if (m && mirror_poll(m, rc ? NULL : e) < 0)
		rc = -1;
	mirror_close(m);
	return rc;
}
