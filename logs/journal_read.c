/*
 * journal_read.c - reading a set's journal and replaying its samples into
 * rows (journal.h has the layout; logset_read.c lays the rows over what
 * the RRD files hold).
 *
 * The file is read whole and checked record by record; the first one that
 * is cut short, claims more than is left or than any record may hold,
 * fails its CRC, or carries another value count than the files announced
 * before it ends the reading there: a damaged tail is replayed up to the
 * damage, and the note says where it stopped.
 */
#define _GNU_SOURCE
#include "journal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "setdir.h"

struct rfile {
	char name[192];
	size_t n, off;		/* values, where they start in a sample */
	double born;
	int fresh;
	size_t first;		/* its first sample (index in samples) */
	int replayed;
	struct rows rows;
};

struct rsample {
	double from, t;
	const unsigned char *v;	/* nvals f64, unaligned */
	size_t nvals;
};

struct journal {
	unsigned char *data;
	size_t len;
	double base;
	unsigned long step;
	struct rfile *files;
	size_t nfiles, capfiles;
	struct rsample *samples;
	size_t nsamples, capsamples;
	int cut_short;		/* it ends in a record cut short */
};

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static double getf64(const unsigned char *p)
{
	double v;

	memcpy(&v, p, 8);
	return v;
}

void journal_free(struct journal *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->nfiles; i++)
		if (j->files[i].replayed)
			rows_free(&j->files[i].rows);
	free(j->files);
	free(j->samples);
	free(j->data);
	free(j);
}

/* One record's payload (type 'F' or 'S') into j. 0, 1 when it does not
 * fit what came before (damage), -1 out of memory. */
static int take(struct journal *j, char type, const unsigned char *p,
		size_t len, size_t *nvals)
{
	if (type == 'F') {
		struct rfile *f;

		if (len < 17 || len - 16 >= sizeof(f->name))
			return 1;
		if (util_grow(&j->files, &j->capfiles, j->nfiles + 1,
			      sizeof(*j->files)) < 0)
			return -1;
		f = &j->files[j->nfiles];
		memset(f, 0, sizeof(*f));
		f->born = getf64(p);
		f->n = get32(p + 8);
		f->fresh = get32(p + 12) != 0;
		memcpy(f->name, p + 16, len - 16);
		f->off = *nvals;
		f->first = j->nsamples;
		if (f->n > JOURNAL_RECORD_MAX / 8)
			return 1;
		*nvals += f->n;
		j->nfiles++;
		return 0;
	}
	if (type == 'S') {
		struct rsample *s;

		if (len < 16 || (len - 16) % 8 || (len - 16) / 8 != *nvals)
			return 1;
		if (util_grow(&j->samples, &j->capsamples, j->nsamples + 1,
			      sizeof(*j->samples)) < 0)
			return -1;
		s = &j->samples[j->nsamples++];
		s->from = getf64(p);
		s->t = getf64(p + 8);
		s->v = p + 16;
		s->nvals = *nvals;
		if (!isfinite(s->t) || !isfinite(s->from)) {
			j->nsamples--;
			return 1;
		}
		return 0;
	}
	return 1;
}

/* Check the header: 0, or 1 with note set. */
static int check_header(struct journal *j, unsigned step, const char *dir,
			struct perr *note)
{
	const unsigned char *h = j->data;

	if (j->len < JOURNAL_HEADER || memcmp(h, JOURNAL_MAGIC, 8) ||
	    get32(h + 24) != journal_crc32(0, h, 24)) {
		perr_set(note, "log set '%s': %s: not a journal (bad header): not replayed",
			 dir, JOURNAL_NAME);
		return 1;
	}
	if (get32(h + 8) != JOURNAL_VERSION) {
		perr_set(note, "log set '%s': %s: version %u, this perflog reads %u: not replayed",
			 dir, JOURNAL_NAME, get32(h + 8), JOURNAL_VERSION);
		return 1;
	}
	if (get32(h + 12) != step) {
		perr_set(note, "log set '%s': %s: step %u, the set's is %u: not replayed",
			 dir, JOURNAL_NAME, get32(h + 12), step);
		return 1;
	}
	j->step = step;
	j->base = getf64(h + 16);
	return 0;
}

int journal_load(int dfd, const char *dir, unsigned step,
		 struct journal **out, struct perr *note)
{
	struct journal *j;
	size_t off = JOURNAL_HEADER, nvals = 0;

	*out = NULL;
	note->msg[0] = '\0';
	j = calloc(1, sizeof(*j));
	if (!j)
		return perr_set(note, "out of memory");
	j->data = (unsigned char *)setdir_read(dfd, JOURNAL_NAME, &j->len);
	if (!j->data) {
		int err = errno;

		free(j);
		if (err == ENOENT)	/* closed whole, or an older set */
			return 0;
		perr_set(note, "log set '%s': %s: %s: not replayed", dir,
			 JOURNAL_NAME, strerror(err));
		return 0;
	}
	if (check_header(j, step, dir, note)) {
		journal_free(j);
		return 0;
	}
	while (off < j->len) {
		const unsigned char *p = j->data + off;
		size_t left = j->len - off, len;
		int rc = 1;

		len = left >= 4 ? get32(p) : 0;
		if (left >= JOURNAL_FRAME && len <= JOURNAL_RECORD_MAX &&
		    len <= left - JOURNAL_FRAME &&
		    get32(p + 8 + len) == journal_crc32(0, p + 4, len + 4))
			rc = take(j, (char)p[4], p + 8, len, &nvals);
		if (rc < 0) {
			journal_free(j);
			return perr_set(note, "out of memory");
		}
		if (rc > 0) {
			j->cut_short = left < JOURNAL_FRAME ||
				       len > left - JOURNAL_FRAME;
			perr_set(note, "log set '%s': %s: damaged at byte %zu of %zu: replayed up to there",
				 dir, JOURNAL_NAME, off, j->len);
			break;
		}
		off += len + JOURNAL_FRAME;
	}
	*out = j;
	return 0;
}

int journal_cut_short(const struct journal *j)
{
	return j && j->cut_short;
}

double journal_last(const struct journal *j)
{
	double t;

	if (!j || !j->nsamples)
		return 0;
	t = floor(j->samples[j->nsamples - 1].t / (double)j->step) *
	    (double)j->step;
	return t > j->base ? t : 0;
}

/* Replay f's samples into its rows. 0, or -1 out of memory. */
static int replay(struct journal *j, struct rfile *f)
{
	/* as the writer's rows: from the file's birth (writer_add.c) */
	double at = f->born > j->base ? f->born : j->base;
	/* a late sample fills up to (step + ROWS_LATE_MAX) / step rows */
	size_t nrows = (j->nsamples - f->first + 2) *
		       (2 + (size_t)(ROWS_LATE_MAX / (double)j->step));
	double *v = malloc((f->n ? f->n : 1) * sizeof(double));

	if (!v)
		return -1;
	at = floor(at / (double)j->step) * (double)j->step;
	if (rows_init(&f->rows, j->step, f->n, at, nrows, nrows) < 0) {
		free(v);
		return -1;
	}
	f->replayed = 1;
	for (size_t i = f->first; i < j->nsamples; i++) {
		const struct rsample *s = &j->samples[i];
		double from = s->from;

		for (size_t k = 0; k < f->n; k++)
			v[k] = getf64(s->v + (f->off + k) * 8);
		if (i == f->first && f->fresh)
			from = f->born;
		rows_add(&f->rows, from, s->t, v);
	}
	free(v);
	return 0;
}

const struct rows *journal_rows(struct journal *j, const char *file,
				size_t n)
{
	struct rfile *f = NULL;

	if (!j)
		return NULL;
	for (size_t i = 0; i < j->nfiles; i++)
		if (!strcmp(j->files[i].name, file))
			f = &j->files[i];
	if (!f || f->n != n)
		return NULL;
	if (!f->replayed && replay(j, f) < 0)
		return NULL;
	return &f->rows;
}
