/*
 * layout.h - the viewer's drawing logic, apart from the terminal (STYLE 12).
 *
 * Data flow of one frame:
 *
 *   model (model.h)            layout (this file)             term (term.h)
 *   fetch RRD rows  --------->  vl_plan: where everything goes
 *   resample to plot dots <---  (plot width in dots)
 *   struct vl_view  --------->  vl_render: cells of a vl_grid --> ncurses
 *
 * Everything here is a pure function of its arguments: no clock, no I/O, no
 * terminal, so scaling, tick placement, sub-cell rendering, marker columns,
 * session shading, legends and the cursor readout are unit-tested
 * (tests/unit/test_view_layout.c) and the benchmark renders frames without a
 * terminal.
 *
 * Screen at 80x24 (rows from the top):
 *   0      header: hosts, window start .. end, span, modes (FOLLOW, PLAY x4)
 *   1      marker row: point labels at their column, sessions as [==name==]
 *   2..    panes, each a title line (name, unit, per line "name value":
 *          the newest value, or the value at the cursor when it is on)
 *          then plot rows; y labels on the left (and right for a second
 *          unit); the legend table on the right (cur/min/avg/max;
 *          cur/avg/max below 100 columns), on unless `L` hides it
 *   rows-2 time axis
 *   rows-1 status: cursor time and hints, or a message
 *
 * Sub-cell rendering (plot.h): braille (2x4 dots a cell, one colour a
 * cell) when the terminal has UTF-8 and colour; otherwise ASCII at 1x3 a
 * cell ("_-'" and '|'), with one glyph per line ("*+o#x%") when there is
 * no colour either. Behind each line, where a plot column holds more than
 * one sample, its band: the lowest..highest of those samples, dimmed
 * braille dots or '.' cells; the y scale takes the bands in, so the peak
 * of any row is on screen at any zoom.
 *
 * Time: plot dot column i of n covers [from + i*dt, from + (i+1)*dt) with
 * dt = (to - from) / n. A data row stamped t covers (t - step, t] (the RRD
 * convention of logs/logset.h).
 */
#ifndef PERFLOG_VIEWER_LAYOUT_H
#define PERFLOG_VIEWER_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "../counters/counters.h"
#include "grid.h"
#include "scale.h"
#include "series.h"

/* ---- the frame ---- */

enum vl_glyphs { VL_BRAILLE, VL_ASCII };

struct vl_line {
	const char *label;	/* "user", "sda busy", "eth0" */
	int axis;		/* 0 = left scale, 1 = right scale */
	int color;		/* 1..VL_NSERIES_COLORS */
	const double *pts;	/* npts resampled values (vl_plan.dots) */
	const double *lo, *hi;	/* each point's band (series.h), NULL none */
	struct vl_stats st;	/* over the window */
	double at_cursor;	/* value at the cursor, NAN unknown */
	double at_lo, at_hi;	/* the MIN and MAX of the cursor's row when
				   it is a consolidation, else NAN */
	double ref;		/* reference level in the line's unit (network
				   bandwidth), NAN none: legend shows % of it,
				   plotted as a dashed level when in scale */
};

struct vl_pane {
	char title[128];	/* "CPU", "Disk (host)" */
	enum counter_unit unit[2];
	int has_axis[2];	/* lines on this axis exist */
	struct vl_line *lines;
	size_t nlines;
};

struct vl_mark {
	double t;
	const char *label;	/* may be NULL */
};

struct vl_span {
	double from, to;
	const char *name;
	const char *word;	/* its verdict's first word, "" unknown
				 * (lanes.h) */
	size_t src;		/* the log set it is from: a session of two
				 * sets may be one seen from two hosts */
};

struct vl_view {
	double from, to;	/* the window, seconds since the epoch */
	const char *header;	/* row 0, left part */
	const char *modes;	/* row 0, right part ("FOLLOW PLAY x4") */
	const char *status;	/* last row; NULL = key hints */
	enum vl_glyphs glyphs;
	int mono;		/* no colour: per-line glyphs */
	int legend;		/* legend table on the right */
	int cursor_on;
	double cursor;		/* time of the cursor (a row stamp) */
	int focus;		/* focused pane index (title reversed) */
	const struct vl_pane *panes;
	size_t npanes;
	const struct vl_mark *marks;
	size_t nmarks;
	const struct vl_span *spans;
	size_t nspans;
	int utc;		/* time labels in UTC rather than local time */
};

struct vl_pane_geom {
	int y;			/* title row */
	int plot_y, plot_h;	/* plot rows */
};

#define VL_MAX_PANES 32
/* the legend table's width below 100 columns: a mark, the label (7) and
 * three value columns of 7 (cur, avg, max) */
#define VL_LEGEND_NARROW 30

struct vl_plan {
	int cols, rows;
	int ok;			/* 0: terminal too small */
	int plot_x, plot_w;	/* plot cells (x of the first, width) */
	int dots_x, dots_y;	/* dots per cell: 2x4 braille, 1x3 ASCII */
	size_t dots;		/* plot_w * dots_x: points per line */
	int legend_x, legend_w;	/* legend table, legend_w = 0 when none */
	int marker_row, axis_row, status_row;
	int lanes_y, nlanes;	/* the night's lanes (lanes.h), 0 none */
	size_t npanes;
	struct vl_pane_geom pane[VL_MAX_PANES];
};

/* Geometry for a cols x rows screen with npanes panes (at most
 * VL_MAX_PANES; more are not shown). */
void vl_plan(int cols, int rows, size_t npanes, int legend,
	     enum vl_glyphs glyphs, struct vl_plan *p);

/* Plot cell column of time t, or -1 when outside the window. */
int vl_time_col(const struct vl_plan *p, double from, double to, double t);
/* Time at the middle of plot cell column x. */
double vl_col_time(const struct vl_plan *p, double from, double to, int x);

/* Draw a whole frame into g (resized to the plan). */
int vl_render(const struct vl_view *v, const struct vl_plan *p,
	      struct vl_grid *g);

/* The cursor readout of one pane as text: "user 12.3%  priv 4.1% ...";
 * at the cursor, a consolidated row's range after its average:
 * "user 12.3% (2.0%..97.0%)". */
char *vl_readout(char *buf, size_t n, const struct vl_pane *pane,
		 int at_cursor);

#endif
