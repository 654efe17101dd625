/*
 * rates.c - from two raw snapshots to the logged values (see rates.h).
 *
 *   prev, cur (raw cumulative counters)  ->  deltas  ->  per-second rates,
 *   shares of elapsed ticks/time, gauges at cur  ->  struct sample
 *
 * Instances are matched by name; the lookup first tries the same position
 * as in cur (the kernel lists devices in a stable order), so a sample of
 * hundreds of devices is linear. Every definition here is documented, with
 * its sar equivalent, in counters/README.md; keep the two in step.
 */
#include "rates.h"
#include "rates_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- deltas (the rules themselves: rates_delta.c) ---- */

/* The width of the counters the kernel keeps as unsigned long: its word
 * size, when both snapshots agree on it. */
static int word_bits(const struct raw_snapshot *p,
		     const struct raw_snapshot *c)
{
	return p->kernel_bits == c->kernel_bits ? c->kernel_bits : 0;
}


/* CPU ticks are 64-bit and never wrap, but the kernel documents that
 * iowait (and idle under NO_HZ) may step back a little: count it as 0
 * rather than as a 2^32 wrap, which would swamp the interval. */
static int tick_delta(uint64_t prev, uint64_t cur, double *d)
{
	if (prev == SRC_NA || cur == SRC_NA)
		return -1;
	*d = cur >= prev ? (double)(cur - prev) : 0.0;
	return 0;
}

/* A counter delta as a double, NAN when unknown. */
static double ddelta(uint64_t prev, uint64_t cur, int bits)
{
	uint64_t d;

	return rates_delta(prev, cur, bits, &d) == 0 ? (double)d : NAN;
}


/* Drop the instance at index at (a _Total placeholder that got no
 * members). */
static void sample_remove(struct sample *s, size_t at)
{
	memmove(&s->inst[at], &s->inst[at + 1],
		(s->n - at - 1) * sizeof(*s->inst));
	s->n--;
}

/* ---- Processor ---- */

static void cpu_values(const struct cpu_raw *p, const struct cpu_raw *c,
		       double *v)
{
	double user, nice, sys, idle, iowait, irq, soft, steal, elapsed;
	int have_iowait;

	if (tick_delta(p->user, c->user, &user) < 0 ||
	    tick_delta(p->system, c->system, &sys) < 0 ||
	    tick_delta(p->idle, c->idle, &idle) < 0)
		return;
	/* fields an older kernel or another source lacks count as 0 */
	if (tick_delta(p->nice, c->nice, &nice) < 0)
		nice = 0;
	have_iowait = tick_delta(p->iowait, c->iowait, &iowait) == 0;
	if (!have_iowait)
		iowait = 0;
	if (tick_delta(p->irq, c->irq, &irq) < 0)
		irq = 0;
	if (tick_delta(p->softirq, c->softirq, &soft) < 0)
		soft = 0;
	if (tick_delta(p->steal, c->steal, &steal) < 0)
		steal = 0;
	/* guest time is already inside user, so the 8 fields are the whole */
	elapsed = user + nice + sys + idle + iowait + irq + soft + steal;
	if (elapsed <= 0)
		return;
	v[0] = rates_clamp_pct(100.0 * (elapsed - idle - iowait) / elapsed);
	v[1] = rates_clamp_pct(100.0 * (user + nice) / elapsed);
	v[2] = rates_clamp_pct(100.0 * (sys + irq + soft) / elapsed);
	v[3] = have_iowait ? rates_clamp_pct(100.0 * iowait / elapsed) : NAN;
}

static int do_cpus(const struct raw_snapshot *prev,
		   const struct raw_snapshot *cur, struct sample *out)
{
	for (size_t i = 0; i < cur->ncpus; i++) {
		const struct cpu_raw *c = &cur->cpus[i];
		long j = rates_match(prev->cpus, prev->ncpus, sizeof(*c),
				     c->name, i);
		struct instance_values *iv;

		if (j < 0)
			continue;
		iv = sample_add(out, OBJ_PROCESSOR, c->name);
		if (!iv)
			return -1;
		cpu_values(&prev->cpus[j], c, iv->v);
	}
	return 0;
}

/* ---- LogicalDisk ---- */

struct disk_delta {
	double rd_ios, wr_ios, rd_sec, wr_sec, rd_ticks, wr_ticks, busy, queue;
	double in_flight;	/* the gauge at cur */
};

/* The kernel's types (block/genhd.c diskstats_show, every version since
 * 2.6): reads, writes and sectors are unsigned long, the kernel's word;
 * the four millisecond fields are printed as unsigned int and wrap at
 * 2^32 on every kernel (49.7 days of ms, sooner for weighted time). */
static void disk_deltas(const struct disk_raw *p, const struct disk_raw *c,
			int word, struct disk_delta *d)
{
	const uint64_t pv[8] = { p->rd_ios, p->wr_ios, p->rd_sectors,
		p->wr_sectors, p->rd_ticks, p->wr_ticks, p->io_ticks,
		p->time_in_queue };
	const uint64_t cv[8] = { c->rd_ios, c->wr_ios, c->rd_sectors,
		c->wr_sectors, c->rd_ticks, c->wr_ticks, c->io_ticks,
		c->time_in_queue };
	const int bits[8] = { word, word, word, word, 32, 32, 32, 32 };
	double x[8];

	rates_device_deltas(p->ident, c->ident, pv, cv, bits, 8, x);
	d->rd_ios = x[0];
	d->wr_ios = x[1];
	d->rd_sec = x[2];
	d->wr_sec = x[3];
	d->rd_ticks = x[4];
	d->wr_ticks = x[5];
	d->busy = x[6];
	d->queue = x[7];
	/* an in-flight count that went below zero in the kernel (seen with
	 * some drivers) is printed as a huge unsigned number */
	d->in_flight = c->in_flight < 2147483648.0 ? c->in_flight : NAN;
}

/* sec/transfer: total ms of the requests over their number, 0 when idle;
 * NAN propagates from any unknown operand. */
static double sec_per_xfer(double ticks, double ios)
{
	if (isnan(ticks) || isnan(ios))
		return NAN;
	return ios > 0 ? ticks / 1000.0 / ios : 0.0;
}

static void disk_values(const struct disk_delta *d, double dt, double *v)
{
	v[0] = rates_clamp_pct(100.0 * d->busy / (1000.0 * dt));
	v[1] = d->rd_sec * 512.0 / dt;
	v[2] = d->wr_sec * 512.0 / dt;
	v[3] = d->rd_ios / dt;
	v[4] = d->wr_ios / dt;
	v[5] = sec_per_xfer(d->rd_ticks + d->wr_ticks, d->rd_ios + d->wr_ios);
	v[6] = d->queue / (1000.0 * dt);
	v[7] = sec_per_xfer(d->rd_ticks, d->rd_ios);
	v[8] = sec_per_xfer(d->wr_ticks, d->wr_ios);
	v[9] = d->in_flight;
}

static void disk_add(struct disk_delta *sum, const struct disk_delta *d)
{
	sum->rd_ios += d->rd_ios;
	sum->wr_ios += d->wr_ios;
	sum->rd_sec += d->rd_sec;
	sum->wr_sec += d->wr_sec;
	sum->rd_ticks += d->rd_ticks;
	sum->wr_ticks += d->wr_ticks;
	sum->queue += d->queue;
	sum->in_flight += d->in_flight;
}

static int do_disks(const struct raw_snapshot *prev,
		    const struct raw_snapshot *cur, double dt,
		    struct sample *out)
{
	struct disk_delta sum = { 0 };
	double busy_pct = 0;
	size_t total_at = out->n, members = 0;
	int word = word_bits(prev, cur);
	struct instance_values *iv;

	if (!sample_add(out, OBJ_LOGICALDISK, "_Total"))
		return -1;
	for (size_t i = 0; i < cur->ndisks; i++) {
		const struct disk_raw *c = &cur->disks[i];
		long j = rates_match(prev->disks, prev->ndisks, sizeof(*c),
				     c->name, i);
		struct disk_delta d;

		if (j < 0)
			continue;
		disk_deltas(&prev->disks[j], c, word, &d);
		iv = sample_add(out, OBJ_LOGICALDISK, c->name);
		if (!iv)
			return -1;
		disk_values(&d, dt, iv->v);
		if (!c->in_total)
			continue;
		/* NAN in any member makes that total unknown: a sum over
		 * part of the disks would look like a real drop */
		members++;
		disk_add(&sum, &d);
		busy_pct += iv->v[0];
	}
	if (members == 0) {
		sample_remove(out, total_at);
		return 0;
	}
	iv = &out->inst[total_at];
	disk_values(&sum, dt, iv->v);
	/* busy is the mean of the member disks' busy shares, not a sum: two
	 * disks each 50% busy are not one disk 100% busy */
	iv->v[0] = rates_clamp_pct(busy_pct / (double)members);
	return 0;
}

/* ---- Network Interface ---- */

enum { NF_RXB, NF_TXB, NF_RXP, NF_TXP, NF_RXE, NF_TXE, NF_RXD, NF_TXD,
       NF_COUNT };

/* /proc/net/dev prints struct rtnl_link_stats64 (u64) since 2.6.35, but
 * on a 32-bit kernel a driver without ndo_get_stats64 keeps unsigned
 * long counters that wrap at 2^32: the kernel's word decides. */
static void net_deltas(const struct net_raw *p, const struct net_raw *c,
		       int word, double *d)
{
	const uint64_t pv[NF_COUNT] = { p->rx_bytes, p->tx_bytes,
		p->rx_packets, p->tx_packets, p->rx_errs, p->tx_errs,
		p->rx_drop, p->tx_drop };
	const uint64_t cv[NF_COUNT] = { c->rx_bytes, c->tx_bytes,
		c->rx_packets, c->tx_packets, c->rx_errs, c->tx_errs,
		c->rx_drop, c->tx_drop };
	int bits[NF_COUNT];

	for (int i = 0; i < NF_COUNT; i++)
		bits[i] = word;
	rates_device_deltas(p->ident, c->ident, pv, cv, bits, NF_COUNT, d);
}

static void net_values(const double *d, double bw, double dt, double *v)
{
	v[0] = (d[NF_RXB] + d[NF_TXB]) / dt;
	v[1] = d[NF_RXB] / dt;
	v[2] = d[NF_TXB] / dt;
	v[3] = (d[NF_RXP] + d[NF_TXP]) / dt;
	v[4] = bw;
	v[5] = d[NF_RXE] / dt;
	v[6] = d[NF_TXE] / dt;
	v[7] = d[NF_RXD] / dt;
	v[8] = d[NF_TXD] / dt;
}

static int do_nets(const struct raw_snapshot *prev,
		   const struct raw_snapshot *cur, double dt,
		   struct sample *out)
{
	double sum[NF_COUNT] = { 0 }, bw = 0;
	int any_bw = 0, word = word_bits(prev, cur);
	size_t total_at = out->n, members = 0;
	struct instance_values *iv;

	if (!sample_add(out, OBJ_NETWORK, "_Total"))
		return -1;
	for (size_t i = 0; i < cur->nnets; i++) {
		const struct net_raw *c = &cur->nets[i];
		long j = rates_match(prev->nets, prev->nnets, sizeof(*c),
				     c->name, i);
		double d[NF_COUNT];

		if (j < 0)
			continue;
		net_deltas(&prev->nets[j], c, word, d);
		iv = sample_add(out, OBJ_NETWORK, c->name);
		if (!iv)
			return -1;
		net_values(d, c->speed_bps, dt, iv->v);
		/* each byte on the wire once: no loopback, nothing stacked
		 * on or carried by another interface (source.h) */
		if (!c->in_total)
			continue;
		members++;
		for (int k = 0; k < NF_COUNT; k++)
			sum[k] += d[k];
		if (!isnan(c->speed_bps)) {
			bw += c->speed_bps;
			any_bw = 1;
		}
	}
	if (members == 0) {
		sample_remove(out, total_at);
		return 0;
	}
	net_values(sum, any_bw ? bw : NAN, dt, out->inst[total_at].v);
	return 0;
}

/* ---- Memory and System ---- */

static int do_memory(const struct raw_snapshot *prev,
		     const struct raw_snapshot *cur, double dt,
		     struct sample *out)
{
	const struct mem_raw *p = &prev->mem, *c = &cur->mem;
	struct instance_values *iv = sample_add(out, OBJ_MEMORY, "");
	int word = word_bits(prev, cur);
	double in, outp;

	if (!iv)
		return -1;
	/* /proc/vmstat: unsigned long, the kernel's word */
	in = ddelta(p->pswpin, c->pswpin, word);
	outp = ddelta(p->pswpout, c->pswpout, word);
	iv->v[0] = c->available;
	iv->v[1] = c->cached;
	iv->v[2] = (in + outp) / dt;
	iv->v[3] = ddelta(p->pgfault, c->pgfault, word) / dt;
	iv->v[4] = in / dt;
	iv->v[5] = outp / dt;
	iv->v[6] = ddelta(p->pgmajfault, c->pgmajfault, word) / dt;
	return 0;
}

static int do_system(const struct raw_snapshot *prev,
		     const struct raw_snapshot *cur, double dt,
		     struct sample *out)
{
	struct instance_values *iv = sample_add(out, OBJ_SYSTEM, "");
	double r = cur->sys.procs_running;

	if (!iv)
		return -1;
	/* the reader itself is running while it reads: sar -q does the
	 * same subtraction for runq-sz */
	iv->v[0] = isnan(r) ? NAN : (r > 1 ? r - 1 : 0);
	/* ctxt is printed from a u64 (nr_context_switches) */
	iv->v[1] = ddelta(prev->sys.ctxt, cur->sys.ctxt, 64) / dt;
	return 0;
}

/* ---- Pressure and TCP ---- */

double rates_stalled_pct(uint64_t prev, uint64_t cur, double dt)
{
	return rates_clamp_pct(ddelta(prev, cur, 64) / (dt * 1e4));
}

/* Stalled microseconds over elapsed microseconds, as sar -q PSI. The
 * totals are u64: going back is a reset (unknown). A resource the kernel
 * does not report (no PSI: before 4.20, psi=0) has no instance at all. */
static int do_pressure(const struct raw_snapshot *prev,
		       const struct raw_snapshot *cur, double dt,
		       struct sample *out)
{
	for (int r = 0; r < PSI_COUNT; r++) {
		const struct psi_raw *p = &prev->psi[r], *c = &cur->psi[r];
		struct instance_values *iv;

		if (!p->present || !c->present)
			continue;
		iv = sample_add(out, OBJ_PRESSURE,
				source_psi_name((enum psi_resource)r));
		if (!iv)
			return -1;
		iv->v[0] = rates_stalled_pct(p->some_us, c->some_us, dt);
		iv->v[1] = rates_stalled_pct(p->full_us, c->full_us, dt);
	}
	return 0;
}

/* /proc/net/snmp prints the Tcp MIB as unsigned long: the kernel's word. */
static int do_tcp(const struct raw_snapshot *prev,
		  const struct raw_snapshot *cur, double dt,
		  struct sample *out)
{
	const struct tcp_raw *p = &prev->tcp, *c = &cur->tcp;
	struct instance_values *iv = sample_add(out, OBJ_TCP, "");
	int word = word_bits(prev, cur);

	if (!iv)
		return -1;
	iv->v[0] = ddelta(p->out_segs, c->out_segs, word) / dt;
	iv->v[1] = ddelta(p->in_segs, c->in_segs, word) / dt;
	iv->v[2] = ddelta(p->retrans_segs, c->retrans_segs, word) / dt;
	return 0;
}

int rates_compute(const struct raw_snapshot *prev,
		  const struct raw_snapshot *cur, struct sample *out)
{
	double dt = cur->mono - prev->mono;

	sample_reset(out);
	if (!(dt > 0))
		return -1;
	if (do_cpus(prev, cur, out) < 0 || do_disks(prev, cur, dt, out) < 0 ||
	    do_memory(prev, cur, dt, out) < 0 || do_nets(prev, cur, dt, out) < 0 ||
	    do_system(prev, cur, dt, out) < 0 ||
	    do_pressure(prev, cur, dt, out) < 0 || do_tcp(prev, cur, dt, out) < 0 ||
	    rates_targets(prev, cur, dt, out) < 0)
		return -1;
	return 0;
}

/* ---- the Process object (a watched tree, process.h) ---- */

/* Index of a Process counter within its object: catalog.h keeps the table
 * in enum order, so a Process counter's index is its offset from the
 * first Process counter. */
#define PROC_INDEX(id) ((int)(id) - (int)CTR_PROC_PROCESSOR_TIME)

uint64_t rates_process_carry(const struct proc_raw *prev,
			     struct proc_raw *cur, size_t ncpus)
{
	double dt = cur->mono - prev->mono, room;

	if (!ncpus || dt <= 0 || cur->cpu_us <= prev->cpu_us ||
	    prev->nprocs <= 0 || cur->nprocs <= 0)
		return 0;
	room = (double)ncpus * dt * 1e6;
	if ((double)(cur->cpu_us - prev->cpu_us) <= room)
		return 0;
	{
		uint64_t keep = prev->cpu_us + (uint64_t)room;
		uint64_t over = cur->cpu_us - keep;

		cur->cpu_us = keep;
		return over;
	}
}

void rates_process(const struct proc_raw *prev, const struct proc_raw *cur,
		   struct instance_values *out)
{
	double cpu = NAN, rd = NAN, wr = NAN, ws = NAN, drd = NAN, dwr = NAN;

	out->object = OBJ_PROCESS;
	if (cur && (cur->nprocs > 0 || cur->rootless))
		ws = cur->rss_bytes;
	/* no process: the root is gone, unless the tree is rootless (a
	 * name= or unit tree, empty for now: its figures are still whole) */
	if (prev && cur && (prev->nprocs > 0 || prev->rootless) &&
	    (cur->nprocs > 0 || cur->rootless)) {
		double dt = cur->mono - prev->mono;

		if (dt > 0) {
			/* the sums only grow while the tree's work stays in
			 * its books; a drop means work left them (a member
			 * moved out of the cgroup): unknown */
			if (cur->cpu_us >= prev->cpu_us)
				cpu = 100.0 * (double)(cur->cpu_us - prev->cpu_us) /
				      (1e6 * dt);
			if (!cur->io_lost && cur->read_bytes >= prev->read_bytes)
				rd = (double)(cur->read_bytes - prev->read_bytes) / dt;
			if (!cur->io_lost && cur->write_bytes >= prev->write_bytes)
				wr = (double)(cur->write_bytes - prev->write_bytes) / dt;
			if (!cur->io_lost && cur->disk_read >= prev->disk_read)
				drd = (double)(cur->disk_read - prev->disk_read) / dt;
			if (!cur->io_lost && cur->disk_write >= prev->disk_write)
				dwr = (double)(cur->disk_write - prev->disk_write) / dt;
		}
	}
	out->v[PROC_INDEX(CTR_PROC_PROCESSOR_TIME)] = cpu;
	out->v[PROC_INDEX(CTR_PROC_IO_READ)] = rd;
	out->v[PROC_INDEX(CTR_PROC_IO_WRITE)] = wr;
	out->v[PROC_INDEX(CTR_PROC_WORKING_SET)] = ws;
	out->v[PROC_INDEX(CTR_PROC_DISK_READ)] = drd;
	out->v[PROC_INDEX(CTR_PROC_DISK_WRITE)] = dwr;
}

void rates_process_idle(struct instance_values *out)
{
	/* before a tree began and after it ended: no CPU, no bytes, no
	 * thread in any state */
	out->object = OBJ_PROCESS;
	for (int k = 0; k < catalog_objects[OBJ_PROCESS].ncounters; k++)
		out->v[k] = 0;
}
