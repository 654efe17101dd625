/*
 * png.c - a chart as an rrd_graph_v argument vector (png.h).
 *
 * The vector is built as rrdtool's own command line would be, element by
 * element: DEF per series (scaled by a CDEF when asked) and, for a line
 * whose points hold more than one sample, the DEFs of its band (png.h;
 * which ones: png_rows.c), one shading AREA per session, the bands, the
 * lines with their GPRINT legend, PRINTs of the same VDEFs for the
 * caller, what the points are, and a VRULE per marker. Text that ends up in the
 * graph (legends, labels, the title) is escaped: ':' is rrdtool's field
 * separator and a backslash starts its alignment codes. A legend is always
 * given as "legend=TEXT": librrd (1.7) reads a field of a VRULE, LINE or
 * AREA that looks like one of its options ("color=#0F0", "legend=X",
 * "dash-offset=3") as that option, so a marker text or an instance name
 * in the plain position could recolour a rule or replace or remove its
 * legend; after "legend=" the rest of the field is only text.
 */
#include "png.h"

/* marker labels shown in a chart's legend; the rest are drawn unlabelled */
#define PNG_MARKER_LABELS 6
/* characters of a marker's text in the legend: about half the width of
 * a default 1000-pixel chart, so two share a line */
#define PNG_MARKER_LABEL_CHARS 64

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rrd.h>

#include "../common/strbuf.h"
#include "../common/util.h"
#include "../logs/rrdlock.h"

/* Dark, distinct, legible in grey print (ColorBrewer Dark2 + Set1). */
static const char *palette[] = {
	"#1B9E77", "#D95F02", "#7570B3", "#E7298A", "#66A61E",
	"#E6AB02", "#A6761D", "#377EB8", "#E41A1C", "#4D4D4D",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

/* The argument vector: every element printf'ed into one buffer, each
 * ending in its NUL, and cut into argv once complete (args_vector). */
static void add(struct strbuf *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct strbuf *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vprintf(a, fmt, ap);
	va_end(ap);
	strbuf_add(a, "", 1);
}

/* argv for the elements of a (pointing into it), NULL-terminated; *n
 * their count. NULL out of memory. */
static char **args_vector(const struct strbuf *a, size_t *n)
{
	char **v;

	*n = 0;
	for (size_t i = 0; i < a->len; i++)
		*n += a->p[i] == '\0';
	v = malloc((*n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0, k = 0; k < *n; k++) {
		v[k] = a->p + i;
		i += strlen(a->p + i) + 1;
	}
	v[*n] = NULL;
	return v;
}

/* Text safe inside an rrdtool element: ':' escaped, backslashes and
 * control bytes dropped, length bounded. */
static char *esc(char *buf, size_t n, const char *s)
{
	size_t j = 0;

	for (; s && *s && j + 3 < n; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f || c == '\\')
			continue;
		if (c == ':')
			buf[j++] = '\\';
		buf[j++] = (char)c;
	}
	buf[j] = '\0';
	return buf;
}

/* A marker's text for the legend: escaped as esc does, and cut to max
 * characters (UTF-8 sequences kept whole) with "..." so that a long
 * command line stays inside the picture. */
static char *esc_cut(char *buf, size_t n, const char *s, size_t max)
{
	size_t j = 0, chars = 0;

	for (; s && *s && j + 8 < n; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || c == '\\')
			continue;
		if ((c & 0xC0) != 0x80 && ++chars > max) {
			memcpy(buf + j, "...", 3);
			j += 3;
			break;
		}
		if (c == ':')
			buf[j++] = '\\';
		buf[j++] = (char)c;
	}
	buf[j] = '\0';
	return buf;
}

/* A file name for a DEF: ':' must be escaped there too. */
static char *esc_path(char *buf, size_t n, const char *s)
{
	size_t j = 0;

	for (; *s && j + 3 < n; s++) {
		if (*s == ':')
			buf[j++] = '\\';
		buf[j++] = *s;
	}
	buf[j] = '\0';
	return buf;
}

/* "2026-11-30 04:50:12"; the time only when day is the same as from's */
static void fmt_utc(char *buf, size_t n, time_t t, time_t from)
{
	struct tm tm, tf;

	gmtime_r(&t, &tm);
	gmtime_r(&from, &tf);
	int same = from != t && tm.tm_year == tf.tm_year && tm.tm_yday == tf.tm_yday;
	strftime(buf, n, same ? "%H:%M:%S" : "%Y-%m-%d %H:%M:%S", &tm);
}

static double parse_print(const char *s)
{
	char *end;
	double v;

	if (!s)
		return NAN;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno)
		return NAN;
	return v;
}

/* The graph's options: the file, time axis, size, title, vertical axis,
 * and the print-friendly style. */
static void add_options(struct strbuf *a, const char *path,
			const struct png_chart *c, const struct png_options *o,
			int width, int height, unsigned long point)
{
	char t1[64], t2[64];

	fmt_utc(t1, sizeof(t1), o->from, o->from);
	fmt_utc(t2, sizeof(t2), o->to, o->from);
	add(a, "graph");
	add(a, "%s", path);
	add(a, "--imgformat=PNG");
	add(a, "--start=%lld", (long long)o->from);
	add(a, "--end=%lld", (long long)o->to);
	add(a, "--step=%lu", point);
	add(a, "--width=%d", width);
	add(a, "--height=%d", height);
	add(a, "--full-size-mode");
	/* the title and axis label are plain text (no ':' escapes) */
	add(a, "--title=%s%s%s, %s to %s UTC", o->host ? o->host : "",
	    o->host && *o->host ? ": " : "", c->what, t1, t2);
	add(a, "--vertical-label=%s", c->vlabel);
	add(a, "--base=%d", c->base == 1024 ? 1024 : 1000);
	if (!isnan(c->lower))
		add(a, "--lower-limit=%g", c->lower);
	if (!isnan(c->upper))
		add(a, "--upper-limit=%g", c->upper);
	/* print-friendly: white, larger type, no 3D shading */
	add(a, "--font=DEFAULT:9:");
	add(a, "--font=TITLE:11:");
	add(a, "--color=BACK#FFFFFF");
	add(a, "--color=CANVAS#FFFFFF");
	add(a, "--color=SHADEA#FFFFFF");
	add(a, "--color=SHADEB#FFFFFF");
	add(a, "--border=0");
	add(a, "--disable-rrdtool-tag");
}

/* "NAME=rVAR" scaled: "CDEF:NAME=rVAR[,scale,*]" */
static void add_scaled(struct strbuf *a, const char *name, const char *raw,
		       size_t i, double scale)
{
	if (scale != 0 && scale != 1)
		add(a, "CDEF:%s%zu=%s%zu,%.17g,*", name, i, raw, i, scale);
	else
		add(a, "CDEF:%s%zu=%s%zu", name, i, raw, i);
}

/* A DEF per series (scaled by a CDEF when asked), the DEFs of the bands
 * (band[i]: rows[i] says whether MIN and MAX archives serve them), then
 * the sessions as shaded areas, first so the lines are drawn over them. */
static void add_data(struct strbuf *a, const struct png_chart *c,
		     const struct png_options *o, const int *band,
		     const struct png_rows *rows)
{
	static const char *shade[] = { "#DDE8F6", "#F6EBDD", "#E3F1DF" };
	char txt[512], file[1024], span[64] = "";
	size_t shown = 0;

	/* another host's set: each DEF fetches its own clock's span and
	 * SHIFT moves it onto the axis (SHIFT alone moves what the axis's
	 * span fetched, leaving the far end empty) */
	if (o->shift)
		snprintf(span, sizeof(span), ":start=%lld:end=%lld",
			 (long long)(o->from - o->shift),
			 (long long)(o->to - o->shift));
	for (size_t i = 0; i < c->nseries; i++) {
		const struct png_series *s = &c->series[i];
		esc_path(file, sizeof(file), s->file);
		add(a, "DEF:r%zu=%s:%s:AVERAGE%s", i, file, s->ds, span);
		if (o->shift)
			add(a, "SHIFT:r%zu:%ld", i, o->shift);
		add_scaled(a, "v", "r", i, s->scale);
		if (!band[i])
			continue;
		if (rows[i].minmax) {
			add(a, "DEF:l%zu=%s:%s:MIN%s", i, file, s->ds, span);
			add(a, "DEF:h%zu=%s:%s:MAX%s", i, file, s->ds, span);
		} else {
			add(a, "DEF:l%zu=%s:%s:AVERAGE:reduce=MIN%s", i, file, s->ds, span);
			add(a, "DEF:h%zu=%s:%s:AVERAGE:reduce=MAX%s", i, file, s->ds, span);
		}
		if (o->shift) {
			add(a, "SHIFT:l%zu:%ld", i, o->shift);
			add(a, "SHIFT:h%zu:%ld", i, o->shift);
		}
		add_scaled(a, "lo", "l", i, s->scale);
		add_scaled(a, "hi", "h", i, s->scale);
		add(a, "CDEF:rg%zu=hi%zu,lo%zu,-", i, i, i);
	}
	for (size_t k = 0; k < o->nspans; k++) {
		if (o->spans[k].end < o->from || o->spans[k].begin > o->to)
			continue;	/* not in the picture: not in the legend */
		shown++;
		/* a row is stamped at its end (TIME) and drawn over the step
		 * before it: shaded when it overlaps the session, so a
		 * session inside one consolidated row still shows */
		add(a, "CDEF:sp%zu=r0,POP,TIME,%lld,GT,TIME,STEPWIDTH,-,%lld,LE,*,INF,UNKN,IF",
		    k, (long long)o->spans[k].begin, (long long)o->spans[k].end);
		/* session legends flow on one line instead of a line each */
		add(a, "AREA:sp%zu%s:legend=session %s", k, shade[k % 3],
		    esc(txt, sizeof(txt), o->spans[k].label));
	}
	if (shown)
		add(a, "COMMENT:\\l");
}

/* Each band behind the lines: an invisible area up to its low, its
 * height stacked on that in the series' colour at a quarter strength,
 * and its top edge as a thin half-strength line, so that a peak one
 * pixel wide still shows. */
static void add_bands(struct strbuf *a, const struct png_chart *c,
		      const int *band)
{
	for (size_t i = 0; i < c->nseries; i++) {
		if (!band[i])
			continue;
		add(a, "AREA:lo%zu", i);
		add(a, "AREA:rg%zu%s40::STACK", i, palette[i % NPALETTE]);
		add(a, "LINE1:hi%zu%s80", i, palette[i % NPALETTE]);
	}
}

/* Each series as a line (stacked: an area on the ones before) with its
 * own min/avg/max in the legend (GPRINT) and the same figures PRINTed for
 * the caller. */
static void add_lines(struct strbuf *a, const struct png_chart *c, int stack,
		      const int *band)
{
	/* percentages read best without SI prefixes ("653.59m") */
	const char *si = c->vlabel && c->vlabel[0] == '%' ? "" : "%s";
	char txt[512];
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
		char cut[256];
		/* padded, never cut: a label cut mid-word names another */
		snprintf(cut, sizeof(cut), "%-*s", (int)pad, lg);
		if (stack)
			add(a, "AREA:v%zu%s:legend=%s%s", i, palette[i % NPALETTE],
			    esc(txt, sizeof(txt), cut), i ? ":STACK" : "");
		else
			add(a, "LINE2:v%zu%s:legend=%s", i, palette[i % NPALETTE],
			    esc(txt, sizeof(txt), cut));
		/* with a band, the lowest and highest sample */
		add(a, "VDEF:mn%zu=%s%zu,MINIMUM", i, band[i] ? "lo" : "v", i);
		add(a, "VDEF:av%zu=v%zu,AVERAGE", i, i);
		add(a, "VDEF:mx%zu=%s%zu,MAXIMUM", i, band[i] ? "hi" : "v", i);
		add(a, "GPRINT:mn%zu:min %%8.2lf%s", i, si);
		add(a, "GPRINT:av%zu:avg %%8.2lf%s", i, si);
		add(a, "GPRINT:mx%zu:max %%8.2lf%s\\l", i, si);
		add(a, "PRINT:mn%zu:%%.9le", i);
		add(a, "PRINT:av%zu:%%.9le", i);
		add(a, "PRINT:mx%zu:%%.9le", i);
	}
}

/* A marker's label goes in the legend once (a session's begin and end
 * carry the same text), flowing on shared lines, and only the first few:
 * a long run of markers must not crowd out the chart. */
static void add_marks(struct strbuf *a, const struct png_options *o)
{
	size_t labelled = 0, unlabelled = 0;
	char txt[512];

	for (size_t k = 0; k < o->nmarks; k++) {
		int dup = 0;

		if (o->marks[k].t < o->from || o->marks[k].t > o->to)
			continue;	/* rrdtool would still list it */
		for (size_t j = 0; j < k && !dup; j++)
			dup = o->marks[j].label && o->marks[k].label &&
			      !strcmp(o->marks[j].label, o->marks[k].label);
		if (dup || labelled >= PNG_MARKER_LABELS) {
			add(a, "VRULE:%lld#C00000::dashes",
			    (long long)o->marks[k].t);
			unlabelled += !dup;
			continue;
		}
		add(a, "VRULE:%lld#C00000:legend=%s:dashes", (long long)o->marks[k].t,
		    esc_cut(txt, sizeof(txt), o->marks[k].label,
			    PNG_MARKER_LABEL_CHARS));
		labelled++;
	}
	if (unlabelled)
		add(a, "COMMENT:(+%zu more markers)", unlabelled);
}

/* rrd_graph_v with the axis in UTC whatever the user's TZ; a live set's
 * update holding a file's lock is waited out (rrdlock.h). */
static rrd_info_t *graph_utc(int argc, char **argv)
{
	char *oldtz = getenv("TZ") ? strdup(getenv("TZ")) : NULL;
	double until = rrdlock_deadline(RRDLOCK_READ_WAIT);
	rrd_info_t *info;

	setenv("TZ", "UTC", 1);
	tzset();
	do {
		rrd_clear_error();
		info = rrd_graph_v(argc, argv);
	} while (!info && rrdlock_again(until));
	if (oldtz) {
		setenv("TZ", oldtz, 1);
		free(oldtz);
	} else {
		unsetenv("TZ");
	}
	tzset();
	return info;
}

/* The PRINT results, three per series: min, avg, max. */
static void read_legend(const rrd_info_t *info, size_t nseries,
			struct png_legend *legend)
{
	size_t maxes = 0;

	for (size_t i = 0; i < nseries; i++) {
		legend[i].min = legend[i].avg = legend[i].max = NAN;
		legend[i].max_text[0] = '\0';
	}
	for (const rrd_info_t *p = info; p; p = p->next) {
		unsigned long k;
		/* the GPRINTs' text, in series order (add_lines) */
		if (p->type == RD_I_STR && !strncmp(p->key, "legend[", 7) &&
		    !strncmp(p->value.u_str, "max ", 4) && maxes < nseries)
			util_strlcpy(legend[maxes++].max_text, p->value.u_str,
				     sizeof(legend[0].max_text));
		if (p->type != RD_I_STR || sscanf(p->key, "print[%lu]", &k) != 1)
			continue;
		if (k / 3 >= nseries)
			continue;
		double v = parse_print(p->value.u_str);
		if (k % 3 == 0)
			legend[k / 3].min = v;
		else if (k % 3 == 1)
			legend[k / 3].avg = v;
		else
			legend[k / 3].max = v;
	}
}

/* Every legend text the graph drew, one a line, rrdtool's indent off. */
static void read_texts(const rrd_info_t *info, struct strbuf *out)
{
	for (const rrd_info_t *p = info; p; p = p->next) {
		if (p->type != RD_I_STR || strncmp(p->key, "legend[", 7))
			continue;
		strbuf_printf(out, "%s\n",
			      p->value.u_str + strspn(p->value.u_str, " "));
	}
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
		if (i && !strcmp(s->file, c->series[i - 1].file)) {
			rows[i] = rows[i - 1];
		} else if (png_rows_of(s->file, o->from - o->shift,
				       o->to - o->shift, point, s->step,
				       &rows[i], &e) < 0) {
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
	add(a, "COMMENT:%s\\l", esc(txt, sizeof(txt), note));
}

/* The argument vector of a chart into a, with its series' rows and
 * bands planned; 0, or -1 with e set. */
static int build(struct strbuf *a, const char *path, const struct png_chart *c,
		 int stack, const struct png_options *o, struct png_rows *rows,
		 int *band, struct perr *e)
{
	int width = o->width ? o->width : PNG_DEFAULT_WIDTH;
	int height = o->height ? o->height : PNG_DEFAULT_HEIGHT;
	unsigned long point = png_point_step(o);

	if (!c->nseries)
		return perr_set(e, "%s: chart '%s' has no series", path, c->what);
	if (o->to <= o->from)
		return perr_set(e, "%s: empty time range", path);
	if (width < PNG_MIN_SIZE || height < PNG_MIN_SIZE ||
	    width > PNG_MAX_SIZE || height > PNG_MAX_SIZE)
		return perr_set(e, "image size %dx%d out of range (%d..%d)",
				width, height, PNG_MIN_SIZE, PNG_MAX_SIZE);
	plan_bands(c, o, point, stack, rows, band);
	add_options(a, path, c, o, width, height, point);
	add_data(a, c, o, band, rows);
	add_bands(a, c, band);
	add_lines(a, c, stack, band);
	add_note(a, &rows[0], stack);
	add_marks(a, o);
	return a->failed ? perr_set(e, "out of memory") : 0;
}

static int render(const char *path, const struct png_chart *c, int stack,
		  const struct png_options *o, struct png_legend *legend,
		  struct perr *e)
{
	struct strbuf a = STRBUF_INIT;
	struct png_rows *rows = calloc(c->nseries + 1, sizeof(*rows));
	int *band = calloc(c->nseries + 1, sizeof(*band));
	size_t argc = 0;
	char **argv = NULL;
	rrd_info_t *info = NULL;
	int rc = -1;

	if (!rows || !band)
		perr_set(e, "out of memory");
	else if (build(&a, path, c, stack, o, rows, band, e) == 0 &&
		 !(argv = args_vector(&a, &argc)))
		perr_set(e, "out of memory");
	if (argv) {
		info = graph_utc((int)argc, argv);
		if (!info) {
			const char *m = rrd_get_error();
			perr_set(e, "%s: rrd_graph: %s", path,
				 m && *m ? m : "failed");
			rrd_clear_error();
		}
	}
	if (info && o->legends)
		read_texts(info, o->legends);
	if (info && legend) {
		read_legend(info, c->nseries, legend);
		for (size_t i = 0; i < c->nseries; i++)
			png_rows_note(legend[i].points, sizeof(legend[i].points),
				      &rows[i], stack);
	}
	if (info)
		rc = 0;
	rrd_info_free(info);
	free(argv);
	strbuf_free(&a);
	free(rows);
	free(band);
	return rc;
}

int png_render(const char *path, const struct png_chart *c,
	       const struct png_options *o, struct png_legend *legend,
	       struct perr *e)
{
	return render(path, c, 0, o, legend, e);
}

int png_render_stacked(const char *path, const struct png_chart *c,
		       const struct png_options *o, struct png_legend *legend,
		       struct perr *e)
{
	return render(path, c, 1, o, legend, e);
}

int png_size(const char *path, int *width, int *height, struct perr *e)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n',
					      0x1a, '\n' };
	unsigned char h[24];
	FILE *f = fopen(path, "rb");

	if (!f)
		return perr_set(e, "unable to open '%s': %s", path,
				strerror(errno));
	size_t got = fread(h, 1, sizeof(h), f);
	fclose(f);
	if (got < sizeof(h) || memcmp(h, sig, 8) || memcmp(h + 12, "IHDR", 4))
		return perr_set(e, "'%s' is not a PNG file", path);
	*width = (int)((uint32_t)h[16] << 24 | (uint32_t)h[17] << 16 |
		       (uint32_t)h[18] << 8 | h[19]);
	*height = (int)((uint32_t)h[20] << 24 | (uint32_t)h[21] << 16 |
			(uint32_t)h[22] << 8 | h[23]);
	return 0;
}
