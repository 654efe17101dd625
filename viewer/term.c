/*
 * term.c - ncursesw output and input for the viewer (term.h). The rest of
 * the viewer never includes curses.h: it hands over a grid of cells and
 * receives key codes.
 *
 * Capabilities: braille and box characters only when the locale's codeset
 * is UTF-8 (nl_langinfo(CODESET) after setlocale); colours when
 * has_colors(). Sessions are shaded with a dark grey background on 256
 * colour terminals, blue on 8 colour ones, not at all without colour.
 */
#include "term.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/sig.h"
#include "keys.h"
#include "lanes.h"

static int started, use_color, use_utf8;

/* SIGINT, SIGTERM and SIGHUP only set a flag (common/sig.h); the loop
 * sees term_signalled() and leaves through term_stop. */
static const int quit_signals[] = { SIGINT, SIGTERM, SIGHUP };

int term_signalled(void)
{
	return sig_caught();
}

void term_stop(void)
{
	if (!started)
		return;
	started = 0;
	endwin();
}

static void at_exit_stop(void)
{
	term_stop();
}

static const short series_fg[VL_NCOLORS] = {
	[VL_C_DEFAULT] = -1,
	[1] = COLOR_GREEN, [2] = COLOR_YELLOW, [3] = COLOR_CYAN,
	[4] = COLOR_MAGENTA, [5] = COLOR_RED, [6] = COLOR_BLUE,
	[VL_C_MARKER] = COLOR_WHITE, [VL_C_AXIS] = COLOR_WHITE,
	[VL_C_TITLE] = COLOR_CYAN, [VL_C_CURSOR] = COLOR_YELLOW,
	[VL_C_WARN] = COLOR_RED,
};

int term_start(int force_ascii, struct term_caps *caps, struct perr *e)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return perr_set(e, "standard input and output must be a terminal");
	if (util_term_dumb())
		return perr_set(e, "TERM=%s cannot move the cursor; perflog report and perflog export work without one",
				getenv("TERM") && *getenv("TERM") ? getenv("TERM") : "(unset)");
	setlocale(LC_ALL, "");
	const char *cs = nl_langinfo(CODESET);
	use_utf8 = !force_ascii && cs && (!strcmp(cs, "UTF-8") ||
					  !strcmp(cs, "utf8"));
	sig_catch(quit_signals, sizeof(quit_signals) / sizeof(quit_signals[0]),
		  0, NULL);
	if (!getenv("ESCDELAY"))
		set_escdelay(25);
	if (!newterm(NULL, stdout, stdin))
		return perr_set(e, "unable to start the terminal (TERM=%s)",
				getenv("TERM") ? getenv("TERM") : "");
	started = 1;
	atexit(at_exit_stop);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	/* NO_COLOR (no-color.org): draw as on a monochrome terminal */
	use_color = util_color_ok() && has_colors() && start_color() == OK &&
		    COLOR_PAIRS > 2 * VL_NCOLORS;
	if (use_color) {
		use_default_colors();
		short shade = COLORS >= 256 ? 236 : COLOR_BLUE;
		for (int c = 0; c < VL_NCOLORS; c++) {
			short fg = series_fg[c];
			if (COLORS >= 256 && c == VL_C_AXIS)
				fg = 245;
			if (c >= VL_C_LANE)
				fg = vl_lane_fg(c - VL_C_LANE, COLORS);
			init_pair((short)(c + 1), fg, -1);
			init_pair((short)(c + 1 + VL_NCOLORS), fg, shade);
		}
	}
	caps->utf8 = use_utf8;
	caps->color = use_color;
	return 0;
}

void term_size(int *cols, int *rows)
{
	*cols = COLS;
	*rows = LINES;
}

static attr_t attrs_of(const struct vl_cell *c, short *pair)
{
	attr_t a = 0;
	if (c->attr & VL_A_BOLD)
		a |= A_BOLD;
	if (c->attr & VL_A_REVERSE)
		a |= A_REVERSE;
	if (c->attr & VL_A_UNDERLINE)
		a |= A_UNDERLINE;
	if (c->attr & VL_A_DIM)
		a |= A_DIM;
	*pair = 0;
	if (use_color)
		*pair = (short)(c->color + 1 +
				((c->attr & VL_A_SHADE) ? VL_NCOLORS : 0));
	else if (c->color == VL_C_AXIS)
		a |= A_DIM;
	return a;
}

void term_draw(const struct vl_grid *g)
{
	if (!started)
		return;
	for (int y = 0; y < g->h && y < LINES; y++)
		for (int x = 0; x < g->w && x < COLS; x++) {
			const struct vl_cell *c = &g->c[y * g->w + x];
			short pair;
			attr_t a = attrs_of(c, &pair);
			/* the bottom-right cell would scroll some terminals */
			if (y == LINES - 1 && x == COLS - 1)
				continue;
			if (use_utf8) {
				cchar_t cc;
				wchar_t wc[2] = { (wchar_t)c->ch, 0 };
				setcchar(&cc, wc, a, pair, NULL);
				mvadd_wch(y, x, &cc);
			} else {
				chtype ch = c->ch < 0x80 ? c->ch : '?';
				mvaddch(y, x, ch | a | COLOR_PAIR(pair));
			}
		}
	wnoutrefresh(stdscr);
	doupdate();
}

int term_key(int timeout_ms)
{
	if (!started || sig_caught())
		return TK_NONE;
	timeout(timeout_ms);
	wint_t wc;
	int r = get_wch(&wc);
	if (r == ERR)
		return TK_NONE;
	if (r == KEY_CODE_YES) {
		switch (wc) {
		case KEY_LEFT: return TK_LEFT;
		case KEY_RIGHT: return TK_RIGHT;
		case KEY_UP: return TK_UP;
		case KEY_DOWN: return TK_DOWN;
		case KEY_SLEFT: return TK_SLEFT;
		case KEY_SRIGHT: return TK_SRIGHT;
		case KEY_HOME: return TK_HOME;
		case KEY_END: return TK_END;
		case KEY_PPAGE: return TK_PGUP;
		case KEY_NPAGE: return TK_PGDN;
		case KEY_ENTER: return TK_ENTER;
		case KEY_BTAB: return TK_BTAB;
		case KEY_RESIZE: return TK_RESIZE;
		default: return TK_NONE;
		}
	}
	switch (wc) {
	case '\r': case '\n': return TK_ENTER;
	case 27: return TK_ESC;
	case '\t': return TK_TAB;
	default: return (int)wc;
	}
}
