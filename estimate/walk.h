/*
 * walk.h - one pass over directory trees for `perflog estimate`: every
 * regular file's size into a struct estimate_dist (estimate.h).
 *
 * How: readdir on a directory opened with openat(O_NOFOLLOW) relative to
 * its parent, d_type to skip what cannot be a regular file without a
 * stat, and fstatat(AT_SYMLINK_NOFOLLOW) on regular (or untyped) entries
 * only. One open directory per level of depth, nothing else is kept
 * but two hash sets:
 *   - (dev, ino) of regular files with st_nlink > 1: a file reached by
 *     several hard links counts once, at the first name met;
 *   - (dev, ino) of every directory entered: a directory reached twice
 *     (overlapping PATHs such as "a a/b", bind mounts) is walked once.
 * Symbolic links are never followed, neither inside the trees nor when
 * a PATH itself is one (it is reported in walk_stats.symlink_args; give
 * "PATH/" to follow it). Only regular files count: directories, links,
 * devices, fifos and sockets are not backed up as data.
 *
 * With xdev, directories on another file system than their PATH are not
 * entered (like find -xdev); they are checked with fstatat before the
 * open, with AT_NO_AUTOMOUNT, so an automount point is not triggered.
 *
 * Errors that are not fatal are counted, and the first WALK_KEEP_ERRORS
 * kept with their reason: a directory that cannot be opened or read
 * (permissions, I/O errors, deeper than WALK_MAX_DEPTH or out of file
 * descriptors), or whose entries cannot be stat'ed (read but no search
 * permission). Entries that vanish during the walk are counted apart.
 */
#ifndef PERFLOG_WALK_H
#define PERFLOG_WALK_H

#include <stdint.h>

#include "../common/util.h"
#include "estimate.h"

#define WALK_KEEP_ERRORS 20
#define WALK_MAX_DEPTH 4096

struct walk_stats {
	uint64_t files, bytes;		/* regular files counted (once each) */
	uint64_t dirs;			/* directories walked */
	uint64_t hardlinks;		/* further names of a file already counted */
	uint64_t revisited;		/* directories reached a second time */
	uint64_t other_fs;		/* directories skipped by xdev */
	uint64_t vanished;		/* entries gone between readdir and stat */
	uint64_t symlink_args;		/* PATHs that are symlinks, not followed */
	uint64_t unreadable;		/* directories not (fully) read */
	size_t nkept;
	char *kept[WALK_KEEP_ERRORS];	/* "PATH: reason" of the first ones */
};

struct walk_options {
	int xdev;
	/* Called after the first 256 entries, then every progress_every
	 * seconds at most (monotonic clock); NULL for none. */
	void (*progress)(void *arg, const struct walk_stats *st);
	void *progress_arg;
	double progress_every;
};

struct walker;

/* A walker for one or more PATHs sharing the hard link and directory
 * sets. NULL when out of memory. */
struct walker *walk_new(const struct walk_options *opt);

/* Walk PATH (a directory, or a regular file that then counts itself) and
 * add its files to d. A regular file PATH does not count when its
 * directory was walked already: give directories first (walk_sort_args). Returns -1 with e set only when PATH itself cannot
 * be looked up ("cannot access 'PATH': No such file or directory"), when
 * memory runs out, or when the byte count would exceed 2^64; everything
 * else is counted in the stats. */
int walk_path(struct walker *w, const char *path, struct estimate_dist *d,
	      struct perr *e);

/* Put the directories among paths[0..n) first, keeping the order
 * otherwise, so that files named on their own after a tree holding them
 * count once. */
void walk_sort_args(char **paths, int n);

const struct walk_stats *walk_stats(const struct walker *w);

void walk_free(struct walker *w);

#endif
