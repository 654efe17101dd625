/*
 * mark.h - `perflog mark` beyond one line: a session whose begin asks the
 * collector to watch a tree (--watch SPEC), and the remote side of
 * `perflog run --server` (--remote).
 *
 * The remote protocol (`perflog mark --remote [-d DIR]`, run over ssh by
 * run/run_remote.c): one request line on stdin, one reply line on stdout,
 * fields escaped as in markers.tsv (logs/markers.h), and so are an
 * error's MESSAGE and a warning's TEXT (a path may hold a backslash):
 *   hello        "perflog-mark 1 host=HOST logset=DIR": the collector is
 *                found now (-d DIR: the one logging to or under DIR; else
 *                the only one running, else an error naming them), or
 *                "error MESSAGE" and the command exits 1
 *   ping         "pong SECONDS.UUUUUU": that collector's clock ("clock",
 *                control.h), read at once: the client times the round
 *                trip around it
 *   mark KIND<TAB>SESSION<TAB>TEXT[<TAB>KEY=VALUE...]
 *                the marker, stamped by the collector; a begin's
 *                "watch=SPEC" field asks it to watch SPEC first (as
 *                --watch): "ok", "ok warning=TEXT" (SPEC matched nothing:
 *                the marker is written all the same) or "error MESSAGE";
 *                a line of up to 16 MiB (a client.cmd of thousands of
 *                paths), fields that do not fit a marker's line going to
 *                a figures file beside it (logs/markers.h)
 *   quit, or the end of stdin: exit 0
 */
#ifndef PERFLOG_MARK_H
#define PERFLOG_MARK_H

#include <stddef.h>

#include "control.h"

/* The collector a marker of session goes to: -d DIR's, else
 * $PERFLOG_LOGSET's, else (a session named) the one collector whose set
 * has that session open, else the only one running (control_find). Two
 * with it open: an error naming both sets; an end of a session no
 * collector has open: an error listing the open ones (mark_find.c). */
int mark_find(const char *dir, enum marker_kind kind, const char *session,
	      struct collector_info *out, struct perr *e);

/* Write a marker to col; with kind MARK_BEGIN and watch non-NULL, first
 * ask the collector to watch SPEC as Process(session) (the begin marker
 * then says watch=SPEC, accounting=..., watch.procs=N, or watch.error=);
 * with MARK_END, a tree watched for session gets its wait-state totals in
 * the end marker and is unwatched after it. A SPEC that matches nothing
 * is not an error: warn (size wn) says so, else warn[0] = '\0'. when:
 * the marker's time (wall clock seconds, control_mark_to), 0 for now.
 * Returns 0, or -1 with e set when the marker was not written. */
int mark_session(const struct collector_info *col, double when,
		 enum marker_kind kind,
		 const char *session, const char *text, const char *watch,
		 const char *const *extra, size_t nextra, char *warn,
		 size_t wn, struct perr *e);

/* The --remote loop on stdin/stdout (above). Returns the exit status. */
int mark_remote(const char *dir);

#endif
