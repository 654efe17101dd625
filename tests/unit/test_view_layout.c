/*
 * test_view_layout.c - the viewer's pure drawing logic (viewer/layout.h):
 * value formatting, nice scales, time ticks, resampling, window statistics,
 * row lookup for the cursor, geometry at 80x24, braille and ASCII
 * rendering, marker and session placement, readouts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../viewer/layout.h"
#include "../../viewer/plot.h"
#include "tap.h"

static void test_format(void)
{
	char b[32];
	EQ_STR(vl_fmt_value(b, sizeof(b), 12.345, UNIT_PERCENT), "12.3%", "percent");
	EQ_STR(vl_fmt_value(b, sizeof(b), 100, UNIT_PERCENT), "100.0%", "percent 100");
	EQ_STR(vl_fmt_value(b, sizeof(b), 1.5 * 1048576, UNIT_BYTES_SEC), "1.5 MiB/s", "MiB/s");
	EQ_STR(vl_fmt_value(b, sizeof(b), 512 * 1024, UNIT_BYTES), "512.0 KiB", "KiB");
	EQ_STR(vl_fmt_value(b, sizeof(b), 3.0 * 1073741824, UNIT_BYTES), "3.0 GiB", "GiB");
	EQ_STR(vl_fmt_value(b, sizeof(b), 3200, UNIT_PER_SEC), "3.2 k/s", "per second");
	EQ_STR(vl_fmt_value(b, sizeof(b), 0.012, UNIT_SECONDS), "12.0 ms", "seconds");
	EQ_STR(vl_fmt_value(b, sizeof(b), 1e9, UNIT_BITS_SEC), "1 Gb/s", "bits");
	EQ_STR(vl_fmt_value(b, sizeof(b), NAN, UNIT_PERCENT), "-", "unknown");
	EQ_STR(vl_fmt_value(b, sizeof(b), 0, UNIT_BYTES_SEC), "0 B/s", "zero");
	/* the report's format (counters/units.h), not "5e-04%", "23.0GB" */
	EQ_STR(vl_fmt_value(b, sizeof(b), 5e-4, UNIT_PERCENT), "0.0%", "tiny percent");
	EQ_STR(vl_fmt_value(b, sizeof(b), 24.7e9, UNIT_BYTES), "23.0 GiB",
	       "available memory in GiB, as the report");
	EQ_STR(vl_fmt_value(b, sizeof(b), 272.31e-6, UNIT_SECONDS), "0.27 ms",
	       "latency in ms, as sar's await");
	EQ_STR(vl_fmt_axis(b, sizeof(b), 100, UNIT_PERCENT), "100%", "axis percent");
	EQ_STR(vl_fmt_axis(b, sizeof(b), 1.5 * 1048576, UNIT_BYTES_SEC), "1.5M", "axis 1.5M");
	EQ_STR(vl_fmt_axis(b, sizeof(b), 20.0 * 1073741824, UNIT_BYTES), "20G", "axis 20G");
	EQ_STR(vl_fmt_axis(b, sizeof(b), 0, UNIT_BYTES), "0", "axis 0");
	OK(strlen(vl_fmt_axis(b, sizeof(b), 1023.0 * 1048576, UNIT_BYTES)) <= 5,
	   "axis label fits 5 cells");
	/* an idle host's residues: the readout's range said "2e-04" (issue 49) */
	EQ_STR(vl_fmt_axis(b, sizeof(b), 2e-4, UNIT_PERCENT), "0%", "axis 2e-4% is 0%");
	EQ_STR(vl_fmt_axis(b, sizeof(b), 5e-20, UNIT_PERCENT), "0%", "axis 5e-20% is 0%");
	EQ_STR(vl_fmt_axis(b, sizeof(b), 3e-9, UNIT_SECONDS), "0m", "axis 3 ns is 0 ms");
	{
		static const enum counter_unit us[] = { UNIT_PERCENT,
			UNIT_BYTES_SEC, UNIT_PER_SEC, UNIT_BYTES, UNIT_SECONDS,
			UNIT_BITS_SEC, UNIT_COUNT, UNIT_MILLISECONDS };
		int sci = 0;

		for (size_t k = 0; k < sizeof(us) / sizeof(us[0]); k++)
			for (double v = 1e-25; v < 1e16; v *= 7.3) {
				char a[40], c[40];

				vl_fmt_axis(a, sizeof(a), v, us[k]);
				vl_fmt_value(c, sizeof(c), v, us[k]);
				if (strstr(a, "e-") || strstr(a, "e+") ||
				    strstr(c, "e-") || strstr(c, "e+")) {
					if (!sci++)
						printf("# %g: '%s', '%s'\n", v, a, c);
				}
			}
		EQ_INT(sci, 0, "no axis label or readout in e-notation, 1e-25..1e16, every unit");
	}
}

static void test_scale(void)
{
	struct vl_scale s = vl_nice_scale(0, 37, 2, UNIT_PERCENT);
	EQ_DBL(s.lo, 0, 0, "percent scale from 0");
	EQ_DBL(s.hi, 40, 1e-9, "37% -> 40");
	EQ_DBL(s.step, 20, 1e-9, "step 20");
	s = vl_nice_scale(0, 99, 2, UNIT_PERCENT);
	EQ_DBL(s.hi, 100, 1e-9, "99% -> 100, not 150");
	s = vl_nice_scale(0, 150, 2, UNIT_PERCENT);
	OK(s.hi >= 150, "process % above 100 keeps its range");
	s = vl_nice_scale(0, 3.1 * 1048576, 2, UNIT_BYTES_SEC);
	EQ_DBL(s.step, 2.0 * 1048576, 1, "bytes step in MiB");
	EQ_DBL(s.hi, 4.0 * 1048576, 1, "3.1 MiB -> 4 MiB");
	s = vl_nice_scale(NAN, NAN, 2, UNIT_BYTES);
	OK(s.hi > s.lo, "empty series still gets a scale");
	s = vl_nice_scale(5, 5, 2, UNIT_COUNT);
	OK(s.hi >= 5 && s.lo == 0, "flat series");
	s = vl_nice_scale(0, 5e-20, 2, UNIT_PERCENT);
	EQ_DBL(s.hi, 10, 1e-9, "5e-20% is flat: the default 0..10%, not 1e-20 steps");
	s = vl_nice_scale(0, 2e-4, 2, UNIT_SECONDS);
	OK(s.step >= 1e-4, "0.2 ms: steps a readout shows");
	s = vl_nice_scale(-3, 7, 2, UNIT_COUNT);
	OK(s.lo <= -3 && s.hi >= 7, "negative data inside the scale");
}

static void test_time_step(void)
{
	EQ_INT(vl_time_step(60, 60, 10), 10, "1 min over 60 cells: 10 s");
	EQ_INT(vl_time_step(3600, 68, 10), 600, "1 h over 68 cells: 10 min");
	EQ_INT(vl_time_step(7 * 86400, 100, 10), 86400, "7 d over 100 cells: 1 day");
	EQ_INT(vl_time_step(7 * 86400, 68, 10), 172800, "7 d over 68 cells: 2 days");
}

static void test_resample(void)
{
	double v[10];
	for (int i = 0; i < 10; i++)
		v[i] = i;	/* row i stamped 1000 + 10 i */
	struct vl_rows r = { v, 10, 1, 1000, 10, NULL, NULL };
	double out[5];
	/* window (1000, 1100]: 5 columns of 20 s, 2 rows each */
	vl_resample(&r, 1000, 1100, out, 5);
	EQ_DBL(out[0], 0.5, 1e-9, "column 0 averages rows 1000,1010");
	EQ_DBL(out[4], 8.5, 1e-9, "column 4 averages rows 1080,1090");
	/* zoomed in: 4 columns over 20 s, each 5 s, narrower than a row */
	double o2[4];
	vl_resample(&r, 1000, 1020, o2, 4);
	EQ_DBL(o2[0], 1, 1e-9, "1002.5 lies in (1000,1010]: row 1");
	EQ_DBL(o2[2], 2, 1e-9, "1012.5 lies in (1010,1020]: row 2");
	/* outside the data */
	vl_resample(&r, 2000, 2100, out, 5);
	OK(isnan(out[0]) && isnan(out[4]), "no data -> NAN");
	v[3] = NAN;
	vl_resample(&r, 1000, 1040, o2, 2);
	EQ_DBL(o2[1], 2, 1e-9, "NAN rows are skipped in a mean");
}

/* The band: a column's lowest and highest, from its rows (single
 * samples) or their MIN and MAX (consolidated rows). */
static void test_band(void)
{
	double v[10], lo[10], hi[10], out[5], a[5], b[5];
	for (int i = 0; i < 10; i++)
		v[i] = i == 7 ? 90 : 10;	/* one row of 90 among 10s */
	struct vl_rows r = { v, 10, 1, 1000, 10, NULL, NULL };
	vl_resample_band(&r, 1000, 1100, out, a, b, 5);
	EQ_DBL(out[3], 50, 1e-9, "column 3 averages 10 and 90");
	EQ_DBL(b[3], 90, 0, "its band reaches the row of 90");
	EQ_DBL(a[3], 10, 0, "and down to 10");
	EQ_DBL(a[0], 10, 0, "a flat column's band is its value");
	EQ_DBL(b[0], 10, 0, "(no height)");
	/* consolidated rows: each row's MIN and MAX bound the band */
	for (int i = 0; i < 10; i++) {
		v[i] = 5;
		lo[i] = 4;
		hi[i] = i == 2 ? 100 : 6;
	}
	r.lo = lo;
	r.hi = hi;
	vl_resample_band(&r, 1000, 1100, out, a, b, 5);
	EQ_DBL(out[1], 5, 1e-9, "the line stays the average");
	EQ_DBL(b[1], 100, 0, "max of the rows' MAXes: the peak inside a row");
	EQ_DBL(a[1], 4, 0, "min of the rows' MINs");
	EQ_DBL(b[2], 6, 0, "columns without the peak");
	/* narrower columns than rows: the row's own MIN and MAX */
	double c[4], lo4[4], hi4[4];
	vl_resample_band(&r, 1000, 1020, c, lo4, hi4, 4);
	EQ_DBL(hi4[2], 100, 0, "a zoomed-in column shows its row's MAX");
	EQ_DBL(hi4[0], 6, 0, "and the row before its own");
	/* an unknown MIN or MAX falls back on the row's value */
	lo[2] = NAN;
	vl_resample_band(&r, 1000, 1020, c, lo4, hi4, 4);
	EQ_DBL(lo4[2], 5, 0, "unknown MIN: the average");
	/* window statistics take the MINs and MAXes */
	struct vl_stats st = vl_window_stats(&r, 1000, 1100);
	EQ_DBL(st.max, 100, 0, "window max from the MAX rows");
	EQ_DBL(st.avg, 5, 1e-9, "window avg from the AVERAGE rows");
	EQ_DBL(st.min, 4, 0, "window min from the MIN rows");
	/* the plain resample leaves the band out */
	vl_resample(&r, 1000, 1100, out, 5);
	EQ_DBL(out[1], 5, 1e-9, "vl_resample: the average alone");
}

static void test_stats_rowat(void)
{
	double v[6] = { 5, NAN, 1, 9, 3, NAN };
	struct vl_rows r = { v, 6, 1, 100, 5, NULL, NULL };
	struct vl_stats s = vl_window_stats(&r, 95, 130);
	EQ_INT(s.n, 4, "four known rows");
	EQ_DBL(s.min, 1, 0, "min");
	EQ_DBL(s.max, 9, 0, "max");
	EQ_DBL(s.avg, 4.5, 1e-9, "avg");
	EQ_DBL(s.cur, 3, 0, "cur is the newest known");
	s = vl_window_stats(&r, 100, 110);	/* only rows 105, 110 */
	EQ_DBL(s.cur, 1, 0, "window bounds (from, to]");
	time_t st;
	EQ_INT(vl_row_at(&r, 111, &st), 3, "row covering 111");
	EQ_INT(st, 115, "its stamp");
	EQ_INT(vl_row_at(&r, 115, &st), 3, "a stamp is its own row");
	EQ_INT(vl_row_at(&r, 500, &st), -1, "past the end");
	EQ_INT(vl_row_at(&r, 10, &st), -1, "before the start");
}

static void test_plan(void)
{
	struct vl_plan p;
	vl_plan(80, 24, 4, 0, VL_BRAILLE, &p);
	OK(p.ok, "80x24 fits four panes");
	EQ_INT(p.npanes, 4, "four panes");
	EQ_INT(p.plot_w, 80 - 12, "plot width");
	EQ_INT(p.dots, 2 * (80 - 12), "braille: two dots a cell");
	EQ_INT(p.pane[0].y, 2, "first pane below header and marker row");
	EQ_INT(p.pane[3].y + 1 + p.pane[3].plot_h, 22, "panes end at the axis");
	EQ_INT(p.axis_row, 22, "axis row");
	OK(p.pane[0].plot_h >= 4, "at least four plot rows each");
	vl_plan(80, 24, 12, 0, VL_BRAILLE, &p);
	EQ_INT(p.npanes, 10, "panes that cannot fit are dropped");
	vl_plan(20, 5, 4, 0, VL_BRAILLE, &p);
	OK(!p.ok, "tiny terminal: too small");
	vl_plan(140, 40, 4, 1, VL_ASCII, &p);
	OK(p.legend_w >= 24, "legend at 140 columns");
	EQ_INT(p.dots, (size_t)p.plot_w, "ASCII: one dot a cell");
	vl_plan(80, 24, 4, 0, VL_BRAILLE, &p);
	EQ_INT(vl_time_col(&p, 0, 680, 0), 0, "window start: column 0");
	EQ_INT(vl_time_col(&p, 0, 680, 680), 67, "window end: last column");
	EQ_INT(vl_time_col(&p, 0, 680, 345), 34, "middle");
	EQ_INT(vl_time_col(&p, 0, 680, 700), -1, "outside");
	EQ_DBL(vl_col_time(&p, 0, 680, 34), 345, 1e-9, "column 34's middle");
}

/* A frame with one pane, a marker and a session; look at the cells. */
static void test_render(void)
{
	struct vl_plan p;
	vl_plan(80, 24, 1, 0, VL_BRAILLE, &p);
	double *pts = malloc(p.dots * sizeof(double));
	for (size_t i = 0; i < p.dots; i++)
		pts[i] = i < p.dots / 2 ? 0 : 100;	/* a step up */
	struct vl_line line = { .label = "total", .axis = 0, .color = 1,
				.pts = pts, .at_cursor = 42, .ref = NAN };
	line.st = (struct vl_stats){ 100, 0, 50, 100, 10 };
	struct vl_pane pane = { .title = "CPU", .unit = { UNIT_PERCENT },
				.has_axis = { 1, 0 }, .lines = &line,
				.nlines = 1 };
	struct vl_mark mk = { 1000 + 100, "backup start" };
	struct vl_span sp = { 1000 + 300, 1000 + 500, "nightly", "", 0 };
	struct vl_view v = { .from = 1000, .to = 1000 + 680, .header = "host",
			     .glyphs = VL_BRAILLE, .panes = &pane, .npanes = 1,
			     .marks = &mk, .nmarks = 1, .spans = &sp,
			     .nspans = 1, .utc = 1, .focus = -1 };
	struct vl_grid g = { 0 };
	OK(vl_render(&v, &p, &g) == 0, "render");
	char row[1024];
	vl_grid_row(&g, p.pane[0].y, row, sizeof(row));
	OK(strstr(row, "CPU [%]") && strstr(row, "total 100.0%"),
	   "title with unit and newest value");
	vl_grid_row(&g, p.marker_row, row, sizeof(row));
	OK(strstr(row, "backup start") != NULL, "marker label on marker row");
	OK(strstr(row, "nightly") != NULL, "session name on marker row");
	int mx = p.plot_x + vl_time_col(&p, v.from, v.to, mk.t);
	EQ_INT(vl_grid_at(&g, mx, p.marker_row)->ch, 0x25bc, "marker arrow at its column");
	EQ_INT(vl_grid_at(&g, mx, p.pane[0].plot_y + 1)->ch, 0x2502,
	       "marker line through the pane");
	int sx = p.plot_x + vl_time_col(&p, v.from, v.to, 1400);
	OK(vl_grid_at(&g, sx, p.pane[0].plot_y)->attr & VL_A_SHADE,
	   "session columns shaded");
	OK(!(vl_grid_at(&g, p.plot_x + 2, p.pane[0].plot_y)->attr & VL_A_SHADE),
	   "outside the session not shaded");
	/* the step: low half at the bottom row, high half at the top row */
	int bottom = p.pane[0].plot_y + p.pane[0].plot_h - 1;
	uint32_t c = vl_grid_at(&g, p.plot_x + 5, bottom)->ch;
	OK(c >= 0x2840 && c <= 0x28ff, "0% as braille in the bottom row");
	OK((c - 0x2800) & 0xc0, "on the lowest dot row");
	c = vl_grid_at(&g, p.plot_x + p.plot_w - 3, p.pane[0].plot_y)->ch;
	OK(c > 0x2800 && c <= 0x28ff && ((c - 0x2800) & 0x09),
	   "100% on the top dot row");
	vl_grid_row(&g, p.pane[0].plot_y, row, sizeof(row));
	OK(!strncmp(row, " 100%", 5), "top y label 100%");
	vl_grid_row(&g, p.axis_row, row, sizeof(row));
	OK(strstr(row, "00:") != NULL, "time labels on the axis");
	/* cursor on: readout in the title and cursor column marked */
	v.cursor_on = 1;
	v.cursor = 1000 + 345;
	vl_render(&v, &p, &g);
	vl_grid_row(&g, p.pane[0].y, row, sizeof(row));
	OK(strstr(row, "total 42.0%") != NULL, "cursor value in the title");
	EQ_INT(vl_grid_at(&g, p.plot_x + 34, p.axis_row)->ch, 0x25b2,
	       "cursor mark on the axis");
	/* ASCII and mono */
	vl_plan(100, 24, 1, 1, VL_ASCII, &p);
	OK(p.legend_w > 0, "legend at 100 columns");
	free(pts);
	pts = malloc(p.dots * sizeof(double));
	for (size_t i = 0; i < p.dots; i++)
		pts[i] = 50;
	line.pts = pts;
	v.glyphs = VL_ASCII;
	v.mono = 1;
	v.legend = 1;
	vl_render(&v, &p, &g);
	int ascii_only = 1;
	for (int i = 0; i < g.w * g.h; i++)
		if (g.c[i].ch >= 0x80)
			ascii_only = 0;
	OK(ascii_only, "ASCII mode writes only ASCII");
	int found = 0;
	for (int y = p.pane[0].plot_y; y < p.pane[0].plot_y + p.pane[0].plot_h; y++)
		if (vl_grid_at(&g, p.plot_x + 10, y)->ch == '*')
			found = 1;
	OK(found, "mono: first line drawn with '*'");
	vl_grid_row(&g, p.pane[0].y, row, sizeof(row));
	OK(strstr(row, "cur") && strstr(row, "max"), "legend header");
	vl_grid_row(&g, p.pane[0].plot_y, row, sizeof(row));
	OK(strstr(row, "total") && strstr(row, "50.0%"), "legend row: min 0 avg 50");
	vl_grid_free(&g);
	free(pts);
}

/* A flat line at 5% with a band up to 100% in one column: the scale
 * takes the band in, the band's cells are dimmed braille (or '.'), the
 * line wins the cells it passes through. */
static void test_band_render(void)
{
	struct vl_plan p;
	vl_plan(80, 24, 1, 0, VL_BRAILLE, &p);
	double *pts = malloc(3 * p.dots * sizeof(double));
	double *lo = pts + p.dots, *hi = pts + 2 * p.dots;
	size_t peak = 40;
	for (size_t i = 0; i < p.dots; i++) {
		pts[i] = 5;
		lo[i] = 4;
		hi[i] = i == peak ? 100 : 6;
	}
	struct vl_line line = { .label = "total", .axis = 0, .color = 1,
				.pts = pts, .lo = lo, .hi = hi,
				.at_cursor = 14.5, .at_lo = 5, .at_hi = 100,
				.ref = NAN };
	line.st = (struct vl_stats){ 5, 4, 5, 100, 10 };
	struct vl_pane pane = { .title = "CPU", .unit = { UNIT_PERCENT },
				.has_axis = { 1, 0 }, .lines = &line,
				.nlines = 1 };
	struct vl_view v = { .from = 1000, .to = 1000 + 680, .header = "host",
			     .glyphs = VL_BRAILLE, .panes = &pane, .npanes = 1,
			     .utc = 1, .focus = -1 };
	struct vl_grid g = { 0 };
	char row[1024];
	OK(vl_render(&v, &p, &g) == 0, "render with a band");
	vl_grid_row(&g, p.pane[0].plot_y, row, sizeof(row));
	OK(!strncmp(row, " 100%", 5), "the band's peak sets the scale: 100%");
	int px = p.plot_x + (int)peak / 2, top = p.pane[0].plot_y;
	const struct vl_cell *c = vl_grid_at(&g, px, top);
	OK(c->ch > 0x2800 && c->ch <= 0x28ff && (c->attr & VL_A_DIM),
	   "the peak's column: dimmed braille in the top row");
	OK(((c->ch - 0x2800) & 0x47) && !((c->ch - 0x2800) & 0xb8),
	   "left dot column only (dot 40 is the left of its cell)");
	c = vl_grid_at(&g, px + 2, top);
	EQ_INT(c->ch, ' ', "no band where the rows stay near the line");
	struct vl_scale sc = { 0, 100, 50 };
	int ly = top + vl_value_dot(&sc, 5, p.pane[0].plot_h * 4) / 4;
	c = vl_grid_at(&g, px, ly);
	OK(c->ch > 0x2800 && c->ch <= 0x28ff && !(c->attr & VL_A_DIM),
	   "the line wins its cell");
	c = vl_grid_at(&g, px, ly - 1);
	OK(c->ch > 0x2800 && (c->attr & VL_A_DIM), "the band above it");
	/* the readout at the cursor: the row's range after its average */
	v.cursor_on = 1;
	v.cursor = 1000 + 340;
	vl_render(&v, &p, &g);
	vl_grid_row(&g, p.pane[0].y, row, sizeof(row));
	OK(strstr(row, "total 14.5% (5.00%..100%)") != NULL,
	   "cursor readout: avg (min..max) of a consolidated row");
	line.at_lo = line.at_hi = NAN;
	vl_render(&v, &p, &g);
	vl_grid_row(&g, p.pane[0].y, row, sizeof(row));
	OK(strstr(row, "total 14.5%") && !strstr(row, ".."),
	   "a single-sample row: its value alone");
	/* ASCII, with and without colour: '.' */
	v.cursor_on = 0;
	vl_plan(80, 24, 1, 0, VL_ASCII, &p);
	v.glyphs = VL_ASCII;
	for (int mono = 0; mono < 2; mono++) {
		v.mono = mono;
		vl_render(&v, &p, &g);
		c = vl_grid_at(&g, p.plot_x + (int)peak, p.pane[0].plot_y);
		OK(c->ch == VL_BAND_ASCII && (c->attr & VL_A_DIM),
		   mono ? "mono: the band as '.'" : "ASCII: the band as '.'");
	}
	/* no band (a stacked series, or the rows of a short window) */
	line.lo = line.hi = NULL;
	vl_render(&v, &p, &g);
	vl_grid_row(&g, p.pane[0].plot_y, row, sizeof(row));
	OK(strncmp(row, " 100%", 5) != 0, "without the band the scale fits the line");
	vl_grid_free(&g);
	free(pts);
}

static void test_readout(void)
{
	struct vl_line l[2] = {
		{ .label = "eth0", .axis = 0, .at_cursor = 12.5e6, .ref = 125e6 },
		{ .label = "eth1", .axis = 0, .at_cursor = NAN, .ref = NAN },
	};
	struct vl_pane pane = { .title = "Network", .unit = { UNIT_BYTES_SEC },
				.lines = l, .nlines = 2 };
	char b[128];
	vl_readout(b, sizeof(b), &pane, 1);
	EQ_STR(b, "eth0 11.9 MiB/s (10%)  eth1 -", "readout with share of bandwidth");
	char small[10];
	vl_readout(small, sizeof(small), &pane, 1);
	EQ_INT(strlen(small), 9, "readout truncated to its buffer");
}

static void test_text(void)
{
	struct vl_grid g = { 0 };
	vl_grid_resize(&g, 10, 1);
	EQ_INT(vl_grid_text(&g, 0, 0, 10, "h\xc3\xa9llo\x01", 0, 0, 0), 6,
	       "UTF-8 decoded, one cell a character");
	EQ_INT(vl_grid_at(&g, 1, 0)->ch, 0xe9, "e acute");
	EQ_INT(vl_grid_at(&g, 5, 0)->ch, '?', "control character replaced");
	vl_grid_text(&g, 0, 0, 10, "\xc3\xa9\xff", 0, 0, 1);
	EQ_INT(vl_grid_at(&g, 0, 0)->ch, '?', "ASCII mode replaces non-ASCII");
	EQ_INT(vl_grid_text(&g, 8, 0, 10, "abcdef", 0, 0, 0), 6,
	       "clipped text still counted");
	vl_grid_free(&g);
}

static void test_overlay(void)
{
	struct vl_grid g = { 0 };
	vl_grid_resize(&g, 40, 8);
	const char *lines[] = { "one", "two", "three", "four", "five", "six",
				"seven", "eight" };
	vl_overlay(&g, "Sessions", lines, 8, 7, "Enter: zoom", 0);
	char row[256];
	vl_grid_row(&g, 0, row, sizeof(row));
	OK(strstr(row, "Sessions") != NULL, "overlay title on the border");
	vl_grid_row(&g, 6, row, sizeof(row));
	OK(strstr(row, "eight") != NULL, "scrolled so the selection shows");
	int x = (int)(strstr(row, "eight") - row);
	(void)x;
	int rev = 0;
	for (int i = 0; i < g.w; i++)
		if (vl_grid_at(&g, i, 6)->attr & VL_A_REVERSE)
			rev = 1;
	OK(rev, "selection highlighted");
	vl_grid_row(&g, 7, row, sizeof(row));
	OK(strstr(row, "Enter: zoom") != NULL, "footer");
	vl_grid_free(&g);
}

/* Labels are never cut mid-word (issue 25: "referenc run 2.09%"): whole
 * words or nothing, in the title's readouts, the legend table and the
 * session names on the marker row. */
static void test_words(void)
{
	struct vl_grid g = { 0 };
	char row[1024];

	vl_grid_resize(&g, 20, 1);
	EQ_INT(vl_grid_words(&g, 0, 0, 13, "reference run", 0, 0, 0), 13, "whole when it fits");
	vl_grid_clear(&g);
	EQ_INT(vl_grid_words(&g, 0, 0, 12, "reference run", 0, 0, 0), 9, "else whole words");
	vl_grid_row(&g, 0, row, sizeof(row));
	OK(!strncmp(row, "reference   ", 12), "'reference', not 'reference ru'");
	vl_grid_clear(&g);
	EQ_INT(vl_grid_words(&g, 0, 0, 8, "reference run", 0, 0, 0), 0, "else nothing");
	EQ_INT(vl_text_cells("h\xc3\xa9"), 2, "cells of UTF-8");
	vl_grid_free(&g);

	/* a pane whose labels are longer than the legend's old 6 cells, and
	 * more readouts than the title line holds */
	struct vl_plan p;
	vl_plan(120, 24, 1, 1, VL_ASCII, &p);
	double *pts = calloc(p.dots, sizeof(double));
	const char *labels[] = { "reference run", "reference cpuw",
				 "reference disk", "reference net",
				 "reference other" };
	struct vl_line lines[5];
	for (int i = 0; i < 5; i++) {
		lines[i] = (struct vl_line){ .label = labels[i], .axis = 0,
					     .color = 1, .pts = pts, .ref = NAN };
		lines[i].st = (struct vl_stats){ 2.09, 0, 1, 3, 10 };
	}
	struct vl_pane pane = { .title = "Client wait states",
				.unit = { UNIT_PERCENT }, .has_axis = { 1, 0 },
				.lines = lines, .nlines = 5 };
	struct vl_span sp = { 1000 + 10, 1000 + 40, "25m100k-server", "", 0 };
	struct vl_view v = { .from = 1000, .to = 1000 + 600, .header = "host",
			     .glyphs = VL_ASCII, .panes = &pane, .npanes = 1,
			     .spans = &sp, .nspans = 1, .utc = 1, .focus = -1,
			     .legend = 1 };
	OK(vl_render(&v, &p, &g) == 0, "render");
	vl_grid_row(&g, p.pane[0].y, row, sizeof(row));
	OK(strstr(row, "reference run 2.1%") != NULL, "title: the first readout whole");
	int cut = 0, whole = 0;
	for (const char *q = row; (q = strstr(q, "referenc")); q++) {
		char w[32], pct = 0;
		double val;
		if (sscanf(q, "reference %31[a-z] %lf%c", w, &val, &pct) == 3 &&
		    pct == '%')
			whole++;
		else
			cut = 1;
	}
	if (cut)
		fprintf(stderr, "#   title: '%s'\n", row);
	OK(whole >= 2, "title: several readouts");
	OK(!cut, "title: a readout whole or not at all");
	for (int i = 0; i < 5; i++) {
		vl_grid_row(&g, p.pane[0].plot_y + i, row, sizeof(row));
		if (!strstr(row, labels[i])) {
			OK(0, "legend table: label whole");
			fprintf(stderr, "#   row %d: '%s'\n", i, row);
			break;
		}
		if (i == 4)
			OK(1, "legend table: every label whole");
	}
	vl_grid_row(&g, p.marker_row, row, sizeof(row));
	OK(!strstr(row, "25m100k-s") || strstr(row, "25m100k-server"),
	   "a session name whole or not at all on the marker row");
	vl_grid_free(&g);
	free(pts);
}

/* The session bar when a session begins in the column of an enclosing
 * one's '[' (the demo's sets a second into their run once the legend
 * narrowed the plot to 38 columns; view A B's twin sessions, begun at
 * once): one '[' opens both, each name after it. The bar was drawn from
 * the inner session's own column over the '[': 'a====[b', 'B full==]'. */
static void test_session_bar(void)
{
	struct vl_plan p;
	vl_plan(80, 24, 1, 1, VL_ASCII, &p);
	EQ_INT(p.plot_w, 38, "80 columns with the legend: a plot of 38");
	double *pts = calloc(p.dots, sizeof(double));
	struct vl_line line = { .label = "total", .axis = 0, .color = 1,
				.pts = pts, .ref = NAN };
	struct vl_pane pane = { .title = "CPU", .unit = { UNIT_PERCENT },
				.has_axis = { 1, 0 }, .lines = &line,
				.nlines = 1 };
	/* an hour, some 95 s a column: outer and a begin in column 1 */
	struct vl_span sp[] = { { 100, 3400, "outer", "", 0 }, { 120, 1000, "a", "", 0 },
				{ 1000, 1900, "b", "", 0 }, { 1900, 2500, "c", "", 0 } };
	struct vl_view v = { .from = 0, .to = 3600, .header = "host",
			     .glyphs = VL_ASCII, .panes = &pane, .npanes = 1,
			     .spans = sp, .nspans = 4, .utc = 1, .focus = -1,
			     .legend = 1 };
	struct vl_grid g = { 0 };
	char row[1024];
	EQ_INT(vl_time_col(&p, v.from, v.to, 100), vl_time_col(&p, v.from, v.to, 120),
	       "outer and a in one column");
	OK(vl_render(&v, &p, &g) == 0, "render");
	vl_grid_row(&g, p.marker_row, row, sizeof(row));
	int x1 = p.plot_x + vl_time_col(&p, v.from, v.to, 100);
	EQ_INT(vl_grid_at(&g, x1, p.marker_row)->ch, '[', "the '[' kept in the column both begin in");
	OK(!strncmp(row + x1, "[a=", 3), "a's name after it");
	OK(strstr(row, "[[") == NULL, "no bracket doubled");
	OK(strstr(row, "]outer=") != NULL, "outer's name where its sets leave room");

	/* twins: two sessions of one span (view A B from their begins) */
	struct vl_span tw[] = { { 600, 2400, "A full", "", 0 }, { 600, 2400, "B full", "", 0 } };
	v.spans = tw;
	v.nspans = 2;
	OK(vl_render(&v, &p, &g) == 0, "render the twins");
	vl_grid_row(&g, p.marker_row, row, sizeof(row));
	int xt = p.plot_x + vl_time_col(&p, v.from, v.to, 600);
	if (strncmp(row + xt, "[B full", 7))
		fprintf(stderr, "#   marker row: '%s'\n", row);
	OK(!strncmp(row + xt, "[B full", 7), "twins: '[' then the later one's name");
	vl_grid_free(&g);
	free(pts);
}

int main(void)
{
	test_words();
	test_overlay();
	test_format();
	test_scale();
	test_time_step();
	test_resample();
	test_stats_rowat();
	test_band();
	test_band_render();
	test_plan();
	test_render();
	test_session_bar();
	test_readout();
	test_text();
	return done_testing();
}
