/*
 * snapshot.c - storage of a raw_snapshot (see source.h), and the names
 * and sizes both backends share (source_psi_name, source_kernel_bits).
 *
 * A snapshot is reused from sample to sample: snapshot_reset only sets the
 * counts to zero, so once the arrays have grown to the host's number of
 * CPUs, disks and interfaces a read allocates nothing.
 */
#include "source.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void snapshot_reset(struct raw_snapshot *s)
{
	s->mono = 0.0;
	s->ncpus = s->ndisks = s->nnets = 0;
	s->mem.available = NAN;
	s->mem.cached = NAN;
	s->mem.pswpin = s->mem.pswpout = SRC_NA;
	s->mem.pgfault = s->mem.pgmajfault = SRC_NA;
	s->sys.ctxt = SRC_NA;
	s->sys.procs_running = NAN;
	s->kernel_bits = 0;
	for (int r = 0; r < PSI_COUNT; r++) {
		s->psi[r].present = 0;
		s->psi[r].some_us = s->psi[r].full_us = SRC_NA;
	}
	s->tcp.in_segs = s->tcp.out_segs = s->tcp.retrans_segs = SRC_NA;
}

void snapshot_free(struct raw_snapshot *s)
{
	free(s->cpus);
	free(s->disks);
	free(s->nets);
	s->cpus = NULL;
	s->disks = NULL;
	s->nets = NULL;
	s->cap_cpus = s->cap_disks = s->cap_nets = 0;
	snapshot_reset(s);
}

struct cpu_raw *snapshot_add_cpu(struct raw_snapshot *s)
{
	struct cpu_raw *c;

	if (util_grow(&s->cpus, &s->cap_cpus, s->ncpus + 1, sizeof(*c)) < 0)
		return NULL;
	c = &s->cpus[s->ncpus++];
	memset(c, 0, sizeof(*c));
	c->user = c->nice = c->system = c->idle = SRC_NA;
	c->iowait = c->irq = c->softirq = c->steal = SRC_NA;
	return c;
}

struct disk_raw *snapshot_add_disk(struct raw_snapshot *s)
{
	struct disk_raw *d;

	if (util_grow(&s->disks, &s->cap_disks, s->ndisks + 1, sizeof(*d)) < 0)
		return NULL;
	d = &s->disks[s->ndisks++];
	memset(d, 0, sizeof(*d));
	d->rd_ios = d->rd_sectors = d->rd_ticks = SRC_NA;
	d->wr_ios = d->wr_sectors = d->wr_ticks = SRC_NA;
	d->io_ticks = d->time_in_queue = SRC_NA;
	d->in_flight = NAN;
	return d;
}

struct net_raw *snapshot_add_net(struct raw_snapshot *s)
{
	struct net_raw *n;

	if (util_grow(&s->nets, &s->cap_nets, s->nnets + 1, sizeof(*n)) < 0)
		return NULL;
	n = &s->nets[s->nnets++];
	memset(n, 0, sizeof(*n));
	n->rx_bytes = n->tx_bytes = n->rx_packets = n->tx_packets = SRC_NA;
	n->rx_errs = n->tx_errs = n->rx_drop = n->tx_drop = SRC_NA;
	n->speed_bps = NAN;
	return n;
}

const struct disk_raw *snapshot_find_disk(const struct raw_snapshot *s,
					  const char *name)
{
	for (size_t i = 0; i < s->ndisks; i++)
		if (strcmp(s->disks[i].name, name) == 0)
			return &s->disks[i];
	return NULL;
}

const struct net_raw *snapshot_find_net(const struct raw_snapshot *s,
					const char *name)
{
	for (size_t i = 0; i < s->nnets; i++)
		if (strcmp(s->nets[i].name, name) == 0)
			return &s->nets[i];
	return NULL;
}

const char *source_psi_name(enum psi_resource r)
{
	static const char *const names[PSI_COUNT] = { "cpu", "io", "memory" };

	return (unsigned)r < PSI_COUNT ? names[r] : "";
}

int source_kernel_bits(const char *machine)
{
	/* 64-bit machines whose name does not say so */
	static const char *const wide[] = { "s390x", "alpha" };

	if (!machine || !*machine)
		return 0;
	if (strstr(machine, "64"))	/* x86_64 aarch64 ppc64le riscv64
					 * mips64 sparc64 loongarch64 ia64 */
		return 64;
	for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
		if (strcmp(machine, wide[i]) == 0)
			return 64;
	return 32;
}
