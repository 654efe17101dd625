/*
 * markers_check.c - whether a marker may go to a set at a given time, and
 * `perflog mark --at` of a set no collector writes any more (markers.h).
 *
 * A session left open when its collector stopped (a second collector was
 * in the way of its end, issue 50) could be closed by nothing: mark went
 * only through a running collector. The set's .lock says no collector
 * writes it (settle.c takes it the same way), so the end is checked as the
 * collector checks one and appended with the collector's own append.
 */
#define _GNU_SOURCE
#include "markers.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "logset.h"
#include "logset_int.h"
#include "setdir.h"

/* half a millisecond: a time is compared as markers.tsv keeps it */
#define MS_HALF 0.0005
/* a late mark waits this long for another's .lock before calling the set
 * live (a collector holds it for good) */
#define LATE_LOCK_WAIT 2.0

static double marker_time(const struct marker *m)
{
	return (double)m->t + m->ms / 1000.0;
}

/* when as markers.tsv writes it, to the millisecond */
static char *iso_of(char *buf, size_t n, double when)
{
	long long ms = llround(when * 1000.0);

	return util_iso8601(buf, n, (time_t)(ms / 1000), (int)(ms % 1000));
}

int markers_check_time(const struct mark_span *s, double when,
		       struct perr *e)
{
	char t[40], t2[40];

	if (when > s->until + (s->live ? 0 : MS_HALF))
		return s->live ? perr_set(e, "%s is in the future",
					  iso_of(t, sizeof(t), when))
			       : perr_set(e, "%s is after the log set's end (%s)",
					  iso_of(t, sizeof(t), when),
					  iso_of(t2, sizeof(t2), s->until));
	if (when < s->start - MS_HALF)
		return perr_set(e, "%s is before the log set's start (%s)",
				iso_of(t, sizeof(t), when),
				iso_of(t2, sizeof(t2), s->start));
	return 0;
}

int markers_check_session(const struct marker_list *l, const char *dir,
			  enum marker_kind kind, const char *name,
			  double when, int at, struct perr *e)
{
	const struct marker *begin;
	struct session *s = NULL;
	char open[512], t[40], t2[40];
	long ns;
	int rc = 0;

	if (kind == MARK_POINT)
		return 0;
	begin = markers_open(l, name, open, sizeof(open));
	if (kind == MARK_END && !begin)
		return perr_set(e, "no session '%s' is open in %s (%s%s)",
				name, dir, open[0] ? "open: " : "none is open",
				open);
	if (kind == MARK_END && at && when < marker_time(begin) - MS_HALF)
		return perr_set(e, "the end of '%s' at %s is before its begin (%s)",
				name, iso_of(t, sizeof(t), when),
				iso_of(t2, sizeof(t2), marker_time(begin)));
	ns = kind == MARK_BEGIN && at && !begin ? markers_sessions(l, &s) : 0;
	for (long i = ns; i-- > 0;)	/* that name's last end */
		if (s[i].end && !strcmp(s[i].name, name)) {
			if (when < marker_time(s[i].end) - MS_HALF)
				rc = perr_set(e, "the begin of '%s' at %s is before its last end (%s)",
					      name, iso_of(t, sizeof(t), when),
					      iso_of(t2, sizeof(t2),
						     marker_time(s[i].end)));
			break;
		}
	free(s);
	return rc;
}

int markers_check_mark(const char *dir, const char *held,
		       const struct mark_span *s, enum marker_kind kind,
		       const char *name, double when, int at, struct perr *e)
{
	struct marker_list l;
	int rc;

	if (at && markers_check_time(s, when, e) < 0)
		return -1;
	if (kind == MARK_POINT || (kind == MARK_BEGIN && !at))
		return 0;
	if (markers_load(dir, &l, e) < 0)
		return -1;
	if (held && markers_parse_more(held, "held markers", &l) < 0)
		return perr_set(e, "out of memory");
	rc = markers_check_session(&l, dir, kind, name, when, at, e);
	markers_free(&l);
	return rc;
}

/* The set's .lock, held: a descriptor, -2 when another holds it past
 * LATE_LOCK_WAIT, -1 with e set when it cannot be opened. */
static int lock_set(struct logset *ls, struct perr *e)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	double until = util_monotonic() + LATE_LOCK_WAIT;
	int fd = setdir_openat(ls->dfd, ls->dir, ".lock",
			       O_RDWR, 0, NULL);

	if (fd < 0)	/* another user's set, a read-only medium */
		return perr_set(e, "unable to write '%s/.lock': %s",
				ls->dir, strerror(errno));
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK || util_monotonic() > until) {
			close(fd);
			return -2;
		}
		nanosleep(&nap, NULL);
	}
	return fd;
}

int markers_append_late(const char *dir, double when, enum marker_kind kind,
			const char *session, const char *text,
			struct perr *e)
{
	struct logset *ls;
	const struct logset_meta *m;
	struct mark_span span = { 0, 0, 0 };
	int fd, rc;

	if (logset_open(dir, &ls, e) < 0)
		return -1;
	fd = lock_set(ls, e);
	if (fd < 0) {
		logset_close(ls);
		return fd == -2 ? 1 : -1;
	}
	m = logset_meta(ls);
	span.start = (double)m->start;
	/* a killed set ends at its last row (markers.h: an open session
	 * ends there too) */
	span.until = (double)(m->stop ? m->stop : logset_last(ls));
	if (span.until < span.start)
		span.until = span.start;
	rc = markers_check_mark(logset_dir(ls), NULL, &span, kind, session,
				when, 1, e);
	if (rc == 0)
		rc = markers_append_at(logset_dir(ls), when, kind, session,
				       text, NULL, 0, e);
	close(fd);	/* the flock goes with it */
	logset_close(ls);
	return rc < 0 ? -1 : 0;
}
