/*
 * perfmon_int.h - what perfmon.c (the file: header, zone, rows, one set
 * a host), perfmon_paths.c (a counter path mapped to perflog's counter)
 * and perfmon_hosts.c (the hosts' sets once the rows are read) share.
 */
#ifndef PERFLOG_PERFMON_INT_H
#define PERFLOG_PERFMON_INT_H

#include <stddef.h>

#include "import.h"

/* One column of the file: its host's set and the perflog counter its
 * path maps to. */
struct column {
	size_t host;		/* its host's set (pm.set), by its path */
	int obj;		/* perflog object, -1: not mapped */
	int id;			/* counter id */
	char instance[SRC_NAME_MAX];
	double scale;
	int invert;		/* % Idle Time -> % Disk Time */
};

/* Map a column by its path (modified; own: perflog's own CSV, its paths
 * as perflog names them; physical: the file names PhysicalDisk, whose
 * disks are perflog's LogicalDisk instances): its host's name (in path),
 * NULL when the path names none or is no counter path. */
const char *perfmon_map_column(char *path, int physical, int own,
			       struct column *c);

/* The sets of a file's hosts (out, chained through next, their rows
 * read): a host with no value in a counter perflog has loses its set,
 * its other columns (imported-other.csv) going to the first set's, and
 * the first set is the first host's with a value; notes in out say so
 * and name the sets' hosts when there are several. When no host has a
 * value the sets are left as they are (import_finish refuses them). 0,
 * or -1 with e set (out of memory; the chain stays whole to be freed). */
int perfmon_hosts_settle(struct import_set *out, const char *name,
			 struct perr *e);

#endif
