/*
 * report_html.c - `perflog report DIR --html OUTDIR` (report.h): one page
 * a manager reads (issue 49). It opens with the run (host, span,
 * sessions) and a table of the sessions (length, bytes, rate, the
 * verdict's word in its colour, whom it names), which is also the table
 * of contents; then each session: its verdict, its stages as a table,
 * its figures as the text report gives them, and its charts. The charts
 * are drawn first and the page lists only the files that are there
 * afterwards, so it never links to a missing image; paths are relative
 * and the style is inline, so OUTDIR works offline and can be moved or
 * mailed as it is; it prints on A4, a session a page. The whole text
 * report is beside it as report.txt. With --with, each server's charts
 * of the session follow the client's, in session-N/HOST/, drawn over the
 * same axis on the client's clock.
 */
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../export/png_export.h"
#include "report_html_int.h"

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
	fprintf(f, "<section id=\"s%zu\">\n<h2>Session ", i + 1);
	html_text(f, s->name, strlen(s->name));
	fprintf(f, "</h2>\n");
	html_verdict(f, &s->verdict);
	html_stages(f, s->stages, r->nwith > 0);
	html_figures(f, r, s);
	fprintf(f, "<h3>Charts</h3>\n");
	if (n < 0) {
		fprintf(f, "<p>charts not drawn: ");
		html_text(f, pe.msg, strlen(pe.msg));
		fprintf(f, "</p>\n</section>\n");
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
	fprintf(f, "</section>\n");
}

/* The style, inline so the page works offline: A4 when printed, a
 * session a page, nothing wider than the page (long lines wrap). */
static const char style[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:60em;"
	"padding:0 1em;color:#222}"
	"h1{margin-bottom:.2em}h2{border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:.5em 0}"
	/* headers, figures and the verdict's word keep to one line; only
	 * names and text wrap, anywhere (a long session name took the
	 * figures' width: 'dura|tion', 'CP|U') */
	"th,td{border:1px solid #ccc;padding:.2em .5em;text-align:right;"
	"white-space:nowrap}"
	"th:first-child,td:first-child,td.l{text-align:left}"
	"td:first-child,td.l{white-space:normal;overflow-wrap:anywhere;"
	"min-width:6em}"
	".word{color:#fff;padding:.1em .4em;border-radius:.2em;"
	"font-weight:bold;display:inline-block;white-space:nowrap}"
	".verdict{font-size:110%}.hint{color:#555}"
	"pre{font-size:85%;background:#f6f6f6;padding:.8em;"
	"white-space:pre-wrap;overflow-wrap:anywhere}"
	"img{display:block;max-width:100%;margin:1em 0}"
	/* the night's lanes (report_html_night.c): a bar a session over
	 * the night's span */
	".lanes{margin:.5em 0 1em}.lane{display:flex;align-items:center;"
	"height:1.4em;margin:.15em 0}.lname{width:9em;flex:none;"
	"overflow:hidden;white-space:nowrap;font-size:90%}"
	".ltrack{position:relative;flex:1;height:100%;background:#f2f2f2}"
	".bar{position:absolute;top:0;bottom:0;color:#fff;font-size:80%;"
	"overflow:hidden;white-space:nowrap;padding-left:.3em;"
	"box-sizing:border-box;display:flex;align-items:center}"
	".laxis{flex:1;display:flex;justify-content:space-between;"
	"font-size:80%;color:#555}"
	"@page{size:A4;margin:15mm}"
	"@media print{body{margin:0;max-width:none}"
	"section{break-before:page}img{break-inside:avoid}}";

int report_html(const struct report *r, const char *outdir, int width,
		int height, struct perr *e)
{
	char path[1200];
	FILE *f;

	if (util_mkdirs(outdir, 0755) < 0)
		return perr_set(e, "unable to create '%s': %s", outdir,
				strerror(errno));
	if (html_report_txt(r, outdir, e) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/index.html.tmp", outdir);
	f = fopen(path, "w");
	if (!f)
		return perr_set(e, "unable to write '%s': %s", path,
				strerror(errno));
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width\">\n"
		"<title>perflog report: ");
	html_text(f, logset_meta(r->ls)->host, strlen(logset_meta(r->ls)->host));
	fprintf(f, "</title>\n<style>%s</style>\n</head><body>\n", style);
	html_run(f, r);
	for (size_t i = 0; i < r->n; i++)
		html_session(f, r, i, outdir, width, height);
	fprintf(f, "<p>The whole text report: <a href=\"report.txt\">report.txt</a>.</p>\n"
		"</body></html>\n");
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
