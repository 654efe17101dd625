/*
 * keys.h - the viewer's key bindings: one table mapping keys to actions,
 * with the help text the `?` screen lists. term.h turns terminal input into
 * the key codes below; the command (cmd_view.c) carries out the actions.
 */
#ifndef PERFLOG_VIEWER_KEYS_H
#define PERFLOG_VIEWER_KEYS_H

#include <stddef.h>

/* Key codes: characters are themselves; special keys above 0x110000. */
enum {
	TK_NONE = -1,
	TK_LEFT = 0x110000, TK_RIGHT, TK_UP, TK_DOWN, TK_SLEFT, TK_SRIGHT,
	TK_HOME, TK_END, TK_PGUP, TK_PGDN, TK_ENTER, TK_ESC, TK_TAB,
	TK_BTAB, TK_RESIZE
};

enum key_action {
	KA_NONE, KA_QUIT, KA_HELP, KA_LEFT, KA_RIGHT, KA_PAGE_LEFT,
	KA_PAGE_RIGHT, KA_STEP_LEFT, KA_STEP_RIGHT, KA_ZOOM_IN, KA_ZOOM_OUT,
	KA_HOME, KA_END, KA_ALL, KA_NEXT_MARK, KA_PREV_MARK, KA_SESSIONS,
	KA_CURSOR, KA_FOCUS, KA_FOCUS_BACK, KA_CHOOSE, KA_PLAY, KA_SLOWER,
	KA_FASTER, KA_FOLLOW, KA_LEGEND, KA_EXPORT, KA_REDRAW
};

struct key_binding {
	int key;
	enum key_action action;
	const char *name;	/* as shown in help: "Left", "+" */
	const char *help;	/* NULL: an alias, listed with the one before */
};

/* Action of a key in the chart (overlays handle their own keys), KA_NONE
 * when unbound. with_export: the PNG export key is available. */
enum key_action keys_action(int key, int with_export);

/* The help screen's lines ("Left/Right   scroll ..."), one per action,
 * aliases joined; returns the count and sets *lines (static storage). */
size_t keys_help(const char *const **lines, int with_export);

#endif
