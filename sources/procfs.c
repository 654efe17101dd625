/*
 * procfs.c - the Linux counter source: /proc and /sys under a root (see
 * source.h; the files of this source are listed in procfs_int.h).
 *
 *   procfs_open(root)   opens proc/stat, diskstats, meminfo, vmstat,
 *                       net/dev, net/snmp, pressure/{cpu,io,memory},
 *                       self/mountstats and fs/cifs/Stats once and keeps
 *                       them open
 *   procfs_read         pread()s each from offset 0 into one reusable
 *                       buffer, parses it in place, fills a raw_snapshot
 *
 * Cost matters: the collector reads every second on hosts with hundreds of
 * block devices and interfaces and must stay cheaper than sadc. So:
 * - files stay open; a read is one pread per file (seq_file regenerates the
 *   content when read from offset 0; a short first read of a file of
 *   short lines is the whole file, procfs_int.h procfs_read_fd), plus one
 *   per interface speed file;
 * - nothing is allocated per sample once the buffer, the snapshot arrays
 *   and the device caches have grown to the host's size;
 * - what needs a stat()/opendir() (is this block device a whole disk? what
 *   is this interface?) is worked out per device and cached, keyed by
 *   name (and major:minor for disks).
 *
 * Robustness: any line that does not parse is skipped; a field the kernel
 * does not print (old kernels) stays SRC_NA/NAN; a file longer than the
 * buffer makes the buffer grow (up to PROCFS_FILE_MAX, then the tail is
 * dropped at a line boundary); devices may come and go between reads.
 */
#define _GNU_SOURCE
#include "procfs_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>


static const char *const file_rel[F_COUNT] = {
	[F_STAT] = "proc/stat",
	[F_DISKSTATS] = "proc/diskstats",
	[F_MEMINFO] = "proc/meminfo",
	[F_VMSTAT] = "proc/vmstat",
	[F_NETDEV] = "proc/net/dev",
	[F_SNMP] = "proc/net/snmp",
	[F_PSI_CPU] = "proc/pressure/cpu",
	[F_PSI_IO] = "proc/pressure/io",
	[F_PSI_MEMORY] = "proc/pressure/memory",
	/* where backups land: absent without an NFS client or cifs.ko */
	[F_MOUNTSTATS] = "proc/self/mountstats",
	[F_CIFS] = "proc/fs/cifs/Stats",
};

/* How each is read (procfs_read_fd): the files of short lines in one
 * call; vmstat's first page only, its wanted lines being there
 * (read_vmstat); where backups land, whose records are a mount's or a
 * share's statistics, to the end. */
static const enum procfs_read_mode read_mode[F_COUNT] = {
	[F_STAT] = PROCFS_SHORT_LINES, [F_DISKSTATS] = PROCFS_SHORT_LINES,
	[F_MEMINFO] = PROCFS_SHORT_LINES, [F_VMSTAT] = PROCFS_FIRST_PAGE,
	[F_NETDEV] = PROCFS_SHORT_LINES, [F_SNMP] = PROCFS_SHORT_LINES,
	[F_PSI_CPU] = PROCFS_SHORT_LINES, [F_PSI_IO] = PROCFS_SHORT_LINES,
	[F_PSI_MEMORY] = PROCFS_SHORT_LINES,
};

/* Read one of the kept files, (re)opening it if needed. NULL when missing;
 * the first failure of a required file is reported through e. */
static char *read_as(struct procfs *p, int which,
		     enum procfs_read_mode mode, size_t *len, struct perr *e)
{
	char path[PATH_MAX + 32];
	ssize_t n;

	if (p->fd[which] < 0) {
		if (procfs_path(p, path, sizeof(path), file_rel[which], NULL,
				NULL) == 0)
			p->fd[which] = open(path, O_RDONLY | O_CLOEXEC);
		if (p->fd[which] < 0)
			goto fail;
	}
	n = procfs_read_fd(p, p->fd[which], mode);
	if (n >= 0) {
		*len = (size_t)n;
		return p->buf;
	}
	close(p->fd[which]);
	p->fd[which] = -1;
fail:
	/* proc/stat failing fails the read, so it is reported every time;
	 * an optional file's absence is a state, not a fault */
	if ((!p->reported[which] && which < F_FIRST_OPTIONAL) ||
	    which == F_STAT) {
		int saved = errno;

		p->reported[which] = 1;
		procfs_path(p, path, sizeof(path), file_rel[which], NULL, NULL);
		perr_set(e, "unable to read '%s': %s", path, strerror(saved));
	}
	return NULL;
}

static char *read_main(struct procfs *p, int which, size_t *len,
		       struct perr *e)
{
	return read_as(p, which, read_mode[which], len, e);
}

/* vmstat's four lines from its first page (1.6-2 KiB into 4 KiB on 6.x
 * kernels, the order being the kernel's); the whole file only when a
 * kernel prints them later. */
static void read_vmstat(struct procfs *p, struct raw_snapshot *s,
			struct perr *e)
{
	size_t len;
	char *buf = read_main(p, F_VMSTAT, &len, e);

	if (buf && procfs_parse_vmstat(buf, len, s) < PROCFS_VMSTAT_WANTED &&
	    len >= PROCFS_SHORT_END &&
	    (buf = read_as(p, F_VMSTAT, PROCFS_WHOLE, &len, e)))
		procfs_parse_vmstat(buf, len, s);
}

/* The kernel's word size: proc/sys/kernel/arch (Linux 6.1), else
 * uname(2), which describes the running kernel, so only when live or
 * when the tree has no answer. */
static int kernel_bits(const struct procfs *p)
{
	char buf[64];
	struct utsname u;

	if (procfs_read_path(p, "proc/sys/kernel/arch", NULL, NULL, buf,
			     sizeof(buf)) == 0) {
		buf[strcspn(buf, "\n")] = '\0';
		if (buf[0])
			return source_kernel_bits(buf);
	}
	return uname(&u) == 0 ? source_kernel_bits(u.machine) : 0;
}

struct procfs *procfs_open(const char *root, struct perr *e)
{
	struct procfs *p;
	char path[PATH_MAX + 32];

	if (!root || !*root)
		root = "/";
	p = calloc(1, sizeof(*p));
	if (!p) {
		perr_set(e, "out of memory");
		return NULL;
	}
	p->sock = p->nl = p->mounts_fd = -1;
	for (int i = 0; i < F_COUNT; i++)
		p->fd[i] = -1;
	if (util_strlcpy(p->root, root, sizeof(p->root)) < 0) {
		perr_set(e, "root path too long: '%.64s...'", root);
		free(p);
		return NULL;
	}
	p->live = strcmp(root, "/") == 0;
	p->buf = malloc(PROCFS_BUF_INIT);
	if (!p->buf) {
		perr_set(e, "out of memory");
		free(p);
		return NULL;
	}
	p->cap = PROCFS_BUF_INIT;
	for (int i = 0; i < F_COUNT; i++)
		if (procfs_path(p, path, sizeof(path), file_rel[i], NULL,
				NULL) == 0)
			p->fd[i] = open(path, O_RDONLY | O_CLOEXEC);
	if (p->fd[F_STAT] < 0) {
		int saved = errno;

		procfs_path(p, path, sizeof(path), file_rel[F_STAT], NULL,
			    NULL);
		perr_set(e, "unable to open '%s': %s", path, strerror(saved));
		procfs_close(p);
		return NULL;
	}
	p->kernel_bits = kernel_bits(p);
	procfs_absent_open(p);
	return p;
}

/* The three system-wide pressure files. The kernel prints a "full" line
 * for the CPU since 5.13 but defines none system-wide (psi.rst: "CPU full
 * is undefined at the system level ... set to zero"): unknown, not 0. */
static void read_psi(struct procfs *p, struct raw_snapshot *s)
{
	for (int r = 0; r < PSI_COUNT; r++) {
		size_t len;
		char *buf = read_main(p, F_PSI_CPU + r, &len, NULL);

		if (buf)
			psi_parse(buf, len, &s->psi[r]);
	}
	s->psi[PSI_CPU].full_us = SRC_NA;
}

/* Charge the time since *t to part, and restart the clock (the cost
 * table's: util_cost_clock). */
static void lap(struct procfs *p, enum source_part part, double *t)
{
	double now = util_cost_clock();

	p->cost[part] += now - *t;
	*t = now;
}

int procfs_read(struct procfs *p, struct raw_snapshot *s, struct perr *e)
{
	char *buf;
	size_t len;
	double t, look;

	snapshot_reset(s);
	s->mono = util_monotonic();
	t = util_cost_clock();
	s->kernel_bits = p->kernel_bits;
	procfs_poll_events(p);

	buf = read_main(p, F_STAT, &len, e);
	if (!buf)
		return -1;
	if (procfs_parse_stat(buf, len, s) < 0)
		return perr_set(e, "out of memory");
	lap(p, SP_STAT, &t);
	buf = read_main(p, F_DISKSTATS, &len, e);
	if (buf && procfs_parse_diskstats(p, buf, len, s) < 0)
		return perr_set(e, "out of memory");
	lap(p, SP_DISKSTATS, &t);
	buf = read_main(p, F_MEMINFO, &len, e);
	if (buf)
		procfs_parse_meminfo(buf, len, s);
	lap(p, SP_MEMINFO, &t);
	read_vmstat(p, s, e);
	lap(p, SP_VMSTAT, &t);
	buf = read_main(p, F_NETDEV, &len, e);
	if (buf && procfs_parse_netdev(p, buf, len, s) < 0)
		return perr_set(e, "out of memory");
	lap(p, SP_NETDEV, &t);
	buf = read_main(p, F_SNMP, &len, e);
	if (buf)
		procfs_parse_snmp(buf, len, s);
	lap(p, SP_SNMP, &t);
	read_psi(p, s);
	lap(p, SP_PSI, &t);
	/* where backups land: NFS mounts, SMB shares, tape drives, FC ports
	 * (the last two are directories of sysfs files); while absent,
	 * looked for only now and then (procfs_absent.c); NFS and SMB at
	 * one time, so they share a poll of the mount table; on the read's
	 * clock, which the cost table's may not be */
	look = s->mono;
	if (procfs_absent_look(p, A_NFS, look)) {
		buf = read_main(p, F_MOUNTSTATS, &len, e);
		if (buf && procfs_parse_mountstats(buf, len, s) < 0)
			return perr_set(e, "out of memory");
		procfs_absent_found(p, A_NFS, look, s->nnfs);
	}
	lap(p, SP_NFS, &t);
	if (procfs_absent_look(p, A_CIFS, look)) {
		buf = read_main(p, F_CIFS, &len, e);
		if (buf && procfs_parse_cifs(buf, len, s) < 0)
			return perr_set(e, "out of memory");
		procfs_absent_found(p, A_CIFS, look, s->ncifs);
	}
	lap(p, SP_CIFS, &t);
	if (procfs_absent_look(p, A_TAPE, look)) {
		if (procfs_read_tapes(p, s) < 0)
			return perr_set(e, "out of memory");
		procfs_absent_found(p, A_TAPE, look, s->ntapes);
	}
	lap(p, SP_TAPE, &t);
	if (procfs_absent_look(p, A_FC, look)) {
		if (procfs_read_fc(p, s) < 0)
			return perr_set(e, "out of memory");
		procfs_absent_found(p, A_FC, look, s->nfcs);
	}
	lap(p, SP_FC, &t);
	return 0;
}

void procfs_cost(const struct procfs *p, double sec[SP_COUNT])
{
	for (int i = 0; i < SP_COUNT; i++)
		sec[i] = p->cost[i];
}

void procfs_close(struct procfs *p)
{
	if (!p)
		return;
	for (int i = 0; i < F_COUNT; i++)
		if (p->fd[i] >= 0)
			close(p->fd[i]);
	for (size_t i = 0; i < p->ifs.ncur; i++)
		procfs_iface_release(p, (struct procfs_iface *)p->ifs.cur + i);
	if (p->sock >= 0)
		close(p->sock);
	if (p->mounts_fd >= 0)
		close(p->mounts_fd);
	if (p->nl >= 0)
		close(p->nl);
	free(p->disks.old);
	free(p->disks.cur);
	free(p->ifs.old);
	free(p->ifs.cur);
	free(p->buf);
	free(p);
}
