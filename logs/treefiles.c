/*
 * treefiles.c - the one reader of a watched tree's files (treefiles.h).
 */
#include "treefiles.h"

#include <stdlib.h>

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
		     struct waitedge_row **rows)
{
	char edges[256];
	struct perr e;
	size_t len;
	long n;
	char *text;

	*rows = NULL;
	if (waitedges_name(name, edges, sizeof(edges)) < 0 ||
	    !(text = markers_read_beside(dir, edges, "edges",
					 TREEFILES_MAX, &len, &e)))
		return -1;
	n = waitedges_parse(text, len, rows, NULL);
	free(text);
	return n;
}
