/*
 * plot.h - a pane's plot area in sub-cell dots, for layout.c (the draw
 * pass; STYLE 12): each line's points, the band of each point behind it,
 * reference levels. Pure: a canvas of dots in memory, then cells of the
 * grid.
 *
 * Dots: braille gives 2x4 a cell (one colour a cell), ASCII 1x3 ("_-'"
 * and '|' where a cell holds more than one level). A cell the line passes
 * through shows the line; a cell only the band covers shows the band in
 * the series' colour, dimmed (VL_A_DIM): braille dots of the band's
 * extent, or '.' in ASCII (with or without colour). The band is a point's
 * lowest..highest (series.h: the rows a plot column holds, or the MIN and
 * MAX of a consolidated row), so a peak stays visible at any zoom.
 */
#ifndef PERFLOG_VIEWER_PLOT_H
#define PERFLOG_VIEWER_PLOT_H

#include <stdint.h>

#include "layout.h"

#define VL_BAND_ASCII '.'	/* the band's cell in ASCII and mono */

/* Dot row of value v on scale s (0 = top) in a plot hdots high, clamped
 * to the plot. */
int vl_value_dot(const struct vl_scale *s, double v, int hdots);

/* The glyph of line i when there is no colour ("*+o#x%@&"). */
uint32_t vl_mono_glyph(size_t i);

/* Draw pane's lines (the first on top), each over its band, and the
 * reference levels in scale, into the plot cells of pane geometry pg. */
void vl_plot_pane(const struct vl_view *v, const struct vl_plan *p,
		  const struct vl_pane *pane, const struct vl_pane_geom *pg,
		  const struct vl_scale sc[2], struct vl_grid *g);

#endif
