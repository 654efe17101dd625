/*
 * grow.c - the writer's worker process: create and grow RRD files (grow.h
 * has the protocol and why).
 *
 *   parent                               child (cwd = the set directory)
 *   grow_start: fork ------------------> for each job: create or resize,
 *   grow_poll:  read "FILE OK MS MSG\n" <--- one line per job, as it ends
 *               EOF + waitpid: idle         _exit
 */
#define _GNU_SOURCE
#include "grow.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <rrd.h>
#include <rrd_client.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "setdir.h"

#define WORKDIR_FMT ".grow.%ld"

int grow_busy(const struct grower *g)
{
	return g->pid != 0;
}

/* librrd's message for the last failure, or the file system's state when
 * it gave none (a full disk can leave it empty: librrd's cleanup clobbers
 * errno). */
static void rrd_why_need(char *msg, size_t n, const char *what,
			 unsigned long long need)
{
	const char *why = rrd_get_error();
	struct statvfs vfs;

	/* librrd's rrd_resize reports a failed posix_fallocate with the
	 * errno of whatever ran after it: the file system says it better.
	 * A file too large for the space left (need: its bytes) fails
	 * with room to spare, and librrd's create gives no reason at all */
	if (statvfs(".", &vfs) == 0 &&
	    (vfs.f_bavail == 0 || vfs.f_favail == 0 ||
	     (unsigned long long)vfs.f_bavail * vfs.f_frsize < need))
		snprintf(msg, n, "%s: %s (librrd: %s)", what, strerror(ENOSPC),
			 why && *why ? why : "no reason");
	else
		snprintf(msg, n, "%s: %s", what,
			 why && *why ? why : "librrd gave no reason");
	rrd_clear_error();
}

static void rrd_why(char *msg, size_t n, const char *what)
{
	rrd_why_need(msg, n, what, 0);
}

static long long file_bytes(const char *name)
{
	struct stat st;

	return lstat(name, &st) == 0 ? (long long)st.st_size : -1;
}

int grow_created_name(char *buf, size_t n, const char *name)
{
	return snprintf(buf, n, ".%s.tmp.new", name) >= (int)n ? -1 : 0;
}

/* Over TCP: the daemon creates the file at "SET/NAME" (grow.h). */
static int create_remote(const struct grower *g, const struct grow_job *j,
			 int argc, const char **argv, char *msg, size_t nmsg)
{
	struct cachedconn conn = g->conn;
	char name[PATH_MAX];

	snprintf(name, sizeof(name), "%s/%s", g->remote, j->name);
	rrd_clear_error();
	if (rrdc_connect(g->cached) != 0 ||
	    rrdc_create_r2(name, g->layout.step, j->last_up, 0, NULL, NULL,
			   argc, argv) != 0 || cachedconn_broken(&conn)) {
		char what[PATH_MAX + 300];

		snprintf(what, sizeof(what), "rrdcached at '%s': unable to create '%s'",
			 g->cached, name);
		rrd_why(msg, nmsg, what);
		return -1;
	}
	return 0;
}

static int do_create(const struct grower *g, const struct grow_job *j,
		     char *msg, size_t nmsg)
{
	char args[LAYOUT_MAXARGS][LAYOUT_ARGLEN], tmp[NAME_MAX + 32];
	const char *argv[LAYOUT_MAXARGS];
	int argc = layout_args(&g->layout, j->span, j->obj, j->idx, j->n, args,
			       argv);

	if (g->remote)
		return create_remote(g, j, argc, argv, msg, nmsg);
	/* left under its temporary name: the writer renames it into place
	 * once perflog.meta names it (grow.h) */
	if (grow_created_name(tmp, sizeof(tmp), j->name) < 0) {
		snprintf(msg, nmsg, "name too long: '%s'", j->name);
		return -1;
	}
	unlink(tmp);
	rrd_clear_error();
	if (rrd_create_r2(tmp, g->layout.step, j->last_up, 0, NULL, NULL, argc,
			  argv) != 0) {
		char what[PATH_MAX + 64];

		snprintf(what, sizeof(what), "unable to create '%s/%s'", g->dir,
			 j->name);
		/* the half-written file is still there: space for the
		 * rest of it is what was missing */
		unsigned long long need = layout_bytes(&g->layout, j->span,
						       j->n);
		long long had = file_bytes(tmp);

		if (had > 0)
			need = need > (unsigned long long)had ?
			       need - (unsigned long long)had : 0;
		rrd_why_need(msg, nmsg, what, need);
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* Rows of each archive of the file librrd knows as path; 0 or -1. */
static int current_rows(const char *path, unsigned long *rows)
{
	rrd_info_t *info, *p;
	int found = 0;

	rrd_clear_error();
	info = rrd_info_r(path);
	if (!info)
		return -1;
	for (p = info; p; p = p->next) {
		int i;
		char tail[16];

		if (sscanf(p->key, "rra[%d].%15s", &i, tail) == 2 &&
		    !strcmp(tail, "rows") && i >= 0 && i < LAYOUT_NRRA &&
		    p->type == RD_I_CNT) {
			rows[i] = p->value.u_cnt;
			found++;
		}
	}
	rrd_info_free(info);
	return found == LAYOUT_NRRA ? 0 : -1;
}

/* Remove the private work directory (cwd is the set directory). */
static void drop_workdir(const char *work)
{
	int fd = open(work, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0) {
		unlinkat(fd, "resize.rrd", 0);
		unlinkat(fd, "step.rrd", 0);
		close(fd);
	}
	rmdir(work);
}

/* rrd_resize each archive that needs rows, in the work directory (cwd),
 * from src; the result is "step.rrd" there. Returns the number of steps
 * done, -1 with msg set. */
static int resize_steps(const struct grower *g, const struct grow_job *j,
			const char *src, const unsigned long *rows, char *msg,
			size_t nmsg)
{
	char in[4200], rra[16], add[32];
	char *argv[5] = { (char *)"resize", in, rra, (char *)"GROW", add };
	int steps = 0;

	snprintf(in, sizeof(in), "%s", src);
	for (int i = 0; i < LAYOUT_NRRA; i++) {
		unsigned long want = layout_rows(&g->layout, j->span, i);

		if (want <= rows[i])
			continue;
		snprintf(rra, sizeof(rra), "%d", i);
		snprintf(add, sizeof(add), "%lu", want - rows[i]);
		rrd_clear_error();
		if (rrd_resize(5, argv) != 0) {
			char what[PATH_MAX + 64];

			snprintf(what, sizeof(what), "unable to grow '%s/%s'",
				 g->dir, j->name);
			rrd_why(msg, nmsg, what);
			return -1;
		}
		if (rename("resize.rrd", "step.rrd") < 0) {
			snprintf(msg, nmsg, "unable to grow '%s/%s': %s",
				 g->dir, j->name, strerror(errno));
			return -1;
		}
		snprintf(in, sizeof(in), "step.rrd");
		steps++;
	}
	return steps;
}

/* The test seam: wait before the rename that swaps the file in. */
static void test_delay(void)
{
	const char *s = getenv("PERFLOG_TEST_GROW_DELAY");
	double d = s ? strtod(s, NULL) : 0;

	if (d > 0 && d < 3600) {
		struct timespec ts = { (time_t)d,
				       (long)((d - (double)(time_t)d) * 1e9) };

		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
	}
}

/* Flush (before) or forget (after) the file in rrdcached. */
static int daemon_says(const struct grower *g, const struct grow_job *j,
		       int forget, char *msg, size_t nmsg)
{
	struct cachedconn conn = g->conn;
	char path[PATH_MAX + 200];
	int rc;

	if (!g->cached)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", g->dir, j->name);
	rrd_clear_error();
	rc = rrdc_connect(g->cached);
	if (rc == 0)
		rc = forget ? rrdc_forget(path) : rrdc_flush(path);
	/* a flush said done by librrd alone would let the daemon write the
	 * rows it holds into the file being replaced (cachedconn.h) */
	if (rc == 0 && cachedconn_broken(&conn))
		rc = -1;
	if (rc != 0) {
		char what[PATH_MAX + 300];

		snprintf(what, sizeof(what), "rrdcached at '%s': unable to %s '%s'",
			 g->cached, forget ? "forget" : "flush", path);
		rrd_why(msg, nmsg, what);
		return forget ? 0 : -1;	/* forgetting is a courtesy */
	}
	return 0;
}

static int do_resize(const struct grower *g, const struct grow_job *j,
		     char *msg, size_t nmsg)
{
	struct setdir_rrd src;
	struct perr e;
	unsigned long rows[LAYOUT_NRRA];
	char work[NAME_MAX + 32];
	int steps, fd;

	if (setdir_rrd_open(g->dfd, g->dir, j->name, 0, &src, &e) < 0) {
		snprintf(msg, nmsg, "%s", e.msg);
		return -1;
	}
	if (current_rows(src.path, rows) < 0) {
		rrd_why(msg, nmsg, "unable to read its archives");
		setdir_rrd_close(&src);
		return -1;
	}
	if (daemon_says(g, j, 0, msg, nmsg) < 0) {
		setdir_rrd_close(&src);
		return -1;
	}
	snprintf(work, sizeof(work), WORKDIR_FMT, (long)getpid());
	drop_workdir(work);	/* ours, from a job that failed */
	if (mkdir(work, 0700) < 0 || chdir(work) < 0) {
		snprintf(msg, nmsg, "unable to create '%s/%s': %s", g->dir,
			 work, strerror(errno));
		setdir_rrd_close(&src);
		return -1;
	}
	steps = resize_steps(g, j, src.path, rows, msg, nmsg);
	setdir_rrd_close(&src);
	fd = steps > 0 ? open("step.rrd", O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (steps > 0 && (fd < 0 || fsync(fd) < 0)) {
		snprintf(msg, nmsg, "unable to sync '%s/%s/step.rrd': %s",
			 g->dir, work, strerror(errno));
		steps = -1;
	}
	if (fd >= 0)
		close(fd);
	if (steps > 0) {
		test_delay();
		if (renameat(AT_FDCWD, "step.rrd", g->dfd, j->name) < 0) {
			snprintf(msg, nmsg, "unable to replace '%s/%s': %s",
				 g->dir, j->name, strerror(errno));
			steps = -1;
		}
	}
	if (fchdir(g->dfd) < 0)
		_exit(3);	/* cannot happen: we were there */
	drop_workdir(work);
	if (steps > 0)
		daemon_says(g, j, 1, msg, nmsg);
	return steps < 0 ? -1 : 0;
}

int grow_run_job(const struct grower *g, const struct grow_job *j,
		 char *msg, size_t nmsg)
{
	msg[0] = '\0';
	return j->kind == GROW_CREATE ? do_create(g, j, msg, nmsg) :
	       do_resize(g, j, msg, nmsg);
}

static void trace(const struct grow_job *j, long long before, double t0,
		  double ms, int rc)
{
	const char *f = getenv("PERFLOG_GROW_TRACE");
	FILE *t;

	if (!f || !*f || !(t = fopen(f, "ae")))
		return;
	fprintf(t, "%s %s %lld %lld %.3f %.6f %s\n",
		j->kind == GROW_CREATE ? "create" : "grow", j->name, before,
		file_bytes(j->name), ms, t0, rc == 0 ? "ok" : "failed");
	fclose(t);
}

static void child(const struct grower *g, int out)
{
	sigset_t none;
	char line[sizeof(((struct grow_result *)0)->msg) + 64];

	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (nice(10) < 0) {
		/* not fatal: only kinder to the sampler */
	}
	rrdc_disconnect();	/* the parent's connection is not ours */
	if (fchdir(g->dfd) < 0)
		_exit(1);	/* the parent reports every job failed */
	for (size_t i = 0; i < g->njobs; i++) {
		const struct grow_job *j = &g->jobs[i];
		char msg[sizeof(((struct grow_result *)0)->msg)];
		long long before = file_bytes(j->name);
		double t0 = util_monotonic(), ms;
		int rc = grow_run_job(g, j, msg, sizeof(msg)), n;

		ms = (util_monotonic() - t0) * 1000;
		trace(j, before, t0, ms, rc);
		for (char *p = msg; *p; p++)
			if (*p == '\n')
				*p = ' ';
		n = snprintf(line, sizeof(line), "%zu %d %.3f %s\n", i,
			     rc == 0, ms, msg);
		if (write(out, line, (size_t)n) < 0)
			_exit(2);	/* the writer is gone */
	}
	_exit(0);
}

int grow_start(struct grower *g, const struct grow_job *jobs, size_t n,
	       struct perr *e)
{
	int fds[2];
	pid_t pid;

	if (g->pid)
		return perr_set(e, "a growth worker is running");
	g->jobs = malloc(n * sizeof(*jobs));
	g->reported = calloc(n ? n : 1, 1);
	if (!g->jobs || !g->reported) {
		free(g->jobs);
		free(g->reported);
		g->jobs = NULL;
		g->reported = NULL;
		return perr_set(e, "out of memory");
	}
	memcpy(g->jobs, jobs, n * sizeof(*jobs));
	g->njobs = n;
	g->nbuf = 0;
	if (pipe2(fds, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		int err = errno;

		free(g->jobs);
		free(g->reported);
		g->jobs = NULL;
		g->reported = NULL;
		return perr_set(e, "unable to start the log set's worker: %s",
				strerror(err));
	}
	if (pid == 0) {
		close(fds[0]);
		child(g, fds[1]);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	g->pid = pid;
	g->fd = fds[0];
	return 0;
}

/* Hand over the complete lines in the buffer. */
static void parse_lines(struct grower *g,
			void (*done)(void *, const struct grow_result *),
			void *ctx)
{
	char *nl;

	while ((nl = memchr(g->buf, '\n', g->nbuf))) {
		struct grow_result r;
		size_t i;
		int ok, off = 0;

		*nl = '\0';
		memset(&r, 0, sizeof(r));
		if (sscanf(g->buf, "%zu %d %lf %n", &i, &ok, &r.ms, &off) >= 3 &&
		    i < g->njobs && !g->reported[i]) {
			g->reported[i] = 1;
			r.file = g->jobs[i].file;
			r.ok = ok;
			snprintf(r.msg, sizeof(r.msg), "%s", g->buf + off);
			done(ctx, &r);
		}
		g->nbuf -= (size_t)(nl + 1 - g->buf);
		memmove(g->buf, nl + 1, g->nbuf);
	}
	if (g->nbuf == sizeof(g->buf))	/* no line that long is ours */
		g->nbuf = 0;
}

/* The worker's pipe is closed: reap it; jobs it never reported failed. */
static void ended(struct grower *g,
		  void (*done)(void *, const struct grow_result *), void *ctx)
{
	int st = 0;

	while (waitpid(g->pid, &st, 0) < 0 && errno == EINTR)
		;
	close(g->fd);
	for (size_t i = 0; i < g->njobs; i++) {
		struct grow_result r;

		if (g->reported[i])
			continue;
		memset(&r, 0, sizeof(r));
		r.file = g->jobs[i].file;
		if (WIFSIGNALED(st))
			snprintf(r.msg, sizeof(r.msg), "%s: the log set's worker was killed (signal %d)",
				 g->jobs[i].name, WTERMSIG(st));
		else
			snprintf(r.msg, sizeof(r.msg), "%s: the log set's worker failed (status %d)",
				 g->jobs[i].name, WEXITSTATUS(st));
		done(ctx, &r);
	}
	free(g->jobs);
	free(g->reported);
	g->jobs = NULL;
	g->reported = NULL;
	g->njobs = 0;
	g->pid = 0;
	g->fd = -1;
}

void grow_poll(struct grower *g, int wait,
	       void (*done)(void *, const struct grow_result *), void *ctx)
{
	while (g->pid) {
		ssize_t n = read(g->fd, g->buf + g->nbuf,
				 sizeof(g->buf) - g->nbuf);

		if (n > 0) {
			g->nbuf += (size_t)n;
			parse_lines(g, done, ctx);
		} else if (n == 0) {
			ended(g, done, ctx);
		} else if (errno == EAGAIN && wait) {
			struct pollfd p = { .fd = g->fd, .events = POLLIN };

			poll(&p, 1, -1);
		} else if (errno != EINTR && errno != EAGAIN) {
			ended(g, done, ctx);	/* cannot read: wait it out */
		} else if (errno == EAGAIN) {
			return;
		}
	}
}
