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
 *          unit); optional legend table (cur/min/avg/max) on the right
 *   rows-2 time axis
 *   rows-1 status: cursor time and hints, or a message
 *
 * Sub-cell rendering: braille (2x4 dots a cell, one colour a cell) when the
 * terminal has UTF-8 and colour; otherwise ASCII at 1x3 a cell ("_-'" and
 * '|'), with one glyph per line ("*+o#x%") when there is no colour either.
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

#include "../counters/catalog.h"

/* ---- the cell grid ---- */

enum vl_color {
	VL_C_DEFAULT = 0,
	VL_C_SERIES1 = 1,	/* series colours 1..VL_NSERIES_COLORS */
	VL_NSERIES_COLORS = 6,
	VL_C_MARKER = 7,	/* marker lines and labels */
	VL_C_AXIS = 8,		/* axes, ticks, dim text */
	VL_C_TITLE = 9,		/* header and pane titles */
	VL_C_CURSOR = 10,	/* the cursor column */
	VL_C_WARN = 11,		/* messages */
	VL_NCOLORS = 12
};

enum vl_attr {
	VL_A_BOLD = 1,
	VL_A_REVERSE = 2,
	VL_A_SHADE = 4,		/* inside a session: shaded background */
	VL_A_UNDERLINE = 8
};

struct vl_cell {
	uint32_t ch;		/* Unicode code point (ASCII in ASCII mode) */
	uint8_t color;		/* enum vl_color */
	uint8_t attr;		/* enum vl_attr bits */
};

struct vl_grid {
	int w, h;
	struct vl_cell *c;	/* h rows of w cells */
};

/* (Re)size a grid and clear it to spaces; 0 or -1 (out of memory). */
int vl_grid_resize(struct vl_grid *g, int w, int h);
void vl_grid_clear(struct vl_grid *g);
void vl_grid_free(struct vl_grid *g);
struct vl_cell *vl_grid_at(struct vl_grid *g, int x, int y); /* NULL outside */
/* Write UTF-8 text at (x, y), at most maxw cells, clipped to the grid;
 * ascii != 0 replaces non-ASCII characters by '?'. Returns cells written. */
int vl_grid_text(struct vl_grid *g, int x, int y, int maxw, const char *s,
		 int color, int attr, int ascii);
/* The grid's row y as UTF-8 (for tests and the benchmark's null terminal). */
char *vl_grid_row(const struct vl_grid *g, int y, char *buf, size_t n);

/* ---- numbers, units and scales ---- */

/* Format v in its unit for a legend or readout, at most 9 characters:
 * "12.3%", "1.50MB/s", "512KB", "3.2k/s", "0.012s", "940Mb/s", "-" for NAN.
 * Bytes use powers of 1024 (KB, MB, GB, TB). */
char *vl_fmt_value(char *buf, size_t n, double v, enum counter_unit u);
/* Same, at most 5 characters, without the unit's per-second suffix, for the
 * y axis ("100%", "1.5M", "512K", "20G", "0"). */
char *vl_fmt_axis(char *buf, size_t n, double v, enum counter_unit u);
/* Short unit name for a pane title: "%", "B/s", "/s", "bytes", "s", "b/s". */
const char *vl_unit_name(enum counter_unit u);

/* A y scale: lo..hi with ticks every step. */
struct vl_scale {
	double lo, hi, step;
};

/* Nice scale from 0 (or from the data minimum when it is negative) to at
 * least max, with about nticks intervals and a 1-2-5 step (in 1024 powers
 * for bytes). Percent scales stop at 100 unless the data exceed it. A flat
 * or unknown series gets a usable default scale. */
struct vl_scale vl_nice_scale(double min, double max, int nticks,
			      enum counter_unit u);

/* Time tick step (seconds) for a span of `span` seconds over `cols` cells
 * so that labels are at least min_gap cells apart: 1, 2, 5, 10, 15, 30 s,
 * 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h, 1, 2, 7 d. */
long vl_time_step(double span, int cols, int min_gap);

/* ---- series over the window ---- */

/* Rows of one counter as fetched: value of row i at v[i*stride], covering
 * (first + (i-1)*step, first + i*step]. */
struct vl_rows {
	const double *v;
	size_t n, stride;
	time_t first;
	unsigned long step;
};

/* Resample rows onto npts plot columns over [from, to): a column is the
 * mean of the rows stamped inside it, or, when columns are narrower than a
 * row, the row covering its middle; NAN where nothing is known. */
void vl_resample(const struct vl_rows *r, double from, double to,
		 double *out, size_t npts);

struct vl_stats {
	double cur, min, avg, max;	/* NAN when nothing is known */
	size_t n;			/* known rows in the window */
};

/* Newest known value, min, mean and max of the rows stamped in (from, to]. */
struct vl_stats vl_window_stats(const struct vl_rows *r, double from,
				double to);

/* The row covering time t (its stamp is >= t and < t + step); returns the
 * row index or -1, and *stamp its stamp. */
long vl_row_at(const struct vl_rows *r, double t, time_t *stamp);

/* ---- the frame ---- */

enum vl_glyphs { VL_BRAILLE, VL_ASCII };

struct vl_line {
	const char *label;	/* "user", "sda busy", "eth0" */
	int axis;		/* 0 = left scale, 1 = right scale */
	int color;		/* 1..VL_NSERIES_COLORS */
	const double *pts;	/* npts resampled values (vl_plan.dots) */
	struct vl_stats st;	/* over the window */
	double at_cursor;	/* value at the cursor, NAN unknown */
	double ref;		/* reference level in the line's unit (network
				   bandwidth), NAN none: legend shows % of it,
				   plotted as a dashed level when in scale */
};

struct vl_pane {
	char title[96];		/* "CPU", "Disk (host)" */
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

struct vl_plan {
	int cols, rows;
	int ok;			/* 0: terminal too small */
	int plot_x, plot_w;	/* plot cells (x of the first, width) */
	int dots_x, dots_y;	/* dots per cell: 2x4 braille, 1x3 ASCII */
	size_t dots;		/* plot_w * dots_x: points per line */
	int legend_x, legend_w;	/* legend table, legend_w = 0 when none */
	int marker_row, axis_row, status_row;
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

/* A boxed list over the frame (help, session list, counter chooser):
 * title on the border, lines[0..n) with lines[sel] highlighted (sel < 0:
 * none), scrolled so that sel is visible, a footer hint on the bottom
 * border. The box is as wide as the longest line and as tall as fits. */
void vl_overlay(struct vl_grid *g, const char *title, const char *const *lines,
		size_t n, long sel, const char *footer, int ascii);

/* The cursor readout of one pane as text: "user 12.3% priv 4.1% ..." */
char *vl_readout(char *buf, size_t n, const struct vl_pane *pane,
		 int at_cursor);

#endif
