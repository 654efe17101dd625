/* grid.c - the cell grid (grid.h). */
#include "grid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int vl_text_cells(const char *s)
{
	int n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		n += (*p & 0xc0) != 0x80;
	return n;
}

int vl_grid_words(struct vl_grid *g, int x, int y, int maxw, const char *s,
		  int color, int attr, int ascii)
{
	char buf[256];
	int cells = 0, keep = -1;

	if (maxw <= 0)
		return 0;
	if (vl_text_cells(s) <= maxw)
		return vl_grid_text(g, x, y, maxw, s, color, attr, ascii);
	/* the last space before the cell limit ends the words kept */
	for (size_t i = 0; s[i] && cells <= maxw; i++) {
		if (s[i] == ' ')
			keep = (int)i;
		cells += ((unsigned char)s[i] & 0xc0) != 0x80;
	}
	if (keep <= 0)
		return 0;
	snprintf(buf, sizeof(buf), "%.*s", keep, s);
	return vl_grid_text(g, x, y, maxw, buf, color, attr, ascii);
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

void vl_grid_put(struct vl_grid *g, int x, int y, uint32_t ch, int color,
		int attr)
{
	struct vl_cell *c = vl_grid_at(g, x, y);
	if (c) {
		c->ch = ch;
		c->color = (uint8_t)color;
		c->attr = (uint8_t)((c->attr & VL_A_SHADE) | attr);
	}
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
				vl_grid_put(g, x, y0 + 1 + i, ' ', VL_C_DEFAULT, attr);
		vl_grid_text(g, x0 + 2, y0 + 1 + i, w - 4, lines[k],
			     VL_C_DEFAULT, attr, ascii);
	}
	if (footer)
		vl_grid_text(g, x0 + 2, y0 + h - 1, w - 4, footer, VL_C_AXIS, 0,
			     ascii);
}
