/*
 * client.h - the backup clients perflog understands, one table of them,
 * and the figures each one printed at the end of a run, normalised so two
 * runs compare whatever the client.
 *
 * Every client has one file in client/ with one parse function of the
 * dsmc parser's shape (summary.h):
 *
 *   long NAME_parse(const char *text, size_t len, struct client_list *out);
 *
 * It finds every end-of-run summary of its client in text[0..len) (which
 * need not be NUL-terminated and may hold anything: the parsers are
 * fuzzed), appends each to out and returns how many it found, or -1 only
 * when out of memory. A summary keeps each figure as the client printed it
 * and as a number, plus the normalised figures (enum client_norm).
 *
 * Recognition (`perflog run` without --client): client_detect() tries the
 * client named by the command first (client_by_command: restic, borg,
 * rsync, tar, bconsole, dsmc ... after wrappers such as env, nice, sudo),
 * then every client in table order; the first that finds a summary wins.
 * Each parser asks for its client's own landmarks ("Added to the
 * repository:", "This archive:", "Total bytes sent:", "FD Bytes
 * Written:", ...), so output of another client is never taken for its own.
 *
 * ---- Keys in an end marker, added to those of summary.h ----
 *   client=NAME              the client whose summary was found (dsmc,
 *                            restic, borg, rsync, tar, bacula, bareos,
 *                            netbackup)
 *   client.read=BYTES        normalised figures of the last summary, plain
 *   client.sent=BYTES        numbers in base units, present only when the
 *   client.files=N           client printed them or they follow from what
 *   client.duration=SECONDS  it printed (client.derived names those
 *   client.rate=BYTES/S      computed: "rate,duration"); see README.md for
 *   client.errors=N          what each client's figures map to
 *   client.derived=K1,K2     the normalised keys computed, not printed
 *   client.KEY=PRINTED, client.KEY.num=NUMBER   the client's own figures
 *                            (KEY from its field table below), as dsmc's
 *   client.summaries=N, client.I.KEY=PRINTED    as for dsmc
 * The normalised keys come first, so they are kept whatever else is.
 */
#ifndef PERFLOG_CLIENT_H
#define PERFLOG_CLIENT_H

#include <stddef.h>
#include <stdio.h>

#include "../logs/markers.h"
#include "summary.h"

#define CLIENT_MAX_FIGURES 32
#define CLIENT_PRINTED_MAX 48

/* Units of a client's own figures (the number kept is in base units). */
enum client_unit {
	CLU_COUNT,	/* files, errors, chunks */
	CLU_BYTES,
	CLU_SECONDS,
	CLU_BYTES_SEC,
	CLU_RATIO,	/* 2.9 for "2.9:1" */
	CLU_PERCENT,
	CLU_TEXT	/* kept as printed; the number is 0 */
};

/* The normalised figures, the same for every client. */
enum client_norm {
	CLN_READ,	/* bytes the client read (logical size processed) */
	CLN_SENT,	/* bytes it sent or stored (after dedup/compression) */
	CLN_FILES,	/* files processed */
	CLN_DURATION,	/* seconds, the client's own */
	CLN_RATE,	/* bytes/second, the client's own or read / duration */
	CLN_ERRORS,	/* errors and warnings about files */
	CLN_COUNT
};

/* "read", "sent", ... (the marker key after "client.") */
extern const char *const client_norm_keys[CLN_COUNT];

struct client_field_def {
	const char *key;	/* marker key after "client." */
	const char *label;	/* as the client prints it, for the report */
	enum client_unit unit;
};

struct client_figure {
	const struct client_field_def *def;
	char printed[CLIENT_PRINTED_MAX + 1];	/* longer ones end in "..." */
	double value;
};

struct client_summary {
	struct client_figure f[CLIENT_MAX_FIGURES];
	size_t nf;
	double norm[CLN_COUNT];	/* NAN when unknown */
	unsigned derived;	/* bit k: norm[k] computed, not printed */
};

struct client_def;

struct client_list {
	const struct client_def *def;	/* set by client_detect */
	struct client_summary *s;
	size_t n, cap;
	struct summary_list dsmc;	/* dsmc's own figures (summary.h) */
};

struct client_def {
	const char *name;	/* "restic"; --client NAME */
	const char *commands;	/* command names, space separated */
	const char *output;	/* how its output is recognised (--help) */
	/* its own figures, ending with { NULL }; NULL for dsmc, whose are
	 * summary.h's */
	const struct client_field_def *fields;
	long (*parse)(const char *text, size_t len, struct client_list *out);
};

/* The known clients, in detection order. */
extern const struct client_def client_table[];
extern const size_t client_count;

/* The client named NAME, or NULL. */
const struct client_def *client_find(const char *name);

/* The client a command line names (its first word that is not a wrapper
 * or an option of one: env VAR=x, nice -n 5, ionice -c3, sudo, time,
 * nohup, chrt, taskset), by base name; NULL when none. */
const struct client_def *client_by_command(char *const argv[]);

/* Find summaries in text: with forced, only that client's; else hint's
 * first (may be NULL), then every client's in table order, the first that
 * finds any wins. out->def is the client found. Returns the number of
 * summaries (0: none), -1 when out of memory. */
long client_detect(const char *text, size_t len, const struct client_def *forced,
		   const struct client_def *hint, struct client_list *out);

void client_list_free(struct client_list *l);

/* Which output lines the parsers need (perflog run keeps only those while
 * the command runs): lines holding ':' or '{' or '}', and rsync's "sent N
 * bytes ... bytes/sec" line. */
int client_line_wanted(const char *line, size_t n);

/* The marker extras for a list (see "Keys" above): a malloc'ed array of
 * malloc'ed "key=value" strings, *n of them; NULL with *n = 0 when the list
 * is empty or on out-of-memory. Free with client_extras_free. */
char **client_extras(const struct client_list *l, size_t *n);
void client_extras_free(char **x, size_t n);

/* ---- reading an end marker back (the report) ---- */

/* The normalised figures an end marker carries: out[k] NAN when absent;
 * *derived gets the bits of client.derived. Returns the client's name
 * (pointing into the marker) or NULL when the marker has no client. */
const char *client_norm_of(const struct marker *end, double out[CLN_COUNT],
			   unsigned *derived);

/* Print the client's own figures an end marker carries, "    Label:
 * value" one a line as it printed them (dsmc's through
 * summary_print_session). Returns the lines printed. */
int client_print_own(FILE *out, const struct marker *end);

/* ---- for the parsers (client.c) ---- */

/* A fresh summary: no figure, every normalised figure unknown. */
void client_summary_init(struct client_summary *s);
/* Add a figure (printed text s[0..n), trimmed; longer than
 * CLIENT_PRINTED_MAX ends in "..."). Ignored past CLIENT_MAX_FIGURES or
 * when def already has one. value NAN: printed, but no number could be
 * read from it for sure (a localised number the parser cannot decide):
 * its key's .num says "unreadable", never a wrong number. */
void client_add(struct client_summary *s, const struct client_field_def *def,
		const char *p, size_t n, double value);
/* The figure of def in s, or NULL. */
const struct client_figure *client_get(const struct client_summary *s,
				       const struct client_field_def *def);
/* Rate from read (else sent) and duration, when the client printed none;
 * marks what it computed as derived. */
void client_derive(struct client_summary *s);
/* Append s to l; -1 when out of memory. */
int client_push(struct client_list *l, const struct client_summary *s);

/* Iterate over lines: the next line from *pos (without its '\n' or
 * "\r\n"), 0 at the end. */
int client_next_line(const char *text, size_t len, size_t *pos,
		     const char **line, size_t *n);
/* Does line start (after blanks) with label, then blanks and ':'? The
 * value after the colon (blanks skipped) in *v, *vn. */
int client_label(const char *line, size_t n, const char *label,
		 const char **v, size_t *vn);
/* A number with ',' thousands groups and an optional '.' fraction at
 * p[0..n) (up to 40 characters); its length, 0 when none. */
size_t client_number(const char *p, size_t n, double *v);
/* The same with dec as the decimal point ('.' or ','), the other of the
 * two grouping thousands: "3.002.896" and "0,001" with ',' (rsync in a
 * locale whose decimal point is ','). */
size_t client_number_dec(const char *p, size_t n, char dec, double *v);
/* Bytes with a unit word after the number ("2.920 MiB", "3.05 MB",
 * "34.22 kB", "3.05M", "3.0MiB", "521 B"): binary for KiB/MiB.., decimal
 * for kB/MB.. and rsync's K/M/G (rsync -h is 1000-based). Its length, 0
 * when not a size. */
size_t client_size(const char *p, size_t n, double *v);
size_t client_size_dec(const char *p, size_t n, char dec, double *v);

/* The number after "KEY": in JSON text p[0..n) (the first occurrence of
 * the quoted key followed by ':'): its text in *v, *vn and its value.
 * 0 when absent or not a number. */
int client_json_num(const char *p, size_t n, const char *key,
		    const char **v, size_t *vn, double *value);
/* Where the next occurrence of s is in p[0..n), or NULL. */
const char *client_find_str(const char *p, size_t n, const char *s);

/* ---- the parsers, one file each (see each file for its formats) ---- */
long dsmc_parse(const char *text, size_t len, struct client_list *out);
long restic_parse(const char *text, size_t len, struct client_list *out);
long borg_parse(const char *text, size_t len, struct client_list *out);
long rsync_parse(const char *text, size_t len, struct client_list *out);
long tar_parse(const char *text, size_t len, struct client_list *out);
long bacula_parse(const char *text, size_t len, struct client_list *out);
long bareos_parse(const char *text, size_t len, struct client_list *out);
long netbackup_parse(const char *text, size_t len, struct client_list *out);
/* and their own figures, each table ending with { NULL } */
extern const struct client_field_def restic_fields[], borg_fields[],
	rsync_fields[], tar_fields[], bacula_fields[], netbackup_fields[];

#endif
