/*
 * report_html_int.h - what report_html.c (the page and its charts) and
 * report_html_parts.c (the run, the sessions table, a session's verdict,
 * stages and figures) share.
 */
#ifndef PERFLOG_REPORT_HTML_INT_H
#define PERFLOG_REPORT_HTML_INT_H

#include <stdio.h>

#include "report.h"

/* n bytes of s, escaped for HTML text and attribute values. */
void html_text(FILE *f, const char *s, size_t n);
/* The run (host, span, interval, sessions) and the sessions table, each
 * row linking to its section (#sN): the page's opening. */
void html_run(FILE *f, const struct report *r);
/* A verdict's first word in its colour (verdict.h verdict_word_colour). */
void html_word(FILE *f, const char *word);
/* A session's verdict: its first word in its colour, the rest of the
 * line, the hint below. */
void html_verdict(FILE *f, const struct report_verdict *v);
/* The stages of its data path as a table (nothing under 2 stages); the
 * host column when the report has more than one. */
void html_stages(FILE *f, const struct report_stages *ss, int hosts);
/* The session's part of the text report, wrapped to the page. */
void html_figures(FILE *f, const struct report *r,
		  const struct report_session *s);
/* OUTDIR/report.txt: the whole text report beside the page. */
int html_report_txt(const struct report *r, const char *outdir,
		    struct perr *e);

#endif
