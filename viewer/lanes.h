/*
 * lanes.h - the night on one axis (issue 47 item 3): when sessions of
 * the sets overlap, a lane row under the panes for each set of sessions
 * that ran one after another, each session a bar over its begin..end in
 * the colour of its verdict's first word (verdict.h verdict_kind_colour,
 * the one table the HTML report takes its colours from too), its name
 * and word on it: the reader sees which ran together.
 *
 *   model pass  model_lanes.c  a session's word, from its tree's files
 *                              (logs/treefiles.h) on the wait graph
 *                              (verdict.h): the word the report gives
 *   draw pass   lanes.c        the rows (vl_plan_lanes), the bars
 *                              (vl_draw_lanes), the terminal colour of a
 *                              word (vl_lane_fg): pure
 */
#ifndef PERFLOG_VIEWER_LANES_H
#define PERFLOG_VIEWER_LANES_H

#include <stddef.h>

#include "../logs/markers.h"
#include "layout.h"

/* Lanes take at most this many rows, and a quarter of the panes' rows. */
#define VL_MAX_LANES 8

/* The lane of each span (spans by begin time, as the model keeps the
 * sessions): the first lane whose last bar ended before it began. The
 * lanes used; 0 when no two spans of different sessions overlap (no
 * night: no lanes; NAME@HOST and NAME@OTHER are one session seen from two
 * hosts). */
size_t vl_lanes_pack(const struct vl_span *spans, size_t n, int *lane);
/* Make room for the lanes under the panes when the view's spans overlap:
 * p (vl_plan's for v) planned again with the panes over fewer rows, the
 * lanes between the last pane and the time axis (p->lanes_y, p->nlanes;
 * nlanes 0 when none). */
void vl_plan_lanes(struct vl_plan *p, const struct vl_view *v);
/* The bars of the lanes into g, after vl_render (nothing when
 * p->nlanes is 0); a lane past the rows says how many were left out. */
void vl_draw_lanes(const struct vl_view *v, const struct vl_plan *p,
		   struct vl_grid *g);
/* The terminal colour (ncurses colour number) of verdict kind k
 * (enum verdict_kind) on a terminal of ncolors: the table's colour in
 * the xterm 256-colour cube, or the nearest of the eight. */
short vl_lane_fg(int k, int ncolors);

/* Session ss's verdict word (verdict.h verdict_kind_word) from its tree's
 * files in the set's directory dir, "" when it has none (no end marker,
 * no waits file); host: the set's host. */
void vm_session_word(const char *dir, const char *host,
		     const struct session *ss, char *word, size_t n);

#endif
