/*
 * util.h - small helpers shared by every module: error strings, time
 * formatting, bounded string copies.
 *
 * Modules return 0 / -1 and leave a one-line message in a caller's buffer
 * (struct perr); only the command layer prints it and exits (STYLE 9).
 */
#ifndef PERFLOG_UTIL_H
#define PERFLOG_UTIL_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define PERFLOG_VERSION "0.1.0"

/* A one-line error message, filled by the failing module. */
struct perr {
	char msg[512];
};

/* Format into e->msg (printf style); always returns -1 so callers can
 * write `return perr_set(e, "unable to open '%s'", path);`. e may be NULL. */
int perr_set(struct perr *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Copy src into dst of size n, always NUL-terminated; returns -1 when src
 * did not fit (dst then holds the truncated prefix), 0 otherwise. */
int util_strlcpy(char *dst, const char *src, size_t n);

/* Seconds on CLOCK_MONOTONIC, the clock every rate and deadline uses. */
double util_monotonic(void);
/* The calling thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID). */
double util_thread_cpu(void);
/* The clock of the collector's cost table (collector/cost.c): seconds on
 * CLOCK_MONOTONIC, or the calling thread's CPU time when
 * $PERFLOG_COST_CLOCK is "cpu" (read once; a system call a reading
 * instead of the vDSO's, so a bench asks for it apart: bench/overhead.sh
 * COST_CLOCK=cpu). */
double util_cost_clock(void);

/* Wall clock in seconds (CLOCK_REALTIME), only for stamping. */
double util_walltime(void);

/* ISO 8601 UTC: "2026-11-30T04:50:12Z" (ms < 0) or with milliseconds
 * "2026-11-30T04:50:12.345Z". buf must hold at least 32 bytes. */
char *util_iso8601(char *buf, size_t n, time_t t, int ms);

/* Parse ISO 8601 UTC as written by util_iso8601 (milliseconds optional,
 * trailing 'Z' required). Stores seconds and, when ms is non-NULL,
 * milliseconds. Returns 0, or -1 on any malformed input. */
int util_parse_iso8601(const char *s, time_t *t, int *ms);

/* Parse a whole decimal number in [lo, hi] with nothing after it (a size,
 * a count, a shift in seconds). Returns 0, or -1 on garbage, an empty
 * string or a number out of range. */
int util_parse_long(const char *s, long lo, long hi, long *out);

/* Parse a duration such as "30", "30s", "5m", "2h", "2d", "1w" into
 * seconds. Returns 0, or -1 on garbage, overflow or negative input. */
int util_parse_duration(const char *s, unsigned long *seconds);

/* A step of whole seconds in its largest whole unit: "1 h", "5 min",
 * "10 s", or compact ("1h", "5m", "10s", the form util_parse_duration
 * reads) for a terminal header. */
char *util_fmt_step(char *buf, size_t n, unsigned long step, int compact);

/* Create dir and its missing parents with the given mode. 0 or -1 (errno). */
int util_mkdirs(const char *dir, unsigned mode);

/* util_mkdirs that also says the topmost directory it created in made
 * (n bytes; "" when dir was there), so that what a failed start made can
 * be taken back (util_rmdirs_made). */
int util_mkdirs_made(const char *dir, unsigned mode, char *made, size_t n);

/* Remove dir and its parents up to made (util_mkdirs_made's), each only
 * if empty: stops at the first that holds something or is not there. */
void util_rmdirs_made(const char *dir, const char *made);

/* Write all n bytes to fd, again after a signal or a short write. 0, or
 * -1 with errno set. */
int util_write_full(int fd, const void *buf, size_t n);

/* Write data to path atomically: a temporary file in the same directory,
 * fsync, rename. Returns 0 or -1 with e set. */
int util_write_atomic(const char *path, const char *data, size_t len,
		      struct perr *e);

/* Read a whole (small) file into a malloc'ed NUL-terminated buffer.
 * Returns NULL on error (errno set). *len gets the size when non-NULL. */
char *util_read_file(const char *path, size_t *len);

/* Whether output to a terminal may be coloured: not when $NO_COLOR is set
 * and not empty (no-color.org), nor on a dumb terminal (util_term_dumb).
 * Colour is the viewer's only; PNG charts are images and keep theirs. */
int util_color_ok(void);

/* $TERM is unset, empty or "dumb": a terminal that cannot move the cursor
 * or take escape sequences (Emacs shell buffers, some CI logs), so no
 * full-screen viewer and no progress line rewritten in place. */
int util_term_dumb(void);

/* Read a small file (a /proc or /sys entry) into buf of size n, NUL
 * terminated, without allocating: the hot path of samplers that read many
 * such files. Returns the bytes read (a file longer than n - 1 is cut),
 * or -1 with errno set. */
long util_read_small(const char *path, char *buf, size_t n);

/* Parse a size such as "4096", "64K", "1M", "2G" (binary multiples,
 * case-insensitive, an optional trailing "B" or "iB") into bytes. Returns
 * 0, or -1 on garbage, overflow or a negative number. */
int util_parse_size(const char *s, unsigned long long *bytes);

/* pread the start of a small file (a /proc or /sys file kept open) into
 * buf of size n, NUL-terminated; retries on EINTR. Returns the bytes
 * read, or -1 with errno (ESRCH: the task behind a /proc file exited). */
ssize_t util_pread_text(int fd, char *buf, size_t n);

/* The same for a file opened now, relative to directory dirfd (openat,
 * pread, close; errno as the read left it). */
ssize_t util_read_text_at(int dirfd, const char *rel, char *buf, size_t n);

/* Make *pp (an array of elements of size bytes, *cap of them) hold at
 * least need elements, doubling from 16. Returns 0, or -1 when out of
 * memory or the size overflows (*pp and *cap unchanged). The one way
 * arrays grow: `if (util_grow(&a, &cap, n + 1, sizeof(*a)) < 0) ...;
 * a[n++] = x;`. */
int util_grow(void *pp, size_t *cap, size_t need, size_t size);

/* qsort/bsearch order of two pid_t (ascending). */
int util_cmp_pid(const void *a, const void *b);

/* A comma-separated list ("eth0,lo"): whether item is one of its names;
 * item appended when it is not (and fits: else list stays as it was),
 * 1 when appended. */
int util_list_has(const char *list, const char *item);
int util_list_add(char *list, size_t n, const char *item);

/* Every command parses its options with util_getopt (optind = 1, opterr =
 * 0, "+" in optstring when arguments after the first operand belong to
 * something else, as run's command does) and hands whatever it does not
 * know to util_bad_option, so a bad option is always the same one line. */

/* getopt_long, but a long option only by its whole name: getopt_long
 * takes a beginning of one ("--htm" for --html), and `report --htm x`
 * then said "no log set given". Such a beginning comes back as '?', for
 * util_bad_option to name. The options are kept for util_bad_option's
 * "did you mean". */
int util_getopt(int argc, char **argv, const char *shortopts,
		const struct option *longopts, int *longindex);

/* util_read_file for a reader that reports: NULL with e set to "unable to
 * read 'PATH': REASON" (errno kept, so a caller may still treat ENOENT
 * apart). */
char *util_load_file(const char *path, size_t *len, struct perr *e);

/* The one-line message for a util_getopt failure: call from the '?' / ':'
 * case with the command name; prints "perflog CMD: unknown option '--X'"
 * (with "did you mean '--Y'?" for a near miss of one of its options) or
 * "perflog CMD: option '--Y' needs a value", and a pointer to --help;
 * returns 2 (the usage status). */
int util_bad_option(const char *cmd, char **argv, int optind_now,
		    int optopt_now);

#endif
