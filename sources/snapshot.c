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
	s->nnfs = s->ncifs = s->ntapes = s->nfcs = 0;
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
	free(s->nfs);
	free(s->cifs);
	free(s->tapes);
	free(s->fcs);
	s->cpus = NULL;
	s->disks = NULL;
	s->nets = NULL;
	s->nfs = NULL;
	s->cifs = NULL;
	s->tapes = NULL;
	s->fcs = NULL;
	s->cap_cpus = s->cap_disks = s->cap_nets = 0;
	s->cap_nfs = s->cap_cifs = s->cap_tapes = s->cap_fcs = 0;
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

/* Every counter of a backup target's entry starts unknown: a line or
 * file the kernel did not print leaves it so. */
struct nfs_raw *snapshot_add_nfs(struct raw_snapshot *s)
{
	struct nfs_raw *m;

	if (util_grow(&s->nfs, &s->cap_nfs, s->nnfs + 1, sizeof(*m)) < 0)
		return NULL;
	m = &s->nfs[s->nnfs++];
	memset(m, 0, sizeof(*m));
	m->age = m->app_rd = m->app_wr = m->srv_rd = m->srv_wr = SRC_NA;
	m->rd_ops = m->rd_trans = m->rd_rtt = m->rd_exec = SRC_NA;
	m->wr_ops = m->wr_trans = m->wr_rtt = m->wr_exec = SRC_NA;
	m->sends = m->bklog = SRC_NA;
	return m;
}

struct cifs_raw *snapshot_add_cifs(struct raw_snapshot *s)
{
	struct cifs_raw *c;

	if (util_grow(&s->cifs, &s->cap_cifs, s->ncifs + 1, sizeof(*c)) < 0)
		return NULL;
	c = &s->cifs[s->ncifs++];
	memset(c, 0, sizeof(*c));
	c->smbs = c->rd_bytes = c->wr_bytes = c->reconnects = SRC_NA;
	return c;
}

struct tape_raw *snapshot_add_tape(struct raw_snapshot *s)
{
	struct tape_raw *t;

	if (util_grow(&s->tapes, &s->cap_tapes, s->ntapes + 1, sizeof(*t)) < 0)
		return NULL;
	t = &s->tapes[s->ntapes++];
	memset(t, 0, sizeof(*t));
	t->rd_bytes = t->wr_bytes = t->rd_cnt = t->wr_cnt = SRC_NA;
	t->other_cnt = t->rd_ns = t->wr_ns = t->io_ns = t->resid = SRC_NA;
	t->in_flight = NAN;
	return t;
}

struct fc_raw *snapshot_add_fc(struct raw_snapshot *s)
{
	struct fc_raw *f;

	if (util_grow(&s->fcs, &s->cap_fcs, s->nfcs + 1, sizeof(*f)) < 0)
		return NULL;
	f = &s->fcs[s->nfcs++];
	memset(f, 0, sizeof(*f));
	f->since_reset = f->tx_words = f->rx_words = SRC_NA;
	f->tx_frames = f->rx_frames = SRC_NA;
	f->error_frames = f->invalid_crc = f->link_failures = SRC_NA;
	return f;
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
