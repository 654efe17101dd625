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
 *     mounts_poll; a share needs a mount, and cifs.ko loads with it), in
 *     the one poll(2) of timeout 0 a read makes for it and the link
 *     events' socket (procfs_poll_events) instead of the file;
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

void procfs_poll_events(struct procfs *p)
{
	struct pollfd f[2];
	nfds_t n = 0;
	int nl = -1, mounts = -1;

	p->nl_ready = p->mounts_event = 0;
	if (p->nl >= 0) {
		f[n] = (struct pollfd){ .fd = p->nl, .events = POLLIN };
		nl = (int)n++;
	}
	/* the table matters only while a share is looked for */
	if (p->mounts_fd >= 0 &&
	    (p->next_look[A_NFS] > 0 || p->next_look[A_CIFS] > 0)) {
		f[n] = (struct pollfd){ .fd = p->mounts_fd, .events = POLLPRI };
		mounts = (int)n++;
	}
	if (n == 0 || poll(f, n, 0) <= 0)
		return;
	/* POLLERR on the socket: events were lost (ENOBUFS), recv says so */
	if (nl >= 0 && (f[nl].revents & (POLLIN | POLLERR)))
		p->nl_ready = 1;
	if (mounts >= 0 && (f[mounts].revents & (POLLPRI | POLLERR)))
		p->mounts_event = 1;
}

/* Whether the mount table changed since the last read (the poll clears
 * it: mounts_poll records the event it reported). Polled once a read
 * (procfs_poll_events): the NFS and the CIFS look of one read share the
 * answer (a change resets both), so the second could only say no. */
static int mounts_changed(struct procfs *p, double now)
{
	if (p->mounts_fd < 0 || p->mounts_polled == now)
		return 0;
	p->mounts_polled = now;
	return p->mounts_event;
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
