/*
 * report_html_parts.c - the parts of the HTML page (report_html_int.h):
 * the run and its sessions table, a session's verdict, its stages and
 * its figures. report_html.c puts them together with the charts.
 */
#define _GNU_SOURCE	/* open_memstream */
#include "report_html_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_night.h"
#include "report_summary.h"

void html_text(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		switch (s[i]) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(s[i], f);
		}
	}
}

static void html_str(FILE *f, const char *s)
{
	html_text(f, s, strlen(s));
}

void html_word(FILE *f, const char *word)
{
	fprintf(f, "<span class=\"word\" style=\"background:%s\">",
		verdict_word_colour(word));
	html_str(f, word);
	fputs("</span>", f);
}

void html_run(FILE *f, const struct report *r)
{
	const struct logset_meta *m = logset_meta(r->ls);
	time_t last = logset_last(r->ls);
	char t1[40], t2[40];

	util_iso8601(t1, sizeof(t1), m->start, -1);
	util_iso8601(t2, sizeof(t2), last ? last : m->start, -1);
	fputs("<h1>perflog report</h1>\n<p class=\"run\">Host <b>", f);
	html_str(f, m->host);
	fputs("</b> (", f);
	html_str(f, m->os);
	fprintf(f, "), logged from %s to %s every %u s", t1, t2, m->interval);
	for (size_t k = 0; k < r->nwith; k++) {
		fputs(k ? ", " : "; with the server ", f);
		html_str(f, logset_meta(r->with[k].ls)->host);
	}
	fprintf(f, ". %zu session%s%s.</p>\n", r->n, r->n == 1 ? "" : "s",
		r->s[0].begin_m ? "" : " (no markers: the whole log)");
	/* a night (sessions that overlap): the same table ranked, the limit
	 * they shared and their lanes */
	if (r->night) {
		report_night_html(f, r);
		return;
	}
	fputs("<table class=\"sessions\">\n<tr><th>session</th><th>duration</th>"
	      "<th>bytes</th><th>rate</th><th>limit</th><th>on</th></tr>\n", f);
	for (size_t i = 0; i < r->n; i++) {
		struct report_summary s;
		struct report_summary_cells c;
		report_summary_of(r->ls, &r->s[i], &s);
		report_summary_cells(&s, &c);
		fprintf(f, "<tr><td><a href=\"#s%zu\">", i + 1);
		html_str(f, s.name);
		fprintf(f, "</a>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=\"l\">",
			s.open ? " (open)" : "", c.duration, c.bytes, c.rate);
		html_word(f, s.word);
		fputs("</td><td class=\"l\">", f);
		html_str(f, s.who[0] ? s.who : "-");
		if (s.who[0] && s.host[0] && r->nwith) {
			fputs(" on ", f);
			html_str(f, s.host);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

void html_verdict(FILE *f, const struct report_verdict *v)
{
	const char *word = report_kind_word(v->kind);
	const char *rest = v->line;

	/* "Bottleneck: WORD...": the word in its colour, the rest as is */
	if (!strncmp(rest, "Bottleneck: ", 12))
		rest += 12;
	fputs("<p class=\"verdict\">Bottleneck: ", f);
	html_word(f, word);
	if (!strncmp(rest, word, strlen(word)))
		rest += strlen(word);
	else
		fputs(" ", f);
	html_str(f, rest);
	fputs("</p>\n", f);
	if (v->hint[0]) {
		fputs("<p class=\"hint\">", f);
		html_str(f, v->hint);
		fputs("</p>\n", f);
	}
}

void html_stages(FILE *f, const struct report_stages *ss, int hosts)
{
	static const char *const head[] = { "run", "CPU wait", "disk", "network",
		"other" };
	static const int state[] = { WS_CPU, WS_CPU_WAIT, WS_DISK, WS_NET,
		WS_OTHER };

	if (!ss || ss->n < 2)
		return;
	fputs("<h3>Stages of the data path</h3>\n<table class=\"stages\">\n"
	      "<tr><th>stage</th>", f);
	if (hosts)
		fputs("<th>host</th>", f);
	fputs("<th>busy</th>", f);
	for (size_t k = 0; k < sizeof(head) / sizeof(head[0]); k++)
		fprintf(f, "<th>%s</th>", head[k]);
	fputs("<th>waits on</th></tr>\n", f);
	for (size_t i = 0; i < ss->n; i++) {
		const struct report_stage *st = &ss->st[i];
		fputs("<tr><td>", f);
		html_str(f, st->name);
		fputs("</td>", f);
		if (hosts) {
			fputs("<td class=\"l\">", f);
			html_str(f, ss->hosts[st->side]);
			fputs("</td>", f);
		}
		fprintf(f, "<td>%.0f%%</td>", st->busy);
		for (size_t k = 0; k < sizeof(state) / sizeof(state[0]); k++)
			fprintf(f, "<td>%.0f%%</td>", st->pct[state[k]]);
		fputs("<td class=\"l\">", f);
		html_str(f, st->waits_on);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

void html_figures(FILE *f, const struct report *r,
		  const struct report_session *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return;
	report_print_session(mem, r, s);
	fclose(mem);
	fputs("<details open><summary>Figures (the text report)</summary>\n<pre>", f);
	/* the session's text opens with a blank line and its name */
	const char *t = text;
	while (*t == '\n')
		t++;
	html_text(f, t, len - (size_t)(t - text));
	fputs("</pre></details>\n", f);
	free(text);
}

int html_report_txt(const struct report *r, const char *outdir,
		    struct perr *e)
{
	char path[1200], final[1200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/report.txt.tmp", outdir);
	snprintf(final, sizeof(final), "%s/report.txt", outdir);
	if (!(f = fopen(path, "w")))
		return perr_set(e, "unable to write '%s': %s", path,
				strerror(errno));
	report_print(f, r);
	if (fclose(f) != 0 || rename(path, final) != 0)
		return perr_set(e, "unable to write '%s': %s", final,
				strerror(errno));
	return 0;
}
