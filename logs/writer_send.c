/*
 * writer_send.c - hand a file's held rows to librrd (rrd_updatex_r on the
 * file opened without following symlinks) or to rrdcached (rrdc_update,
 * in requests the client library accepts: RRD_CMD_MAX bytes each).
 *
 * rrdcached can go away (killed, restarted) in the middle of a run. librrd's
 * client then drops the connection and every later update fails with
 * ENOTCONN and no message. So: every send first reconnects when the
 * connection is gone; a failed send keeps the rows; the file is marked
 * stale, and before the next try the rows the daemon (or the file) already
 * has are dropped (rrdc_last / rrd_last_r): what a restarted daemon
 * replayed from its journal, or what a request carried before its answer
 * was lost, is not sent twice. The collector hears one failure and one
 * recovery (logset_write_sample keeps failing while any file does). An
 * answer that says done counts only once librrd's socket is seen still
 * open (cachedconn.h: its client can hand back an older answer when the
 * daemon resets the connection unanswered).
 */
#define _GNU_SOURCE
#include "writer.h"

#include <errno.h>
#include <rrd.h>
#include <rrd_client.h>
#include <stdio.h>
#include <string.h>

#include "rrdlock.h"
#include "setdir.h"

/* The client library's request buffer (rrd_client.c, RRD_CMD_MAX). */
#define CACHED_REQUEST_MAX 4096

static const char *why_or(const char *fallback)
{
	const char *why = rrd_get_error();

	return why && *why ? why : fallback;
}

/* The newest row the file has (local file or the daemon's view). */
static double file_last(struct logset_writer *w, struct wfile *f)
{
	struct setdir_rrd r;
	time_t t;

	rrd_clear_error();
	if (w->cached[0]) {
		t = rrdc_last(f->path);
		return t < 0 || cachedconn_broken(&w->conn) ? -1 : (double)t;
	}
	if (setdir_rrd_open(w->dfd, w->dir, f->name, 0, &r, NULL) < 0)
		return -1;
	do
		t = rrd_last_r(r.path);
	while (t < 0 && rrdlock_again(w->lock_until));
	setdir_rrd_close(&r);
	return (double)t;
}

/* Format up to max held rows; stop before the request would exceed
 * limit bytes (0: no limit). Returns the count. */
static size_t build(struct logset_writer *w, struct wfile *f, size_t max,
		    size_t limit)
{
	size_t k = 0, bytes = 0;

	while (k < f->rows.nheld && k < max) {
		char *line = w->lines + k * LINE_MAX_LEN;
		int len = rows_format(&f->rows, k, line, LINE_MAX_LEN);

		if (len < 0)
			break;
		if (limit && k && bytes + (size_t)len + 1 > limit)
			break;
		bytes += (size_t)len + 1;
		w->argv[k++] = line;
	}
	return k;
}

static int connect_cached(struct logset_writer *w, struct perr *e)
{
	/* over TCP, the daemon's host did not answer (writer_remote.c) */
	if (w->remote && util_monotonic() < w->remote_retry)
		return perr_set(e, "%s", w->remote_why);
	if (rrdc_is_connected(w->cached))
		return 0;
	if (writer_remote_reach(w, e) < 0)
		return -1;
	rrd_clear_error();
	if (rrdc_connect(w->cached) == 0 && rrdc_is_connected(w->cached)) {
		writer_remote_bound(w);
		return 0;
	}
	return perr_set(e, "rrdcached at '%s' is unreachable: %s (rows are held and sent when it is back)",
			w->cached, why_or("connection refused"));
}

static int send_cached(struct logset_writer *w, struct wfile *f,
		       struct perr *e)
{
	size_t limit = CACHED_REQUEST_MAX - strlen(f->path) - 32;

	if (connect_cached(w, e) < 0)
		return -1;
	while (f->rows.nheld) {
		size_t k = build(w, f, SEND_ROWS, limit);

		rrd_clear_error();
		if (k == 0 || rrdc_update(f->path, (int)k, w->argv) != 0 ||
		    cachedconn_broken(&w->conn))
			return perr_set(e, "unable to update '%s' through rrdcached at '%s': %s",
					f->path, w->cached,
					why_or("connection lost"));
		rows_consume(&f->rows, k);
	}
	return 0;
}

/* -1 with e set; -2 when the error is a reader's lock (lock_passing) */
static int send_local(struct logset_writer *w, struct wfile *f,
		      struct perr *e)
{
	struct setdir_rrd r;
	char buf[600];
	int rc;

	if (setdir_rrd_open(w->dfd, w->dir, f->name, 1, &r, e) < 0)
		return -1;
	if (!f->noatime) {	/* once a file (a grown one is new) */
		(void)setdir_noatime(r.fd);
		f->noatime = 1;
	}
	while (f->rows.nheld) {
		size_t k = build(w, f, SEND_ROWS, 0);

		rrd_clear_error();
		/* a reader's lock (rrdlock.h): wait it out, within the
		 * sample's budget; then the rows stay held for the next */
		do
			rc = k ? rrd_updatex_r(r.path, NULL, 0, (int)k,
					       w->argv) : -1;
		while (rc != 0 && rrdlock_again(w->lock_until));
		if (rc != 0) {
			int locked = rrdlock_conflict();

			perr_set(e, "unable to update '%s': %s", f->path,
				 setdir_rrd_why(&r, f->name,
						why_or("no space left?"), buf,
						sizeof(buf)));
			setdir_rrd_close(&r);
			return locked ? -2 : -1;
		}
		rows_consume(&f->rows, k);
	}
	setdir_rrd_close(&r);
	return 0;
}

/* send_local met a reader's lock past the sample's wait: whether to
 * hold the rows in silence (they are tried at the next sample). A
 * reader's lock is held for milliseconds, but on a loaded machine the
 * reader is not scheduled to let go, and a 40 ms hold lasted past the
 * sample's 0.1 s: the collector said "could not lock RRD" and "works
 * again" a second later (t7320 beside the other suites). Said once the
 * lock has lasted RRDLOCK_READ_WAIT, longer than any command that reads
 * waits for one (someone holds it for good: t7320, test_rrdlock), and
 * at the close, which has no next sample. */
static int lock_passing(const struct logset_writer *w, struct wfile *f)
{
	double now = util_monotonic();

	if (w->closing)
		return 0;
	if (!f->locked_at)
		f->locked_at = now;
	return now - f->locked_at < RRDLOCK_READ_WAIT;
}

/* f is too small for the rows it holds: writing them would wrap an
 * archive that is meant to grow (its growth is due or failed, or its
 * instance vanished: writer.h), losing the set's first rows; they wait
 * instead (up to the hold limit). */
static int too_small(const struct logset_writer *w, const struct wfile *f)
{
	double newest = f->rows.held_t[f->rows.nheld - 1];

	return f->span < layout_max_span(&w->layout) &&
	       newest - (double)w->meta.start >= (double)f->span;
}

int writer_send(struct logset_writer *w, struct wfile *f, struct perr *e)
{
	struct perr pe;
	int rc;

	if (f->state != WF_READY || f->rows.nheld == 0)
		return 0;
	if (too_small(w, f)) {
		if (!w->closing)
			return 0;
		/* closing: a trailing unknown gap would only wrap away what
		 * the file logged; known rows go in, the oldest lost rather
		 * than the newest */
		rows_drop_unknown_tail(&f->rows);
		if (f->rows.nheld == 0)
			return 0;
	}
	if (f->stale) {
		double t;

		if (w->cached[0] && connect_cached(w, &pe) < 0) {
			writer_failed(w, f, &f->send_failed, pe.msg);
			return perr_set(e, "%s", pe.msg);
		}
		t = file_last(w, f);
		if (t > 0)
			rows_drop_upto(&f->rows, t);
		f->stale = t < 0;
	}
	rc = w->cached[0] ? send_cached(w, f, &pe) : send_local(w, f, &pe);
	rrd_clear_error();
	if (rc < 0) {
		f->stale = 1;
		if (rc == -2 && lock_passing(w, f))
			return 0;
		writer_failed(w, f, &f->send_failed, pe.msg);
		return perr_set(e, "%s", pe.msg);
	}
	f->locked_at = 0;
	writer_recovered(w, f, &f->send_failed);
	return 0;
}

int writer_cached_flush(struct logset_writer *w, struct perr *e)
{
	int rc = 0;

	if (!w->cached[0])
		return 0;
	if (connect_cached(w, e) < 0)
		return -1;
	for (size_t i = 0; i < w->nfiles; i++) {
		if (w->files[i].state == WF_NEW ||
		    w->files[i].state == WF_CREATED)
			continue;
		rrd_clear_error();
		if ((rrdc_flush(w->files[i].path) != 0 ||
		     cachedconn_broken(&w->conn)) && rc == 0)
			rc = perr_set(e, "unable to flush '%s' through rrdcached at '%s': %s",
				      w->files[i].path, w->cached,
				      why_or("connection lost"));
	}
	rrd_clear_error();
	return rc;
}
