/*
 * sessions.c - the sessions begun through this collector and not yet
 * ended (collector_int.h): so a label is never handed to a second run
 * while a session of that name is open, and so the collector can close
 * the session of a run that went away with an end marker of its own.
 * The lowest of the collector's files: serve.c and watch.c use it, it
 * calls neither.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "../logs/markers.h"
#include "collector_int.h"

int sessions_is_open(const struct collector *c, const char *name)
{
	for (size_t i = 0; i < c->nopen; i++)
		if (!strcmp(c->open[i], name))
			return 1;
	return 0;
}

void sessions_begin(struct collector *c, const char *name)
{
	char **nv, *s;

	if (sessions_is_open(c, name))
		return;
	nv = realloc(c->open, (c->nopen + 1) * sizeof(*nv));
	s = strdup(name);
	if (!nv || !s) {
		free(s);
		if (nv)
			c->open = nv;
		return;
	}
	c->open = nv;
	c->open[c->nopen++] = s;
}

void sessions_end(struct collector *c, const char *name)
{
	for (size_t i = 0; i < c->nopen; i++)
		if (!strcmp(c->open[i], name)) {
			free(c->open[i]);
			c->open[i] = c->open[--c->nopen];
			return;
		}
}

/* Is session name open in markers.tsv? Asked of the file, not of our
 * memory: perflog run appends its markers itself when the collector is
 * slow to answer. */
static int open_in_file(const char *dir, const char *name)
{
	struct marker_list l;
	struct perr pe;
	int open;

	if (markers_load(dir, &l, &pe) < 0)
		return 0;
	open = markers_open(&l, name, NULL, 0) != NULL;
	markers_free(&l);
	return open;
}

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

int sessions_check_mark(struct collector *c, enum marker_kind kind,
			const char *name, double when, int at, struct perr *e)
{
	const char *dir = logset_writer_dir(c->w);
	double start = (double)logset_writer_meta(c->w)->start;
	const struct marker *begin;
	struct marker_list l;
	struct session *s = NULL;
	char open[512], t[40], t2[40];
	long ns;
	int rc = 0;

	/* half a millisecond: a time is compared as markers.tsv keeps it */
	if (at && when > collector_clock() + 1.0)
		return perr_set(e, "%s is in the future",
				iso_of(t, sizeof(t), when));
	if (at && when < start - 0.0005)
		return perr_set(e, "%s is before the log set's start (%s)",
				iso_of(t, sizeof(t), when),
				iso_of(t2, sizeof(t2), start));
	if (kind == MARK_POINT || (kind == MARK_BEGIN && !at))
		return 0;
	if (markers_load(dir, &l, e) < 0)
		return -1;
	begin = markers_open(&l, name, open, sizeof(open));
	if (kind == MARK_END && !begin)
		rc = perr_set(e, "no session '%s' is open in %s (%s%s)",
			      name, dir, open[0] ? "open: " : "none is open",
			      open);
	else if (kind == MARK_END && at && when < marker_time(begin) - 0.0005)
		rc = perr_set(e, "the end of '%s' at %s is before its begin (%s)",
			      name, iso_of(t, sizeof(t), when),
			      iso_of(t2, sizeof(t2), marker_time(begin)));
	ns = kind == MARK_BEGIN && !begin ? markers_sessions(&l, &s) : 0;
	for (long i = ns; i-- > 0;)	/* that name's last end */
		if (s[i].end && !strcmp(s[i].name, name)) {
			if (when < marker_time(s[i].end) - 0.0005)
				rc = perr_set(e, "the begin of '%s' at %s is before its last end (%s)",
					      name, iso_of(t, sizeof(t), when),
					      iso_of(t2, sizeof(t2),
						     marker_time(s[i].end)));
			break;
		}
	free(s);
	markers_free(&l);
	return rc;
}

void sessions_end_marker(struct collector *c, const char *name,
		       const char *text)
{
	const char *dir = logset_writer_dir(c->w);
	struct perr pe;
	char *line;

	/* a begin still held is not in the file yet: it is open too */
	if (!open_in_file(dir, name) && !c->held.n) {
		sessions_end(c, name);
		return;
	}
	line = markers_format(collector_clock(), MARK_END, name, text, NULL, 0);
	if (!line || markhold_append(&c->held, dir, line, &pe) != 0)
		complain(&c->c_marks, util_monotonic(), "markers held (%zu): %s",
			 c->held.n, line ? pe.msg : "out of memory");
	free(line);
	sessions_end(c, name);
}
