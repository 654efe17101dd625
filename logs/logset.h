/*
 * logset.h - the log set on disk (DESIGN.md "The log set on disk"):
 *
 *   logs/HOST-YYYYmmddTHHMMSS/
 *     perflog.meta      metadata: format, host, OS, start/stop, interval,
 *                       retention, and the counter map (path -> file, DS)
 *     markers.tsv       markers, see markers.h
 *     OBJECT[-INST].rrd one RRD file per object instance, a DS per counter:
 *                       Processor-_Total.rrd, Processor-0.rrd,
 *                       LogicalDisk-sda.rrd, Memory.rrd, System.rrd,
 *                       "Network Interface-eth0" -> NetworkInterface-eth0.rrd
 *     .lock             flock()ed by the one collector writing the set
 *
 * perflog.meta is plain text, one "key<TAB>value" per line, '#' comments:
 *   format 1 | version | host | os | start (ISO 8601 UTC) | stop (absent
 *   while logging) | interval (s) | retention (s) | then one line per
 *   counter: "counter<TAB>Object(Instance)\Counter<TAB>FILE.rrd<TAB>DS".
 * It is rewritten atomically (temp file + rename) whenever it changes, so a
 * reader never sees half of it. Readers accept any format <= theirs and
 * refuse a newer one with a clear message.
 *
 * RRD layout: step = interval; DS type GAUGE (the collector computes the
 * rates itself over the monotonic clock, so wraps and resets are handled
 * before librrd sees a value), heartbeat 2*step; RRAs: AVERAGE at 1 step
 * for the retention span, then MIN/AVERAGE/MAX at 1 minute for 30 days and
 * at 1 hour for a year. Files are created under a temporary name and
 * renamed into place. Updates carry the time the counters were read (with
 * milliseconds); librrd weighs each value by the time it covers, so a row
 * stamped t holds the exact average over (t - step, t].
 */
#ifndef PERFLOG_LOGSET_H
#define PERFLOG_LOGSET_H

#include <stddef.h>
#include <time.h>

#include "../common/util.h"
#include "../counters/catalog.h"
#include "../counters/rates.h"

#define LOGSET_FORMAT 1
#define LOGSET_META "perflog.meta"
#define LOGSET_MARKERS "markers.tsv"

struct logset_counter {
	char path[192];		/* "Processor(_Total)\% Processor Time" */
	const struct counter_def *def;
	char instance[SRC_NAME_MAX];	/* "" for Memory, System */
	char file[192];		/* RRD file name within the log set */
	char ds[20];		/* data source name in that file */
};

struct logset_meta {
	int format;
	char version[32];
	char host[64];
	char os[128];
	time_t start;		/* first sample's interval start */
	time_t stop;		/* 0 while still logging (or killed) */
	unsigned interval;	/* seconds, = RRD step */
	unsigned long retention;	/* seconds at full resolution */
	struct logset_counter *counters;
	size_t ncounters;
};

/* ---- writing (the collector) ---- */

struct logset_options {
	const char *parent;	/* directory under which the set is created */
	const char *name;	/* set name; NULL = HOST-YYYYmmddTHHMMSS */
	unsigned interval;
	unsigned long retention;
	const char *rrdcached;	/* "unix:/path" or "host:port"; NULL = direct */
	time_t start;		/* first interval's start, aligned to interval */
	unsigned batch;		/* rows each file holds back before one update
				 * writes them all (0 or 1: every sample is
				 * written as it comes); see logset_flush */
};

struct logset_writer;

/* Create the log set directory (0755; parents as needed), take the lock,
 * write perflog.meta and an empty markers.tsv. Fails when the directory
 * exists and is locked by another collector ("log set 'X' is in use by
 * pid N"), or is not writable. */
int logset_create(const struct logset_options *opt,
		  struct logset_writer **out, struct perr *e);
const char *logset_writer_dir(const struct logset_writer *w);
const struct logset_meta *logset_writer_meta(const struct logset_writer *w);

/* Make sure an instance's RRD file exists holding the given counters (all of
 * one object, by counter_def.index). Creates the file and adds the counters
 * to the metadata the first time; afterwards a no-op. perflog.meta on disk
 * is rewritten before the next sample is written (one rewrite per batch of
 * new instances, always after their files exist) and at close. */
int logset_add_instance(struct logset_writer *w, enum counter_object obj,
			const char *instance, const int *counter_index,
			size_t ncounters, struct perr *e);

/* Write one sample read at time t (seconds, with a fraction; later than the
 * previous one). Every instance file gets an update: values from s, unknown
 * ("U") for instances or counters absent from s. t is when the counters
 * were really read, not the nominal deadline: each value is the average
 * rate since the previous read, and librrd spreads it over the steps it
 * covers by time, so the rows integrate exactly to what the kernel counted
 * however late a sample was taken. A failing file (disk full ...) does not
 * stop the others; the first error is in e and -1 returned. */
int logset_write_sample(struct logset_writer *w, double t,
			const struct sample *s, struct perr *e);

/* Write the rows held back by batching (opt->batch > 1) now: the files on
 * disk (or in rrdcached) hold every sample given so far when it returns.
 * Called by the collector before it answers a "sync", and by
 * logset_close_writer. A no-op without batching. Why batching: with
 * librrd each update opens, maps and rewrites the header of the file, and
 * dirtying a page of a mapped file costs a page fault on every write-back
 * cycle; one update of N rows pays that once (docs/PERFORMANCE.md). A
 * collector killed with -9 loses at most the rows held back. */
int logset_flush(struct logset_writer *w, struct perr *e);

/* Record the stop time (the end of the last complete row at or before
 * stop, at most the last sample), rewrite the metadata, flush (rrdcached),
 * unlock and free. Safe with w == NULL. */
int logset_close_writer(struct logset_writer *w, double stop, struct perr *e);

/* ---- reading (export, viewer, report) ---- */

struct logset;

/* Open and validate a log set: perflog.meta present and parseable, format
 * known; RRD files are opened lazily. Errors name the file and line. */
int logset_open(const char *dir, struct logset **out, struct perr *e);
const struct logset_meta *logset_meta(const struct logset *ls);
const char *logset_dir(const struct logset *ls);
void logset_close(struct logset *ls);

/* Re-read perflog.meta (a set still being written may have gained
 * instances or a stop time). Counter indices stay valid: new counters are
 * appended. */
int logset_refresh(struct logset *ls, struct perr *e);

/* Index of a counter path ("Object(Instance)\Counter", case-insensitive),
 * or -1. */
long logset_find(const struct logset *ls, const char *path);

/* Time of the newest row written (rrd "last update"), 0 if none. */
time_t logset_last(struct logset *ls);

/* A block of values: rows x ncols, row-major, NAN = unknown. Row i ends at
 * first + i*step and holds the average over (end - step, end]. (librrd's
 * rrd_fetch_r reports the START of the first interval and stamps row i with
 * start + (i+1)*step, as `rrdtool fetch` prints it: first = that start +
 * step.) logset_fetch returns the rows ending in [from, to], with a coarser
 * archive the rows that cover them. */
struct logset_series {
	time_t first;
	unsigned long step;
	size_t rows, ncols;
	double *values;
};

/* Fetch counters idx[0..n) over [from, to] with the given consolidation
 * function ("AVERAGE", "MIN", "MAX"); resolution is a hint in seconds
 * (librrd picks the finest archive that covers the span at no finer than
 * that). Counters in the same file are fetched with one rrd_fetch_r. */
int logset_fetch(struct logset *ls, const size_t *idx, size_t n, time_t from,
		 time_t to, const char *cf, unsigned long resolution,
		 struct logset_series *out, struct perr *e);
void logset_series_free(struct logset_series *s);

/* Parse / format perflog.meta text (exposed for tests and fuzzing). name is
 * used in error messages ("FILE:LINE: ..."). */
int logset_meta_parse(const char *text, const char *name,
		      struct logset_meta *m, struct perr *e);
char *logset_meta_format(const struct logset_meta *m);	/* malloc'ed */
void logset_meta_free(struct logset_meta *m);

/* RRD file name for an object instance ("LogicalDisk-sda.rrd"); characters
 * outside [A-Za-z0-9_.-] become '_'. */
char *logset_file_name(char *buf, size_t n, enum counter_object obj,
		       const char *instance);

#endif
