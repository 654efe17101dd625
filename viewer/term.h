/*
 * term.h - the one module that talks to the terminal (ncursesw), after
 * tmux's tty.c: it draws a finished vl_grid, reads keys, follows resizes,
 * and restores the terminal on every way out. SIGINT, SIGTERM and SIGHUP
 * only set a flag (STYLE 7); the loop sees term_signalled() and leaves
 * through term_stop(), which also runs at exit.
 */
#ifndef PERFLOG_VIEWER_TERM_H
#define PERFLOG_VIEWER_TERM_H

#include "../common/util.h"
#include "layout.h"

struct term_caps {
	int utf8;	/* locale codeset is UTF-8 */
	int color;	/* has_colors() and enough pairs */
};

/* Start curses on the controlling terminal. force_ascii: draw ASCII
 * whatever the locale says. Returns 0 or -1 (no terminal) with e set; the
 * terminal is untouched on failure. */
int term_start(int force_ascii, struct term_caps *caps, struct perr *e);
/* Restore the terminal; safe to call twice and without term_start. */
void term_stop(void);
void term_size(int *cols, int *rows);
void term_draw(const struct vl_grid *g);
/* Next key (keys.h codes) within timeout_ms (-1: wait), TK_NONE on
 * timeout or signal. */
int term_key(int timeout_ms);
/* The signal (SIGINT, SIGTERM or SIGHUP) that arrived, or 0. */
int term_signalled(void);

#endif
