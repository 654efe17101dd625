/*
 * waitpeer_disk.c - the disk a waited-on file is on (waitpeer.h
 * waitpeer_disk, issue 46): the verdict's disk was the host's busiest,
 * "loop2 25% busy at 0 B/s" while the session's throttled source was
 * loop1.
 */
#define _GNU_SOURCE
#include "waitpeer_int.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../common/util.h"

int waitpeer_disk_name(const char *link, int partition, char *name, size_t n)
{
	const char *end = link + strlen(link), *p;

	while (end > link && end[-1] == '/')
		end--;
	for (int up = partition ? 1 : 0;; up--) {
		for (p = end; p > link && p[-1] != '/'; p--)
			;
		if (up == 0)
			break;
		if (p == link)
			return -1;
		end = p - 1;
	}
	if (end == p || (size_t)(end - p) >= n || !strncmp(p, "..", 2))
		return -1;
	memcpy(name, p, (size_t)(end - p));
	name[end - p] = '\0';
	for (char *c = name; *c; c++)	/* sysfs's cciss!c0d0 */
		if (*c == '!')
			*c = '/';
	return 0;
}

/* The name of block device maj:min from ROOT/sys/dev/block ("" when
 * none: an anonymous device, tmpfs's, NFS's). */
static void read_name(int procfd, unsigned maj, unsigned min, char name[16])
{
	char rel[96], link[512];
	ssize_t r;
	struct stat st;

	name[0] = '\0';
	snprintf(rel, sizeof(rel), "../sys/dev/block/%u:%u", maj, min);
	r = readlinkat(procfd, rel, link, sizeof(link) - 1);
	if (r <= 0)
		return;
	link[r] = '\0';
	snprintf(rel, sizeof(rel), "../sys/dev/block/%u:%u/partition", maj,
		 min);
	if (waitpeer_disk_name(link, fstatat(procfd, rel, &st, 0) == 0, name,
			       16) < 0)
		name[0] = '\0';
}

/* The cached name of maj:min, read again when older than
 * WAITPEER_KEEP_SEC (a loop device detached, another attached). */
static const char *disk_of(struct waitpeer *p, unsigned maj, unsigned min,
			   double now)
{
	struct disk_ent *d = NULL, *old = &p->disks[0];

	for (int i = 0; i < NDISK && !d; i++) {
		struct disk_ent *x = &p->disks[i];

		if (x->at != 0 && x->major == maj && x->minor == min)
			d = x;
		else if (x->at < old->at)
			old = x;
	}
	if (d && now - d->at < WAITPEER_KEEP_SEC)
		return d->name;
	if (!d)
		d = old;
	d->major = maj;
	d->minor = min;
	d->at = now != 0 ? now : 1e-9;
	read_name(p->procfd, maj, min, d->name);
	return d->name;
}

int waitpeer_disk(struct waitpeer *p, pid_t tgid, pid_t tid, long fd, int dir,
		  double now, struct waitpeer_edge *out)
{
	char rel[64];
	struct statx st;
	unsigned maj, min;
	const char *name;

	if (fd < 0)
		return 0;
	/* the kernel's inode of the open file: no request to a file
	 * system (waitprobe.c link_mode, issue 21) */
	snprintf(rel, sizeof(rel), "%d/fd/%ld", (int)tid, fd);
	if (statx(p->procfd, rel, AT_STATX_DONT_SYNC | AT_NO_AUTOMOUNT,
		  STATX_TYPE, &st) < 0)
		return 0;
	if ((st.stx_mode & S_IFMT) == S_IFBLK) {
		maj = st.stx_rdev_major;	/* dd of=/dev/loop1 */
		min = st.stx_rdev_minor;
	} else {
		maj = st.stx_dev_major;
		min = st.stx_dev_minor;
	}
	/* an anonymous device (tmpfs, NFS, btrfs: major 0) has no
	 * sys/dev/block entry: no name, cached as well */
	if (!(name = disk_of(p, maj, min, now))[0])
		return 0;
	memset(out, 0, sizeof(*out));
	out->pid = tgid;
	out->dir = dir;
	out->kind = PEER_DISK;
	util_strlcpy(out->peer_comm, name, sizeof(out->peer_comm));
	return 1;
}
