/* rmtree.c - see rmtree.h. */
#define _GNU_SOURCE
#include "rmtree.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>

/* Descriptors nftw may hold open: one a level, deeper levels reopened. */
#define RMTREE_FDS 16

/* Walked top down: a directory its owner may not read, enter or write is
 * given u+rwx before nftw reads it. One it could not read (FTW_DNR) was
 * not walked into: 1 stops the walk to walk again, now through it. */
static int open_up(const char *path, const struct stat *st, int flag,
		   struct FTW *ftw)
{
	(void)ftw;
	if ((flag != FTW_D && flag != FTW_DNR) ||
	    (st->st_mode & S_IRWXU) == S_IRWXU)
		return 0;
	if (chmod(path, (st->st_mode & 07777) | S_IRWXU) < 0)
		return 0;	/* the removal will say */
	return flag == FTW_DNR;
}

/* Walked bottom up: each entry after what it holds. */
static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	if (remove(path) == 0 || errno == ENOENT)
		return 0;
	return errno ? errno : EIO;
}

int rmtree(const char *path)
{
	int rc;

	while (nftw(path, open_up, RMTREE_FDS, FTW_PHYS) == 1)
		;
	rc = nftw(path, remove_one, RMTREE_FDS, FTW_DEPTH | FTW_PHYS);
	if (rc > 0) {
		errno = rc;
		return -1;
	}
	if (rc < 0 && errno == ENOENT)
		return 0;
	return rc < 0 ? -1 : 0;
}
