/*
 * keys.c - the key binding table (keys.h). Keep the table and the help
 * text together: the `?` screen is generated from it, so every key a user
 * can press is listed.
 */
#include "keys.h"

#include <stdio.h>
#include <string.h>

static const struct key_binding bindings[] = {
	{ TK_LEFT, KA_LEFT, "Left", "scroll left (cursor on: move it one column)" },
	{ 'h', KA_LEFT, "h", NULL },
	{ TK_RIGHT, KA_RIGHT, "Right", "scroll right (cursor on: move it one column)" },
	{ 'l', KA_RIGHT, "l", NULL },
	{ TK_SLEFT, KA_PAGE_LEFT, "S-Left", "scroll left by half the window" },
	{ '<', KA_PAGE_LEFT, "<", NULL },
	{ TK_PGUP, KA_PAGE_LEFT, "PgUp", NULL },
	{ TK_SRIGHT, KA_PAGE_RIGHT, "S-Right", "scroll right by half the window" },
	{ '>', KA_PAGE_RIGHT, ">", NULL },
	{ TK_PGDN, KA_PAGE_RIGHT, "PgDn", NULL },
	{ ',', KA_STEP_LEFT, ",", "cursor one sample back" },
	{ '.', KA_STEP_RIGHT, ".", "cursor one sample on" },
	{ '+', KA_ZOOM_IN, "+", "zoom in (around the cursor when on)" },
	{ '=', KA_ZOOM_IN, "=", NULL },
	{ '-', KA_ZOOM_OUT, "-", "zoom out" },
	{ '_', KA_ZOOM_OUT, "_", NULL },
	{ TK_HOME, KA_HOME, "Home", "go to the start of the log" },
	{ 'g', KA_HOME, "g", NULL },
	{ TK_END, KA_END, "End", "go to the end of the log" },
	{ 'G', KA_END, "G", NULL },
	{ 'a', KA_ALL, "a", "show the whole log" },
	{ 'n', KA_NEXT_MARK, "n", "next marker or session boundary" },
	{ 'p', KA_PREV_MARK, "p", "previous marker or session boundary" },
	{ 's', KA_SESSIONS, "s", "session list; Enter zooms to a session" },
	{ TK_ENTER, KA_CURSOR, "Enter", "cursor on/off: read out every value" },
	{ 'x', KA_CURSOR, "x", NULL },
	{ TK_TAB, KA_FOCUS, "Tab", "focus the next pane" },
	{ TK_BTAB, KA_FOCUS_BACK, "S-Tab", "focus the previous pane" },
	{ 'c', KA_CHOOSE, "c", "choose the counters of the focused pane" },
	{ ' ', KA_PLAY, "Space", "replay from the cursor: play/pause" },
	{ '[', KA_SLOWER, "[", "replay slower" },
	{ ']', KA_FASTER, "]", "replay faster" },
	{ 'f', KA_FOLLOW, "f", "follow a log set still being written" },
	{ 'L', KA_LEGEND, "L", "legend table cur/min/avg/max on/off" },
	{ 'e', KA_EXPORT, "e", "export the current view as PNG" },
	{ 0x0c, KA_REDRAW, "^L", "redraw the screen" },
	{ '?', KA_HELP, "?", "this help" },
	{ 'q', KA_QUIT, "q", "quit" },
	{ 'Q', KA_QUIT, "Q", NULL },
};

#define NBIND (sizeof(bindings) / sizeof(bindings[0]))

enum key_action keys_action(int key, int with_export)
{
	for (size_t i = 0; i < NBIND; i++)
		if (bindings[i].key == key) {
			if (bindings[i].action == KA_EXPORT && !with_export)
				return KA_NONE;
			return bindings[i].action;
		}
	return KA_NONE;
}

size_t keys_help(const char *const **lines, int with_export)
{
	static char text[NBIND][96];
	static const char *ptr[NBIND];
	size_t n = 0;
	for (size_t i = 0; i < NBIND; i++) {
		if (!bindings[i].help)
			continue;
		if (bindings[i].action == KA_EXPORT && !with_export)
			continue;
		char names[40];
		snprintf(names, sizeof(names), "%s", bindings[i].name);
		for (size_t j = i + 1; j < NBIND && !bindings[j].help; j++) {
			size_t k = strlen(names);
			snprintf(names + k, sizeof(names) - k, " %s",
				 bindings[j].name);
		}
		snprintf(text[n], sizeof(text[n]), "%-15s %s", names,
			 bindings[i].help);
		ptr[n] = text[n];
		n++;
	}
	*lines = ptr;
	return n;
}
