/*
 * png_rows.c - what a chart's points are (png.h): the point's seconds,
 * the archive librrd reads for them and whether MIN and MAX archives sit
 * beside it. png.c draws the band from this (MIN/MAX DEFs, or the
 * AVERAGE rows reduced with MIN and MAX) and says it under the legends.
 *
 * The archive is librrd's own choice, asked the way rrd_graph asks it:
 * rrd_fetch_r over the graph's span at the graph's step (the DEF's
 * fetch), once for AVERAGE and once for MIN. A MIN answer at the same
 * step means the consolidated archive holds MIN (and MAX: the log set
 * writes the three together, logs/logset.h) for those rows.
 */
#include "png.h"

#include <stdio.h>

#include <rrd.h>

#include "../common/util.h"
#include "../logs/rrdlock.h"

unsigned long png_point_step(const struct png_options *o)
{
	long width = o->width ? o->width : PNG_DEFAULT_WIDTH;
	long plot = width - 160 > width / 4 ? width - 160 : width / 4;
	long span = (long)(o->to - o->from);

	if (plot < 1 || span <= plot)
		return 1;
	return (unsigned long)((span + plot - 1) / plot);
}

/* The step librrd answers for cf, or 0 when the file has no such
 * archive (or cannot be read: the graph will say why). */
static unsigned long archive_step(const char *file, const char *cf,
				  time_t from, time_t to, unsigned long point)
{
	time_t start = from, end = to;
	unsigned long step = point, ds_cnt = 0;
	char **names = NULL;
	rrd_value_t *data = NULL;

	if (rrdlock_fetch(file, cf, &start, &end, &step, &ds_cnt, &names,
			  &data) != 0) {
		rrd_clear_error();
		return 0;
	}
	for (unsigned long d = 0; d < ds_cnt; d++)
		rrd_freemem(names[d]);
	rrd_freemem(names);
	rrd_freemem(data);
	return step;
}

int png_rows_of(const char *file, time_t from, time_t to, unsigned long point,
		unsigned long base, struct png_rows *r, struct perr *e)
{
	r->point = point ? point : 1;
	r->base = base;
	r->archive = archive_step(file, "AVERAGE", from, to, r->point);
	r->minmax = 0;
	if (!r->archive)
		return perr_set(e, "%s: no AVERAGE archive for the chart's span",
				file);
	r->minmax = archive_step(file, "MIN", from, to, r->point) == r->archive;
	/* rrd_graph consolidates rows into points of a whole number of rows */
	if (r->point < r->archive)
		r->point = r->archive;
	else
		r->point = (r->point + r->archive - 1) / r->archive * r->archive;
	return 0;
}

int png_rows_band(const struct png_rows *r)
{
	int consolidated = r->base ? r->archive > r->base : r->minmax;

	return consolidated || r->point > r->archive;
}

char *png_rows_note(char *buf, size_t n, const struct png_rows *r,
		    int stacked)
{
	char st[32];

	buf[0] = '\0';
	if (!r->archive)
		return buf;	/* librrd could not say */
	util_fmt_step(st, sizeof(st), r->archive, 0);
	if (png_rows_band(r))
		snprintf(buf, n, "avg of %s rows%s", st,
			 stacked ? "" : ", band min..max");
	else
		snprintf(buf, n, "%s rows", st);
	return buf;
}
