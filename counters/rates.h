/*
 * rates.h - turn two raw snapshots into the per-interval values that are
 * logged. Pure functions: no I/O, no clock reads (STYLE 5), so every rule
 * below is unit-tested with synthetic snapshots.
 *
 * Rules:
 * - A rate is delta / (cur->mono - prev->mono), the elapsed monotonic time.
 * - Counter wrap: a counter that went backwards wrapped at 2^32 when both
 *   values fit in 32 bits (or the device's counter_bits is 32); a 64-bit
 *   counter going backwards is a reset (device replaced): unknown (NAN).
 * - An instance present in cur but not prev gets no values this interval
 *   (it is logged from the next sample on); one in prev but not cur is
 *   simply absent from the result (the collector writes unknowns for it).
 * - Percentages are shares of the elapsed ticks (CPU) or of elapsed time
 *   (disk busy), clamped to 0..100.
 * - Gauges (Available Bytes, Cache Bytes, queue length, bandwidth) are the
 *   value read at cur.
 * - CPU tick fields never wrap (64-bit); one going backwards (iowait may,
 *   per proc(5)) counts as 0. A tick field that is SRC_NA counts as 0,
 *   except user/system/idle (CPU unknown) and iowait (% IOWait unknown).
 * - LogicalDisk(_Total) sums the in_total disks present in both snapshots
 *   (% Disk Time is their mean busy share, sec/Transfer total ms / total
 *   requests); it exists only when there is at least one such disk.
 *   Network Interface(_Total) sums the non-loopback interfaces (bandwidth:
 *   sum of known speeds, NAN if none); it exists only when there is at
 *   least one. A _Total counter is NAN when any member's value is NAN.
 * - Order in the sample: Processor (_Total first, then as cur lists CPUs),
 *   LogicalDisk (_Total first), Memory (""), Network Interface (_Total
 *   first), System (""), Pressure, TCP, then NFS Client, CIFS Share,
 *   Tape, FC Port as cur lists them. Memory and System are always present.
 * counters/README.md holds every definition with its sar equivalent.
 */
#ifndef PERFLOG_RATES_H
#define PERFLOG_RATES_H

#include <stddef.h>
#include <stdint.h>

#include "catalog.h"
#include "../process/process.h"
#include "../sources/source.h"

/* Values of one object instance; v[] is indexed by counter_def.index and
 * NAN means unknown. instance is "" for Memory and System. */
struct instance_values {
	enum counter_object object;
	char instance[SRC_NAME_MAX];
	double v[CATALOG_MAX_PER_OBJECT];
};

/* One sample: every instance's values for one interval. */
struct sample {
	struct instance_values *inst;
	size_t n, cap;
};

/* Delta of a cumulative counter, handling 32-bit wrap as described above.
 * Returns 0 and sets *delta, or -1 when the counter was reset or either
 * value is SRC_NA. bits is 32 or 64. */
int rates_delta(uint64_t prev, uint64_t cur, int bits, uint64_t *delta);

/* A pressure-stall total (microseconds, u64) over dt seconds as a share
 * of the time, 0..100, as sar -q PSI: NAN when either is SRC_NA or the
 * total went back (a reset). The system's Pressure and a cgroup's. */
double rates_stalled_pct(uint64_t prev, uint64_t cur, double dt);

/* Compute every counter of the catalog (except Process: rates_process)
 * from prev to cur into out (which is emptied first). Returns 0, or -1 when out of memory or
 * when cur is not later than prev. */
int rates_compute(const struct raw_snapshot *prev,
		  const struct raw_snapshot *cur, struct sample *out);

/* Where backups land (rates_targets.c): the NFS Client, CIFS Share, Tape
 * and FC Port instances of cur that prev has too, appended to out (by
 * rates_compute; exposed for tests). Formulas in counters/README.md
 * "Where backups land". -1 when out of memory. */
int rates_targets(const struct raw_snapshot *prev,
		  const struct raw_snapshot *cur, double dt, struct sample *out);

/* The Process object of a watched tree from two of its reads (process.h):
 * % Processor Time = 100 * CPU time delta / dt (100 per busy CPU, so it
 * may exceed 100, as perfmon's), IO Read/Write Bytes/sec = byte deltas /
 * dt, Working Set = cur's rss. Unknown (NAN) without a previous read, when
 * the root is gone, when a sum went down (work left the books), and for
 * the bytes when exit records were lost (cur->io_lost). The tree's work
 * before it began and after it ended is none at all: rates_process_idle
 * (0 everywhere) is what the collector logs for those parts of a row. */
/* A tree's CPU can never grow faster than ncpus CPUs' worth (ncpus 0:
 * unknown, nothing done). When exit records were read late (a collector
 * behind them), an interval's sum holds work of earlier intervals: the
 * rows already written cannot take it back, so cur->cpu_us is lowered to
 * what the interval can hold and the rest is carried into the rows that
 * follow (the next delta starts from the lowered total). Call it before
 * rates_process, and keep cur as the next prev. Returns the microseconds
 * carried. (At 65,000 exits/s and -i 1 a late catch-up read 330% in two
 * rows of a 2-CPU host.) */
uint64_t rates_process_carry(const struct proc_raw *prev,
			     struct proc_raw *cur, size_t ncpus);

void rates_process(const struct proc_raw *prev, const struct proc_raw *cur,
		   struct instance_values *out);
void rates_process_idle(struct instance_values *out);

/* The command's cgroup (process/cgstat.h) from prev to cur into the
 * Process counters of iv: the six % ... Stalled Time (0..100 of the interval, NAN where a file was not
 * read at both ends or a total went back) and % Throttled Time (NAN when
 * unknown, or when the quota group changed between the reads). */
void rates_cgroup(const struct cgstat_raw *prev, const struct cgstat_raw *cur,
		  struct instance_values *iv);

/* Find an instance in a sample, or NULL. */
struct instance_values *sample_find(const struct sample *s,
				    enum counter_object obj,
				    const char *instance);
/* Append an instance (all values NAN); NULL when out of memory. */
struct instance_values *sample_add(struct sample *s, enum counter_object obj,
				   const char *instance);
void sample_reset(struct sample *s);
void sample_free(struct sample *s);

#endif
