/*
 * mark_remote.c - `perflog mark --remote [-d DIR]`: the server's side of
 * `perflog run --server` (mark.h has the protocol). It runs under ssh,
 * reads requests on stdin and answers on stdout, one line each, flushed:
 * the client times a "ping" round trip around the collector's own clock
 * (the one its rows and markers carry), so ssh's connection setup and
 * this program's start are outside every measured round trip.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mark.h"

/* A request line's bound: a mark's fields are escaped (4 bytes a byte at
 * most) and its client.cmd is a command line (ARG_MAX, 2 MiB by default);
 * what does not fit the marker's line goes to a figures file
 * (mark_session.c). A longer line is refused, not split. */
#define LINE_MAX_REMOTE (16u << 20)

/* The collector DIR names (logging to it or under it), else the only
 * one. 0, or -1 with e naming what was found. */
static int find(const char *dir, struct collector_info *col, struct perr *e)
{
	struct collector_info *list;
	char names[900] = "";
	long n;

	if (dir)
		return control_find_under(dir, col, e);
	n = control_list(&list, e);
	if (n < 0)
		return -1;
	if (n == 1)
		*col = list[0];
	for (long i = 0; i < n; i++) {
		size_t len = strlen(names), add = strlen(list[i].logset);

		if (len + add + 3 >= sizeof(names))
			break;
		if (i)
			memcpy(names + len, ", ", 2), len += 2;
		memcpy(names + len, list[i].logset, add + 1);
	}
	free(list);
	if (n == 0)
		return perr_set(e, "no collector is running (perflog start)");
	if (n > 1)
		return perr_set(e, "%ld collectors are running (%s): name one as HOST:DIR",
				n, names);
	return 0;
}

static void reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void reply(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* "error MSG", MSG escaped as a marker's field (logs/markers.h): the
 * client unescapes it, so a path with a backslash ("/tmp/no\new") reads
 * back as given, and a line break in it cannot end the line early. */
static void reply_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void reply_error(const char *fmt, ...)
{
	char msg[1024], *esc;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	esc = markers_escape(msg);
	reply("error %s", esc ? esc : "out of memory");
	free(esc);
}

/* "mark KIND<TAB>SESSION<TAB>TEXT[<TAB>KEY=VALUE...]" */
static void do_mark(const struct collector_info *col, char *args)
{
	char *f[130], *watch = NULL;
	const char *extra[130];
	size_t n = 0, nx = 0;
	enum marker_kind kind;
	char warn[600], *ew;
	struct perr e;
	int bad = 0;

	for (char *p = args; p && n < 130; n++) {
		char *tab = strchr(p, '\t');

		if (tab)
			*tab = '\0';
		f[n] = p;
		p = tab ? tab + 1 : NULL;
	}
	if (n < 3) {
		reply_error("mark: expected KIND, SESSION and TEXT");
		return;
	}
	kind = !strcmp(f[0], "begin") ? MARK_BEGIN
	     : !strcmp(f[0], "end") ? MARK_END : MARK_POINT;
	for (size_t i = 1; i < n; i++)
		bad |= !(f[i] = markers_unescape(f[i]));
	for (size_t i = 3; !bad && i < n; i++) {
		if (!strncmp(f[i], "watch=", 6) && kind == MARK_BEGIN)
			watch = f[i] + 6;
		else
			extra[nx++] = f[i];
	}
	if (bad)
		reply_error("mark: bad escape in a field");
	else if (mark_session(col, 0, kind, f[1], f[2], watch, extra, nx, warn,
			      sizeof(warn), &e) < 0)
		reply_error("%s", e.msg);
	else if (warn[0] && (ew = markers_escape(warn))) {
		reply("ok warning=%s", ew);
		free(ew);
	} else {
		reply("ok");
	}
	for (size_t i = 1; i < n; i++)
		free(f[i]);
}

int mark_remote(const char *dir)
{
	struct collector_info col;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	char host[256];
	int found = 0;

	if (gethostname(host, sizeof(host)) < 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	while ((len = getline(&line, &cap, stdin)) >= 0) {
		struct perr e;
		char wall[64];

		if ((size_t)len > LINE_MAX_REMOTE) {
			reply_error("request of %zd bytes, over %u", len,
				    LINE_MAX_REMOTE);
			continue;
		}
		line[strcspn(line, "\r\n")] = '\0';
		if (!strcmp(line, "quit"))
			break;
		if (!strcmp(line, "hello")) {
			if (find(dir, &col, &e) < 0) {
				reply_error("%s", e.msg);
				free(line);
				return 1;
			}
			found = 1;
			printf("perflog-mark 1 host=%s logset=%s\n", host,
			       col.logset);
			fflush(stdout);
		} else if (!found) {
			reply_error("hello first");
		} else if (!strcmp(line, "ping")) {
			if (control_request(&col, "clock", wall, sizeof(wall),
					    &e) < 0)
				reply_error("%s", e.msg);
			else
				reply("pong %s", strncmp(wall, "wall=", 5)
						? wall : wall + 5);
		} else if (!strncmp(line, "mark ", 5)) {
			do_mark(&col, line + 5);
		} else {
			reply_error("unknown request '%.40s'", line);
		}
	}
	free(line);
	return 0;
}
