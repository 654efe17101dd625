/*
 * plot.c - a pane's plot in sub-cell dots (plot.h): a canvas of dot masks
 * per cell, one for the lines and one for the bands, then one glyph a
 * cell into the grid. The lines are drawn last to first so the first
 * line's colour wins a shared cell; the bands likewise among themselves,
 * and a line always wins over a band.
 */
#include "plot.h"

#include <math.h>
#include <stdlib.h>

static const uint8_t braille_bit[4][2] = {
	{ 0x01, 0x08 }, { 0x02, 0x10 }, { 0x04, 0x20 }, { 0x40, 0x80 }
};
static const char mono_glyph[] = "*+o#x%@&";

uint32_t vl_mono_glyph(size_t i)
{
	return (uint32_t)mono_glyph[i % 8];
}

/* Per cell: the lines' dots, colour and line, the bands' dots and
 * colour. */
struct canvas {
	int w, h;		/* in cells */
	int dx, dy;		/* dots per cell */
	uint8_t *dots;		/* dot mask (braille) / level mask (ASCII) */
	uint8_t *color;		/* colour of the last line drawn */
	uint8_t *glyph;		/* line index + 1 (mono) */
	uint8_t *band;		/* the bands' dot mask */
	uint8_t *bcolor;	/* colour of the last band drawn */
};

/* Set dot (X, Y) in mask and colour arrays; its cell index, or -1. */
static long canvas_set(struct canvas *cv, uint8_t *mask, uint8_t *color,
		       int X, int Y, int c)
{
	if (X < 0 || Y < 0 || X >= cv->w * cv->dx || Y >= cv->h * cv->dy)
		return -1;
	int cx = X / cv->dx, cy = Y / cv->dy, i = cy * cv->w + cx;
	if (cv->dx == 2)
		mask[i] |= braille_bit[Y % 4][X % 2];
	else
		mask[i] |= (uint8_t)(1 << (Y % cv->dy));
	color[i] = (uint8_t)c;
	return i;
}

static void canvas_dot(struct canvas *cv, int X, int Y, int color, int li)
{
	long i = canvas_set(cv, cv->dots, cv->color, X, Y, color);

	if (i >= 0)
		cv->glyph[i] = (uint8_t)(li + 1);
}

int vl_value_dot(const struct vl_scale *s, double v, int hdots)
{
	double f = (v - s->lo) / (s->hi - s->lo);
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return (int)lround((1 - f) * (hdots - 1));
}

static void draw_line(struct canvas *cv, const struct vl_line *l, size_t n,
		      const struct vl_scale *s, int li)
{
	int hd = cv->h * cv->dy, prev = -1;
	for (size_t i = 0; i < n && (int)i < cv->w * cv->dx; i++) {
		double v = l->pts[i];
		if (isnan(v)) {
			prev = -1;
			continue;
		}
		int y = vl_value_dot(s, v, hd);
		/* join a step from the previous point with a vertical run
		 * in this column so steep changes stay continuous */
		if (prev >= 0 && prev != y) {
			int a = prev < y ? prev : y, b = prev < y ? y : prev;
			for (int yy = a; yy <= b; yy++)
				canvas_dot(cv, (int)i, yy, l->color, li);
		}
		canvas_dot(cv, (int)i, y, l->color, li);
		prev = y;
	}
}

/* The dots of rows y0..y1 (0 = top of the cell) of dot column xo of a
 * cell: braille bits, or level bits in ASCII (dx 1). */
static uint8_t cell_run(const struct canvas *cv, int xo, int y0, int y1)
{
	uint8_t m = 0;

	for (int y = y0; y <= y1; y++)
		m |= cv->dx == 2 ? braille_bit[y][xo] : (uint8_t)(1 << y);
	return m;
}

/* Each point's lo..hi as a run of band dots in its column, a cell at a
 * time (a band may fill the plot: dot by dot would cost the frame). */
static void draw_band(struct canvas *cv, const struct vl_line *l, size_t n,
		      const struct vl_scale *s)
{
	int hd = cv->h * cv->dy;
	uint8_t full[2] = { cell_run(cv, 0, 0, cv->dy - 1),
			    cv->dx == 2 ? cell_run(cv, 1, 0, cv->dy - 1) : 0 };

	if (!l->lo || !l->hi)
		return;
	for (size_t i = 0; i < n && (int)i < cv->w * cv->dx; i++) {
		if (isnan(l->lo[i]) || isnan(l->hi[i]) || l->hi[i] <= l->lo[i])
			continue;
		int top = vl_value_dot(s, l->hi[i], hd);
		int bottom = vl_value_dot(s, l->lo[i], hd);
		int cx = (int)i / cv->dx, xo = (int)i % cv->dx;
		for (int cy = top / cv->dy; cy <= bottom / cv->dy; cy++) {
			int y0 = cy * cv->dy, y1 = y0 + cv->dy - 1;
			size_t k = (size_t)cy * (size_t)cv->w + (size_t)cx;
			cv->band[k] |= top <= y0 && bottom >= y1 ? full[xo] :
				cell_run(cv, xo, (top > y0 ? top : y0) - y0,
					 (bottom < y1 ? bottom : y1) - y0);
			cv->bcolor[k] = (uint8_t)l->color;
		}
	}
}

static uint32_t ascii_glyph(uint8_t mask, int dy)
{
	/* levels bottom (bit dy-1) .. top (bit 0) */
	int n = 0;
	for (int b = 0; b < dy; b++)
		n += (mask >> b) & 1;
	if (n > 1)
		return '|';
	if (mask & 1)
		return '\'';
	if (dy > 2 && (mask & 2))
		return '-';
	return '_';
}

/* The canvas into the grid: a line's glyph where a line passes, else the
 * band's, dimmed. */
static void canvas_cells(const struct canvas *cv, const struct vl_view *v,
			 int x0, int y0, struct vl_grid *g)
{
	for (int cy = 0; cy < cv->h; cy++)
		for (int cx = 0; cx < cv->w; cx++) {
			size_t i = (size_t)cy * (size_t)cv->w + (size_t)cx;
			uint32_t ch;
			if (cv->dots[i]) {
				if (v->mono)
					ch = vl_mono_glyph(cv->glyph[i] - 1u);
				else if (cv->dx == 2)
					ch = 0x2800 + cv->dots[i];
				else
					ch = ascii_glyph(cv->dots[i], cv->dy);
				vl_grid_put(g, x0 + cx, y0 + cy, ch,
					    cv->color[i], 0);
			} else if (cv->band[i]) {
				ch = cv->dx == 2 && !v->mono ?
					0x2800 + cv->band[i] : VL_BAND_ASCII;
				vl_grid_put(g, x0 + cx, y0 + cy, ch,
					    cv->bcolor[i], VL_A_DIM);
			}
		}
}

void vl_plot_pane(const struct vl_view *v, const struct vl_plan *p,
		  const struct vl_pane *pane, const struct vl_pane_geom *pg,
		  const struct vl_scale sc[2], struct vl_grid *g)
{
	struct canvas cv = { p->plot_w, pg->plot_h, p->dots_x, p->dots_y,
			     NULL, NULL, NULL, NULL, NULL };
	size_t ncell = (size_t)cv.w * (size_t)cv.h;
	int ascii = v->glyphs == VL_ASCII;

	cv.dots = calloc(ncell, 5);
	if (!cv.dots)
		return;
	cv.color = cv.dots + ncell;
	cv.glyph = cv.color + ncell;
	cv.band = cv.glyph + ncell;
	cv.bcolor = cv.band + ncell;
	for (size_t i = pane->nlines; i-- > 0;)
		draw_band(&cv, &pane->lines[i], p->dots,
			  &sc[pane->lines[i].axis]);
	for (size_t i = pane->nlines; i-- > 0;)
		draw_line(&cv, &pane->lines[i], p->dots,
			  &sc[pane->lines[i].axis], (int)i);
	canvas_cells(&cv, v, p->plot_x, pg->plot_y, g);
	/* reference levels (bandwidth) where in scale, dashed on empty
	 * cells */
	for (size_t i = 0; i < pane->nlines; i++) {
		const struct vl_line *l = &pane->lines[i];
		const struct vl_scale *s = &sc[l->axis];
		if (isnan(l->ref) || l->ref > s->hi || l->ref < s->lo)
			continue;
		int cy = vl_value_dot(s, l->ref, cv.h * cv.dy) / cv.dy;
		for (int cx = 0; cx < cv.w; cx += 2) {
			size_t k = (size_t)cy * (size_t)cv.w + (size_t)cx;
			if (!cv.dots[k] && !cv.band[k])
				vl_grid_put(g, p->plot_x + cx, pg->plot_y + cy,
					    ascii ? '-' : 0x254c, l->color, 0);
		}
	}
	free(cv.dots);
}
