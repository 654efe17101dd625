/*
 * grow.h - the log set writer's worker: creates RRD files and grows them,
 * off the sampling path.
 *
 * Creating a file or building a larger one costs milliseconds to hundreds
 * of milliseconds (librrd writes the whole file), and the sampler must not
 * be late for it. So the writer hands a batch of jobs to a short-lived
 * child process (fork: nothing to share, nothing to lock, and librrd's
 * buffers leave with it) and reads one result line per job from a pipe as
 * each finishes; at most one worker runs at a time.
 *
 *   create  librrd writes ".NAME.tmp.new" in the set directory (its own
 *           mkstemp temporary first; grow_created_name), and the writer
 *           renames it to NAME after perflog.meta names NAME: a reader
 *           never sees half a file, nor a file the metadata does not map
 *           (a name the metadata maps may lack its file until the
 *           rename, and for good after a kill -9 in between: a reader
 *           reads its rows as unknown while .NAME.tmp.new is there,
 *           logset_read.c open_rrd). Over TCP (g->remote) the daemon
 *           creates "SET/NAME" (rrdc_create_r2; librrd there writes its
 *           own temporary and renames it whole) at its final size, and
 *           nothing is renamed or grown (logs/writer_remote.c has why).
 *   grow    NAME is resized archive by archive (rrd_resize: the rows, the
 *           consolidations in progress and the header are copied as they
 *           are, new empty rows go before the oldest, so every row keeps
 *           its time and value), in a private directory ".grow.PID"
 *           (rrd_resize writes "resize.rrd" in the current directory),
 *           synced, then renamed over NAME in one step: a reader or a
 *           kill -9 sees the old file or the new one, never half of one.
 *           Through rrdcached, the daemon flushes the file first and
 *           forgets it after.
 *
 * The writer holds a file's rows while its job runs (no update may land in
 * the old file after the copy began) and writes them to the new one
 * after: no row is lost or written twice. A job that fails (a full disk)
 * leaves the old file as it was.
 *
 * The child runs in the set directory (fchdir), niced, with SIGINT and
 * SIGHUP ignored (a Ctrl-C on a foreground collector lets the batch
 * finish; stop waits for it). Test seams: $PERFLOG_TEST_GROW_DELAY
 * (seconds) makes the child wait before the final rename of a growth, so
 * a test can kill it mid-step; $PERFLOG_GROW_TRACE=FILE appends a line
 * per job: "create|grow NAME BYTES_BEFORE BYTES_AFTER MS START ok|failed"
 * (START: CLOCK_MONOTONIC seconds, as $PERFLOG_TRACE's).
 */
#ifndef PERFLOG_GROW_H
#define PERFLOG_GROW_H

#include <sys/types.h>
#include <time.h>

#include "../common/util.h"
#include "cachedconn.h"
#include "layout.h"

enum grow_kind { GROW_CREATE, GROW_RESIZE };

struct grow_job {
	enum grow_kind kind;
	size_t file;			/* the caller's index, echoed back */
	char name[192];			/* file name in the set */
	unsigned long span;		/* the span to size it for */
	time_t last_up;			/* create: time before its first row */
	enum counter_object obj;	/* create: its data sources */
	int idx[CATALOG_MAX_PER_OBJECT];
	size_t n;
};

struct grow_result {
	size_t file;
	int ok;
	double ms;
	char msg[320];			/* why it failed */
};

struct grower {
	int dfd;			/* the set directory */
	const char *dir;		/* its path (messages, rrdcached) */
	struct layout layout;
	const char *cached;		/* rrdcached address, NULL direct */
	struct cachedconn conn;		/* the daemon, to check its answers */
	const char *remote;		/* over TCP: the set's directory in the
					 * daemon's base directory, which
					 * creates the files; NULL otherwise */
	pid_t pid;			/* the worker, 0 when idle */
	int fd;				/* its result pipe */
	struct grow_job *jobs;
	size_t njobs;
	char *reported;			/* per job: a result was read */
	char buf[2048];			/* a partial result line */
	size_t nbuf;
};

/* Start a worker on jobs[0..n) (copied). Fails (e set) when one is
 * running or fork fails. */
int grow_start(struct grower *g, const struct grow_job *jobs, size_t n,
	       struct perr *e);

/* Hand each result that came in to done(ctx, result); with wait, block
 * until the worker has ended (every job reported). Jobs of a worker that
 * died without reporting come back failed. */
void grow_poll(struct grower *g, int wait,
	       void (*done)(void *ctx, const struct grow_result *r),
	       void *ctx);

/* A worker is running. */
int grow_busy(const struct grower *g);

/* The temporary name a create job leaves its file under (".NAME.tmp.new"):
 * 0, or -1 when it does not fit in n. */
int grow_created_name(char *buf, size_t n, const char *name);

/* Run one job here (the child's work; also for tests): 0, or -1 with why
 * in msg. cwd must be the set directory. */
int grow_run_job(const struct grower *g, const struct grow_job *j,
		 char *msg, size_t nmsg);

#endif
