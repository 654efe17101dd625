/*
 * png.h - one PNG chart through librrd's rrd_graph_v (no plotting of our
 * own): the series are DEFs on the log set's RRD files, so a user can
 * rebuild any chart with stock `rrdtool graph`.
 *
 * What a chart shows (DESIGN "export --png"):
 * - the title: "HOST: WHAT, FROM to TO UTC"; labels are UTC whatever the
 *   caller's TZ (drawn in a child process whose TZ is UTC: the caller's
 *   environment is never changed, png_apart.c);
 * - the vertical axis in a unit a reader knows, plain numbers (no SI
 *   prefix): bytes in the power of 1024 of the largest value ("MiB/s"),
 *   seconds in ms, percent 0..100 (counters/units.h), the same scale on
 *   the right (it also gives the last time label its room);
 * - each series as a line (or, stacked, as an area on the ones before)
 *   with its own min/avg/max in the legend, written as the report writes
 *   them (units_fmt: "11.3 MiB/s", "0.27 ms"), from a first pass that
 *   PRINTs the VDEFs and draws nothing; the same figures are handed back
 *   to the caller (struct png_legend), so they can be checked and
 *   written down; a colour of its own for every series of a chart;
 * - behind each line (not stacked areas: the lowest and highest of a
 *   share do not add up), the band of its points: each point's lowest
 *   and highest sample, an invisible AREA at the low and a translucent
 *   AREA of high - low stacked on it. A point is `--step` seconds, at
 *   least a pixel column, so no row falls between two columns. When
 *   librrd reads a consolidated archive (1 minute, 1 hour) the band is
 *   its MIN and MAX archives (DEF ...:MIN, ...:MAX); when it reads single
 *   samples, the AVERAGE rows reduced with MIN and MAX (DEF
 *   ...:AVERAGE:reduce=MIN). The legend's min and max are the band's
 *   (the highest sample, not the highest average), and a line under the
 *   legends says what the points are ("avg of 1 min rows, band
 *   min..max", png_rows_note);
 * - markers as dashed vertical rules at their time (to the millisecond,
 *   drawn with the shading: png_overlay.c), numbered at the plot's top
 *   (a marker's text once a number: a session's begin and end share
 *   it), each number's text listed whole under the legends, wrapped to
 *   the image's width; every legend is given as "legend=TEXT", so a text
 *   like "color=#0F0" or "legend=X" is drawn as it is, never taken for
 *   one of librrd's options;
 * - another host's set on the reference clock: every DEF followed by
 *   SHIFT:vname:shift (rrd_graph fetches [from - shift, to - shift] and
 *   moves it), marks and spans given on the reference clock already;
 * - sessions shaded from the begin marker's time to the end's, to the
 *   pixel, each in its own colour of one palette (png_session_colour)
 *   by its place among the sessions drawn,
 *   an inner session over the outer; librrd has only rows to shade by
 *   (a row holding the begin was shaded whole: a row early), so the
 *   shading and the markers' numbers are drawn on the finished image
 *   (png_overlay.c, libpng) onto the plot's background pixels, the
 *   lines and the grid left as librrd drew them; the legend has each
 *   session's colour;
 * - a percent axis from 0 to a little above 100 (or above the highest
 *   value), so a series at 100% is not lost in the plot's top border;
 * - a series with share_of drawn as its share of its group's sum at
 *   each point (the wait states: the threads' time split into states,
 *   0..100%, as the report gives it; stacked, it reached 1000% for ten
 *   threads);
 * - --full-size-mode: width and height are the whole image's.
 * Styling is rrdtool's with a white background and a larger font, for
 * printing.
 */
#ifndef PERFLOG_PNG_H
#define PERFLOG_PNG_H

#include <stddef.h>
#include <time.h>

#include "../common/util.h"
#include "../counters/counters.h"

struct strbuf;

#define PNG_DEFAULT_WIDTH 1000
#define PNG_DEFAULT_HEIGHT 400
#define PNG_MIN_SIZE 200	/* rrdtool cannot lay out smaller images */
#define PNG_MAX_SIZE 10000

struct png_series {
	const char *file;	/* RRD file (path as open()able) */
	const char *ds;		/* data source in it */
	const char *legend;	/* "sda % Disk Time" */
	double scale;		/* values multiplied by this; 0 means 1 */
	unsigned long step;	/* the file's step (the log set's interval),
				   to tell consolidated rows; 0: unknown */
	int share_of;		/* 0; k > 0: drawn as its percent of the sum
				   of the chart's series with share_of k at
				   each point (the unit is then a percent) */
	long shift;		/* seconds added to this series' times, on top
				   of png_options.shift (a second run laid
				   over the first: export --png A B) */
};

struct png_mark {
	double t;		/* the marker's time, milliseconds kept */
	const char *label;
};

struct png_span {
	double begin, end;	/* the markers' times, milliseconds kept */
	const char *label;
};

struct png_chart {
	const char *what;	/* "CPU", "Disk busy" ... (in the title) */
	const char *vlabel;	/* vertical axis label ("% of one CPU");
				   catalog_unit_label(unit) or "": the
				   axis unit ("MiB/s", units_axis_of) */
	enum counter_unit unit;	/* every series' (the legends' format, the
				   axis' unit) */
	double lower;		/* lower limit (NAN: automatic), in unit */
	double upper;		/* upper limit (NAN: automatic); may grow */
	const struct png_series *series;
	size_t nseries;
};

struct png_options {
	const char *host;	/* in the title (with a clock note when shifted) */
	time_t from, to;	/* the time axis (the reference clock) */
	int width, height;	/* the image, pixels */
	const struct png_mark *marks;
	size_t nmarks;
	const struct png_span *spans;
	size_t nspans;
	struct strbuf *legends;	/* when not NULL: every legend text drawn
				   (series, sessions, markers), one a line */
	long shift;		/* seconds added to the files' times: each DEF
				   is SHIFTed, so another host's set draws on
				   the reference clock (logs/align.h); last,
				   so positional initializers stay valid */
	struct png_frame *frame;	/* when not NULL: where librrd
				   drew the plot (for tests) */
};

/* The plot inside the image, as rrd_graph_v says it drew it: pixels from
 * the left and the top, the time it spans, and the vertical axis' range
 * in the axis unit. */
struct png_frame {
	long graph_left, graph_width, image_width;
	long graph_top, graph_height, image_height;
	long graph_start, graph_end;
	double value_min, value_max;
};

/* min/avg/max of a series over the chart as rrd_graph_v computed them for
 * the legend (NAN when the series has no known value): with a band, min
 * and max are the lowest and highest sample, avg the average's; and what
 * its points are (png_rows_note; "" when librrd could not say), and the
 * legend's text of the maximum. */
struct png_legend {
	double min, avg, max;
	char points[64];
	char max_text[40];	/* the legend's "max" as drawn: "max 22.9 MiB/s" */
};

/* Draw one chart into path (written in place by librrd). legend, when
 * not NULL, has room for c->nseries entries. Returns 0, or -1 with the
 * librrd error in e. */
int png_render(const char *path, const struct png_chart *c,
	       const struct png_options *o, struct png_legend *legend,
	       struct perr *e);

/* The same with the series stacked: areas, each on the ones before (the
 * shares of a whole); the legends keep each series' own figures. */
int png_render_stacked(const char *path, const struct png_chart *c,
		       const struct png_options *o, struct png_legend *legend,
		       struct perr *e);

/* What a chart's points are (png_rows.c). rrd_graph reads, for a point
 * of `point` seconds, the archive whose step is nearest among those that
 * cover the span, then consolidates its rows into points. */
struct png_rows {
	unsigned long point;	/* seconds a point of the graph covers */
	unsigned long archive;	/* step of the archive read */
	unsigned long base;	/* the file's own step, 0: unknown */
	int minmax;		/* MIN and MAX archives at that step */
};

/* The seconds a point covers on a chart of these options (--step): the
 * span over the plot's width, which is the image's less the axes and
 * margins rrd_graph takes (at most 160 pixels, at least a quarter), so
 * every point gets a pixel column. At least 1. */
unsigned long png_point_step(const struct png_options *o);

/* Ask librrd which archive of file a graph over [from, to] with points
 * of `point` seconds reads (rrd_fetch_r with the same span and step, as
 * rrd_graph's DEF does), and whether MIN and MAX sit beside it. base is
 * the file's own step when known (else 0). 0, or -1 with e set. */
int png_rows_of(const char *file, time_t from, time_t to, unsigned long point,
		unsigned long base, struct png_rows *r, struct perr *e);

/* 1 when the points hold more than one sample (a band has height): the
 * archive's rows are consolidations, or a point holds several rows. */
int png_rows_band(const struct png_rows *r);

/* What the points are, for a legend or a report: "1 s rows" (each point
 * one sample), "avg of 1 s rows, band min..max" (several rows a point),
 * "avg of 1 min rows, band min..max" (consolidated rows); for a stacked
 * chart, which has no band, "avg of 1 min rows". */
char *png_rows_note(char *buf, size_t n, const struct png_rows *r,
		    int stacked);

/* Read the width and height from a PNG file's IHDR chunk (checks the
 * signature). Returns 0, or -1 with e set. For tests and callers that
 * verify what they wrote. */
int png_size(const char *path, int *width, int *height, struct perr *e);

#endif
