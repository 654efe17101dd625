/*
 * estimate.h - the arithmetic and the table of `perflog estimate`, the seed
 * kit's timest done properly (seeds/adsm-perf-testing.txt, section 8).
 *
 * Data flow: a walk (walk.h) or a listing (listing.h) fills a struct
 * estimate_dist, one file at a time; rates come from the command line
 * (estimate_parse_rate) or from a reference workload's log set
 * (estimate_rates_from_logset); estimate_compute turns both into a struct
 * estimate_result; estimate_print_table / estimate_print_csv write it.
 *
 * Size classes (1KB = 1024 bytes), the labelled boundaries of the seed:
 *   0  0..<1KB          size <  1024
 *   1  1KB..<10KB       1024  <= size < 10240
 *   2  10KB..<100KB     10240 <= size < 102400
 *   3  100KB and up     102400 <= size
 * The seed's own table disagrees with its labels (7908 files "0..< 1KB"
 * hold 12060126 bytes, an average of 1525 bytes; "1KB..< 10KB" averages
 * 19201), so its tool must have used other boundaries that it does not
 * state. We use the labels, which are what a reader of the table believes.
 *
 * The seed's arithmetic, recovered from its table and reproduced exactly:
 *   bytes/sec of a class = rate (KB/sec) x 1024
 *   time of a class      = floor(class bytes / bytes/sec)
 *   estimate             = sum of the class times
 *   average file size    = floor(total bytes / total files)
 *   average estimate     = floor(total bytes / bytes/sec of the class the
 *                          average file size falls in)
 * Rates may carry decimals (log sets measure e.g. 1368.19 KB/sec); they are
 * kept in thousandths of a KB/sec so that the divisions stay exact integer
 * arithmetic and integral rates give the seed's figures bit for bit.
 */
#ifndef PERFLOG_ESTIMATE_H
#define PERFLOG_ESTIMATE_H

#include <stdint.h>
#include <stdio.h>

#include "../common/util.h"

#define ESTIMATE_NCLASS 4

/* Largest rate accepted, in KB/sec (1 TB/sec): keeps every intermediate
 * product of estimate_compute within 64 bits. */
#define ESTIMATE_RATE_MAX_KBPS 1000000000ULL

/* The file-size distribution: per class, files and bytes. */
struct estimate_dist {
	uint64_t files[ESTIMATE_NCLASS];
	uint64_t bytes[ESTIMATE_NCLASS];
};

/* Rates in thousandths of a KB/sec ("26" -> 26000, "1368.19" -> 1368190). */
struct estimate_rates {
	uint64_t milli_kbps[ESTIMATE_NCLASS];
};

struct estimate_result {
	uint64_t total_files, total_bytes;
	uint64_t avg_size;		/* floor(bytes / files), 0 with no files */
	int avg_class;			/* class of avg_size */
	int have_rates;			/* 0: distribution only, no times */
	double bytes_per_sec[ESTIMATE_NCLASS];	/* rate x 1024 */
	uint64_t time_sec[ESTIMATE_NCLASS];
	uint64_t est_sec;		/* sum of time_sec */
	uint64_t est_avg_sec;		/* all bytes at the average's rate */
};

/* Class (0..3) of a file of the given size. */
int estimate_class(uint64_t size);

/* Label of a class as the seed prints it ("0..< 1KB"), and for CSV the
 * inclusive byte bounds (hi = UINT64_MAX for the last class). */
const char *estimate_class_label(int cls);
void estimate_class_bounds(int cls, uint64_t *lo, uint64_t *hi);

/* Count one file. Returns -1 when the class's or the total byte count
 * would exceed 2^64-1 (only a forged listing gets there); the
 * distribution is then unchanged. */
int estimate_add(struct estimate_dist *d, uint64_t size);

/* Parse a rate in KB/sec: a positive decimal number ("457", "1368.19",
 * "0.5"); more than three decimals are rounded to the nearest thousandth.
 * Rejects garbage, signs, exponents, zero and rates above
 * ESTIMATE_RATE_MAX_KBPS. Returns 0 or -1 with e set (naming the text). */
int estimate_parse_rate(const char *s, uint64_t *milli_kbps, struct perr *e);

/* Take the four rates from a log set of the reference workload (`perflog
 * workload`): DIR/markers.tsv has one session per file set of the seed,
 * "1m1k", "10m10k", "25m100k", "50m10m" (classes 0..3), and each session's
 * end marker carries workload.kb_per_sec=NNN.NN. When a set ran more than
 * once the last complete session counts. Errors name the log set and the
 * missing session or field. */
int estimate_rates_from_logset(const char *dir, struct estimate_rates *r,
			       struct perr *e);

/* The session names of estimate_rates_from_logset, by class. */
extern const char *const estimate_session_names[ESTIMATE_NCLASS];

/* Compute the table. rates may be NULL: distribution and totals only. */
void estimate_compute(const struct estimate_dist *d,
		      const struct estimate_rates *rates,
		      struct estimate_result *out);

/* "1 hours 5 mins 33 sec", the seed's wording (hours are not folded into
 * days). Returns buf. */
char *estimate_format_hms(char *buf, size_t n, uint64_t sec);

/* The seed's table, for people. Returns 0, or -1 when writing fails. */
int estimate_print_table(FILE *f, const struct estimate_dist *d,
			 const struct estimate_result *r);

/* The same figures as CSV (RFC 4180, one header line):
 *   range,min_bytes,max_bytes,files,bytes,kb_per_sec,bytes_per_sec,time_sec
 * one row per class, then "total" (time_sec = the estimate) and
 * "average file size" (min_bytes = max_bytes = the average, the rate of its
 * class, time_sec = the average-based estimate). Cells without a value
 * (no rates, the last class's max) are empty. */
int estimate_print_csv(FILE *f, const struct estimate_dist *d,
		       const struct estimate_rates *rates,
		       const struct estimate_result *r);

#endif
