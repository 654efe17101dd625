/*
 * workload.h - the reference backup of `perflog workload`, after the 1997
 * ADSM kit's perfcfg/perf (seeds/adsm-perf-testing.txt sections 2 and 7):
 * four standard file sets, each "backed up" by reading its files and
 * sending them over a loopback TCP connection to a receiver that writes
 * them to a target directory with fsync. Anyone can run it on two systems
 * and compare; the KB/sec it reports per set are what `perflog estimate`
 * takes as its rates.
 *
 *   set      files     size   (perfcfg's subdirectories)
 *   1m1k      1024     1 KB
 *   10m10k    1024    10 KB
 *   25m100k    256   100 KB
 *   50m10m       5    10 MB
 *
 * File content comes from a xorshift PRNG (seeded per file): not all
 * zeros, not compressible, so compression or deduplication on the way can
 * not flatter the result.
 */
#ifndef PERFLOG_WORKLOAD_H
#define PERFLOG_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "../common/util.h"

struct workload_set {
	const char *name;	/* "1m1k": directory and session name */
	const char *title;	/* "1MB of 1KB files", as the seed's table */
	size_t count;		/* files at scale 1 */
	size_t size;		/* bytes per file */
};

#define WORKLOAD_NSETS 4
extern const struct workload_set workload_sets[WORKLOAD_NSETS];

/* Files in a set at a scale: ceil(count * scale), at least 1. */
size_t workload_count(const struct workload_set *set, double scale);

/* Create set's files under dir/NAME (created), flushed to disk and dropped
 * from the page cache so the backup reads them from the disk, as a real
 * backup of cold files would. 0 or -1 with e set. */
int workload_create(const char *dir, const struct workload_set *set,
		    size_t nfiles, struct perr *e);

struct workload_result {
	size_t files;
	uint64_t data_bytes;	/* file content sent */
	uint64_t wire_bytes;	/* everything sent: content and headers */
	double transfer_time;	/* seconds spent in send() */
	double elapsed;		/* seconds: first read to the receiver's
				 * last fsync acknowledged */
	double kb_per_sec;	/* data KB (1024) / elapsed: the seed's
				 * SUMMARY figure */
};

/* Back up src/NAME to target/NAME through a loopback TCP connection to a
 * receiver thread. 0 or -1 with e set. */
int workload_backup(const char *src, const char *target,
		    const struct workload_set *set,
		    struct workload_result *r, struct perr *e);

#endif
