/*
 * markhold.h - markers the collector could not write (markers.tsv on a
 * full disk), held as rows are and written, in order, when space returns
 * (DESIGN.md: "markers that could not be written are held and written when
 * space returns").
 *
 * serve.c holds a marker whose append failed, and every marker after it
 * while any is held (markers.tsv keeps its order); the loop tries the held
 * ones at every sample and at the stop (collector.c). `perflog mark` is
 * answered "ok held=WHY" and says the marker is held (control.h).
 */
#ifndef PERFLOG_MARKHOLD_H
#define PERFLOG_MARKHOLD_H

#include <stddef.h>

#include "../common/util.h"

/* markers held: beyond it, the oldest are dropped and counted */
#define MARKHOLD_MAX 10000

struct markhold {
	char **lines;		/* markers_format lines, oldest first */
	size_t n, cap;
	unsigned long dropped;
};

/* Append line (formatted, with its newline) to dir's markers.tsv, after
 * the held ones; held when it cannot be written. Returns 0 written, 1
 * held (why in e), -1 out of memory (e set). */
int markhold_append(struct markhold *h, const char *dir, const char *line,
		    struct perr *e);

/* Write the held lines while they go in. 0 when none is left held, -1
 * with e set when some still are. */
int markhold_flush(struct markhold *h, const char *dir, struct perr *e);

void markhold_free(struct markhold *h);

#endif
