/*
 * procfs_disk.c - proc/diskstats for the Linux source (procfs_int.h).
 *
 * Fields after the name (Documentation/admin-guide/iostats.rst; the
 * kernel's types in block/genhd.c diskstats_show): 1 reads, 2 merged, 3
 * sectors read, 4 ms reading, 5 writes, 6 merged, 7 sectors written, 8 ms
 * writing, 9 I/Os in flight, 10 ms busy (io_ticks), 11 weighted ms
 * (time_in_queue), 12-15 discards (4.18), 16-17 flushes (5.5). What wraps
 * where is rates.c's business; here every field is kept as printed.
 *
 * Whether a disk counts in LogicalDisk(_Total) needs a stat() and an
 * opendir() in sys/block: decided once per (name, major:minor) and cached.
 */
#define _GNU_SOURCE
#include "procfs_int.h"

#include <dirent.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

struct disk_class {
	char name[SRC_NAME_MAX];
	uint64_t major, minor;
	int in_total;
};

static int disk_eq(const void *entry, const void *key)
{
	const struct disk_class *a = entry, *b = key;

	return a->major == b->major && a->minor == b->minor &&
	       strcmp(a->name, b->name) == 0;
}

static int has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A whole, bottom-level disk: has a sys/block entry (partitions do not),
 * is not a virtual or stacked device by name, and stacks on nothing. */
static int disk_in_total(const struct procfs *p, const char *name)
{
	static const char *const virt[] = { "dm-", "md", "loop", "ram",
					    "zram" };
	char sysname[SRC_NAME_MAX], path[PROCFS_PATH_MAX];
	struct stat st;
	DIR *d;
	int slaves = 0;

	for (size_t i = 0; i < sizeof(virt) / sizeof(virt[0]); i++)
		if (has_prefix(name, virt[i]))
			return 0;
	/* sysfs spells "cciss/c0d0" as "cciss!c0d0" */
	util_strlcpy(sysname, name, sizeof(sysname));
	for (char *c = sysname; *c; c++)
		if (*c == '/')
			*c = '!';
	if (sysname[0] == '.' ||
	    procfs_path(p, path, sizeof(path), "sys/block/", sysname,
			NULL) < 0 ||
	    stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	if (procfs_path(p, path, sizeof(path), "sys/block/", sysname,
			"slaves") < 0)
		return 0;
	d = opendir(path);
	if (d) {
		struct dirent *de;

		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				slaves = 1;
		closedir(d);
	}
	return !slaves;
}

/* The fields of one line into d: the standard layout, or the 4-field
 * partition lines of 2.6.0-2.6.24 (reads, read sectors, writes, write
 * sectors). A short line (truncated, an odd kernel) keeps what it has. */
static void disk_fields(struct disk_raw *d, const uint64_t *f, int n)
{
	d->rd_ios = f[0];
	if (n == 4) {
		d->rd_sectors = f[1];
		d->wr_ios = f[2];
		d->wr_sectors = f[3];
		return;
	}
	if (n > 2)
		d->rd_sectors = f[2];
	if (n > 3)
		d->rd_ticks = f[3];
	if (n > 4)
		d->wr_ios = f[4];
	if (n > 6)
		d->wr_sectors = f[6];
	if (n > 7)
		d->wr_ticks = f[7];
	if (n > 8)
		d->in_flight = (double)f[8];
	if (n > 9)
		d->io_ticks = f[9];
	if (n > 10)
		d->time_in_queue = f[10];
}

int procfs_parse_diskstats(struct procfs *p, char *buf, size_t len,
			   struct raw_snapshot *s)
{
	char *cur = buf, *end = buf + len, *line;
	struct procfs_cache *c = &p->disks;

	procfs_cache_begin(c);
	while ((line = procfs_next_line(&cur, end))) {
		const char *q = line;
		struct disk_class key, *cls;
		struct disk_raw *d;
		uint64_t f[17];
		int n;
		long at;

		if (procfs_parse_u64(&q, &key.major) != 1 ||
		    procfs_parse_u64(&q, &key.minor) != 1 ||
		    procfs_parse_name(&q, key.name) < 0)
			continue;
		n = procfs_parse_fields(q, f, 17);
		if (n < 4)
			continue;
		if (procfs_cache_reserve(c, c->ncur + 1, sizeof(*cls)) < 0)
			return -1;
		cls = (struct disk_class *)c->cur + c->ncur;
		at = procfs_cache_find(c, sizeof(*cls), disk_eq, &key);
		if (at >= 0) {
			*cls = ((struct disk_class *)c->old)[at];
		} else {
			*cls = key;
			cls->in_total = disk_in_total(p, key.name);
		}
		c->ncur++;

		d = snapshot_add_disk(s);
		if (!d)
			return -1;
		memcpy(d->name, key.name, sizeof(d->name));
		d->in_total = cls->in_total;
		/* major and minor are 12 and 20 bits: never 0:0 for a
		 * real device, so 0 can mean "unknown" */
		d->ident = (key.major & 0xffffffffu) << 32 |
			   (key.minor & 0xffffffffu);
		disk_fields(d, f, n);
	}
	return 0;
}
