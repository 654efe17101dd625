/*
 * procfs_net.c - proc/net/dev for the Linux source (procfs_int.h), with
 * each interface's link speed and identity from sysfs.
 *
 * Fields after "IF:" (net/core/net-procfs.c dev_seq_printf_stats, all
 * printed from struct rtnl_link_stats64): receive bytes packets errs drop
 * fifo frame compressed multicast, transmit bytes packets errs drop fifo
 * colls carrier compressed. "drop" is rx_dropped + rx_missed_errors.
 *
 * Identity: a name can be deleted and made again between two reads (a
 * veth pair of a container restarted, wg0 or ppp0 reconnected), and the
 * new device's counters start again from 0 or, worse, from a value that
 * happens to be larger than the old one's. The kept descriptor of the
 * speed file tells: sysfs answers ENODEV once the device behind it is gone
 * (a reopened one has a new inode), and the ifindex changes. Either bumps
 * procfs_iface.generation, so net_raw.ident differs and rates.c gives
 * that interval no values instead of a delta across two devices.
 *
 * Classification (loopback? counted in _Total?) needs opendir() and a few
 * reads in sysfs: done for new and replaced devices, and for all of them
 * when rtnetlink reported a link change (an existing NIC enslaved, a
 * container's veth joining docker0 just after it appeared). Without link
 * events (a fixture root) all are classified again in the two reads after
 * the set of interfaces changed, and one more each read in turn.
 */
#define _GNU_SOURCE
#include "procfs_int.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int iface_eq(const void *entry, const void *key)
{
	return strcmp(((const struct procfs_iface *)entry)->name, key) == 0;
}

static int sysfs_name_ok(const char *name)
{
	return name[0] != '.' && !strchr(name, '/');
}

/* Open the speed file of a device not held open: NAN-state on failure.
 * A new inode under the same name is a new device. */
static int speed_open(struct procfs *p, struct procfs_iface *f,
		      int *replaced)
{
	char path[PROCFS_PATH_MAX];
	struct stat st;
	int fd;

	if (!sysfs_name_ok(f->name) ||
	    procfs_path(p, path, sizeof(path), "sys/class/net/", f->name,
			"speed") < 0 ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		/* no speed file: a device type that never has one */
		f->speed = SPEED_NONE;
		return -1;
	}
	if (fstat(fd, &st) == 0) {
		if (f->ino && st.st_ino != f->ino)
			*replaced = 1;
		f->ino = st.st_ino;
	}
	if (f->speed == SPEED_UNTRIED && p->speed_fds < PROCFS_SPEED_FD_MAX) {
		f->fd = fd;
		f->speed = SPEED_FD;
		p->speed_fds++;
	} else {
		f->speed = SPEED_REOPEN;
	}
	return fd;
}

/* Link speed in bits/s, NAN when unknown. sysfs answers EINVAL for links
 * without a speed (down, virtual) and "-1" for unknown ones; ENODEV when
 * the device behind a kept descriptor is gone (*replaced is then set). */
static double iface_speed(struct procfs *p, struct procfs_iface *f,
			  int *replaced)
{
	char buf[32], *end;
	int fd, tries = 0;
	long v;

again:
	if (f->speed == SPEED_NONE)
		return NAN;
	fd = f->speed == SPEED_FD ? f->fd : speed_open(p, f, replaced);
	if (fd < 0)
		return NAN;
	if (procfs_read_small(fd, buf, sizeof(buf)) < 0) {
		int err = errno;

		if (f->speed == SPEED_REOPEN)
			close(fd);
		if (err == ENODEV && f->speed == SPEED_FD) {
			/* a new device of the same name may be there */
			*replaced = 1;
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

void procfs_iface_release(struct procfs *p, struct procfs_iface *f)
{
	if (f->speed == SPEED_FD) {
		close(f->fd);
		p->speed_fds--;
	}
	f->fd = -1;
	f->speed = SPEED_UNTRIED;
}

static uint64_t iface_ident(const struct procfs_iface *f)
{
	return f->generation << 32 | (f->ifindex & 0xffffffffu);
}

/* Classify again; a changed ifindex is a new device. */
static void iface_recheck(struct procfs *p, struct procfs_iface *f,
			  struct net_raw *nr)
{
	uint64_t was = f->ifindex;

	procfs_iface_classify(p, f);
	if (was && f->ifindex && was != f->ifindex)
		f->generation++;
	nr->is_loopback = f->is_loopback;
	nr->in_total = f->in_total;
	nr->ident = iface_ident(f);
}

/* The cache slot for name: taken over from the last read, or new. *fresh
 * is set for a new one. NULL when out of memory. */
static struct procfs_iface *iface_slot(struct procfs *p, const char *name,
				       size_t nlen, int *fresh)
{
	struct procfs_cache *c = &p->ifs;
	struct procfs_iface *f;
	long at;

	if (procfs_cache_reserve(c, c->ncur + 1, sizeof(*f)) < 0)
		return NULL;
	f = (struct procfs_iface *)c->cur + c->ncur++;
	at = procfs_cache_find(c, sizeof(*f), iface_eq, name);
	*fresh = at < 0;
	if (at >= 0) {
		struct procfs_iface *o = (struct procfs_iface *)c->old + at;

		*f = *o;
		/* taken over: the old slot must not release it */
		o->speed = SPEED_UNTRIED;
		o->fd = -1;
		o->name[0] = '\0';
	} else {
		memset(f, 0, sizeof(*f));
		memcpy(f->name, name, nlen + 1);
		f->speed = SPEED_UNTRIED;
		f->fd = -1;
	}
	return f;
}

/* One "IF: v0 v1 ..." line: 1 when it made an entry, 0 when skipped, -1
 * when out of memory. *changed is set for a new or replaced device. */
static int netdev_line(struct procfs *p, char *line, struct raw_snapshot *s,
		       int *changed)
{
	char *colon, *name = line;
	struct procfs_iface *f;
	struct net_raw *nr;
	uint64_t v[16];
	size_t nlen;
	int n, fresh, replaced = 0;
	double now;

	if (strchr(line, '|'))	/* the two header lines */
		return 0;
	colon = strchr(line, ':');
	if (!colon)
		return 0;
	while (procfs_blank(*name))
		name++;
	nlen = (size_t)(colon - name);
	if (nlen == 0 || nlen >= SRC_NAME_MAX)
		return 0;
	*colon = '\0';
	n = procfs_parse_fields(colon + 1, v, 16);
	if (strpbrk(name, " \t") || n < 10)
		return 0;
	f = iface_slot(p, name, nlen, &fresh);
	nr = f ? snapshot_add_net(s) : NULL;
	if (!nr)
		return -1;
	memcpy(nr->name, name, nlen + 1);
	nr->rx_bytes = v[0];
	nr->rx_packets = v[1];
	nr->rx_errs = v[2];
	nr->rx_drop = v[3];
	nr->tx_bytes = v[8];
	nr->tx_packets = v[9];
	if (n >= 12) {
		nr->tx_errs = v[10];
		nr->tx_drop = v[11];
	}
	now = util_monotonic();
	if (!fresh && p->speed_keep > 0 && !p->reclassify && f->speed_at > 0 &&
	    now - f->speed_at < p->speed_keep) {
		nr->speed_bps = f->speed_bps;	/* no link event since */
	} else {
		nr->speed_bps = f->speed_bps = iface_speed(p, f, &replaced);
		f->speed_at = now;
	}
	if (replaced) {
		f->generation++;
		/* gone between the two reads: try its files again next time */
		if (f->speed == SPEED_NONE)
			f->speed = SPEED_UNTRIED;
	}
	f->checked = fresh || replaced;
	if (f->checked) {
		*changed = 1;
		procfs_iface_classify(p, f);
	}
	nr->is_loopback = f->is_loopback;
	nr->in_total = f->in_total;
	nr->ident = iface_ident(f);
	return 1;
}

int procfs_parse_netdev(struct procfs *p, char *buf, size_t len,
			struct raw_snapshot *s)
{
	char *cur = buf, *end = buf + len, *line;
	struct procfs_cache *c = &p->ifs;
	size_t first = s->nnets;
	int changed = 0, events = procfs_links_changed(p);

	if (events > 0)
		p->reclassify = 1;	/* this read */
	procfs_cache_begin(c);
	while ((line = procfs_next_line(&cur, end)))
		if (netdev_line(p, line, s, &changed) < 0)
			return -1;
	/* interfaces that vanished give their descriptors back */
	for (size_t i = 0; i < c->nold; i++) {
		struct procfs_iface *o = (struct procfs_iface *)c->old + i;

		if (o->name[0])
			changed = 1;
		procfs_iface_release(p, o);
	}
	c->nold = 0;
	if (changed && events < 0)
		p->reclassify = 2;	/* this read and the next */
	/* the cache and s->nets[first...] are in the same order */
	for (size_t i = 0; i < c->ncur; i++) {
		struct procfs_iface *f = (struct procfs_iface *)c->cur + i;

		if (!f->checked &&
		    (p->reclassify ||
		     (events < 0 && i == p->recheck % c->ncur)))
			iface_recheck(p, f, &s->nets[first + i]);
	}
	p->recheck++;
	if (p->reclassify)
		p->reclassify--;
	return 0;
}
