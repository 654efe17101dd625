/*
 * report_summary.h - the sessions at a glance: what the text report
 * opens with and the HTML page's sessions table (issue 49): a session's
 * length, the bytes its client moved and their rate, the verdict's first
 * word and the process and host it names.
 */
#ifndef PERFLOG_REPORT_SUMMARY_H
#define PERFLOG_REPORT_SUMMARY_H

#include <stdio.h>

#include "report.h"

struct report_summary {
	char name[128];
	double seconds;
	double bytes, rate;	/* the client's figures, NAN unknown */
	const char *bytes_what;	/* "sent" (or stored), "read", "read
				 * (logged)": its tree's, "" */
	const char *word;	/* the verdict's first word */
	char who[96], host[64];	/* whom it names, "" none */
	int open;
};

/* Session s's row (ls: its log set, for the bytes its process tree
 * read when the client printed no figures). */
void report_summary_of(struct logset *ls, const struct report_session *s,
		       struct report_summary *out);
/* A row's duration, bytes and rate as the tables print them ("-"
 * unknown). */
struct report_summary_cells {
	char duration[32], bytes[32], rate[32];
};
void report_summary_cells(const struct report_summary *m,
			  struct report_summary_cells *c);
/* "12.3 s" under a minute, else H:MM:SS. */
void report_summary_duration(char *buf, size_t n, double seconds);
/* The "Sessions:" table of the text report. */
void report_summary_print(FILE *f, const struct report *r);

#endif
