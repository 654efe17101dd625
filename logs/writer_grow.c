/*
 * writer_grow.c - the writer's side of the worker (grow.h): which files to
 * create or grow, and what their results change.
 *
 * At every sample: results that came in are applied (a created file's
 * counters enter the metadata, which is written, and then the file is
 * renamed into place and becomes READY: place_created; a grown one takes
 * its new span), then, when no worker runs, the next batch starts: first the
 * files to create (their rows wait), then the files whose span is below
 * the set's (layout_span_for: the set's age passed three quarters of the
 * span). A batch is bounded (BATCH_BYTES of files to write), so a file
 * late in it is not held for long. A file being grown holds its rows
 * until its result (writer_send also holds the rows of a file that is
 * still too small for them, so its archives never wrap early). A failed
 * job is tried again after a pause, and the failure is reported until a
 * job of that file succeeds.
 */
#include "writer.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_BYTES (64ULL << 20)
#define BATCH_JOBS 1024
#define RETRY_CREATE 1.0	/* seconds: space may come back any time */
#define RETRY_GROW 2.0	/* (a failing step stops before it copies) */

static void job_done(void *ctx, const struct grow_result *r)
{
	struct logset_writer *w = ctx;
	struct wfile *f = &w->files[r->file];
	double retry = f->state == WF_NEW ? RETRY_CREATE : RETRY_GROW;

	if (!r->ok) {
		if (f->state == WF_BUSY)
			f->state = WF_READY;
		f->retry = util_monotonic() + retry;
		writer_failed(w, f, &f->job_failed, r->msg);
		return;
	}
	if (f->state == WF_NEW) {
		if (writer_map_counters(w, f) < 0) {
			f->retry = util_monotonic() + retry;
			writer_failed(w, f, &f->job_failed, "out of memory");
			return;
		}
		f->state = WF_CREATED;	/* placed after the poll */
	} else {
		f->state = WF_READY;
	}
	f->span = f->target;
	f->noatime = 0;		/* a grown file is a new inode */
	writer_recovered(w, f, &f->job_failed);
}

/* The files the worker created, renamed into place once perflog.meta
 * names them: one metadata write for a whole batch. A failure (the
 * metadata cannot be written: a full disk) leaves them CREATED, their
 * rows held, and is tried again at the next sample. */
static void place_created(struct logset_writer *w)
{
	struct perr e;
	size_t n = 0;

	for (size_t i = 0; i < w->nfiles; i++)
		n += w->files[i].state == WF_CREATED;
	if (!n)
		return;
	if (w->meta_dirty && writer_write_meta(w, &e) < 0) {
		for (size_t i = 0; i < w->nfiles; i++)
			if (w->files[i].state == WF_CREATED)
				writer_failed(w, &w->files[i],
					      &w->files[i].job_failed, e.msg);
		return;
	}
	for (size_t i = 0; i < w->nfiles; i++) {
		struct wfile *f = &w->files[i];
		char tmp[NAME_MAX + 32];

		if (f->state != WF_CREATED)
			continue;
		/* (over TCP the daemon made it at its name: writer_remote.c) */
		if (!w->remote &&
		    grow_created_name(tmp, sizeof(tmp), f->name) == 0 &&
		    renameat(w->dfd, tmp, w->dfd, f->name) < 0) {
			perr_set(&e, "unable to rename '%s/%s': %s", w->dir,
				 tmp, strerror(errno));
			writer_failed(w, f, &f->job_failed, e.msg);
			continue;
		}
		f->state = WF_READY;
		writer_recovered(w, f, &f->job_failed);
	}
}

/* Add f's job to jobs if it is due; returns its bytes, 0 when not. */
static unsigned long long add_job(struct logset_writer *w, struct wfile *f,
				  size_t i, struct grow_job *j, int force)
{
	if (!force && util_monotonic() < f->retry)
		return 0;
	if (f->state == WF_NEW) {
		j->kind = GROW_CREATE;
		j->last_up = f->born;
		j->obj = f->obj;
		memcpy(j->idx, f->idx, sizeof(j->idx));
		j->n = f->n;
	} else if (f->state == WF_READY && f->span < w->span &&
		   f->last_known > f->sized) {
		/* (a file whose instance vanished before its last step stays
		 * as it is: writer.h) */
		/* the rows it holds now wait for the grown file */
		j->kind = GROW_RESIZE;
		f->state = WF_BUSY;
	} else {
		return 0;
	}
	j->file = i;
	util_strlcpy(j->name, f->name, sizeof(j->name));
	j->span = w->span;
	f->target = w->span;
	f->sized = w->last;	/* its size is decided now */
	return layout_bytes(&w->layout, w->span, f->n);
}

/* Files with a job to do: to create, or smaller than the set needs. */
static size_t count_due(const struct logset_writer *w)
{
	size_t n = 0;

	for (size_t i = 0; i < w->nfiles; i++)
		n += w->files[i].state == WF_NEW ||
		     (w->files[i].span < w->span &&
		      w->files[i].last_known > w->files[i].sized);
	return n;
}

/* Start a batch of due jobs (creates first); force: pauses after a
 * failure ignored. Returns the jobs started. */
static size_t start_jobs(struct logset_writer *w, int force)
{
	size_t n = 0, max = w->nfiles < BATCH_JOBS ? w->nfiles : BATCH_JOBS;
	unsigned long long bytes = 0;
	struct grow_job *jobs;
	struct perr e;

	/* none due, the steady state: no allocation and no clock read per
	 * file at every sample */
	if (grow_busy(&w->grower) || max == 0 || !count_due(w))
		return 0;
	jobs = malloc(max * sizeof(*jobs));
	if (!jobs)
		return 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < w->nfiles && n < max &&
		     bytes < BATCH_BYTES; i++) {
			struct wfile *f = &w->files[i];
			unsigned long long b;

			if ((f->state == WF_NEW) != (pass == 0))
				continue;
			memset(&jobs[n], 0, sizeof(jobs[n]));
			b = add_job(w, f, i, &jobs[n], force);
			if (b) {
				bytes += b;
				n++;
			}
		}
	if (n && grow_start(&w->grower, jobs, n, &e) < 0) {
		for (size_t k = 0; k < n; k++) {
			struct wfile *f = &w->files[jobs[k].file];

			if (f->state == WF_BUSY)
				f->state = WF_READY;
			f->retry = util_monotonic() + RETRY_CREATE;
			writer_failed(w, f, &f->job_failed, e.msg);
		}
		n = 0;
	}
	free(jobs);
	return n;
}

void writer_jobs(struct logset_writer *w, double now)
{
	grow_poll(&w->grower, 0, job_done, w);
	place_created(w);
	w->span = layout_span_for(&w->layout, w->span,
				  now - (double)w->meta.start);
	start_jobs(w, 0);
}

void writer_jobs_wait(struct logset_writer *w)
{
	grow_poll(&w->grower, 1, job_done, w);
	place_created(w);
	/* every file with a job to do gets another try now, in as many
	 * batches as it takes while they succeed */
	for (;;) {
		size_t before = count_due(w);

		if (!before || !start_jobs(w, 1))
			break;
		grow_poll(&w->grower, 1, job_done, w);
		place_created(w);
		if (count_due(w) >= before)
			break;
	}
}
