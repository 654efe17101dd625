/*
 * frame.c - one frame of the viewer (ui.h): the model pass (vm_fetch at
 * the plot's resolution, vm_read_at for the cursor, vm_view), then the
 * draw pass (vl_plan + vl_render into the grid) with the header's modes,
 * the status line and the open overlay (help, sessions, chooser).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/util.h"
#include "keys.h"
#include "lanes.h"
#include "ui.h"

void ui_fmt_when(char *buf, size_t n, double t)
{
	time_t tt = (time_t)floor(t);
	struct tm tm;
	localtime_r(&tt, &tm);
	strftime(buf, n, "%Y-%m-%d %H:%M:%S", &tm);
}

void ui_fmt_span(char *buf, size_t n, double s)
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

/* What the plot's points are (the first pane's): "1s rows" when each is
 * one row of single samples, else "avg of 1h rows, band min..max" (the
 * short form "1h avg+band" when room is short); "" before a fetch. */
static void rows_note(const struct ui *u, char *buf, size_t n, int brief)
{
	char st[24];

	buf[0] = '\0';
	if (!u->m.rows_step)
		return;
	util_fmt_step(st, sizeof(st), u->m.rows_step, 1);
	if (!u->m.rows_cons && u->m.rows_per_dot <= 1.0 + 1e-9)
		snprintf(buf, n, "%s rows  ", st);
	else if (brief)
		snprintf(buf, n, "%s avg+band  ", st);
	else
		snprintf(buf, n, "avg of %s rows, band min..max  ", st);
}

/* The header's right part: what the points are, window start, span,
 * FOLLOW, PLAY xN; the short note when the whole header would not fit
 * in cols. */
static void modes(struct ui *u, int cols)
{
	char when[40], span[16], note[64];

	ui_fmt_when(when, sizeof(when), u->m.from);
	ui_fmt_span(span, sizeof(span), ui_span(u));
	for (int brief = 0; brief < 2; brief++) {
		rows_note(u, note, sizeof(note), brief);
		snprintf(u->modes, sizeof(u->modes), "%s%s +%s%s%s", note, when,
			 span, u->follow ? "  FOLLOW" : "",
			 u->playing ? "  PLAY x" : "");
		if (u->playing) {
			size_t k = strlen(u->modes);
			snprintf(u->modes + k, sizeof(u->modes) - k, "%d",
				 ui_speeds[u->speed_i]);
		}
		if ((int)(strlen(u->m.header) + strlen(u->modes)) + 2 <= cols)
			break;
	}
}

static void help_overlay(struct ui *u, int cols, int rows)
{
	const char *const *lines;
	size_t n = keys_help(&lines, 1);

	if ((int)n + 2 <= rows || cols < 80) {
		vl_overlay(&u->grid, "perflog view: keys", lines, n, -1,
			   "any key: close", u->ascii);
		return;
	}
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
		vl_overlay(&u->grid, "perflog view: keys", ptr, half, -1,
			   "any key: close", u->ascii);
	}
	free(two);
	free(ptr);
}

static void sessions_overlay(struct ui *u)
{
	char **l = calloc(u->m.nsessions ? u->m.nsessions : 1, sizeof(*l));

	if (!l)
		return;
	for (size_t i = 0; i < u->m.nsessions; i++) {
		char a[40], d[16], buf[200];
		ui_fmt_when(a, sizeof(a), u->m.sessions[i].from);
		ui_fmt_span(d, sizeof(d), u->m.sessions[i].to -
			    u->m.sessions[i].from);
		snprintf(buf, sizeof(buf), "%-20s %s  %s",
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

int ui_frame(struct ui *u, int cols, int rows, struct perr *e)
{
	struct vl_view v;
	char st[700];
	int rc = 0;

	memset(&v, 0, sizeof(v));
	vl_plan(cols, rows, u->m.nshown, u->legend,
		u->ascii ? VL_ASCII : VL_BRAILLE, &u->plan);
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
	/* a night: lanes under the panes (the data's dots do not change) */
	vl_plan_lanes(&u->plan, &v);
	modes(u, cols);
	v.modes = u->modes;
	if (u->cursor_on) {
		char t[40];
		ui_fmt_when(t, sizeof(t), u->cursor_stamp);
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
	vl_draw_lanes(&v, &u->plan, &u->grid);	/* under the panes */
	if (u->ov == OV_HELP)
		help_overlay(u, cols, rows);
	else if (u->ov == OV_SESSIONS)
		sessions_overlay(u);
	else if (u->ov == OV_CHOOSE)
		vl_overlay(&u->grid, u->m.panes[u->focus].name,
			   (const char *const *)u->ch_lines, u->ch_n, u->sel,
			   "Space: toggle  Enter: apply  Esc: cancel", u->ascii);
	return 0;
}
