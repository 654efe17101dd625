/*
 * settle.c - a set whose collector is gone without closing it (kill -9,
 * the OOM killer, a host that went down) has rows only its journal holds
 * (journal.h): the collector writes the RRD files in batches. Readers
 * through logset_fetch lay the journal over the files, but `rrdtool
 * graph` (export --png) reads the files alone, so the charts of a killed
 * set lacked its last minute. logset_settle writes those rows into the
 * files, as the collector would have at its next flush: no collector
 * will ever write the set again (a set directory is never reused), and
 * its .lock, taken here as a collector takes it, keeps a second settle
 * or anything else that writes sets out meanwhile. The rows go through
 * rows_format, the writer's own text, so a settled file holds what a
 * cleanly stopped collector's would. The journal stays: its rows are the
 * files' now, and a reader's overlay only fills cells the files lack.
 */
#define _GNU_SOURCE
#include "logset.h"

#include <errno.h>
#include <fcntl.h>
#include <rrd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "journal.h"
#include "logset_int.h"
#include "rrdlock.h"
#include "setdir.h"

/* The value count of file (its counters in perflog.meta, in order). */
static size_t file_values(const struct logset_meta *m, const char *file)
{
	size_t n = 0;

	for (size_t i = 0; i < m->ncounters; i++)
		n += !strcmp(m->counters[i].file, file);
	return n;
}

/* Write the rows of r ending after the file's last update. 1 when some
 * were written, 0 none to write, -1 with e set. */
static int settle_file(int dfd, const char *dir, const char *file,
		       const struct logset_meta *m, const struct rows *r,
		       struct perr *e)
{
	struct setdir_rrd f;
	double until = rrdlock_deadline(RRDLOCK_READ_WAIT);
	size_t first = 0, k, len = 24 + r->n * 28;
	const char **argv;
	char *lines;
	time_t last, oldest;
	int rc;

	if (setdir_rrd_open(dfd, dir, file, 1, &f, e) < 0)
		return -1;
	rrd_clear_error();
	last = rrd_last_r(f.path);
	oldest = rrd_first_r(f.path, 0);
	if (last < 0 || oldest < 0) {
		perr_set(e, "unable to read '%s/%s': %s", dir, file,
			 rrd_get_error());
		setdir_rrd_close(&f);
		return -1;
	}
	while (first < r->nheld && r->held_t[first] <= (double)last)
		first++;
	k = r->nheld - first;
	/* a file smaller than its rows (the collector grows it first:
	 * killed before it could) would wrap and lose the set's first rows */
	if (k && r->held_t[r->nheld - 1] - (double)m->start >
		 (double)(last - oldest) + m->interval) {
		setdir_rrd_close(&f);
		return perr_set(e, "'%s/%s' is too small for the rows its journal holds",
				dir, file);
	}
	if (!k) {
		setdir_rrd_close(&f);
		return 0;
	}
	lines = malloc(k * len);
	argv = calloc(k, sizeof(*argv));
	rc = lines && argv ? 0 : perr_set(e, "out of memory");
	for (size_t i = 0; i < k && rc == 0; i++) {
		argv[i] = lines + i * len;
		if (rows_format(r, first + i, lines + i * len, len) < 0)
			rc = perr_set(e, "'%s/%s': a row too long", dir, file);
	}
	if (rc == 0) {
		rrd_clear_error();
		do	/* a reader's lock: wait it out (rrdlock.h) */
			rc = rrd_updatex_r(f.path, NULL, 0, (int)k, argv);
		while (rc != 0 && rrdlock_again(until));
		if (rc != 0)
			perr_set(e, "unable to update '%s/%s': %s", dir, file,
				 rrd_get_error());
	}
	free(argv);
	free(lines);
	setdir_rrd_close(&f);
	return rc != 0 ? -1 : 1;
}

/* 1 when some file lacks rows its journal holds (read-only: a set
 * another user owns, settled already, is not a reason to complain). */
static int lacking(int dfd, const char *dir, const struct logset_meta *m,
		   struct journal *j)
{
	for (size_t i = 0; i < m->ncounters; i++) {
		const char *file = m->counters[i].file;
		const struct rows *r;
		struct setdir_rrd f;
		time_t last;

		if (i && !strcmp(m->counters[i - 1].file, file))
			continue;
		r = journal_rows(j, file, file_values(m, file));
		if (!r || !r->nheld ||
		    setdir_rrd_open(dfd, dir, file, 0, &f, NULL) < 0)
			continue;
		rrd_clear_error();
		last = rrd_last_r(f.path);
		setdir_rrd_close(&f);
		if (last >= 0 && r->held_t[r->nheld - 1] > (double)last)
			return 1;
	}
	rrd_clear_error();
	return 0;
}

int logset_settle(const char *dir, struct perr *e)
{
	struct logset *ls;
	const struct logset_meta *m;
	int lockfd = -1, rc = 0, wrote = 0;

	/* a set that cannot be read is not this one's to say: the reader
	 * that follows says why, in one line. Its open read the journal
	 * (none: a set closed whole, an imported one, nothing held) */
	if (logset_open(dir, &ls, e) < 0)
		return 0;
	m = &ls->meta;
	if (!ls->journal || !lacking(ls->dfd, ls->dir, m, ls->journal))
		goto out;
	lockfd = setdir_openat(ls->dfd, ls->dir, ".lock", O_RDWR, 0, NULL);
	if (lockfd < 0) {	/* another user's set, a read-only medium */
		rc = perr_set(e, "unable to write '%s/.lock': %s", ls->dir,
			      strerror(errno));
		goto out;
	}
	if (flock(lockfd, LOCK_EX | LOCK_NB) < 0)
		goto out;	/* a collector writes it (or another settles) */
	for (size_t i = 0; i < m->ncounters && rc == 0; i++) {
		const char *file = m->counters[i].file;
		const struct rows *r;
		int got;

		if (i && !strcmp(m->counters[i - 1].file, file))
			continue;	/* a file's counters come together */
		r = journal_rows(ls->journal, file, file_values(m, file));
		if (!r || !r->nheld)
			continue;
		got = settle_file(ls->dfd, ls->dir, file, m, r, e);
		if (got < 0)
			rc = -1;
		else
			wrote |= got;
	}
out:
	if (lockfd >= 0)
		close(lockfd);	/* the flock goes with it */
	logset_close(ls);
	return rc < 0 ? -1 : wrote;
}
