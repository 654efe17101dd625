/*
 * png_draw.c - a chart drawn (png.h: png_render_here): its argument
 * vector (png.c) through rrd_graph_v twice, the first pass's PRINTed
 * figures giving the second its axis and legends, what librrd reports
 * of the plot read back, and what it cannot draw drawn on the image
 * (png_overlay.c: the sessions' shading to the pixel, the markers'
 * numbers). Also png_size, a PNG's size from its header.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rrd.h>

#include "../common/strbuf.h"
#include "../common/util.h"
#include "../logs/rrdlock.h"
#include "png.h"
#include "png_int.h"

/* A PRINTed figure: NAN when librrd printed none (nan, or nothing). */
static double parse_print(const char *s)
{
	char *end;
	double v;

	if (!s)
		return NAN;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno)
		return NAN;
	return v;
}

/* rrd_graph_v, a live set's update holding a file's lock waited out
 * (rrdlock.h). In png_apart's child: its TZ is UTC. */
static rrd_info_t *graph(int argc, char **argv)
{
	double until = rrdlock_deadline(RRDLOCK_READ_WAIT);
	rrd_info_t *info;

	do {
		rrd_clear_error();
		info = rrd_graph_v(argc, argv);
	} while (!info && rrdlock_again(until));
	return info;
}

/* The PRINT results, three per series: min, avg, max. */
static void read_legend(const rrd_info_t *info, size_t nseries,
			struct png_legend *legend)
{
	for (size_t i = 0; i < nseries; i++) {
		legend[i].min = legend[i].avg = legend[i].max = NAN;
		legend[i].max_text[0] = '\0';
	}
	for (const rrd_info_t *p = info; p; p = p->next) {
		unsigned long k;
		if (p->type != RD_I_STR || sscanf(p->key, "print[%lu]", &k) != 1)
			continue;
		if (k / 3 >= nseries)
			continue;
		double v = parse_print(p->value.u_str);
		if (k % 3 == 0)
			legend[k / 3].min = v;
		else if (k % 3 == 1)
			legend[k / 3].avg = v;
		else
			legend[k / 3].max = v;
	}
}

/* Every legend text the graph drew, one a line, rrdtool's indent off. */
static void read_texts(const rrd_info_t *info, struct strbuf *out)
{
	for (const rrd_info_t *p = info; p; p = p->next) {
		if (p->type != RD_I_STR || strncmp(p->key, "legend[", 7))
			continue;
		strbuf_printf(out, "%s\n",
			      p->value.u_str + strspn(p->value.u_str, " "));
	}
}

static void read_frame(const rrd_info_t *info, struct png_frame *f)
{
	memset(f, 0, sizeof(*f));
	for (const rrd_info_t *p = info; p; p = p->next) {
		if (p->type == RD_I_CNT && !strcmp(p->key, "graph_left"))
			f->graph_left = (long)p->value.u_cnt;
		else if (p->type == RD_I_CNT && !strcmp(p->key, "graph_width"))
			f->graph_width = (long)p->value.u_cnt;
		else if (p->type == RD_I_CNT && !strcmp(p->key, "image_width"))
			f->image_width = (long)p->value.u_cnt;
		else if (p->type == RD_I_CNT && !strcmp(p->key, "graph_top"))
			f->graph_top = (long)p->value.u_cnt;
		else if (p->type == RD_I_CNT && !strcmp(p->key, "graph_height"))
			f->graph_height = (long)p->value.u_cnt;
		else if (p->type == RD_I_CNT && !strcmp(p->key, "image_height"))
			f->image_height = (long)p->value.u_cnt;
		else if (p->type == RD_I_CNT && !strcmp(p->key, "graph_start"))
			f->graph_start = (long)p->value.u_cnt;
		else if (p->type == RD_I_CNT && !strcmp(p->key, "graph_end"))
			f->graph_end = (long)p->value.u_cnt;
		else if (p->type == RD_I_VAL && !strcmp(p->key, "value_min"))
			f->value_min = p->value.u_val;
		else if (p->type == RD_I_VAL && !strcmp(p->key, "value_max"))
			f->value_max = p->value.u_val;
	}
}

/* One pass through rrd_graph_v: its info, or NULL with e set. */
static rrd_info_t *pass(struct strbuf *a, const char *path, struct perr *e)
{
	size_t argc = 0;
	char **argv = a->failed ? NULL : png_args_vector(a, &argc);
	rrd_info_t *info = NULL;

	if (!argv) {
		perr_set(e, "out of memory");
		return NULL;
	}
	info = graph((int)argc, argv);
	if (!info) {
		const char *m = rrd_get_error();
		perr_set(e, "%s: rrd_graph: %s", path, m && *m ? m : "failed");
		rrd_clear_error();
	}
	free(argv);
	return info;
}

/* The sessions shaded and the markers numbered on the image librrd
 * wrote (png_overlay.c), on the plot it says it drew. 0, or -1 with e
 * set. */
static int overlay(const char *path, const struct png_options *o,
		   const struct png_frame *f, const int *num, struct perr *e)
{
	struct png_paint_span *sp = calloc(o->nspans + 1, sizeof(*sp));
	struct png_paint_mark *mk = calloc(o->nmarks + 1, sizeof(*mk));
	struct png_paint p = {
		.left = f->graph_left, .top = f->graph_top,
		.width = f->graph_width, .height = f->graph_height,
		.start = f->graph_end > f->graph_start ? (double)f->graph_start :
			 (double)o->from,
		.end = f->graph_end > f->graph_start ? (double)f->graph_end :
		       (double)o->to,
		.spans = sp, .marks = mk,
		.digit = (o->width ? o->width : PNG_DEFAULT_WIDTH) >= 600 ? 2 : 1,
	};
	int rc = 0;

	if (!sp || !mk) {
		free(sp);
		free(mk);
		return perr_set(e, "out of memory");
	}
	for (size_t k = 0; k < o->nspans; k++) {
		if (o->spans[k].end < o->from || o->spans[k].begin > o->to)
			continue;
		sp[p.nspans].begin = o->spans[k].begin;
		sp[p.nspans].end = o->spans[k].end;
		png_session_rgb(sp[p.nspans].rgb, p.nspans);
		p.nspans++;
	}
	for (size_t k = 0; k < o->nmarks; k++)
		if (o->marks[k].t >= o->from && o->marks[k].t <= o->to) {
			mk[p.nmarks].t = o->marks[k].t;
			mk[p.nmarks].num = num[k];
			p.nmarks++;
		}
	if (p.nspans || p.nmarks)
		rc = png_overlay(path, &p, e);
	free(sp);
	free(mk);
	return rc;
}

/* The axis of the chart: its unit at the size of the largest figure
 * (of a stack, the sum of the maxima: its top). */
static void axis_of(const struct png_chart *c, int stack,
		    const struct png_legend *fig, struct units_axis *ax)
{
	double top = NAN;

	for (size_t i = 0; i < c->nseries; i++) {
		if (isnan(fig[i].max))
			continue;
		if (isnan(top))
			top = fig[i].max;
		else
			top = stack ? top + fig[i].max : fmax(top, fig[i].max);
	}
	units_axis_of(c->unit, top, ax);
}

int png_render_here(const char *path, const struct png_chart *c, int stack,
		    const struct png_options *o, struct png_legend *legend,
		    struct perr *e)
{
	struct strbuf a = STRBUF_INIT;
	struct png_rows *rows = calloc(c->nseries + 1, sizeof(*rows));
	int *band = calloc(c->nseries + 1, sizeof(*band));
	struct png_legend *fig = calloc(c->nseries + 1, sizeof(*fig));
	int *num = calloc(o->nmarks + 1, sizeof(*num));
	struct units_axis ax;
	struct png_frame frame;
	rrd_info_t *info = NULL;
	size_t unnumbered;
	int rc = -1;

	if (!rows || !band || !fig || !num) {
		perr_set(e, "out of memory");
		goto out;
	}
	if (png_vec_plan(path, c, stack, o, rows, band, e) < 0)
		goto out;
	unnumbered = png_vec_numbers(o, num);
	png_vec_build(&a, path, c, stack, o, rows, band, NULL, NULL, num, unnumbered);
	if (!(info = pass(&a, path, e)))
		goto out;
	read_legend(info, c->nseries, fig);
	rrd_info_free(info);
	axis_of(c, stack, fig, &ax);
	strbuf_free(&a);
	png_vec_build(&a, path, c, stack, o, rows, band, fig, &ax, num, unnumbered);
	if (!(info = pass(&a, path, e)))
		goto out;
	if (o->legends)
		read_texts(info, o->legends);
	read_frame(info, &frame);
	if (o->frame)
		*o->frame = frame;
	rrd_info_free(info);
	if (overlay(path, o, &frame, num, e) < 0)
		goto out;
	for (size_t i = 0; legend && i < c->nseries; i++) {
		char mx[24];
		legend[i] = fig[i];
		snprintf(legend[i].max_text, sizeof(legend[i].max_text),
			 "max %s", units_fmt(mx, sizeof(mx), fig[i].max, c->unit));
		png_rows_note(legend[i].points, sizeof(legend[i].points),
			      &rows[i], stack);
	}
	rc = 0;
out:
	strbuf_free(&a);
	free(rows);
	free(band);
	free(fig);
	free(num);
	return rc;
}

int png_size(const char *path, int *width, int *height, struct perr *e)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n',
					      0x1a, '\n' };
	unsigned char h[24];
	FILE *f = fopen(path, "rb");

	if (!f)
		return perr_set(e, "unable to open '%s': %s", path,
				strerror(errno));
	size_t got = fread(h, 1, sizeof(h), f);
	fclose(f);
	if (got < sizeof(h) || memcmp(h, sig, 8) || memcmp(h + 12, "IHDR", 4))
		return perr_set(e, "'%s' is not a PNG file", path);
	*width = (int)((uint32_t)h[16] << 24 | (uint32_t)h[17] << 16 |
		       (uint32_t)h[18] << 8 | h[19]);
	*height = (int)((uint32_t)h[20] << 24 | (uint32_t)h[21] << 16 |
			(uint32_t)h[22] << 8 | h[23]);
	return 0;
}
