/*
 * waitrows.h - waits-LABEL.rows.tsv: a watched tree's seconds interval by
 * interval (issue 46: a wait on process B in minute 3 is charged to what
 * B did in minute 3, which session totals cannot say). Written beside
 * waits-LABEL.tsv and edges-LABEL.tsv by the same writer, at the same
 * time (the session's end), from the same reads: each thread's seconds
 * of each sample (waitrates_compute) are also added here, by process.
 *
 * The intervals ("bins") are aligned on the collector's wall clock, the
 * one its rows and markers carry: bin k spans [k * step, (k + 1) * step).
 * The step starts at the sample interval and doubles (two bins merged
 * into one) whenever the session would pass WAITROWS_BINS bins, so a
 * session of any length keeps between 64 and 128 of them: a 2-minute run
 * at -i 1 has 1 s bins, an hour 32 s, a night of 8 hours 256 s. Bins of
 * two hosts of one step coincide (up to the clocks' offset, which the
 * report takes out); of different steps, a reader redistributes them by
 * overlap (verdict/build.c).
 *
 * The file (tab-separated; version 1):
 *
 *   #perflog-rows	1	step=16.000
 *   #p	start	pid	comm	alive	cpu	cpu_wait	disk	net	other	sleep
 *   #e	start	pid	comm	dir	kind	peer_pid	peer_comm	local	remote	seconds	bytes
 *   p	1765000000.000	812	gzip	16.000	15.210	0.020	0.000	0.000	0.310	0.460
 *   e	1765000000.000	811	tar	out	pipe	812	gzip	-	-	0.700	-
 *
 * Lines in time order, a bin's p lines then its e lines. A p line: a
 * process's threads summed (a pool of 2,000 threads is one line a bin),
 * its seconds in each state of waitrates.h in the bin, and its wall
 * seconds alive there (the span its threads' reads covered); past
 * WAITROWS_PROCS processes a tree, those ended are summed by command
 * name (pid 0), as the totals fold theirs. An e line: an edge as
 * edges-LABEL.tsv has it (waitedges.h: its columns after start, one
 * row per the same identity), its seconds in the bin; links of no
 * seconds are left out. Names as the p lines' (a process's last).
 * Seconds with 3 decimals; a bin where a process did nothing has no line.
 */
#ifndef PERFLOG_WAITROWS_H
#define PERFLOG_WAITROWS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../common/strbuf.h"
#include "../common/util.h"
#include "waitedges.h"
#include "waitrates.h"

#define WAITROWS_VERSION 1
/* Bins a session keeps at most (64 to 128 after a doubling). At -i 1
 * for an hour: 32 s bins, 113 of them. */
#define WAITROWS_BINS 128
/* Processes a tree keeps a series of before the ended ones are summed
 * by name (a client starting 300 short processes a second). */
#define WAITROWS_PROCS 256

/* A series of bins: values of bins first .. first + n - 1, width each. */
struct waitrows_series {
	int64_t first;
	size_t n, cap;
	double *v;
};

struct waitrows_proc {
	pid_t pid;		/* 0: ended processes of comm, summed */
	char comm[16];
	uint64_t sample;	/* the last sample a thread of it was in */
	double lo, hi;		/* that sample's span of its threads (wall) */
	struct waitrows_series s;	/* alive, then WS_N states */
};

/* The rows of a session being logged. */
struct waitrows {
	double step;		/* the bin's length, s (0: not set up) */
	double off;		/* wall - monotonic: the sampler's times on
				 * the collector's clock, as at the first
				 * sample */
	int clocked;		/* off set */
	uint64_t sample;	/* the sample being added (from 1) */
	int64_t lo, hi;		/* the bins spanned so far */
	int any;
	struct waitrows_proc *p;
	size_t np, capp, fold_at;
	size_t last;		/* the process found last */
	struct waitrows_series *e;	/* by the sampler's edge id */
	size_t ne, cape;
	int failed;		/* out of memory once: the file is not
				 * written (a part would mislead) */
};

/* Start rows of bins of step seconds (the sample interval). */
void waitrows_init(struct waitrows *r, double step);
/* The sampler's monotonic clock onto the wall: wall - monotonic now.
 * The first call's holds for the session: a step of the wall clock
 * later (an admin's date -s, t7300's seam) does not tear its bins apart
 * nor double the step to span the jump. */
void waitrows_clock(struct waitrows *r, double off);
/* A thread of process pid (comm its name now) spent sec[] between
 * monotonic t0 and t1: spread over the bins it overlaps. */
void waitrows_thread(struct waitrows *r, pid_t pid, const char *comm,
		     double t0, double t1, const double sec[WS_N]);
/* Edge id (the sampler's) had sec seconds between t0 and t1. */
void waitrows_edge(struct waitrows *r, uint32_t id, double t0, double t1,
		   double sec);
/* A sample's threads are all added: each process's span counted as
 * alive, the bins merged when past WAITROWS_BINS, ended processes
 * summed by name when past the bound. */
void waitrows_next(struct waitrows *r);
/* The file's text into b, the edges named by the sampler's keys (as
 * edges-LABEL.tsv's). 0, or -1 out of memory (b->failed). */
int waitrows_format(const struct waitrows *r, const struct waitpeer_edge *keys,
		    size_t nkeys, struct strbuf *b);
void waitrows_free(struct waitrows *r);

/* "waits-X.tsv" -> "waits-X.rows.tsv" into out: 0, or -1 when name is
 * not a waits file's (no ".tsv" tail) or out is too small. */
int waitrows_name(const char *waits_name, char *out, size_t n);

/* ---- reading ------------------------------------------------------- */

struct waitrows_prow {
	double start;		/* the bin's start (wall seconds) */
	pid_t pid;
	char comm[16];
	double alive, sec[WS_N];
};

struct waitrows_erow {
	double start;
	struct waitedge_row r;
};

struct waitrows_file {
	int version;
	double step;
	struct waitrows_prow *p;
	size_t np;
	struct waitrows_erow *e;
	size_t ne;
	int cut;		/* its last line was cut short (a write that
				 * did not finish): left out */
};

/* Read waitrows_format's text (name: the file's, for messages) into f
 * (emptied first). A last line without its newline is a cut tail: left
 * out, f->cut set. Returns the lines read, or -1 with e set: "NAME:LINE:
 * WHY" for a line that is not the format's (f then empty), or out of
 * memory. */
long waitrows_parse(const char *text, size_t len, const char *name,
		    struct waitrows_file *f, struct perr *e);
void waitrows_file_free(struct waitrows_file *f);

#endif
