/*
 * actions.c - what the viewer's keys do (ui.h, keys.h): moving the window
 * and the cursor, jumping between markers and sessions, the counter
 * chooser, replay and follow, the PNG export of the window. Each action
 * changes the state; the next frame (frame.c) shows it.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../export/png_export.h"
#include "keys.h"
#include "ui.h"

const int ui_speeds[UI_NSPEEDS] = { 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800,
				    3600 };

/* ---- the window and the cursor ---- */

double ui_span(const struct ui *u)
{
	return u->m.to - u->m.from;
}

void ui_scroll(struct ui *u, double dt)
{
	vm_set_window(&u->m, u->m.from + dt, u->m.to + dt);
}

/* Keep the cursor inside the window, scrolling when it leaves. */
void ui_follow_cursor(struct ui *u)
{
	double s = ui_span(u);
	if (u->cursor < u->m.data_from)
		u->cursor = u->m.data_from;
	if (u->cursor > u->m.data_to)
		u->cursor = u->m.data_to;
	if (u->cursor < u->m.from)
		vm_set_window(&u->m, u->cursor - s * 0.25, u->cursor + s * 0.75);
	else if (u->cursor > u->m.to)
		vm_set_window(&u->m, u->cursor - s * 0.75, u->cursor + s * 0.25);
}

void ui_zoom(struct ui *u, double factor)
{
	double s = ui_span(u), c = u->cursor_on ? u->cursor : u->m.from + s / 2;
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
	double s = ui_span(u);
	if (best < u->m.from || best > u->m.to)
		vm_set_window(&u->m, best - s / 2, best + s / 2);
	snprintf(u->status, sizeof(u->status), "marker: %s", what ? what : "");
}

static void zoom_session(struct ui *u, size_t k)
{
	const struct vm_session *s = &u->m.sessions[k];
	double pad = (s->to - s->from) * 0.05 + (double)u->m.finest;
	vm_set_window(&u->m, s->from - pad, s->to + pad);
	vm_repick_panes(&u->m, s->from, s->to);
	u->cursor_on = 0;
	snprintf(u->status, sizeof(u->status), "session %s", s->name);
}

static double sample_step(const struct ui *u)
{
	return (double)(u->m.finest ? u->m.finest : 1);
}

/* ---- the counter chooser ---- */

void ui_chooser_free(struct ui *u)
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
	ui_chooser_free(u);
	if (u->focus < 0 || (size_t)u->focus >= u->m.nshown)
		return -1;
	const struct vm_pane *p = &u->m.panes[u->focus];
	const struct logset_meta *mt = logset_meta(u->m.src[p->src].ls);
	size_t n = mt->ncounters;
	u->ch_idx = calloc(n ? n : 1, sizeof(*u->ch_idx));
	u->ch_on = calloc(n ? n : 1, 1);
	u->ch_lines = calloc(n ? n : 1, sizeof(*u->ch_lines));
	if (!u->ch_idx || !u->ch_on || !u->ch_lines) {
		ui_chooser_free(u);
		return -1;
	}
	/* the pane's chart set first: its PNG-only counters are here */
	u->ch_n = n ? vm_chooser_order(&u->m, (size_t)u->focus, u->ch_idx) : 0;
	if (n && !u->ch_n) {
		ui_chooser_free(u);
		return -1;
	}
	for (size_t i = 0; i < u->ch_n; i++) {
		for (size_t k = 0; k < p->n; k++)
			if (p->s[k].idx == u->ch_idx[i])
				u->ch_on[i] = 1;
		chooser_line(u, i);
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
		ui_chooser_free(u);
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
			ui_chooser_free(u);
		}
		u->ov = OV_NONE;
		break;
	}
	return 0;
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
/* Keys that move the window or the cursor; 0 when a is not one. */
static int move_key(struct ui *u, enum key_action a)
{
	double s = ui_span(u), col = s / (u->plan.plot_w > 0 ? u->plan.plot_w : 80);
	double step = col > sample_step(u) ? col : sample_step(u);

	switch (a) {
	case KA_LEFT:
	case KA_RIGHT:
		if (u->cursor_on) {
			u->cursor = u->cursor_stamp + (a == KA_LEFT ? -step : step);
			ui_follow_cursor(u);
		} else {
			ui_scroll(u, a == KA_LEFT ? -s / 8 : s / 8);
		}
		if (a == KA_LEFT)
			u->follow = 0;
		return 1;
	case KA_PAGE_LEFT:
		ui_scroll(u, -s / 2);
		u->follow = 0;
		return 1;
	case KA_PAGE_RIGHT:
		ui_scroll(u, s / 2);
		return 1;
	case KA_STEP_LEFT:
	case KA_STEP_RIGHT:
		if (!u->cursor_on) {
			u->cursor_on = 1;
			u->cursor = u->m.from + s / 2;
			return 1;
		}
		u->cursor = u->cursor_stamp + (a == KA_STEP_LEFT ? -sample_step(u)
							      : sample_step(u));
		ui_follow_cursor(u);
		return 1;
	case KA_ZOOM_IN:
		ui_zoom(u, 0.5);
		u->follow = 0;
		return 1;
	case KA_ZOOM_OUT:
		ui_zoom(u, 2);
		return 1;
	case KA_HOME:
		vm_set_window(&u->m, u->m.data_from, u->m.data_from + s);
		if (u->cursor_on)
			u->cursor = u->m.from;
		u->follow = 0;
		return 1;
	case KA_END:
		vm_set_window(&u->m, u->m.data_to - s, u->m.data_to);
		if (u->cursor_on)
			u->cursor = u->m.to;
		return 1;
	case KA_ALL:
		vm_set_window(&u->m, u->m.data_from, u->m.data_to);
		vm_repick_panes(&u->m, u->m.data_from, u->m.data_to);
		return 1;
	case KA_NEXT_MARK:
	case KA_PREV_MARK:
		jump_mark(u, a == KA_NEXT_MARK ? 1 : -1);
		return 1;
	default:
		return 0;
	}
}

/* Replay and follow. */
static void replay_key(struct ui *u, enum key_action a)
{
	double s = ui_span(u);

	switch (a) {
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
	case KA_FASTER:
		if (a == KA_SLOWER && u->speed_i > 0)
			u->speed_i--;
		if (a == KA_FASTER && u->speed_i + 1 < UI_NSPEEDS)
			u->speed_i++;
		snprintf(u->status, sizeof(u->status), "replay speed x%d",
			 ui_speeds[u->speed_i]);
		break;
	case KA_FOLLOW:
		u->follow = !u->follow;
		if (u->follow)
			vm_set_window(&u->m, u->m.data_to - s, u->m.data_to);
		break;
	default:
		break;
	}
}

int ui_key(struct ui *u, int key)
{
	enum key_action a;
	int np = (int)u->plan.npanes;

	if (u->ov != OV_NONE)
		return handle_overlay_key(u, key);
	u->status[0] = '\0';
	a = keys_action(key, 1);
	if (move_key(u, a))
		return 0;
	switch (a) {
	case KA_QUIT:
		return 1;
	case KA_HELP:
		u->ov = OV_HELP;
		break;
	case KA_SESSIONS:
		u->ov = OV_SESSIONS;
		u->sel = 0;
		break;
	case KA_CURSOR:
		u->cursor_on = !u->cursor_on;
		if (u->cursor_on && (u->cursor < u->m.from || u->cursor > u->m.to))
			u->cursor = u->m.from + ui_span(u) / 2;
		if (!u->cursor_on)
			u->playing = 0;
		break;
	case KA_FOCUS:
	case KA_FOCUS_BACK:
		if (np)
			u->focus = (u->focus + (a == KA_FOCUS ? 1 : np - 1)) % np;
		break;
	case KA_CHOOSE:
		if (chooser_open(u) == 0) {
			u->ov = OV_CHOOSE;
			u->sel = 0;
		}
		break;
	case KA_LEGEND:
		u->legend = !u->legend;
		break;
	case KA_EXPORT:
		export_view(u);
		break;
	default:
		replay_key(u, a);
		break;
	}
	return 0;
}
