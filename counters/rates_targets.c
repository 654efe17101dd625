/*
 * rates_targets.c - where backups land, from two raw snapshots to the
 * logged values (rates.h rates_targets): NFS Client, CIFS Share, Tape and
 * FC Port. The definitions, with nfsiostat's, tapestat's and PCP's
 * equivalents, are in counters/README.md "Where backups land".
 *
 * The instance rules are the disks' (rates.h): matched by name, one new
 * in cur gets no values this interval, one gone from cur is absent; a
 * mount or drive replaced under the same name, or whose counters started
 * again, gives unknown (NAN) for that interval, never a delta across the
 * two (rates_device_deltas). Widths, from the kernel's types: mountstats
 * prints bytes, rtt, execute and bklog_u as u64 and ops, ntrans and sends
 * as unsigned long (the kernel's word); cifs/Stats prints bytes as u64
 * and SMBs and reconnects as atomic_t (32 bits, which wrap); other CIFS,
 * st and fc_host counters going back are resets (cifs/Stats is reset by
 * a write to it, st's are atomic64, fc_host's u64 are reset by
 * reset_statistics).
 */
#include "rates.h"
#include "rates_int.h"

#include <math.h>
#include <string.h>

/* Time per operation: the summed time over the operations, 0 without
 * any, NAN from an unknown operand. */
static double per_op(double t, double ops)
{
	if (isnan(t) || isnan(ops))
		return NAN;
	return ops > 0 ? t / ops : 0.0;
}

/* ---- NFS Client ---- */

enum { NA_APP_RD, NA_APP_WR, NA_SRV_RD, NA_SRV_WR, NA_RD_OPS, NA_RD_TRANS,
       NA_RD_RTT, NA_RD_EXEC, NA_WR_OPS, NA_WR_TRANS, NA_WR_RTT, NA_WR_EXEC,
       NA_SENDS, NA_BKLOG, NA_COUNT };

static void nfs_values(const struct nfs_raw *p, const struct nfs_raw *c,
		       int word, double dt, double *v)
{
	const uint64_t pv[NA_COUNT] = { p->app_rd, p->app_wr, p->srv_rd,
		p->srv_wr, p->rd_ops, p->rd_trans, p->rd_rtt, p->rd_exec,
		p->wr_ops, p->wr_trans, p->wr_rtt, p->wr_exec, p->sends,
		p->bklog };
	const uint64_t cv[NA_COUNT] = { c->app_rd, c->app_wr, c->srv_rd,
		c->srv_wr, c->rd_ops, c->rd_trans, c->rd_rtt, c->rd_exec,
		c->wr_ops, c->wr_trans, c->wr_rtt, c->wr_exec, c->sends,
		c->bklog };
	const int bits[NA_COUNT] = { 64, 64, 64, 64, word, word, 64, 64,
		word, word, 64, 64, word, 64 };
	double d[NA_COUNT], retrans;

	rates_device_deltas(p->ident, c->ident, pv, cv, bits, NA_COUNT, d);
	/* remounted in between: "age:" started again */
	if (p->age != SRC_NA && c->age != SRC_NA && c->age < p->age)
		for (int k = 0; k < NA_COUNT; k++)
			d[k] = NAN;
	v[0] = d[NA_APP_RD] / dt;
	v[1] = d[NA_APP_WR] / dt;
	v[2] = d[NA_SRV_RD] / dt;
	v[3] = d[NA_SRV_WR] / dt;
	v[4] = d[NA_RD_OPS] / dt;
	v[5] = d[NA_WR_OPS] / dt;
	v[6] = per_op(d[NA_RD_RTT], d[NA_RD_OPS]);
	v[7] = per_op(d[NA_WR_RTT], d[NA_WR_OPS]);
	v[8] = per_op(d[NA_RD_EXEC], d[NA_RD_OPS]);
	v[9] = per_op(d[NA_WR_EXEC], d[NA_WR_OPS]);
	/* transmissions beyond one per operation; a call in flight at one
	 * end of the interval can make one interval's share negative */
	retrans = (d[NA_RD_TRANS] - d[NA_RD_OPS]) + (d[NA_WR_TRANS] - d[NA_WR_OPS]);
	v[10] = isnan(retrans) ? NAN : (retrans > 0 ? retrans : 0) / dt;
	/* bklog_u adds the backlog's length at each send: over the sends it
	 * is the mean length a request found (nfs-iostat divides it by the
	 * interval once more, which makes it depend on the interval) */
	v[11] = per_op(d[NA_BKLOG], d[NA_SENDS]);
}

static int do_nfs(const struct raw_snapshot *prev,
		  const struct raw_snapshot *cur, int word, double dt,
		  struct sample *out)
{
	for (size_t i = 0; i < cur->nnfs; i++) {
		const struct nfs_raw *c = &cur->nfs[i];
		long j = rates_match(prev->nfs, prev->nnfs, sizeof(*c),
				     c->name, i);
		struct instance_values *iv;

		if (j < 0)
			continue;
		iv = sample_add(out, OBJ_NFS, c->name);
		if (!iv)
			return -1;
		nfs_values(&prev->nfs[j], c, word, dt, iv->v);
	}
	return 0;
}

/* ---- CIFS Share ---- */

static int do_cifs(const struct raw_snapshot *prev,
		   const struct raw_snapshot *cur, double dt,
		   struct sample *out)
{
	/* the kernel's widths: bytes are u64 (%llu), SMBs and the
	 * reconnects atomic_t, kept by the parser as their 32-bit pattern:
	 * those wrap as 32 bits, and a wrap is not a reset */
	static const int bits[4] = { 64, 64, 32, 32 };

	for (size_t i = 0; i < cur->ncifs; i++) {
		const struct cifs_raw *c = &cur->cifs[i], *p;
		long j = rates_match(prev->cifs, prev->ncifs, sizeof(*c),
				     c->name, i);
		struct instance_values *iv;
		double d[4];

		if (j < 0)
			continue;
		p = &prev->cifs[j];
		iv = sample_add(out, OBJ_CIFS, c->name);
		if (!iv)
			return -1;
		{
			const uint64_t pv[4] = { p->rd_bytes, p->wr_bytes,
						 p->smbs, p->reconnects };
			const uint64_t cv[4] = { c->rd_bytes, c->wr_bytes,
						 c->smbs, c->reconnects };

			/* every counter of the file is reset together by a
			 * write to it: bytes going back, or two counters at
			 * once, are that, not a wrap (rates_device_deltas) */
			rates_device_deltas(0, 0, pv, cv, bits, 4, d);
		}
		iv->v[0] = d[0] / dt;
		iv->v[1] = d[1] / dt;
		iv->v[2] = d[2] / dt;
		iv->v[3] = d[3];
	}
	return 0;
}

/* ---- Tape ---- */

enum { TA_RDB, TA_WRB, TA_RD, TA_WR, TA_RDNS, TA_WRNS, TA_IONS, TA_RESID,
       TA_OTHER, TA_COUNT };

static void tape_values(const struct tape_raw *p, const struct tape_raw *c,
			double dt, double *v)
{
	const uint64_t pv[TA_COUNT] = { p->rd_bytes, p->wr_bytes, p->rd_cnt,
		p->wr_cnt, p->rd_ns, p->wr_ns, p->io_ns, p->resid,
		p->other_cnt };
	const uint64_t cv[TA_COUNT] = { c->rd_bytes, c->wr_bytes, c->rd_cnt,
		c->wr_cnt, c->rd_ns, c->wr_ns, c->io_ns, c->resid,
		c->other_cnt };
	int bits[TA_COUNT];
	double d[TA_COUNT];

	for (int k = 0; k < TA_COUNT; k++)
		bits[k] = 64;
	rates_device_deltas(0, 0, pv, cv, bits, TA_COUNT, d);
	v[0] = d[TA_RDB] / dt;
	v[1] = d[TA_WRB] / dt;
	v[2] = d[TA_RD] / dt;
	v[3] = d[TA_WR] / dt;
	/* tapestat: 100 * ns / (interval in ns), without its truncation to
	 * an integer; clamped to 100 (tapestat lets it reach 999) */
	v[4] = rates_clamp_pct(100.0 * d[TA_RDNS] / (dt * 1e9));
	v[5] = rates_clamp_pct(100.0 * d[TA_WRNS] / (dt * 1e9));
	v[6] = rates_clamp_pct(100.0 * d[TA_IONS] / (dt * 1e9));
	v[7] = c->in_flight;
	v[8] = d[TA_RESID] / dt;
	v[9] = d[TA_OTHER] / dt;
}

static int do_tapes(const struct raw_snapshot *prev,
		    const struct raw_snapshot *cur, double dt,
		    struct sample *out)
{
	for (size_t i = 0; i < cur->ntapes; i++) {
		const struct tape_raw *c = &cur->tapes[i];
		long j = rates_match(prev->tapes, prev->ntapes, sizeof(*c),
				     c->name, i);
		struct instance_values *iv;

		if (j < 0)
			continue;
		iv = sample_add(out, OBJ_TAPE, c->name);
		if (!iv)
			return -1;
		tape_values(&prev->tapes[j], c, dt, iv->v);
	}
	return 0;
}

/* ---- FC Port ---- */

enum { FA_RXW, FA_TXW, FA_RXF, FA_TXF, FA_ERR, FA_CRC, FA_LINK, FA_COUNT };

static void fc_values(const struct fc_raw *p, const struct fc_raw *c,
		      double dt, double *v)
{
	const uint64_t pv[FA_COUNT] = { p->rx_words, p->tx_words, p->rx_frames,
		p->tx_frames, p->error_frames, p->invalid_crc,
		p->link_failures };
	const uint64_t cv[FA_COUNT] = { c->rx_words, c->tx_words, c->rx_frames,
		c->tx_frames, c->error_frames, c->invalid_crc,
		c->link_failures };
	int bits[FA_COUNT];
	double d[FA_COUNT], err;

	for (int k = 0; k < FA_COUNT; k++)
		bits[k] = 64;
	rates_device_deltas(0, 0, pv, cv, bits, FA_COUNT, d);
	/* the statistics were reset (reset_statistics) in between */
	if (p->since_reset != SRC_NA && c->since_reset != SRC_NA &&
	    c->since_reset < p->since_reset)
		for (int k = 0; k < FA_COUNT; k++)
			d[k] = NAN;
	v[0] = d[FA_RXW] * 4.0 / dt;
	v[1] = d[FA_TXW] * 4.0 / dt;
	v[2] = d[FA_RXF] / dt;
	v[3] = d[FA_TXF] / dt;
	/* a driver may keep one of the two error counts only (a reset
	 * has made both NAN above) */
	if (isnan(d[FA_ERR]) && isnan(d[FA_CRC]))
		err = NAN;
	else
		err = (isnan(d[FA_ERR]) ? 0 : d[FA_ERR]) +
		      (isnan(d[FA_CRC]) ? 0 : d[FA_CRC]);
	v[4] = err / dt;
	v[5] = d[FA_LINK];
}

static int do_fc(const struct raw_snapshot *prev,
		 const struct raw_snapshot *cur, double dt, struct sample *out)
{
	for (size_t i = 0; i < cur->nfcs; i++) {
		const struct fc_raw *c = &cur->fcs[i];
		long j = rates_match(prev->fcs, prev->nfcs, sizeof(*c),
				     c->name, i);
		struct instance_values *iv;

		if (j < 0)
			continue;
		iv = sample_add(out, OBJ_FC, c->name);
		if (!iv)
			return -1;
		fc_values(&prev->fcs[j], c, dt, iv->v);
	}
	return 0;
}

int rates_targets(const struct raw_snapshot *prev,
		  const struct raw_snapshot *cur, double dt, struct sample *out)
{
	int word = prev->kernel_bits == cur->kernel_bits ? cur->kernel_bits : 0;

	if (do_nfs(prev, cur, word, dt, out) < 0 ||
	    do_cifs(prev, cur, dt, out) < 0 || do_tapes(prev, cur, dt, out) < 0 ||
	    do_fc(prev, cur, dt, out) < 0)
		return -1;
	return 0;
}
