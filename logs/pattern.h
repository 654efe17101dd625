/*
 * pattern.h - choosing counters of a log set by pattern, for
 * `perflog export --csv --counters LIST`:
 *
 *   LIST     patterns separated by ',' or '+'
 *   pattern  Object(Instance)\Counter where '*' matches any text (so
 *            "(*)" any instance, "\*" any counter of the object);
 *            objects, instances and counters match without regard to
 *            case; a leading '\' or "\\HOST\" is ignored, as in settings
 *            files. "LogicalDisk(*)\Disk * Bytes/sec" picks read and write
 *            bytes of every disk.
 */
#ifndef PERFLOG_PATTERN_H
#define PERFLOG_PATTERN_H

#include <stddef.h>

#include "../common/util.h"
#include "logset.h"

/* 1 when the counter path ("Processor(_Total)\% Processor Time") matches
 * the pattern, else 0. */
int pattern_match(const char *pattern, const char *path);

/* The counters of m that match any pattern of list, each once, in the
 * order of the patterns (the counters one pattern matches in perflog.meta
 * order): their indices in *out (malloc'ed). Returns how many,
 * or -1 with e set: an empty pattern, or one that matches no counter of
 * the log set ("no counter of the log set matches 'X'"). */
long pattern_select(const struct logset_meta *m, const char *list,
		    size_t **out, struct perr *e);

#endif
