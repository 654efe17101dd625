/*
 * treefiles.h - a watched tree's files beside a log set's markers
 * (waits-LABEL.tsv, the edges-LABEL.tsv and waits-LABEL.rows.tsv beside
 * it, written by the collector), each read with one bound and parsed by its module's one
 * parser (waits/waitrates.h, waits/waitedges.h, waits/waitrows.h), for the report's wait
 * states and stages and for export's session charts alike.
 */
#ifndef PERFLOG_TREEFILES_H
#define PERFLOG_TREEFILES_H

#include <stddef.h>

#include "../common/util.h"
#include "../waits/waitstates.h"

/* The largest such file read: a tree of 100,000 threads' rows is some
 * 10 MB. */
#define TREEFILES_MAX (64u << 20)

/* The waits file name (as its marker names it) in dir into t (emptied
 * first; *bad the lines skipped, bad may be NULL): the threads read, 0
 * or -1 when none could be (waitrates_parse), or -2 with e when the
 * file cannot be read. */
long treefiles_waits(const char *dir, const char *name,
		     struct waits_totals *t, size_t *bad, struct perr *e);

/* The edges file beside the waits file name: its rows into *rows
 * (malloc'ed, NULL when none), their count, or -1 when there is none (an
 * old set) or it cannot be read. Lines it skipped, not the format's, are
 * said in unread ("'FILE' line L: ..."; "" when none; may be NULL): a
 * set written before names were made one field (issue 50 item 5: a
 * command named with a tab added a field, and the report dropped its
 * row in silence). */
long treefiles_edges(const char *dir, const char *name,
		     struct waitedge_row **rows, struct perr *unread);

/* The rows file beside the waits file name (waits-LABEL.rows.tsv,
 * waits/waitrows.h) into f: its lines read; -1 when there is none (a
 * set of before them, or a tree cut by a full disk) or it cannot be
 * read; -2 with e ("FILE:LINE: WHY") when a line is not the format's
 * (f then empty: a reader falls back to the totals). */
long treefiles_rows(const char *dir, const char *name,
		    struct waitrows_file *f, struct perr *e);

#endif
