/*
 * report_night.h - a night: the sessions of a set that overlap (many
 * clients of one server, issue 47), on one wait graph (verdict.h
 * verdict_night): each session's root solved apart, the sessions ranked
 * by duration with their verdict's first word, and the resource they
 * held each other back on:
 *
 *   Sessions: a night of 4, ranked by duration; 2 or more ran at once 17.2 s
 *     rank session       from      to        duration   bytes   rate  limit    on
 *        1 w3            06:40:33  06:40:50    17.2 s   ...           disk     disk vda on vm
 *        4 burn          06:40:34  06:40:38     4.1 s   ...           CPU      CPU quota /burn on vm (its own)
 *   Shared: disk on vm: device vda; w3 3.4 s, w2 3.0 s, w1 1.4 s, while they ran together 3.6 s
 *     burn: held back by its own CPU quota /burn on vm, 3.3 s of 4.1 s; not counted in the shared limit
 *
 * report_night_of computes, the three printers (text, JSON, HTML) print
 * and decide nothing.
 */
#ifndef PERFLOG_REPORT_NIGHT_H
#define PERFLOG_REPORT_NIGHT_H

#include <stdio.h>

#include "report.h"
#include "../verdict/verdict.h"

struct report_night {
	struct vgraph g;
	struct vsolution s;
	struct vnight nt;	/* nt.n == n: by session of the night */
	size_t n;
	size_t *sess;		/* [n]: the session's index in the report */
	struct vnight_in *in;	/* [n]: spans, seconds from t0 */
	size_t *rank;		/* [n]: the night's sessions, longest first */
	double t0;		/* the first begin, Unix seconds */
	double seconds;		/* first begin to last end */
};

/* r->night from r's sessions (after report_build, and again after
 * report_add_hosts: the servers' trees join it); NULL when no two
 * sessions overlap. */
void report_night_of(struct report *r);
void report_night_free(struct report *r);

/* The ranked table and the Shared line, in place of the "Sessions:"
 * table (the same columns, ranked, with the span and the night's word):
 * 1 when printed, 0 when the set is no night. */
int report_night_print(FILE *f, const struct report *r);
/* "night": {...} in the report's JSON object, or null. */
struct json;
void report_night_json(struct json *j, const struct report *r);
/* The night's ranking table, Shared line and lanes on the HTML page
 * (report_html_night.c); nothing when the set is no night. */
void report_night_html(FILE *f, const struct report *r);

/* The row of the night's k-th ranked session: its session, its word (the
 * night's verdict, else the session's own), the resource it names
 * ("" none), whether that was its own. */
struct report_night_row {
	const struct report_session *s;
	size_t index;		/* in the night */
	const char *word;
	char on[160];
	int own;
};
void report_night_row(const struct report *r, size_t k,
		      struct report_night_row *row);
/* The Shared line's text after "Shared: " into buf ("disk on vm: device
 * vda; w3 3.4 s, ..."), and the own resources' lines through each(). */
void report_night_shared(const struct report *r, char *buf, size_t n);

#endif
