/*
 * setdir.h - the files inside a log set, opened without following
 * symlinks (DESIGN.md "The log set on disk": "Everything in a log set is
 * opened without following symlinks, in a set directory the collector
 * created itself").
 *
 * Why: the log directory may be shared (/tmp, a group directory), and the
 * collector often runs as root. Had it followed a symlink that another user
 * planted (logs/backup1/.lock -> /etc/some-root-file), it would have written
 * its pid into, or truncated, a file of the attacker's choice. So:
 *
 *   - a set directory is always created fresh (mkdir; one that exists is
 *     never reused), owned by the collector's user, in a parent that no
 *     other user can write unless it is sticky (setdir_create);
 *   - everything inside is opened relative to the set's directory
 *     descriptor with O_NOFOLLOW, and with O_EXCL when it is new
 *     (setdir_openat); a name is one path component, never "a/b";
 *   - librrd only takes path names, so an RRD file is opened here first and
 *     librrd is given /proc/self/fd/N, which names that very file
 *     (setdir_rrd_open); where /proc is missing the file is checked with
 *     fstatat(AT_SYMLINK_NOFOLLOW) and its path used.
 *
 * Every writer of a log set uses these: the log set writer (perflog.meta,
 * .lock, markers.tsv, the RRD files and their temporaries), the markers,
 * the collector's collector.log, and `perflog run`'s output-LABEL.log
 * (setdir_open_file with O_CREAT | O_EXCL). Readers use setdir_open,
 * setdir_read and setdir_rrd_open.
 *
 * Errors are one line naming the file ("unable to open 'DIR/NAME': ...");
 * a symlink reads "'DIR/NAME' is a symbolic link (not followed)".
 */
#ifndef PERFLOG_SETDIR_H
#define PERFLOG_SETDIR_H

#include <stddef.h>

#include "../common/util.h"

/* Create the set directory PARENT/NAME (0755), fresh: fails when it
 * exists ("log set 'P/N' already exists", errno EEXIST), when PARENT
 * belongs to another user than the caller or root, or when PARENT is
 * writable by group or others without the sticky bit. Returns the new
 * directory's descriptor (O_CLOEXEC), -1 with e set. */
int setdir_create(const char *parent, const char *name, struct perr *e);

/* Open an existing set directory for reading (the path itself may be a
 * symlink: the user named it). Returns a descriptor, -1 with e set. */
int setdir_open(const char *dir, struct perr *e);

/* openat(dfd, name) with O_NOFOLLOW | O_CLOEXEC added; dir is only for
 * messages. name must be one path component. Returns the fd, -1 with e
 * set (errno kept). */
int setdir_openat(int dfd, const char *dir, const char *name, int flags,
		  unsigned mode, struct perr *e);

/* The same for a caller that has the set's path, not a descriptor (e.g.
 * `perflog run` creating output-LABEL.log: pass O_WRONLY | O_CREAT |
 * O_EXCL | O_APPEND). The directory itself is opened following the path;
 * the file inside never follows a symlink. */
int setdir_open_file(const char *dir, const char *name, int flags,
		     unsigned mode, struct perr *e);

/* Replace dfd/name atomically: the data written and synced in an unnamed
 * file (O_TMPFILE; where there is none, NAME.tmp.PID with O_EXCL and
 * O_NOFOLLOW), linked as NAME.tmp.PID, renamed over name: a kill -9
 * leaves a temporary only between the link and the rename. 0, or -1
 * with e set and nothing replaced. */
int setdir_write_atomic(int dfd, const char *dir, const char *name,
			const char *data, size_t len, struct perr *e);

/* Read dfd/name whole (NUL-terminated, malloc'ed), not following a
 * symlink. NULL with errno set (ELOOP for a symlink). *len when non-NULL. */
char *setdir_read(int dfd, const char *name, size_t *len);

/* An RRD file opened for librrd: fd is ours, path names it for librrd. */
struct setdir_rrd {
	int fd;
	char path[4200];
};

/* Mark the file under fd not to have its access time updated (the
 * inode's FS_NOATIME_FL, chattr +A): librrd maps an RRD file at every
 * update, and each map after a write updated the atime (relatime: atime
 * older than mtime), dirtying the inode for the journal (issue 30). A
 * file system without the flag is left as it is: 0, or -1. */
int setdir_noatime(int fd);

/* Open dfd/name (read-only, or read-write when writable) without
 * following a symlink; r->path is what to hand librrd. -1 with e set. */
int setdir_rrd_open(int dfd, const char *dir, const char *name, int writable,
		    struct setdir_rrd *r, struct perr *e);
void setdir_rrd_close(struct setdir_rrd *r);

/* librrd's message for a path from setdir_rrd_open, with that path
 * replaced by NAME (librrd says "opening '/proc/self/fd/7': ..."). */
const char *setdir_rrd_why(const struct setdir_rrd *r, const char *name,
			   const char *why, char *buf, size_t n);

/* Bytes of the regular files in a set directory (their sizes, symlinks
 * not followed): what `perflog status` and the report call the log set's
 * size. 0, or -1 with e set. */
int setdir_size(const char *dir, unsigned long long *bytes, struct perr *e);

/* Remove a set directory the caller made and everything in it (a
 * start that failed, a run whose command never ran: nothing was logged
 * that anyone could want, and on a full disk the set holds the space).
 * The directory itself is not followed if a symlink; symlinks inside are
 * removed, not followed. 0, or -1 with e set (what could not be removed
 * stays). */
int setdir_remove(const char *dir, struct perr *e);

#endif
