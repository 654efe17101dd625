/*
 * lanes.c - the night's lanes under the panes (lanes.h): which sessions
 * ran together, each a bar in its verdict word's colour. Pure: the plan
 * and the cells, no terminal.
 *
 *   CPU  [   ]                       <- last pane
 *        ███w12 disk████████████
 *          ██w6 disk████  ████burn CPU███
 *   12:00:00        12:00:05         <- time axis
 */
#include "lanes.h"

#include <stdio.h>
#include <string.h>

#include "../verdict/verdict.h"

_Static_assert(VL_C_LANE + VERDICT_NKIND == VL_NCOLORS,
	       "a lane colour for each verdict word");

/* Whether spans a and b are one session seen from two hosts: the
 * sessions of two log sets (a client's and its server's, `view CLIENT
 * SERVER`) whose names agree but for the @HOST the viewer adds to each;
 * a session does not make a night with itself (t4020: job@cli and
 * job@srv took two lanes and the panes' rows). Two sessions of one set
 * are never one, whatever their names hold (u@a and u@b). */
static int same_session(const struct vl_span *a, const struct vl_span *b)
{
	const char *na = a->name ? a->name : "", *nb = b->name ? b->name : "";
	const char *x = strrchr(na, '@'), *y = strrchr(nb, '@');

	if (a->src == b->src || !x || !y)
		return 0;
	return x - na == y - nb && !strncmp(na, nb, (size_t)(x - na));
}

size_t vl_lanes_pack(const struct vl_span *spans, size_t n, int *lane)
{
	double end[VL_MAX_LANES * 8];
	size_t last[VL_MAX_LANES * 8];
	size_t used = 0, cap = sizeof(end) / sizeof(end[0]);
	int night = 0;

	for (size_t i = 0; i < n; i++) {
		size_t l = 0;
		while (l < used && end[l] > spans[i].from)
			l++;
		/* a night when it overlaps a bar of another session */
		for (size_t k = 0; k < l && !night; k++)
			night = !same_session(&spans[i], &spans[last[k]]);
		if (l == used && used < cap)
			used++;
		if (l < used) {
			end[l] = spans[i].to;
			last[l] = i;
		}
		lane[i] = (int)l;
	}
	return night ? used : 0;
}

void vl_plan_lanes(struct vl_plan *p, const struct vl_view *v)
{
	int lane[256];
	size_t n = v->nspans < 256 ? v->nspans : 256;
	int need = (int)vl_lanes_pack(v->spans, n, lane);
	int cap = (p->rows - 4) / 4;

	p->lanes_y = p->nlanes = 0;
	if (!p->ok || need == 0 || cap < 1)
		return;
	int l = need < cap ? need : cap;
	l = l < VL_MAX_LANES ? l : VL_MAX_LANES;
	struct vl_plan q;
	vl_plan(p->cols, p->rows - l, p->npanes, v->legend, v->glyphs, &q);
	if (!q.ok)
		return;
	q.rows = p->rows;
	q.axis_row = p->rows - 2;
	q.status_row = p->rows - 1;
	q.lanes_y = q.axis_row - l;
	q.nlanes = l;
	*p = q;
}

/* enum verdict_kind of a word, -1 unknown */
static int kind_of(const char *word)
{
	for (int k = 0; word && *word && k < VERDICT_NKIND; k++)
		if (!strcmp(word, verdict_kind_word((enum verdict_kind)k)))
			return k;
	return -1;
}

void vl_draw_lanes(const struct vl_view *v, const struct vl_plan *p,
		   struct vl_grid *g)
{
	int lane[256], ascii = v->glyphs == VL_ASCII;
	size_t n = v->nspans < 256 ? v->nspans : 256, hidden = 0;

	if (!p->nlanes)
		return;
	vl_lanes_pack(v->spans, n, lane);
	for (size_t i = 0; i < n; i++) {
		const struct vl_span *s = &v->spans[i];
		if (lane[i] >= p->nlanes) {
			hidden++;
			continue;
		}
		if (s->to < v->from || s->from > v->to)
			continue;
		int x0 = vl_time_col(p, v->from, v->to, s->from > v->from ? s->from : v->from);
		int x1 = vl_time_col(p, v->from, v->to, s->to < v->to ? s->to : v->to);
		if (x0 < 0 || x1 < x0)
			continue;
		int y = p->lanes_y + lane[i], k = kind_of(s->word);
		int colour = k >= 0 ? VL_C_LANE + k : VL_C_MARKER;
		/* in colour a solid bar (reverse video), else a line of
		 * blocks or '=' */
		uint32_t ch = !v->mono ? ' ' : ascii ? '=' : 0x2588;
		int attr = !v->mono ? VL_A_REVERSE : 0;
		for (int x = x0; x <= x1; x++)
			vl_grid_put(g, p->plot_x + x, y, ch, colour, attr);
		char label[128];
		snprintf(label, sizeof(label), "%s%s%s", s->name,
			 s->word && *s->word ? " " : "", s->word ? s->word : "");
		vl_grid_words(g, p->plot_x + x0, y, x1 - x0 + 1, label, colour,
			      attr | VL_A_BOLD, ascii);
	}
	if (hidden) {
		char more[24];
		snprintf(more, sizeof(more), "+%zu", hidden);
		vl_grid_text(g, 0, p->lanes_y + p->nlanes - 1, p->plot_x - 1,
			     more, VL_C_AXIS, 0, ascii);
	}
}

short vl_lane_fg(int k, int ncolors)
{
	static const int basic[8][3] = {
		{ 0, 0, 0 }, { 205, 0, 0 }, { 0, 205, 0 }, { 205, 205, 0 },
		{ 0, 0, 238 }, { 205, 0, 205 }, { 0, 205, 205 }, { 229, 229, 229 },
	};
	unsigned rgb[3] = { 0, 0, 0 };
	const char *hex = verdict_kind_colour((enum verdict_kind)k);

	if (sscanf(hex, "#%2x%2x%2x", &rgb[0], &rgb[1], &rgb[2]) != 3)
		return 7;
	if (ncolors >= 256) {
		/* the xterm cube's levels: 0, 95, 135, 175, 215, 255 */
		int lv[3];
		for (int c = 0; c < 3; c++)
			lv[c] = rgb[c] < 48 ? 0 : rgb[c] < 115 ? 1 :
				(int)(rgb[c] - 35) / 40;
		return (short)(16 + 36 * lv[0] + 6 * lv[1] + lv[2]);
	}
	int best = 7;
	long bd = -1;
	for (int c = 0; c < 8; c++) {
		long d = 0;
		for (int j = 0; j < 3; j++)
			d += ((long)rgb[j] - basic[c][j]) * ((long)rgb[j] - basic[c][j]);
		if (bd < 0 || d < bd) {
			bd = d;
			best = c;
		}
	}
	/* black on a dark terminal: the grey of "nothing" is white there */
	return (short)(best == 0 ? 7 : best);
}
