/*
 * logset_write.c - the collector's side of a log set: create the directory,
 * lock it, create one RRD file per object instance, write a row per sample,
 * close.
 *
 *   logset_create        mkdir, .lock (flock + pid), perflog.meta, markers.tsv
 *   logset_add_instance  OBJECT[-INST].rrd via rrd_create_r2 under a
 *                        temporary name, then rename() (STYLE 8)
 *   logset_write_sample  the values held per file; every opt->batch samples
 *                        (logset_flush) one update per file with a
 *                        "T:v1:v2:..." per held row -> rrd_updatex_r, or
 *                        rrdc_update when writing through rrdcached
 *   logset_close_writer  stop time, perflog.meta, rrdc_flush, unlock
 *
 * The per-sample path is what the collector pays every interval on every
 * file, so it does no allocation of its own: each file keeps a fixed block
 * of held-back rows sized for its data sources, the values come straight from the
 * sample (found through a position hint, since a sample lists its instances
 * in the same order interval after interval), and the metadata is rewritten
 * only when instances were added since the last sample (one rewrite per
 * batch of new devices, and always after their RRD files exist, so a reader
 * never sees a counter whose file is missing).
 *
 * rrdcached: with opt->rrdcached (or $RRDCACHED_ADDRESS) every create and
 * update goes through librrd's client (rrdc_create, rrdc_update) with
 * absolute paths; the daemon owns the files then, so the temporary-name
 * rename does not apply (the daemon creates a file whole before it answers).
 * logset_close_writer flushes every file (rrdc_flush) so the set is
 * complete on disk when it returns.
 */
#define _GNU_SOURCE
#include "logset.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <rrd.h>
#include <rrd_client.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

/* "T" plus ":" and a %.17g value per data source. */
#define LINE_MAX_LEN (24 + CATALOG_MAX_PER_OBJECT * 28)

struct wfile {
	char path[PATH_MAX];		/* absolute */
	enum counter_object obj;
	char instance[SRC_NAME_MAX];
	int idx[CATALOG_MAX_PER_OBJECT];	/* counter index per DS */
	size_t n;
	size_t hint;			/* where the instance was last time */
	double *pend;			/* batch x n values held back */
	double *pend_t;			/* their times */
	size_t npend;			/* rows held back */
};

struct logset_writer {
	char dir[PATH_MAX];		/* absolute */
	struct logset_meta meta;
	int lockfd;
	struct wfile *files;
	size_t nfiles, capfiles;
	double last;			/* last update time, 0 none */
	int meta_dirty;
	int cached;			/* writing through rrdcached */
	unsigned batch;			/* rows held back per file, >= 1 */
	unsigned long nsamples;		/* samples written (staggers flushes) */
	char *lines;			/* batch x LINE_MAX_LEN update text */
	const char **argv;		/* batch pointers into lines */
};

#define DEFAULT_RETENTION (2UL * 86400)

const char *logset_writer_dir(const struct logset_writer *w)
{
	return w->dir;
}

const struct logset_meta *logset_writer_meta(const struct logset_writer *w)
{
	return &w->meta;
}

static int write_meta(struct logset_writer *w, struct perr *e)
{
	char path[PATH_MAX + 32];
	char *text = logset_meta_format(&w->meta);
	int rc;

	if (!text)
		return perr_set(e, "out of memory");
	snprintf(path, sizeof(path), "%s/%s", w->dir, LOGSET_META);
	rc = util_write_atomic(path, text, strlen(text), e);
	free(text);
	if (rc == 0)
		w->meta_dirty = 0;
	return rc;
}

/* Take DIR/.lock. Returns the fd, -1 with e set. */
static int take_lock(const char *dir, struct perr *e)
{
	char path[PATH_MAX + 16], pid[32];
	int fd;

	snprintf(path, sizeof(path), "%s/.lock", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return perr_set(e, "unable to create '%s': %s", path,
				strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int err = errno;
		ssize_t n = pread(fd, pid, sizeof(pid) - 1, 0);

		close(fd);
		if (err != EWOULDBLOCK)
			return perr_set(e, "unable to lock '%s': %s", path,
					strerror(err));
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		return perr_set(e, "log set '%s' is in use by pid %s", dir,
				*pid ? pid : "?");
	}
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 ||
	    pwrite(fd, pid, strlen(pid), 0) != (ssize_t)strlen(pid)) {
		perr_set(e, "unable to write '%s': %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Host name fit for a directory name. */
static void host_name(char *buf, size_t n)
{
	if (gethostname(buf, n) < 0 || !*buf)
		util_strlcpy(buf, "localhost", n);
	buf[n - 1] = '\0';
}

static int exists(const char *dir, const char *name)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* mkdir dir (the parent exists). 0 when created or already there. */
static int make_set_dir(const char *dir, const char *parent, struct perr *e)
{
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return perr_set(e, "unable to create log set under '%s': %s",
				parent, strerror(errno));
	return 0;
}

int logset_create(const struct logset_options *opt,
		  struct logset_writer **out, struct perr *e)
{
	struct logset_writer *w;
	char host[64], dir[PATH_MAX], stamp[32];
	const char *parent = opt->parent && *opt->parent ? opt->parent : ".";
	const char *cached;
	struct utsname u;
	struct tm tm;
	time_t now = time(NULL);
	int fd;

	*out = NULL;
	if (opt->interval == 0 || opt->interval > 86400)
		return perr_set(e, "bad interval %u (want 1 to 86400 seconds)",
				opt->interval);
	if (opt->name && (!*opt->name || strchr(opt->name, '/') ||
			  !strcmp(opt->name, ".") || !strcmp(opt->name, "..")))
		return perr_set(e, "bad log set name '%s'", opt->name);
	if (util_mkdirs(parent, 0755) < 0)
		return perr_set(e, "unable to create log set under '%s': %s",
				parent, strerror(errno));
	w = calloc(1, sizeof(*w));
	if (!w)
		return perr_set(e, "out of memory");
	w->lockfd = -1;
	host_name(host, sizeof(host));

	if (opt->name) {
		if (snprintf(dir, sizeof(dir), "%s/%s", parent, opt->name) >=
		    (int)sizeof(dir)) {
			perr_set(e, "path too long: '%s'", parent);
			goto fail;
		}
		if (make_set_dir(dir, parent, e) < 0)
			goto fail;
		fd = take_lock(dir, e);
		if (fd < 0)
			goto fail;
		if (exists(dir, LOGSET_META)) {
			close(fd);
			perr_set(e, "log set '%s' already exists", dir);
			goto fail;
		}
	} else {
		/* HOST-YYYYmmddTHHMMSS in local time (what the user reads);
		 * a second set started in the same second gets -2, -3 ... */
		char safe[64];

		util_strlcpy(safe, host, sizeof(safe));
		for (char *p = safe; *p; p++)
			if (*p == '/' || *p == ' ')
				*p = '_';
		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
		for (int i = 1;; i++) {
			if (i == 1)
				snprintf(dir, sizeof(dir), "%s/%s-%s", parent,
					 safe, stamp);
			else
				snprintf(dir, sizeof(dir), "%s/%s-%s-%d",
					 parent, safe, stamp, i);
			if (make_set_dir(dir, parent, e) < 0)
				goto fail;
			if (exists(dir, LOGSET_META) && i < 100)
				continue;
			fd = take_lock(dir, e);
			if (fd < 0) {
				if (i < 100)
					continue;
				goto fail;
			}
			if (exists(dir, LOGSET_META)) {
				close(fd);
				perr_set(e, "log set '%s' already exists", dir);
				goto fail;
			}
			break;
		}
	}
	w->lockfd = fd;
	if (!realpath(dir, w->dir)) {
		perr_set(e, "unable to resolve '%s': %s", dir, strerror(errno));
		goto fail;
	}

	w->meta.format = LOGSET_FORMAT;
	util_strlcpy(w->meta.version, PERFLOG_VERSION, sizeof(w->meta.version));
	util_strlcpy(w->meta.host, host, sizeof(w->meta.host));
	if (uname(&u) == 0)
		snprintf(w->meta.os, sizeof(w->meta.os), "%.30s %.60s %.30s",
			 u.sysname, u.release, u.machine);
	w->meta.interval = opt->interval;
	w->meta.retention = opt->retention ? opt->retention : DEFAULT_RETENTION;
	w->meta.start = opt->start ? opt->start : now;
	w->meta.start -= w->meta.start % (time_t)opt->interval;
	w->batch = opt->batch > 1 ? opt->batch : 1;
	if (w->batch > 3600)
		w->batch = 3600;
	w->lines = malloc((size_t)w->batch * LINE_MAX_LEN);
	w->argv = calloc(w->batch, sizeof(*w->argv));
	if (!w->lines || !w->argv) {
		perr_set(e, "out of memory");
		goto fail;
	}
	for (unsigned i = 0; i < w->batch; i++)
		w->argv[i] = w->lines + (size_t)i * LINE_MAX_LEN;

	cached = opt->rrdcached;
	if (!cached || !*cached)
		cached = getenv("RRDCACHED_ADDRESS");
	if (cached && *cached) {
		rrd_clear_error();
		if (rrdc_connect(cached) != 0 || !rrdc_is_connected(cached)) {
			const char *why = rrd_get_error();

			perr_set(e, "unable to connect to rrdcached at '%s': %s",
				 cached, why && *why ? why : "connection failed");
			goto fail;
		}
		w->cached = 1;
	}

	if (write_meta(w, e) < 0)
		goto fail;
	{
		char path[PATH_MAX + 32];
		int mfd;

		snprintf(path, sizeof(path), "%s/%s", w->dir, LOGSET_MARKERS);
		mfd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (mfd < 0) {
			perr_set(e, "unable to create '%s': %s", path,
				 strerror(errno));
			goto fail;
		}
		close(mfd);
	}
	*out = w;
	return 0;
fail:
	if (w->cached)
		rrdc_disconnect();
	if (w->lockfd >= 0)
		close(w->lockfd);
	free(w->lines);
	free(w->argv);
	free(w);
	return -1;
}

/* ---- RRD files ---- */

/* librrd's message for the last failure. Some failures leave it empty
 * (rrd_create_r2 on a full disk: librrd's own cleanup clobbers errno too),
 * so then look at the file system: no space left is the likely cause, and
 * the one the user must hear about. */
static const char *rrd_why(const char *dir)
{
	const char *why = rrd_get_error();
	struct statvfs vfs;

	if (why && *why)
		return why;
	if (statvfs(dir, &vfs) == 0 && (vfs.f_bavail == 0 || vfs.f_favail == 0))
		return strerror(ENOSPC);
	return "librrd gave no reason";
}

static void fmt_bound(char *buf, size_t n, double v)
{
	if (isnan(v))
		util_strlcpy(buf, "U", n);
	else
		snprintf(buf, n, "%.17g", v);
}

/* rrd_create_r2 in a short-lived child process. librrd builds the whole
 * file in memory before writing it (at a 1 s step and 2 days' retention,
 * about 10 MB for a disk's file), and the collector should not carry that
 * peak for the rest of its life: measured, the collector's peak RSS went
 * from 27 MB to its steady ~10 MB (docs/PERFORMANCE.md). The error text
 * comes back through a pipe. Without fork (it failed) the create runs
 * here. Returns 0, or -1 with why set. */
static int create_in_child(const char *path, unsigned long step,
			   time_t last_up, int argc, const char **argv,
			   char *why, size_t nwhy)
{
	int fds[2], status = 0;
	pid_t pid;
	ssize_t n;

	why[0] = '\0';
	if (pipe2(fds, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		rrd_clear_error();
		if (rrd_create_r2(path, step, last_up, 0, NULL, NULL, argc,
				  argv) == 0)
			return 0;
		util_strlcpy(why, rrd_get_error(), nwhy);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		rrd_clear_error();
		if (rrd_create_r2(path, step, last_up, 0, NULL, NULL, argc,
				  argv) == 0)
			_exit(0);
		n = write(fds[1], rrd_get_error(), strlen(rrd_get_error()));
		_exit(n < 0 ? 2 : 1);
	}
	close(fds[1]);
	do
		n = read(fds[0], why, nwhy - 1);
	while (n < 0 && errno == EINTR);
	why[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	return -1;	/* why may be empty: the caller says more */
}

static int create_rrd(struct logset_writer *w, struct wfile *f,
		      struct perr *e)
{
	enum { MAXARGS = CATALOG_MAX_PER_OBJECT + 8 };
	char argbuf[MAXARGS][96];
	const char *argv[MAXARGS];
	unsigned long step = w->meta.interval;
	unsigned long full = (w->meta.retention + step - 1) / step;
	unsigned long pmin = step >= 60 ? 1 : 60 / step;
	unsigned long phour = step >= 3600 ? 1 : 3600 / step;
	unsigned long rmin = (30UL * 86400 + pmin * step - 1) / (pmin * step);
	unsigned long rhour = (365UL * 86400 + phour * step - 1) / (phour * step);
	time_t last_up = w->last > 0 ? (time_t)floor(w->last) : w->meta.start;
	int argc = 0, rc;
	const char *cfs[] = { "MIN", "AVERAGE", "MAX" };

	if (full < 2)
		full = 2;
	for (size_t i = 0; i < f->n; i++) {
		const struct counter_def *d = catalog_counter_at(f->obj,
								 f->idx[i]);
		char lo[32], hi[32];

		fmt_bound(lo, sizeof(lo), d->min);
		fmt_bound(hi, sizeof(hi), d->max);
		snprintf(argbuf[argc], sizeof(argbuf[0]), "DS:%s:GAUGE:%lu:%s:%s",
			 d->ds, 2 * step, lo, hi);
		argc++;
	}
	snprintf(argbuf[argc++], sizeof(argbuf[0]), "RRA:AVERAGE:0.5:1:%lu",
		 full);
	for (int c = 0; c < 3; c++)
		snprintf(argbuf[argc++], sizeof(argbuf[0]),
			 "RRA:%s:0.5:%lu:%lu", cfs[c], pmin, rmin);
	for (int c = 0; c < 3; c++)
		snprintf(argbuf[argc++], sizeof(argbuf[0]),
			 "RRA:%s:0.5:%lu:%lu", cfs[c], phour, rhour);
	for (int i = 0; i < argc; i++)
		argv[i] = argbuf[i];

	rrd_clear_error();
	if (w->cached) {
		rc = rrdc_create(f->path, step, last_up, 0, argc, argv);
		if (rc != 0)
			return perr_set(e, "unable to create '%s' through rrdcached: %s",
					f->path, rrd_get_error());
		return 0;
	}
	{
		char tmp[PATH_MAX + 32], why[256];
		char *slash;

		/* ".NAME.tmp.PID" beside it: a reader never sees half a file */
		util_strlcpy(tmp, f->path, sizeof(tmp));
		slash = strrchr(tmp, '/');
		snprintf(slash + 1, sizeof(tmp) - (size_t)(slash + 1 - tmp),
			 ".%s.tmp.%ld", strrchr(f->path, '/') + 1,
			 (long)getpid());
		rc = create_in_child(tmp, step, last_up, argc, argv, why,
				     sizeof(why));
		if (rc != 0) {
			rrd_clear_error();
			perr_set(e, "unable to create '%s': %s", f->path,
				 why[0] ? why : rrd_why(w->dir));
			unlink(tmp);
			return -1;
		}
		if (rename(tmp, f->path) < 0) {
			perr_set(e, "unable to rename '%s': %s", tmp,
				 strerror(errno));
			unlink(tmp);
			return -1;
		}
	}
	return 0;
}

int logset_add_instance(struct logset_writer *w, enum counter_object obj,
			const char *instance, const int *counter_index,
			size_t ncounters, struct perr *e)
{
	struct wfile *f;
	struct logset_counter *nc;
	char name[192];

	if (!instance)
		instance = "";
	if ((unsigned)obj >= OBJ_COUNT)
		return perr_set(e, "unknown object %d", (int)obj);
	for (size_t i = 0; i < w->nfiles; i++)
		if (w->files[i].obj == obj &&
		    !strcmp(w->files[i].instance, instance))
			return 0;
	if (ncounters == 0 || ncounters > CATALOG_MAX_PER_OBJECT)
		return perr_set(e, "%s(%s): %zu counters (want 1 to %d)",
				catalog_objects[obj].name, instance, ncounters,
				CATALOG_MAX_PER_OBJECT);
	if (strlen(instance) >= SRC_NAME_MAX)
		return perr_set(e, "instance name too long: '%s'", instance);
	if (catalog_objects[obj].has_instances && !*instance)
		return perr_set(e, "%s needs an instance",
				catalog_objects[obj].name);
	for (size_t i = 0; i < ncounters; i++) {
		if (!catalog_counter_at(obj, counter_index[i]))
			return perr_set(e, "%s has no counter %d",
					catalog_objects[obj].name,
					counter_index[i]);
		for (size_t j = 0; j < i; j++)
			if (counter_index[j] == counter_index[i])
				return perr_set(e, "counter %d given twice",
						counter_index[i]);
	}
	if (w->nfiles == w->capfiles) {
		size_t cap = w->capfiles ? w->capfiles * 2 : 8;
		struct wfile *nf = realloc(w->files, cap * sizeof(*nf));

		if (!nf)
			return perr_set(e, "out of memory");
		w->files = nf;
		w->capfiles = cap;
	}
	f = &w->files[w->nfiles];
	memset(f, 0, sizeof(*f));
	f->obj = obj;
	util_strlcpy(f->instance, instance, sizeof(f->instance));
	memcpy(f->idx, counter_index, ncounters * sizeof(int));
	f->n = ncounters;
	logset_file_name(name, sizeof(name), obj, instance);
	if (snprintf(f->path, sizeof(f->path), "%s/%s", w->dir, name) >=
	    (int)sizeof(f->path))
		return perr_set(e, "path too long: '%s'", w->dir);
	/* two instances whose names differ only in characters that the file
	 * name replaces would share a file: refuse the second */
	for (size_t i = 0; i < w->nfiles; i++)
		if (!strcmp(w->files[i].path, f->path))
			return perr_set(e, "%s(%s) would share '%s' with %s(%s)",
					catalog_objects[obj].name, instance,
					name, catalog_objects[obj].name,
					w->files[i].instance);
	nc = realloc(w->meta.counters,
		     (w->meta.ncounters + ncounters) * sizeof(*nc));
	if (!nc)
		return perr_set(e, "out of memory");
	w->meta.counters = nc;
	/* the held-back rows live here, allocated once (not per sample) */
	f->pend = malloc((size_t)w->batch * ncounters * sizeof(double));
	f->pend_t = malloc((size_t)w->batch * sizeof(double));
	if (!f->pend || !f->pend_t || create_rrd(w, f, e) < 0) {
		if (!f->pend || !f->pend_t)
			perr_set(e, "out of memory");
		free(f->pend);
		free(f->pend_t);
		return -1;
	}
	for (size_t i = 0; i < ncounters; i++) {
		const struct counter_def *d = catalog_counter_at(obj,
								 counter_index[i]);
		struct logset_counter *c = &nc[w->meta.ncounters++];

		memset(c, 0, sizeof(*c));
		c->def = d;
		catalog_format_path(c->path, sizeof(c->path), d, instance);
		util_strlcpy(c->instance, instance, sizeof(c->instance));
		util_strlcpy(c->file, name, sizeof(c->file));
		util_strlcpy(c->ds, d->ds, sizeof(c->ds));
	}
	w->nfiles++;
	w->meta_dirty = 1;
	return 0;
}

/* ---- samples ---- */

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

/* Hold a sample's values for f (NAN = unknown) in row r. */
static void hold(struct wfile *f, size_t r, const struct instance_values *iv)
{
	double *v = f->pend + r * f->n;

	for (size_t i = 0; i < f->n; i++)
		v[i] = iv ? iv->v[f->idx[i]] : NAN;
}

/* "T:v1:v2..." into line (LINE_MAX_LEN) from held row r. */
static void build_line(char *line, const struct wfile *f, double t, size_t r)
{
	char *p = line, *end = line + LINE_MAX_LEN;
	const double *row = f->pend + r * f->n;

	p += snprintf(p, (size_t)(end - p), "%.3f", t);
	for (size_t i = 0; i < f->n; i++) {
		double v = row[i];

		if (isfinite(v))
			p += snprintf(p, (size_t)(end - p), ":%.17g", v);
		else {
			*p++ = ':';
			*p++ = 'U';
			*p = '\0';
		}
	}
}

/* One update with every row f holds. */
static int flush_file(struct logset_writer *w, struct wfile *f,
		      struct perr *e)
{
	int r;

	if (f->npend == 0)
		return 0;
	for (size_t k = 0; k < f->npend; k++)
		build_line(w->lines + k * LINE_MAX_LEN, f, f->pend_t[k], k);
	rrd_clear_error();
	if (w->cached)
		r = rrdc_update(f->path, (int)f->npend, w->argv);
	else
		r = rrd_updatex_r(f->path, NULL, 0, (int)f->npend, w->argv);
	f->npend = 0;
	if (r != 0)
		return perr_set(e, "unable to update '%s': %s", f->path,
				rrd_why(w->dir));
	return 0;
}

int logset_write_sample(struct logset_writer *w, double t,
			const struct sample *s, struct perr *e)
{
	int rc = 0;
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
	if (w->meta_dirty && write_meta(w, e) < 0)
		rc = -1;	/* the rows still go in */
	/* Each file is written every batch samples, file i in the samples
	 * where i == nsamples (mod batch): the writes are spread evenly over
	 * the samples rather than all falling on one (at 1000 files, one
	 * burst would take longer than the interval). */
	for (size_t i = 0; i < w->nfiles; i++) {
		struct wfile *f = &w->files[i];

		hold(f, f->npend, find_values(s, f));
		f->pend_t[f->npend++] = t;
		if ((f->npend >= w->batch || i % w->batch ==
		     w->nsamples % w->batch) &&
		    flush_file(w, f, rc ? NULL : e) < 0)
			rc = -1;
	}
	w->nsamples++;
	w->last = t;
	return rc;
}

int logset_flush(struct logset_writer *w, struct perr *e)
{
	int rc = 0;

	for (size_t i = 0; i < w->nfiles; i++)
		if (flush_file(w, &w->files[i], rc ? NULL : e) < 0)
			rc = -1;
	return rc;
}

int logset_close_writer(struct logset_writer *w, double stop, struct perr *e)
{
	int rc = 0;
	time_t step, end;

	if (!w)
		return 0;
	if (logset_flush(w, e) < 0)
		rc = -1;
	if (w->cached) {
		for (size_t i = 0; i < w->nfiles; i++) {
			rrd_clear_error();
			if (rrdc_flush(w->files[i].path) != 0 && rc == 0) {
				perr_set(e, "unable to flush '%s' through rrdcached: %s",
					 w->files[i].path, rrd_get_error());
				rc = -1;
			}
		}
		rrdc_disconnect();
	}
	/* the last row librrd completed: rows end on multiples of the step,
	 * and one still open at the last update is not in the archive */
	if (stop <= 0 || stop > w->last)
		stop = w->last;
	step = (time_t)w->meta.interval;
	end = ((time_t)floor(stop) / step) * step;
	if (end < w->meta.start)
		end = w->meta.start;
	w->meta.stop = end;
	if (write_meta(w, rc ? NULL : e) < 0)
		rc = -1;
	if (w->lockfd >= 0) {
		/* no pid left behind: the set is closed */
		if (ftruncate(w->lockfd, 0) < 0 && rc == 0)
			rc = perr_set(e, "unable to clear '%s/.lock': %s",
				      w->dir, strerror(errno));
		close(w->lockfd);
	}
	logset_meta_free(&w->meta);
	for (size_t i = 0; i < w->nfiles; i++) {
		free(w->files[i].pend);
		free(w->files[i].pend_t);
	}
	free(w->files);
	free(w->lines);
	free(w->argv);
	free(w);
	return rc;
}
