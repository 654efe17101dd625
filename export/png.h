/*
 * png.h - one PNG chart through librrd's rrd_graph_v (no plotting of our
 * own): the series are DEFs on the log set's RRD files, so a user can
 * rebuild any chart with stock `rrdtool graph`.
 *
 * What a chart shows (DESIGN "export --png"):
 * - the title: "HOST: WHAT, FROM to TO UTC"; labels are UTC whatever the
 *   caller's TZ (TZ is set to UTC for the rrd_graph_v call and restored);
 * - the unit on the vertical axis, base 1024 for bytes, 1000 otherwise;
 * - each series as a line (or, stacked, as an area on the ones before)
 *   with its own min/avg/max in the legend (GPRINT of
 *   VDEFs), and the same figures as PRINT results handed back to the
 *   caller (struct png_legend), so they can be checked and written down;
 * - markers as labelled dashed vertical rules (VRULE);
 * - sessions shaded: an AREA of INF where TIME lies in [begin, end] (the
 *   CDEF "x,POP,TIME,b,GE,TIME,e,LE,*,INF,UNKN,IF");
 * - --full-size-mode: width and height are the whole image's.
 * Styling is rrdtool's with a white background and a larger font, for
 * printing.
 */
#ifndef PERFLOG_PNG_H
#define PERFLOG_PNG_H

#include <stddef.h>
#include <time.h>

#include "../common/util.h"

#define PNG_DEFAULT_WIDTH 1000
#define PNG_DEFAULT_HEIGHT 400
#define PNG_MIN_SIZE 200	/* rrdtool cannot lay out smaller images */
#define PNG_MAX_SIZE 10000

struct png_series {
	const char *file;	/* RRD file (path as open()able) */
	const char *ds;		/* data source in it */
	const char *legend;	/* "sda % Disk Time" */
	double scale;		/* values multiplied by this; 0 means 1 */
};

struct png_mark {
	time_t t;
	const char *label;
};

struct png_span {
	time_t begin, end;
	const char *label;
};

struct png_chart {
	const char *what;	/* "CPU", "Disk busy" ... (in the title) */
	const char *vlabel;	/* vertical axis label: "%", "bytes/s" */
	int base;		/* 1024 for bytes, else 1000 */
	double lower;		/* lower limit (NAN: automatic) */
	double upper;		/* upper limit (NAN: automatic); may grow */
	const struct png_series *series;
	size_t nseries;
};

struct png_options {
	const char *host;
	time_t from, to;	/* the time axis */
	int width, height;	/* the image, pixels */
	const struct png_mark *marks;
	size_t nmarks;
	const struct png_span *spans;
	size_t nspans;
};

/* min/avg/max of a series over the chart as rrd_graph_v computed them for
 * the legend (NAN when the series has no known value). */
struct png_legend {
	double min, avg, max;
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

/* Read the width and height from a PNG file's IHDR chunk (checks the
 * signature). Returns 0, or -1 with e set. For tests and callers that
 * verify what they wrote. */
int png_size(const char *path, int *width, int *height, struct perr *e);

#endif
