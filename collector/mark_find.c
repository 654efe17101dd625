/*
 * mark_find.c - which collector a `perflog mark` of a session goes to
 * (mark.h): the one that has the session open. A second collector
 * started after `mark --begin -s tar` (the packaged service, another
 * run) made the --end fail with "2 collectors are running; name the
 * log set", and the session stayed open for good. Each running set's
 * markers.tsv says what is open there (the file, not the collector's
 * memory: perflog run appends its markers itself when the collector is
 * slow), so no request is needed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strbuf.h"
#include "mark.h"

/* Is session open in set dir? "A, B in DIR" (the sessions open there)
 * is added to open. */
static int open_in(const char *dir, const char *session, struct strbuf *open)
{
	struct marker_list l;
	struct perr pe;
	char names[512];
	int is_open;

	if (markers_load(dir, &l, &pe) < 0)
		return 0;
	is_open = markers_open(&l, session, names, sizeof(names)) != NULL;
	if (names[0])
		strbuf_printf(open, "%s%s in %s", open->len ? "; " : "", names,
			      dir);
	markers_free(&l);
	return is_open;
}

int mark_find(const char *dir, enum marker_kind kind, const char *session,
	      struct collector_info *out, struct perr *e)
{
	struct collector_info *list;
	const char *env = getenv("PERFLOG_LOGSET");
	struct strbuf dirs = STRBUF_INIT, open = STRBUF_INIT;
	long n, found = -1, nfound = 0;
	int rc = 0;

	if (dir || (env && *env) || !session[0])
		return control_find(dir, out, e);
	n = control_list(&list, e);
	if (n < 0)
		return -1;
	for (long i = 0; i < n; i++)
		if (open_in(list[i].logset, session, &open)) {
			found = i;
			nfound++;
			strbuf_printf(&dirs, "%s%s", dirs.len ? ", " : "",
				      list[i].logset);
		}
	if (nfound == 1 || (n == 1 && found < 0))
		*out = list[found >= 0 ? found : 0];	/* the one collector
							 * says what is open */
	else if (nfound > 1)
		rc = perr_set(e, "session '%s' is open in %ld log sets (%s); name one with -d",
			      session, nfound, strbuf_str(&dirs));
	else if (n == 0)
		rc = perr_set(e, "no collector is running");
	else if (kind == MARK_END)
		rc = perr_set(e, "no session '%s' is open in the %ld running log sets (%s%s)",
			      session, n, open.len ? "open: " : "none is open",
			      strbuf_str(&open));
	else
		rc = perr_set(e, "%ld collectors are running and none has session '%s' open; name the log set with -d",
			      n, session);
	free(list);
	strbuf_free(&dirs);
	strbuf_free(&open);
	return rc;
}
