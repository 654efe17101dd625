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

#include "../common/strbuf.h"
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

/* The lines held on a full disk (markhold.h), one text: markers that
 * came, not in markers.tsv yet. NULL when none (or out of memory: the
 * file's markers are checked alone). */
static char *held_text(const struct markhold *h)
{
	struct strbuf b = STRBUF_INIT;

	for (size_t i = 0; i < h->n; i++)
		strbuf_puts(&b, h->lines[i]);
	return h->n ? strbuf_detach(&b, NULL) : NULL;
}

int sessions_check_mark(struct collector *c, enum marker_kind kind,
			const char *name, double when, int at, struct perr *e)
{
	struct mark_span span = {
		.start = (double)logset_writer_meta(c->w)->start,
		.until = collector_clock() + 1.0,
		.live = 1,
	};
	char *held = held_text(&c->held);
	int rc = markers_check_mark(logset_writer_dir(c->w), held, &span,
				    kind, name, when, at, e);

	free(held);
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
