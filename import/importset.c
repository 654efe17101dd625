/*
 * importset.c - parsed snapshots to a log set, through the collector's
 * writer (logs/logset.h): the same files, layout, metadata and markers
 * as a collected set, so view, export and report read it unchanged.
 *
 * The set is built under a hidden name beside where it goes
 * (".import-PID-HOST-..."), closed, and renamed to HOST-YYYYmmddTHHMMSS
 * (the UTC time of its first row, as collected sets are named, -2, -3
 * ... when taken) only when every row is in: a reader never sees half
 * of it and a failure leaves nothing behind (the hidden directory is
 * removed). The files are created sized for the whole import
 * (layout_span_for of its duration: the span a collector would have
 * grown them to by its end), so no growth step runs while it writes.
 */
#define _GNU_SOURCE
#include "import.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../logs/layout.h"
#include "../logs/logset.h"
#include "../logs/setdir.h"

/* An instance of the set and the counters the sources gave it. */
struct want {
	enum counter_object obj;
	char instance[SRC_NAME_MAX];
	unsigned char has[CATALOG_MAX_PER_OBJECT];
};

struct wants {
	struct want *w;
	size_t n, cap;
};

static int collect(struct wants *ws, const struct sample *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct instance_values *iv = &s->inst[i];
		const struct object_def *od = &catalog_objects[iv->object];
		struct want *w = NULL;

		for (size_t k = 0; k < ws->n && !w; k++)
			if (ws->w[k].obj == iv->object &&
			    !strcmp(ws->w[k].instance, iv->instance))
				w = &ws->w[k];
		if (!w) {
			if (util_grow(&ws->w, &ws->cap, ws->n + 1,
				      sizeof(*ws->w)) < 0)
				return -1;
			w = &ws->w[ws->n++];
			memset(w, 0, sizeof(*w));
			w->obj = iv->object;
			util_strlcpy(w->instance, iv->instance,
				     sizeof(w->instance));
		}
		for (int k = 0; k < od->ncounters; k++)
			if (!isnan(iv->v[k]))
				w->has[k] = 1;
	}
	return 0;
}

/* Every instance with a known value somewhere, with those counters. */
static int add_instances(struct logset_writer *lw,
			 const struct import_set *const *sets, size_t n,
			 struct perr *e)
{
	struct wants ws = { 0 };
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < sets[i]->n; k++)
			if (collect(&ws, &sets[i]->snap[k].s) < 0) {
				free(ws.w);
				return perr_set(e, "out of memory");
			}
	for (size_t i = 0; i < ws.n && rc == 0; i++) {
		int idx[CATALOG_MAX_PER_OBJECT];
		size_t m = 0;

		for (int k = 0; k < catalog_objects[ws.w[i].obj].ncounters; k++)
			if (ws.w[i].has[k])
				idx[m++] = k;
		if (m)
			rc = logset_add_instance(lw, ws.w[i].obj,
						 ws.w[i].instance, idx, m, e);
	}
	free(ws.w);
	return rc;
}

/* Remove a set directory that could not be completed (its files, and
 * the writer's private .grow.PID directories, one level down). */
static void remove_set(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (d) {
		while ((de = readdir(d))) {
			int fd2;
			DIR *d2;

			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			if (unlinkat(dirfd(d), de->d_name, 0) == 0)
				continue;
			fd2 = openat(dirfd(d), de->d_name,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
			d2 = fd2 >= 0 ? fdopendir(fd2) : NULL;
			if (!d2 && fd2 >= 0)
				close(fd2);
			if (d2) {
				struct dirent *x;

				while ((x = readdir(d2)))
					unlinkat(dirfd(d2), x->d_name, 0);
				closedir(d2);
			}
			unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR);
		}
		closedir(d);
	}
	rmdir(dir);
}

/* The host as a file name part. */
static void host_part(const char *host, char *buf, size_t n)
{
	util_strlcpy(buf, host, n);
	for (char *p = buf; *p; p++)
		if (*p == '/' || *p == ' ' || (unsigned char)*p < ' ')
			*p = '_';
	if (buf[0] == '.' || !buf[0])
		buf[0] = '_';
}

/* Rename the complete set into place under its own name. */
static int place(const char *parent, const char *from, const char *host,
		 time_t start, char *dir, size_t dir_n, struct perr *e)
{
	char stamp[32], base[160];
	struct tm tm;

	gmtime_r(&start, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	snprintf(base, sizeof(base), "%s-%s", host, stamp);
	for (int i = 1; i <= 100; i++) {
		int len = i == 1 ? snprintf(dir, dir_n, "%s/%s", parent, base) :
			snprintf(dir, dir_n, "%s/%s-%d", parent, base, i);

		if (len < 0 || (size_t)len >= dir_n)
			return perr_set(e, "path too long: '%s'", parent);
		if (renameat2(AT_FDCWD, from, AT_FDCWD, dir,
			      RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	return perr_set(e, "unable to rename '%s' to '%s': %s", from, dir,
			strerror(errno));
}

/* The columns a perfmon CSV had that perflog has no counter for, kept
 * in the set beside the RRD files (imported-other.csv, -2 ... for a
 * second file of the set). */
static int keep_other(struct logset_writer *w,
		      const struct import_set *const *sets, size_t n,
		      struct perr *e)
{
	int k = 0;

	for (size_t i = 0; i < n; i++) {
		char name[64];
		int fd;

		if (!sets[i]->other.len)
			continue;
		if (k++)
			snprintf(name, sizeof(name), "imported-other-%d.csv", k);
		else
			snprintf(name, sizeof(name), "imported-other.csv");
		fd = setdir_open_file(logset_writer_dir(w), name,
				      O_WRONLY | O_CREAT | O_EXCL, 0644, e);
		if (fd < 0)
			return -1;
		if (util_write_full(fd, sets[i]->other.p, sets[i]->other.len) < 0 ||
		    fsync(fd) < 0) {
			perr_set(e, "unable to write '%s/%s': %s",
				 logset_writer_dir(w), name, strerror(errno));
			close(fd);
			return -1;
		}
		close(fd);
	}
	return 0;
}

static int check_order(const struct import_set *const *sets, size_t n,
		       struct perr *e)
{
	for (size_t i = 0; i < n; i++) {
		if (!sets[i]->n)
			return perr_set(e, "nothing to import");
		if (sets[i]->step != sets[0]->step)
			return perr_set(e, "one log set wants one interval: %u s and %u s",
					sets[0]->step, sets[i]->step);
		if (i && sets[i]->snap[0].t <= sets[i - 1]->snap[sets[i - 1]->n - 1].t)
			return perr_set(e, "the files overlap in time: import them one at a time");
	}
	return 0;
}

/* A signal came (cmd_import.c's handler): the set is given up. */
static int stopped(const struct import_options *opt, struct perr *e)
{
	if (!opt->stop || !*opt->stop)
		return 0;
	perr_set(e, "interrupted: the set not written");
	return 1;
}

int import_write(const struct import_set *const *sets, size_t n,
		 const struct import_options *opt, char *dir, size_t dir_n,
		 struct perr *e)
{
	const char *parent = opt->parent ? opt->parent : "logs";
	const char *host = opt->host ? opt->host : sets[0]->host;
	const struct import_set *last = sets[n - 1];
	char abs[PATH_MAX], tmp[200], hp[64], tmpdir[PATH_MAX];
	struct logset_options lo;
	struct logset_writer *w = NULL;
	struct layout l;
	double first, end;
	int rc = -1;

	if (!n || check_order(sets, n, e) < 0)
		return -1;
	if (util_mkdirs(parent, 0755) < 0 || !realpath(parent, abs))
		return perr_set(e, "unable to create log directory '%s': %s",
				parent, strerror(errno));
	host_part(host, hp, sizeof(hp));
	snprintf(tmp, sizeof(tmp), ".import-%ld-%s", (long)getpid(), hp);
	if (snprintf(tmpdir, sizeof(tmpdir), "%s/%s", abs, tmp) >=
	    (int)sizeof(tmpdir))
		return perr_set(e, "path too long: '%s'", abs);
	first = sets[0]->snap[0].from;
	end = last->snap[last->n - 1].t;
	memset(&lo, 0, sizeof(lo));
	lo.parent = abs;
	lo.name = tmp;
	lo.interval = sets[0]->step;
	lo.start = (time_t)floor(first);
	lo.host = host;
	lo.os = sets[0]->os;
	lo.source = sets[0]->source;
	/* no rows wait long: the files exist before the first is written */
	lo.batch = sets[0]->step >= 450 ? 1 : 450 / sets[0]->step;
	if (lo.batch > 64)
		lo.batch = 64;
	l.step = sets[0]->step;
	l.retention = 2UL * 86400;
	lo.retention = l.retention;
	lo.first_span = layout_span_for(&l, layout_first_span(), end - first);
	/* straight to the files: an rrdcached of this host has no business
	 * with a set that is not yet in place */
	unsetenv("RRDCACHED_ADDRESS");
	if (logset_create(&lo, &w, e) < 0)
		return -1;
	if (add_instances(w, sets, n, e) < 0 || logset_flush(w, e) < 0 ||
	    keep_other(w, sets, n, e) < 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < sets[i]->n; k++) {
			const struct import_snap *p = &sets[i]->snap[k];
			double from = k ? p->from : i ? sets[i - 1]->snap[sets[i - 1]->n - 1].t : p->from;

			if (stopped(opt, e))
				goto out;
			/* between files, the time neither logged is unknown */
			if (i && !k && p->from > from)
				from = p->from;
			if (logset_write_span(w, from, p->t, &p->s, e) < 0)
				goto out;
		}
	rc = logset_close_writer(w, end, e);
	w = NULL;
	if (rc == 0 && stopped(opt, e))
		rc = -1;
	if (rc == 0)
		rc = place(abs, tmpdir, hp, (time_t)floor(first) -
			   (time_t)floor(first) % (time_t)lo.interval, dir,
			   dir_n, e);
out:
	if (w) {
		struct perr pe;

		logset_close_writer(w, end, &pe);
	}
	if (rc < 0)
		remove_set(tmpdir);
	return rc;
}
