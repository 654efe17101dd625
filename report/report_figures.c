/*
 * report_figures.c - the figures of one session (report.h): the counters
 * they read fetched once over the session, then resource by resource, as
 * the chart sets (counters/chartset.h) group them: the CPU total and the
 * busiest CPU of each interval, the busiest disk and interface by average
 * (or those the session used) (ranked as the viewer and the PNGs rank
 * them, logs/lookup.h), derived series such as read+write bytes and the
 * share of Current Bandwidth. Nothing here decides a verdict: the rules
 * are in report_rules.c.
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../counters/counters.h"
#include "../logs/lookup.h"

/* The counters the figures read; only these are fetched. Every counter
 * of the set was, before: a night's set holds a Process object for each
 * session's tree, so each session fetched every other session's too,
 * and 50 sessions of a day at 1 s took 84 s, 208 MB
 * (bench/report.sh). */
static const enum counter_id read_ids[] = {
	CTR_CPU_IOWAIT_TIME, CTR_PROC_PROCESSOR_TIME, CTR_DISK_READ_BYTES,
	CTR_DISK_WRITE_BYTES, CTR_DISK_READS, CTR_DISK_WRITES,
	CTR_DISK_SEC_PER_TRANSFER, CTR_MEM_AVAILABLE, CTR_MEM_PAGES,
	CTR_PSI_SOME, CTR_SYS_QUEUE_LENGTH, CTR_TCP_SEGS_RETRANS,
};

/* Whether the figures read counter id: read_ids, the CPU's, disk's and
 * network's rank counters and the network's bandwidth reference. */
static int figures_read(enum counter_id id)
{
	const struct chartset *net = &chartset_table[CHARTSET_NETWORK];
	const struct chart_series *cs = chartset_series(net, net->rank);

	if (id == chartset_table[CHARTSET_CPU].rank ||
	    id == chartset_table[CHARTSET_DISK].rank || id == net->rank ||
	    (cs && cs->has_ref && id == cs->ref))
		return 1;
	for (size_t k = 0; k < sizeof(read_ids) / sizeof(read_ids[0]); k++)
		if (id == read_ids[k])
			return 1;
	return 0;
}

/* One session's values: the counters the figures read (read_ids and
 * the network's bandwidth reference) fetched once over [from, to],
 * counter i in column col[i] (-1: not fetched), and two scratch rows. */
struct block {
	struct logset *ls;
	const struct logset_meta *m;
	time_t from, to;
	struct logset_series s;
	long *col;
	double *tmp, *tmp2;
};

/* Counter c's value in row (NAN: c < 0, or not fetched). */
static double at(const struct block *b, size_t row, long c)
{
	long col = c < 0 ? -1 : b->col[c];

	return col < 0 ? NAN : b->s.values[row * b->s.ncols + (size_t)col];
}

/* Statistics of counter c (-1: none; stats stay empty). */
static void stat_col(const struct block *b, long c, struct report_stat *st)
{
	long col = c < 0 ? -1 : b->col[c];

	if (col >= 0)
		report_stat_of(b->s.values + col, b->s.rows, b->s.ncols, st);
}

/* Mean of counter c over the session (NAN: none known, or c < 0). */
static double col_mean(const struct block *b, long c)
{
	struct report_stat st = { 0 };

	if (c < 0 || b->col[c] < 0)
		return NAN;
	stat_col(b, c, &st);
	return st.avg;
}

/* The busiest instance (not _Total) of counter id over the session among
 * those ok() accepts (all when ok is NULL), or -1: the first of the
 * instances as the viewer and the PNGs rank them (logs/lookup.h) whose
 * mean is known. */
static long busiest_of(const struct block *b, enum counter_id id,
		       int (*ok)(const struct block *, size_t))
{
	struct lookup_rank *r = malloc((b->m->ncounters + 1) * sizeof(*r));
	long n = r ? lookup_busiest_in(b->m, id, &b->s, b->col, r,
				       b->m->ncounters) : -1;
	long best = -1;

	for (long i = 0; i < n && best < 0; i++)
		if (!isnan(r[i].mean) && (!ok || ok(b, r[i].idx)))
			best = (long)r[i].idx;
	free(r);
	return best;
}

static long busiest(const struct block *b, enum counter_id id)
{
	return busiest_of(b, id, NULL);
}

/* A disk that moved data: an idle loop or ram device (or one whose busy
 * time ticks with nothing done) must not stand for the disk the backup
 * used. Without its byte and transfer columns it cannot be told: kept. */
static int disk_did_io(const struct block *b, size_t col)
{
	const char *d = b->m->counters[col].instance;
	const enum counter_id ids[] = { CTR_DISK_READ_BYTES,
		CTR_DISK_WRITE_BYTES, CTR_DISK_READS, CTR_DISK_WRITES };
	int known = 0;

	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		double a = col_mean(b, lookup_counter(b->m, ids[k], d));
		if (isnan(a))
			continue;
		known = 1;
		if (a > 0)
			return 1;
	}
	return !known;
}

static int is_loopback(const struct block *b, size_t col)
{
	return lookup_is_loopback(b->m->counters[col].instance);
}

static int not_loopback(const struct block *b, size_t col)
{
	return !is_loopback(b, col);
}

/* The busiest interface: a real one when it carried traffic (at least
 * 1 KiB/s and 1% of the loopback's), else the loopback (a client and
 * server on one host talk over lo; its background chatter is not what
 * the report is about when a NIC moved the backup). */
static long busiest_net(const struct block *b, enum counter_id id)
{
	long real = busiest_of(b, id, not_loopback);
	long lo = busiest_of(b, id, is_loopback);
	double r = col_mean(b, real), l = col_mean(b, lo);

	if (lo < 0 || isnan(l))
		return real;
	if (real >= 0 && !isnan(r) && r >= 1024 && r >= 0.01 * l)
		return real;
	return r > l ? real : lo;
}

/* CPU: the total, the busiest CPU of each interval, the CPU busiest on
 * average, the client's process tree. */
static void figures_cpu(const struct block *b, const struct chartset *set,
			struct report_figures *f)
{
	const struct logset_meta *m = b->m;
	const struct logset_series *s = &b->s;

	stat_col(b, lookup_counter(m, set->rank, "_Total"), &f->cpu);
	stat_col(b, lookup_counter(m, CTR_CPU_IOWAIT_TIME, "_Total"), &f->iowait);
	for (size_t r = 0; r < s->rows; r++)
		b->tmp[r] = NAN;
	for (size_t i = 0; i < m->ncounters; i++) {
		const struct logset_counter *k = &m->counters[i];
		if (!k->def || k->def->id != set->rank ||
		    !strcmp(k->instance, "_Total"))
			continue;
		f->ncpu++;
		for (size_t r = 0; r < s->rows; r++) {
			double v = at(b, r, (long)i);
			if (!isnan(v) && (isnan(b->tmp[r]) || v > b->tmp[r]))
				b->tmp[r] = v;
		}
	}
	report_stat_of(b->tmp, s->rows, 1, &f->cpu1);
	long c = busiest(b, set->rank);
	if (c >= 0)
		snprintf(f->cpu1_name, sizeof(f->cpu1_name), "Processor(%s)",
			 m->counters[c].instance);
	stat_col(b, busiest(b, CTR_PROC_PROCESSOR_TIME), &f->proc_cpu);
}

/* The disk the session's processes waited on (want: their disk edges'
 * most, issue 46) when logged, else the busiest that did I/O: busy,
 * bytes and transfers (reads + writes), service time, the average
 * transfer size. */
static void figures_disk(const struct block *b, const struct chartset *set,
			 struct report_figures *f, const char *want)
{
	const struct logset_meta *m = b->m;
	const struct logset_series *s = &b->s;
	long c = want && *want ? lookup_counter(m, set->rank, want) : -1;

	if (c < 0)
		c = busiest_of(b, set->rank, disk_did_io);

	if (c < 0)
		return;
	const char *d = m->counters[c].instance;
	long rb = lookup_counter(m, CTR_DISK_READ_BYTES, d);
	long wb = lookup_counter(m, CTR_DISK_WRITE_BYTES, d);
	long rd = lookup_counter(m, CTR_DISK_READS, d);
	long wr = lookup_counter(m, CTR_DISK_WRITES, d);
	double bsum = 0, xsum = 0;

	util_strlcpy(f->disk, d, sizeof(f->disk));
	stat_col(b, c, &f->disk_busy);
	for (size_t r = 0; r < s->rows; r++) {
		b->tmp[r] = at(b, r, rb) + at(b, r, wb);
		b->tmp2[r] = at(b, r, rd) + at(b, r, wr);
		if (!isnan(b->tmp[r]) && !isnan(b->tmp2[r])) {
			bsum += b->tmp[r];
			xsum += b->tmp2[r];
		}
	}
	report_stat_of(b->tmp, s->rows, 1, &f->disk_bytes);
	report_stat_of(b->tmp2, s->rows, 1, &f->disk_xfers);
	stat_col(b, lookup_counter(m, CTR_DISK_SEC_PER_TRANSFER, d),
		 &f->disk_service);
	if (xsum > 0)
		f->disk_xfer_size = bsum / xsum;
}

static void figures_memory(const struct block *b, struct report_figures *f)
{
	stat_col(b, lookup_counter(b->m, CTR_MEM_AVAILABLE, ""), &f->mem_avail);
	stat_col(b, lookup_counter(b->m, CTR_MEM_PAGES, ""), &f->pages);
}

/* The signals that see a limit no utilization shows: the pressure stalls
 * of the host, its run queue, TCP retransmissions. */
static void figures_signals(const struct block *b, struct report_figures *f)
{
	static const char *const psi[3] = { "cpu", "io", "memory" };

	for (int r = 0; r < 3; r++)
		stat_col(b, lookup_counter(b->m, CTR_PSI_SOME, psi[r]), &f->psi[r]);
	stat_col(b, lookup_counter(b->m, CTR_SYS_QUEUE_LENGTH, ""), &f->runq);
	stat_col(b, lookup_counter(b->m, CTR_TCP_SEGS_RETRANS, ""), &f->retrans);
}

/* The busiest interface and its share of its bandwidth (the reference
 * level its chart set draws it against). */
static void figures_network(const struct block *b, const struct chartset *set,
			    struct report_figures *f, const char *want)
{
	const struct logset_series *s = &b->s;
	const struct chart_series *cs = chartset_series(set, set->rank);
	/* the interface the session's connections used (issue 29), when
	 * logged: the busiest may be another program's */
	long c = want && *want ? lookup_counter(b->m, set->rank, want) : -1;

	if (c < 0)
		c = busiest_net(b, set->rank);

	if (c < 0)
		return;
	const char *n = b->m->counters[c].instance;
	long bw = cs && cs->has_ref ? lookup_counter(b->m, cs->ref, n) : -1;
	double bws = 0;
	size_t nbw = 0;

	util_strlcpy(f->net, n, sizeof(f->net));
	stat_col(b, c, &f->net_bytes);
	for (size_t r = 0; r < s->rows; r++) {
		double bv = at(b, r, bw);
		b->tmp[r] = NAN;
		if (!isnan(bv) && bv > 0) {
			bws += bv;
			nbw++;
			b->tmp[r] = at(b, r, c) * 8 / bv * 100;
		}
	}
	report_stat_of(b->tmp, s->rows, 1, &f->net_share);
	if (nbw)
		f->net_bandwidth = bws / (double)nbw;
}

int report_figures_of(struct logset *ls, time_t from, time_t to,
		      struct report_figures *f, struct perr *e)
{
	return report_figures_used(ls, from, to, NULL, NULL, f, e);
}

int report_figures_used(struct logset *ls, time_t from, time_t to,
			const char *net, const char *disk,
			struct report_figures *f, struct perr *e)
{
	struct block b = { .ls = ls, .m = logset_meta(ls), .from = from,
			   .to = to < from ? from : to };
	size_t *idx = malloc((b.m->ncounters ? b.m->ncounters : 1) * sizeof(*idx));
	int rc = -1;

	memset(f, 0, sizeof(*f));
	f->disk_xfer_size = f->mem_avail_ref = f->net_bandwidth = NAN;
	struct report_stat *all[] = { &f->cpu, &f->cpu1, &f->iowait, &f->proc_cpu,
		&f->disk_busy, &f->disk_bytes, &f->disk_xfers, &f->disk_service,
		&f->mem_avail, &f->pages, &f->net_bytes, &f->net_share,
		&f->psi[0], &f->psi[1], &f->psi[2], &f->runq, &f->retrans };
	for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++)
		report_stat_of(NULL, 0, 1, all[k]);
	f->step = b.m->interval;
	if (!idx)
		return perr_set(e, "out of memory");
	if (!b.m->ncounters) {
		free(idx);
		return 0;
	}
	b.col = malloc(b.m->ncounters * sizeof(*b.col));
	if (!b.col) {
		free(idx);
		return perr_set(e, "out of memory");
	}
	size_t n = 0;
	for (size_t i = 0; i < b.m->ncounters; i++) {
		const struct logset_counter *k = &b.m->counters[i];
		b.col[i] = -1;
		if (k->def && figures_read(k->def->id)) {
			b.col[i] = (long)n;
			idx[n++] = i;
		}
	}
	/* none read: the set's grid all the same, from its first counter */
	if (!n)
		idx[n++] = 0;
	if (logset_fetch(ls, idx, n, b.from, b.to, "AVERAGE", b.m->interval,
			 &b.s, e) < 0) {
		free(b.col);
		free(idx);
		return -1;
	}
	b.tmp = malloc((b.s.rows ? b.s.rows : 1) * sizeof(double));
	b.tmp2 = malloc((b.s.rows ? b.s.rows : 1) * sizeof(double));
	if (!b.tmp || !b.tmp2) {
		perr_set(e, "out of memory");
		goto out;
	}
	figures_cpu(&b, &chartset_table[CHARTSET_CPU], f);
	figures_disk(&b, &chartset_table[CHARTSET_DISK], f, disk);
	figures_memory(&b, f);
	figures_network(&b, &chartset_table[CHARTSET_NETWORK], f, net);
	figures_signals(&b, f);
	/* what the table rests on: the system figures' rows (a Process
	 * row the watch's own sample closed may stand alone) */
	const struct report_stat *sys[] = { &f->cpu, &f->iowait,
		&f->disk_busy, &f->mem_avail, &f->pages, &f->net_bytes };
	for (size_t k = 0; k < sizeof(sys) / sizeof(sys[0]); k++)
		if (sys[k]->n > f->rows)
			f->rows = sys[k]->n;
	rc = 0;
out:
	free(b.tmp);
	free(b.tmp2);
	free(b.col);
	free(idx);
	logset_series_free(&b.s);
	return rc;
}

/* The log's largest Available Bytes: the reference for "memory low". */
double report_mem_reference(struct logset *ls, time_t from, time_t to)
{
	const struct logset_meta *m = logset_meta(ls);
	long c = lookup_counter(m, CTR_MEM_AVAILABLE, "");
	struct logset_series s;
	struct report_stat st;
	struct perr e;
	size_t idx;

	if (c < 0 || to <= from)
		return NAN;
	idx = (size_t)c;
	if (logset_fetch(ls, &idx, 1, from, to, "AVERAGE", m->interval, &s,
			 &e) < 0)
		return NAN;
	report_stat_of(s.values, s.rows, 1, &st);
	logset_series_free(&s);
	return st.peak;
}

