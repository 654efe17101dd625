/*
 * logset_read.c - reading a log set: perflog.meta at open, the RRD files
 * only when fetched (a missing or damaged file is an error of that fetch,
 * not of the open, so the rest of the set stays readable; a new
 * instance's file that the writer has yet to rename into place reads as
 * unknown rows: open_rrd).
 *
 * Time convention (the one every reader relies on). librrd's rrd_fetch_r
 * returns *start aligned to the archive's step and rows whose timestamps
 * are start + (i+1)*step: row i is the consolidated value of the interval
 * (start + i*step, start + (i+1)*step], stamped with its END, exactly like
 * `rrdtool fetch` prints it. A logset_series stores first = start + step, so
 * row i ENDS at first + i*step and covers (first + (i-1)*step, first +
 * i*step]. To get the rows that end in [from, to] we ask librrd for
 * (from - step, to].
 *
 * Several files fetched together may answer with different grids (a file
 * created later, a coarser archive chosen for one of them): the first
 * file's grid is the series' grid and every other file's rows are placed by
 * their end time; rows that do not fall on the grid are left unknown.
 *
 * Which archive librrd reads: the finest that covers the whole span asked
 * (or, when none does, the one that covers most of it). The writer sizes
 * every archive to cover the set from its start (layout.h), not before:
 * so a span reaching before the start is asked from librrd cut at the
 * start (one row before it), else a coarse archive that happens to reach
 * further back would win over the full-resolution one; the rows before
 * the start come back unknown, on the grid of the span asked.
 *
 * Nothing in the set is opened following a symlink (setdir.h): librrd is
 * given /proc/self/fd/N of a file opened with O_NOFOLLOW.
 */
#define _GNU_SOURCE
#include "logset.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <rrd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "journal.h"
#include "logset_int.h"
#include "rrdlock.h"
#include "setdir.h"

const struct logset_meta *logset_meta(const struct logset *ls)
{
	return &ls->meta;
}

const char *logset_dir(const struct logset *ls)
{
	return ls->dir;
}

/* Read and parse DIR/perflog.meta into m. */
static int read_meta(int dfd, const char *dir, struct logset_meta *m,
		     struct perr *e)
{
	char path[PATH_MAX + 32];
	struct perr pe;
	char *text;

	snprintf(path, sizeof(path), "%s/%s", dir, LOGSET_META);
	text = setdir_read(dfd, LOGSET_META, NULL);
	if (!text) {
		if (errno == ENOENT)
			return perr_set(e, "log set '%s': %s: missing (not a perflog log set?)",
					dir, LOGSET_META);
		if (errno == ELOOP)
			return perr_set(e, "log set '%s': %s is a symbolic link (not followed)",
					dir, LOGSET_META);
		return perr_set(e, "log set '%s': %s: %s", dir, LOGSET_META,
				strerror(errno));
	}
	if (logset_meta_parse(text, path, m, &pe) < 0) {
		free(text);
		/* the parser names PATH:LINE, or the set for a newer
		 * format; say it as "log set 'DIR': perflog.meta:LINE: why" */
		size_t pl = strlen(path);

		if (!strncmp(pe.msg, path, pl))	/* "PATH:LINE: why" */
			return perr_set(e, "log set '%s': %s%s", dir,
					LOGSET_META, pe.msg + pl);
		return perr_set(e, "%s", pe.msg);
	}
	free(text);
	return 0;
}

/* 1 when a collector holds the set's .lock (it is being written). */
static int being_written(const struct logset *ls)
{
	int fd = setdir_openat(ls->dfd, ls->dir, ".lock", O_RDONLY, 0, NULL);
	int live = 0;

	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_SH | LOCK_NB) < 0)
		live = errno == EWOULDBLOCK;
	close(fd);
	return live;
}

/* (Re)read the journal. Its note (damage, a layout not known) is one line
 * on stderr, said once for the same note: the rows before the damage are
 * read all the same. A live set's last record cut short is the
 * collector's write in progress, not damage: no note. -1 only out of
 * memory. */
static int load_journal(struct logset *ls, struct perr *e)
{
	struct journal *j;
	struct perr note;

	if (journal_load(ls->dfd, ls->dir, ls->meta.interval, &j, &note) < 0)
		return perr_set(e, "%s", note.msg);
	journal_free(ls->journal);
	ls->journal = j;
	if (note.msg[0] && journal_cut_short(j) && being_written(ls))
		note.msg[0] = '\0';
	if (note.msg[0] && strcmp(note.msg, ls->noted.msg)) {
		fprintf(stderr, "perflog: note: %s\n", note.msg);
		ls->noted = note;
	}
	return 0;
}

int logset_open(const char *dir, struct logset **out, struct perr *e)
{
	struct logset *ls;

	*out = NULL;
	ls = calloc(1, sizeof(*ls));
	if (!ls)
		return perr_set(e, "out of memory");
	if (util_strlcpy(ls->dir, dir, sizeof(ls->dir)) < 0) {
		free(ls);
		return perr_set(e, "path too long: '%s'", dir);
	}
	/* "logs/x/" and "logs/x" are the same set in messages */
	for (size_t n = strlen(ls->dir); n > 1 && ls->dir[n - 1] == '/'; n--)
		ls->dir[n - 1] = '\0';
	ls->dfd = setdir_open(ls->dir, e);
	if (ls->dfd < 0 || read_meta(ls->dfd, ls->dir, &ls->meta, e) < 0) {
		if (ls->dfd >= 0)
			close(ls->dfd);
		free(ls);
		return -1;
	}
	if (load_journal(ls, e) < 0) {
		logset_close(ls);
		return -1;
	}
	*out = ls;
	return 0;
}

void logset_close(struct logset *ls)
{
	if (!ls)
		return;
	logset_meta_free(&ls->meta);
	journal_free(ls->journal);
	close(ls->dfd);
	free(ls);
}

int logset_refresh(struct logset *ls, struct perr *e)
{
	struct logset_meta m;

	if (read_meta(ls->dfd, ls->dir, &m, e) < 0)
		return -1;
	/* the writer only appends counters; anything else means the set was
	 * replaced under us, and old indices would point at other counters */
	if (m.ncounters < ls->meta.ncounters) {
		logset_meta_free(&m);
		return perr_set(e, "log set '%s': counters disappeared from %s",
				ls->dir, LOGSET_META);
	}
	for (size_t i = 0; i < ls->meta.ncounters; i++)
		if (strcmp(m.counters[i].path, ls->meta.counters[i].path)) {
			logset_meta_free(&m);
			return perr_set(e, "log set '%s': counter %zu changed in %s",
					ls->dir, i, LOGSET_META);
		}
	logset_meta_free(&ls->meta);
	ls->meta = m;
	return load_journal(ls, e);
}

long logset_find(const struct logset *ls, const char *path)
{
	/* accept the exported spellings too: "\Obj(I)\C", "\\HOST\Obj(I)\C" */
	if (path[0] == '\\' && path[1] == '\\') {
		const char *p = strchr(path + 2, '\\');

		if (!p)
			return -1;
		path = p + 1;
	} else if (path[0] == '\\') {
		path++;
	}
	for (size_t i = 0; i < ls->meta.ncounters; i++)
		if (!strcasecmp(ls->meta.counters[i].path, path))
			return (long)i;
	return -1;
}

time_t logset_last(struct logset *ls)
{
	time_t last = 0;
	double until = rrdlock_deadline(RRDLOCK_READ_WAIT);

	for (size_t i = 0; i < ls->meta.ncounters; i++) {
		struct setdir_rrd r;
		time_t t;
		size_t j;

		/* once per file */
		for (j = 0; j < i; j++)
			if (!strcmp(ls->meta.counters[j].file,
				    ls->meta.counters[i].file))
				break;
		if (j < i)
			continue;
		if (setdir_rrd_open(ls->dfd, ls->dir, ls->meta.counters[i].file,
				    0, &r, NULL) < 0)
			continue;
		rrd_clear_error();
		do	/* a live set: an update may hold the lock (rrdlock.h) */
			t = rrd_last_r(r.path);
		while (t < 0 && rrdlock_again(until));
		setdir_rrd_close(&r);
		if (t > last)
			last = t;
	}
	rrd_clear_error();
	/* the rows the journal holds beyond the files' */
	if ((time_t)journal_last(ls->journal) > last)
		last = (time_t)journal_last(ls->journal);
	/* a file's last update starts at the set's start before any row */
	return last > ls->meta.start ? last : 0;
}

void logset_series_free(struct logset_series *s)
{
	if (!s)
		return;
	free(s->values);
	memset(s, 0, sizeof(*s));
}

/* dsmap[c]: the position in names[] of the data source of column c. */
static int map_ds(const struct logset *ls, const char *file,
		  const size_t *idx, const size_t *cols, size_t ncols,
		  char **names, unsigned long ds_cnt, long *dsmap,
		  struct perr *e)
{
	for (size_t c = 0; c < ncols; c++) {
		const char *ds = ls->meta.counters[idx[cols[c]]].ds;

		dsmap[c] = -1;
		for (unsigned long d = 0; d < ds_cnt; d++)
			if (!strcmp(names[d], ds)) {
				dsmap[c] = (long)d;
				break;
			}
		if (dsmap[c] < 0)
			return perr_set(e, "log set '%s': %s has no data source '%s'",
					ls->dir, file, ds);
	}
	return 0;
}

static time_t floor_to(time_t t, time_t step)
{
	time_t r = t % step;

	return r < 0 ? t - r - step : t - r;
}

/* The series' grid, from the first file's step: the rows ending in
 * [from, to] (librrd rounds the end up; with a coarser archive, the row
 * that holds `to` stays), all unknown until placed. */
static int make_grid(struct logset_series *out, time_t from, time_t to,
		     unsigned long step, const char *file, struct perr *e)
{
	time_t grid = floor_to(from - (time_t)step, (time_t)step);
	time_t keep_end = to + (time_t)step - 1;

	out->first = grid + (time_t)step;
	out->step = step;
	out->rows = keep_end < out->first ? 0 :
		    (size_t)((keep_end - grid) / (time_t)step);
	out->values = malloc((out->rows ? out->rows : 1) * out->ncols *
			     sizeof(double));
	if (!out->values)
		return perr_set(e, "out of memory fetching '%s'", file);
	for (size_t i = 0; i < out->rows * out->ncols; i++)
		out->values[i] = NAN;
	return 0;
}

/* Open a file perflog.meta maps. A new instance's file is mapped before
 * the writer renames it into place (grow.h: ".NAME.tmp.new" until then):
 * while that is so, errno EINPROGRESS (its rows are unknown, the rest of
 * the set reads); a file that is gone is an error naming it. */
static int open_rrd(struct logset *ls, const char *file,
		    struct setdir_rrd *r, struct perr *e)
{
	char pending[NAME_MAX + 32];

	if (setdir_rrd_open(ls->dfd, ls->dir, file, 0, r, e) == 0)
		return 0;
	if (errno != ENOENT || grow_created_name(pending, sizeof(pending), file) < 0)
		return -1;
	if (faccessat(ls->dfd, pending, F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
		errno = EINPROGRESS;
		return -1;
	}
	/* renamed between the two looks */
	return setdir_rrd_open(ls->dfd, ls->dir, file, 0, r, e);
}

/* Where counter k's values are in its file's journal records: the
 * writer maps a file's counters together, in its data sources' order
 * (writer_add.c). */
static size_t ds_position(const struct logset *ls, size_t k, size_t *nds)
{
	const char *file = ls->meta.counters[k].file;
	size_t first = k, end = k + 1;

	while (first > 0 && !strcmp(ls->meta.counters[first - 1].file, file))
		first--;
	while (end < ls->meta.ncounters &&
	       !strcmp(ls->meta.counters[end].file, file))
		end++;
	*nds = end - first;
	return k - first;
}

/* One grid row's value from the journal's rows ending in (end - step,
 * end] of data source d: as the archive would consolidate them (cf), known
 * when at least half of them are. */
static double consolidate(const struct rows *r, size_t d, time_t end,
			  unsigned long step, unsigned long interval,
			  const char *cf)
{
	double acc = NAN;
	size_t known = 0;

	for (size_t i = 0; i < r->nheld; i++) {
		double t = r->held_t[i], v = r->held[i * r->n + d];

		if (t <= (double)end - (double)step || t > (double)end ||
		    !isfinite(v))
			continue;
		known++;
		if (isnan(acc))
			acc = v;
		else if (*cf == 'A')
			acc += v;
		else if ((*cf == 'M' && cf[1] == 'I') == (v < acc))
			acc = v;
	}
	if (!known || known * 2 * interval < step)
		return NAN;
	return *cf == 'A' ? acc / (double)known : acc;
}

/* The rows a file lacks (unknown in out) from the journal's replay: a
 * killed collector's last rows, a live set's rows not yet written. */
static void overlay_journal(struct logset *ls, const char *file,
			    const size_t *idx, const size_t *cols,
			    size_t ncols, const char *cf,
			    struct logset_series *out)
{
	const struct rows *r = NULL;
	size_t nds, pos;

	if (!ls->journal || !out->rows || !ncols)
		return;
	pos = ds_position(ls, idx[cols[0]], &nds);
	r = journal_rows(ls->journal, file, nds);
	if (!r || !r->nheld)
		return;
	for (size_t row = 0; row < out->rows; row++) {
		time_t end = out->first + (time_t)(row * out->step);

		if ((double)end <= r->held_t[0] - (double)out->step ||
		    (double)end - (double)out->step >= r->held_t[r->nheld - 1])
			continue;
		for (size_t c = 0; c < ncols; c++) {
			double *cell = &out->values[row * out->ncols + cols[c]];

			if (!isnan(*cell))
				continue;
			pos = ds_position(ls, idx[cols[c]], &nds);
			*cell = consolidate(r, pos, end, out->step,
					    ls->meta.interval, cf);
		}
	}
}

/* Fetch one file and place its DS into the columns listed in cols (which
 * are the positions in idx of counters of this file); 1 when the file is
 * absent (its columns left unknown), -1 on an error. */
static int fetch_file(struct logset *ls, const char *file, const size_t *idx,
		      const size_t *cols, size_t ncols, time_t from, time_t to,
		      const char *cf, unsigned long resolution,
		      struct logset_series *out, int first, struct perr *e)
{
	time_t start, end, floor_start;
	unsigned long step = resolution ? resolution : ls->meta.interval;
	unsigned long ds_cnt = 0;
	char **names = NULL, buf[600];
	rrd_value_t *data = NULL;
	long dsmap[CATALOG_MAX_PER_OBJECT * 4];
	struct setdir_rrd r;
	size_t rows;
	int rc = -1;

	if (ncols > sizeof(dsmap) / sizeof(dsmap[0]))
		return perr_set(e, "log set '%s': %s: too many counters",
				ls->dir, file);
	if (open_rrd(ls, file, &r, e) < 0) {
		if (errno != EINPROGRESS)
			return -1;
		if (!first)
			overlay_journal(ls, file, idx, cols, ncols, cf, out);
		return 1;
	}
	/* nothing before the set's start: see the top of this file */
	floor_start = ls->meta.start - (time_t)ls->meta.interval;
	start = from - (time_t)step;
	if (start < floor_start)
		start = floor_start;
	end = to > start ? to : start + 1;
	if (rrdlock_fetch(r.path, cf, &start, &end, &step, &ds_cnt, &names,
			  &data) != 0) {
		const char *why = rrd_get_error();

		perr_set(e, "log set '%s': %s: %s", ls->dir, file,
			 why && *why ? setdir_rrd_why(&r, file, why, buf,
						      sizeof(buf)) :
				       "unable to fetch");
		setdir_rrd_close(&r);
		return -1;
	}
	setdir_rrd_close(&r);
	rows = step && end > start ? (size_t)((end - start) / (time_t)step) : 0;
	if (map_ds(ls, file, idx, cols, ncols, names, ds_cnt, dsmap, e) < 0 ||
	    (first && make_grid(out, from, to, step, file, e) < 0))
		goto out;
	for (size_t k = 0; k < rows; k++) {
		time_t t = start + (time_t)((k + 1) * step);
		time_t off = t - out->first;
		size_t row;

		if (off < 0 || off % (time_t)out->step)
			continue;
		row = (size_t)(off / (time_t)out->step);
		if (row >= out->rows)
			continue;
		for (size_t c = 0; c < ncols; c++)
			out->values[row * out->ncols + cols[c]] =
				data[k * ds_cnt + (size_t)dsmap[c]];
	}
	overlay_journal(ls, file, idx, cols, ncols, cf, out);
	rc = 0;
out:
	for (unsigned long d = 0; d < ds_cnt; d++)
		rrd_freemem(names[d]);
	rrd_freemem(names);
	rrd_freemem(data);
	return rc;
}

int logset_fetch(struct logset *ls, const size_t *idx, size_t n, time_t from,
		 time_t to, const char *cf, unsigned long resolution,
		 struct logset_series *out, struct perr *e)
{
	size_t *cols = NULL;
	char *done = NULL;
	int rc = -1, first = 1;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return perr_set(e, "no counters to fetch");
	if (to < from)
		return perr_set(e, "empty time range");
	if (strcmp(cf, "AVERAGE") && strcmp(cf, "MIN") && strcmp(cf, "MAX"))
		return perr_set(e, "unknown consolidation '%s'", cf);
	for (size_t i = 0; i < n; i++)
		if (idx[i] >= ls->meta.ncounters)
			return perr_set(e, "counter index %zu out of range",
					idx[i]);
	out->ncols = n;
	cols = malloc(n * sizeof(*cols));
	done = calloc(n, 1);
	if (!cols || !done) {
		perr_set(e, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const char *file = ls->meta.counters[idx[i]].file;
		size_t nc = 0;

		if (done[i])
			continue;
		/* every requested counter of this file: one rrd_fetch_r */
		for (size_t j = i; j < n; j++)
			if (!done[j] &&
			    !strcmp(ls->meta.counters[idx[j]].file, file)) {
				cols[nc++] = j;
				done[j] = 1;
			}
		int got = fetch_file(ls, file, idx, cols, nc, from, to, cf,
				     resolution, out, first, e);
		if (got < 0)
			goto out;
		if (got == 0)
			first = 0;
	}
	/* no file there at all: unknown rows on the set's own grid */
	if (first && make_grid(out, from, to, resolution ? resolution :
			       ls->meta.interval, "the set", e) < 0)
		goto out;
	rc = 0;
out:
	free(cols);
	free(done);
	if (rc < 0)
		logset_series_free(out);
	return rc;
}
