/*
 * ui.h - the viewer's state between two frames and what acts on it:
 *
 *   cmd_view.c  the command: options, the loop (frame, term_draw, a key
 *               or a tick), replay and follow
 *   actions.c   what a key does (keys.h): scroll, zoom, cursor, marks,
 *               sessions, the counter chooser, modes, the PNG export
 *   frame.c     one frame: the model pass (model.h) and the draw pass
 *               (layout.h) into the grid, with the header, status line
 *               and overlays
 *
 * Nothing here talks to the terminal (term.h does), so the benchmark
 * draws frames without one.
 */
#ifndef PERFLOG_VIEWER_UI_H
#define PERFLOG_VIEWER_UI_H

#include <stddef.h>

#include "../common/util.h"
#include "layout.h"
#include "model.h"

enum ui_overlay { OV_NONE, OV_HELP, OV_SESSIONS, OV_CHOOSE };

struct ui {
	struct vm_model m;
	struct vl_grid grid;
	struct vl_plan plan;
	int ascii, mono, legend;
	int cursor_on;
	double cursor;		/* requested cursor time */
	double cursor_stamp;	/* stamp of the row read out */
	int playing;
	int speed_i;		/* index into ui_speeds */
	int follow;
	int focus;
	enum ui_overlay ov;
	long sel;
	/* chooser */
	size_t *ch_idx;		/* counters of the focused pane's set */
	char *ch_on;
	char **ch_lines;
	size_t ch_n;
	char status[600];
	char modes[160];
};

/* Replay speeds (data seconds per second), slowest first. */
extern const int ui_speeds[];
#define UI_NSPEEDS 11

/* The window's span in seconds. */
double ui_span(const struct ui *u);
/* Move the window by dt seconds. */
void ui_scroll(struct ui *u, double dt);
/* Zoom by factor (0.5 in, 2 out) around the cursor or the middle. */
void ui_zoom(struct ui *u, double factor);
/* Keep the cursor inside the data and the window, scrolling as needed. */
void ui_follow_cursor(struct ui *u);

/* Carry out a key (keys.h code); returns 1 to quit. */
int ui_key(struct ui *u, int key);
/* Free the counter chooser's lists. */
void ui_chooser_free(struct ui *u);

/* Draw one frame for a cols x rows screen into u->grid: fetch what the
 * window needs, render panes, header, status and the open overlay.
 * Returns 0, or -1 (out of memory) with e set; a fetch error shows on the
 * status line instead. */
int ui_frame(struct ui *u, int cols, int rows, struct perr *e);

/* Local time "2026-11-30 04:50:12" and a span as "90s", "5m", "2.5h". */
void ui_fmt_when(char *buf, size_t n, double t);
void ui_fmt_span(char *buf, size_t n, double s);

#endif
