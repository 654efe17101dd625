/*
 * import.h - perflog import: logs of hosts that cannot run perflog (nmon
 * files of AIX and Linux, perfmon CSV of Windows relog/typeperf and
 * VMware esxtop -b) read into snapshots of perflog counters, then written
 * as a log set through the collector's own writer (logs/logset.h), so the
 * set has the shape of a collected one: RRD layout, perflog.meta's map,
 * an empty markers.tsv. STYLE 15 (PCP's LOGIMPORT): each format is a
 * parser that emits samples; one writer writes them.
 *
 *   nmon.c, nmon_map.c   nmon: ZZZZ times, sections to counters
 *   perfmon.c            perfmon CSV: header, rows, paths to counters
 *   snaps.c              the snapshots: times in order, the step, local
 *                        time in a zone
 *   importset.c          snapshots -> a log set, built under a temporary
 *                        name and renamed into place
 *   cmd_import.c         the command line
 *
 * Parsers are pure (no I/O but the zone's rules; fuzzed): text in, an
 * import_set out, or -1 with "FILE:LINE: why" in e. What they had to say
 * without failing (a dropped trailing snapshot, the clock going back)
 * goes to set->notes, one line each, for the command to print.
 * counters/README.md "Imported counters" has every mapping.
 */
#ifndef PERFLOG_IMPORT_H
#define PERFLOG_IMPORT_H

#include <signal.h>
#include <stddef.h>

#include "../common/strbuf.h"
#include "../common/util.h"
#include "../counters/counters.h"

/* One snapshot of the source: values over (from, t], UTC seconds. */
struct import_snap {
	double from, t;
	struct sample s;
	int line;		/* where it starts in the source (ZZZZ, row) */
};

struct import_set {
	char host[64];
	char os[128];
	char source[256];	/* for perflog.meta: file, format, zone */
	unsigned step;		/* seconds: nmon's interval, else the snapshots' spacing */
	int whole_seconds;	/* the source stamps in whole seconds (nmon):
				 * import_finish evens out their jitter */
	double began;		/* when the source began, if it says (nmon's
				 * AAA time): its first snapshot's rates are
				 * over the time since; 0 when not said */
	struct import_snap *snap;
	size_t n, cap;
	struct strbuf notes;	/* "FILE:LINE: ..." lines, for stderr */
	struct strbuf other;	/* perfmon CSV: the columns perflog has no
				 * counter for, as CSV (time, then each of
				 * them), kept in the set as
				 * imported-other.csv; "" when none */
	struct import_set *next;	/* perfmon CSV of several hosts: the
				 * next host's set (malloc'ed, freed with
				 * this one); NULL: none */
};

enum import_format { IMPORT_UNKNOWN, IMPORT_NMON, IMPORT_PERFMON,
		     IMPORT_BLG };

/* What the text is, from its first bytes. */
enum import_format import_detect(const char *text, size_t len);

/* Parse an nmon file. tz is the zone its local times are read in
 * (a TZ value such as "Europe/Berlin", "UTC"), or NULL for this host's.
 * name is for messages. 0, or -1 with e set (the set is then empty). */
int import_nmon(const char *text, size_t len, const char *name,
		const char *tz, struct import_set *out, struct perr *e);

/* Parse a perfmon CSV (relog -f csv, typeperf, esxtop -b): its zone is
 * in its header, a Windows zone name (winzone.c maps the common ones to
 * the zone database, so a DST change within the file is placed by the
 * zone's rules) and the bias at the log's start. tz (--tz), when not
 * NULL, is the zone its local times are read in instead. A file whose
 * counter paths name several hosts (\\SRV1\..., \\SRV2\...) gives one
 * set a host, in the order of their first columns: out is the first,
 * out->next the second ... (a column naming no host is the first's); the
 * notes are all in out. 0, or -1 with e set. */
int import_perfmon(const char *text, size_t len, const char *name,
		   const char *tz, struct import_set *out, struct perr *e);

/* ---- winzone.c ---- */

/* The zone database's name for a Windows zone name as perfmon writes it
 * ("W. Europe Standard Time", "W. Europe Daylight Time", "Coordinated
 * Universal Time"), or NULL when not in the table. */
const char *import_windows_zone(const char *name);

/* Free s's contents and the sets chained after it (next). */
void import_set_free(struct import_set *s);

/* ---- snaps.c: shared by the parsers ---- */

/* The source as one NUL-terminated string to split in place (malloc'ed),
 * or NULL with e set: out of memory, or a NUL byte in it ("NAME: a NUL
 * byte: not WHAT"). */
char *import_text(const char *text, size_t len, const char *name,
		  const char *what, struct perr *e);

/* A new snapshot (values all absent) at time t, from line. NULL when out
 * of memory. */
struct import_snap *import_snap_add(struct import_set *s, double t,
				    int line);

/* 1 when a snapshot of s has a known value of a counter perflog has,
 * else 0. */
int import_has_value(const struct import_set *s);

/* Local calendar time in zone tz (NULL: this host's) to UTC seconds.
 * An hour that happens twice (the end of summer time) is read as the
 * one after prev when prev is given (> 0), so times run on through the
 * change. 0, or -1 when the time cannot be represented. */
int import_local_time(const char *tz, int year, int mon, int mday,
		      int hour, int min, double sec, double prev,
		      double *out);

/* TZ set to tz (NULL: left as it is) until import_zone_leave puts it
 * back: a parser reading many local times of one zone sets it once. */
struct import_zone {
	char *saved;
	int had, changed;
};
void import_zone_enter(struct import_zone *z, const char *tz);
void import_zone_leave(struct import_zone *z);

/* The days of month mon (1..12) of year: 28 to 31; 0 for no month. */
int import_days_in_month(int year, int mon);

/* The name of this host's zone ($TZ, else /etc/localtime's), for the
 * metadata. */
const char *import_host_zone(char *buf, size_t n);

/* After parsing: the step (unless the parser set it, as nmon's interval
 * does: the median spacing of the snapshots, whole
 * seconds, at least 1), every snapshot's from (its previous snapshot's
 * time; the first: t - step, or began when that is earlier, by up to
 * ROWS_LATE_MAX), and times that go backwards or repeat
 * (a DST change, a clock set back) kept in order: the snapshot is
 * stamped one step after the previous, the rest moved on by as much,
 * and a note says so; with whole_seconds, runs of spacings within a
 * second of the step evened out (snaps.c). name is for the notes. -1 with e set when there is no
 * snapshot, or no value in any (import_has_value). */
int import_finish(struct import_set *s, const char *name, struct perr *e);

/* ---- importset.c ---- */

struct import_options {
	const char *parent;	/* -o DIR (default ./logs) */
	const char *host;	/* --host, NULL: the source's */
	/* set by a signal handler (SIGINT, SIGTERM, SIGHUP): the write
	 * stops at the next row, the hidden set is removed, -1 with
	 * "interrupted"; NULL: not watched */
	const volatile sig_atomic_t *stop;
};

/* Write *sets[0..n) (snapshots of one host in time order, one step) as
 * one log set under opt->parent, named HOST-YYYYmmddTHHMMSS (UTC of its
 * start; -2, -3 ... when taken). Built as a hidden directory and renamed
 * into place when complete, removed on failure: no half set is left
 * behind. Its path goes to dir. 0, or -1 with e set. */
int import_write(const struct import_set *const *sets, size_t n,
		 const struct import_options *opt, char *dir, size_t dir_n,
		 struct perr *e);

#endif
