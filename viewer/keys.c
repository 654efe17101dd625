/*
 * keys.c - the key binding table (keys.h). Keep the table and the help
 * text together: the `?` screen is generated from it, so every key a user
 * can press is listed.
 */
#include "keys.h"

#include <stdio.h>
#include <string.h>

static const struct key_binding bindings[] = {
	{ TK_LEFT, KA_LEFT, "Left", "scroll; cursor: move" },
	{ 'h', KA_LEFT, "h", NULL },
	{ TK_RIGHT, KA_RIGHT, "Right", "scroll; cursor: move" },
	{ 'l', KA_RIGHT, "l", NULL },
	{ TK_SLEFT, KA_PAGE_LEFT, "S-Left", "half a window back" },
	{ '<', KA_PAGE_LEFT, "<", NULL },
	{ TK_PGUP, KA_PAGE_LEFT, "PgUp", NULL },
	{ TK_SRIGHT, KA_PAGE_RIGHT, "S-Right", "half a window on" },
	{ '>', KA_PAGE_RIGHT, ">", NULL },
	{ TK_PGDN, KA_PAGE_RIGHT, "PgDn", NULL },
	{ ',', KA_STEP_LEFT, ",", "cursor: sample back" },
	{ '.', KA_STEP_RIGHT, ".", "cursor: sample on" },
	{ '+', KA_ZOOM_IN, "+", "zoom in" },
	{ '=', KA_ZOOM_IN, "=", NULL },
	{ '-', KA_ZOOM_OUT, "-", "zoom out" },
	{ '_', KA_ZOOM_OUT, "_", NULL },
	{ TK_HOME, KA_HOME, "Home", "start of the log" },
	{ 'g', KA_HOME, "g", NULL },
	{ TK_END, KA_END, "End", "end of the log" },
	{ 'G', KA_END, "G", NULL },
	{ 'a', KA_ALL, "a", "whole log" },
	{ 'n', KA_NEXT_MARK, "n", "next marker" },
	{ 'p', KA_PREV_MARK, "p", "previous marker" },
	{ 's', KA_SESSIONS, "s", "sessions, zoom to one" },
	{ TK_ENTER, KA_CURSOR, "Enter", "cursor: read values" },
	{ 'x', KA_CURSOR, "x", NULL },
	{ TK_TAB, KA_FOCUS, "Tab", "next pane" },
	{ TK_BTAB, KA_FOCUS_BACK, "S-Tab", "previous pane" },
	{ 'c', KA_CHOOSE, "c", "choose pane counters" },
	{ ' ', KA_PLAY, "Space", "replay play/pause" },
	{ '[', KA_SLOWER, "[", "replay slower" },
	{ ']', KA_FASTER, "]", "replay faster" },
	{ 'f', KA_FOLLOW, "f", "follow a live log" },
	{ 'L', KA_LEGEND, "L", "legend (cur/avg/max) on/off" },
	{ 'e', KA_EXPORT, "e", "export view as PNG" },
	{ 0x0c, KA_REDRAW, "^L", "redraw" },
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
		snprintf(text[n], sizeof(text[n]), "%-13s %s", names,
			 bindings[i].help);
		ptr[n] = text[n];
		n++;
	}
	*lines = ptr;
	return n;
}
