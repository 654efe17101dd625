/*
 * procfs.c - the Linux counter source: /proc and /sys under a root.
 *
 *   procfs_open(root)   opens proc/stat, proc/diskstats, proc/meminfo,
 *                       proc/vmstat, proc/net/dev once and keeps them open
 *   procfs_read         pread()s each from offset 0 into one reusable
 *                       buffer, parses it in place, fills a raw_snapshot
 *
 * Cost matters: the collector reads every second on hosts with hundreds of
 * block devices and interfaces and must stay cheaper than sadc. So:
 * - files stay open; a read is one pread per file (seq_file regenerates the
 *   content when read from offset 0), plus one per interface speed file;
 * - nothing is allocated per sample once the buffer, the snapshot arrays
 *   and the device caches have grown to the host's size;
 * - what needs a stat()/opendir() (is this block device a whole disk? is
 *   this interface a loopback?) is worked out once per device and cached,
 *   keyed by name (and major:minor for disks). The cache is rebuilt in the
 *   order of each read, so the next read finds each device at the same
 *   position and the lookup is O(1) per line; only new devices are
 *   searched for and classified.
 *
 * Robustness: any line that does not parse is skipped; a field the kernel
 * does not print (old kernels) stays SRC_NA/NAN; a file longer than the
 * buffer makes the buffer grow (up to PROCFS_FILE_MAX, then the tail is
 * dropped at a line boundary); devices may come and go between reads.
 */
#define _GNU_SOURCE
#include "source.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A /proc file larger than this is truncated at a line boundary; real ones
 * are at most a few hundred KiB even on very large hosts. */
#define PROCFS_FILE_MAX (64u << 20)
#define PROCFS_BUF_INIT (64u << 10)
/* At most this many interface speed files are kept open; past it (hosts
 * with hundreds of interfaces) a speed file is opened, read and closed at
 * each sample, so perflog never eats the collector's descriptor budget. */
#define SPEED_FD_MAX 128
#define ARPHRD_LOOPBACK_TYPE 772

enum { F_STAT, F_DISKSTATS, F_MEMINFO, F_VMSTAT, F_NETDEV, F_COUNT };

static const char *const file_rel[F_COUNT] = {
	"proc/stat", "proc/diskstats", "proc/meminfo", "proc/vmstat",
	"proc/net/dev",
};

struct disk_class {
	char name[SRC_NAME_MAX];
	uint64_t major, minor;
	int in_total;
};

enum speed_state { SPEED_UNTRIED, SPEED_FD, SPEED_REOPEN, SPEED_NONE };

struct iface {
	char name[SRC_NAME_MAX];
	int is_loopback;
	enum speed_state speed;
	int fd;			/* open speed file when speed == SPEED_FD */
};

/* A cache rebuilt in read order each time (see the top of the file). */
struct cache {
	void *old, *cur;
	size_t nold, ncur, cap;
	size_t hint;		/* where the next lookup in old starts */
};

struct procfs {
	char root[PATH_MAX];
	int fd[F_COUNT];
	int reported[F_COUNT];	/* a missing file is reported once */
	char *buf;
	size_t cap;
	struct cache disks, ifs;
	int speed_fds;		/* speed files held open */
};

/* ---- small helpers ---- */

static int root_path(const struct procfs *p, char *out, size_t n,
		     const char *a, const char *b, const char *c)
{
	size_t len = strlen(p->root);
	int r;

	/* root "/" or "dir/": no doubled slash */
	r = snprintf(out, n, "%s%s%s%s%s%s", p->root,
		     (len && p->root[len - 1] == '/') ? "" : "/", a,
		     b ? b : "", c ? "/" : "", c ? c : "");
	return (r < 0 || (size_t)r >= n) ? -1 : 0;
}

/* Read a whole file by pread from offset 0 into p->buf, NUL-terminated.
 * Returns its length, or -1 (errno set). Grows the buffer as needed; the
 * content is cut after its last complete line when it exceeds the max. */
static ssize_t read_fd(struct procfs *p, int fd)
{
	size_t off = 0;

	for (;;) {
		ssize_t r;

		if (p->cap - off < 2) {
			size_t ncap = p->cap * 2;
			char *nb;

			if (ncap > PROCFS_FILE_MAX) {
				char *nl = memrchr(p->buf, '\n', off);

				off = nl ? (size_t)(nl - p->buf) + 1 : 0;
				break;
			}
			nb = realloc(p->buf, ncap);
			if (!nb)
				return -1;
			p->buf = nb;
			p->cap = ncap;
		}
		r = pread(fd, p->buf + off, p->cap - off - 1, (off_t)off);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		off += (size_t)r;
	}
	p->buf[off] = '\0';
	return (ssize_t)off;
}

/* Read one of the main files, (re)opening it if needed. NULL when missing;
 * the first failure for a file is reported through e. */
static char *read_main(struct procfs *p, int which, size_t *len,
		       struct perr *e)
{
	char path[PATH_MAX + 32];
	ssize_t n;

	if (p->fd[which] < 0) {
		if (root_path(p, path, sizeof(path), file_rel[which], NULL,
			      NULL) == 0)
			p->fd[which] = open(path, O_RDONLY | O_CLOEXEC);
		if (p->fd[which] < 0)
			goto fail;
	}
	n = read_fd(p, p->fd[which]);
	if (n >= 0) {
		*len = (size_t)n;
		return p->buf;
	}
	close(p->fd[which]);
	p->fd[which] = -1;
fail:
	/* proc/stat failing fails the read, so it is reported every time */
	if (!p->reported[which] || which == F_STAT) {
		int saved = errno;

		p->reported[which] = 1;
		root_path(p, path, sizeof(path), file_rel[which], NULL, NULL);
		perr_set(e, "unable to read '%s': %s", path, strerror(saved));
	}
	return NULL;
}

/* Next line of buf (NUL-terminated in place); NULL at the end. */
static char *next_line(char **cursor, char *end)
{
	char *s = *cursor, *nl;

	if (s >= end)
		return NULL;
	nl = memchr(s, '\n', (size_t)(end - s));
	if (nl) {
		*nl = '\0';
		*cursor = nl + 1;
	} else {
		*cursor = end;
	}
	return s;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Parse an unsigned decimal token at *s (leading blanks skipped). Returns
 * 1 and advances *s, 0 at end of line, -1 on a malformed token or an
 * overflow. */
static int parse_u64(const char **s, uint64_t *v)
{
	const char *q = *s;
	uint64_t x = 0;

	while (is_blank(*q))
		q++;
	if (!*q)
		return 0;
	if (*q < '0' || *q > '9')
		return -1;
	for (; *q >= '0' && *q <= '9'; q++) {
		unsigned d = (unsigned)(*q - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	if (*q && !is_blank(*q))
		return -1;
	*v = x;
	*s = q;
	return 1;
}

/* Parse up to max numbers; returns how many, or -1 on a bad token. */
static int parse_fields(const char *s, uint64_t *f, int max)
{
	int n = 0, r = 0;

	while (n < max && (r = parse_u64(&s, &f[n])) == 1)
		n++;
	if (n < max && r < 0)
		return -1;
	return n;
}

/* Copy the blank-delimited token at *s into out (size SRC_NAME_MAX).
 * Returns 0, or -1 when there is none or it does not fit. */
static int parse_name(const char **s, char *out)
{
	const char *q = *s, *start;
	size_t len;

	while (is_blank(*q))
		q++;
	start = q;
	while (*q && !is_blank(*q))
		q++;
	len = (size_t)(q - start);
	if (len == 0 || len >= SRC_NAME_MAX)
		return -1;
	memcpy(out, start, len);
	out[len] = '\0';
	*s = q;
	return 0;
}

/* ---- the device caches ---- */

static int cache_reserve(struct cache *c, size_t need, size_t sz)
{
	void *a, *b;
	size_t ncap;

	if (need <= c->cap)
		return 0;
	ncap = c->cap ? c->cap : 16;
	while (ncap < need)
		ncap *= 2;
	a = realloc(c->old, ncap * sz);
	if (!a)
		return -1;
	c->old = a;
	b = realloc(c->cur, ncap * sz);
	if (!b)
		return -1;
	c->cur = b;
	c->cap = ncap;
	return 0;
}

/* Start a read: what was built last time becomes the lookup table. */
static void cache_begin(struct cache *c)
{
	void *t = c->old;

	c->old = c->cur;
	c->cur = t;
	c->nold = c->ncur;
	c->ncur = 0;
	c->hint = 0;
}

/* Index of the entry in old matching by eq(), trying the hint first. */
static long cache_find(struct cache *c, size_t sz,
		       int (*eq)(const void *entry, const void *key),
		       const void *key)
{
	const char *old = c->old;

	if (c->hint < c->nold && eq(old + c->hint * sz, key))
		return (long)c->hint++;
	for (size_t i = 0; i < c->nold; i++)
		if (eq(old + i * sz, key)) {
			c->hint = i + 1;
			return (long)i;
		}
	return -1;
}

static int disk_eq(const void *entry, const void *key)
{
	const struct disk_class *a = entry, *b = key;

	return a->major == b->major && a->minor == b->minor &&
	       strcmp(a->name, b->name) == 0;
}

static int iface_eq(const void *entry, const void *key)
{
	return strcmp(((const struct iface *)entry)->name, key) == 0;
}

/* ---- classification, once per device ---- */

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
	char sysname[SRC_NAME_MAX], path[PATH_MAX + 2 * SRC_NAME_MAX];
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
	    root_path(p, path, sizeof(path), "sys/block/", sysname, NULL) < 0 ||
	    stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	if (root_path(p, path, sizeof(path), "sys/block/", sysname,
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

static int read_small(int fd, char *buf, size_t n)
{
	ssize_t r;

	do
		r = pread(fd, buf, n - 1, 0);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -1;
	buf[r] = '\0';
	return 0;
}

static void iface_classify(struct procfs *p, struct iface *f)
{
	char path[PATH_MAX + 2 * SRC_NAME_MAX], buf[32];
	int fd;

	f->is_loopback = strcmp(f->name, "lo") == 0;
	f->speed = SPEED_UNTRIED;
	f->fd = -1;
	if (f->name[0] == '.' || strchr(f->name, '/') ||
	    root_path(p, path, sizeof(path), "sys/class/net/", f->name,
		      "type") < 0)
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (read_small(fd, buf, sizeof(buf)) == 0 &&
	    strtol(buf, NULL, 10) == ARPHRD_LOOPBACK_TYPE)
		f->is_loopback = 1;
	close(fd);
}

/* Link speed in bits/s, NAN when unknown. sysfs answers EINVAL for links
 * without a speed (down, virtual) and "-1" for unknown ones. */
static double iface_speed(struct procfs *p, struct iface *f)
{
	char path[PATH_MAX + 2 * SRC_NAME_MAX], buf[32], *end;
	int fd, keep, tries = 0;
	long v;

again:
	if (f->speed == SPEED_NONE)
		return NAN;
	if (f->speed == SPEED_FD) {
		fd = f->fd;
	} else {
		if (f->name[0] == '.' || strchr(f->name, '/') ||
		    root_path(p, path, sizeof(path), "sys/class/net/", f->name,
			      "speed") < 0) {
			f->speed = SPEED_NONE;
			return NAN;
		}
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			/* no speed file: a device type that never has one */
			f->speed = SPEED_NONE;
			return NAN;
		}
		keep = p->speed_fds < SPEED_FD_MAX;
		if (keep) {
			f->fd = fd;
			f->speed = SPEED_FD;
			p->speed_fds++;
		} else {
			f->speed = SPEED_REOPEN;
		}
	}
	if (read_small(fd, buf, sizeof(buf)) < 0) {
		int err = errno;

		if (f->speed == SPEED_REOPEN)
			close(fd);
		if (err == EINVAL)
			return NAN;
		/* the device behind a kept descriptor went away (ENODEV):
		 * a new one of the same name may be there, so reopen once */
		if (f->speed == SPEED_FD) {
			close(fd);
			f->fd = -1;
			p->speed_fds--;
			f->speed = SPEED_UNTRIED;
			if (tries++ == 0)
				goto again;
		}
		return NAN;
	}
	if (f->speed == SPEED_REOPEN)
		close(fd);
	errno = 0;
	v = strtol(buf, &end, 10);
	if (end == buf || errno || v <= 0 || (*end && *end != '\n'))
		return NAN;
	return (double)v * 1e6;
}

static void iface_release(struct procfs *p, struct iface *f)
{
	if (f->speed == SPEED_FD) {
		close(f->fd);
		p->speed_fds--;
	}
	f->fd = -1;
	f->speed = SPEED_UNTRIED;
}

/* ---- the parsers ---- */

static int parse_stat(char *buf, size_t len, struct raw_snapshot *s)
{
	char *cur = buf, *end = buf + len, *line;
	int have_total = 0;

	while ((line = next_line(&cur, end))) {
		if (line[0] == 'c' && line[1] == 'p' && line[2] == 'u') {
			const char *q = line + 3;
			uint64_t f[8];
			struct cpu_raw *c;
			int n, total = is_blank(*q);
			char name[SRC_NAME_MAX];
			size_t nlen = 0;

			if (!total) {
				while (q[nlen] >= '0' && q[nlen] <= '9')
					nlen++;
				if (nlen == 0 || nlen >= sizeof(name) ||
				    !is_blank(q[nlen]))
					continue;
				memcpy(name, q, nlen);
				name[nlen] = '\0';
				q += nlen;
			}
			n = parse_fields(q, f, 8);
			if (n < 4)	/* user nice system idle at least */
				continue;
			if (s->ncpus == 0) {
				/* cpus[0] is _Total even if the file does
				 * not start with the "cpu" line */
				c = snapshot_add_cpu(s);
				if (!c)
					return -1;
				strcpy(c->name, "_Total");
			}
			if (total) {
				if (have_total)
					continue;
				have_total = 1;
				c = &s->cpus[0];
			} else {
				c = snapshot_add_cpu(s);
				if (!c)
					return -1;
				memcpy(c->name, name, nlen + 1);
			}
			c->user = f[0];
			c->nice = f[1];
			c->system = f[2];
			c->idle = f[3];
			if (n > 4)
				c->iowait = f[4];
			if (n > 5)
				c->irq = f[5];
			if (n > 6)
				c->softirq = f[6];
			if (n > 7)
				c->steal = f[7];
		} else if (strncmp(line, "ctxt ", 5) == 0) {
			const char *q = line + 5;
			uint64_t v;

			if (parse_u64(&q, &v) == 1)
				s->sys.ctxt = v;
		} else if (strncmp(line, "procs_running ", 14) == 0) {
			const char *q = line + 14;
			uint64_t v;

			if (parse_u64(&q, &v) == 1)
				s->sys.procs_running = (double)v;
		}
	}
	return 0;
}

static int parse_diskstats(struct procfs *p, char *buf, size_t len,
			   struct raw_snapshot *s)
{
	char *cur = buf, *end = buf + len, *line;
	struct cache *c = &p->disks;

	cache_begin(c);
	while ((line = next_line(&cur, end))) {
		const char *q = line;
		struct disk_class key, *cls;
		struct disk_raw *d;
		uint64_t f[17];
		int n, big = 0;
		long at;

		if (parse_u64(&q, &key.major) != 1 ||
		    parse_u64(&q, &key.minor) != 1 ||
		    parse_name(&q, key.name) < 0)
			continue;
		n = parse_fields(q, f, 17);
		if (n < 4)
			continue;
		if (cache_reserve(c, c->ncur + 1, sizeof(*cls)) < 0)
			return -1;
		cls = (struct disk_class *)c->cur + c->ncur;
		at = cache_find(c, sizeof(*cls), disk_eq, &key);
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
		if (n == 4) {
			/* 2.6.0-2.6.24 partitions: reads, read sectors,
			 * writes, write sectors */
			d->rd_ios = f[0];
			d->rd_sectors = f[1];
			d->wr_ios = f[2];
			d->wr_sectors = f[3];
		} else {
			/* the standard layout; a short line (truncated or
			 * an odd kernel) keeps what it has */
			d->rd_ios = f[0];
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
			if (n > 9)
				d->io_ticks = f[9];
			if (n > 10)
				d->time_in_queue = f[10];
		}
		for (int i = 0; i < n; i++)
			if (f[i] > UINT32_MAX)
				big = 1;
		d->counter_bits = big ? 64 : 32;
	}
	return 0;
}

static int parse_meminfo(char *buf, size_t len, struct raw_snapshot *s)
{
	char *cur = buf, *end = buf + len, *line;

	while ((line = next_line(&cur, end))) {
		double *dst;
		const char *q;
		uint64_t v;

		if (strncmp(line, "MemAvailable:", 13) == 0) {
			dst = &s->mem.available;
			q = line + 13;
		} else if (strncmp(line, "Cached:", 7) == 0) {
			dst = &s->mem.cached;
			q = line + 7;
		} else {
			continue;
		}
		while (is_blank(*q))
			q++;
		/* the value is followed by " kB" */
		{
			uint64_t x = 0;
			const char *d = q;

			for (; *d >= '0' && *d <= '9'; d++) {
				if (x > UINT64_MAX / 10 - 1)
					break;
				x = x * 10 + (uint64_t)(*d - '0');
			}
			if (d == q || (*d && !is_blank(*d)))
				continue;
			v = x;
			while (is_blank(*d))
				d++;
			if (strcmp(d, "kB") == 0)
				*dst = (double)v * 1024.0;
			else if (*d == '\0')
				*dst = (double)v;
		}
	}
	return 0;
}

static int parse_vmstat(char *buf, size_t len, struct raw_snapshot *s)
{
	char *cur = buf, *end = buf + len, *line;

	while ((line = next_line(&cur, end))) {
		uint64_t *dst = NULL, v;
		const char *q;

		if (line[0] != 'p')
			continue;
		if (strncmp(line, "pswpin ", 7) == 0)
			dst = &s->mem.pswpin;
		else if (strncmp(line, "pswpout ", 8) == 0)
			dst = &s->mem.pswpout;
		else if (strncmp(line, "pgfault ", 8) == 0)
			dst = &s->mem.pgfault;
		else if (strncmp(line, "pgmajfault ", 11) == 0)
			dst = &s->mem.pgmajfault;
		if (!dst)
			continue;
		q = strchr(line, ' ');
		if (parse_u64(&q, &v) == 1)
			*dst = v;
	}
	return 0;
}

static int parse_netdev(struct procfs *p, char *buf, size_t len,
			struct raw_snapshot *s)
{
	char *cur = buf, *end = buf + len, *line;
	struct cache *c = &p->ifs;

	cache_begin(c);
	while ((line = next_line(&cur, end))) {
		char *colon, *name = line;
		struct iface *f;
		struct net_raw *nr;
		uint64_t v[16];
		size_t nlen;
		long at;

		if (strchr(line, '|'))	/* the two header lines */
			continue;
		colon = strchr(line, ':');
		if (!colon)
			continue;
		while (is_blank(*name))
			name++;
		nlen = (size_t)(colon - name);
		if (nlen == 0 || nlen >= SRC_NAME_MAX)
			continue;
		*colon = '\0';
		if (strpbrk(name, " \t"))
			continue;
		if (parse_fields(colon + 1, v, 16) < 10)
			continue;

		if (cache_reserve(c, c->ncur + 1, sizeof(*f)) < 0)
			return -1;
		f = (struct iface *)c->cur + c->ncur;
		at = cache_find(c, sizeof(*f), iface_eq, name);
		if (at >= 0) {
			struct iface *o = (struct iface *)c->old + at;

			*f = *o;
			/* taken over: the old slot must not release it */
			o->speed = SPEED_UNTRIED;
			o->fd = -1;
			o->name[0] = '\0';
		} else {
			memcpy(f->name, name, nlen + 1);
			iface_classify(p, f);
		}
		c->ncur++;

		nr = snapshot_add_net(s);
		if (!nr)
			return -1;
		memcpy(nr->name, name, nlen + 1);
		nr->rx_bytes = v[0];
		nr->rx_packets = v[1];
		nr->tx_bytes = v[8];
		nr->tx_packets = v[9];
		nr->is_loopback = f->is_loopback;
		nr->speed_bps = iface_speed(p, f);
	}
	/* interfaces that vanished give their descriptors back */
	for (size_t i = 0; i < c->nold; i++)
		iface_release(p, (struct iface *)c->old + i);
	c->nold = 0;
	return 0;
}

/* ---- the interface ---- */

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
	for (int i = 0; i < F_COUNT; i++)
		p->fd[i] = -1;
	if (util_strlcpy(p->root, root, sizeof(p->root)) < 0) {
		perr_set(e, "root path too long: '%.64s...'", root);
		free(p);
		return NULL;
	}
	p->buf = malloc(PROCFS_BUF_INIT);
	if (!p->buf) {
		perr_set(e, "out of memory");
		free(p);
		return NULL;
	}
	p->cap = PROCFS_BUF_INIT;
	for (int i = 0; i < F_COUNT; i++)
		if (root_path(p, path, sizeof(path), file_rel[i], NULL,
			      NULL) == 0)
			p->fd[i] = open(path, O_RDONLY | O_CLOEXEC);
	if (p->fd[F_STAT] < 0) {
		int saved = errno;

		root_path(p, path, sizeof(path), file_rel[F_STAT], NULL, NULL);
		perr_set(e, "unable to open '%s': %s", path, strerror(saved));
		procfs_close(p);
		return NULL;
	}
	return p;
}

int procfs_read(struct procfs *p, struct raw_snapshot *s, struct perr *e)
{
	char *buf;
	size_t len;

	snapshot_reset(s);
	s->mono = util_monotonic();

	buf = read_main(p, F_STAT, &len, e);
	if (!buf)
		return -1;
	if (parse_stat(buf, len, s) < 0)
		return perr_set(e, "out of memory");

	buf = read_main(p, F_DISKSTATS, &len, e);
	if (buf && parse_diskstats(p, buf, len, s) < 0)
		return perr_set(e, "out of memory");

	buf = read_main(p, F_MEMINFO, &len, e);
	if (buf)
		parse_meminfo(buf, len, s);

	buf = read_main(p, F_VMSTAT, &len, e);
	if (buf)
		parse_vmstat(buf, len, s);

	buf = read_main(p, F_NETDEV, &len, e);
	if (buf && parse_netdev(p, buf, len, s) < 0)
		return perr_set(e, "out of memory");
	return 0;
}

void procfs_close(struct procfs *p)
{
	if (!p)
		return;
	for (int i = 0; i < F_COUNT; i++)
		if (p->fd[i] >= 0)
			close(p->fd[i]);
	for (size_t i = 0; i < p->ifs.ncur; i++)
		iface_release(p, (struct iface *)p->ifs.cur + i);
	free(p->disks.old);
	free(p->disks.cur);
	free(p->ifs.old);
	free(p->ifs.cur);
	free(p->buf);
	free(p);
}
