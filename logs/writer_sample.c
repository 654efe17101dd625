/*
 * writer_sample.c - a log set's samples (logset.h): each sample's values
 * into every file's rows and, first, into the journal (journal.h); every
 * opt->batch samples one librrd update per file with the rows it holds
 * (writer_send.c); the journal cut once its samples are in every file;
 * what each of those costs (logset_cost, the collector's cost table).
 *
 * The per-sample path is what the collector pays every interval on every
 * file, so it allocates nothing in the steady state: each file's rows
 * buffer is sized for a batch, and values come straight from the sample,
 * found through a position hint (a sample lists its instances in the
 * same order interval after interval).
 */
#define _GNU_SOURCE
#include "writer.h"

#include <math.h>
#include <string.h>

#include "rrdlock.h"

/* files written together in one sample (logset_write_span) */
#define WRITE_GROUP 64

static const struct instance_values *find_values(const struct sample *s,
						 struct wfile *f)
{
	if (!s)
		return NULL;
	if (f->hint < s->n && s->inst[f->hint].object == f->obj &&
	    !strcmp(s->inst[f->hint].instance, f->instance))
		return &s->inst[f->hint];
	for (size_t i = 0; i < s->n; i++)
		if (s->inst[i].object == f->obj &&
		    !strcmp(s->inst[i].instance, f->instance)) {
			f->hint = i;
			return &s->inst[i];
		}
	return NULL;
}

/* f's values of the sample (NAN unknown; outside the data source's bounds
 * unknown too, as librrd would store them) over (from, t]. An idle-born
 * file's first values cover its rows from its birth (logset.h
 * logset_add_idle_instance: a watched tree's zeros up to its watch
 * request); any other file's cover only what they were measured over. */
static void hold(struct wfile *f, double from, double t,
		 const struct instance_values *iv, double *v)
{
	if (f->fresh) {
		from = (double)f->born;
		f->fresh = 0;
	}

	for (size_t i = 0; i < f->n; i++) {
		const struct counter_def *d = catalog_counter_at(f->obj,
								 f->idx[i]);

		v[i] = iv ? iv->v[f->idx[i]] : NAN;
		if (v[i] < d->min || v[i] > d->max)
			v[i] = NAN;
		if (!isnan(v[i]))
			f->last_known = t;
	}
	rows_add(&f->rows, from, t, v);
}

static int check_time(const struct logset_writer *w, double t,
		      struct perr *e)
{
	char t1[40], t2[40];

	/* librrd keeps milliseconds: closer updates would be the same time */
	if (t < w->last + 0.001)
		return perr_set(e, "sample time %s is not after the last one written (%s)",
				util_iso8601(t1, sizeof(t1), (time_t)t,
					     (int)(fmod(t, 1) * 1000)),
				util_iso8601(t2, sizeof(t2), (time_t)w->last,
					     (int)(fmod(w->last, 1) * 1000)));
	if (t <= (double)w->meta.start)
		return perr_set(e, "sample time %s is not after the log set's start (%s)",
				util_iso8601(t1, sizeof(t1), (time_t)t, -1),
				util_iso8601(t2, sizeof(t2), w->meta.start, -1));
	return 0;
}

/* The end of the rows every file has written: the journal keeps the
 * samples after it. A file's held rows start one step before the first
 * one's end (a held unknown row may stand for more: those rows are
 * unknown in the file and in the replay alike); a file that holds
 * nothing but an unknown row has written all it will. */
static double written_through(const struct logset_writer *w)
{
	double step = (double)w->meta.interval, base = floor(w->last / step) * step;

	for (size_t i = 0; i < w->nfiles; i++) {
		const struct rows *r = &w->files[i].rows;
		double f = floor(r->at / step) * step;

		if (r->nheld > 1 || (r->nheld == 1 && !r->tail_unknown))
			f = r->held_t[0] - step;
		if (f < base)
			base = f;
	}
	return base;
}

/* The sample's values into the files' rows and, first, the journal:
 * -1 with e set when the journal could not be written (the rows still
 * go in). */
static int hold_all(struct logset_writer *w, double from, double t,
		    const struct sample *s, struct perr *e)
{
	double local[CATALOG_MAX_PER_OBJECT], *v = NULL;
	size_t off = 0;

	for (size_t i = journal_files(w->journal); i < w->nfiles; i++) {
		struct wfile *f = &w->files[i];

		if (journal_announce(w->journal, f->name, f->n,
				     (double)f->born, f->fresh) < 0)
			return perr_set(e, "out of memory");
	}
	v = journal_sample_begin(w->journal, from, t);
	for (size_t i = 0; i < w->nfiles; i++) {
		struct wfile *f = &w->files[i];

		hold(f, from, t, find_values(s, f), v ? v + off : local);
		off += f->n;
	}
	if (!v)
		return perr_set(e, "out of memory");
	return journal_sample_end(w->journal, e);
}

/* The cost clock's time since *lap to part, the clock restarted. */
static void charge(struct logset_writer *w, enum logset_cost_part part,
		   double *lap)
{
	double now = util_cost_clock();

	w->cost[part] += now - *lap;
	*lap = now;
}

int logset_write_span(struct logset_writer *w, double from, double t,
		      const struct sample *s, struct perr *e)
{
	struct perr pe;
	int rc = 0;
	double lap;

	if (check_time(w, t, e) < 0)
		return -1;
	lap = util_cost_clock();
	w->lock_until = rrdlock_deadline(RRDLOCK_SAMPLE_WAIT);
	writer_jobs(w, t);
	if (w->meta_dirty && writer_write_meta(w, e) < 0)
		rc = -1;	/* the rows still go in */
	charge(w, LC_RRD, &lap);
	/* Each file is written every batch samples, in groups of
	 * WRITE_GROUP files: group g in the samples where g == nsamples (mod
	 * batch). The groups spread the writes over the samples (at 1000
	 * files, one burst would take longer than the interval); within a
	 * group librrd's updates follow one another with its code and the
	 * kernel's paths warm: an update a second apart from the last costs
	 * about three times one right after it (docs/PERFORMANCE.md: the
	 * default set's 17 files in one sample instead of one or two a
	 * sample cut the collector's CPU by a fifth). */
	if (hold_all(w, from, t, s, &pe) < 0) {
		perr_set(e, "%s", pe.msg);
		rc = -1;
	}
	charge(w, LC_JOURNAL, &lap);
	for (size_t i = 0; i < w->nfiles; i++) {
		struct wfile *f = &w->files[i];

		if ((f->rows.nheld >= w->batch ||
		     (i / WRITE_GROUP) % w->batch == w->nsamples % w->batch) &&
		    writer_send(w, f, rc ? NULL : e) < 0)
			rc = -1;
	}
	charge(w, LC_RRD, &lap);
	w->nsamples++;
	w->last = t;
	if (journal_cut(w->journal, written_through(w), rc ? NULL : e) < 0)
		rc = -1;
	charge(w, LC_CUT, &lap);
	/* over TCP, the sample's changes to the set's other files (the
	 * journal's, at least) go to the daemon's host */
	if (w->mirror && writer_remote_mirror(w, rc ? NULL : e) < 0)
		rc = -1;
	/* a problem that lasts (a file that cannot be created or grown,
	 * rrdcached away) is reported at every sample until it is over, so
	 * the collector complains once and hears of the recovery once */
	if (rc == 0 && w->nfailing)
		rc = perr_set(e, "%s", w->failure.msg);
	return rc;
}

const char *logset_cost_name(enum logset_cost_part part)
{
	static const char *const name[LC_COUNT] = {
		[LC_JOURNAL] = "journal", [LC_RRD] = "rrd", [LC_CUT] = "cut",
	};

	return part < LC_COUNT ? name[part] : "?";
}

void logset_cost(const struct logset_writer *w, double sec[LC_COUNT])
{
	for (int i = 0; i < LC_COUNT; i++)
		sec[i] = w ? w->cost[i] : 0;
}

size_t logset_failing(const struct logset_writer *w, struct perr *e)
{
	if (w->nfailing)
		perr_set(e, "%s", w->failure.msg);
	return w->nfailing;
}

int logset_write_sample(struct logset_writer *w, double t,
			const struct sample *s, struct perr *e)
{
	double from = w->last > 0 ? w->last : (double)w->meta.start;

	return logset_write_span(w, from, t, s, e);
}

unsigned long logset_rows_lost(const struct logset_writer *w)
{
	unsigned long n = 0;

	for (size_t i = 0; i < w->nfiles; i++)
		n += w->files[i].rows.dropped;
	return n;
}

int logset_flush(struct logset_writer *w, struct perr *e)
{
	int rc = 0;
	double lap = util_cost_clock();

	writer_jobs_wait(w);
	/* at the close nothing else waits on the writer: a reader's lock
	 * is waited out as long as a reading command would wait */
	w->lock_until = rrdlock_deadline(w->closing ? RRDLOCK_READ_WAIT :
					 RRDLOCK_SAMPLE_WAIT);
	if (w->meta_dirty && writer_write_meta(w, e) < 0)
		rc = -1;
	for (size_t i = 0; i < w->nfiles; i++)
		if (writer_send(w, &w->files[i], rc ? NULL : e) < 0)
			rc = -1;
	charge(w, LC_RRD, &lap);
	return rc;
}
