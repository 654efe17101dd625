/*
 * logset_write.c - the collector's side of a log set: create the
 * directory and its metadata, close (the samples: writer_sample.c).
 *
 *   logset_create        a fresh set directory (setdir.h), .lock (flock +
 *                        pid), perflog.meta, markers.tsv
 *   logset_add_instance  (writer_add.c) a file to be: its create job goes
 *                        to the worker (writer_grow.c) and its rows are
 *                        held until the file exists; its counters enter
 *                        perflog.meta then (logset_add_idle_instance: a
 *                        watched tree's, its first zeros from its birth)
 *   logset_write_span    (writer_sample.c) the samples: the journal
 *                        first, each file's rows every batch
 *   logset_close_writer  the worker's last jobs, every held row, stop
 *                        time, perflog.meta, rrdcached flush, unlock
 *
 * The metadata is rewritten only when files were created since the last
 * sample (always after they exist, so a reader never sees a counter whose
 * file is missing).
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
