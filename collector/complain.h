/*
 * complain.h - say a repeated problem once, then again only when it
 * changes (after collectd's utils_complain.h, STYLE 10). A collector that
 * samples every second must not write "disk full" every second for hours;
 * the user needs the first occurrence, a reminder now and then, and the
 * recovery.
 */
#ifndef PERFLOG_COMPLAIN_H
#define PERFLOG_COMPLAIN_H

struct complaint {
	int active;		/* the problem is going on */
	unsigned long count;	/* occurrences since it started */
	double next;		/* monotonic time of the next reminder */
	double backoff;		/* seconds to the next reminder */
};

/* Also send every report to syslog (LOG_DAEMON, "perflog"): a daemon's
 * stderr is its log set's collector.log, which a full disk silences. */
void complain_syslog(int on);

/* Report msg (on stderr, prefixed with the time) if c is not active or
 * its back-off has passed; the back-off doubles up to a day. */
void complain(struct complaint *c, double now, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The problem is over: report it once (with the count) if it was active. */
void complain_release(struct complaint *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
