/*
 * report_html_night.c - the night on the HTML page (report_night.h,
 * issue 47 items 2 and 3): the ranked sessions as a table, the Shared
 * line, and the night on one axis: a lane a session, its bar over its
 * begin..end in its verdict word's colour (verdict.h verdict_kind_colour,
 * the one table), so the reader sees which ran together.
 */
#include "report_html_int.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "report_night.h"
#include "report_summary.h"

static void esc(FILE *f, const char *s)
{
	html_text(f, s, strlen(s));
}

static void hms(const struct report_night *nt, double x, char *buf, size_t n)
{
	time_t t = (time_t)floor(nt->t0 + x);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, n, "%H:%M:%S", &tm);
}

static void lanes(FILE *f, const struct report *r)
{
	const struct report_night *nt = r->night;
	char a[16], b[16];
	double len = nt->seconds > 0 ? nt->seconds : 1;

	hms(nt, 0, a, sizeof a);
	hms(nt, nt->seconds, b, sizeof b);
	fputs("<div class=\"lanes\">\n", f);
	for (size_t k = 0; k < nt->n; k++) {
		struct report_night_row row;
		report_night_row(r, k, &row);
		const struct vnight_in *in = &nt->in[row.index];
		double left = 100.0 * in->begin / len;
		double width = 100.0 * (in->end - in->begin) / len;
		fputs("<div class=\"lane\"><span class=\"lname\">", f);
		esc(f, row.s->name);
		fprintf(f, "</span><span class=\"ltrack\"><span class=\"bar\" "
			"title=\"%.1f s, %s\" style=\"left:%.2f%%;width:%.2f%%;background:%s\">",
			row.s->seconds, row.word, left, width < 0.5 ? 0.5 : width,
			verdict_word_colour(row.word));
		esc(f, row.word);
		fputs("</span></span></div>\n", f);
	}
	fprintf(f, "<div class=\"lane\"><span class=\"lname\"></span><span class=\"laxis\">"
		"<span>%s</span><span>%s</span></span></div>\n</div>\n", a, b);
}

void report_night_html(FILE *f, const struct report *r)
{
	const struct report_night *nt = r->night;
	char line[1024];

	if (!nt)
		return;
	fprintf(f, "<h2>The night: %zu sessions, ranked by duration</h2>\n"
		"<table class=\"night\">\n<tr><th>rank</th><th>session</th>"
		"<th>duration</th><th>bytes</th><th>rate</th><th>limit</th>"
		"<th>on</th></tr>\n", nt->n);
	for (size_t k = 0; k < nt->n; k++) {
		struct report_night_row row;
		struct report_summary m;
		struct report_summary_cells c;
		report_night_row(r, k, &row);
		report_summary_of(r->ls, row.s, &m);
		report_summary_cells(&m, &c);
		fprintf(f, "<tr><td>%zu</td><td class=\"l\"><a href=\"#s%zu\">",
			k + 1, (size_t)(row.s - r->s) + 1);
		esc(f, row.s->name);
		fprintf(f, "</a></td><td>%s</td><td>%s</td><td>%s</td><td class=\"l\">",
			c.duration, c.bytes, c.rate);
		html_word(f, row.word);
		fputs("</td><td class=\"l\">", f);
		esc(f, row.on[0] ? row.on : "-");
		if (row.own)
			fputs(" (its own)", f);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<p class=\"shared\"><b>Shared:</b> ", f);
	report_night_shared(r, line, sizeof line);
	esc(f, line);
	fputs("</p>\n", f);
	/* the sessions held back by their own resource, as the text says */
	for (size_t k = 0; k < nt->n; k++) {
		struct report_night_row row;
		report_night_row(r, k, &row);
		if (!row.own)
			continue;
		fputs("<p class=\"own\">", f);
		esc(f, row.s->name);
		fputs(": held back by its own ", f);
		esc(f, row.on);
		fprintf(f, ", %.1f s of %.1f s; not counted in the shared limit</p>\n",
			nt->nt.v[row.index].sec, row.s->seconds);
	}
	lanes(f, r);
}
