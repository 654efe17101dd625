/*
 * treefiles.c - the one reader of a watched tree's files (treefiles.h).
 */
#include "treefiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markers.h"

long treefiles_waits(const char *dir, const char *name,
		     struct waits_totals *t, size_t *bad, struct perr *e)
{
	size_t len;
	long n;
	char *text = markers_read_beside(dir, name, "waits",
					 TREEFILES_MAX, &len, e);

	if (!text)
		return -2;
	n = waitrates_parse(text, len, t, bad);
	free(text);
	return n;
}

long treefiles_edges(const char *dir, const char *name,
		     struct waitedge_row **rows, struct perr *unread)
{
	char edges[256];
	struct perr e;
	size_t len, bad = 0, first = 0;
	long n;
	char *text;

	*rows = NULL;
	if (unread)
		unread->msg[0] = '\0';
	if (waitedges_name(name, edges, sizeof(edges)) < 0 ||
	    !(text = markers_read_beside(dir, edges, "edges",
					 TREEFILES_MAX, &len, &e)))
		return -1;
	n = waitedges_parse(text, len, rows, &bad, &first);
	free(text);
	if (bad && unread)
		perr_set(unread, "'%s' line %zu: not a row of its fields "
			 "(%zu line%s not read)", edges, first, bad,
			 bad == 1 ? "" : "s");
	return n;
}

long treefiles_rows(const char *dir, const char *name,
		    struct waitrows_file *f, struct perr *e)
{
	char rows[256], path[600];
	struct perr ignored;
	size_t len;
	long n;
	char *text;

	memset(f, 0, sizeof(*f));
	if (waitrows_name(name, rows, sizeof(rows)) < 0 ||
	    !(text = markers_read_beside(dir, rows, "waits", TREEFILES_MAX,
					 &len, &ignored)))
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, rows);
	n = waitrows_parse(text, len, path, f, e);
	free(text);
	return n < 0 ? -2 : n;
}
