/*
 * procfs_absent.c - parts of the source most hosts do not have (NFS
 * mounts, SMB shares, tape drives, FC ports) cost nothing while absent
 * (issue 30). Before, each read opened proc/fs/cifs/Stats, opendir'ed
 * sys/class/scsi_tape and sys/class/fc_host (three failing system calls)
 * and read the whole of proc/self/mountstats (show_vfsstat for every
 * mount, 4% of the collector's time on a host with no NFS mount).
 *
 * A part that found nothing is looked for again:
 *   - NFS and CIFS at once when the mount table changes: proc/self/mounts
 *     polls POLLPRI|POLLERR after a mount or unmount (fs/proc_namespace.c
 *     mounts_poll; a share needs a mount, and cifs.ko loads with it), one
 *     poll(2) of timeout 0 a read instead of the file;
 *   - each PROCFS_ABSENT_RETRY seconds in any case (a tape drive or an FC
 *     port that appears; a mount table that cannot be polled).
 * A part that found something is read at every read, as before. A
 * fixture root (tests, the fuzzer) has no mount table to poll and files
 * that change under the test: there, every part is read at every read
 * (absent_retry 0), as before.
 */
#define _GNU_SOURCE
#include "procfs_int.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

void procfs_absent_open(struct procfs *p)
{
	char path[PROCFS_PATH_MAX];

	p->mounts_fd = -1;
	p->absent_retry = p->live ? PROCFS_ABSENT_RETRY : 0;
	if (p->live && procfs_path(p, path, sizeof(path), "proc/self/mounts",
				   NULL, NULL) == 0)
		p->mounts_fd = open(path, O_RDONLY | O_CLOEXEC);
}

/* Whether the mount table changed since the last call (the poll clears
 * it: mounts_poll records the event it reported). Asked once a read:
 * the NFS and the CIFS look of one read share the answer (a change
 * resets both), so the second poll could only say no. */
static int mounts_changed(struct procfs *p, double now)
{
	struct pollfd f = { .fd = p->mounts_fd, .events = POLLPRI };

	if (p->mounts_fd < 0 || p->mounts_polled == now)
		return 0;
	p->mounts_polled = now;
	return poll(&f, 1, 0) > 0 && (f.revents & (POLLPRI | POLLERR));
}

int procfs_absent_look(struct procfs *p, enum procfs_absent a, double now)
{
	if ((a == A_NFS || a == A_CIFS) && p->next_look[a] > 0 &&
	    mounts_changed(p, now)) {
		/* a mount or an unmount: both kinds of share are looked for */
		p->next_look[A_NFS] = 0;
		p->next_look[A_CIFS] = 0;
	}
	return p->next_look[a] <= 0 || now >= p->next_look[a];
}

void procfs_absent_found(struct procfs *p, enum procfs_absent a, double now,
			 size_t found)
{
	p->next_look[a] = found || p->absent_retry <= 0 ? 0
			  : now + p->absent_retry;
}

void procfs_absent_forget(struct procfs *p)
{
	for (int a = 0; a < A_COUNT; a++)
		p->next_look[a] = 0;
}
