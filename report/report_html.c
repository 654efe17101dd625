/*
 * report_html.c - `perflog report DIR --html OUTDIR` (report.h): the text
 * report in a <pre>, then each session's charts. The charts are drawn
 * first and the page lists only the files that are there afterwards, so
 * it never links to a missing image; paths are relative, so OUTDIR can be
 * moved or mailed as it is. Above a session's charts, what their points
 * are (png_export_points: "avg of 1 min rows, band min..max"). With
 * --with, each server's charts of the session follow the client's, in
 * session-N/HOST/, drawn over the same axis on the client's clock.
 */
#define _GNU_SOURCE	/* open_memstream */
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../export/png_export.h"

static void html_text(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(s[i], f);
		}
	}
}

/* One chart image, linked when the file is there. */
static void html_img(FILE *f, const char *dirp, const char *rel,
		     const char *name)
{
	char img[2400];

	snprintf(img, sizeof(img), "%s/%s", dirp, name);
	if (access(img, R_OK) != 0)
		return;
	fprintf(f, "<img src=\"");
	html_text(f, rel, strlen(rel));
	fputc('/', f);
	html_text(f, name, strlen(name));
	fprintf(f, "\" alt=\"");
	html_text(f, name, strlen(name));
	fprintf(f, "\">\n");
}

/* report --with: each server's charts of session i, over the client's
 * axis on its clock (png_export_hosts), in OUTDIR/session-N/HOST/. */
static void html_hosts(FILE *f, const struct report *r, size_t i,
		       const struct png_export_options *o, const char *dirp,
		       const char *sub)
{
	struct png_host *h = calloc(r->nwith, sizeof(*h));
	struct perr pe;

	if (!h)
		return;
	for (size_t k = 0; k < r->nwith; k++) {
		h[k].ls = r->with[k].ls;
		h[k].ml = &r->with[k].markers;
		h[k].shift = r->with[k].shift;
	}
	if (png_export_hosts(r->ls, &r->markers, o, dirp, h, r->nwith, &pe) < 0) {
		fprintf(f, "<p>servers' charts not drawn: ");
		html_text(f, pe.msg, strlen(pe.msg));
		fprintf(f, "</p>\n");
		free(h);
		return;
	}
	for (size_t k = 0; k < r->nwith; k++) {
		const char *host = logset_meta(h[k].ls)->host;
		const struct report_verdict *v = &r->s[i].peers[k].s.verdict;
		char hdir[1400], rel[200];

		fprintf(f, "<h3>");
		html_text(f, host, strlen(host));
		fprintf(f, " (clock ");
		html_text(f, h[k].shift.what, strlen(h[k].shift.what));
		fprintf(f, ")</h3>\n<p>");
		html_text(f, host, strlen(host));
		fprintf(f, " alone: ");
		html_text(f, v->line, strlen(v->line));
		fprintf(f, "</p>\n");
		if (h[k].ncharts < 0) {
			fprintf(f, "<p>charts not drawn: ");
			html_text(f, h[k].error, strlen(h[k].error));
			fprintf(f, "</p>\n");
			continue;
		}
		snprintf(hdir, sizeof(hdir), "%s/%s", dirp, h[k].sub);
		snprintf(rel, sizeof(rel), "%s/%s", sub, h[k].sub);
		for (int c = 0; c < h[k].ncharts && c < 16; c++)
			html_img(f, hdir, rel, h[k].names[c]);
	}
	free(h);
}

/* Session i: its name, verdict and charts (drawn into OUTDIR/session-N/
 * first; only the images that are there are linked). */
static void html_session(FILE *f, const struct report *r, size_t i,
			 const char *outdir, int width, int height)
{
	const struct report_session *s = &r->s[i];
	struct png_export_options o = { 0 };
	char sub[64], names[16][64], dirp[1200], points[96];
	struct perr pe;

	snprintf(sub, sizeof(sub), "session-%zu", i + 1);
	snprintf(dirp, sizeof(dirp), "%s/%s", outdir, sub);
	o.width = width;
	o.height = height;
	o.session = s->begin_m ? s->name : NULL;
	/* the interfaces its connections used, series that moved (issue 29);
	 * with its edges known and none (a local repository), no network
	 * chart */
	char ifs[256];
	if (report_stages_ifaces(s->stages, 0, ifs, sizeof(ifs)) ||
	    (s->stages && (s->stages->edge_sides & 1u)))
		o.net_only = ifs;
	o.drop_zero = s->begin_m != NULL;
	int n = png_export(r->ls, &r->markers, dirp, &o, names, 16, &pe);
	fprintf(f, "<h2>Session ");
	html_text(f, s->name, strlen(s->name));
	fprintf(f, "</h2>\n<p><b>");
	html_text(f, s->verdict.line, strlen(s->verdict.line));
	fprintf(f, "</b></p>\n");
	if (n < 0) {
		fprintf(f, "<p>charts not drawn: ");
		html_text(f, pe.msg, strlen(pe.msg));
		fprintf(f, "</p>\n");
		return;
	}
	if (png_export_points(r->ls, &r->markers, &o, points, sizeof(points),
			      &pe) == 0 && points[0]) {
		fprintf(f, "<p>Charts: ");
		html_text(f, points, strlen(points));
		fprintf(f, "%s</p>\n", strstr(points, "band") ?
			" (each line the average; the shaded band around it "
			"reaches the lowest and highest sample)" : "");
	}
	if (r->nwith) {
		const char *host = logset_meta(r->ls)->host;
		fprintf(f, "<h3>");
		html_text(f, host, strlen(host));
		fprintf(f, " (the client: the reference clock)</h3>\n");
	}
	for (int k = 0; k < n && k < 16; k++)
		html_img(f, dirp, sub, names[k]);
	if (r->nwith)
		html_hosts(f, r, i, &o, dirp, sub);
}

int report_html(const struct report *r, const char *outdir, int width,
		int height, struct perr *e)
{
	char path[1200], *text = NULL;
	size_t tlen = 0;
	FILE *mem, *f;

	if (util_mkdirs(outdir, 0755) < 0)
		return perr_set(e, "unable to create '%s': %s", outdir,
				strerror(errno));
	mem = open_memstream(&text, &tlen);
	if (!mem)
		return perr_set(e, "out of memory");
	report_print(mem, r);
	fclose(mem);

	snprintf(path, sizeof(path), "%s/index.html.tmp", outdir);
	f = fopen(path, "w");
	if (!f) {
		free(text);
		return perr_set(e, "unable to write '%s': %s", path,
				strerror(errno));
	}
	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
		"<title>perflog report: ");
	html_text(f, r->dir, strlen(r->dir));
	fprintf(f, "</title>\n<style>body{font-family:sans-serif;margin:2em}"
		"pre{font-size:90%%;background:#f6f6f6;padding:1em}"
		"img{display:block;max-width:100%%;margin:1em 0}</style>\n"
		"</head><body>\n<h1>perflog report</h1>\n<pre>");
	html_text(f, text, tlen);
	fprintf(f, "</pre>\n");
	free(text);

	for (size_t i = 0; i < r->n; i++)
		html_session(f, r, i, outdir, width, height);
	fprintf(f, "</body></html>\n");
	if (fclose(f) != 0)
		return perr_set(e, "unable to write '%s': %s", path,
				strerror(errno));
	char final[1200];
	snprintf(final, sizeof(final), "%s/index.html", outdir);
	if (rename(path, final) != 0)
		return perr_set(e, "unable to write '%s': %s", final,
				strerror(errno));
	return 0;
}
