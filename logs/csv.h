/*
 * csv.h - a log set as CSV, perfmon relog style (DESIGN.md "CSV export"):
 *
 *   time,\\HOST\Processor(_Total)\% Processor Time,\\HOST\Memory\Available Bytes
 *   2026-11-30T04:50:15Z,12.5,1234567890
 *   2026-11-30T04:50:20Z,,1234500000
 *
 * One column per counter in perflog.meta order; a row per interval, stamped
 * with the END of the interval it averages (logset.h); time in ISO 8601 UTC;
 * values with %.15g (exact for counts and bytes below 10^15); an empty cell for unknown. A field is quoted (RFC 4180,
 * quotes doubled) only when it holds a comma, a quote or a line break.
 */
#ifndef PERFLOG_CSV_H
#define PERFLOG_CSV_H

#include <stdio.h>
#include <time.h>

#include "../common/util.h"
#include "logset.h"

/* Write one CSV field to f, quoted only when it must be. */
void csv_field(FILE *f, const char *s);

/* Write the whole log set (rows ending in [from, to]; from = 0 / to = 0 mean
 * the set's start / its stop, or its last row for a set still being written
 * or killed) to f. name is what f is called in messages ("-" = stdout).
 * Returns 0, or -1 with e set (fetch failure, write failure). */
int csv_export(struct logset *ls, FILE *f, const char *name, time_t from,
	       time_t to, struct perr *e);

/* The same with only the counters cols[0..ncols) (indices into the
 * counter map, pattern.h chooses them), in that order. */
int csv_export_columns(struct logset *ls, FILE *f, const char *name,
		       time_t from, time_t to, const size_t *cols,
		       size_t ncols, struct perr *e);

/* The form of the rows. CSV_ISO: the above. CSV_PDH: relog's own
 * (relog -f csv, PDH-CSV 4.0), which perfmon, relog and PAL open:
 *
 *   "(PDH-CSV 4.0) (Coordinated Universal Time)(0)","\\HOST\Memory\Available Bytes"
 *   "11/30/2026 04:50:15.000","1234567890"
 *   "11/30/2026 04:50:20.000"," "
 *
 * every cell quoted (quotes doubled), the zone UTC with bias 0 (so the
 * times are UTC), MM/DD/YYYY HH:MM:SS.mmm, " " for no value, CRLF line
 * ends; `perflog import` reads it back (import/perfmon.c). */
enum csv_form { CSV_ISO, CSV_PDH };

/* csv_export_columns in the given form. */
int csv_export_form(struct logset *ls, FILE *f, const char *name,
		    time_t from, time_t to, const size_t *cols, size_t ncols,
		    enum csv_form form, struct perr *e);

#endif
