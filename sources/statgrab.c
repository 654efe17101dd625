/*
 * statgrab.c - the portable counter source, through libstatgrab (see
 * source.h). It runs where procfs.c does not (AIX, Solaris, the BSDs) and
 * offers less: what libstatgrab does not report stays SRC_NA/NAN, and the
 * counters built on it are logged as unknown.
 *
 *   sg_get_cpu_stats_r          -> cpus[0] "_Total" (user, nice, system =
 *                                  kernel, idle, iowait), sys.ctxt
 *   sg_get_mem_stats_r          -> mem.cached
 *   sg_get_disk_io_stats_r      -> disks: rd/wr_sectors = bytes / 512
 *   sg_get_network_io_stats_r   -> nets: rx/tx bytes, packets, errors
 *   sg_get_network_iface_stats_r-> nets: speed_bps (speed * factor)
 *
 * Not used: sg_get_page_stats counts every page read from or written to
 * storage (Linux pgpgin/pgpgout), not swapping, so it must not feed
 * Pages/sec; pswpin/pswpout, page faults, MemAvailable, the run queue,
 * per-CPU times and disk operations, busy time and queue, interface drops
 * and TCP segments stay unknown, and Pressure is not offered.
 * libstatgrab folds irq and softirq neither into kernel nor anywhere else,
 * so irq/softirq/steal stay SRC_NA (rates.c counts missing ones as 0).
 */
#define _GNU_SOURCE
#include "source.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <statgrab.h>

struct statgrab {
	int is_linux;		/* /sys/block exists: partitions can be told */
	int kernel_bits;	/* from uname(2), 0 when unknown */
};

/* sg_init is process-wide; several readers share it. */
static int sg_users;

static const char *sg_message(void)
{
	return sg_str_error(sg_get_error());
}

struct statgrab *statgrab_open(struct perr *e)
{
	struct statgrab *g;
	struct stat st;
	struct utsname u;

	if (sg_users == 0 && sg_init(1) != SG_ERROR_NONE) {
		perr_set(e, "libstatgrab: unable to initialise: %s",
			 sg_message());
		return NULL;
	}
	g = calloc(1, sizeof(*g));
	if (!g) {
		if (sg_users == 0)
			sg_shutdown();
		perr_set(e, "out of memory");
		return NULL;
	}
	sg_users++;
	g->is_linux = stat("/sys/block", &st) == 0 && S_ISDIR(st.st_mode);
	/* other systems' counter widths are their own: unknown */
	if (g->is_linux && uname(&u) == 0)
		g->kernel_bits = source_kernel_bits(u.machine);
	return g;
}

void statgrab_close(struct statgrab *g)
{
	if (!g)
		return;
	free(g);
	if (--sg_users == 0)
		sg_shutdown();
}

static int has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The same whole-disk rule as procfs.c, as far as it can be applied
 * without /sys: virtual and stacked devices by name, and on Linux a
 * partition has no /sys/block entry. */
static int disk_in_total(const struct statgrab *g, const char *name)
{
	static const char *const virt[] = { "dm-", "md", "loop", "ram",
					    "zram" };
	char path[SRC_NAME_MAX + 16];
	struct stat st;

	for (size_t i = 0; i < sizeof(virt) / sizeof(virt[0]); i++)
		if (has_prefix(name, virt[i]))
			return 0;
	if (!g->is_linux)
		return 1;
	if (strchr(name, '/') || name[0] == '.')
		return 0;
	snprintf(path, sizeof(path), "/sys/block/%s", name);
	return stat(path, &st) == 0;
}

/* "lo" on Linux, "lo0" on the BSDs, Solaris and AIX. */
static int is_loopback(const char *name)
{
	if (!has_prefix(name, "lo"))
		return 0;
	for (const char *c = name + 2; *c; c++)
		if (!isdigit((unsigned char)*c))
			return 0;
	return 1;
}

static void read_cpu(struct raw_snapshot *s, int *ok)
{
	size_t n = 0;
	sg_cpu_stats *c = sg_get_cpu_stats_r(&n);
	struct cpu_raw *t;

	*ok = 0;
	if (!c || n < 1) {
		sg_free_cpu_stats(c);
		return;
	}
	t = snapshot_add_cpu(s);
	if (t) {
		strcpy(t->name, "_Total");
		t->user = c->user;
		t->nice = c->nice;
		t->system = c->kernel;
		t->idle = c->idle;
		t->iowait = c->iowait;
		s->sys.ctxt = c->context_switches;
		*ok = 1;
	}
	sg_free_cpu_stats(c);
}

static int read_disks(struct statgrab *g, struct raw_snapshot *s)
{
	size_t n = 0;
	sg_disk_io_stats *d = sg_get_disk_io_stats_r(&n);

	for (size_t i = 0; d && i < n; i++) {
		struct disk_raw *r;

		if (!d[i].disk_name ||
		    strlen(d[i].disk_name) >= SRC_NAME_MAX)
			continue;
		r = snapshot_add_disk(s);
		if (!r) {
			sg_free_disk_io_stats(d);
			return -1;
		}
		strcpy(r->name, d[i].disk_name);
		r->in_total = disk_in_total(g, r->name);
		/* libstatgrab reports bytes; the snapshot keeps 512-byte
		 * sectors as the kernel does */
		r->rd_sectors = d[i].read_bytes / 512;
		r->wr_sectors = d[i].write_bytes / 512;
	}
	sg_free_disk_io_stats(d);
	return 0;
}

static int read_nets(struct raw_snapshot *s)
{
	size_t n = 0, nf = 0;
	sg_network_io_stats *io = sg_get_network_io_stats_r(&n);
	sg_network_iface_stats *f = sg_get_network_iface_stats_r(&nf);
	int rc = 0;

	for (size_t i = 0; io && i < n; i++) {
		struct net_raw *r;

		if (!io[i].interface_name ||
		    strlen(io[i].interface_name) >= SRC_NAME_MAX)
			continue;
		r = snapshot_add_net(s);
		if (!r) {
			rc = -1;
			break;
		}
		strcpy(r->name, io[i].interface_name);
		r->rx_bytes = io[i].rx;
		r->tx_bytes = io[i].tx;
		r->rx_packets = io[i].ipackets;
		r->tx_packets = io[i].opackets;
		r->rx_errs = io[i].ierrors;
		r->tx_errs = io[i].oerrors;
		r->is_loopback = is_loopback(r->name);
		/* no stacking information here: only loopbacks are left
		 * out of _Total (counters/README.md) */
		r->in_total = !r->is_loopback;
		for (size_t j = 0; f && j < nf; j++) {
			if (!f[j].interface_name ||
			    strcmp(f[j].interface_name, r->name))
				continue;
			/* ethtool's SPEED_UNKNOWN (-1) arrives as 2^32-1;
			 * 0 means the driver does not say */
			if (f[j].speed > 0 && f[j].speed < UINT32_MAX &&
			    f[j].factor > 0)
				r->speed_bps = (double)f[j].speed *
					       (double)f[j].factor;
			break;
		}
	}
	sg_free_network_io_stats(io);
	sg_free_network_iface_stats(f);
	return rc;
}

int statgrab_read(struct statgrab *g, struct raw_snapshot *s, struct perr *e)
{
	sg_mem_stats *m;
	size_t n = 0;
	int ok;

	snapshot_reset(s);
	s->mono = util_monotonic();
	s->kernel_bits = g->kernel_bits;
	read_cpu(s, &ok);
	if (!ok)
		return perr_set(e, "libstatgrab: unable to read CPU times: %s",
				sg_message());
	m = sg_get_mem_stats_r(&n);
	if (m && n > 0)
		s->mem.cached = (double)m->cache;
	sg_free_mem_stats(m);
	if (read_disks(g, s) < 0 || read_nets(s) < 0)
		return perr_set(e, "out of memory");
	return 0;
}
