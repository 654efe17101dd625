/*
 * summary.h - a backup client's end-of-run summary (IBM dsmc and its
 * ancestors), found in the output `perflog run` captured, kept as the
 * client printed each figure AND as a number.
 *
 * Two layouts are known (seeds/adsm-perf-testing.txt section 7 and
 * seeds/storage-protect-client-instrumentation.txt):
 *
 *   ADSM 2.1 (1997)                         Storage Protect (today)
 *   Total number of objects inspected: 1,024  Total number of objects inspected:   6,118
 *   Total number of objects backed up: 1,026  ...  backed up / updated / rebound /
 *   ... updated / rebound / deleted / failed       deleted / expired / failed / ...
 *   Total number of bytes transferred: 1,035.0 KB  Total number of bytes inspected: 7.31 GB
 *   Data transfer time: 0.37 sec            Total number of bytes transferred: 7.31 GB
 *   Data transfer rate: 2,797.29 KB/sec     Data transfer time:  68.76 sec
 *   Average file size: 1,028                Network data transfer rate: 111,532.44 KB/sec
 *   Elapsed processing time: 0:00:39        Aggregate data transfer rate: 29,927.27 KB/sec
 *                                           Objects compressed by: 0%
 *                                           Elapsed processing time: 00:04:16
 *
 * The parser looks for the labels anywhere in the text (case-insensitive,
 * at a word start, followed by ':'), so it also reads a summary whose
 * lines were joined (the seed's own copy is one long line), CRLF output,
 * and output interleaved with progress lines. A label seen a second time
 * starts the next summary: the seed's perf.bat ran dsmc four times into
 * one perfdata.txt, and all four are kept.
 *
 * Numbers: "," "." and "'" as separators, as NUMBERFORMAT 1, 2, 5 and 6
 * print them (1,000.00 1,000,00 1.000,00 1'000,00). The whole summary
 * decides the decimal point: the separator found with one or two digits
 * after it in the figures after the labels ("68,76 sec"), when only one
 * of the two is; then the other groups thousands ("111.532,44 KB/sec").
 * When none or both are found: the last of the two present is the
 * decimal point, and a lone "," followed by exactly three digits groups
 * thousands. A count has no decimals: its separators group ("objects
 * inspected: 12.345" is 12345). A number that fits none of this (a count
 * "12.3456") is kept as printed and its .num key says "unreadable",
 * never a wrong number. Units B KB MB GB TB PB (dsmc's are binary: 1 KB = 1024 B),
 * sec, KB/sec (MB/sec, B/sec accepted), %; H:MM:SS for elapsed time. A
 * figure with its unit missing takes the field's own unit; a value that
 * cannot be read (garbage, a wrong unit, over 48 characters) leaves the
 * field absent. The parser never fails on content.
 *
 * ---- Keys in an end marker (markers.h extras), a contract with the
 * report and `perflog estimate` ----
 *   client.KEY=PRINTED       as the client printed it ("7.31 GB", "00:04:16")
 *   client.KEY.num=NUMBER    the same in base units, "%.17g"-exact enough:
 *                            count, bytes, seconds, KB/sec (1024 B/s), or
 *                            percent, per the table below
 *   client.summaries=N       how many summaries the output held; the
 *                            client.KEY figures are the LAST one; when N > 1
 *                            every summary I (1..N) is also kept printed as
 *                            client.I.KEY=PRINTED
 * KEY (unit of .num):
 *   objects_inspected objects_backed_up objects_updated objects_rebound
 *   objects_deleted objects_expired objects_failed objects_encrypted
 *   objects_grew retries subfile_objects (counts)
 *   bytes_inspected bytes_transferred lanfree_bytes serverfree_bytes
 *   average_file_size (bytes)
 *   transfer_time elapsed (seconds)
 *   transfer_rate (ADSM's "Data transfer rate") network_rate
 *   aggregate_rate (KB/sec)
 *   compressed_by dedup_reduction reduction_ratio subfile_reduced (percent)
 */
#ifndef PERFLOG_SUMMARY_H
#define PERFLOG_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "../logs/markers.h"

enum summary_field {
	SUM_OBJECTS_INSPECTED,
	SUM_OBJECTS_BACKED_UP,
	SUM_OBJECTS_UPDATED,
	SUM_OBJECTS_REBOUND,
	SUM_OBJECTS_DELETED,
	SUM_OBJECTS_EXPIRED,
	SUM_OBJECTS_FAILED,
	SUM_OBJECTS_ENCRYPTED,
	SUM_OBJECTS_GREW,
	SUM_RETRIES,
	SUM_SUBFILE_OBJECTS,
	SUM_BYTES_INSPECTED,
	SUM_BYTES_TRANSFERRED,
	SUM_LANFREE_BYTES,
	SUM_SERVERFREE_BYTES,
	SUM_TRANSFER_TIME,
	SUM_TRANSFER_RATE,
	SUM_NETWORK_RATE,
	SUM_AGGREGATE_RATE,
	SUM_COMPRESSED_BY,
	SUM_DEDUP_REDUCTION,
	SUM_REDUCTION_RATIO,
	SUM_SUBFILE_REDUCED,
	SUM_ELAPSED,
	SUM_AVERAGE_FILE_SIZE,
	SUM_NFIELDS
};

enum summary_unit {
	SUMU_COUNT,	/* "1,024" */
	SUMU_BYTES,	/* "1,035.0 KB", "7.31 GB", "0  B"; binary units */
	SUMU_SECONDS,	/* "0.37 sec" */
	SUMU_KB_SEC,	/* "2,797.29 KB/sec" */
	SUMU_PERCENT,	/* "0%", "52.56%" */
	SUMU_HMS	/* "0:00:39", "00:04:16" -> seconds */
};

struct summary_field_def {
	enum summary_field field;
	const char *label;	/* as dsmc prints it, without the colon */
	const char *key;	/* marker key after "client." */
	enum summary_unit unit;
};

/* The known fields, in enum order (and dsmc's print order). */
extern const struct summary_field_def summary_fields[SUM_NFIELDS];

#define SUMMARY_PRINTED_MAX 48

struct summary_figure {
	int present;
	char printed[SUMMARY_PRINTED_MAX + 1];	/* as printed, trimmed */
	double value;		/* in the unit of its field (see above) */
};

struct summary {
	struct summary_figure f[SUM_NFIELDS];
	int nfigures;		/* fields present */
};

struct summary_list {
	struct summary *s;
	size_t n, cap;
};

/* Find every summary in text[0..len) (need not be NUL-terminated) and
 * append them to out (zero it first). Returns the number found, or -1 only
 * when out of memory. */
long summary_parse(const char *text, size_t len, struct summary_list *out);
/* The same for a file; -1 with e set when it cannot be read. */
long summary_parse_file(const char *path, struct summary_list *out,
			struct perr *e);
void summary_list_free(struct summary_list *l);

/* Parse one printed value for a field's unit (the parser's own rules);
 * returns 0 and the number, or -1. Exposed for tests and fuzzing. */
int summary_parse_value(const char *s, size_t len, enum summary_unit unit,
			double *out);

/* The marker extras for a list (see "Keys" above): a malloc'ed array of
 * malloc'ed "key=value" strings, count in *n. NULL with *n = 0 when the
 * list is empty or on out-of-memory. Free with summary_extras_free. */
char **summary_extras(const struct summary_list *l, size_t *n);
void summary_extras_free(char **x, size_t n);

/* Set a figure from a number, formatted the way ADSM's dsmc prints it
 * ("1,035.0 KB", "0.37 sec", "2,797.29 KB/sec", "0:00:39", "1,024"), for
 * the reference workload's own summaries. */
void summary_set(struct summary *s, enum summary_field f, double value);

/* Print one summary in dsmc's layout (label, colon, value aligned), only
 * the fields present, each as printed. */
void summary_print(FILE *out, const struct summary *s);

/*
 * For the report (`perflog report`, report/): print the backup
 * client figures an end marker carries, as the client printed them, one
 * "    Label:  value" line each in dsmc's order (indented four spaces).
 * When the session's output held several summaries (client.summaries > 1)
 * each is printed under a "summary I of N" heading, the last one last.
 * Prints nothing for a marker without client figures. Returns the number
 * of lines printed.
 */
int summary_print_session(FILE *out, const struct marker *end);

#endif
