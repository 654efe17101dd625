/*
 * png.c - a chart as an rrd_graph_v argument vector (png.h).
 *
 * The vector is built as rrdtool's own command line would be, element by
 * element: DEF per series (scaled by a CDEF when asked) and, for a line
 * whose points hold more than one sample, the DEFs of its band (png.h;
 * which ones: png_rows.c), a legend box per session (an AREA of
 * nothing: png_overlay.c shades the plot on the image), the bands, the
 * lines with their legend, what the points are, and a VRULE per marker
 * (the vector itself and the escaping of text: png_args.c).
 *
 * Two passes (png_draw.c runs them): the first has no graph element, only the VDEFs of each
 * series' min, avg and max PRINTed (librrd then fetches and computes but
 * draws nothing); from the largest the axis takes its unit
 * (counters/units.h: MiB/s, ms), the series are divided into it by
 * their CDEF, and the legend's figures are written by units_fmt, as the
 * report and the viewer print them ("11.3 MiB/s", "0.27 ms", "12.3%"),
 * instead of rrdtool's SI prefixes ("236.19m" B/s, "272.31u" s, "1000 m"
 * on a percent axis). --units-exponent=0 keeps the axis numbers plain,
 * and a right axis (the same scale) gives the last time label its room
 * ("04:24:" was cut at the right edge). A legend is always
 * given as "legend=TEXT": librrd (1.7) reads a field of a VRULE, LINE or
 * AREA that looks like one of its options ("color=#0F0", "legend=X",
 * "dash-offset=3") as that option, so a marker text or an instance name
 * in the plain position could recolour a rule or replace or remove its
 * legend; after "legend=" the rest of the field is only text.
 */
#include "png.h"

/* markers numbered and listed under a chart (distinct texts); the rest
 * are drawn as plain rules and counted */
#define PNG_MARKER_LABELS 12
/* pixels a character of the legend's font (DEFAULT:9) takes, rounded
 * up: a marker's text is wrapped to the image's width by it */
#define PNG_LEGEND_CHAR_PX 8.2
/* pixels a legend line takes, and what the title and time axis take: a
 * chart whose legend would leave the plot less than a third of the
 * image is made taller (full-size-mode shrank the plot to a line under a long
 * legend: twelve wait states and the markers at 350 pixels) */
#define PNG_LEGEND_LINE_PX 16
#define PNG_FRAME_PX 50
/* a percent axis' top over its highest value (100, or more): a series
 * at 100% is drawn a few pixels under the plot's border, not in it */
#define PNG_TOP_ROOM 1.05

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strbuf.h"
#include "../common/util.h"
#include "png_int.h"

/* "2026-11-30 04:50:12"; the time only when day is the same as from's */
static void fmt_utc(char *buf, size_t n, time_t t, time_t from)
{
	struct tm tm, tf;

	gmtime_r(&t, &tm);
	gmtime_r(&from, &tf);
	int same = from != t && tm.tm_year == tf.tm_year && tm.tm_yday == tf.tm_yday;
	strftime(buf, n, same ? "%H:%M:%S" : "%Y-%m-%d %H:%M:%S", &tm);
}

/* The drawing's options: size, title, vertical axis on ax (top: the
 * highest value drawn, in its unit), and the print-friendly style. */
static void add_options(struct strbuf *a, const struct png_chart *c,
			const struct png_options *o, const struct units_axis *ax,
			double top, int height)
{
	int width = o->width ? o->width : PNG_DEFAULT_WIDTH;
	char t1[64], t2[64];

	fmt_utc(t1, sizeof(t1), o->from, o->from);
	fmt_utc(t2, sizeof(t2), o->to, o->from);
	png_arg(a, "--imgformat=PNG");
	png_arg(a, "--width=%d", width);
	png_arg(a, "--height=%d", height);
	png_arg(a, "--full-size-mode");
	/* the title and axis label are plain text (no ':' escapes) */
	png_arg(a, "--title=%s%s%s, %s to %s UTC", o->host ? o->host : "",
		o->host && *o->host ? ": " : "", c->what, t1, t2);
	/* the chart's own words ("% of one CPU"), else the axis unit */
	png_arg(a, "--vertical-label=%s",
		c->vlabel && *c->vlabel &&
		strcmp(c->vlabel, catalog_unit_label(c->unit)) ? c->vlabel :
		ax->label);
	png_arg(a, "--units-exponent=0");
	png_arg(a, "--right-axis=1:0");
	/* the right axis repeats the left one's numbers, plain too (its own
	 * default is SI: "1500.0 m" beside 1.5) */
	png_arg(a, "--right-axis-format=%%lg");
	if (!isnan(c->lower))
		png_arg(a, "--lower-limit=%g", c->lower / ax->div);
	/* a share on a 0..100 axis ("1000 m" was a share under 1%'s top)
	 * with room above 100 (a series at 100% was drawn on the plot's top
	 * border and lost in it); above 100 (a process's 250%) the axis
	 * takes it in with the same room */
	if (c->unit == UNIT_PERCENT && (isnan(c->upper) || c->upper == 100)) {
		double up = !isnan(top) && top > 100 ? top : 100;
		png_arg(a, "--upper-limit=%g", up * PNG_TOP_ROOM);
		png_arg(a, "--rigid");
	} else if (!isnan(c->upper)) {
		png_arg(a, "--upper-limit=%g", c->upper / ax->div);
	}
	/* print-friendly: white, larger type, no 3D shading */
	png_arg(a, "--font=DEFAULT:9:");
	png_arg(a, "--font=TITLE:11:");
	png_arg(a, "--color=BACK#FFFFFF");
	png_arg(a, "--color=CANVAS#FFFFFF");
	png_arg(a, "--color=SHADEA#FFFFFF");
	png_arg(a, "--color=SHADEB#FFFFFF");
	png_arg(a, "--border=0");
	png_arg(a, "--disable-rrdtool-tag");
}

/* "NAME=rVAR" scaled: "CDEF:NAME=rVAR[,scale,*]" */
static void add_scaled(struct strbuf *a, const char *name, const char *raw,
		       size_t i, double scale)
{
	if (scale != 0 && scale != 1)
		png_arg(a, "CDEF:%s%zu=%s%zu,%.17g,*", name, i, raw, i, scale);
	else
		png_arg(a, "CDEF:%s%zu=%s%zu", name, i, raw, i);
}

/* The seconds series i's times are moved by: the set's (another host's
 * clock) and its own (a second run laid over the first). */
static long series_shift(const struct png_chart *c, size_t i,
			 const struct png_options *o)
{
	return o->shift + c->series[i].shift;
}

/* Series with share_of: each group's sum at each point (unknown states
 * counted as none), then each series as its percent of it. */
static void add_shares(struct strbuf *a, const struct png_chart *c)
{
	for (size_t i = 0; i < c->nseries; i++) {
		int g = c->series[i].share_of;
		int first = 1;

		if (g <= 0)
			continue;
		for (size_t j = 0; j < i; j++)
			first = first && c->series[j].share_of != g;
		if (first) {
			struct strbuf sum = STRBUF_INIT;
			size_t n = 0;

			for (size_t j = i; j < c->nseries; j++)
				if (c->series[j].share_of == g)
					strbuf_printf(&sum, n++ ? ",r%zu,ADDNAN" : "r%zu", j);
			png_arg(a, "CDEF:tot%d=%s", g, strbuf_str(&sum));
			strbuf_free(&sum);
		}
		png_arg(a, "CDEF:v%zu=tot%d,0,GT,r%zu,0,ADDNAN,tot%d,/,100,*,UNKN,IF",
			i, g, i, g);
	}
}

/* A DEF per series (scaled by a CDEF: its own scale over the axis's
 * div; a share by add_shares), the DEFs of the bands (band[i]: rows[i]
 * says whether MIN and MAX archives serve them), then, when drawing, the
 * sessions' legends in their colours (the shading itself is drawn on
 * the image: png_overlay.c). */
static void add_data(struct strbuf *a, const struct png_chart *c,
		     const struct png_options *o, const int *band,
		     const struct png_rows *rows, double div, int draw)
{
	char txt[512], file[1024], col[8];
	size_t shown = 0;

	for (size_t i = 0; i < c->nseries; i++) {
		const struct png_series *s = &c->series[i];
		long sh = series_shift(c, i, o);
		char span[64] = "";

		/* another clock: each DEF fetches its own clock's span and
		 * SHIFT moves it onto the axis (SHIFT alone moves what the
		 * axis's span fetched, leaving the far end empty) */
		if (sh)
			snprintf(span, sizeof(span), ":start=%lld:end=%lld",
				 (long long)(o->from - sh),
				 (long long)(o->to - sh));
		png_esc_path(file, sizeof(file), s->file);
		png_arg(a, "DEF:r%zu=%s:%s:AVERAGE%s", i, file, s->ds, span);
		if (sh)
			png_arg(a, "SHIFT:r%zu:%ld", i, sh);
		double scale = (s->scale != 0 ? s->scale : 1) / div;
		if (!s->share_of)
			add_scaled(a, "v", "r", i, scale);
		if (!band[i])
			continue;
		if (rows[i].minmax) {
			png_arg(a, "DEF:l%zu=%s:%s:MIN%s", i, file, s->ds, span);
			png_arg(a, "DEF:h%zu=%s:%s:MAX%s", i, file, s->ds, span);
		} else {
			png_arg(a, "DEF:l%zu=%s:%s:AVERAGE:reduce=MIN%s", i, file, s->ds, span);
			png_arg(a, "DEF:h%zu=%s:%s:AVERAGE:reduce=MAX%s", i, file, s->ds, span);
		}
		if (sh) {
			png_arg(a, "SHIFT:l%zu:%ld", i, sh);
			png_arg(a, "SHIFT:h%zu:%ld", i, sh);
		}
		add_scaled(a, "lo", "l", i, scale);
		add_scaled(a, "hi", "h", i, scale);
		png_arg(a, "CDEF:rg%zu=hi%zu,lo%zu,-", i, i, i);
	}
	add_shares(a, c);
	for (size_t k = 0; draw && k < o->nspans; k++) {
		if (o->spans[k].end < o->from || o->spans[k].begin > o->to)
			continue;	/* not in the picture: not in the legend */
		shown++;
		/* the legend's box in the session's colour; the plot is
		 * shaded on the image (png_overlay.c) */
		png_arg(a, "CDEF:sp%zu=r0,POP,UNKN", k);
		/* session legends flow on one line instead of a line each */
		png_arg(a, "AREA:sp%zu%s:legend=session %s", k,
		    png_session_colour(col, sizeof(col), shown - 1),
		    png_esc(txt, sizeof(txt), o->spans[k].label));
	}
	if (shown)
		png_arg(a, "COMMENT:\\l");
}

/* Each band behind the lines: an invisible area up to its low, its
 * height stacked on that in the series' colour at a quarter strength,
 * and its top edge as a thin half-strength line, so that a peak one
 * pixel wide still shows. */
static void add_bands(struct strbuf *a, const struct png_chart *c,
		      const int *band)
{
	char col[8];

	for (size_t i = 0; i < c->nseries; i++) {
		if (!band[i])
			continue;
		png_colour(col, sizeof(col), i);
		png_arg(a, "AREA:lo%zu", i);
		png_arg(a, "AREA:rg%zu%s40::STACK", i, col);
		png_arg(a, "LINE1:hi%zu%s80", i, col);
	}
}

/* The first pass: each series' min, avg and max (with a band, the
 * lowest and highest sample) PRINTed, three per series, nothing drawn. */
static void add_figures(struct strbuf *a, const struct png_chart *c,
			const int *band)
{
	for (size_t i = 0; i < c->nseries; i++) {
		int g = c->series[i].share_of, first = g > 0;

		for (size_t j = 0; j < i && first; j++)
			first = c->series[j].share_of != g;
		if (first)
			png_arg(a, "VDEF:ta%d=tot%d,AVERAGE", g, g);
		png_arg(a, "VDEF:mn%zu=%s%zu,MINIMUM", i, band[i] ? "lo" : "v", i);
		/* a share's average weighs each point by its sum (the
		 * threads alive): its seconds over all the states' seconds,
		 * as the report's "all threads" column, not the mean of the
		 * points' shares */
		if (g > 0) {
			png_arg(a, "CDEF:w%zu=tot%d,UN,UNKN,r%zu,0,ADDNAN,100,*,ta%d,/,IF",
				i, g, i, g);
			png_arg(a, "VDEF:av%zu=w%zu,AVERAGE", i, i);
		} else {
			png_arg(a, "VDEF:av%zu=v%zu,AVERAGE", i, i);
		}
		png_arg(a, "VDEF:mx%zu=%s%zu,MAXIMUM", i, band[i] ? "hi" : "v", i);
		png_arg(a, "PRINT:mn%zu:%%.9le", i);
		png_arg(a, "PRINT:av%zu:%%.9le", i);
		png_arg(a, "PRINT:mx%zu:%%.9le", i);
	}
}

/* Each series as a line (stacked: an area on the ones before) with its
 * own min/avg/max in the legend, from the first pass, in units_fmt's
 * words. */
static void add_lines(struct strbuf *a, const struct png_chart *c, int stack,
		      const struct png_legend *fig)
{
	char txt[512], col[8];
	size_t pad = 0;

	/* legends padded to one width so the min/avg/max columns align
	 * (a longer one pushes its own figures right); measured before
	 * escaping (the backslashes are not drawn) */
	for (size_t i = 0; i < c->nseries; i++) {
		size_t l = c->series[i].legend ? strlen(c->series[i].legend) : 0;
		if (l > pad)
			pad = l;
	}
	if (pad > 40)
		pad = 40;
	for (size_t i = 0; i < c->nseries; i++) {
		const char *lg = c->series[i].legend ? c->series[i].legend : "";
		char cut[256], mn[24], av[24], mx[24];
		/* padded, never cut: a label cut mid-word names another */
		snprintf(cut, sizeof(cut), "%-*s", (int)pad, lg);
		png_colour(col, sizeof(col), i);
		if (stack)
			png_arg(a, "AREA:v%zu%s:legend=%s%s", i, col,
				png_esc(txt, sizeof(txt), cut), i ? ":STACK" : "");
		else
			png_arg(a, "LINE2:v%zu%s:legend=%s", i, col,
				png_esc(txt, sizeof(txt), cut));
		units_fmt(mn, sizeof(mn), fig[i].min, c->unit);
		units_fmt(av, sizeof(av), fig[i].avg, c->unit);
		units_fmt(mx, sizeof(mx), fig[i].max, c->unit);
		png_arg(a, "COMMENT:min %12s  avg %12s  max %12s\\l", mn, av, mx);
	}
}

/* png_int.h */
size_t png_vec_numbers(const struct png_options *o, int *num)
{
	size_t unnumbered = 0;
	int next = 0;

	for (size_t k = 0; k < o->nmarks; k++) {
		num[k] = 0;
		if (o->marks[k].t < o->from || o->marks[k].t > o->to)
			continue;	/* rrdtool would still list it */
		for (size_t j = 0; j < k && !num[k]; j++)
			if (num[j] && o->marks[j].label && o->marks[k].label &&
			    !strcmp(o->marks[j].label, o->marks[k].label))
				num[k] = num[j];
		if (!num[k] && next < PNG_MARKER_LABELS)
			num[k] = ++next;
		else if (!num[k])
			unnumbered++;
	}
	return unnumbered;
}

/* One legend line of at most `room` characters of text from *s (UTF-8
 * kept whole, cut at the last blank that fits, else at room), escaped
 * into buf; *s moves past it and the blanks after it. */
static void wrap_line(char *buf, size_t n, const char **s, size_t room)
{
	const char *p = *s, *cut = NULL;
	size_t chars = 0;
	char part[512];

	for (; *p; p++) {
		if (((unsigned char)*p & 0xC0) == 0x80)
			continue;
		if (chars == room)
			break;
		if (*p == ' ')
			cut = p;
		chars++;
	}
	if (*p && cut && cut > *s)
		p = cut;
	size_t len = (size_t)(p - *s) < sizeof(part) - 1 ?
		     (size_t)(p - *s) : sizeof(part) - 1;
	memcpy(part, *s, len);
	part[len] = '\0';
	png_esc(buf, n, part);
	while (*p == ' ')
		p++;
	*s = p;
}

/* Under the legends each marker number's text whole, wrapped to the
 * image's width (the rules and their numbers are drawn on the image,
 * png_overlay.c); with a NULL, only the lines counted. */
static size_t add_marks(struct strbuf *a, const struct png_options *o,
			const int *num, size_t unnumbered)
{
	int width = o->width ? o->width : PNG_DEFAULT_WIDTH;
	size_t room = (size_t)((width - 40) / PNG_LEGEND_CHAR_PX);
	char txt[1024];
	int listed = 0;
	size_t lines = 0;

	if (room < 20)
		room = 20;
	for (size_t k = 0; k < o->nmarks; k++) {
		const char *t = o->marks[k].label ? o->marks[k].label : "";
		char head[16];

		if (num[k] <= listed)
			continue;	/* none, or listed already */
		listed = num[k];
		snprintf(head, sizeof(head), "%2d  ", num[k]);
		wrap_line(txt, sizeof(txt), &t, room - 4);
		if (a)
			png_arg(a, "COMMENT:%s%s\\l", head, txt);
		lines++;
		while (*t) {
			wrap_line(txt, sizeof(txt), &t, room - 4);
			if (a)
				png_arg(a, "COMMENT:    %s\\l", txt);
			lines++;
		}
	}
	if (unnumbered && a)
		png_arg(a, "COMMENT:(+%zu more markers)\\l", unnumbered);
	return lines + (unnumbered > 0);
}

/* The image's height: as asked, or taller when the legend (a line a
 * series, the sessions', the points' note, the markers') would leave
 * the plot less than a third of it. */
static int image_height(const struct png_chart *c, const struct png_options *o,
			const int *num, size_t unnumbered)
{
	int height = o->height ? o->height : PNG_DEFAULT_HEIGHT;
	size_t lines = c->nseries + 2 + add_marks(NULL, o, num, unnumbered);
	long need = 3L * (PNG_FRAME_PX + (long)lines * PNG_LEGEND_LINE_PX) / 2;

	return need > height ? (int)(need < PNG_MAX_SIZE ? need : PNG_MAX_SIZE) :
	       height;
}

/* Each series' rows (png_rows_of, once per file) and whether it gets a
 * band: a line (not a stacked area) whose points hold more than one
 * sample. A file librrd cannot read gets none (rrd_graph says why). */
static void plan_bands(const struct png_chart *c, const struct png_options *o,
		       unsigned long point, int stack, struct png_rows *rows,
		       int *band)
{
	struct perr e;

	for (size_t i = 0; i < c->nseries; i++) {
		const struct png_series *s = &c->series[i];
		band[i] = 0;
		if (i && !strcmp(s->file, c->series[i - 1].file) &&
		    s->shift == c->series[i - 1].shift) {
			rows[i] = rows[i - 1];
		} else if (png_rows_of(s->file, o->from - series_shift(c, i, o),
				       o->to - series_shift(c, i, o), point,
				       s->step, &rows[i], &e) < 0) {
			memset(&rows[i], 0, sizeof(rows[i]));
			continue;
		}
		band[i] = !stack && rows[i].archive && png_rows_band(&rows[i]);
	}
}

/* Under the legends: what the points are (the first series'). */
static void add_note(struct strbuf *a, const struct png_rows *r, int stack)
{
	char note[96], txt[200];

	if (!r->archive)
		return;
	png_rows_note(note, sizeof(note), r, stack);
	png_arg(a, "COMMENT:%s\\l", png_esc(txt, sizeof(txt), note));
}

/* png_int.h */
int png_vec_plan(const char *path, const struct png_chart *c, int stack,
		 const struct png_options *o, struct png_rows *rows, int *band,
		 struct perr *e)
{
	int width = o->width ? o->width : PNG_DEFAULT_WIDTH;
	int height = o->height ? o->height : PNG_DEFAULT_HEIGHT;

	if (!c->nseries)
		return perr_set(e, "%s: chart '%s' has no series", path, c->what);
	if (o->to <= o->from)
		return perr_set(e, "%s: empty time range", path);
	if (width < PNG_MIN_SIZE || height < PNG_MIN_SIZE ||
	    width > PNG_MAX_SIZE || height > PNG_MAX_SIZE)
		return perr_set(e, "image size %dx%d out of range (%d..%d)",
				width, height, PNG_MIN_SIZE, PNG_MAX_SIZE);
	plan_bands(c, o, png_point_step(o), stack, rows, band);
	return 0;
}

/* The highest value drawn, in the axis unit: a stack's top is the sum
 * of its maxima, a stack of shares at most 100. */
static double top_of(const struct png_chart *c, int stack,
		     const struct png_legend *fig, const struct units_axis *ax)
{
	double top = NAN;
	int shares = 1;

	for (size_t i = 0; i < c->nseries; i++) {
		shares = shares && c->series[i].share_of > 0;
		if (isnan(fig[i].max))
			continue;
		top = isnan(top) ? fig[i].max :
		      stack ? top + fig[i].max : fmax(top, fig[i].max);
	}
	if (stack && shares && top > 100)
		top = 100;
	return isnan(top) ? top : top / ax->div;
}

/* png_int.h */
void png_vec_build(struct strbuf *a, const char *path,
		   const struct png_chart *c, int stack,
		   const struct png_options *o, const struct png_rows *rows,
		   const int *band, const struct png_legend *fig,
		   const struct units_axis *ax, const int *num,
		   size_t unnumbered)
{
	png_arg(a, "graph");
	png_arg(a, "%s", path);
	png_arg(a, "--start=%lld", (long long)o->from);
	png_arg(a, "--end=%lld", (long long)o->to);
	png_arg(a, "--step=%lu", png_point_step(o));
	add_data(a, c, o, band, rows, fig ? ax->div : 1, fig != NULL);
	if (!fig) {
		add_figures(a, c, band);
		return;
	}
	add_options(a, c, o, ax, top_of(c, stack, fig, ax),
		    image_height(c, o, num, unnumbered));
	add_bands(a, c, band);
	add_lines(a, c, stack, fig);
	add_note(a, &rows[0], stack);
	add_marks(a, o, num, unnumbered);
}

