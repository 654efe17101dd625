/*
 * test_png.c - png_render on an RRD file made here with librrd (known
 * values): the file is a PNG of the asked size, the legend figures
 * rrd_graph_v computed are the series' min/avg/max, a scaled series is
 * scaled, text with rrdtool's separators survives, bad input fails
 * cleanly; on a file laid out as a log set's (1 s rows for 10 minutes,
 * MIN/AVERAGE/MAX of 1 minute), a peak of a few seconds is the legend's
 * max whether librrd reads the consolidations (MIN/MAX archives) or
 * single samples reduced to points (AVERAGE reduced with MAX), and the
 * note says which. Works under /tmp.
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <png.h>
#include <rrd.h>

#include "../../common/strbuf.h"
#include "../../export/png.h"
#include "../../export/png_int.h"
#include "tap.h"

/* librrd 1.7 (rrd_graph_v's print strings) and fontconfig's caches leak
 * by design; only leaks through our own frames should fail this test. The
 * slow unwinder gives the full stack the suppressions match against. */
const char *__asan_default_options(void);
const char *__lsan_default_suppressions(void);
const char *__asan_default_options(void)
{
	return "fast_unwind_on_malloc=0";
}
const char *__lsan_default_suppressions(void)
{
	return "leak:librrd.so\nleak:libfontconfig.so\nleak:libpango\n"
	       "leak:libcairo\nleak:libglib\nleak:libgobject\n"
	       "leak:libharfbuzz\nleak:libpixman\n";
}

#define T0 1700000000L	/* a multiple of 10 */
#define ROWS 120

static char dir[64];

static int make_rrd(const char *path)
{
	const char *def[] = { "DS:busy:GAUGE:2:0:U", "DS:bytes:GAUGE:2:0:U",
			      "RRA:AVERAGE:0.5:1:1000" };
	char buf[64];

	rrd_clear_error();
	if (rrd_create_r(path, 1, T0, 3, def))
		return -1;
	for (long i = 1; i <= ROWS; i++) {
		/* busy: 0..99 repeating ramp; bytes: 1 MiB * (i % 7) */
		snprintf(buf, sizeof(buf), "%ld:%ld:%ld", T0 + i, (i - 1) % 100,
			 1048576L * (i % 7));
		const char *u[] = { buf };
		if (rrd_update_r(path, NULL, 1, u))
			return -1;
	}
	return 0;
}

/* Two hours at 1 s of 5% with two 3-second peaks to 100%: one in the
 * first hour (only the 1-minute archives still hold it), one 5 minutes
 * before the end (in the 1 s archive too). */
#define BAND_ROWS 7200
static int make_layout_rrd(const char *path)
{
	const char *def[] = { "DS:busy:GAUGE:2:0:100",
			      "RRA:AVERAGE:0.5:1:600", "RRA:MIN:0.5:60:1440",
			      "RRA:AVERAGE:0.5:60:1440", "RRA:MAX:0.5:60:1440" };
	static char buf[600][48];
	const char *u[600];

	rrd_clear_error();
	if (rrd_create_r(path, 1, T0, 5, def))
		return -1;
	for (long b = 0; b < BAND_ROWS / 600; b++) {
		for (long k = 0; k < 600; k++) {
			long i = b * 600 + k + 1;
			int peak = (i > 1800 && i <= 1803) ||
				   (i > BAND_ROWS - 300 && i <= BAND_ROWS - 297);
			snprintf(buf[k], sizeof(buf[k]), "%ld:%d", T0 + i,
				 peak ? 100 : 5);
			u[k] = buf[k];
		}
		if (rrd_update_r(path, NULL, 600, u))
			return -1;
	}
	return 0;
}

/* The band: the legend's max is the peak's, the note says what the
 * points are, on each of librrd's paths. */
static void test_band(void)
{
	char rrd[128], png[128];
	struct perr e = { "" };
	struct png_legend lg[1];
	struct png_rows r;

	snprintf(rrd, sizeof(rrd), "%s/band.rrd", dir);
	snprintf(png, sizeof(png), "%s/band.png", dir);
	OK(make_layout_rrd(rrd) == 0, "log-set-like RRD made");
	struct png_series s[1] = { { rrd, "busy", "busy", 1, 1, 0, 0 } };
	struct png_chart c = { "CPU", "%", UNIT_PERCENT, 0, 100, s, 1 };
	struct png_options o = { "h", T0, T0 + BAND_ROWS, 640, 300, NULL, 0,
				 NULL, 0, NULL, 0, NULL };

	/* the two hours: only the 1-minute archives cover them */
	OK(png_render(png, &c, &o, lg, &e) == 0, "two hours rendered");
	EQ_DBL(lg[0].max, 100, 1e-9, "MIN/MAX archives: the peaks are the max");
	EQ_DBL(lg[0].min, 5, 1e-9, "and 5 the min");
	OK(lg[0].avg < 5.2, "while the average stays near 5");
	EQ_STR(lg[0].points, "avg of 1 min rows, band min..max",
	       "the note: consolidated rows with their band");
	OK(png_rows_of(rrd, o.from, o.to, png_point_step(&o), 1, &r, &e) == 0 &&
	   r.archive == 60 && r.minmax && png_rows_band(&r),
	   "png_rows_of: the 1-minute archive, MIN and MAX beside it");
	/* the last 10 minutes in 200 pixels: 1 s rows, several a point */
	o.from = T0 + BAND_ROWS - 590;
	o.width = 200;
	OK(png_render(png, &c, &o, lg, &e) == 0, "ten minutes rendered");
	EQ_DBL(lg[0].max, 100, 1e-9,
	       "AVERAGE reduced with MAX: the 3 s peak is the max");
	EQ_STR(lg[0].points, "avg of 1 s rows, band min..max",
	       "the note: several 1 s rows a point");
	/* 8 minutes in 640 pixels: a point is a row, no band */
	o.from = T0 + BAND_ROWS - 480;
	o.width = 640;
	OK(png_render(png, &c, &o, lg, &e) == 0, "eight minutes rendered");
	EQ_STR(lg[0].points, "1 s rows", "the note: each point one sample");
	EQ_DBL(lg[0].max, 100, 1e-9, "the peak as it is");
	/* stacked areas have no band: the note says the rows alone */
	o.from = T0;
	OK(png_render_stacked(png, &c, &o, lg, &e) == 0, "stacked rendered");
	EQ_STR(lg[0].points, "avg of 1 min rows", "stacked: no band");
	OK(lg[0].max < 100, "stacked: the max of the averages");
	if (!getenv("PNG_KEEP")) {
		unlink(png);
		unlink(rrd);
	}
}

/* 1 when text is a whole line of lines */
static int has_line(const char *lines, const char *text)
{
	size_t n = strlen(text);

	for (const char *l = lines; l && *l; l = strchr(l, '\n') + 1) {
		if (!strncmp(l, text, n) && l[n] == '\n')
			return 1;
		if (!strchr(l, '\n'))
			break;
	}
	return 0;
}

/* Units a manager reads (issue 32): what the legend drew, the axis. */
static void test_units_drawn(const char *rrd, const char *png,
			     const struct png_options *base)
{
	struct png_options o = *base;
	struct png_frame f;
	struct png_legend lg[1];
	struct strbuf drawn = STRBUF_INIT;
	struct perr e = { "" };
	/* 0..6 MiB/s scaled to 0..0.236 B/s: a quiet interface */
	struct png_series q = { rrd, "bytes", "lo received", 0.236 / 6291456, 1, 0, 0 };
	struct png_chart qc = { "Network", "B/s", UNIT_BYTES_SEC, 0, NAN, &q, 1 };

	o.legends = &drawn;
	o.frame = &f;
	o.marks = NULL;
	o.nmarks = 0;
	OK(png_render(png, &qc, &o, lg, &e) == 0, "quiet network drawn");
	OK(strstr(drawn.p ? drawn.p : "", "max        0 B/s") != NULL &&
	   !strstr(drawn.p ? drawn.p : "", "m\n"),
	   "a fraction of a byte/s is '0 B/s', not '236.00m'");
	if (!strstr(drawn.p ? drawn.p : "", "max        0 B/s"))
		printf("# drawn:\n# %s\n", drawn.p ? drawn.p : "");
	/* the last time label has room: a right margin of at least half a
	 * "04:24:00" (it was cut to "04:24:") */
	OK(f.image_width - f.graph_left - f.graph_width >= 30,
	   "room right of the plot for the last time label");
	printf("# image %ld, plot %ld+%ld: right margin %ld\n", f.image_width,
	       f.graph_left, f.graph_width,
	       f.image_width - f.graph_left - f.graph_width);

	/* latency: 0..0.99 ms in ms, as sar's await, not "990.00u" */
	struct png_series l = { rrd, "busy", "sda per write", 1e-5, 1, 0, 0 };
	struct png_chart lc = { "Disk latency", "ms per I/O", UNIT_SECONDS, 0,
				NAN, &l, 1 };
	strbuf_free(&drawn);
	OK(png_render(png, &lc, &o, lg, &e) == 0, "latency drawn");
	EQ_STR(lg[0].max_text, "max 0.99 ms", "latency legend in ms");
	OK(f.value_max < 2 && f.value_max >= 0.99, "the axis in ms (0..1)");
	printf("# latency axis 0..%g\n", f.value_max);

	/* a share under 1%: on a 0..100 axis ("1000 m" at the top before) */
	struct png_series p = { rrd, "busy", "copy I/O stalled", 0.01, 1, 0, 0 };
	struct png_chart pc = { "Client cgroup stalls", "% of the time",
				UNIT_PERCENT, 0, NAN, &p, 1 };
	OK(png_render(png, &pc, &o, lg, &e) == 0, "small share drawn");
	EQ_DBL(f.value_max, 105, 1e-9, "percent on a 0..105 axis: room above 100");
	EQ_STR(lg[0].max_text, "max 1.0%", "share legend in percent");
	strbuf_free(&drawn);

	/* every series of a chart its own colour (the 11th came round to
	 * the 1st's teal) */
	char a[8], b[8];
	int same = 0;
	for (size_t i = 0; i < 64; i++)
		for (size_t j = 0; j < i; j++)
			same += !strcmp(png_colour(a, sizeof(a), i),
					png_colour(b, sizeof(b), j));
	EQ_INT(same, 0, "64 series, 64 colours");
}

/* The image at path as RGB rows (free it); NULL when unreadable. */
static unsigned char *read_rgb(const char *path, long *width)
{
	png_image img;
	unsigned char *px;

	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&img, path))
		return NULL;
	img.format = PNG_FORMAT_RGB;
	px = malloc(PNG_IMAGE_SIZE(img));
	if (px && !png_image_finish_read(&img, NULL, px, 0, NULL)) {
		free(px);
		px = NULL;
	}
	*width = (long)img.width;
	png_image_free(&img);
	return px;
}

/* The shaded columns of the image at path between times a and b (the
 * plot's middle row, on the frame librrd reported): how many have the
 * colour of the k-th session in the picture. */
static int coloured_between(const char *path, const struct png_frame *f,
			    double a, double b, size_t k)
{
	long w;
	unsigned char rgb[3], *px = read_rgb(path, &w);
	int n = 0;

	if (!px)
		return -1;
	png_session_rgb(rgb, k);
	long y = f->graph_top + f->graph_height / 2;
	double per = (double)f->graph_width / (double)(f->graph_end - f->graph_start);
	for (long x = f->graph_left; x < f->graph_left + f->graph_width; x++) {
		double t = (double)f->graph_start + ((double)(x - f->graph_left) + 0.5) / per;
		const unsigned char *q = px + 3 * ((size_t)y * (size_t)w + (size_t)x);
		if (t > a && t < b && !memcmp(q, rgb, 3))
			n++;
	}
	free(px);
	return n;
}

/* The shaded columns of the first session's colour (coloured_between). */
static int shaded_between(const char *path, const struct png_frame *f,
			  double a, double b)
{
	return coloured_between(path, f, a, b, 0);
}

/* Pixels of the marker numbers' dark red right of the plot, in the rows
 * of the numbers' boxes at its top: a number that passed the plot's
 * right edge, over the right axis' labels. */
static int red_right_of_plot(const char *path, const struct png_frame *f)
{
	long w;
	unsigned char *px = read_rgb(path, &w);
	int n = 0;

	if (!px)
		return -1;
	for (long y = f->graph_top; y < f->graph_top + 12; y++)
		for (long x = f->graph_left + f->graph_width + 1; x < w; x++) {
			const unsigned char *q = px + 3 * ((size_t)y * (size_t)w + (size_t)x);
			n += q[0] == 0xC0 && q[1] == 0 && q[2] == 0;
		}
	free(px);
	return n;
}

/* Issue 49's charts for a report: the session shaded from its begin
 * marker's time (a row holding it was shaded whole, a row early; the
 * row after its end too), a series at 100% under the plot's top border,
 * a marker's long text listed whole, shares of a whole at most 100%. */
static void test_report_charts(const char *rrd, const char *png)
{
	struct png_series s = { rrd, "busy", "flat", 1e-9, 1, 0, 0 };
	struct png_chart c = { "CPU", "%", UNIT_PERCENT, 0, 100, &s, 1 };
	static char text[400];
	struct png_mark m[3] = { { T0 + 30.5, "begin full" }, { T0 + 90, text },
				 { T0 + ROWS - 0.5, "end run" } };
	struct png_span sp[1] = { { T0 + 30.5, T0 + 60.5, "full" } };
	struct png_options o = { "host", T0, T0 + ROWS, 640, 300, m, 3, sp, 1,
				 NULL, 0, NULL };
	struct strbuf drawn = STRBUF_INIT;
	struct png_legend lg[2];
	struct png_frame f;
	struct perr e = { "" };

	for (size_t i = 0; i + 8 < sizeof(text); i += 8)
		memcpy(text + i, i == 384 ? "the end." : "word ab ", 8);
	o.frame = &f;
	o.legends = &drawn;
	OK(png_render(png, &c, &o, lg, &e) == 0, "a session's chart drawn");
	EQ_INT(shaded_between(png, &f, T0 + 30, T0 + 30.45), 0,
	       "nothing shaded before the begin marker (its row began at :30)");
	OK(shaded_between(png, &f, T0 + 31, T0 + 60) > 100,
	   "the session shaded");
	EQ_INT(shaded_between(png, &f, T0 + 60.55, T0 + 61.5), 0,
	   "nothing shaded after the end marker");
	EQ_DBL(f.value_max, 105, 1e-9, "a percent axis to 105: 100% under the border");
	EQ_INT(red_right_of_plot(png, &f), 0,
	       "a marker in the plot's last pixels: its number inside the plot");
	/* the long text listed whole, on wrapped lines under the legend */
	struct strbuf all = STRBUF_INIT;
	for (const char *l = drawn.p; l && *l; l = strchr(l, '\n') + 1) {
		const char *t = l + strspn(l, " 0123456789");
		strbuf_add(&all, t, strcspn(t, "\n"));
		strbuf_add(&all, " ", 1);
		if (!strchr(l, '\n'))
			break;
	}
	OK(all.p && strstr(all.p, "word ab word ab") && strstr(all.p, "the end."),
	   "a 392-character marker text listed to its end");
	OK(has_line(drawn.p, " 1  begin full") || has_line(drawn.p, "1  begin full"),
	   "markers numbered in the legend");
	strbuf_free(&all);
	strbuf_free(&drawn);

	/* shares: each series its percent of the group's sum */
	struct png_series sh[2] = { { rrd, "busy", "disk wait", 0, 1, 1, 0 },
				    { rrd, "bytes", "sleep", 0, 1, 1, 0 } };
	struct png_chart sc = { "Wait states", "%", UNIT_PERCENT, 0, NAN, sh, 2 };
	o.marks = NULL;
	o.nmarks = 0;
	o.legends = NULL;
	OK(png_render_stacked(png, &sc, &o, lg, &e) == 0, "shares drawn");
	OK(lg[0].max <= 100 + 1e-9 && lg[1].max <= 100 + 1e-9,
	   "a share is at most 100%");
	EQ_DBL(f.value_max, 105, 1e-9, "a stack of shares on 0..105");
	printf("# shares: avg %.1f%% + %.1f%%, max %.1f%%, %.1f%%\n",
	       lg[0].avg, lg[1].avg, lg[0].max, lg[1].max);
}

/* Two sessions in one picture never share a colour: export A B's
 * sessions are A's then B's, and the palette's 8 colours were taken by
 * a session's place in that list, so B's fourth had A's first's
 * (session B 25m100k and session A reference, both light blue). The
 * colours go by the place among the sessions drawn. */
static void test_session_colours(const char *rrd, const char *png)
{
	struct png_series s = { rrd, "busy", "busy", 0, 1, 0, 0 };
	struct png_chart c = { "CPU", "%", UNIT_PERCENT, 0, 100, &s, 1 };
	struct png_span sp[9];
	struct png_frame f;
	struct png_legend lg[1];
	struct perr e = { "" };

	/* the first and the ninth in the window, the others long before */
	for (size_t i = 0; i < 9; i++)
		sp[i] = (struct png_span){ T0 - 1000 + (double)i, T0 - 999 + (double)i, "old" };
	sp[0] = (struct png_span){ T0 + 10, T0 + 40, "A full" };
	sp[8] = (struct png_span){ T0 + 60, T0 + 90, "B full" };
	struct png_options o = { "host", T0, T0 + ROWS, 640, 300, NULL, 0, sp, 9,
				 NULL, 0, NULL };
	o.frame = &f;
	OK(png_render(png, &c, &o, lg, &e) == 0, "colours: drawn");
	OK(coloured_between(png, &f, T0 + 11, T0 + 39, 0) > 50,
	   "colours: the first drawn in the palette's first");
	EQ_INT(coloured_between(png, &f, T0 + 61, T0 + 89, 0), 0,
	       "colours: the second not in the first's colour");
	OK(coloured_between(png, &f, T0 + 61, T0 + 89, 1) > 50,
	   "colours: the second in the palette's second");
}

/* Marker numbers never on each other: export A B's markers come A's
 * then B's, and each number's row was chosen from the one before it in
 * that list (a row lower when it met it, else the top), so B's 7 at
 * A's 1 went to the top row over it ('17'). In time order, each in the
 * first row free; and inside the plot at its right edge. */
static void test_number_boxes(void)
{
	/* A: 1, 2, 3; B: 4 .. 7 (4 by A's 1, 6 at the plot's end) */
	struct png_paint_mark mk[] = {
		{ 30, 1 }, { 31, 2 }, { 80, 3 }, { 30.5, 4 }, { 80.5, 5 },
		{ 99.9, 6 }, { 30.2, 7 }, { 50, 0 },
	};
	size_t n = sizeof(mk) / sizeof(mk[0]);
	struct png_paint p = { .left = 50, .top = 20, .width = 500, .height = 200,
			       .start = 0, .end = 100, .marks = mk, .nmarks = n,
			       .digit = 2 };
	struct png_box box[sizeof(mk) / sizeof(mk[0])];
	int overlap = 0, outside = 0;

	OK(png_number_boxes(&p, box) == 0, "number boxes placed");
	for (size_t i = 0; i < n; i++) {
		if (!box[i].w)
			continue;
		if (box[i].x < p.left || box[i].x + box[i].w > p.left + p.width)
			outside++;
		for (size_t j = i + 1; j < n; j++)
			if (box[j].w && box[i].x < box[j].x + box[j].w &&
			    box[j].x < box[i].x + box[i].w &&
			    box[i].y < box[j].y + box[j].h &&
			    box[j].y < box[i].y + box[i].h) {
				printf("# %d over %d\n", mk[i].num, mk[j].num);
				overlap++;
			}
	}
	EQ_INT(overlap, 0, "no number on another (four by one another, out of time order)");
	EQ_INT(outside, 0, "every number inside the plot");
	EQ_INT(box[7].w, 0, "a rule without a number: no box");
}

/* Another thread reading the environment while charts are drawn, as
 * pango's fontconfig thread does inside rrd_graph_v and after it: it
 * must never see TZ change (drawing set TZ=UTC around each call and
 * unset it after, and setenv's new environ array freed the one such a
 * thread was reading: test_png crashed in getenv under load). */
extern char **environ;
static atomic_int env_ready, env_stop, env_seen_tz, env_seen_moved;

static void *env_reader(void *arg)
{
	char **first = environ;

	(void)arg;
	atomic_store(&env_ready, 1);
	while (!atomic_load(&env_stop)) {
		if (getenv("TZ"))
			atomic_store(&env_seen_tz, 1);
		if (environ != first)
			atomic_store(&env_seen_moved, 1);
	}
	return NULL;
}

static void test_environ(const char *rrd, const char *png)
{
	struct png_series s = { rrd, "busy", "busy", 0, 1, 0, 0 };
	struct png_chart c = { "Disk", "%", UNIT_PERCENT, 0, NAN, &s, 1 };
	struct png_options o = { "host", T0, T0 + ROWS, 400, 200, NULL, 0,
				 NULL, 0, NULL, 0, NULL };
	struct png_legend lg[1];
	struct perr e = { "" };
	pthread_t th;
	int drawn = 0;

	unsetenv("TZ");
	if (pthread_create(&th, NULL, env_reader, NULL)) {
		OK(0, "environ: reader thread started");
		return;
	}
	/* started: no allocation of its own under way when drawing forks
	 * (ASan's allocator is not made safe across fork) */
	while (!atomic_load(&env_ready))
		sched_yield();
	for (int i = 0; i < 3; i++)
		drawn += png_render(png, &c, &o, lg, &e) == 0;
	atomic_store(&env_stop, 1);
	pthread_join(th, NULL);
	EQ_INT(drawn, 3, "environ: three charts drawn beside a reader");
	OK(!atomic_load(&env_seen_tz),
	   "environ: TZ never set in this process while drawing");
	OK(!atomic_load(&env_seen_moved),
	   "environ: the environment array never moved under the reader");
	EQ_DBL(lg[0].max, 99, 1e-6, "environ: the legend came back");

	/* SIGCHLD ignored, as a parent may leave it across exec: the kernel
	 * reaps a child itself then, and a chart drawn in one must still be
	 * waited for and read */
	signal(SIGCHLD, SIG_IGN);
	OK(png_render(png, &c, &o, lg, &e) == 0 && lg[0].max == 99,
	   "SIGCHLD ignored: the chart is still drawn");
	if (e.msg[0])
		printf("# %s\n", e.msg);
	OK(signal(SIGCHLD, SIG_DFL) == SIG_IGN,
	   "SIGCHLD ignored: left as it was");
}

int main(void)
{
	char rrd[128], png[128], odd[160];
	struct perr e = { "" };
	struct png_legend lg[2];
	int w = 0, h = 0;

	snprintf(dir, sizeof(dir), "/tmp/perflog-test_png.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(rrd, sizeof(rrd), "%s/LogicalDisk-sda.rrd", dir);
	OK(make_rrd(rrd) == 0, "RRD made");
	if (rrd_test_error())
		printf("# %s\n", rrd_get_error());
	snprintf(png, sizeof(png), "%s/environ.png", dir);
	test_environ(rrd, png);

	struct png_series s[2] = {
		{ rrd, "busy", "sda % Disk Time: busy", 0, 1, 0, 0 },
		{ rrd, "bytes", "sda bytes/s", 1.0 / 1024, 1, 0, 0 },
	};
	struct png_chart c = { "Disk", "% and KiB/s", UNIT_PERCENT, 0, NAN, s, 2 };
	struct png_mark m[2] = { { T0 + 30, "begin full: backup" },
				 { T0 + 5000, "outside the range" } };
	struct png_span sp[1] = { { T0 + 30, T0 + 90, "full" } };
	struct png_options o = { "host:1", T0, T0 + ROWS, 640, 300, m, 2, sp, 1, NULL, 0, NULL };

	snprintf(png, sizeof(png), "%s/disk.png", dir);
	int rc = png_render(png, &c, &o, lg, &e);
	OK(rc == 0, "rendered");
	if (rc)
		printf("# %s\n", e.msg);
	OK(png_size(png, &w, &h, &e) == 0, "a PNG");
	EQ_INT(w, 640, "image width is the asked width");
	EQ_INT(h, 300, "image height is the asked height");

	/* rows stamped T0+1..T0+120 hold (i-1)%100: 0..99, then 0..19 */
	double sum = 0, bsum = 0, bmax = 0;
	for (long i = 1; i <= ROWS; i++) {
		sum += (double)((i - 1) % 100);
		bsum += (double)(i % 7) * 1024;
		if ((i % 7) * 1024 > bmax)
			bmax = (double)(i % 7) * 1024;
	}
	EQ_DBL(lg[0].min, 0, 1e-6, "legend min");
	EQ_DBL(lg[0].max, 99, 1e-6, "legend max");
	EQ_DBL(lg[0].avg, sum / ROWS, 0.02 * sum / ROWS, "legend avg");
	EQ_DBL(lg[1].max, bmax, 1e-6, "scaled series max (KiB/s)");
	EQ_DBL(lg[1].avg, bsum / ROWS, 0.02 * bsum / ROWS, "scaled avg");

	EQ_STR(lg[0].max_text, "max 99.0%", "a percentage's legend has no SI prefix");

	/* a chart of bytes: the legend in MiB as the report writes it (it
	 * drew a literal "%s" after the number once, then "6.00M") */
	{
		struct png_series b = { rrd, "bytes", "sda bytes", 0, 1, 0, 0 };
		struct png_chart bc = { "Disk", "B/s", UNIT_BYTES_SEC, 0, NAN, &b, 1 };
		struct png_legend bl[1];

		OK(png_render(png, &bc, &o, bl, &e) == 0, "B/s chart drawn");
		EQ_STR(bl[0].max_text, "max 6.0 MiB/s", "B/s legend: max 6.0 MiB/s");
	}
	test_units_drawn(rrd, png, &o);
	test_report_charts(rrd, png);
	test_session_colours(rrd, png);
	test_number_boxes();

	/* same chart at another size, default size, odd file name */
	o.width = 1200;
	o.height = 500;
	OK(png_render(png, &c, &o, NULL, &e) == 0 &&
	   png_size(png, &w, &h, &e) == 0 && w == 1200 && h == 500,
	   "1200x500 as asked");
	snprintf(odd, sizeof(odd), "%s/a:b.rrd", dir);
	rc = rename(rrd, odd);
	s[0].file = s[1].file = odd;
	o.width = o.height = 0;
	rc = rc || png_render(png, &c, &o, lg, &e);
	OK(rc == 0 && png_size(png, &w, &h, &e) == 0 &&
	   w == PNG_DEFAULT_WIDTH && h == PNG_DEFAULT_HEIGHT,
	   "default size; ':' in the file name");
	if (rc)
		printf("# %s\n", e.msg);

	/* stacked: areas on each other, each legend its own series' */
	rc = png_render_stacked(png, &c, &o, lg, &e);
	OK(rc == 0, "a stacked chart is drawn");
	EQ_DBL(lg[0].max, 99, 1e-6, "stacked: a legend keeps its own series' max");

	/* texts that look like rrdtool's options (a marker "legend=X", an
	 * instance "color=#00FF00") are drawn as they are: librrd took them
	 * as the VRULE's or LINE's own options and replaced, recoloured or
	 * dropped the legend */
	{
		static const char *const texts[] = {
			"legend=X", "color=#00FF00", "dash-offset=3", "dashes",
			"skipscale",
		};
		struct png_mark om[5];
		struct png_series os[1] = { { odd, "busy", "color=#00FF00 busy", 0, 1, 0, 0 } };
		struct png_chart oc = { "Disk", "%", UNIT_PERCENT, 0, 100, os, 1 };
		struct png_span osp[1] = { { T0 + 30, T0 + 90, "legend=s" } };
		struct strbuf drawn = STRBUF_INIT;
		struct png_options oo = o;
		char want[64];

		for (size_t i = 0; i < 5; i++)
			om[i] = (struct png_mark){ T0 + 10 + 10 * (time_t)i, texts[i] };
		oo.marks = om;
		oo.nmarks = 5;
		oo.spans = osp;
		oo.nspans = 1;
		oo.legends = &drawn;
		rc = png_render(png, &oc, &oo, lg, &e);
		OK(rc == 0 && drawn.p, "markers that look like options: drawn");
		if (rc)
			printf("# %s\n", e.msg);
		for (size_t i = 0; i < 5; i++) {
			char line[64];
			/* numbered in time order, the number on the chart */
			snprintf(line, sizeof(line), "%zu  %s", i + 1, texts[i]);
			snprintf(want, sizeof(want), "marker %s: its legend", texts[i]);
			OK(has_line(drawn.p, line), want);
		}
		OK(drawn.p && strstr(drawn.p, "color=#00FF00 busy"),
		   "a series legend that looks like an option is kept");
		OK(has_line(drawn.p, "session legend=s"),
		   "a session named legend=s is drawn by its name");
		if (drawn.p)
			fprintf(stderr, "# legends drawn:\n%s", drawn.p);
		strbuf_free(&drawn);
	}

	/* errors */
	s[0].file = s[1].file = "/nonexistent/x.rrd";
	rc = png_render(png, &c, &o, lg, &e);
	OK(rc == -1 && strstr(e.msg, "rrd_graph"), "missing RRD: librrd's error");
	printf("# %s\n", e.msg);
	s[0].file = s[1].file = odd;
	o.width = 50;
	OK(png_render(png, &c, &o, lg, &e) == -1 && strstr(e.msg, "out of range"),
	   "too small refused");
	o.width = 640;
	o.to = o.from;
	OK(png_render(png, &c, &o, lg, &e) == -1, "empty range refused");
	OK(png_size(odd, &w, &h, &e) == -1 && strstr(e.msg, "not a PNG"),
	   "an RRD is not a PNG");

	test_band();

	/* PNG_KEEP=1 keeps the last chart to look at */
	if (getenv("PNG_KEEP")) {
		o.to = T0 + ROWS;
		o.width = 640;
		png_render(png, &c, &o, lg, &e);
		printf("# kept %s\n", png);
	} else {
		unlink(png);
		unlink(odd);
		rmdir(dir);
	}
	return done_testing();
}
