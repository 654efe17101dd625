/*
 * layout.c - pure drawing logic of the viewer: scales, ticks, resampling,
 * sub-cell rendering into a cell grid, markers, sessions, legends. See
 * layout.h for the screen map and the time conventions; nothing here knows
 * about ncurses, files or the clock.
 */
#include "layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- grid ---- */

int vl_grid_resize(struct vl_grid *g, int w, int h)
{
	if (w < 1 || h < 1)
		return -1;
	if (w * h > g->w * g->h || !g->c) {
		struct vl_cell *c = realloc(g->c, (size_t)w * h * sizeof(*c));
		if (!c)
			return -1;
		g->c = c;
	}
	g->w = w;
	g->h = h;
	vl_grid_clear(g);
	return 0;
}

void vl_grid_clear(struct vl_grid *g)
{
	for (int i = 0; i < g->w * g->h; i++)
		g->c[i] = (struct vl_cell){ .ch = ' ' };
}

void vl_grid_free(struct vl_grid *g)
{
	free(g->c);
	g->c = NULL;
	g->w = g->h = 0;
}

struct vl_cell *vl_grid_at(struct vl_grid *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return NULL;
	return &g->c[y * g->w + x];
}

/* Decode one UTF-8 character; returns its length (1 on a bad byte, which
 * decodes as U+FFFD). */
static int utf8_decode(const unsigned char *s, uint32_t *cp)
{
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	int len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	if (!len || s[0] >= 0xf8) {
		*cp = 0xfffd;
		return 1;
	}
	uint32_t c = s[0] & (0x3f >> (len - 1));
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*cp = 0xfffd;
			return 1;
		}
		c = (c << 6) | (s[i] & 0x3f);
	}
	*cp = c;
	return len;
}

static int utf8_encode(uint32_t c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

int vl_grid_text(struct vl_grid *g, int x, int y, int maxw, const char *s,
		 int color, int attr, int ascii)
{
	int n = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p && n < maxw) {
		uint32_t cp;
		p += utf8_decode(p, &cp);
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
			cp = '?';
		if (ascii && cp >= 0x80)
			cp = '?';
		struct vl_cell *c = vl_grid_at(g, x + n, y);
		if (c) {
			c->ch = cp;
			c->color = (uint8_t)color;
			c->attr = (uint8_t)((c->attr & VL_A_SHADE) | attr);
		}
		n++;
	}
	return n;
}

char *vl_grid_row(const struct vl_grid *g, int y, char *buf, size_t n)
{
	size_t k = 0;
	if (!n)
		return buf;
	for (int x = 0; y >= 0 && y < g->h && x < g->w; x++) {
		char tmp[4];
		int len = utf8_encode(g->c[y * g->w + x].ch, tmp);
		if (k + (size_t)len + 1 > n)
			break;
		memcpy(buf + k, tmp, (size_t)len);
		k += (size_t)len;
	}
	buf[k] = '\0';
	return buf;
}

/* ---- numbers ---- */

static int unit_is_bytes(enum counter_unit u)
{
	return u == UNIT_BYTES || u == UNIT_BYTES_SEC;
}

/* Scale v down to a prefix: 1024 powers for bytes, 1000 otherwise. */
static double prefixed(double v, enum counter_unit u, const char **pfx)
{
	static const char *const p[] = { "", "K", "M", "G", "T", "P" };
	double base = unit_is_bytes(u) ? 1024.0 : 1000.0;
	int i = 0;
	while (fabs(v) >= base * 0.9995 && i < 5) {
		v /= base;
		i++;
	}
	*pfx = p[i];
	return v;
}

/* 3 significant digits, no more than needed. */
static void fmt_sig(char *buf, size_t n, double v)
{
	double a = fabs(v);
	if (a == 0)
		snprintf(buf, n, "0");
	else if (a >= 99.95)
		snprintf(buf, n, "%.0f", v);
	else if (a >= 9.995)
		snprintf(buf, n, "%.1f", v);
	else if (a >= 0.9995)
		snprintf(buf, n, "%.2f", v);
	else if (a >= 0.001)
		snprintf(buf, n, "%.3f", v);
	else
		snprintf(buf, n, "%.0e", v);
}

char *vl_fmt_value(char *buf, size_t n, double v, enum counter_unit u)
{
	char num[32];
	const char *pfx = "";
	if (isnan(v)) {
		snprintf(buf, n, "-");
		return buf;
	}
	switch (u) {
	case UNIT_PERCENT:
		fmt_sig(num, sizeof(num), v);
		snprintf(buf, n, "%s%%", num);
		break;
	case UNIT_SECONDS:
		if (fabs(v) < 1 && v != 0) {
			fmt_sig(num, sizeof(num), v * 1000);
			snprintf(buf, n, "%sms", num);
		} else {
			fmt_sig(num, sizeof(num), v);
			snprintf(buf, n, "%ss", num);
		}
		break;
	default:
		v = prefixed(v, u, &pfx);
		fmt_sig(num, sizeof(num), v);
		if (u == UNIT_BYTES_SEC)
			snprintf(buf, n, "%s%sB/s", num, pfx);
		else if (u == UNIT_BYTES)
			snprintf(buf, n, "%s%sB", num, pfx);
		else if (u == UNIT_BITS_SEC)
			snprintf(buf, n, "%s%sb/s", num, pfx);
		else if (u == UNIT_PER_SEC)
			snprintf(buf, n, "%s%s/s", num, *pfx ? pfx : "");
		else
			snprintf(buf, n, "%s%s", num, pfx);
	}
	return buf;
}

char *vl_fmt_axis(char *buf, size_t n, double v, enum counter_unit u)
{
	char num[32];
	const char *pfx = "";
	if (u == UNIT_PERCENT) {
		fmt_sig(num, sizeof(num), v);
		snprintf(buf, n, "%s%%", num);
		return buf;
	}
	if (u == UNIT_SECONDS && fabs(v) < 1 && v != 0) {
		fmt_sig(num, sizeof(num), v * 1000);
		snprintf(buf, n, "%sm", num);
		return buf;
	}
	v = prefixed(v, u, &pfx);
	/* axis values are tick values: short, exact where possible */
	if (v == floor(v) || fabs(v) >= 100)
		snprintf(num, sizeof(num), "%.0f", v);
	else if (fabs(v) >= 10)
		snprintf(num, sizeof(num), "%.0f", v);
	else
		snprintf(num, sizeof(num), "%.1f", v);
	snprintf(buf, n, "%s%s", num, pfx);
	return buf;
}

const char *vl_unit_name(enum counter_unit u)
{
	switch (u) {
	case UNIT_PERCENT: return "%";
	case UNIT_BYTES_SEC: return "B/s";
	case UNIT_PER_SEC: return "/s";
	case UNIT_BYTES: return "bytes";
	case UNIT_SECONDS: return "s";
	case UNIT_BITS_SEC: return "b/s";
	case UNIT_COUNT: return "";
	}
	return "";
}

/* Smallest 1-2-5 multiple of a power of `base` (10, or 1024 above 1024
 * for bytes) that is >= x. */
static double nice_step(double x, int bytes)
{
	double mag = 1;
	if (bytes && x >= 1024) {
		while (x / mag >= 1024)
			mag *= 1024;
		/* within one 1024 power, steps 1 2 5 10 20 50 100 200 500 */
	}
	double y = x / mag;
	double p = pow(10, floor(log10(y)));
	double f = y / p;
	double m = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
	return m * p * mag;
}

struct vl_scale vl_nice_scale(double min, double max, int nticks,
			      enum counter_unit u)
{
	struct vl_scale s;
	if (nticks < 1)
		nticks = 1;
	if (isnan(max) || isinf(max))
		max = 0;
	if (isnan(min) || isinf(min) || min > 0)
		min = 0;
	if (max <= min) {
		/* flat or empty: a default range in the unit */
		max = min + (u == UNIT_PERCENT ? 10 :
			     unit_is_bytes(u) ? 1024 : 1);
	}
	s.step = nice_step((max - min) / nticks, unit_is_bytes(u));
	s.lo = min < 0 ? -s.step * ceil(-min / s.step) : 0;
	s.hi = s.step * ceil(max / s.step - 1e-9);
	if (s.hi <= s.lo)
		s.hi = s.lo + s.step;
	if (u == UNIT_PERCENT && s.hi > 100 && max <= 100) {
		s.hi = 100;
		if (s.step > 50)
			s.step = 50;
	}
	return s;
}

long vl_time_step(double span, int cols, int min_gap)
{
	static const long steps[] = {
		1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800,
		3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800,
		2592000, 31536000
	};
	if (cols < 1)
		cols = 1;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (span / steps[i] * min_gap <= cols)
			return steps[i];
	return steps[sizeof(steps) / sizeof(steps[0]) - 1];
}

/* ---- series ---- */

void vl_resample(const struct vl_rows *r, double from, double to,
		 double *out, size_t npts)
{
	if (!npts)
		return;
	double dt = (to - from) / (double)npts;
	for (size_t i = 0; i < npts; i++)
		out[i] = NAN;
	if (!r || !r->n || !r->step || dt <= 0)
		return;
	double step = (double)r->step, first = (double)r->first;
	if (dt <= step) {
		/* columns narrower than a row: the row covering the middle */
		for (size_t i = 0; i < npts; i++) {
			double mid = from + ((double)i + 0.5) * dt;
			double k = ceil((mid - first) / step);
			if (k < 0 || k >= (double)r->n)
				continue;
			out[i] = r->v[(size_t)k * r->stride];
		}
		return;
	}
	/* columns wider: mean of the rows stamped in [col start, col end) */
	double k0 = ceil((from - first) / step);
	if (k0 < 0)
		k0 = 0;
	double sum = 0;
	size_t cnt = 0, col = 0;
	for (size_t k = (size_t)k0; k < r->n; k++) {
		double t = first + (double)k * step;
		if (t >= to)
			break;
		size_t c = (size_t)((t - from) / dt);
		if (c >= npts)
			c = npts - 1;
		if (c != col) {
			if (cnt)
				out[col] = sum / (double)cnt;
			sum = 0;
			cnt = 0;
			col = c;
		}
		double v = r->v[k * r->stride];
		if (!isnan(v)) {
			sum += v;
			cnt++;
		}
	}
	if (cnt)
		out[col] = sum / (double)cnt;
}

struct vl_stats vl_window_stats(const struct vl_rows *r, double from,
				double to)
{
	struct vl_stats s = { NAN, NAN, NAN, NAN, 0 };
	if (!r || !r->n || !r->step)
		return s;
	double sum = 0;
	for (size_t k = 0; k < r->n; k++) {
		double t = (double)r->first + (double)k * (double)r->step;
		if (t <= from || t > to)
			continue;
		double v = r->v[k * r->stride];
		if (isnan(v))
			continue;
		if (!s.n || v < s.min)
			s.min = v;
		if (!s.n || v > s.max)
			s.max = v;
		sum += v;
		s.cur = v;
		s.n++;
	}
	if (s.n)
		s.avg = sum / (double)s.n;
	return s;
}

long vl_row_at(const struct vl_rows *r, double t, time_t *stamp)
{
	if (!r || !r->n || !r->step)
		return -1;
	double k = ceil((t - (double)r->first) / (double)r->step);
	if (k < 0 || k >= (double)r->n)
		return -1;
	if (stamp)
		*stamp = r->first + (time_t)k * (time_t)r->step;
	return (long)k;
}

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
		/* name (8) + four value columns of 7 (9 when wide) */
		int lw = cols >= 160 ? 44 : 36;
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

static const uint8_t braille_bit[4][2] = {
	{ 0x01, 0x08 }, { 0x02, 0x10 }, { 0x04, 0x20 }, { 0x40, 0x80 }
};
static const char mono_glyph[] = "*+o#x%@&";

struct canvas {
	int w, h;		/* in cells */
	int dx, dy;		/* dots per cell */
	uint8_t *dots;		/* per cell: dot mask (braille) / level mask */
	uint8_t *color;		/* per cell: colour of the last line drawn */
	uint8_t *glyph;		/* per cell: line index + 1 (mono) */
};

static void canvas_dot(struct canvas *cv, int X, int Y, int color, int li)
{
	if (X < 0 || Y < 0 || X >= cv->w * cv->dx || Y >= cv->h * cv->dy)
		return;
	int cx = X / cv->dx, cy = Y / cv->dy, i = cy * cv->w + cx;
	if (cv->dx == 2)
		cv->dots[i] |= braille_bit[Y % 4][X % 2];
	else
		cv->dots[i] |= (uint8_t)(1 << (Y % cv->dy));
	cv->color[i] = (uint8_t)color;
	cv->glyph[i] = (uint8_t)(li + 1);
}

/* Dot row of value v on scale s (0 = top), clamped to the plot. */
static int value_dot(const struct vl_scale *s, double v, int hdots)
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
		int y = value_dot(s, v, hd);
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

static void put(struct vl_grid *g, int x, int y, uint32_t ch, int color,
		int attr)
{
	struct vl_cell *c = vl_grid_at(g, x, y);
	if (c) {
		c->ch = ch;
		c->color = (uint8_t)color;
		c->attr = (uint8_t)((c->attr & VL_A_SHADE) | attr);
	}
}

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
		put(g, p->plot_x + x, y, ascii ? '-' : 0x2500, VL_C_AXIS, 0);
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
		put(g, lx, y, ascii ? '+' : 0x253c, VL_C_AXIS, 0);
		if (lx + 1 > last_end && x + 1 + len <= p->plot_w + AXIS_W) {
			vl_grid_text(g, lx + 1, y, len, lab, VL_C_AXIS, 0, 1);
			last_end = lx + 1 + len;
		}
	}
}

static void draw_marks(const struct vl_view *v, const struct vl_plan *p,
		       struct vl_grid *g, int ascii)
{
	int y = p->marker_row;
	/* sessions: shade the plot columns, bracket the span on the marker
	 * row with the name inside */
	for (size_t i = 0; i < v->nspans; i++) {
		const struct vl_span *s = &v->spans[i];
		if (s->to < v->from || s->from > v->to)
			continue;
		double a = s->from < v->from ? v->from : s->from;
		double b = s->to > v->to ? v->to : s->to;
		int xa = vl_time_col(p, v->from, v->to, a);
		int xb = vl_time_col(p, v->from, v->to, b);
		if (xa < 0 || xb < 0)
			continue;
		for (size_t k = 0; k < p->npanes; k++)
			for (int yy = p->pane[k].plot_y;
			     yy < p->pane[k].plot_y + p->pane[k].plot_h; yy++)
				for (int x = xa; x <= xb; x++) {
					struct vl_cell *c = vl_grid_at(
						g, p->plot_x + x, yy);
					if (c)
						c->attr |= VL_A_SHADE;
				}
		for (size_t k = 0; k < p->npanes; k++)
			for (int yy = p->pane[k].plot_y;
			     yy < p->pane[k].plot_y + p->pane[k].plot_h; yy++)
				for (int e = 0; e < 2; e++) {
					double te = e ? s->to : s->from;
					int xe = e ? xb : xa;
					struct vl_cell *c = vl_grid_at(
						g, p->plot_x + xe, yy);
					if (te >= v->from && te <= v->to && c &&
					    c->ch == ' ')
						put(g, p->plot_x + xe, yy,
						    ascii ? '|' : 0x2502,
						    VL_C_MARKER, 0);
				}
		for (int x = xa; x <= xb; x++)
			put(g, p->plot_x + x, y, ascii ? '=' : 0x2550,
			    VL_C_MARKER, 0);
		if (s->from >= v->from)
			put(g, p->plot_x + xa, y, '[', VL_C_MARKER, VL_A_BOLD);
		if (s->to <= v->to)
			put(g, p->plot_x + xb, y, ']', VL_C_MARKER, VL_A_BOLD);
		if (s->name && *s->name && xb - xa >= 3)
			vl_grid_text(g, p->plot_x + xa + 1, y, xb - xa - 1,
				     s->name, VL_C_MARKER, VL_A_BOLD, ascii);
	}
	/* markers: a vertical line through every pane where the plot is
	 * empty, the label on the marker row after a down arrow */
	int last_end = -1;
	for (size_t i = 0; i < v->nmarks; i++) {
		const struct vl_mark *m = &v->marks[i];
		int x = vl_time_col(p, v->from, v->to, m->t);
		if (x < 0)
			continue;
		for (size_t k = 0; k < p->npanes; k++)
			for (int yy = p->pane[k].plot_y;
			     yy < p->pane[k].plot_y + p->pane[k].plot_h; yy++) {
				struct vl_cell *c = vl_grid_at(g, p->plot_x + x, yy);
				if (c && c->ch == ' ')
					put(g, p->plot_x + x, yy,
					    ascii ? '|' : 0x2502, VL_C_MARKER, 0);
			}
		int lx = p->plot_x + x;
		if (lx <= last_end)
			continue;	/* would overlap the previous label */
		put(g, lx, y, ascii ? 'v' : 0x25bc, VL_C_MARKER, VL_A_BOLD);
		int room = p->cols - lx - 1;
		/* stop before the next marker's column */
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
		int len = 0;
		if (m->label && room > 0)
			len = vl_grid_text(g, lx + 1, y, room, m->label,
					   VL_C_MARKER, VL_A_BOLD, ascii);
		last_end = lx + len;
	}
}

char *vl_readout(char *buf, size_t n, const struct vl_pane *pane,
		 int at_cursor)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < pane->nlines && k + 1 < n; i++) {
		const struct vl_line *l = &pane->lines[i];
		char val[32];
		double x = at_cursor ? l->at_cursor : l->st.cur;
		vl_fmt_value(val, sizeof(val), x, pane->unit[l->axis]);
		int w = snprintf(buf + k, n - k, "%s%s %s", i ? "  " : "",
				 l->label, val);
		if (w < 0)
			break;
		k += (size_t)w;
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

/* A legend value in at most w characters: the unit's "/s" goes first (the
 * pane title names the unit), then the axis form. */
static char *legend_value(char *buf, size_t n, double v, enum counter_unit u,
			  int w)
{
	vl_fmt_value(buf, n, v, u);
	size_t len = strlen(buf);
	if ((int)len > w && len > 2 && !strcmp(buf + len - 2, "/s"))
		buf[len - 2] = '\0';
	if ((int)strlen(buf) > w)
		vl_fmt_axis(buf, n, v, u);
	return buf;
}

static void draw_legend(const struct vl_pane *pane, const struct vl_plan *p,
			const struct vl_pane_geom *pg, struct vl_grid *g,
			int ascii, int mono)
{
	int x = p->legend_x, w = p->legend_w;
	int vw = (w - 8) / 4;	/* four value columns */
	if (vw < 6)
		return;
	char line[128], a[32], b[32], c[32], d[32];
	snprintf(line, sizeof(line), "%-7.7s %*s%*s%*s%*s", "", vw, "cur",
		 vw, "min", vw, "avg", vw, "max");
	vl_grid_text(g, x, pg->y, w, line, VL_C_AXIS, 0, ascii);
	for (size_t i = 0; i < pane->nlines && (int)i < pg->plot_h; i++) {
		const struct vl_line *l = &pane->lines[i];
		enum counter_unit u = pane->unit[l->axis];
		int y = pg->plot_y + (int)i;
		put(g, x, y, mono ? (uint32_t)mono_glyph[i % 8]
			       : ascii ? '#' : 0x25a0, l->color, 0);
		vl_grid_text(g, x + 1, y, 6, l->label, l->color, 0, ascii);
		snprintf(line, sizeof(line), "%*s%*s%*s%*s",
			 vw, legend_value(a, sizeof(a), l->st.cur, u, vw - 1),
			 vw, legend_value(b, sizeof(b), l->st.min, u, vw - 1),
			 vw, legend_value(c, sizeof(c), l->st.avg, u, vw - 1),
			 vw, legend_value(d, sizeof(d), l->st.max, u, vw - 1));
		vl_grid_text(g, x + 8, y, w - 8, line, VL_C_DEFAULT, 0, ascii);
	}
}

static void draw_pane(const struct vl_view *v, const struct vl_plan *p,
		      size_t k, struct vl_grid *g, int ascii)
{
	const struct vl_pane *pane = &v->panes[k];
	const struct vl_pane_geom *pg = &p->pane[k];
	if (pg->plot_h < 1)
		return;
	/* scales: from the plotted points and reference levels near them */
	struct vl_scale sc[2];
	for (int a = 0; a < 2; a++) {
		double mn = NAN, mx = NAN;
		for (size_t i = 0; i < pane->nlines; i++) {
			const struct vl_line *l = &pane->lines[i];
			if (l->axis != a)
				continue;
			for (size_t j = 0; j < p->dots; j++) {
				double x = l->pts[j];
				if (isnan(x))
					continue;
				if (isnan(mn) || x < mn)
					mn = x;
				if (isnan(mx) || x > mx)
					mx = x;
			}
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
	/* title line: name, units, then the values (cursor or newest) */
	char title[160], ro[512];
	int tattr = (int)k == v->focus ? VL_A_REVERSE | VL_A_BOLD : VL_A_BOLD;
	snprintf(title, sizeof(title), " %s [%s%s%s] ", pane->title,
		 vl_unit_name(pane->unit[0]), pane->has_axis[1] ? " | " : "",
		 pane->has_axis[1] ? vl_unit_name(pane->unit[1]) : "");
	int tx = vl_grid_text(g, 0, pg->y, p->cols, title, VL_C_TITLE, tattr,
			      ascii);
	/* values in the lines' colours */
	int x = tx + 1;
	for (size_t i = 0; i < pane->nlines && x < p->cols; i++) {
		const struct vl_line *l = &pane->lines[i];
		struct vl_pane one = *pane;
		one.lines = (struct vl_line *)l;
		one.nlines = 1;
		vl_readout(ro, sizeof(ro), &one, v->cursor_on);
		if (v->mono) {
			put(g, x, pg->y, (uint32_t)mono_glyph[i % 8], 0, 0);
			x++;
		}
		x += vl_grid_text(g, x, pg->y, p->cols - x, ro, l->color,
				  v->cursor_on ? VL_A_BOLD : 0, ascii) + 2;
	}
	/* the plot */
	struct canvas cv = { p->plot_w, pg->plot_h, p->dots_x, p->dots_y,
			     NULL, NULL, NULL };
	size_t ncell = (size_t)cv.w * (size_t)cv.h;
	cv.dots = calloc(ncell, 3);
	if (!cv.dots)
		return;
	cv.color = cv.dots + ncell;
	cv.glyph = cv.color + ncell;
	/* first line on top: draw in reverse */
	for (size_t i = pane->nlines; i-- > 0;)
		draw_line(&cv, &pane->lines[i], p->dots,
			  &sc[pane->lines[i].axis], (int)i);
	for (int cy = 0; cy < cv.h; cy++)
		for (int cx = 0; cx < cv.w; cx++) {
			size_t i = (size_t)cy * cv.w + cx;
			if (!cv.dots[i])
				continue;
			uint32_t ch;
			if (v->mono)
				ch = (uint32_t)mono_glyph[(cv.glyph[i] - 1) % 8];
			else if (cv.dx == 2)
				ch = 0x2800 + cv.dots[i];
			else
				ch = ascii_glyph(cv.dots[i], cv.dy);
			put(g, p->plot_x + cx, pg->plot_y + cy, ch, cv.color[i],
			    0);
		}
	/* reference levels (bandwidth) where in scale, on empty cells */
	for (size_t i = 0; i < pane->nlines; i++) {
		const struct vl_line *l = &pane->lines[i];
		const struct vl_scale *s = &sc[l->axis];
		if (isnan(l->ref) || l->ref > s->hi || l->ref < s->lo)
			continue;
		int cy = value_dot(s, l->ref, cv.h * cv.dy) / cv.dy;
		for (int cx = 0; cx < cv.w; cx += 2)
			if (!cv.dots[(size_t)cy * cv.w + cx])
				put(g, p->plot_x + cx, pg->plot_y + cy,
				    ascii ? '-' : 0x254c, l->color, 0);
	}
	free(cv.dots);
	/* y labels: top, bottom, and ticks in between where rows allow */
	for (int a = 0; a < 2; a++) {
		if (!pane->has_axis[a])
			continue;
		const struct vl_scale *s = &sc[a];
		int lx = a == 0 ? 0 : p->plot_x + p->plot_w + 1;
		int last = -2;
		for (double t = s->hi; t >= s->lo - s->step * 1e-6; t -= s->step) {
			int cy = value_dot(s, t, cv.h * cv.dy) / cv.dy;
			if (cy - last < 2 && !(t <= s->lo + s->step * 1e-6 &&
					       cy != last && pg->plot_h == 1))
				continue;
			char lab[16];
			vl_fmt_axis(lab, sizeof(lab), t, pane->unit[a]);
			char cell[16];
			if (a == 0)
				snprintf(cell, sizeof(cell), "%5.5s", lab);
			else
				snprintf(cell, sizeof(cell), "%-5.5s", lab);
			vl_grid_text(g, lx, pg->plot_y + cy, 5, cell, VL_C_AXIS,
				     0, ascii);
			last = cy;
		}
		/* the axis line */
		int ax = a == 0 ? p->plot_x - 1 : p->plot_x + p->plot_w;
		for (int yy = 0; yy < cv.h; yy++)
			put(g, ax, pg->plot_y + yy, ascii ? '|' : 0x2502,
			    VL_C_AXIS, 0);
	}
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
		put(g, x, 0, ' ', VL_C_TITLE, VL_A_REVERSE);
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
			put(g, p->plot_x + x, p->axis_row, ascii ? '^' : 0x25b2,
			    VL_C_CURSOR, VL_A_BOLD);
	}
	const char *st = v->status ? v->status :
		"?:help  q:quit  <-/->:scroll  +/-:zoom  n/p:marker  s:sessions";
	vl_grid_text(g, 0, p->status_row, p->cols, st, VL_C_DEFAULT, 0, ascii);
	return 0;
}

void vl_overlay(struct vl_grid *g, const char *title, const char *const *lines,
		size_t n, long sel, const char *footer, int ascii)
{
	int w = (int)strlen(title) + 4;
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(lines[i]) + 4 > w)
			w = (int)strlen(lines[i]) + 4;
	if (footer && (int)strlen(footer) + 4 > w)
		w = (int)strlen(footer) + 4;
	if (w > g->w)
		w = g->w;
	int h = (int)n + 2;
	if (h > g->h)
		h = g->h;
	int x0 = (g->w - w) / 2, y0 = (g->h - h) / 2, inner = h - 2;
	long top = 0;
	if (sel >= inner)
		top = sel - inner + 1;
	for (int y = y0; y < y0 + h; y++)
		for (int x = x0; x < x0 + w; x++) {
			int edge_y = y == y0 || y == y0 + h - 1;
			int edge_x = x == x0 || x == x0 + w - 1;
			uint32_t ch = ' ';
			if (edge_y && edge_x)
				ch = ascii ? '+' : y == y0 ? (x == x0 ? 0x250c : 0x2510)
						       : (x == x0 ? 0x2514 : 0x2518);
			else if (edge_y)
				ch = ascii ? '-' : 0x2500;
			else if (edge_x)
				ch = ascii ? '|' : 0x2502;
			struct vl_cell *c = vl_grid_at(g, x, y);
			if (c)
				*c = (struct vl_cell){ ch, VL_C_TITLE, 0 };
		}
	char t[128];
	snprintf(t, sizeof(t), " %s ", title);
	vl_grid_text(g, x0 + 2, y0, w - 4, t, VL_C_TITLE, VL_A_BOLD, ascii);
	for (int i = 0; i < inner && (size_t)(top + i) < n; i++) {
		long k = top + i;
		int attr = k == sel ? VL_A_REVERSE : 0;
		if (k == sel)
			for (int x = x0 + 1; x < x0 + w - 1; x++)
				put(g, x, y0 + 1 + i, ' ', VL_C_DEFAULT, attr);
		vl_grid_text(g, x0 + 2, y0 + 1 + i, w - 4, lines[k],
			     VL_C_DEFAULT, attr, ascii);
	}
	if (footer)
		vl_grid_text(g, x0 + 2, y0 + h - 1, w - 4, footer, VL_C_AXIS, 0,
			     ascii);
}
