/*
 * png_args.c - the rrd_graph_v argument vector of a chart, built as
 * rrdtool's own command line would be, and the text and colours that go
 * into it (png_int.h). Text that ends up in the graph is escaped: ':' is
 * rrdtool's field separator and a backslash starts its alignment codes.
 */
#include "png_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strbuf.h"

/* Dark, distinct, legible in grey print: ColorBrewer Dark2 and Set1,
 * then Paired's and Tableau's darker ones. 24 is the most series a chart
 * of png_export has (its MAX_SERIES): the 10 of before came round again
 * in a network chart of six interfaces (lo received and the sixth's sent
 * both teal). */
static const char *const palette[PNG_PALETTE] = {
	"#1B9E77", "#D95F02", "#7570B3", "#E7298A", "#66A61E",
	"#E6AB02", "#A6761D", "#377EB8", "#E41A1C", "#4D4D4D",
	"#984EA3", "#FF7F00", "#1F78B4", "#33A02C", "#B15928",
	"#6A3D9A", "#F781BF", "#76B7B2", "#9C755F", "#BCBD22",
	"#17BECF", "#000080", "#8C564B", "#C51B7D",
};

const char *png_colour(char *buf, size_t n, size_t i)
{
	if (i < PNG_PALETTE) {
		snprintf(buf, n, "%s", palette[i]);
		return buf;
	}
	/* past the palette: hues a golden angle apart at a dark, saturated
	 * tone, each index its own (never a repeat in one chart) */
	double h = fmod((double)(i - PNG_PALETTE) * 137.508 + 15, 360) / 60;
	double c = 0.55, x = c * (1 - fabs(fmod(h, 2) - 1)), m = 0.15;
	double r = 0, g = 0, b = 0;
	switch ((int)h) {
	case 0: r = c; g = x; break;
	case 1: r = x; g = c; break;
	case 2: g = c; b = x; break;
	case 3: g = x; b = c; break;
	case 4: r = x; b = c; break;
	default: r = c; b = x; break;
	}
	snprintf(buf, n, "#%02X%02X%02X", (int)lround((r + m) * 255),
		 (int)lround((g + m) * 255), (int)lround((b + m) * 255));
	return buf;
}

/* Light, of hues far apart, so that the lines drawn over them (the
 * series palette, dark) stay legible and two sessions, nested or side
 * by side, never look alike: blue, orange, green, purple, yellow, pink,
 * teal, grey. Defined here once: the legends and the image's shading
 * both read it. */
static const unsigned char session_palette[PNG_SESSION_PALETTE][3] = {
	{ 0xC6, 0xDB, 0xF5 }, { 0xFD, 0xD4, 0xA8 }, { 0xC9, 0xEB, 0xC0 },
	{ 0xDD, 0xCF, 0xF0 }, { 0xFA, 0xF0, 0xA0 }, { 0xF7, 0xC9, 0xDD },
	{ 0xB8, 0xE8, 0xE3 }, { 0xDD, 0xDD, 0xDD },
};

void png_session_rgb(unsigned char rgb[3], size_t k)
{
	memcpy(rgb, session_palette[k % PNG_SESSION_PALETTE], 3);
}

const char *png_session_colour(char *buf, size_t n, size_t k)
{
	const unsigned char *c = session_palette[k % PNG_SESSION_PALETTE];

	snprintf(buf, n, "#%02X%02X%02X", c[0], c[1], c[2]);
	return buf;
}

void png_arg(struct strbuf *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vprintf(a, fmt, ap);
	va_end(ap);
	strbuf_add(a, "", 1);
}

char **png_args_vector(const struct strbuf *a, size_t *n)
{
	char **v;

	*n = 0;
	for (size_t i = 0; i < a->len; i++)
		*n += a->p[i] == '\0';
	v = malloc((*n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0, k = 0; k < *n; k++) {
		v[k] = a->p + i;
		i += strlen(a->p + i) + 1;
	}
	v[*n] = NULL;
	return v;
}

char *png_esc(char *buf, size_t n, const char *s)
{
	size_t j = 0;

	for (; s && *s && j + 3 < n; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f || c == '\\')
			continue;
		if (c == ':')
			buf[j++] = '\\';
		buf[j++] = (char)c;
	}
	buf[j] = '\0';
	return buf;
}

char *png_esc_cut(char *buf, size_t n, const char *s, size_t max)
{
	size_t j = 0, chars = 0;

	for (; s && *s && j + 8 < n; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || c == '\\')
			continue;
		if ((c & 0xC0) != 0x80 && ++chars > max) {
			memcpy(buf + j, "...", 3);
			j += 3;
			break;
		}
		if (c == ':')
			buf[j++] = '\\';
		buf[j++] = (char)c;
	}
	buf[j] = '\0';
	return buf;
}

char *png_esc_path(char *buf, size_t n, const char *s)
{
	size_t j = 0;

	for (; *s && j + 3 < n; s++) {
		if (*s == ':')
			buf[j++] = '\\';
		buf[j++] = *s;
	}
	buf[j] = '\0';
	return buf;
}
