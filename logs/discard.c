/*
 * discard.c - a log set that holds nothing anyone wants, removed
 * (logset_discard, logset.h): the set of a start that failed (a full
 * disk at its first sample: it held the space and read as a normal
 * one-row log), or of a perflog run whose command never ran. A set that
 * holds a marker of anyone else (a `perflog mark`, another run that
 * joined the collector) is kept: what was logged is never lost.
 */
#include <stdlib.h>
#include <string.h>

#include "logset.h"
#include "markers.h"
#include "setdir.h"

int logset_discard(const char *dir, const char *session, struct perr *e)
{
	struct marker_list ml;

	if (markers_load(dir, &ml, e) < 0)
		return -1;
	for (size_t i = 0; i < ml.n; i++)
		if (!session || strcmp(ml.m[i].session, session)) {
			markers_free(&ml);
			return 0;
		}
	/* a line that did not parse is someone's too */
	if (ml.bad_lines) {
		markers_free(&ml);
		return 0;
	}
	markers_free(&ml);
	return setdir_remove(dir, e) < 0 ? -1 : 1;
}
