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
	double sg_cost;		/* seconds in statgrab_read */
};

const char *source_part_name(enum source_part part)
{
	static const char *const names[SP_COUNT] = {
		[SP_STAT] = "stat", [SP_DISKSTATS] = "diskstats",
		[SP_MEMINFO] = "meminfo", [SP_VMSTAT] = "vmstat",
		[SP_NETDEV] = "netdev", [SP_SNMP] = "snmp", [SP_PSI] = "psi",
		[SP_NFS] = "nfs", [SP_CIFS] = "cifs", [SP_TAPE] = "tape",
		[SP_FC] = "fc",
	};

	return (unsigned)part < SP_COUNT ? names[part] : "?";
}

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
	double t;
	int rc;

	if (src->proc)
		return procfs_read(src->proc, s, e);
	t = util_monotonic();
	rc = statgrab_read(src->sg, s, e);
	src->sg_cost += util_monotonic() - t;
	return rc;
}

void source_cost(const struct source *src, double sec[SP_COUNT])
{
	if (src->proc) {
		procfs_cost(src->proc, sec);
		return;
	}
	for (int i = 0; i < SP_COUNT; i++)
		sec[i] = 0;
	sec[SP_STAT] = src->sg_cost;
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
