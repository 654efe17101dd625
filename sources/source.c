/* source.c - choose the backend, see source.h. */
#define _GNU_SOURCE
#include "source.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct source {
	struct procfs *proc;
	struct statgrab *sg;
};

struct source *source_open(const char *root, struct perr *e)
{
	struct source *src = calloc(1, sizeof(*src));
	const char *force = getenv("PERFLOG_SOURCE");
	char stat[PATH_MAX];

	if (!src) {
		perr_set(e, "out of memory");
		return NULL;
	}
	snprintf(stat, sizeof(stat), "%s/proc/stat", root);
	if ((!force || strcmp(force, "statgrab") != 0) &&
	    access(stat, R_OK) == 0) {
		src->proc = procfs_open(root, e);
		if (src->proc)
			return src;
	} else {
		src->sg = statgrab_open(e);
		if (src->sg)
			return src;
	}
	free(src);
	return NULL;
}

int source_read(struct source *src, struct raw_snapshot *s, struct perr *e)
{
	return src->proc ? procfs_read(src->proc, s, e)
			 : statgrab_read(src->sg, s, e);
}

const char *source_name(const struct source *src)
{
	return src->proc ? "procfs" : "libstatgrab";
}

void source_close(struct source *src)
{
	if (!src)
		return;
	procfs_close(src->proc);
	statgrab_close(src->sg);
	free(src);
}
