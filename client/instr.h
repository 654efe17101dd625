/*
 * instr.h - the IBM Storage Protect (TSM/ADSM) client instrumentation
 * report, as `dsmc ... -testflag=instrument:detail` prints it (seed
 * storage-protect-client-instrumentation.txt):
 *
 *   Thread: 2571  Elapsed time   746.666 sec
 *   Section      Actual (sec) Average(msec)  Frequency used
 *   ------------------------------------------------------------------
 *   Process Dirs         0.000           0.0              0
 *   File I/O           524.380          10.8          48346
 *   Data Verb           87.912           1.8          48345
 *   ...
 *   ------------------------------------------------------------------
 *
 * A report may hold one such table per thread and may be buried in other
 * output (the session's output-LABEL.log). The parser finds every table,
 * keeps each thread's sections, and is safe on any bytes (fuzzed): fixed
 * sizes, no pointer arithmetic past the text, every number checked.
 *
 * Each section belongs to a category the report reasons with (DESIGN:
 * "what held this backup back?"): time in File I/O is the client reading
 * its disk, Data Verb is sending to the server (network or server), the
 * transaction verbs wait on the server, Compute/CRC/Compression/Encryption
 * burn client CPU, Process Dirs/Solve Tree walk the file system.
 */
#ifndef PERFLOG_INSTR_H
#define PERFLOG_INSTR_H

#include <stddef.h>

#include "../common/util.h"

#define INSTR_MAX_SECTIONS 32
#define INSTR_MAX_THREADS 16

enum instr_category {
	INSTR_CAT_FILE_IO,	/* File I/O: reading/writing client files */
	INSTR_CAT_NETWORK,	/* Data Verb: sending data to the server */
	INSTR_CAT_SERVER,	/* Transaction, Begin/EndTxn, Confirm verbs */
	INSTR_CAT_CPU,		/* Compute, CRC, Compression, Encryption, Delta */
	INSTR_CAT_DIRS,		/* Process Dirs, Solve Tree: file system walk */
	INSTR_CAT_OTHER,	/* Other, Sleep, Thread Wait, unknown names */
	INSTR_CAT_COUNT
};

struct instr_section {
	char name[32];		/* "File I/O" (longer names are truncated) */
	double actual_s;	/* Actual (sec) */
	double average_ms;	/* Average(msec) */
	double frequency;	/* Frequency used */
	enum instr_category cat;
};

struct instr_thread {
	long id;		/* Thread: N, -1 when the table had no header */
	double elapsed_s;	/* Elapsed time; the sum of sections if absent */
	struct instr_section s[INSTR_MAX_SECTIONS];
	size_t n;
};

struct instr_report {
	struct instr_thread t[INSTR_MAX_THREADS];
	size_t n;
};

/* Parse every instrumentation table in text (len bytes, need not be
 * NUL-terminated). Returns the number of threads found (0: no report in
 * the text), or -1 with "NAME:LINE: why" in e when a table is malformed (a
 * row that is not "name actual average frequency", a negative or
 * non-finite number, more than INSTR_MAX_SECTIONS rows). Tables beyond
 * INSTR_MAX_THREADS are ignored. */
int instr_parse(const char *text, size_t len, const char *name,
		struct instr_report *out, struct perr *e);

/* Read and parse a file; same returns, errors name the file. */
int instr_parse_file(const char *path, struct instr_report *out,
		     struct perr *e);

/* The thread that moved the data: the one with the longest elapsed time
 * (ties: the most File I/O + Data Verb time). NULL when r is empty. */
const struct instr_thread *instr_main_thread(const struct instr_report *r);

/* Seconds a thread spent in each category (sum of its sections). */
void instr_category_times(const struct instr_thread *t,
			  double out[INSTR_CAT_COUNT]);

/* The category with the most time and its share (0..1) of the elapsed
 * time. Returns INSTR_CAT_COUNT when the thread has no time at all. */
enum instr_category instr_dominant(const struct instr_thread *t,
				   double *share);

/* "file I/O", "data verb (network or server)", ... */
const char *instr_category_name(enum instr_category c);

/* Category of a section name (case-insensitive, spaces significant). */
enum instr_category instr_classify(const char *section);

#endif
