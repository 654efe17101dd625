/*
 * journal.c - the journal's format and its writer (journal.h has the
 * layout and why; journal_read.c replays it).
 *
 * The writer keeps every record since the last cut in memory (buf, with
 * an index of where each starts): a write that failed is retried from
 * there, and a cut rewrites the file from it without reading it back.
 */
#define _GNU_SOURCE
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "setdir.h"

uint32_t journal_crc32(uint32_t crc, const void *p, size_t n)
{
	static uint32_t table[256];
	const unsigned char *b = p;

	if (!table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

struct jfile {
	char name[192];
	size_t n;
};

struct jrec {
	size_t off;		/* in buf */
	char type;
	double t;		/* a sample's end */
};

struct journal_writer {
	int dfd, fd;
	char dir[4096];
	unsigned step;
	double base;		/* in the file's header */
	double next_base;	/* what the next cut may drop up to */
	struct jfile *files;	/* announced, in order */
	size_t nfiles, capfiles, nvals;
	double *vals, from, t;	/* the sample being filled */
	size_t capvals;
	unsigned char *buf;	/* records since the last cut */
	size_t len, cap;
	size_t written;		/* bytes of buf in the file */
	struct jrec *recs;
	size_t nrecs, caprecs;
	size_t prefix;		/* the file's bytes before buf[0] */
	double synced, cut_at;	/* monotonic */
	size_t grown;		/* bytes appended since the last cut */
	int dirty;		/* written since the last fdatasync */
};

static int reserve(struct journal_writer *j, size_t more)
{
	if (util_grow(&j->buf, &j->cap, j->len + more, 1) < 0 ||
	    util_grow(&j->recs, &j->caprecs, j->nrecs + 1, sizeof(*j->recs)) < 0)
		return -1;
	return 0;
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* Open a record of the given payload length at the end of buf; the
 * payload starts 8 bytes into what is returned. */
static unsigned char *open_record(struct journal_writer *j, char type,
				  size_t len, double t)
{
	unsigned char *p;

	if (len > JOURNAL_RECORD_MAX || reserve(j, len + JOURNAL_FRAME) < 0)
		return NULL;
	p = j->buf + j->len;
	put32(p, (uint32_t)len);
	memset(p + 4, 0, 4);
	p[4] = (unsigned char)type;
	j->recs[j->nrecs].off = j->len;
	j->recs[j->nrecs].type = type;
	j->recs[j->nrecs].t = t;
	return p;
}

static void close_record(struct journal_writer *j, size_t len)
{
	unsigned char *p = j->buf + j->len;

	put32(p + 8 + len, journal_crc32(0, p + 4, len + 4));
	j->len += len + JOURNAL_FRAME;
	j->nrecs++;
}

/* An 'F' record into out (NULL: only its size). */
static size_t file_record(unsigned char *out, const struct jfile *f,
			  double born, int fresh)
{
	size_t nl = strlen(f->name), len = 16 + nl;

	if (out) {
		uint32_t n = (uint32_t)f->n, fr = fresh ? 1 : 0;

		put32(out, (uint32_t)len);
		memset(out + 4, 0, 4);
		out[4] = 'F';
		memcpy(out + 8, &born, 8);
		memcpy(out + 16, &n, 4);
		memcpy(out + 20, &fr, 4);
		memcpy(out + 24, f->name, nl);
		put32(out + 8 + len, journal_crc32(0, out + 4, len + 4));
	}
	return len + JOURNAL_FRAME;
}

static void header(unsigned char *h, unsigned step, double base)
{
	uint32_t v = JOURNAL_VERSION, s = step;

	memcpy(h, JOURNAL_MAGIC, 8);
	memcpy(h + 8, &v, 4);
	memcpy(h + 12, &s, 4);
	memcpy(h + 16, &base, 8);
	put32(h + 24, journal_crc32(0, h, 24));
	memset(h + 28, 0, 4);
}

int journal_create(int dfd, const char *dir, unsigned step, double base,
		   struct journal_writer **out, struct perr *e)
{
	struct journal_writer *j = calloc(1, sizeof(*j));
	unsigned char h[JOURNAL_HEADER];

	*out = NULL;
	if (!j)
		return perr_set(e, "out of memory");
	j->dfd = dfd;
	util_strlcpy(j->dir, dir, sizeof(j->dir));
	j->step = step;
	j->base = j->next_base = base;
	j->synced = j->cut_at = util_monotonic();
	j->fd = setdir_openat(dfd, dir, JOURNAL_NAME,
			      O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0644, e);
	if (j->fd < 0) {
		free(j);
		return -1;
	}
	header(h, step, base);
	if (util_write_full(j->fd, h, sizeof(h)) < 0) {
		perr_set(e, "unable to write '%s/%s': %s", dir, JOURNAL_NAME,
			 strerror(errno));
		journal_close(j, 1);
		return -1;
	}
	j->prefix = sizeof(h);
	*out = j;
	return 0;
}

size_t journal_files(const struct journal_writer *j)
{
	return j->nfiles;
}

int journal_announce(struct journal_writer *j, const char *name, size_t n,
		     double born, int fresh)
{
	struct jfile *f;
	size_t len;

	if (util_grow(&j->files, &j->capfiles, j->nfiles + 1,
		      sizeof(*j->files)) < 0)
		return -1;
	f = &j->files[j->nfiles];
	util_strlcpy(f->name, name, sizeof(f->name));
	f->n = n;
	len = file_record(NULL, f, born, fresh) - JOURNAL_FRAME;
	if (!open_record(j, 'F', len, 0))
		return -1;
	file_record(j->buf + j->len, f, born, fresh);
	j->len += len + JOURNAL_FRAME;
	j->nrecs++;
	j->nfiles++;
	j->nvals += n;
	return 0;
}

double *journal_sample_begin(struct journal_writer *j, double from, double t)
{
	if (util_grow(&j->vals, &j->capvals, j->nvals, sizeof(*j->vals)) < 0)
		return NULL;
	j->from = from;
	j->t = t;
	return j->vals;
}

int journal_sample_end(struct journal_writer *j, struct perr *e)
{
	double now = util_monotonic();
	size_t len = 16 + j->nvals * 8;
	unsigned char *p = open_record(j, 'S', len, j->t);

	if (!p)
		return perr_set(e, "out of memory");
	/* copied, not filled in place: a record need not start 8-aligned */
	memcpy(p + 8, &j->from, 8);
	memcpy(p + 16, &j->t, 8);
	memcpy(p + 24, j->vals, j->nvals * 8);
	close_record(j, len);
	j->grown += len + JOURNAL_FRAME;
	if (j->fd < 0) {
		/* no file since a cut could not reopen it (said then): keep
		 * nothing */
		j->len = j->written = j->nrecs = 0;
		return 0;
	}
	if (j->written == j->len)
		return 0;
	if (util_write_full(j->fd, j->buf + j->written, j->len - j->written) < 0) {
		int err = errno;

		/* a part written would be damage before every later record:
		 * take it back, the whole is tried again next time */
		if (ftruncate(j->fd, (off_t)(j->prefix + j->written)) < 0) {
			/* the reader stops at the damage; nothing better */
		}
		return perr_set(e, "unable to write '%s/%s': %s", j->dir,
				JOURNAL_NAME, strerror(err));
	}
	j->written = j->len;
	j->dirty = 1;
	if (now - j->synced >= JOURNAL_SYNC) {
		fdatasync(j->fd);
		j->synced = now;
		j->dirty = 0;
	}
	return 0;
}

/* The new file: header, the files announced before buf[cut], buf from
 * cut on. */
static unsigned char *cut_image(const struct journal_writer *j, double base,
				size_t cut, size_t keep_files, size_t *len)
{
	size_t n = JOURNAL_HEADER + (j->len - cut), off;
	unsigned char *img;

	for (size_t i = 0; i < keep_files; i++)
		n += file_record(NULL, &j->files[i], 0, 0);
	img = malloc(n);
	if (!img)
		return NULL;
	header(img, j->step, base);
	off = JOURNAL_HEADER;
	for (size_t i = 0; i < keep_files; i++)
		off += file_record(img + off, &j->files[i], 0, 0);
	memcpy(img + off, j->buf + cut, j->len - cut);
	*len = n;
	return img;
}

int journal_cut(struct journal_writer *j, double base, struct perr *e)
{
	double now = util_monotonic(), upto = j->next_base;
	size_t k = 0, cut, later_files = 0, len;
	unsigned char *img;
	int fd;

	if (j->fd < 0 || (now - j->cut_at < JOURNAL_CUT &&
			  j->grown < JOURNAL_CUT_BYTES))
		return 0;
	j->cut_at = now;
	j->grown = 0;
	j->next_base = base;
	if (!(upto > j->base) || j->written < j->len)
		return 0;
	/* the samples ending at or before upto go, with the announcements
	 * before them (their files are announced again at the top) */
	for (size_t i = 0; i < j->nrecs; i++)
		if (j->recs[i].type == 'S' && j->recs[i].t <= upto)
			k = i + 1;
	if (k == 0)
		return 0;
	cut = k < j->nrecs ? j->recs[k].off : j->len;
	for (size_t i = k; i < j->nrecs; i++)
		later_files += j->recs[i].type == 'F';
	img = cut_image(j, upto, cut, j->nfiles - later_files, &len);
	if (!img)
		return perr_set(e, "out of memory");
	if (setdir_write_atomic(j->dfd, j->dir, JOURNAL_NAME, (char *)img, len,
				e) < 0) {
		free(img);
		return -1;
	}
	free(img);
	fd = setdir_openat(j->dfd, j->dir, JOURNAL_NAME, O_WRONLY | O_APPEND,
			   0, e);
	close(j->fd);
	j->fd = fd;	/* -1: no more journal (said once, here) */
	memmove(j->buf, j->buf + cut, j->len - cut);
	j->len -= cut;
	j->written = j->len;
	for (size_t i = k; i < j->nrecs; i++) {
		j->recs[i - k] = j->recs[i];
		j->recs[i - k].off -= cut;
	}
	j->nrecs -= k;
	j->prefix = len - j->len;
	j->base = upto;
	j->synced = now;	/* written and synced whole */
	j->dirty = 0;
	return fd < 0 ? -1 : 0;
}

void journal_close(struct journal_writer *j, int unlink_it)
{
	if (!j)
		return;
	if (j->fd >= 0) {
		if (j->dirty && !unlink_it)
			fdatasync(j->fd);
		close(j->fd);
	}
	if (unlink_it)
		unlinkat(j->dfd, JOURNAL_NAME, 0);
	free(j->files);
	free(j->buf);
	free(j->recs);
	free(j->vals);
	free(j);
}
