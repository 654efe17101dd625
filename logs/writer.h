/*
 * writer.h - the inside of the log set writer, shared by its files
 * (other modules use logset.h):
 *
 *   logset_write.c  create the set, its metadata, close
 *   writer_add.c    add an instance
 *   writer_sample.c write a sample (the journal, the rows), flush, costs
 *   writer_send.c   hand a file's held rows to librrd, or to rrdcached
 *                   (reconnecting, resending what was held)
 *   writer_grow.c   the worker's jobs (grow.h): create the files of new
 *                   instances, grow files before an archive fills
 *   writer_remote.c rrdcached over TCP: names relative to the daemon's
 *                   base directory, the set's directory checked there
 *
 * A file's life: NEW (its create job is queued or running: rows are held)
 * -> CREATED (the worker made it under its temporary name; its counters
 * are in the metadata, which is written before the file is renamed into
 * place, so a reader never sees a file perflog.meta does not map)
 * -> READY (rows are written every batch) <-> BUSY (a growth job runs:
 * rows are held, then written to the grown file). Rows wait in the file's
 * struct rows (rows.h) until written; a failed write keeps them there
 * (up to HOLD_SECONDS of them) and marks the file stale: before the
 * next try, rows the file already has are dropped, so a resend never
 * writes a row twice.
 *
 * A file whose instance has vanished (a deleted interface, a detached
 * disk) is not grown: its rows are unknown from then on, so they are held
 * as one (rows.h) while the file is too small for them, and dropped at
 * close; the file keeps what it logged, and readers see unknown after its
 * last row. If the instance comes back, the file grows and the gap is
 * written as one unknown update. A host where containers come and go
 * pays for each interface's file at the span it had, not for the run.
 */
#ifndef PERFLOG_WRITER_H
#define PERFLOG_WRITER_H

#include <limits.h>
#include <sys/socket.h>

#include "cachedconn.h"
#include "grow.h"
#include "journal.h"
#include "layout.h"
#include "logset.h"
#include "mirror.h"
#include "rows.h"

/* rows a file may hold while it cannot be written (rrdcached away, its
 * file not yet created, a growth step): 15 minutes */
#define HOLD_SECONDS 900
/* over TCP a connection must be answered within, in ms (writer_remote.c;
 * the messages say 1 s) */
#define REMOTE_REACH_MS 1000
/* rows handed to librrd in one update call */
#define SEND_ROWS 64
/* "T" plus ":" and a %.17g value per data source */
#define LINE_MAX_LEN (24 + CATALOG_MAX_PER_OBJECT * 28)

enum wfile_state { WF_NEW, WF_CREATED, WF_READY, WF_BUSY };

struct wfile {
	char name[192];			/* file name in the set */
	char path[PATH_MAX];		/* rrdcached's name for it (absolute,
					 * or relative over TCP), messages */
	enum counter_object obj;
	char instance[SRC_NAME_MAX];
	int idx[CATALOG_MAX_PER_OBJECT];	/* counter index per DS */
	size_t n;
	size_t hint;			/* where the instance was last time */
	struct rows rows;
	enum wfile_state state;
	unsigned long span;		/* its archives' span, 0 until created */
	unsigned long target;		/* the span its running job builds */
	double sized;			/* when its last job was decided */
	double last_known;		/* the last sample with a known value */
	int fresh;			/* idle-born, no sample accounted yet:
					 * its first values cover its rows from
					 * born (logset_add_idle_instance) */
	time_t born;			/* its data starts after this */
	double retry;			/* monotonic: no new job before */
	int stale;			/* a write failed: see above */
	double locked_at;		/* monotonic: since when a reader's lock
					 * keeps its rows out (writer_send.c),
					 * 0 none */
	int noatime;			/* setdir_noatime tried on it */
	int job_failed, send_failed;	/* counted in nfailing */
};

struct logset_writer {
	char dir[PATH_MAX];		/* absolute */
	int dfd;			/* the set directory */
	struct logset_meta meta;
	int lockfd;
	struct wfile *files;
	size_t nfiles, capfiles;
	double last;			/* last sample's time, 0 none */
	int meta_dirty;
	char cached[256];		/* rrdcached address, "" direct */
	int remote;			/* cached is over TCP (writer_remote.c) */
	double remote_retry;		/* monotonic: no new try before */
	char remote_why[600];		/* why the last try failed */
	struct cachedconn conn;		/* librrd's socket to the daemon */
	unsigned batch;			/* rows held back per file, >= 1 */
	unsigned long nsamples;		/* samples written (staggers flushes) */
	char *lines;			/* SEND_ROWS x LINE_MAX_LEN update text */
	const char **argv;		/* SEND_ROWS pointers into lines */
	struct layout layout;
	unsigned long span;		/* the span the set's files need now */
	struct grower grower;
	size_t nfailing;		/* files with a job or write failing */
	int closing;			/* write what is held, wrap or not */
	double lock_until;		/* writes wait out readers' locks until
					 * then (rrdlock.h): one sample's budget */
	struct perr failure;		/* the latest failure's message */
	struct journal_writer *journal;	/* every sample, as it comes */
	double cost[LC_COUNT];		/* logset_cost */
	struct mirror *mirror;		/* over TCP: the set's other files to
					 * perflog receive (mirror.h) */
};

/* Note a file's job or write failure (e set from msg) or its recovery. */
void writer_failed(struct logset_writer *w, struct wfile *f, int *flag,
		   const char *msg);
void writer_recovered(struct logset_writer *w, struct wfile *f, int *flag);

/* f's file now exists under its temporary name: map its counters in the
 * metadata (written before the file is renamed into place). 0, or -1 out
 * of memory. */
int writer_map_counters(struct logset_writer *w, struct wfile *f);

/* Write perflog.meta now (logset_write.c). 0, or -1 with e set. */
int writer_write_meta(struct logset_writer *w, struct perr *e);

/* Before librrd connects to w->cached (writer_remote.c): over TCP, the
 * daemon must answer a connection within REMOTE_REACH_MS, and after one
 * that did not, no new try is made for REMOTE_RETRY seconds (librrd's own
 * connect waits minutes for a host that does not answer, and the sampler
 * with it); sets w->remote. 0, or -1 with e set. */
int writer_remote_reach(struct logset_writer *w, struct perr *e);

/* A TCP connection to addr (HOST, HOST:PORT, [V6]:PORT; port when it
 * names none) answered within ms, in blocking mode; its peer's address
 * in peer when not NULL. The fd, or -1 with why. */
int writer_dial(const char *addr, const char *port, int ms,
		struct sockaddr_storage *peer, socklen_t *npeer, char *why,
		size_t nwhy);

/* A socket's bound on each request (REMOTE_REQUEST_S, both ways). */
void writer_bound_socket(int fd);

/* librrd is connected: over TCP, its socket gets a bound on each request
 * (REMOTE_REQUEST_S), so a daemon host that vanished fails the request
 * (librrd drops the connection, the rows are held) instead of stalling. */
void writer_remote_bound(struct logset_writer *w);

/* rrdcached over TCP (writer_remote.c): when w->cached is a TCP address,
 * connect to perflog receive on the daemon's host (w->mirror), check that
 * the daemon sees the set's directory it makes under its base directory,
 * and size the files for the set's whole life (no growth through the
 * daemon). 0, or -1 with e set. */
int writer_remote_open(struct logset_writer *w, struct perr *e);

/* Over TCP, after a sample and at the close: the set's other files to
 * perflog receive (mirror_poll). The daemon and perflog receive share a
 * host, so one that does not answer holds both: nothing is sent to
 * either until w->remote_retry, and an outage costs the sampler one
 * request's bound, not one a channel. 0, or -1 with e set. */
int writer_remote_mirror(struct logset_writer *w, struct perr *e);

/* f->path: the name rrdcached knows f's file by (the set's directory and
 * the file name relative to the daemon's base directory over TCP, else
 * absolute). 0, or -1 with e set when it does not fit. */
int writer_file_path(const struct logset_writer *w, struct wfile *f,
		     struct perr *e);

/* Write the rows f holds (writer_send.c). 0, or -1 with e set. */
int writer_send(struct logset_writer *w, struct wfile *f, struct perr *e);

/* Flush every file to the daemon's disk (rrdcached only; at close). */
int writer_cached_flush(struct logset_writer *w, struct perr *e);

/* Collect finished jobs and start the jobs that are due (writer_grow.c).
 * now is the sample's time (the set's age decides growth). */
void writer_jobs(struct logset_writer *w, double now);

/* Wait for the worker's batch, then run every job still to do (pauses
 * after failures ignored) until they are done or stop succeeding: what
 * a flush and the close need before they write what is held. */
void writer_jobs_wait(struct logset_writer *w);

#endif
