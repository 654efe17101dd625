/*
 * cmd_view.c - `perflog view [--shift DIR=SECONDS] [--ascii] DIR...`, the
 * terminal viewer's command: argument parsing, the event loop and the
 * actions of keys.h.
 *
 * One turn of the loop: model pass (vm_fetch at the plot's resolution,
 * vm_read_at for the cursor, vm_view), draw pass (vl_plan + vl_render +
 * overlays into a grid), then term_draw, then wait for a key, a replay
 * tick or a follow tick. Log sets are opened and checked before the
 * terminal is touched, so a bad set is one line on stderr and exit 1.
 *
 * --bench-frames N (undocumented) opens the sets, then draws N frames
 * while scrolling, into a grid written as text to /dev/null instead of a
 * terminal, and prints the time to the first frame and per redraw.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../commands.h"
#include "keys.h"
#include "layout.h"
#include "model.h"
#include "../export/png_export.h"
#include "term.h"

enum overlay { OV_NONE, OV_HELP, OV_SESSIONS, OV_CHOOSE };

struct ui {
	struct vm_model m;
	struct vl_grid grid;
	struct vl_plan plan;
	int ascii, mono, legend;
	int cursor_on;
	double cursor;		/* requested cursor time */
	double cursor_stamp;	/* stamp of the row read out */
	int playing;
	int speed_i;
	int follow;
	int focus;
	enum overlay ov;
	long sel;
	/* chooser */
	size_t *ch_idx;		/* counters of the focused pane's set */
	char *ch_on;
	char **ch_lines;
	size_t ch_n;
	char status[600];
	char modes[160];
};

static const int speeds[] = { 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600 };
#define NSPEEDS ((int)(sizeof(speeds) / sizeof(speeds[0])))

static int usage(FILE *f)
{
	fprintf(f, "usage: perflog view [--shift DIR=SECONDS]... [--ascii] DIR...\n"
		"  Browse log sets in the terminal: panes of CPU, disk, memory and\n"
		"  paging, network on one time axis, markers and sessions.\n"
		"  Several DIRs are shown side by side on one clock; --shift adds\n"
		"  SECONDS (may be negative) to DIR's times to correct its clock.\n"
		"  --ascii draws without Unicode. Press ? in the viewer for keys.\n");
	return f == stdout ? 0 : 2;
}

static void fmt_when(char *buf, size_t n, double t)
{
	time_t tt = (time_t)floor(t);
	struct tm tm;
	localtime_r(&tt, &tm);
	strftime(buf, n, "%Y-%m-%d %H:%M:%S", &tm);
}

static void fmt_span(char *buf, size_t n, double s)
{
	if (s >= 2 * 86400)
		snprintf(buf, n, "%.1fd", s / 86400);
	else if (s >= 2 * 3600)
		snprintf(buf, n, "%.1fh", s / 3600);
	else if (s >= 120)
		snprintf(buf, n, "%.0fm", s / 60);
	else
		snprintf(buf, n, "%.0fs", s);
}

/* ---- actions ---- */

static double span_of(const struct ui *u)
{
	return u->m.to - u->m.from;
}

static void scroll_by(struct ui *u, double dt)
{
	vm_set_window(&u->m, u->m.from + dt, u->m.to + dt);
}

/* Keep the cursor inside the window, scrolling when it leaves. */
static void follow_cursor(struct ui *u)
{
	double s = span_of(u);
	if (u->cursor < u->m.data_from)
		u->cursor = u->m.data_from;
	if (u->cursor > u->m.data_to)
		u->cursor = u->m.data_to;
	if (u->cursor < u->m.from)
		vm_set_window(&u->m, u->cursor - s * 0.25, u->cursor + s * 0.75);
	else if (u->cursor > u->m.to)
		vm_set_window(&u->m, u->cursor - s * 0.75, u->cursor + s * 0.25);
}

static void zoom(struct ui *u, double factor)
{
	double s = span_of(u), c = u->cursor_on ? u->cursor : u->m.from + s / 2;
	double f = (c - u->m.from) / s, ns = s * factor;
	vm_set_window(&u->m, c - ns * f, c - ns * f + ns);
}

/* Times to jump between: point markers and session boundaries. */
static void jump_mark(struct ui *u, int dir)
{
	/* from the cursor, else from the window's edge */
	double here = u->cursor_on ? u->cursor_stamp
				   : dir > 0 ? u->m.from - 1 : u->m.to + 1;
	double best = NAN;
	const char *what = NULL;
	for (size_t i = 0; i < u->m.nmarks + 2 * u->m.nsessions; i++) {
		double t;
		const char *name;
		if (i < u->m.nmarks) {
			t = u->m.marks[i].t;
			name = u->m.marks[i].label;
		} else {
			size_t k = (i - u->m.nmarks) / 2;
			int end = (int)((i - u->m.nmarks) % 2);
			t = end ? u->m.sessions[k].to : u->m.sessions[k].from;
			name = u->m.sessions[k].name;
		}
		if (dir > 0 ? t > here + 0.5 && (isnan(best) || t < best)
			    : t < here - 0.5 && (isnan(best) || t > best)) {
			best = t;
			what = name;
		}
	}
	if (isnan(best)) {
		snprintf(u->status, sizeof(u->status), "no %s marker",
			 dir > 0 ? "next" : "previous");
		return;
	}
	u->cursor_on = 1;
	u->cursor = best;
	double s = span_of(u);
	if (best < u->m.from || best > u->m.to)
		vm_set_window(&u->m, best - s / 2, best + s / 2);
	snprintf(u->status, sizeof(u->status), "marker: %s", what ? what : "");
}

static void zoom_session(struct ui *u, size_t k)
{
	const struct vm_session *s = &u->m.sessions[k];
	double pad = (s->to - s->from) * 0.05 + (double)u->m.finest;
	vm_set_window(&u->m, s->from - pad, s->to + pad);
	u->cursor_on = 0;
	snprintf(u->status, sizeof(u->status), "session %s", s->name);
}

static void chooser_free(struct ui *u)
{
	for (size_t i = 0; i < u->ch_n; i++)
		free(u->ch_lines[i]);
	free(u->ch_lines);
	free(u->ch_idx);
	free(u->ch_on);
	u->ch_lines = NULL;
	u->ch_idx = NULL;
	u->ch_on = NULL;
	u->ch_n = 0;
}

static void chooser_line(struct ui *u, size_t i)
{
	const struct vm_pane *p = &u->m.panes[u->focus];
	const struct logset_meta *mt = logset_meta(u->m.src[p->src].ls);
	char buf[256];
	snprintf(buf, sizeof(buf), "[%c] %s", u->ch_on[i] ? 'x' : ' ',
		 mt->counters[u->ch_idx[i]].path);
	free(u->ch_lines[i]);
	u->ch_lines[i] = strdup(buf);
}

static int chooser_open(struct ui *u)
{
	chooser_free(u);
	if (u->focus < 0 || (size_t)u->focus >= u->m.npanes)
		return -1;
	const struct vm_pane *p = &u->m.panes[u->focus];
	const struct logset_meta *mt = logset_meta(u->m.src[p->src].ls);
	size_t n = mt->ncounters;
	u->ch_idx = calloc(n ? n : 1, sizeof(*u->ch_idx));
	u->ch_on = calloc(n ? n : 1, 1);
	u->ch_lines = calloc(n ? n : 1, sizeof(*u->ch_lines));
	if (!u->ch_idx || !u->ch_on || !u->ch_lines) {
		chooser_free(u);
		return -1;
	}
	u->ch_n = n;
	for (size_t i = 0; i < n; i++) {
		u->ch_idx[i] = i;
		for (size_t k = 0; k < p->n; k++)
			if (p->s[k].idx == i)
				u->ch_on[i] = 1;
		chooser_line(u, i);
	}
	return 0;
}

/* ---- drawing ---- */

static int frame(struct ui *u, int cols, int rows, struct perr *e)
{
	struct vl_view v;
	memset(&v, 0, sizeof(v));
	vl_plan(cols, rows, u->m.npanes, u->legend,
		u->ascii ? VL_ASCII : VL_BRAILLE, &u->plan);
	int rc = 0;
	if (u->plan.ok)
		rc = vm_fetch(&u->m, u->plan.dots, 0, e);
	if (u->cursor_on)
		u->cursor_stamp = vm_read_at(&u->m, u->cursor);
	vm_view(&u->m, &v);
	v.glyphs = u->ascii ? VL_ASCII : VL_BRAILLE;
	v.mono = u->mono;
	v.legend = u->legend;
	v.cursor_on = u->cursor_on;
	v.cursor = u->cursor_stamp;
	v.focus = u->focus;
	char when[40], span[16];
	fmt_when(when, sizeof(when), u->m.from);
	fmt_span(span, sizeof(span), span_of(u));
	snprintf(u->modes, sizeof(u->modes), "%s +%s%s%s%s", when, span,
		 u->follow ? "  FOLLOW" : "", u->playing ? "  PLAY x" : "",
		 "");
	if (u->playing) {
		size_t k = strlen(u->modes);
		snprintf(u->modes + k, sizeof(u->modes) - k, "%d",
			 speeds[u->speed_i]);
	}
	v.modes = u->modes;
	char st[700];
	if (u->cursor_on) {
		char t[40];
		fmt_when(t, sizeof(t), u->cursor_stamp);
		snprintf(st, sizeof(st), "cursor %s  %s", t,
			 u->status[0] ? u->status : "(,/. one sample, Enter: off)");
		v.status = st;
	} else if (u->status[0]) {
		v.status = u->status;
	}
	if (rc < 0) {
		snprintf(st, sizeof(st), "error: %s", e->msg);
		v.status = st;
	}
	if (vl_render(&v, &u->plan, &u->grid) < 0)
		return perr_set(e, "out of memory");
	if (u->ov == OV_HELP) {
		const char *const *lines;
		size_t n = keys_help(&lines, 1);
		if ((int)n + 2 <= rows || cols < 80) {
			vl_overlay(&u->grid, "perflog view: keys", lines, n, -1,
				   "any key: close", u->ascii);
		} else {
			/* two columns when one does not fit the height */
			size_t half = (n + 1) / 2;
			char (*two)[96] = calloc(half, sizeof(*two));
			const char **ptr = calloc(half, sizeof(*ptr));
			if (two && ptr) {
				for (size_t i = 0; i < half; i++) {
					snprintf(two[i], sizeof(two[i]), "%-36.36s %.36s",
						 lines[i], i + half < n ? lines[i + half] : "");
					ptr[i] = two[i];
				}
				vl_overlay(&u->grid, "perflog view: keys", ptr, half,
					   -1, "any key: close", u->ascii);
			}
			free(two);
			free(ptr);
		}
	} else if (u->ov == OV_SESSIONS) {
		char **l = calloc(u->m.nsessions ? u->m.nsessions : 1, sizeof(*l));
		if (l) {
			for (size_t i = 0; i < u->m.nsessions; i++) {
				char a[40], d[16], buf[200];
				fmt_when(a, sizeof(a), u->m.sessions[i].from);
				fmt_span(d, sizeof(d), u->m.sessions[i].to -
					 u->m.sessions[i].from);
				snprintf(buf, sizeof(buf), "%-20.40s %s  %s",
					 u->m.sessions[i].name, a, d);
				l[i] = strdup(buf);
			}
			const char *none = "(no sessions in this log)";
			vl_overlay(&u->grid, "Sessions",
				   u->m.nsessions ? (const char *const *)l : &none,
				   u->m.nsessions ? u->m.nsessions : 1,
				   u->m.nsessions ? u->sel : -1,
				   "Enter: zoom to session  Esc: close", u->ascii);
			for (size_t i = 0; i < u->m.nsessions; i++)
				free(l[i]);
			free(l);
		}
	} else if (u->ov == OV_CHOOSE) {
		vl_overlay(&u->grid, u->m.panes[u->focus].name,
			   (const char *const *)u->ch_lines, u->ch_n, u->sel,
			   "Space: toggle  Enter: apply  Esc: cancel", u->ascii);
	}
	return 0;
}

/* ---- keys ---- */

/* Returns 1 to quit. */
static int handle_overlay_key(struct ui *u, int key)
{
	if (u->ov == OV_HELP) {
		u->ov = OV_NONE;
		return key == 'q' ? 0 : 0;
	}
	long n = u->ov == OV_SESSIONS ? (long)u->m.nsessions : (long)u->ch_n;
	switch (key) {
	case TK_UP: case 'k':
		if (u->sel > 0)
			u->sel--;
		break;
	case TK_DOWN: case 'j':
		if (u->sel + 1 < n)
			u->sel++;
		break;
	case TK_PGUP:
		u->sel = u->sel > 10 ? u->sel - 10 : 0;
		break;
	case TK_PGDN:
		u->sel = u->sel + 10 < n ? u->sel + 10 : (n ? n - 1 : 0);
		break;
	case TK_ESC: case 'q':
		u->ov = OV_NONE;
		chooser_free(u);
		break;
	case ' ':
		if (u->ov == OV_CHOOSE && u->sel < n) {
			u->ch_on[u->sel] = !u->ch_on[u->sel];
			chooser_line(u, (size_t)u->sel);
		}
		break;
	case TK_ENTER:
		if (u->ov == OV_SESSIONS && u->sel < n)
			zoom_session(u, (size_t)u->sel);
		if (u->ov == OV_CHOOSE) {
			size_t k = 0;
			for (size_t i = 0; i < u->ch_n; i++)
				if (u->ch_on[i])
					u->ch_idx[k++] = u->ch_idx[i];
			if (k)
				vm_set_series(&u->m, (size_t)u->focus, u->ch_idx, k);
			else
				snprintf(u->status, sizeof(u->status),
					 "a pane needs at least one counter");
			chooser_free(u);
		}
		u->ov = OV_NONE;
		break;
	}
	return 0;
}

static double sample_step(const struct ui *u)
{
	return (double)(u->m.finest ? u->m.finest : 1);
}

/* Export the window as PNG charts, one directory per log set under the
 * current directory (perflog-view-HOST-START), through the same code as
 * `perflog export --png`; the status line says where they went. */
static void export_view(struct ui *u)
{
	char first[PATH_MAX] = "";
	int total = 0;

	for (size_t i = 0; i < u->m.nsrc; i++) {
		const struct vm_source *src = &u->m.src[i];
		const struct logset_meta *mt = logset_meta(src->ls);
		struct png_export_options o;
		struct perr e;
		char out[PATH_MAX], stamp[32];
		time_t from = (time_t)floor(u->m.from) - src->shift;
		struct tm tm;
		int n;

		gmtime_r(&from, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
		snprintf(out, sizeof(out), "perflog-view-%s-%s", mt->host, stamp);
		memset(&o, 0, sizeof(o));
		o.from = from;
		o.to = (time_t)ceil(u->m.to) - src->shift;
		n = png_export(src->ls, &src->marks, out, &o, NULL, 0, &e);
		if (n < 0) {
			snprintf(u->status, sizeof(u->status), "export failed: %.200s",
				 e.msg);
			return;
		}
		total += n;
		if (!first[0])
			util_strlcpy(first, out, sizeof(first));
	}
	snprintf(u->status, sizeof(u->status), "%d PNG charts written to %.200s%s",
		 total, first, u->m.nsrc > 1 ? " (and one directory per log set)" : "");
}

static int handle_key(struct ui *u, int key)
{
	if (u->ov != OV_NONE)
		return handle_overlay_key(u, key);
	double s = span_of(u), col = s / (u->plan.plot_w > 0 ? u->plan.plot_w : 80);
	u->status[0] = '\0';
	switch (keys_action(key, 1)) {
	case KA_QUIT:
		return 1;
	case KA_HELP:
		u->ov = OV_HELP;
		break;
	case KA_LEFT:
		if (u->cursor_on) {
			u->cursor = u->cursor_stamp - (col > sample_step(u) ? col : sample_step(u));
			follow_cursor(u);
		} else
			scroll_by(u, -s / 8);
		u->follow = 0;
		break;
	case KA_RIGHT:
		if (u->cursor_on) {
			u->cursor = u->cursor_stamp + (col > sample_step(u) ? col : sample_step(u));
			follow_cursor(u);
		} else
			scroll_by(u, s / 8);
		break;
	case KA_PAGE_LEFT:
		scroll_by(u, -s / 2);
		u->follow = 0;
		break;
	case KA_PAGE_RIGHT:
		scroll_by(u, s / 2);
		break;
	case KA_STEP_LEFT:
	case KA_STEP_RIGHT:
		if (!u->cursor_on) {
			u->cursor_on = 1;
			u->cursor = u->m.from + s / 2;
			break;
		}
		u->cursor = u->cursor_stamp + (keys_action(key, 1) == KA_STEP_LEFT
					       ? -sample_step(u) : sample_step(u));
		follow_cursor(u);
		break;
	case KA_ZOOM_IN:
		zoom(u, 0.5);
		u->follow = 0;
		break;
	case KA_ZOOM_OUT:
		zoom(u, 2);
		break;
	case KA_HOME:
		vm_set_window(&u->m, u->m.data_from, u->m.data_from + s);
		if (u->cursor_on)
			u->cursor = u->m.from;
		u->follow = 0;
		break;
	case KA_END:
		vm_set_window(&u->m, u->m.data_to - s, u->m.data_to);
		if (u->cursor_on)
			u->cursor = u->m.to;
		break;
	case KA_ALL:
		vm_set_window(&u->m, u->m.data_from, u->m.data_to);
		break;
	case KA_NEXT_MARK:
		jump_mark(u, 1);
		break;
	case KA_PREV_MARK:
		jump_mark(u, -1);
		break;
	case KA_SESSIONS:
		u->ov = OV_SESSIONS;
		u->sel = 0;
		break;
	case KA_CURSOR:
		u->cursor_on = !u->cursor_on;
		if (u->cursor_on && (u->cursor < u->m.from || u->cursor > u->m.to))
			u->cursor = u->m.from + s / 2;
		if (!u->cursor_on)
			u->playing = 0;
		break;
	case KA_FOCUS:
		if (u->plan.npanes)
			u->focus = (u->focus + 1) % (int)u->plan.npanes;
		break;
	case KA_FOCUS_BACK:
		if (u->plan.npanes)
			u->focus = (u->focus + (int)u->plan.npanes - 1) %
				   (int)u->plan.npanes;
		break;
	case KA_CHOOSE:
		if (chooser_open(u) == 0) {
			u->ov = OV_CHOOSE;
			u->sel = 0;
		}
		break;
	case KA_PLAY:
		u->playing = !u->playing;
		if (u->playing && !u->cursor_on) {
			u->cursor_on = 1;
			u->cursor = u->m.from;
		} else if (u->playing) {
			u->cursor = u->cursor_stamp;
		}
		break;
	case KA_SLOWER:
		if (u->speed_i > 0)
			u->speed_i--;
		snprintf(u->status, sizeof(u->status), "replay speed x%d",
			 speeds[u->speed_i]);
		break;
	case KA_FASTER:
		if (u->speed_i + 1 < NSPEEDS)
			u->speed_i++;
		snprintf(u->status, sizeof(u->status), "replay speed x%d",
			 speeds[u->speed_i]);
		break;
	case KA_FOLLOW:
		u->follow = !u->follow;
		if (u->follow)
			vm_set_window(&u->m, u->m.data_to - s, u->m.data_to);
		break;
	case KA_LEGEND:
		u->legend = !u->legend;
		break;
	case KA_EXPORT:
		export_view(u);
		break;
	case KA_REDRAW:
	case KA_NONE:
		break;
	}
	return 0;
}

/* ---- main ---- */

static int parse_shift(const char *arg, char **dir, long *secs)
{
	const char *eq = strrchr(arg, '=');
	if (!eq || eq == arg)
		return -1;
	char *end;
	errno = 0;
	long v = strtol(eq + 1, &end, 10);
	if (errno || end == eq + 1 || *end || labs(v) > 10L * 365 * 86400)
		return -1;
	*dir = strndup(arg, (size_t)(eq - arg));
	*secs = v;
	return *dir ? 0 : -1;
}

/* Same log set named two ways ("logs/x" and "logs/x/")? */
static int same_dir(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	while (la > 1 && a[la - 1] == '/')
		la--;
	while (lb > 1 && b[lb - 1] == '/')
		lb--;
	return la == lb && !strncmp(a, b, la);
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
				scroll_by(u, -span_of(u) / 8);
			else if (k == 1)
				zoom(u, 0.5);
			else if (k == 2)
				zoom(u, 2);
			else {
				u->cursor_on = 1;
				u->cursor = u->m.from + span_of(u) * 0.3;
			}
		}
		if (frame(u, 80, 24, &e) < 0) {
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

int cmd_view(int argc, char **argv)
{
	double t_start = util_monotonic();
	char **dirs = calloc((size_t)argc, sizeof(*dirs));
	char **sdirs = calloc((size_t)argc, sizeof(*sdirs));
	long *sh = calloc((size_t)argc, sizeof(*sh)), *shifts = calloc((size_t)argc, sizeof(*shifts));
	size_t ndirs = 0, nshift = 0;
	int force_ascii = 0, rc = 1;
	long frames = -1;
	struct ui u;
	memset(&u, 0, sizeof(u));
	if (!dirs || !sdirs || !sh || !shifts) {
		fprintf(stderr, "perflog view: out of memory\n");
		goto out;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			rc = usage(stdout);
			goto out;
		} else if (!strcmp(a, "--ascii")) {
			force_ascii = 1;
		} else if (!strcmp(a, "--shift") || !strncmp(a, "--shift=", 8)) {
			const char *v = a[7] == '=' ? a + 8 : i + 1 < argc ? argv[++i] : NULL;
			if (!v || parse_shift(v, &sdirs[nshift], &sh[nshift]) < 0) {
				fprintf(stderr, "perflog view: --shift wants DIR=SECONDS, "
					"got '%s'\n", v ? v : "");
				rc = 2;
				goto out;
			}
			nshift++;
		} else if (!strcmp(a, "--bench-frames") && i + 1 < argc) {
			char *end;
			frames = strtol(argv[++i], &end, 10);
			if (*end || frames < 0) {
				fprintf(stderr, "perflog view: bad --bench-frames '%s'\n",
					argv[i]);
				rc = 2;
				goto out;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "perflog view: unknown option '%s'\n", a);
			rc = usage(stderr);
			goto out;
		} else {
			dirs[ndirs++] = argv[i];
		}
	}
	if (!ndirs) {
		fprintf(stderr, "perflog view: no log set given\n");
		rc = usage(stderr);
		goto out;
	}
	for (size_t k = 0; k < nshift; k++) {
		size_t i;
		for (i = 0; i < ndirs && !same_dir(dirs[i], sdirs[k]); i++)
			;
		if (i == ndirs) {
			fprintf(stderr, "perflog view: --shift names '%s', which is "
				"not among the log sets\n", sdirs[k]);
			rc = 2;
			goto out;
		}
		shifts[i] = sh[k];
	}
	struct perr e;
	if (vm_open(&u.m, dirs, shifts, ndirs, &e) < 0) {
		fprintf(stderr, "perflog view: %s\n", e.msg);
		rc = 1;
		goto out;
	}
	u.speed_i = 3;
	u.focus = 0;
	if (frames >= 0) {
		u.ascii = force_ascii;
		rc = bench(&u, frames, t_start);
		goto out;
	}
	struct term_caps caps;
	if (term_start(force_ascii, &caps, &e) < 0) {
		fprintf(stderr, "perflog view: %s\n", e.msg);
		rc = 1;
		goto out;
	}
	u.ascii = !caps.utf8 || !caps.color;
	u.mono = !caps.color;
	double last_tick = util_monotonic(), last_follow = last_tick;
	int cols, rows;
	rc = 0;
	for (;;) {
		if (term_signalled()) {
			rc = 1;
			break;
		}
		term_size(&cols, &rows);
		if (frame(&u, cols, rows, &e) < 0) {
			term_stop();
			fprintf(stderr, "perflog view: %s\n", e.msg);
			rc = 1;
			break;
		}
		term_draw(&u.grid);
		int wait = u.playing ? 100 : u.follow ? 500 : 1000;
		int key = term_key(wait);
		if (key != TK_NONE && key != TK_RESIZE && handle_key(&u, key))
			break;
		double now = util_monotonic();
		if (u.playing) {
			u.cursor += (now - last_tick) * speeds[u.speed_i];
			if (u.cursor >= u.m.data_to) {
				u.cursor = u.m.data_to;
				u.playing = 0;
			}
			follow_cursor(&u);
		}
		last_tick = now;
		if (u.follow && now - last_follow >= (double)u.m.finest) {
			last_follow = now;
			double s = span_of(&u);
			int g = vm_refresh(&u.m, &e);
			if (g < 0)
				snprintf(u.status, sizeof(u.status), "%s", e.msg);
			else if (g > 0) {
				vm_set_window(&u.m, u.m.data_to - s, u.m.data_to);
				u.m.f_dots = 0;	/* same window, new rows */
			}
		}
	}
	term_stop();
	if (term_signalled()) {
		/* as a shell reports a process a signal ended */
		fprintf(stderr, "perflog view: interrupted\n");
		rc = 128 + term_signalled();
	}
out:
	chooser_free(&u);
	vl_grid_free(&u.grid);
	vm_close(&u.m);
	for (size_t k = 0; k < nshift; k++)
		free(sdirs[k]);
	free(dirs);
	free(sdirs);
	free(sh);
	free(shifts);
	return rc;
}
