/*
 * grid.h - the viewer's cell grid (after tmux's grid.c): a frame is drawn
 * into cells (a code point, a colour, attributes), and term.c is the one
 * module that copies cells to the terminal. Pure memory: tests and the
 * benchmark read a frame back as text (vl_grid_row).
 */
#ifndef PERFLOG_VIEWER_GRID_H
#define PERFLOG_VIEWER_GRID_H

#include <stddef.h>
#include <stdint.h>

enum vl_color {
	VL_C_DEFAULT = 0,
	VL_C_SERIES1 = 1,	/* series colours 1..VL_NSERIES_COLORS */
	VL_NSERIES_COLORS = 6,
	VL_C_MARKER = 7,	/* marker lines and labels */
	VL_C_AXIS = 8,		/* axes, ticks, dim text */
	VL_C_TITLE = 9,		/* header and pane titles */
	VL_C_CURSOR = 10,	/* the cursor column */
	VL_C_WARN = 11,		/* messages */
	VL_C_LANE = 12,		/* the night's lanes (lanes.h): the five
				 * verdict words' colours, 12..16, in
				 * enum verdict_kind order */
	VL_NCOLORS = 17
};

enum vl_attr {
	VL_A_BOLD = 1,
	VL_A_REVERSE = 2,
	VL_A_SHADE = 4,		/* inside a session: shaded background */
	VL_A_UNDERLINE = 8,
	VL_A_DIM = 16		/* a band behind its line (plot.h): fainter */
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
/* The same for a label that must not be cut mid-word (a session's name,
 * a series' label): the whole of s when it fits maxw cells, else its
 * longest run of whole words (split at spaces) that does, else nothing.
 * Returns cells written. */
int vl_grid_words(struct vl_grid *g, int x, int y, int maxw, const char *s,
		  int color, int attr, int ascii);
/* Cells s takes (UTF-8 characters). */
int vl_text_cells(const char *s);
/* The grid's row y as UTF-8 (for tests and the benchmark's null terminal). */
char *vl_grid_row(const struct vl_grid *g, int y, char *buf, size_t n);

/* Set the cell at (x, y) (nothing outside the grid), keeping its session
 * shading. */
void vl_grid_put(struct vl_grid *g, int x, int y, uint32_t ch, int color,
		 int attr);

/* A boxed list over the frame (help, session list, counter chooser):
 * title on the border, lines[0..n) with lines[sel] highlighted (sel < 0:
 * none), scrolled so that sel is visible, a footer hint on the bottom
 * border. The box is as wide as the longest line and as tall as fits. */
void vl_overlay(struct vl_grid *g, const char *title, const char *const *lines,
		size_t n, long sel, const char *footer, int ascii);

#endif
