/*
 * markers.h - markers.tsv, the log set's record of what happened when.
 *
 * One marker a line, appended and flushed as it happens, fields separated by
 * a tab:
 *   TIME  KIND  SESSION  TEXT  [KEY=VALUE ...]
 * TIME is ISO 8601 UTC with milliseconds (2026-11-30T04:50:12.345Z); KIND
 * is begin, end or point; SESSION names the session a begin/end pair
 * delimits (may be empty for a point). TEXT and every extra field are
 * escaped so a marker is always one line: backslash as "\\", tab "\t",
 * newline "\n", carriage return "\r", other bytes below 0x20 and 0x7f as
 * "\xHH". The optional KEY=VALUE fields after TEXT carry what `perflog run`
 * adds to an end marker (cmd=, status=, duration=, and the backup client's
 * figures as client.*=); readers that know only the first four ignore them.
 *
 * Lines are in the order the markers came, which is not always the order
 * of their times: perflog run's end marker bears the moment its command
 * ended, and `perflog mark --at` closes a session after the fact. Readers
 * take each marker's own time, and pair sessions in file order (below),
 * so an end appended late still closes the session it was meant for.
 *
 * A session is the span from a begin to the next end with the same session
 * name. A begin with no end (collector killed, still running) is an open
 * session that ends at the log's last sample. A second begin of a name that
 * is already open is ignored (the first stays open until an end: sessions of
 * one name never overlap); an end with no open session of its name is
 * ignored.
 */
#ifndef PERFLOG_MARKERS_H
#define PERFLOG_MARKERS_H

#include <stddef.h>
#include <time.h>

#include "../common/util.h"

enum marker_kind { MARK_POINT, MARK_BEGIN, MARK_END };

struct marker_extra {
	char *key, *value;	/* unescaped */
};

struct marker {
	time_t t;
	int ms;
	enum marker_kind kind;
	char *session;		/* unescaped, "" when none */
	char *text;		/* unescaped */
	struct marker_extra *extra;
	size_t nextra;
	int line;		/* line number in markers.tsv */
};

struct marker_list {
	struct marker *m;
	size_t n, cap;
	size_t bad_lines;	/* lines skipped as malformed */
	struct perr first_bad;	/* "markers.tsv:LINE: why" of the first */
};

struct session {
	const char *name;
	const struct marker *begin;
	const struct marker *end;	/* NULL when still open */
};

/* Append one marker to DIR/markers.tsv at time now (wall clock, ms): one
 * write() of the whole line under flock, then fdatasync. extra holds
 * "key=value" strings (escaped here), may be NULL. */
int markers_append(const char *dir, enum marker_kind kind,
		   const char *session, const char *text,
		   const char *const *extra, size_t nextra, struct perr *e);
/* The same, stamped with when (wall clock seconds) instead of now: the
 * collector stamps with its own clock, the one its rows carry, and an end
 * marker of perflog run with the moment its command ended. */
int markers_append_at(const char *dir, double when, enum marker_kind kind,
		      const char *session, const char *text,
		      const char *const *extra, size_t nextra, struct perr *e);

/* Append one line markers_format made, as markers_append_at does: what
 * the collector holds while markers.tsv cannot be written (a full disk)
 * and writes when space returns. */
int markers_append_line(const char *dir, const char *line, struct perr *e);

/* Format one marker line (with its newline) into a malloc'ed string. */
char *markers_format(double when, enum marker_kind kind, const char *session,
		     const char *text, const char *const *extra,
		     size_t nextra);

/* Load DIR/markers.tsv (a missing file is an empty list), with the
 * figures files its markers name (see below). Malformed lines, and
 * figures files that cannot be read, are skipped and counted, never
 * fatal. Returns -1 only when markers.tsv exists but cannot be read. */
int markers_load(const char *dir, struct marker_list *out, struct perr *e);
/* Parse markers text (for tests and fuzzing); name is used in messages. */
int markers_parse(const char *text, const char *name, struct marker_list *out);
/* The same, the markers added after those out has (-1 out of memory, out
 * freed): the collector's held markers after the file's. */
int markers_parse_more(const char *text, const char *name,
		       struct marker_list *out);
void markers_free(struct marker_list *l);

/* Pair begins and ends into sessions, in order of their begin. Returns the
 * number of sessions (*out malloc'ed, pointing into l) or -1. */
long markers_sessions(const struct marker_list *l, struct session **out);

/* The sessions open in l (a begin and no end yet): the begin of the one
 * named name (NULL when it is not open), and when names is not NULL the
 * names of all of them, ", "-separated and cut to n bytes ("" when none
 * is open): what `perflog mark --end` of a session not open lists. */
const struct marker *markers_open(const struct marker_list *l,
				  const char *name, char *names, size_t n);

/*
 * A marker at a given time, checked against the set (markers_check.c).
 * markers.tsv is appended in the order markers come, and a marker stamped
 * earlier (perflog run's end, `perflog mark --at`) pairs in that order
 * (above): so an end must find its session open and come after its
 * begin, a begin after that name's last end, and a time given must lie
 * in the set's span. The collector checks what it is asked to write
 * (collector/sessions.c), and `mark --at` of a set no collector writes
 * any more checks the same before it appends (markers_append_late).
 */
struct mark_span {
	double start;		/* the set's start */
	double until;		/* now + 1 s (live), or the set's end */
	int live;		/* past until: "in the future", not "after" */
};

/* when (wall clock seconds, to the ms) within s: 0, or -1 with e set
 * ("TIME is before the log set's start (START)", "TIME is in the future",
 * "TIME is after the log set's end (END)"). */
int markers_check_time(const struct mark_span *s, double when,
		       struct perr *e);
/* A marker of kind for session name at when, against the markers l of
 * the set dir: an end of a session not open there (the open ones listed),
 * an end before its session's begin or a begin before that name's last
 * end (the two only when at: a time given, not now) are refused. 0, or
 * -1 with e set. */
int markers_check_session(const struct marker_list *l, const char *dir,
			  enum marker_kind kind, const char *name,
			  double when, int at, struct perr *e);
/* Both for the set dir: its markers.tsv, then held (the lines the
 * collector holds on a full disk, markhold.h; NULL when none), are the
 * markers that came. A point marker, or a begin stamped now, needs the
 * time alone (not even that when !at). 0, or -1 with e set. */
int markers_check_mark(const char *dir, const char *held,
		       const struct mark_span *s, enum marker_kind kind,
		       const char *name, double when, int at, struct perr *e);
/* `perflog mark --at` of a set no collector writes any more (stopped,
 * killed): the set's .lock taken as a collector takes it (held: 1, and
 * nothing written: a collector writes it, or another late mark), the
 * marker checked against the set's span (start to its stop, or to its
 * last row when it was killed) and its markers, and appended as the
 * collector appends it (markers_append_at). 0 written, 1 live, -1 with
 * e set (not a log set, refused, not written). */
int markers_append_late(const char *dir, double when, enum marker_kind kind,
			const char *session, const char *text,
			struct perr *e);

/*
 * Figures beside a marker. What a marker carries is one line of
 * markers.tsv and one request to the collector (64 KiB at most): a backup
 * client's figures (200 summaries of dsmc) or a long command line do not
 * fit, and nothing may be dropped. So the writer (perflog run) puts every
 * extra field in a file of the log set, "figures-LABEL.tsv" (-2, -3 ...
 * when taken), one escaped KEY=VALUE field a line after a "# perflog
 * figures 1" line, and the marker keeps the short fields and names the
 * file: "figures=figures-LABEL.tsv". markers_load reads the file back into
 * the marker's extras (the file's value wins for a key in both), so every
 * reader sees one marker with every field (marker_get), however it was
 * stored. Files are created with O_EXCL and read with O_NOFOLLOW, relative
 * to the log set's directory, so a planted symlink is neither written
 * through nor read.
 */
#define MARKERS_FIGURES_KEY "figures"

/* Files beside a marker (figures-LABEL.tsv, waits-LABEL.tsv ...): a new
 * file "PREFIX-LABEL.EXT" (PREFIX-LABEL-2.EXT ... when taken) created in
 * the log set dir with O_EXCL and O_NOFOLLOW, mode 0644; its name goes to
 * name. Returns the open descriptor, or -1 with e set. */
int markers_create_beside(const char *dir, const char *prefix,
			  const char *label, const char *ext, char *name,
			  size_t name_n, struct perr *e);
/* Remove such a file (one that could not be written whole). 0 or -1. */
int markers_remove_beside(const char *dir, const char *name);
/* Read such a file back: name must be "PREFIX-SOMETHING.EXT" with no
 * '/', a regular file (not followed if a symlink) of at most max bytes.
 * Returns its text, NUL-terminated and malloc'ed (*len its length when
 * len is not NULL), or NULL with e set. */
char *markers_read_beside(const char *dir, const char *name,
			  const char *prefix, size_t max, size_t *len,
			  struct perr *e);

/* What fits a marker's line: its extra fields escaped in 8 KiB, at most
 * 128 of them, none over 1 KiB. Past that every field goes to a figures
 * file and the line keeps the short ones (markers_inline_field, at most
 * MARKERS_INLINE_FIELDS - 2 of them, room for figures= and its error). */
#define MARKERS_INLINE_LINE 8192
#define MARKERS_INLINE_FIELDS 128
#define MARKERS_INLINE_VALUE 1024
/* 1 when extra[0..n) fits one marker line, else 0. */
int markers_fit_line(const char *const *extra, size_t n);
/* 1 when "KEY=VALUE" stays in the line beside a figures file: a short
 * value, and not one of the per-summary client.N.* figures. */
int markers_inline_field(const char *kv);

/* Write extra[0..n) to a new figures file of DIR for session label; its
 * name (to put in the marker as figures=NAME) goes to name. 0, or -1. */
int markers_write_figures(const char *dir, const char *label,
			  const char *const *extra, size_t n, char *name,
			  size_t name_n, struct perr *e);

/* Merge into m the figures file it names, if it names one (markers_load
 * does it for each marker). 0, or -1 with e set when the file cannot be
 * read or is not a figures file (m is then left as it was). */
int markers_read_figures(const char *dir, struct marker *m, struct perr *e);

/* Value of an extra field of a marker, or NULL. */
const char *marker_get(const struct marker *m, const char *key);

/* An extra field as a number: NAN when m is NULL, the field is absent or
 * empty, or it is not wholly a finite number. */
double marker_num(const struct marker *m, const char *key);

/* Escape / unescape one field (malloc'ed results). Any byte string
 * round-trips (bytes >= 0x80 pass through untouched, so invalid UTF-8 does
 * too). markers_unescape returns NULL on a malformed escape (lone trailing
 * backslash, unknown letter, bad or NUL \xHH) or out of memory. */
char *markers_escape(const char *s);
char *markers_unescape(const char *s);

const char *marker_kind_name(enum marker_kind k);

#endif
