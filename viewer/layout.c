/*
 * layout.c - the layout proper: where a frame's parts go (vl_plan) and
 * drawing them into the cell grid: sub-cell plots, y and time axes,
 * markers, sessions, legends, the cursor. See layout.h for the screen map
 * and the time conventions; grid.c holds the cells, scale.c the numbers
 * and series.c the rows. Nothing here knows about ncurses, files or the
 * clock.
 */
#include "layout.h"
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- geometry ---- */

#define AXIS_W 6	/* y labels: 5 characters and a space */

void vl_plan(int cols, int rows, size_t npanes, int legend,
	     enum vl_glyphs glyphs, struct vl_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->cols = cols;
	p->rows = rows;
	if (npanes > VL_MAX_PANES)
		npanes = VL_MAX_PANES;
	p->dots_x = glyphs == VL_BRAILLE ? 2 : 1;
	p->dots_y = glyphs == VL_BRAILLE ? 4 : 3;
	p->marker_row = 1;
	p->axis_row = rows - 2;
	p->status_row = rows - 1;
	int avail = rows - 4;	/* header, marker row, axis, status */
	/* each pane needs a title and at least one plot row; drop panes that
	 * do not fit rather than draw them unreadably */
	while (npanes > 0 && avail < (int)npanes * 2)
		npanes--;
	if (cols < 30 || npanes == 0) {
		p->ok = 0;
		return;
	}
	p->ok = 1;
	p->npanes = npanes;
	p->legend_w = 0;
	if (legend) {
		/* name (8) + four value columns of 7 (9 when wide); below 100
		 * columns three (cur, avg, max: issue 49, each pane's numbers
		 * readable at 80x24 beside a plot of 38 cells) */
		int lw = cols >= 160 ? 44 : cols >= 100 ? 36 : VL_LEGEND_NARROW;
		if (cols - lw - 2 * AXIS_W >= 30)
			p->legend_w = lw;
	}
	p->plot_x = AXIS_W;
	p->plot_w = cols - AXIS_W - AXIS_W - p->legend_w;
	p->legend_x = p->plot_x + p->plot_w + AXIS_W;
	p->dots = (size_t)p->plot_w * (size_t)p->dots_x;
	int y = 2;
	int each = avail / (int)npanes, extra = avail % (int)npanes;
	for (size_t i = 0; i < npanes; i++) {
		int h = each + ((int)i < extra ? 1 : 0);
		p->pane[i].y = y;
		p->pane[i].plot_y = y + 1;
		p->pane[i].plot_h = h - 1;
		y += h;
	}
}

int vl_time_col(const struct vl_plan *p, double from, double to, double t)
{
	if (t < from || t > to || to <= from)
		return -1;
	int x = (int)floor((t - from) / (to - from) * p->plot_w);
	if (x >= p->plot_w)
		x = p->plot_w - 1;
	return x;
}

double vl_col_time(const struct vl_plan *p, double from, double to, int x)
{
	return from + ((double)x + 0.5) * (to - from) / p->plot_w;
}

/* ---- rendering ---- */

static void fmt_time(char *buf, size_t n, double t, long step, int utc)
{
	time_t tt = (time_t)floor(t);
	struct tm tm;
	if (utc)
		gmtime_r(&tt, &tm);
	else
		localtime_r(&tt, &tm);
	if (step >= 86400)
		strftime(buf, n, "%b %d", &tm);
	else if (step >= 60)
		strftime(buf, n, "%H:%M", &tm);
	else
		strftime(buf, n, "%H:%M:%S", &tm);
}

static void draw_time_axis(const struct vl_view *v, const struct vl_plan *p,
			   struct vl_grid *g, int ascii)
{
	double span = v->to - v->from;
	long step = vl_time_step(span, p->plot_w, 10);
	int y = p->axis_row;
	for (int x = 0; x < p->plot_w; x++)
		vl_grid_put(g, p->plot_x + x, y, ascii ? '-' : 0x2500, VL_C_AXIS, 0);
	/* ticks at multiples of step in the displayed time zone */
	long off = 0;
	if (!v->utc) {
		time_t t0 = (time_t)v->from;
		struct tm tm;
		localtime_r(&t0, &tm);
		off = tm.tm_gmtoff;
	}
	double t = ceil((v->from + (double)off) / (double)step) * (double)step
		   - (double)off;
	int last_end = -1;
	char lab[32];
	for (; t <= v->to; t += (double)step) {
		int x = vl_time_col(p, v->from, v->to, t);
		if (x < 0)
			continue;
		fmt_time(lab, sizeof(lab), t, step, v->utc);
		int len = (int)strlen(lab);
		int lx = p->plot_x + x;
		vl_grid_put(g, lx, y, ascii ? '+' : 0x253c, VL_C_AXIS, 0);
		if (lx + 1 > last_end && x + 1 + len <= p->plot_w + AXIS_W) {
			vl_grid_text(g, lx + 1, y, len, lab, VL_C_AXIS, 0, 1);
			last_end = lx + 1 + len;
		}
	}
}

/* A vertical line in plot column x through every pane, on empty cells. */
static void column_line(const struct vl_plan *p, struct vl_grid *g, int x,
			int ascii)
{
	for (size_t k = 0; k < p->npanes; k++)
		for (int yy = p->pane[k].plot_y;
		     yy < p->pane[k].plot_y + p->pane[k].plot_h; yy++) {
			struct vl_cell *c = vl_grid_at(g, p->plot_x + x, yy);
			if (c && c->ch == ' ')
				vl_grid_put(g, p->plot_x + x, yy,
					    ascii ? '|' : 0x2502, VL_C_MARKER, 0);
		}
}

/* A span's first and last column in the window; 0 when out of it. */
static int span_cols(const struct vl_view *v, const struct vl_plan *p,
		     const struct vl_span *s, int *xa, int *xb)
{
	if (s->to < v->from || s->from > v->to)
		return 0;
	*xa = vl_time_col(p, v->from, v->to, s->from < v->from ? v->from : s->from);
	*xb = vl_time_col(p, v->from, v->to, s->to > v->to ? v->to : s->to);
	return *xa >= 0 && *xb >= 0;
}

/* A session: its plot columns shaded, its edges drawn where they are in
 * the window, its span bracketed on the marker row (its name goes in
 * after every bar is drawn: session_name). A session that begins in
 * the column of an enclosing one's '[' or the next (the demo's sets a
 * second into its run) takes that bracket as its own: two read '[['.
 * Its bar starts after the bracket either way: drawn from its own column
 * it put '=' over a '[' in that column (a set beginning in the run's
 * column once the legend narrowed the plot, or view A B's twin sessions,
 * read 'a===' and 'B full==='). */
static void draw_session(const struct vl_view *v, const struct vl_plan *p,
			 struct vl_grid *g, int ascii, const struct vl_span *s)
{
	int y = p->marker_row, xa, xb;

	if (!span_cols(v, p, s, &xa, &xb))
		return;
	for (size_t k = 0; k < p->npanes; k++)
		for (int yy = p->pane[k].plot_y;
		     yy < p->pane[k].plot_y + p->pane[k].plot_h; yy++)
			for (int x = xa; x <= xb; x++) {
				struct vl_cell *c = vl_grid_at(g, p->plot_x + x, yy);
				if (c)
					c->attr |= VL_A_SHADE;
			}
	if (s->from >= v->from && s->from <= v->to)
		column_line(p, g, xa, ascii);
	if (s->to >= v->from && s->to <= v->to)
		column_line(p, g, xb, ascii);
	struct vl_cell *at = vl_grid_at(g, p->plot_x + xa, y);
	struct vl_cell *before = xa > 0 ? vl_grid_at(g, p->plot_x + xa - 1, y) : NULL;
	int opened = (at && at->ch == '[') || (before && before->ch == '[');
	for (int x = xa + opened; x <= xb; x++)
		vl_grid_put(g, p->plot_x + x, y, ascii ? '=' : 0x2550,
			    VL_C_MARKER, 0);
	if (s->from >= v->from && !opened)
		vl_grid_put(g, p->plot_x + xa, y, '[', VL_C_MARKER, VL_A_BOLD);
	if (s->to <= v->to)
		vl_grid_put(g, p->plot_x + xb, y, ']', VL_C_MARKER, VL_A_BOLD);
}

/* Session i's name on its bar: in the first stretch of its own bar (no
 * bracket, no session inside it) that holds the whole name, else in the
 * longest, cut at a word; an enclosing session's name so goes where its
 * sessions leave room, not over the first one's. */
static void session_name(const struct vl_view *v, const struct vl_plan *p,
			 struct vl_grid *g, int ascii, size_t i)
{
	const struct vl_span *s = &v->spans[i];
	int xa, xb, want, run = 0, best = 0, best_x = 0, fit_x = -1;
	uint32_t bar = ascii ? '=' : 0x2550;

	if (!s->name || !*s->name || !span_cols(v, p, s, &xa, &xb))
		return;
	want = vl_text_cells(s->name);
	for (int x = xa; x <= xb + 1 && fit_x < 0; x++) {
		struct vl_cell *c = x <= xb ? vl_grid_at(g, p->plot_x + x, p->marker_row) : NULL;
		int open_cell = c && c->ch == bar;
		for (size_t j = 0; open_cell && j < v->nspans; j++) {
			int ja, jb;
			/* a session inside this one (the later of two alike) */
			if (j != i && v->spans[j].from >= s->from &&
			    v->spans[j].to <= s->to &&
			    (j > i || v->spans[j].from > s->from ||
			     v->spans[j].to < s->to) &&
			    span_cols(v, p, &v->spans[j], &ja, &jb) &&
			    x >= ja && x <= jb)
				open_cell = 0;
		}
		if (open_cell) {
			run++;
			continue;
		}
		if (run >= want)
			fit_x = x - run;
		if (run > best) {
			best = run;
			best_x = x - run;
		}
		run = 0;
	}
	if (fit_x >= 0)
		vl_grid_text(g, p->plot_x + fit_x, p->marker_row, want, s->name,
			     VL_C_MARKER, VL_A_BOLD, ascii);
	else if (best >= 3)
		vl_grid_words(g, p->plot_x + best_x, p->marker_row, best,
			      s->name, VL_C_MARKER, VL_A_BOLD, ascii);
}

/* Room for marker i's label: up to the next marker's column or the next
 * session's start, whichever comes first. */
static int label_room(const struct vl_view *v, const struct vl_plan *p,
		      size_t i, int x)
{
	int lx = p->plot_x + x, room = p->cols - lx - 1;

	for (size_t j = i + 1; j < v->nmarks; j++) {
		int nx = vl_time_col(p, v->from, v->to, v->marks[j].t);
		if (nx > x) {
			if (p->plot_x + nx - lx - 2 < room)
				room = p->plot_x + nx - lx - 2;
			break;
		}
	}
	for (size_t j = 0; j < v->nspans; j++) {
		int sx = vl_time_col(p, v->from, v->to, v->spans[j].from);
		if (sx > x && p->plot_x + sx - lx - 2 < room)
			room = p->plot_x + sx - lx - 2;
	}
	return room;
}

/* Sessions first, then point markers: a vertical line through every pane
 * where the plot is empty, the label on the marker row after a down
 * arrow, left out where it would overlap the previous one. */
static void draw_marks(const struct vl_view *v, const struct vl_plan *p,
		       struct vl_grid *g, int ascii)
{
	int last_end = -1;

	for (size_t i = 0; i < v->nspans; i++)
		draw_session(v, p, g, ascii, &v->spans[i]);
	for (size_t i = 0; i < v->nspans; i++)
		session_name(v, p, g, ascii, i);
	for (size_t i = 0; i < v->nmarks; i++) {
		const struct vl_mark *m = &v->marks[i];
		int x = vl_time_col(p, v->from, v->to, m->t);
		if (x < 0)
			continue;
		column_line(p, g, x, ascii);
		int lx = p->plot_x + x;
		if (lx <= last_end)
			continue;	/* would overlap the previous label */
		vl_grid_put(g, lx, p->marker_row, ascii ? 'v' : 0x25bc,
			    VL_C_MARKER, VL_A_BOLD);
		int room = label_room(v, p, i, x), len = 0;
		if (m->label && room > 0)
			len = vl_grid_words(g, lx + 1, p->marker_row, room,
					    m->label, VL_C_MARKER, VL_A_BOLD, ascii);
		last_end = lx + len;
	}
}

/* " (lo..hi)" of a consolidated row at the cursor, in the axis form;
 * nothing when the row is not one or is flat. */
static int readout_range(char *buf, size_t n, const struct vl_line *l,
			 enum counter_unit u)
{
	char a[16], b[16];

	if (isnan(l->at_lo) || isnan(l->at_hi) || !(l->at_lo < l->at_hi))
		return 0;	/* not consolidated, or a flat row */
	vl_fmt_axis(a, sizeof(a), l->at_lo, u);
	vl_fmt_axis(b, sizeof(b), l->at_hi, u);
	return snprintf(buf, n, " (%s..%s)", a, b);
}

char *vl_readout(char *buf, size_t n, const struct vl_pane *pane,
		 int at_cursor)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < pane->nlines && k + 1 < n; i++) {
		const struct vl_line *l = &pane->lines[i];
		enum counter_unit u = pane->unit[l->axis];
		char val[32];
		double x = at_cursor ? l->at_cursor : l->st.cur;
		vl_fmt_value(val, sizeof(val), x, u);
		int w = snprintf(buf + k, n - k, "%s%s %s", i ? "  " : "",
				 l->label, val);
		if (w < 0)
			break;
		k += (size_t)w;
		if (at_cursor && !isnan(x) && k < n) {
			w = readout_range(buf + k, n - k, l, u);
			if (w > 0)
				k += (size_t)w;
		}
		if (!isnan(l->ref) && l->ref > 0 && !isnan(x) && k < n) {
			w = snprintf(buf + k, n - k, " (%.0f%%)",
				     100 * x / l->ref);
			if (w > 0)
				k += (size_t)w;
		}
		if (k >= n) {
			k = n - 1;
			break;
		}
	}
	return buf;
}

/* A legend value in at most w characters: without the unit's "/s" (the
 * pane title names the unit; one row said "300.0  60.0/s  300.0"), else
 * the axis form. */
static char *legend_value(char *buf, size_t n, double v, enum counter_unit u,
			  int w)
{
	vl_fmt_value(buf, n, v, u);
	size_t len = strlen(buf);
	if (len > 2 && !strcmp(buf + len - 2, "/s"))
		buf[len - 2] = '\0';
	if ((int)strlen(buf) > w)
		vl_fmt_axis(buf, n, v, u);
	return buf;
}

static void draw_legend(const struct vl_pane *pane, const struct vl_plan *p,
			const struct vl_pane_geom *pg, struct vl_grid *g,
			int ascii, int mono)
{
	int x = p->legend_x, w = p->legend_w, labw = 6, ncol = 4;
	/* the labels' column as wide as the longest label, taken from the
	 * value columns (the min column goes first) down to 6 cells each */
	for (size_t i = 0; i < pane->nlines; i++) {
		int l = pane->lines[i].label ? vl_text_cells(pane->lines[i].label) : 0;
		if (l > labw)
			labw = l;
	}
	if (labw > w - 2 - 4 * 6 || w <= VL_LEGEND_NARROW)
		ncol = 3;
	if (labw > w - 2 - ncol * 6)
		labw = w - 2 - ncol * 6;
	int vw = (w - 2 - labw) / ncol;
	if (vw < 6)
		return;
	char line[128], a[32], b[32], c[32], d[32];
	if (ncol == 4)
		snprintf(line, sizeof(line), "%-*s %*s%*s%*s%*s", labw + 1, "",
			 vw, "cur", vw, "min", vw, "avg", vw, "max");
	else
		snprintf(line, sizeof(line), "%-*s %*s%*s%*s", labw + 1, "",
			 vw, "cur", vw, "avg", vw, "max");
	vl_grid_text(g, x, pg->y, w, line, VL_C_AXIS, 0, ascii);
	for (size_t i = 0; i < pane->nlines && (int)i < pg->plot_h; i++) {
		const struct vl_line *l = &pane->lines[i];
		enum counter_unit u = pane->unit[l->axis];
		int y = pg->plot_y + (int)i;
		vl_grid_put(g, x, y, mono ? vl_mono_glyph(i)
			       : ascii ? '#' : 0x25a0, l->color, 0);
		vl_grid_words(g, x + 1, y, labw, l->label ? l->label : "",
			      l->color, 0, ascii);
		legend_value(a, sizeof(a), l->st.cur, u, vw - 1);
		legend_value(b, sizeof(b), l->st.min, u, vw - 1);
		legend_value(c, sizeof(c), l->st.avg, u, vw - 1);
		legend_value(d, sizeof(d), l->st.max, u, vw - 1);
		if (ncol == 4)
			snprintf(line, sizeof(line), "%*s%*s%*s%*s", vw, a, vw,
				 b, vw, c, vw, d);
		else
			snprintf(line, sizeof(line), "%*s%*s%*s", vw, a, vw, c,
				 vw, d);
		vl_grid_text(g, x + 2 + labw, y, w - 2 - labw, line,
			     VL_C_DEFAULT, 0, ascii);
	}
}

/* Widen [*mn, *mx] to the known values of x[0..n). */
static void span_of(const double *x, size_t n, double *mn, double *mx)
{
	for (size_t j = 0; x && j < n; j++) {
		if (isnan(x[j]))
			continue;
		if (isnan(*mn) || x[j] < *mn)
			*mn = x[j];
		if (isnan(*mx) || x[j] > *mx)
			*mx = x[j];
	}
}

/* The pane's two y scales: from the plotted points and their bands (a
 * peak inside a column is in scale), and reference levels near them. */
static void pane_scales(const struct vl_pane *pane, const struct vl_plan *p,
			const struct vl_pane_geom *pg, struct vl_scale sc[2])
{
	for (int a = 0; a < 2; a++) {
		double mn = NAN, mx = NAN;
		for (size_t i = 0; i < pane->nlines; i++) {
			const struct vl_line *l = &pane->lines[i];
			if (l->axis != a)
				continue;
			span_of(l->pts, p->dots, &mn, &mx);
			span_of(l->lo, p->dots, &mn, &mx);
			span_of(l->hi, p->dots, &mn, &mx);
		}
		for (size_t i = 0; i < pane->nlines; i++) {
			const struct vl_line *l = &pane->lines[i];
			if (l->axis == a && !isnan(l->ref) && !isnan(mx) &&
			    l->ref <= 4 * mx && l->ref > mx)
				mx = l->ref;
		}
		int nt = pg->plot_h >= 8 ? 4 : pg->plot_h >= 4 ? 2 : 1;
		sc[a] = vl_nice_scale(mn, mx, nt, pane->unit[a]);
	}
}

/* The title line: name, units, then each line's value (at the cursor or
 * the newest) in its colour. */
static void pane_title(const struct vl_view *v, const struct vl_plan *p,
		       size_t k, struct vl_grid *g, int ascii)
{
	const struct vl_pane *pane = &v->panes[k];
	const struct vl_pane_geom *pg = &p->pane[k];
	char title[160], ro[512];
	int tattr = (int)k == v->focus ? VL_A_REVERSE | VL_A_BOLD : VL_A_BOLD;

	snprintf(title, sizeof(title), " %s [%s%s%s] ", pane->title,
		 catalog_unit_label(pane->unit[0]), pane->has_axis[1] ? " | " : "",
		 pane->has_axis[1] ? catalog_unit_label(pane->unit[1]) : "");
	int x = vl_grid_text(g, 0, pg->y, p->cols, title, VL_C_TITLE, tattr,
			     ascii) + 1;
	for (size_t i = 0; i < pane->nlines && x < p->cols; i++) {
		const struct vl_line *l = &pane->lines[i];
		struct vl_pane one = *pane;
		one.lines = (struct vl_line *)l;
		one.nlines = 1;
		vl_readout(ro, sizeof(ro), &one, v->cursor_on);
		/* a readout whole or none: "referenc run 2.09%" named no one */
		if (x + (v->mono ? 1 : 0) + vl_text_cells(ro) >
		    (p->legend_w ? p->legend_x - 1 : p->cols))
			break;
		if (v->mono) {
			vl_grid_put(g, x, pg->y, vl_mono_glyph(i), 0, 0);
			x++;
		}
		x += vl_grid_text(g, x, pg->y, p->cols - x, ro, l->color,
				  v->cursor_on ? VL_A_BOLD : 0, ascii) + 2;
	}
}

/* The y axes in use: labels at the top, the bottom and the ticks between
 * where rows allow, and the axis line. */
static void pane_axes(const struct vl_pane *pane, const struct vl_plan *p,
		      const struct vl_pane_geom *pg, const struct vl_scale sc[2],
		      struct vl_grid *g, int ascii)
{
	int hdots = pg->plot_h * p->dots_y;

	for (int a = 0; a < 2; a++) {
		if (!pane->has_axis[a])
			continue;
		const struct vl_scale *s = &sc[a];
		int lx = a == 0 ? 0 : p->plot_x + p->plot_w + 1;
		int last = -2;
		for (double t = s->hi; t >= s->lo - s->step * 1e-6; t -= s->step) {
			int cy = vl_value_dot(s, t, hdots) / p->dots_y;
			if (cy - last < 2 && !(t <= s->lo + s->step * 1e-6 &&
					       cy != last && pg->plot_h == 1))
				continue;
			char lab[16], cell[16];
			vl_fmt_axis(lab, sizeof(lab), t, pane->unit[a]);
			snprintf(cell, sizeof(cell), a == 0 ? "%5.5s" : "%-5.5s", lab);
			vl_grid_text(g, lx, pg->plot_y + cy, 5, cell, VL_C_AXIS,
				     0, ascii);
			last = cy;
		}
		int ax = a == 0 ? p->plot_x - 1 : p->plot_x + p->plot_w;
		for (int yy = 0; yy < pg->plot_h; yy++)
			vl_grid_put(g, ax, pg->plot_y + yy, ascii ? '|' : 0x2502,
				    VL_C_AXIS, 0);
	}
}

static void draw_pane(const struct vl_view *v, const struct vl_plan *p,
		      size_t k, struct vl_grid *g, int ascii)
{
	const struct vl_pane *pane = &v->panes[k];
	const struct vl_pane_geom *pg = &p->pane[k];
	struct vl_scale sc[2];

	if (pg->plot_h < 1)
		return;
	pane_scales(pane, p, pg, sc);
	pane_title(v, p, k, g, ascii);
	vl_plot_pane(v, p, pane, pg, sc, g);
	pane_axes(pane, p, pg, sc, g, ascii);
	if (p->legend_w)
		draw_legend(pane, p, pg, g, ascii, v->mono);
}

int vl_render(const struct vl_view *v, const struct vl_plan *p,
	      struct vl_grid *g)
{
	if (vl_grid_resize(g, p->cols, p->rows) < 0)
		return -1;
	int ascii = v->glyphs == VL_ASCII;
	if (!p->ok) {
		vl_grid_text(g, 0, 0, p->cols, "perflog view: terminal too small",
			     VL_C_WARN, VL_A_BOLD, ascii);
		return 0;
	}
	/* header */
	for (int x = 0; x < p->cols; x++)
		vl_grid_put(g, x, 0, ' ', VL_C_TITLE, VL_A_REVERSE);
	vl_grid_text(g, 0, 0, p->cols, v->header ? v->header : "", VL_C_TITLE,
		     VL_A_REVERSE | VL_A_BOLD, ascii);
	if (v->modes && *v->modes) {
		int len = (int)strlen(v->modes);
		vl_grid_text(g, p->cols - len - 1, 0, len, v->modes, VL_C_TITLE,
			     VL_A_REVERSE | VL_A_BOLD, ascii);
	}
	for (size_t k = 0; k < p->npanes && k < v->npanes; k++)
		draw_pane(v, p, k, g, ascii);
	draw_marks(v, p, g, ascii);
	draw_time_axis(v, p, g, ascii);
	if (v->cursor_on) {
		int x = vl_time_col(p, v->from, v->to, v->cursor);
		if (x >= 0)
			for (size_t k = 0; k < p->npanes; k++)
				for (int yy = p->pane[k].plot_y;
				     yy < p->pane[k].plot_y + p->pane[k].plot_h;
				     yy++) {
					struct vl_cell *c = vl_grid_at(
						g, p->plot_x + x, yy);
					if (!c)
						continue;
					if (c->ch == ' ')
						c->ch = ascii ? ':' : 0x2502;
					c->color = VL_C_CURSOR;
					c->attr |= VL_A_BOLD;
				}
		if (x >= 0)
			vl_grid_put(g, p->plot_x + x, p->axis_row, ascii ? '^' : 0x25b2,
			    VL_C_CURSOR, VL_A_BOLD);
	}
	const char *st = v->status ? v->status :
		"?:help  q:quit  <-/->:scroll  +/-:zoom  n/p:marker  s:sessions";
	vl_grid_text(g, 0, p->status_row, p->cols, st, VL_C_DEFAULT, 0, ascii);
	return 0;
}

