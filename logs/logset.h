/*
 * logset.h - the log set on disk (DESIGN.md "The log set on disk"):
 *
 *   logs/HOST-YYYYmmddTHHMMSS/
 *     perflog.meta      metadata: format, host, OS, start/stop, interval,
 *                       retention, and the counter map (path -> file, DS)
 *     markers.tsv       markers, see markers.h
 *     perflog.journal   every sample as it was taken, until the RRD files
 *                       hold its rows (journal.h); readers replay it
 *     OBJECT[-INST].rrd one RRD file per object instance, a DS per counter:
 *                       Processor-_Total.rrd, Processor-0.rrd,
 *                       LogicalDisk-sda.rrd, Memory.rrd, System.rrd,
 *                       "Network Interface-eth0" -> NetworkInterface-eth0.rrd
 *     .lock             flock()ed by the one collector writing the set
 *     .grow.PID/        the worker's private directory while it grows a
 *                       file (left behind only by a killed worker)
 *
 * perflog.meta is plain text, one "key<TAB>value" per line, '#' comments:
 *   format 1 | version | host | os | source (an imported set: the file it
 *   came from and how its times were read; absent for a collected one) |
 *   start (ISO 8601 UTC) | stop (absent
 *   while logging) | interval (s) | retention (s) | then one line per
 *   counter: "counter<TAB>Object(Instance)\Counter<TAB>FILE.rrd<TAB>DS".
 * It is rewritten atomically (temp file + rename) whenever it changes, so a
 * reader never sees half of it. Readers accept any format <= theirs and
 * refuse a newer one with a clear message.
 *
 * RRD layout (layout.h): step = interval; DS type GAUGE (the collector
 * computes the rates itself over the monotonic clock, so wraps and resets
 * are handled before librrd sees a value); RRAs: AVERAGE at 1 step up to
 * the retention span, then MIN/AVERAGE/MAX at 1 minute up to 30 days and
 * at 1 hour up to a year. Files start sized for an hour and grow (double)
 * as the set ages, off the sampling path, each growth built from the old
 * file and renamed over it (grow.h). Files are created under a temporary
 * name and renamed into place. Everything in the set is opened without
 * following symlinks (setdir.h).
 *
 * Rows: the writer turns samples into whole rows itself (rows.h) and hands
 * librrd one update per row, stamped on the row's end. A row holds the
 * exact time-weighted average of the samples that cover it, measured over
 * the monotonic clock; unknown when less than half of it is known. A
 * sample that comes late fills every row it covers with its measured
 * average when it spans at most interval + 60 s (ROWS_LATE_MAX); a longer
 * span, and time the collector says was not measured (a wall clock step,
 * a suspended machine), stays unknown. A killed collector's set is never
 * written again, so "the collector was stopped" is the end of the rows.
 */
#ifndef PERFLOG_LOGSET_H
#define PERFLOG_LOGSET_H

#include <stddef.h>
#include <time.h>

#include "../common/util.h"
#include "../counters/counters.h"

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
	char source[256];	/* "" unless imported: "nmon FILE, local time
				 * read as Europe/Berlin" (perflog import) */
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
	unsigned long first_span;	/* seconds the files are first sized
					 * for; 0 = layout_first_span() */
	/* perflog import: the host and OS the values came from and where
	 * (NULL = this host, its uname, "") */
	const char *host, *os, *source;
};

struct logset_writer;

/* Create the log set directory, fresh (0755, parents as needed; one
 * that exists is never reused: "log set 'X' already exists"), in a
 * parent owned by the user or root and not writable by others unless
 * sticky; take the lock, write perflog.meta and an empty markers.tsv.
 * A directory made here that could not be started whole (a full disk)
 * is removed again. */
int logset_create(const struct logset_options *opt,
		  struct logset_writer **out, struct perr *e);
const char *logset_writer_dir(const struct logset_writer *w);
const struct logset_meta *logset_writer_meta(const struct logset_writer *w);

/* Make sure an instance is logged with the given counters (all of one
 * object, by counter_def.index). The first time, its RRD file is queued
 * for the writer's worker (grow.h) and its rows are held from the next
 * sample on until the file exists; its counters enter perflog.meta then,
 * and the file, made under a temporary name, is renamed into place only
 * once perflog.meta names it (writer.h): a reader never sees an RRD file
 * the metadata does not map. Afterwards a no-op. Fails only on bad
 * arguments. Its rows are unknown up to its first values' span (from,
 * t]: the row that span begins in is known only when at least half of
 * it was measured (rows.h), so a set's first row, begun at a baseline
 * read late in it, is not the average of a few ms stretched over it. */
int logset_add_instance(struct logset_writer *w, enum counter_object obj,
			const char *instance, const int *counter_index,
			size_t ncounters, struct perr *e);

/* The same for an instance that did nothing before it was added (a
 * watched process tree, its first values the zeros of the sample at its
 * watch request): its first values cover its rows from its birth, the
 * start of the row of the sample before (or the set's start), so that
 * row integrates to exactly what the tree did. */
int logset_add_idle_instance(struct logset_writer *w,
			     enum counter_object obj, const char *instance,
			     const int *counter_index, size_t ncounters,
			     struct perr *e);

/* Write one sample whose values were measured over (from, t] (seconds,
 * with a fraction; t later than the previous one). Every instance file
 * gets its rows: values from s, unknown for instances or counters absent
 * from s, and for (previous t, from] when from is later (time not
 * measured: the wall clock jumped). t is when the counters were really
 * read, not the nominal deadline; rows.h has how they become rows. A
 * failing file (disk full, rrdcached away) does not stop the others: its
 * rows are held and written once it works again. Returns -1 with e set
 * while any file fails (the same problem at every sample until it is
 * over, so the caller complains once), 0 otherwise. */
int logset_write_span(struct logset_writer *w, double from, double t,
		      const struct sample *s, struct perr *e);

/* logset_write_span with from = the previous sample's t (the set's start
 * for the first). */
int logset_write_sample(struct logset_writer *w, double t,
			const struct sample *s, struct perr *e);

/* Write the rows held back by batching (opt->batch > 1) now, after the
 * worker's running jobs and the creation of every queued file: the files
 * on disk (or in rrdcached) hold every row completed so far when it
 * returns. Called by the collector before it answers a "sync", and by
 * logset_close_writer. Why batching: with librrd each update opens, maps
 * and rewrites the header of the file, and dirtying a page of a mapped
 * file costs a page fault on every write-back cycle; one update of N rows
 * pays that once (docs/PERFORMANCE.md). A collector killed with -9 loses
 * nothing: every sample is in the journal (journal.h), which readers
 * replay. */
int logset_flush(struct logset_writer *w, struct perr *e);

/* Rows lost so far: a file holds its rows while it cannot be written (its
 * file not yet created, rrdcached away, a growth step) for at most 15
 * minutes of samples (HOLD_SECONDS, logs/writer.h), then drops the
 * oldest. Writes go on failing with the cause meanwhile; the caller
 * watches this count to say that rows are now being lost, and how many. */
unsigned long logset_rows_lost(const struct logset_writer *w);

/* What the writer's part of a sample costs, for the collector's cost table
 * (collector/cost.c: the parts of its write stage), in seconds on
 * util_cost_clock since the writer was opened:
 *   LC_JOURNAL  the sample into every file's rows and into the journal:
 *               its record's write, and its fdatasync every JOURNAL_SYNC s
 *   LC_RRD      the RRD files: librrd's updates of the rows held (each
 *               file once a batch, logset_flush), perflog.meta, and the
 *               creation and growth jobs handed to the worker and placed
 *   LC_CUT      the journal's cut (rewritten without what every file
 *               holds: once a minute, journal.h)
 * What the three leave out of a sample's write is the bookkeeping between
 * them (the time checks, the rows lost). */
enum logset_cost_part { LC_JOURNAL, LC_RRD, LC_CUT, LC_COUNT };
/* "journal", "rrd", "cut": the table's keys. */
const char *logset_cost_name(enum logset_cost_part part);
void logset_cost(const struct logset_writer *w, double sec[LC_COUNT]);

/* Files whose creation, growth or write is failing now (their rows held),
 * with the latest failure's message in e: after the first flush, a set
 * that could not be created whole (a full disk at start). */
size_t logset_failing(const struct logset_writer *w, struct perr *e);

/* Record the stop time (the end of the last complete row at or before
 * stop, at most the last sample), rewrite the metadata, flush (rrdcached;
 * when the daemon is gone, the rows still held are written to the files
 * directly), unlock and free. Safe with w == NULL. */
int logset_close_writer(struct logset_writer *w, double stop, struct perr *e);

/* Remove the set at dir, which its caller made and no longer writes,
 * when it holds no marker but those of session (NULL: none at all): a
 * start that failed, a run whose command never ran (discard.c). 1 when
 * removed, 0 when kept (someone marked it), -1 with e set. */
int logset_discard(const char *dir, const char *session, struct perr *e);

/* A set no collector writes any more (killed with -9: never closed) has
 * its last rows in its journal only; write those into its RRD files, for
 * whoever reads the files themselves (`rrdtool graph`: export --png).
 * Takes the set's .lock as a collector does: a live set (or one being
 * settled) is left alone. 1 when rows were written, 0 when there were
 * none (or the set is live, or cannot be read: its reader says why), -1
 * with e set (a set that cannot be written: another user's, a read-only
 * medium; a file too small for the rows). settle.c has why. */
int logset_settle(const char *dir, struct perr *e);

/* ---- reading (export, viewer, report) ---- */

struct logset;

/* Open and validate a log set: perflog.meta present and parseable, format
 * known; RRD files are opened lazily. Errors name the file and line. */
int logset_open(const char *dir, struct logset **out, struct perr *e);
const struct logset_meta *logset_meta(const struct logset *ls);
const char *logset_dir(const struct logset *ls);
void logset_close(struct logset *ls);

/* Re-read perflog.meta and the journal (a set still being written may
 * have gained instances, rows or a stop time). Counter indices stay
 * valid: new counters are appended. */
int logset_refresh(struct logset *ls, struct perr *e);

/* Index of a counter path ("Object(Instance)\Counter", case-insensitive),
 * or -1. */
long logset_find(const struct logset *ls, const char *path);

/* Time of the newest row written (rrd "last update"), or replayed from the
 * journal when later, 0 if none. */
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
