/*
 * run_marks.h - the markers `perflog run` writes around its command: the
 * begin marker (the command line, how the tree is counted) and the end
 * marker with the command's figures (run/cmd_run.c lists them).
 *
 * Nothing is dropped and the end marker is always written:
 *   - a marker whose fields would make a long line (over 8 KiB, over 128
 *     fields, or a field over 1 KiB: a long command line, 200 dsmc
 *     summaries) keeps its short fields and names a figures file holding
 *     all of them (logs/markers.h, "Figures beside a marker"), which every
 *     reader merges back;
 *   - when the collector cannot take the marker (it is gone, it refused),
 *     the marker is appended to the log set's markers.tsv directly (the
 *     same flock'ed append the collector uses).
 */
#ifndef PERFLOG_RUN_MARKS_H
#define PERFLOG_RUN_MARKS_H

#include <stddef.h>

#include "../logs/markers.h"
#include "../collector/control.h"

struct run_extras {
	char **v;		/* "key=value", malloc'ed */
	size_t n, cap;
};

void run_extra_add(struct run_extras *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void run_extras_free(struct run_extras *x);

/* The command line as a shell would read it back (single quotes where
 * needed). malloc'ed, NULL when out of memory. */
char *run_cmdline(char **argv);

/* The session label of a command (its base name when src is a path),
 * safe as a file name part and an instance name: [A-Za-z0-9._-], others
 * '_'; "cmd" when nothing is left. */
void run_label(char *out, size_t n, const char *src);

/* Text for a marker: s, cut to 1 KiB (with " [...]") when longer. */
char *run_marker_text(const char *s);

/* Write a marker for the log set col->logset (see above). 0, or -1 with e
 * set when it could be written nowhere. */
int run_mark(const struct collector_info *col, enum marker_kind kind,
	     const char *session, const char *text,
	     const struct run_extras *x, struct perr *e);
/* The same stamped when (wall clock seconds; 0: now): the end marker
 * bears the moment the command ended, however long closing took. */
int run_mark_at(const struct collector_info *col, double when,
		enum marker_kind kind, const char *session, const char *text,
		const struct run_extras *x, struct perr *e);

#endif
