/*
 * setdir.c - files inside a log set without following symlinks (setdir.h
 * says why and what).
 */
#define _GNU_SOURCE
#include "setdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* "unable to open 'DIR/NAME': why", with a symlink said as such. */
static int open_error(struct perr *e, const char *what, const char *dir,
		      const char *name, int err)
{
	if (err == ELOOP)
		perr_set(e, "'%s/%s' is a symbolic link (not followed)", dir,
			 name);
	else
		perr_set(e, "unable to %s '%s/%s': %s", what, dir, name,
			 strerror(err));
	errno = err;
	return -1;
}

static int one_component(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..");
}

/* The parent of a set must not let another user swap or plant entries:
 * owned by us or root, and not group/other-writable unless sticky (in a
 * sticky directory only an entry's owner may rename or remove it). */
static int parent_ok(int pfd, const char *parent, struct perr *e)
{
	struct stat st;

	if (fstat(pfd, &st) < 0)
		return perr_set(e, "log directory '%s': %s", parent,
				strerror(errno));
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return perr_set(e, "log directory '%s' belongs to another user (uid %lu): refusing to create a log set in it",
				parent, (unsigned long)st.st_uid);
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
		return perr_set(e, "log directory '%s' is writable by other users and not sticky: refusing to create a log set in it (chmod go-w or +t)",
				parent);
	return 0;
}

int setdir_create(const char *parent, const char *name, struct perr *e)
{
	struct stat st;
	int pfd, dfd, err;

	if (!one_component(name)) {
		errno = EINVAL;
		return perr_set(e, "bad log set name '%s'", name);
	}
	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0) {
		err = errno;
		perr_set(e, "log directory '%s': %s", parent, strerror(err));
		errno = err;
		return -1;
	}
	if (parent_ok(pfd, parent, e) < 0) {
		close(pfd);
		errno = EPERM;
		return -1;
	}
	if (mkdirat(pfd, name, 0755) < 0) {
		err = errno;
		close(pfd);
		if (err == EEXIST)
			perr_set(e, "log set '%s/%s' already exists", parent,
				 name);
		else
			perr_set(e, "unable to create log set under '%s': %s",
				 parent, strerror(err));
		errno = err;
		return -1;
	}
	dfd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		     O_CLOEXEC);
	err = errno;
	close(pfd);
	if (dfd < 0)
		return open_error(e, "open", parent, name, err);
	/* we made it a moment ago; if something else is there now, someone
	 * swapped it (the parent check makes that unlikely, not impossible
	 * for root-owned sticky parents) */
	if (fstat(dfd, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid()) {
		close(dfd);
		errno = EPERM;
		return perr_set(e, "log set '%s/%s' is not a directory of yours",
				parent, name);
	}
	return dfd;
}

int setdir_open(const char *dir, struct perr *e)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0) {
		int err = errno;

		if (err == ENOTDIR)
			perr_set(e, "log set '%s': not a directory", dir);
		else
			perr_set(e, "log set '%s': %s", dir, strerror(err));
		errno = err;
	}
	return dfd;
}

int setdir_openat(int dfd, const char *dir, const char *name, int flags,
		  unsigned mode, struct perr *e)
{
	int fd;

	if (!one_component(name))
		return open_error(e, "open", dir, name, EINVAL);
	do
		fd = openat(dfd, name, flags | O_NOFOLLOW | O_CLOEXEC,
			    (mode_t)mode);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return open_error(e, flags & O_CREAT ? "create" : "open", dir,
				  name, errno);
	return fd;
}

int setdir_open_file(const char *dir, const char *name, int flags,
		     unsigned mode, struct perr *e)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd, err;

	if (dfd < 0)
		return open_error(e, flags & O_CREAT ? "create" : "open", dir,
				  name, errno);
	fd = setdir_openat(dfd, dir, name, flags, mode, e);
	err = errno;
	close(dfd);
	errno = err;
	return fd;
}

static int write_all(int fd, const char *data, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

/* The data written and synced in an unnamed file of the directory
 * (O_TMPFILE), given the name tmp once whole; -1 with errno EOPNOTSUPP
 * or EISDIR where the file system or the kernel has no O_TMPFILE (or no
 * /proc to link it by). A kill -9 while it writes leaves nothing behind. */
static int write_unnamed(int dfd, const char *tmp, const char *data,
			 size_t len)
{
	char proc[64];
	int fd, err;

#ifdef O_TMPFILE
	fd = openat(dfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
#else
	fd = -1;
	errno = EOPNOTSUPP;
#endif
	if (fd < 0)
		return -1;
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0)
		goto fail;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, dfd, tmp, AT_SYMLINK_FOLLOW) < 0) {
		/* no /proc to name it by: the caller's named temporary */
		err = errno == ENOENT ? EOPNOTSUPP : errno;
		close(fd);
		errno = err;
		return -1;
	}
	return close(fd);
fail:
	err = errno;
	close(fd);
	errno = err == EOPNOTSUPP || err == EISDIR ? EIO : err;
	return -1;
}

int setdir_write_atomic(int dfd, const char *dir, const char *name,
			const char *data, size_t len, struct perr *e)
{
	char tmp[NAME_MAX + 32];
	int fd;

	if (!one_component(name))
		return open_error(e, "create", dir, name, EINVAL);
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", name, (long)getpid()) >=
	    (int)sizeof(tmp))
		return perr_set(e, "name too long: '%s'", name);
	/* our own leftover from a write that failed half-way; O_EXCL and
	 * linkat below refuse anything else */
	unlinkat(dfd, tmp, 0);
	if (write_unnamed(dfd, tmp, data, len) < 0) {
		if (errno != EOPNOTSUPP && errno != EISDIR) {
			int err = errno;

			unlinkat(dfd, tmp, 0);
			return perr_set(e, "unable to write '%s/%s': %s", dir,
					tmp, strerror(err));
		}
		/* no O_TMPFILE here: the named temporary, written whole */
		fd = setdir_openat(dfd, dir, tmp, O_WRONLY | O_CREAT | O_EXCL,
				   0644, e);
		if (fd < 0)
			return -1;
		int bad = write_all(fd, data, len) < 0 || fsync(fd) < 0;
		int err = errno;

		if (close(fd) < 0 && !bad) {
			bad = 1;
			err = errno;
		}
		if (bad) {
			unlinkat(dfd, tmp, 0);
			return perr_set(e, "unable to write '%s/%s': %s", dir,
					tmp, strerror(err));
		}
	}
	if (renameat(dfd, tmp, dfd, name) < 0) {
		int err = errno;

		unlinkat(dfd, tmp, 0);
		return perr_set(e, "unable to replace '%s/%s': %s", dir, name,
				strerror(err));
	}
	return 0;
}

char *setdir_read(int dfd, const char *name, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf, *nb;
	int fd, err;

	if (!one_component(name)) {
		errno = EINVAL;
		return NULL;
	}
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		ssize_t r;

		if (n + 1 >= cap) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				errno = ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errno;
			free(buf);
			buf = NULL;
			errno = err;
			break;
		}
		if (r == 0) {
			buf[n] = '\0';
			if (len)
				*len = n;
			break;
		}
		n += (size_t)r;
	}
	err = errno;
	close(fd);
	errno = err;
	return buf;
}

int setdir_rrd_open(int dfd, const char *dir, const char *name, int writable,
		    struct setdir_rrd *r, struct perr *e)
{
	static int have_proc = -1;
	struct stat st;

	r->fd = setdir_openat(dfd, dir, name, writable ? O_RDWR : O_RDONLY, 0,
			      e);
	if (r->fd < 0)
		return -1;
	if (have_proc < 0)
		have_proc = access("/proc/self/fd", X_OK) == 0;
	if (have_proc) {
		snprintf(r->path, sizeof(r->path), "/proc/self/fd/%d", r->fd);
		return 0;
	}
	/* no /proc: the name was not a symlink when we opened it; librrd
	 * opens it again by path (a race only the set's owner could win) */
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISREG(st.st_mode)) {
		setdir_rrd_close(r);
		return open_error(e, "open", dir, name, ELOOP);
	}
	snprintf(r->path, sizeof(r->path), "%s/%s", dir, name);
	return 0;
}

void setdir_rrd_close(struct setdir_rrd *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

int setdir_noatime(int fd)
{
	int flags = 0;

	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		return -1;
	if (flags & FS_NOATIME_FL)
		return 0;
	flags |= FS_NOATIME_FL;
	return ioctl(fd, FS_IOC_SETFLAGS, &flags);
}

const char *setdir_rrd_why(const struct setdir_rrd *r, const char *name,
			   const char *why, char *buf, size_t n)
{
	const char *p = why ? strstr(why, r->path) : NULL;

	if (!p)
		return why;
	snprintf(buf, n, "%.*s%s%s", (int)(p - why), why, name,
		 p + strlen(r->path));
	return buf;
}

int setdir_size(const char *dir, unsigned long long *bytes, struct perr *e)
{
	int dfd = setdir_open(dir, e);
	struct dirent *d;
	DIR *dp;

	*bytes = 0;
	if (dfd < 0)
		return -1;
	dp = fdopendir(dfd);
	if (!dp) {
		close(dfd);
		return perr_set(e, "log set '%s': %s", dir, strerror(errno));
	}
	while ((d = readdir(dp))) {
		struct stat st;

		if (fstatat(dfd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode))
			*bytes += (unsigned long long)st.st_size;
	}
	closedir(dp);
	return 0;
}

/* Remove the entries of the directory open as dfd (closed here); one
 * level of subdirectory (a grow worker's .grow.PID) is emptied first.
 * Symlinks are removed, never followed. 0, or -1 with errno. */
static int empty_dir(int dfd, int depth)
{
	DIR *dp = fdopendir(dfd);
	struct dirent *d;
	int rc = 0;

	if (!dp) {
		close(dfd);
		return -1;
	}
	while ((d = readdir(dp))) {
		struct stat st;
		int sub;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (fstatat(dfd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;	/* gone meanwhile */
		if (!S_ISDIR(st.st_mode)) {
			if (unlinkat(dfd, d->d_name, 0) < 0 && errno != ENOENT)
				rc = -1;
			continue;
		}
		sub = depth > 0 ? -1
				: openat(dfd, d->d_name, O_RDONLY | O_DIRECTORY |
						     O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 || empty_dir(sub, depth + 1) < 0 ||
		    unlinkat(dfd, d->d_name, AT_REMOVEDIR) < 0)
			rc = -1;
	}
	closedir(dp);
	return rc;
}

int setdir_remove(const char *dir, struct perr *e)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (dfd < 0 || empty_dir(dfd, 0) < 0 || rmdir(dir) < 0)
		return perr_set(e, "unable to remove log set '%s': %s", dir,
				strerror(errno));
	return 0;
}
