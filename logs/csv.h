/*
 * csv.h - a log set as CSV (DESIGN.md "CSV export"):
 *
 *   time,\\HOST\Processor(_Total)\% Processor Time,\\HOST\Memory\Available Bytes
 *   2026-11-30 04:50:15,12.5,1234567890
 *   2026-11-30 04:50:20,,1234500000
 *
 * One column per counter in perflog.meta order; a row per interval, stamped
 * with the END of the interval it averages (logset.h); time UTC as
 * YYYY-MM-DD HH:MM:SS, which Excel and LibreOffice read as a date (ISO's
 * T and Z kept it text in Excel);
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

/* The form of the rows. CSV_PLAIN: the above. CSV_PDH: relog's own
 * (relog -f csv, PDH-CSV 4.0), which perfmon, relog and PAL open:
 *
 *   "(PDH-CSV 4.0) (Coordinated Universal Time)(0)","\\HOST\Memory\Available Bytes","\\HOST\Memory\Available MBytes"
 *   "11/30/2026 04:50:15.000","1234567890","1177.4"
 *   "11/30/2026 04:50:20.000"," "," "
 *
 * every cell quoted (quotes doubled), the zone UTC with bias 0 (so the
 * times are UTC), MM/DD/YYYY HH:MM:SS.mmm, " " for no value, CRLF line
 * ends. Its columns are named as Windows names them, so that PAL's
 * threshold files (QuickSystemOverview.xml) find theirs: LogicalDisk (a
 * block device) as PhysicalDisk, its % Disk Time as % Idle Time (100
 * less it), and beside the counters the ones PAL reads that perflog has
 * as parts: Memory\Available MBytes, PhysicalDisk(*)\Disk Bytes/sec and
 * Disk Transfers/sec. `perflog import` reads it back (import/perfmon.c),
 * as it reads the plain form. */
enum csv_form { CSV_PLAIN, CSV_PDH };

/* csv_export_columns in the given form. */
int csv_export_form(struct logset *ls, FILE *f, const char *name,
		    time_t from, time_t to, const size_t *cols, size_t ncols,
		    enum csv_form form, struct perr *e);

#endif
