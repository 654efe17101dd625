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
	struct session *s = NULL;
	struct perr pe;
	long n;
	int open = 0;

	if (markers_load(dir, &l, &pe) < 0)
		return 0;
	n = markers_sessions(&l, &s);
	for (long i = 0; i < n; i++)
		if (!strcmp(s[i].name, name))
			open = !s[i].end;	/* the last one of that name */
	free(s);
	markers_free(&l);
	return open;
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
