/*
 * procfs_int.h - what the files of the Linux source share among
 * themselves. Not an interface for other folders: source.h is (procfs_open,
 * procfs_read, procfs_close), and psi.c for pressure files.
 *
 *   procfs.c          open, read, close: the file table, one pass
 *   procfs_text.c     reading a file into the buffer, tokens, the caches
 *   procfs_stat.c     proc/stat, meminfo, vmstat, net/snmp
 *   procfs_disk.c     proc/diskstats and which disks make _Total
 *   procfs_net.c      proc/net/dev, link speed, device identity
 *   procfs_netclass.c which interfaces make _Total (sysfs stacking)
 *   procfs_nfs.c      proc/self/mountstats: NFS mounts
 *   procfs_cifs.c     proc/fs/cifs/Stats: SMB shares
 *   procfs_tape.c     sys/class/scsi_tape/stN/stats: tape drives
 *   procfs_fc.c       sys/class/fc_host/hostN/statistics: FC ports
 *   psi.c             pressure files (system and cgroup)
 */
#ifndef PERFLOG_PROCFS_INT_H
#define PERFLOG_PROCFS_INT_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#include "source.h"

/* A /proc file larger than this is truncated at a line boundary; real ones
 * are at most a few hundred KiB even on very large hosts. */
#define PROCFS_FILE_MAX (64u << 20)
#define PROCFS_BUF_INIT (64u << 10)
/* At most this many interface sysfs files are kept open; past it (hosts
 * with hundreds of interfaces) a speed file is opened, read and closed at
 * each sample, so perflog never eats the collector's descriptor budget. */
#define PROCFS_SPEED_FD_MAX 128
/* A link's speed changes with its link state, which rtnetlink announces
 * (RTM_NEWLINK: carrier, renegotiation, a new device): read on such an
 * event, else again after this many seconds. Read at every sample it
 * was four preads a sample here, three failing (EINVAL for lo and
 * ifbN, after the kernel took rtnl_lock to ask the driver). */
#define PROCFS_SPEED_KEEP 30.0
#define PROCFS_PATH_MAX (PATH_MAX + 2 * SRC_NAME_MAX)

enum procfs_file {
	F_STAT, F_DISKSTATS, F_MEMINFO, F_VMSTAT, F_NETDEV,
	F_SNMP, F_PSI_CPU, F_PSI_IO, F_PSI_MEMORY,
	F_MOUNTSTATS, F_CIFS,
	F_COUNT
};
/* The parts that are absent on most hosts (no NFS client, no cifs.ko, no
 * tape, no FC HBA): looked for again only on a slow timer or a change of
 * the mount table while they find nothing (procfs_absent.c). */
enum procfs_absent { A_NFS, A_CIFS, A_TAPE, A_FC, A_COUNT };
/* Seconds between two looks for an absent part on a live root. */
#define PROCFS_ABSENT_RETRY 60.0

/* The first optional file: missing ones are not reported (not offered). */
#define F_FIRST_OPTIONAL F_SNMP

/* A per-device cache rebuilt in read order each time: the next read finds
 * each device at the same position, so a lookup is O(1) per line and only
 * new devices are searched for and classified. */
struct procfs_cache {
	void *old, *cur;
	size_t nold, ncur, cap;
	size_t hint;		/* where the next lookup in old starts */
};

enum speed_state { SPEED_UNTRIED, SPEED_FD, SPEED_REOPEN, SPEED_NONE };

/* What procfs knows of an interface between reads. */
struct procfs_iface {
	char name[SRC_NAME_MAX];
	int is_loopback, in_total;
	uint64_t ifindex;	/* 0 when sys/class/net/IF/ifindex is missing */
	uint64_t generation;	/* bumped when the device was replaced */
	enum speed_state speed;
	int fd;			/* open speed file when speed == SPEED_FD */
	ino_t ino;		/* its inode: a new device has new sysfs nodes */
	int checked;		/* classified in this read already */
	double speed_bps;	/* the speed last read (NAN unknown) */
	double speed_at;	/* when (monotonic s); 0: never */
};

struct procfs {
	char root[PATH_MAX];
	int live;		/* root is "/": ioctls see the same devices */
	int fd[F_COUNT];
	int reported[F_COUNT];	/* a missing file is reported once */
	int kernel_bits;
	char *buf;
	size_t cap;
	struct procfs_cache disks, ifs;
	int speed_fds;		/* speed files held open */
	int sock;		/* for SIOCETHTOOL (live only), -1 */
	int nl;			/* rtnetlink link events (live only); -1 not
				 * open yet, -2 unavailable */
	double speed_keep;	/* seconds a link speed read stands while no
				 * link event came: PROCFS_SPEED_KEEP with
				 * rtnetlink, else 0 (read at every sample) */
	size_t recheck;		/* next interface to classify again */
	int reclassify;		/* samples in which to classify all again */
	uint64_t generations;	/* source of procfs_iface.generation */
	double cost[SP_COUNT];	/* seconds in each part (procfs_cost) */
	/* where backups land, looked for again only now and then while
	 * absent (procfs_absent.c) */
	double next_look[A_COUNT];	/* monotonic; 0: look at every read */
	double absent_retry;	/* seconds; 0 (fixture roots): every read */
	int mounts_fd;		/* proc/self/mounts (live), -1 */
	double mounts_polled;	/* the read that last asked (mounts_changed) */
	/* one poll(2) of both at the start of a read (procfs_poll_events):
	 * the link events' socket has something to recv, the mount table
	 * changed */
	int nl_ready, mounts_event;
};

/* ---- procfs_text.c ---- */
/* ROOT/a[b][/c] into out; -1 when it does not fit. */
int procfs_path(const struct procfs *p, char *out, size_t n, const char *a,
		const char *b, const char *c);
/* The whole file behind fd (pread from 0) into p->buf, NUL-terminated;
 * its length, or -1 (errno). Cut after the last line past the max.
 * PROCFS_SHORT_LINES: the file is one record (single_open: stat,
 * meminfo, pressure, snmp) or records of one line under 512 bytes
 * (diskstats' 20 numbers of up to 20 digits and a name; net/dev,
 * vmstat), so a first read that returns less than PROCFS_SHORT_END is
 * the whole file and the read that would return 0 is not made: a
 * seq_file fills its page (4 KiB) with whole records and returns early
 * only at the end or when the next record does not fit. One system call
 * a file instead of two (issue 48: the call, not the text, is most of
 * reading a small /proc file). Not for files of large records
 * (mountstats: a mount's record is kilobytes).
 * PROCFS_FIRST_PAGE: the first read alone, whole lines (a seq_file's
 * page of records; a fixture's regular file whole), unless it filled the
 * buffer: for a file whose wanted lines come early (vmstat's four, 1.6-2
 * KiB into its 4 KiB), the caller reads it whole only if they are not
 * in it. A seq_file read at an offset regenerates the text from the
 * start: vmstat's second pread cost as much as its first. */
#define PROCFS_SHORT_END (4096 - 512)
enum procfs_read_mode { PROCFS_WHOLE, PROCFS_SHORT_LINES, PROCFS_FIRST_PAGE };
ssize_t procfs_read_fd(struct procfs *p, int fd, enum procfs_read_mode mode);
/* A small sysfs file (pread from 0) into buf; 0 or -1 (errno). */
int procfs_read_small(int fd, char *buf, size_t n);
/* Open ROOT/a/b/c, read it into buf and close; 0 or -1. */
int procfs_read_path(const struct procfs *p, const char *a, const char *b,
		     const char *c, char *buf, size_t n);
/* A sysfs file holding one number, decimal or "0x" hex, into *v: 0, or
 * -1 when it is missing, unreadable or not one number. */
int procfs_read_u64(const struct procfs *p, const char *a, const char *b,
		    const char *c, uint64_t *v);
/* The next line of [*cursor, end), NUL-terminated in place; NULL at end. */
char *procfs_next_line(char **cursor, char *end);
int procfs_blank(char c);
/* An unsigned decimal at *s (blanks skipped): 1 and *s advanced, 0 at the
 * end of the line, -1 on a malformed token or an overflow. */
int procfs_parse_u64(const char **s, uint64_t *v);
/* Up to max numbers; how many, or -1 on a bad token before max. */
int procfs_parse_fields(const char *s, uint64_t *f, int max);
/* The blank-delimited token at *s into out (SRC_NAME_MAX); 0 or -1. */
int procfs_parse_name(const char **s, char *out);
int procfs_cache_reserve(struct procfs_cache *c, size_t need, size_t sz);
void procfs_cache_begin(struct procfs_cache *c);
long procfs_cache_find(struct procfs_cache *c, size_t sz,
		       int (*eq)(const void *entry, const void *key),
		       const void *key);

/* ---- procfs_stat.c ---- */
int procfs_parse_stat(char *buf, size_t len, struct raw_snapshot *s);
void procfs_parse_meminfo(char *buf, size_t len, struct raw_snapshot *s);
/* vmstat's wanted lines into s; how many of PROCFS_VMSTAT_WANTED were in buf. */
#define PROCFS_VMSTAT_WANTED 4
int procfs_parse_vmstat(char *buf, size_t len, struct raw_snapshot *s);
void procfs_parse_snmp(char *buf, size_t len, struct raw_snapshot *s);

/* ---- procfs_disk.c ---- */
int procfs_parse_diskstats(struct procfs *p, char *buf, size_t len,
			   struct raw_snapshot *s);

/* ---- procfs_net.c ---- */
int procfs_parse_netdev(struct procfs *p, char *buf, size_t len,
			struct raw_snapshot *s);
void procfs_iface_release(struct procfs *p, struct procfs_iface *f);

/* ---- procfs_nfs.c, procfs_cifs.c, procfs_tape.c, procfs_fc.c ---- */
/* Each appends its entries to s; -1 only when out of memory. */
int procfs_parse_mountstats(char *buf, size_t len, struct raw_snapshot *s);
int procfs_parse_cifs(char *buf, size_t len, struct raw_snapshot *s);
int procfs_read_tapes(const struct procfs *p, struct raw_snapshot *s);
int procfs_read_fc(const struct procfs *p, struct raw_snapshot *s);

/* ---- procfs_absent.c ---- */
/* Open what tells of a mount table change (live roots only). */
void procfs_absent_open(struct procfs *p);
/* Poll the link events' socket and the mount table at once, timeout 0,
 * at the start of a read: one system call where a recv that found
 * nothing and a poll were two (issue 48). */
void procfs_poll_events(struct procfs *p);
/* Whether part a is to be read in this read (now, monotonic): it found
 * something last time, or its retry is due, or (NFS, CIFS) the mount
 * table changed. */
int procfs_absent_look(struct procfs *p, enum procfs_absent a, double now);
/* After reading part a: found is how many entries it gave. */
void procfs_absent_found(struct procfs *p, enum procfs_absent a, double now,
			 size_t found);
/* Forget what was found absent: the next read looks for every part (a
 * mount table change; tests). */
void procfs_absent_forget(struct procfs *p);

/* ---- procfs_netclass.c ---- */
/* Fill f->is_loopback, f->in_total and f->ifindex from sysfs (and, live,
 * the driver's name). */
void procfs_iface_classify(struct procfs *p, struct procfs_iface *f);
/* Whether any link changed (rtnetlink RTMGRP_LINK) since the last call: 1
 * or 0; -1 when there are no link events (a fixture root, no socket). */
int procfs_links_changed(struct procfs *p);

#endif
