/*
 * align.h - putting one log set on another's clock (DESIGN "Where users
 * outgrow one machine"): the shift to add to a set X's times so they read
 * on the reference set C's clock (the backup client's), and where it came
 * from. One rule for every reader (report --with, export --with, view).
 *
 * What the markers record (perflog run --server, issue 20): on both sides
 * the begin and end markers of a session carry the other end as
 * `peer=HOST` with `offset=SECONDS` (the peer's clock minus this set's
 * own, signed) and `rtt=SECONDS`; a client marking several servers adds
 * `peer.2=`, `offset.2=` ...; a server that could not be marked has
 * `peer.N.error=REASON` and no offset. The client's markers name the
 * server as ssh was given it (user@host, an alias); the server's name the
 * client by its own host name (the client's perflog.meta host).
 *
 * The rule, in order:
 *   1. X's own markers whose peer is C's host: their offset is C - X,
 *      the shift as it stands;
 *   2. C's markers whose peer (a user@ prefix dropped) is X's host: their
 *      offset is X - C, negated;
 *   3. else 0, "no recorded offset".
 * A peer matches a host when equal, or equal up to the first '.' of
 * either (tsmsrv and tsmsrv.example.com). Several markers: the median of
 * their offsets (the begin and end of every session measure it anew; a
 * mark whose round trip was disturbed lands at one end, the median stays).
 * `--shift SET=SECONDS` overrides the rule for that set (align_manual).
 */
#ifndef PERFLOG_ALIGN_H
#define PERFLOG_ALIGN_H

#include <stddef.h>

#include "logset.h"
#include "markers.h"

enum align_source {
	ALIGN_NONE,		/* no recorded offset: 0 */
	ALIGN_OWN,		/* X's own markers (rule 1) */
	ALIGN_REF,		/* the reference's markers (rule 2) */
	ALIGN_MANUAL,		/* --shift */
	ALIGN_SELF		/* X is the reference */
};

struct align_shift {
	double seconds;		/* add to X's times: C's clock */
	enum align_source source;
	size_t n;		/* offsets the median was taken of */
	double rtt;		/* median round trip of those markers, NAN */
	char what[160];		/* "-30.0 s from tsmsrv's markers", ... */
};

/* The shift of X (meta xm, markers xml) onto the reference C (cm, cml) by
 * the rule above. Either marker list may be NULL (none). */
void align_shift_of(const struct logset_meta *cm, const struct marker_list *cml,
		    const struct logset_meta *xm, const struct marker_list *xml,
		    struct align_shift *out);

/* A manual shift (--shift) into out, "what" saying so. */
void align_manual(double seconds, struct align_shift *out);

/* 1 when a marker's peer (as recorded: maybe user@host) names host. */
int align_peer_is(const char *peer, const char *host);

/* "DIR=SECONDS" (--shift): seconds may be negative or fractional, at most
 * ten years either way. *dir is malloc'ed. 0, or -1 when malformed. */
int align_parse_shift(const char *arg, char **dir, double *secs);

/* A --shift argument against the sets it may name (dirs[0..n)): 0 with
 * *idx the set and *secs the seconds; -1 when malformed, -2 when it names
 * none of them. */
int align_shift_arg(const char *arg, char *const *dirs, size_t n,
		    size_t *idx, double *secs);

/* The same log set named two ways ("logs/x" and "logs/x/")? */
int align_same_dir(const char *a, const char *b);

/* The reference itself: 0, ALIGN_SELF. */
void align_self(struct align_shift *out);

/* A short note of where a shift came from, for headers and titles:
 * "its markers", "CLIENT's markers", "--shift", "no recorded offset",
 * "reference". */
const char *align_source_note(const struct align_shift *a);

#endif
