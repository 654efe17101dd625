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

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- deltas ---- */

int rates_delta(uint64_t prev, uint64_t cur, int bits, uint64_t *delta)
{
	if (prev == SRC_NA || cur == SRC_NA)
		return -1;
	if (cur >= prev) {
		*delta = cur - prev;
		return 0;
	}
	/* Backwards. A 32-bit counter (or one whose both values fit in 32
	 * bits) wrapped once; a genuinely 64-bit counter never wraps, so it
	 * was reset (device replaced, driver reloaded). */
	if (prev <= UINT32_MAX && (bits == 32 || cur <= UINT32_MAX)) {
		*delta = (UINT32_MAX - prev) + cur + 1;
		return 0;
	}
	return -1;
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

static double clamp_pct(double v)
{
	if (isnan(v))
		return v;
	return v < 0.0 ? 0.0 : v > 100.0 ? 100.0 : v;
}

/* ---- samples ---- */

struct instance_values *sample_find(const struct sample *s,
				    enum counter_object obj,
				    const char *instance)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->inst[i].object == obj &&
		    strcmp(s->inst[i].instance, instance) == 0)
			return &s->inst[i];
	return NULL;
}

struct instance_values *sample_add(struct sample *s, enum counter_object obj,
				   const char *instance)
{
	struct instance_values *iv;

	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 32;
		void *p = realloc(s->inst, ncap * sizeof(*s->inst));

		if (!p)
			return NULL;
		s->inst = p;
		s->cap = ncap;
	}
	iv = &s->inst[s->n++];
	iv->object = obj;
	util_strlcpy(iv->instance, instance, sizeof(iv->instance));
	for (int i = 0; i < CATALOG_MAX_PER_OBJECT; i++)
		iv->v[i] = NAN;
	return iv;
}

void sample_reset(struct sample *s)
{
	s->n = 0;
}

void sample_free(struct sample *s)
{
	free(s->inst);
	s->inst = NULL;
	s->n = s->cap = 0;
}

/* Index in arr (elements of size sz whose first member is the name) of the
 * entry called name, trying position hint first; -1 when absent. */
static long match(const void *arr, size_t n, size_t sz, const char *name,
		  size_t hint)
{
	const char *base = arr;

	if (hint < n && strcmp(base + hint * sz, name) == 0)
		return (long)hint;
	for (size_t i = 0; i < n; i++)
		if (strcmp(base + i * sz, name) == 0)
			return (long)i;
	return -1;
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
	v[0] = clamp_pct(100.0 * (elapsed - idle - iowait) / elapsed);
	v[1] = clamp_pct(100.0 * (user + nice) / elapsed);
	v[2] = clamp_pct(100.0 * (sys + irq + soft) / elapsed);
	v[3] = have_iowait ? clamp_pct(100.0 * iowait / elapsed) : NAN;
}

static int do_cpus(const struct raw_snapshot *prev,
		   const struct raw_snapshot *cur, struct sample *out)
{
	for (size_t i = 0; i < cur->ncpus; i++) {
		const struct cpu_raw *c = &cur->cpus[i];
		long j = match(prev->cpus, prev->ncpus, sizeof(*c), c->name, i);
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
};

static void disk_deltas(const struct disk_raw *p, const struct disk_raw *c,
			struct disk_delta *d)
{
	int bits = (p->counter_bits == 32 || c->counter_bits == 32) ? 32 : 64;

	d->rd_ios = ddelta(p->rd_ios, c->rd_ios, bits);
	d->wr_ios = ddelta(p->wr_ios, c->wr_ios, bits);
	d->rd_sec = ddelta(p->rd_sectors, c->rd_sectors, bits);
	d->wr_sec = ddelta(p->wr_sectors, c->wr_sectors, bits);
	d->rd_ticks = ddelta(p->rd_ticks, c->rd_ticks, bits);
	d->wr_ticks = ddelta(p->wr_ticks, c->wr_ticks, bits);
	d->busy = ddelta(p->io_ticks, c->io_ticks, bits);
	d->queue = ddelta(p->time_in_queue, c->time_in_queue, bits);
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
	v[0] = clamp_pct(100.0 * d->busy / (1000.0 * dt));
	v[1] = d->rd_sec * 512.0 / dt;
	v[2] = d->wr_sec * 512.0 / dt;
	v[3] = d->rd_ios / dt;
	v[4] = d->wr_ios / dt;
	v[5] = sec_per_xfer(d->rd_ticks + d->wr_ticks, d->rd_ios + d->wr_ios);
	v[6] = d->queue / (1000.0 * dt);
}

static int do_disks(const struct raw_snapshot *prev,
		    const struct raw_snapshot *cur, double dt,
		    struct sample *out)
{
	struct disk_delta sum = { 0 };
	double busy_pct = 0;
	size_t total_at = out->n, members = 0;
	struct instance_values *iv;

	if (!sample_add(out, OBJ_LOGICALDISK, "_Total"))
		return -1;
	for (size_t i = 0; i < cur->ndisks; i++) {
		const struct disk_raw *c = &cur->disks[i];
		long j = match(prev->disks, prev->ndisks, sizeof(*c), c->name,
			       i);
		struct disk_delta d;

		if (j < 0)
			continue;
		disk_deltas(&prev->disks[j], c, &d);
		iv = sample_add(out, OBJ_LOGICALDISK, c->name);
		if (!iv)
			return -1;
		disk_values(&d, dt, iv->v);
		if (!c->in_total)
			continue;
		/* NAN in any member makes that total unknown: a sum over
		 * part of the disks would look like a real drop */
		members++;
		sum.rd_ios += d.rd_ios;
		sum.wr_ios += d.wr_ios;
		sum.rd_sec += d.rd_sec;
		sum.wr_sec += d.wr_sec;
		sum.rd_ticks += d.rd_ticks;
		sum.wr_ticks += d.wr_ticks;
		sum.queue += d.queue;
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
	iv->v[0] = clamp_pct(busy_pct / (double)members);
	return 0;
}

/* ---- Network Interface ---- */

static int do_nets(const struct raw_snapshot *prev,
		   const struct raw_snapshot *cur, double dt,
		   struct sample *out)
{
	double rx = 0, tx = 0, pk = 0, bw = 0;
	int any_bw = 0;
	size_t total_at = out->n, members = 0;
	struct instance_values *iv;

	if (!sample_add(out, OBJ_NETWORK, "_Total"))
		return -1;
	for (size_t i = 0; i < cur->nnets; i++) {
		const struct net_raw *c = &cur->nets[i];
		long j = match(prev->nets, prev->nnets, sizeof(*c), c->name, i);
		const struct net_raw *p;
		double drx, dtx, dpk;

		if (j < 0)
			continue;
		p = &prev->nets[j];
		drx = ddelta(p->rx_bytes, c->rx_bytes, 64);
		dtx = ddelta(p->tx_bytes, c->tx_bytes, 64);
		dpk = ddelta(p->rx_packets, c->rx_packets, 64) +
		      ddelta(p->tx_packets, c->tx_packets, 64);
		iv = sample_add(out, OBJ_NETWORK, c->name);
		if (!iv)
			return -1;
		iv->v[0] = (drx + dtx) / dt;
		iv->v[1] = drx / dt;
		iv->v[2] = dtx / dt;
		iv->v[3] = dpk / dt;
		iv->v[4] = c->speed_bps;
		if (c->is_loopback)
			continue;
		members++;
		rx += drx;
		tx += dtx;
		pk += dpk;
		if (!isnan(c->speed_bps)) {
			bw += c->speed_bps;
			any_bw = 1;
		}
	}
	if (members == 0) {
		sample_remove(out, total_at);
		return 0;
	}
	iv = &out->inst[total_at];
	iv->v[0] = (rx + tx) / dt;
	iv->v[1] = rx / dt;
	iv->v[2] = tx / dt;
	iv->v[3] = pk / dt;
	iv->v[4] = any_bw ? bw : NAN;
	return 0;
}

/* ---- Memory and System ---- */

static int do_memory(const struct raw_snapshot *prev,
		     const struct raw_snapshot *cur, double dt,
		     struct sample *out)
{
	const struct mem_raw *p = &prev->mem, *c = &cur->mem;
	struct instance_values *iv = sample_add(out, OBJ_MEMORY, "");
	double in, outp;

	if (!iv)
		return -1;
	in = ddelta(p->pswpin, c->pswpin, 64);
	outp = ddelta(p->pswpout, c->pswpout, 64);
	iv->v[0] = c->available;
	iv->v[1] = c->cached;
	iv->v[2] = (in + outp) / dt;
	iv->v[3] = ddelta(p->pgfault, c->pgfault, 64) / dt;
	iv->v[4] = in / dt;
	iv->v[5] = outp / dt;
	iv->v[6] = ddelta(p->pgmajfault, c->pgmajfault, 64) / dt;
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
	iv->v[1] = ddelta(prev->sys.ctxt, cur->sys.ctxt, 64) / dt;
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
	    do_system(prev, cur, dt, out) < 0)
		return -1;
	return 0;
}

/* ---- the Process object (a watched tree, process.h) ---- */

/* Index of a Process counter within its object: catalog.h keeps the table
 * in enum order, so a Process counter's index is its offset from the
 * first Process counter. */
#define PROC_INDEX(id) ((int)(id) - (int)CTR_PROC_PROCESSOR_TIME)

void rates_process(const struct proc_raw *prev, const struct proc_raw *cur,
		   struct instance_values *out)
{
	double cpu = NAN, rd = NAN, wr = NAN, ws = NAN;

	out->object = OBJ_PROCESS;
	if (cur && cur->nprocs > 0)
		ws = cur->rss_bytes;
	if (prev && cur && prev->nprocs > 0 && cur->nprocs > 0) {
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
		}
	}
	out->v[PROC_INDEX(CTR_PROC_PROCESSOR_TIME)] = cpu;
	out->v[PROC_INDEX(CTR_PROC_IO_READ)] = rd;
	out->v[PROC_INDEX(CTR_PROC_IO_WRITE)] = wr;
	out->v[PROC_INDEX(CTR_PROC_WORKING_SET)] = ws;
}

void rates_process_idle(struct instance_values *out)
{
	/* before a tree began and after it ended: no CPU, no bytes, no
	 * thread in any state */
	out->object = OBJ_PROCESS;
	for (int k = 0; k < catalog_objects[OBJ_PROCESS].ncounters; k++)
		out->v[k] = 0;
}
