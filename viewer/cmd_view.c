/*
 * cmd_view.c - `perflog view [--shift DIR=SECONDS] [--ascii] DIR...`, the
 * terminal viewer's command: its options and the event loop (ui.h has the
 * state, actions.c what the keys do, frame.c the drawing).
 *
 * One turn of the loop: a frame (model pass, then draw pass into a grid),
 * then term_draw, then wait for a key, a replay tick or a follow tick. Log
 * sets are opened and checked before the terminal is touched, so a bad
 * set is one line on stderr and exit 1.
 *
 * --bench-frames N (undocumented) opens the sets, then draws N frames
 * while scrolling, into a grid written as text to /dev/null instead of a
 * terminal, and prints the time to the first frame and per redraw.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../commands.h"
#include "../logs/align.h"
#include "keys.h"
#include "term.h"
#include "ui.h"


static int usage(FILE *f)
{
	fprintf(f, "usage: perflog view [--shift DIR=SECONDS]... [--ascii] DIR...\n"
		"       perflog view [-s SESSION [-s SESSION2]] A B\n"
		"  Browse log sets in the terminal: panes of CPU, disk, memory and\n"
		"  paging, network on one time axis, markers and sessions.\n"
		"  Several DIRs are shown on the first one's clock, each shifted by\n"
		"  the clock offset its markers recorded (perflog run --server);\n"
		"  --shift adds SECONDS (may be negative) to DIR's times instead.\n"
		"  Two runs (two sets logged at different times, or -s given) are\n"
		"  laid over each other from their sessions' begins, each pane with\n"
		"  A's lines and B's: -s names the session (in each, or A's then B's),\n"
		"  else each one's first.\n"
		"  --ascii draws without Unicode. Press ? in the viewer for keys.\n");
	return f == stdout ? 0 : 2;
}

static int bench(struct ui *u, long frames, double t_start)
{
	struct perr e;
	FILE *null = fopen("/dev/null", "w");
	char *row = malloc(16384);
	if (!null || !row) {
		free(row);
		if (null)
			fclose(null);
		fprintf(stderr, "perflog view: unable to open /dev/null\n");
		return 1;
	}
	double first = 0, sum = 0, worst = 0;
	for (long i = 0; i <= frames; i++) {
		double t0 = util_monotonic();
		if (i > 0) {
			/* alternate scrolls, zooms and cursor moves */
			int k = (int)(i % 4);
			if (k == 0)
				ui_scroll(u, -ui_span(u) / 8);
			else if (k == 1)
				ui_zoom(u, 0.5);
			else if (k == 2)
				ui_zoom(u, 2);
			else {
				u->cursor_on = 1;
				u->cursor = u->m.from + ui_span(u) * 0.3;
			}
		}
		if (ui_frame(u, 80, 24, &e) < 0) {
			fprintf(stderr, "perflog view: %s\n", e.msg);
			break;
		}
		for (int y = 0; y < u->grid.h; y++)
			fprintf(null, "%s\n", vl_grid_row(&u->grid, y, row, 16384));
		double t1 = util_monotonic();
		if (i == 0)
			first = t1 - t_start;
		else {
			sum += t1 - t0;
			if (t1 - t0 > worst)
				worst = t1 - t0;
		}
	}
	fclose(null);
	free(row);
	printf("first frame: %.1f ms (open + fetch + draw)\n", first * 1000);
	if (frames > 0)
		printf("redraw: %.2f ms mean, %.2f ms worst over %ld frames\n",
		       sum / (double)frames * 1000, worst * 1000, frames);
	return 0;
}
struct args {
	char **dirs;		/* the log sets (argv's) */
	double *shifts;		/* their --shift, seconds; NAN: the
				   offset their markers recorded */
	size_t ndirs;
	const char *session[2];	/* -s: the anchors of two runs compared */
	int nsession;
	int nshift;		/* --shift given: side by side, never compared */
	int ascii;
	long frames;		/* --bench-frames, -1 without */
};

/* Each --shift DIR=SECONDS onto the log set it names. */
static int add_shift(struct args *a, const char *v)
{
	size_t i;
	double secs;
	int rc = align_shift_arg(v, a->dirs, a->ndirs, &i, &secs);

	if (rc == -1)
		fprintf(stderr, "perflog view: --shift wants DIR=SECONDS, got '%s'\n", v);
	else if (rc == -2)
		fprintf(stderr, "perflog view: --shift names '%s', which is not among the log sets\n",
			v);
	else
		a->shifts[i] = secs;
	return rc ? 2 : 0;
}

/* The command line: 0, -1 after --help, or the exit status with the
 * message printed. */
static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "ascii", no_argument, NULL, 'a' },
		{ "shift", required_argument, NULL, 'S' },
		{ "session", required_argument, NULL, 's' },
		{ "bench-frames", required_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char **shift = calloc((size_t)argc, sizeof(*shift));
	size_t nshift = 0;
	int c, rc = 0;

	if (!shift) {
		fprintf(stderr, "perflog view: out of memory\n");
		return 1;
	}
	optind = 1;
	opterr = 0;
	while (!rc && (c = util_getopt(argc, argv, "hs:", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': a->ascii = 1; break;
		case 'S': shift[nshift++] = optarg; break;
		case 's':
			if (a->nsession == 2) {
				fprintf(stderr, "perflog view: -s names the anchor session of each of two runs: at most two\n");
				rc = 2;
				break;
			}
			a->session[a->nsession++] = optarg;
			break;
		case 'B':
			if (util_parse_long(optarg, 0, LONG_MAX, &a->frames) < 0) {
				fprintf(stderr, "perflog view: bad --bench-frames '%s'\n",
					optarg);
				rc = 2;
			}
			break;
		case 'h': usage(stdout); rc = -1; break;
		default: rc = util_bad_option("view", argv, optind, optopt); break;
		}
	}
	for (int i = optind; !rc && i < argc; i++)
		a->dirs[a->ndirs++] = argv[i];
	if (!rc && !a->ndirs) {
		fprintf(stderr, "perflog view: no log set given\n");
		rc = usage(stderr);
	}
	/* the shifts once the log sets are known, wherever they stood */
	for (size_t k = 0; !rc && k < nshift; k++)
		rc = add_shift(a, shift[k]);
	a->nshift = (int)nshift;
	if (!rc && a->nsession && (a->ndirs != 2 || nshift)) {
		fprintf(stderr, "perflog view: -s names the sessions two runs are laid over by: give two log sets, no --shift\n");
		rc = 2;
	}
	free(shift);
	return rc;
}

/* Follow: take in what a log set still being written has gained. */
static void follow_tick(struct ui *u)
{
	double s = ui_span(u);
	struct perr e;
	int g = vm_refresh(&u->m, &e);

	if (g < 0) {
		snprintf(u->status, sizeof(u->status), "%s", e.msg);
	} else if (g > 0) {
		vm_set_window(&u->m, u->m.data_to - s, u->m.data_to);
		u->m.f_dots = 0;	/* same window, new rows */
	}
}

/* The terminal loop, until q or a signal; returns the exit status. */
static int run(struct ui *u, int force_ascii)
{
	struct term_caps caps;
	struct perr e;
	int cols, rows, rc = 0;

	if (term_start(force_ascii, &caps, &e) < 0) {
		fprintf(stderr, "perflog view: %s\n", e.msg);
		return 1;
	}
	u->ascii = !caps.utf8 || !caps.color;
	u->mono = !caps.color;
	double last_tick = util_monotonic(), last_follow = last_tick;
	while (!term_signalled()) {
		term_size(&cols, &rows);
		if (ui_frame(u, cols, rows, &e) < 0) {
			term_stop();
			fprintf(stderr, "perflog view: %s\n", e.msg);
			return 1;
		}
		term_draw(&u->grid);
		int key = term_key(u->playing ? 100 : u->follow ? 500 : 1000);
		if (key != TK_NONE && key != TK_RESIZE && ui_key(u, key))
			break;
		double now = util_monotonic();
		if (u->playing) {
			u->cursor += (now - last_tick) * ui_speeds[u->speed_i];
			if (u->cursor >= u->m.data_to) {
				u->cursor = u->m.data_to;
				u->playing = 0;
			}
			ui_follow_cursor(u);
		}
		last_tick = now;
		if (u->follow && now - last_follow >= (double)u->m.finest) {
			last_follow = now;
			follow_tick(u);
		}
	}
	term_stop();
	if (term_signalled()) {
		/* as a shell reports a process a signal ended */
		fprintf(stderr, "perflog view: interrupted\n");
		rc = 128 + term_signalled();
	}
	return rc;
}

int cmd_view(int argc, char **argv)
{
	double t_start = util_monotonic();
	struct args a = { .frames = -1 };
	struct ui u;
	struct perr e;
	int rc;

	memset(&u, 0, sizeof(u));
	a.dirs = calloc((size_t)argc, sizeof(*a.dirs));
	a.shifts = calloc((size_t)argc, sizeof(*a.shifts));
	if (!a.dirs || !a.shifts) {
		fprintf(stderr, "perflog view: out of memory\n");
		rc = 1;
		goto out;
	}
	for (int i = 0; i < argc; i++)
		a.shifts[i] = NAN;
	rc = parse_args(argc, argv, &a);
	if (rc) {
		rc = rc < 0 ? 0 : rc;
		goto out;
	}
	if (vm_open(&u.m, a.dirs, a.shifts, a.ndirs, &e) < 0) {
		fprintf(stderr, "perflog view: %s\n", e.msg);
		rc = 1;
		goto out;
	}
	/* two runs (sets logged at different times, or -s given) are laid
	 * over each other from their sessions' begins, as perfmon overlays
	 * logs; a client and its server logged together stay side by side
	 * on one clock */
	if (a.ndirs == 2 && !a.nshift && (a.nsession || !vm_overlap(&u.m)) &&
	    vm_compare(&u.m, a.session, &e) < 0) {
		fprintf(stderr, "perflog view: %s\n", e.msg);
		rc = 1;
		goto out;
	}
	u.speed_i = 3;
	u.focus = 0;
	/* each pane's cur/avg/max beside it from the first frame (issue 49:
	 * at 80x24 a pane's figures were a key away) */
	u.legend = 1;
	if (a.frames >= 0) {
		u.ascii = a.ascii;
		rc = bench(&u, a.frames, t_start);
	} else {
		rc = run(&u, a.ascii);
	}
out:
	ui_chooser_free(&u);
	vl_grid_free(&u.grid);
	vm_close(&u.m);
	free(a.dirs);
	free(a.shifts);
	return rc;
}
