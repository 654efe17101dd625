/*
 * png_overlay.c - what librrd cannot draw, drawn on the finished chart
 * (png_int.h: png_overlay): sessions shaded from the begin marker's time
 * to the end's, and the markers' numbers.
 *
 * librrd shades by rows only (an AREA of a CDEF on TIME): a row holding
 * the begin marker was shaded whole, from before the marker (a row early,
 * 5 s at -i 5), and the row after the end too; and it has no text at a
 * place in the plot, so a marker's label could only sit in the legend,
 * cut, with nothing on the rule to say which it was. Here, after
 * rrd_graph_v wrote the PNG, the image is read back with libpng's
 * simplified API (RGBA), each session's columns from its begin to its
 * end (rrd_graph's own time-to-pixel mapping, on the plot it reported:
 * graph_left, graph_width, graph_start, graph_end) are shaded where the
 * plot is still its white background, so lines, bands and the grid stay
 * as librrd drew them, and each numbered marker gets its number in a
 * small white box at the plot's top, right of its rule. Then the image
 * is written back in place.
 */
#include <png.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "png_int.h"

/* 5x7 digits, a row a byte, the top bit the leftmost of five */
static const unsigned char digits[10][7] = {
	{ 0x70, 0x88, 0x98, 0xA8, 0xC8, 0x88, 0x70 },
	{ 0x20, 0x60, 0x20, 0x20, 0x20, 0x20, 0x70 },
	{ 0x70, 0x88, 0x08, 0x10, 0x20, 0x40, 0xF8 },
	{ 0xF8, 0x10, 0x20, 0x10, 0x08, 0x88, 0x70 },
	{ 0x10, 0x30, 0x50, 0x90, 0xF8, 0x10, 0x10 },
	{ 0xF8, 0x80, 0xF0, 0x08, 0x08, 0x88, 0x70 },
	{ 0x30, 0x40, 0x80, 0xF0, 0x88, 0x88, 0x70 },
	{ 0xF8, 0x08, 0x10, 0x20, 0x40, 0x40, 0x40 },
	{ 0x70, 0x88, 0x88, 0x70, 0x88, 0x88, 0x70 },
	{ 0x70, 0x88, 0x88, 0x78, 0x08, 0x10, 0x60 },
};

struct canvas {
	unsigned char *px;	/* RGBA, rows top down */
	long w, h;
};

static unsigned char *at(const struct canvas *c, long x, long y)
{
	if (x < 0 || y < 0 || x >= c->w || y >= c->h)
		return NULL;
	return c->px + 4 * ((size_t)y * (size_t)c->w + (size_t)x);
}

static void put(const struct canvas *c, long x, long y,
		const unsigned char rgb[3])
{
	unsigned char *q = at(c, x, y);

	if (q) {
		memcpy(q, rgb, 3);
		q[3] = 255;
	}
}

/* The pixel column of time t, as rrd_graph maps it (xtr). */
static long column(const struct png_paint *p, double t)
{
	if (p->end <= p->start)
		return p->left;
	return p->left + (long)floor((double)p->width / (p->end - p->start) *
				     (t - p->start));
}

/* Which plot pixels are background (white), before any is shaded: a
 * session over another shades the other's pixels too, never a line. */
static unsigned char *background(const struct canvas *c,
				 const struct png_paint *p)
{
	unsigned char *bg = calloc((size_t)(p->width + 1) * (size_t)(p->height + 1), 1);

	for (long y = 0; bg && y < p->height; y++)
		for (long x = 0; x < p->width; x++) {
			const unsigned char *q = at(c, p->left + x, p->top + y);
			bg[y * p->width + x] = q && q[0] == 255 && q[1] == 255 &&
					       q[2] == 255;
		}
	return bg;
}

static void shade(const struct canvas *c, const struct png_paint *p,
		  const unsigned char *bg, const struct png_paint_span *s)
{
	long a = column(p, s->begin < p->start ? p->start : s->begin);
	long b = column(p, s->end > p->end ? p->end : s->end);

	if (a < p->left)
		a = p->left;
	if (b > p->left + p->width - 1)
		b = p->left + p->width - 1;
	for (long y = 0; y < p->height; y++)
		for (long x = a; x <= b; x++)
			if (bg[y * p->width + (x - p->left)])
				put(c, x, p->top + y, s->rgb);
}

/* The width of n's box (number) at k pixels a font pixel. */
static long number_width(int n, long k)
{
	char s[12];

	return (long)snprintf(s, sizeof(s), "%d", n) * 6 * k + k;
}

/* n in a white box with the rules' dark red, its top left at (x, y);
 * returns the box's width. */
static long number(const struct canvas *c, long x, long y, int n, int k)
{
	static const unsigned char white[3] = { 255, 255, 255 };
	static const unsigned char red[3] = { 0xC0, 0, 0 };
	char s[12];
	int len = snprintf(s, sizeof(s), "%d", n);
	long w = number_width(n, k), h = 9L * k;

	for (long yy = 0; yy < h; yy++)
		for (long xx = 0; xx < w; xx++)
			put(c, x + xx, y + yy, white);
	for (int i = 0; i < len; i++)
		for (int r = 0; r < 7; r++)
			for (int b = 0; b < 5; b++) {
				if (!(digits[s[i] - '0'][r] & (0x80 >> b)))
					continue;
				for (int dy = 0; dy < k; dy++)
					for (int dx = 0; dx < k; dx++)
						put(c, x + k + (long)(i * 6 + b) * k + dx,
						    y + k + (long)r * k + dy, red);
			}
	return w;
}

/* Rows of numbers at the plot's top: a number goes in the first row
 * whose boxes all end left of it. */
#define NUMBER_ROWS 4

int png_number_boxes(const struct png_paint *p, struct png_box *box)
{
	long row_end[NUMBER_ROWS], k = p->digit > 0 ? p->digit : 1;
	size_t *order = malloc((p->nmarks + 1) * sizeof(*order)), n = 0;

	if (!order)
		return -1;
	for (size_t i = 0; i < p->nmarks; i++) {
		box[i] = (struct png_box){ 0, 0, 0, 0 };
		if (!p->marks[i].num)
			continue;
		size_t j = n++;	/* by time, stable */
		for (; j > 0 && p->marks[order[j - 1]].t > p->marks[i].t; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (int r = 0; r < NUMBER_ROWS; r++)
		row_end[r] = -1;
	for (size_t j = 0; j < n; j++) {
		const struct png_paint_mark *m = &p->marks[order[j]];
		long x = column(p, m->t) + 2, w = number_width(m->num, k);
		int row = 0;

		if (x + w > p->left + p->width)
			x -= w + 3;
		for (int r = 0; r < NUMBER_ROWS; r++)
			if (row_end[r] < x) {
				row = r;
				break;
			} else if (row_end[r] < row_end[row]) {
				row = r;	/* none free: the one freed first */
			}
		box[order[j]] = (struct png_box){ x, p->top + 2 + row * 10 * k,
						  w, 9 * k };
		row_end[row] = x + w;
	}
	free(order);
	return 0;
}

/* Each marker a dashed rule (4 pixels on, 2 off) over the plot, on what
 * is drawn there (as librrd's VRULE was), then its number in its box
 * (png_number_boxes). */
static void numbers(const struct canvas *c, const struct png_paint *p)
{
	static const unsigned char red[3] = { 0xC0, 0, 0 };
	struct png_box *box = malloc((p->nmarks + 1) * sizeof(*box));

	for (size_t i = 0; i < p->nmarks; i++) {
		long rx = column(p, p->marks[i].t);
		for (long y = 0; rx < p->left + p->width && y < p->height; y++)
			if (y % 6 < 4)
				put(c, rx, p->top + y, red);
	}
	/* out of memory: the rules drawn, their numbers listed */
	if (box && png_number_boxes(p, box) == 0)
		for (size_t i = 0; i < p->nmarks; i++)
			if (box[i].w)
				number(c, box[i].x, box[i].y, p->marks[i].num,
				       (int)(p->digit > 0 ? p->digit : 1));
	free(box);
}

int png_overlay(const char *path, const struct png_paint *p, struct perr *e)
{
	png_image img;
	struct canvas c = { NULL, 0, 0 };
	unsigned char *bg = NULL;
	int rc = -1;

	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&img, path)) {
		perr_set(e, "%s: reading it back: %s", path, img.message);
		goto out;
	}
	img.format = PNG_FORMAT_RGBA;
	c.w = (long)img.width;
	c.h = (long)img.height;
	c.px = malloc(PNG_IMAGE_SIZE(img));
	if (!c.px) {
		perr_set(e, "out of memory");
		goto out;
	}
	if (!png_image_finish_read(&img, NULL, c.px, 0, NULL)) {
		perr_set(e, "%s: reading it back: %s", path, img.message);
		goto out;
	}
	if (p->width > 0 && p->height > 0 && p->nspans) {
		if (!(bg = background(&c, p))) {
			perr_set(e, "out of memory");
			goto out;
		}
		for (size_t i = 0; i < p->nspans; i++)
			shade(&c, p, bg, &p->spans[i]);
	}
	numbers(&c, p);
	png_image_free(&img);
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	img.width = (png_uint_32)c.w;
	img.height = (png_uint_32)c.h;
	img.format = PNG_FORMAT_RGBA;
	if (!png_image_write_to_file(&img, path, 0, c.px, 0, NULL)) {
		perr_set(e, "%s: writing it: %s", path, img.message);
		goto out;
	}
	rc = 0;
out:
	png_image_free(&img);
	free(bg);
	free(c.px);
	return rc;
}
