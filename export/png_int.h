/*
 * png_int.h - inside export/png*.c only: the rrd_graph argument vector
 * and the text that goes into it (png_args.c), the colour of each series
 * of a chart, and the child process a chart is drawn in (png_apart.c).
 */
#ifndef PERFLOG_PNG_INT_H
#define PERFLOG_PNG_INT_H

#include <stddef.h>

struct perr;
struct png_chart;
struct png_legend;
struct png_options;
struct strbuf;

/* One chart drawn here, in this process (png.c; png_render and
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

#endif
