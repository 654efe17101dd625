/*
 * png_int.h - inside export/png*.c only: the rrd_graph argument vector
 * and the text that goes into it (png_args.c), a chart's vector (png.c)
 * for the passes that draw it (png_draw.c), the colour of each series
 * of a chart, and the child process a chart is drawn in (png_apart.c).
 */
#ifndef PERFLOG_PNG_INT_H
#define PERFLOG_PNG_INT_H

#include <stddef.h>

struct perr;
struct png_chart;
struct png_legend;
struct png_options;
struct png_rows;
struct strbuf;
struct units_axis;

/* One chart drawn here, in this process (png_draw.c; png_render and
 * png_render_stacked draw it in a child through png_apart.c, whose TZ is
 * UTC for rrd_graph_v's labels). */
int png_render_here(const char *path, const struct png_chart *c, int stack,
		    const struct png_options *o, struct png_legend *legend,
		    struct perr *e);

/* One element of the vector, printf'ed and ended by its NUL. */
void png_arg(struct strbuf *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* argv for the elements of a (pointing into it), NULL-terminated; *n
 * their count. NULL out of memory. */
char **png_args_vector(const struct strbuf *a, size_t *n);

/* Text safe inside an rrdtool element: ':' escaped, backslashes and
 * control bytes dropped, length bounded. */
char *png_esc(char *buf, size_t n, const char *s);

/* The same cut to max characters (UTF-8 sequences kept whole) with "...",
 * for a marker's text in the legend. */
char *png_esc_cut(char *buf, size_t n, const char *s, size_t max);

/* A file name for a DEF: ':' escaped. */
char *png_esc_path(char *buf, size_t n, const char *s);

/* "#RRGGBB" of the i-th series of a chart: a different colour for each
 * series of one chart (the first PNG_PALETTE from a fixed palette, the
 * rest spread over the hue circle), buf of at least 8 bytes. */
#define PNG_PALETTE 24
const char *png_colour(char *buf, size_t n, size_t i);

/* The k-th session's shade: one palette of light colours of clearly
 * different hues (blue, orange, green, purple, yellow, pink, ...), so
 * a session nested in another stands apart from it; round again after
 * PNG_SESSION_PALETTE. As "#RRGGBB" (buf of at least 8 bytes) for the
 * legend, and as bytes for the image (png_overlay.c). */
#define PNG_SESSION_PALETTE 8
const char *png_session_colour(char *buf, size_t n, size_t k);
void png_session_rgb(unsigned char rgb[3], size_t k);

/* The argument vector of a chart (png.c), for png_draw.c's two passes
 * through rrd_graph_v. png_vec_plan: the chart's checks (series, time
 * range, size) and its series' rows and bands planned (rows[i],
 * band[i]); 0, or -1 with e set. png_vec_numbers: the number of each
 * marker in the picture (num[k], 0 for none): a text once a number, in
 * time order as markers.tsv has them (a session's begin and end carry
 * the same text and share one), the first PNG_MARKER_LABELS texts;
 * returns how many in the picture got none. png_vec_build: a pass's
 * vector into a: the first (fig NULL) PRINTs the figures, the second
 * draws on the axis ax with fig in the legends and the markers
 * numbered num. */
int png_vec_plan(const char *path, const struct png_chart *c, int stack,
		 const struct png_options *o, struct png_rows *rows, int *band,
		 struct perr *e);
size_t png_vec_numbers(const struct png_options *o, int *num);
void png_vec_build(struct strbuf *a, const char *path,
		   const struct png_chart *c, int stack,
		   const struct png_options *o, const struct png_rows *rows,
		   const int *band, const struct png_legend *fig,
		   const struct units_axis *ax, const int *num,
		   size_t unnumbered);

/* What png_overlay draws on a finished chart: the plot (pixels) and
 * the time it spans, the sessions to shade (their times, their
 * colours) and the markers to number. */
struct png_paint_span {
	double begin, end;
	unsigned char rgb[3];
};

struct png_paint_mark {
	double t;
	int num;		/* 0: a rule without a number */
};

struct png_paint {
	long left, top, width, height;
	double start, end;
	const struct png_paint_span *spans;
	size_t nspans;
	const struct png_paint_mark *marks;
	size_t nmarks;
	int digit;		/* the numbers' size: 1 (5x7 pixels), 2 */
};

/* A marker number's white box on the image, in pixels. */
struct png_box {
	long x, y, w, h;
};

/* Where each numbered marker's box goes (box[i] for p->marks[i]; w 0 for
 * a rule without a number): right of its rule at the plot's top, left of
 * it where it would pass the plot's right edge (a run's end marker in
 * the last column had its number over the right axis' 100); taken in
 * time order, each in the first of 4 rows free there, else the row freed
 * first. The marks come in their sets' order (export A B: A's, then B's):
 * a row chosen from the mark before in the list put B's 7 on A's 1.
 * 0, or -1 out of memory. */
int png_number_boxes(const struct png_paint *p, struct png_box *box);

/* Read the PNG at path (libpng), shade each session from its begin to
 * its end on the plot's background pixels (white: the lines and the
 * grid stay as drawn; a later session over an earlier one), draw each
 * marker as a dashed dark red rule at its time with its number in a
 * small white box at the plot's top right of it, and write the image
 * back. 0, or -1 with e set. */
int png_overlay(const char *path, const struct png_paint *p, struct perr *e);

#endif
