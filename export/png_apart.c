/*
 * png_apart.c - a chart drawn in a child process whose TZ is UTC
 * (png_int.h).
 *
 * rrd_graph_v labels the time axis in the process's zone, and a chart's
 * labels are UTC. Setting TZ around the call, as before, changed the
 * environment under pango's fontconfig thread, which rrd_graph_v starts
 * and which reads the environment (getenv) while the graph is drawn and
 * after it: setenv's new environ array freed the one that thread was
 * reading, and test_png crashed in getenv on a loaded machine. The
 * caller's environment and local clock (the viewer shows local time)
 * are now never touched: the child sets TZ once, draws, writes its
 * results to a pipe and ends. Pango and fontconfig then never start in
 * the caller, so no thread of theirs is there when it forks again; and
 * a crash inside librrd or pango fails one chart, not the viewer.
 *
 * The pipe carries the child's return, its error and its bytes; the
 * parent reads it to the end before it waits, so a large result never
 * blocks the child on a full pipe. SIGCHLD is at its default while the
 * child runs: ignored (as a parent may leave it across exec), the kernel
 * reaps the child itself and waitpid finds none.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/strbuf.h"
#include "../common/util.h"
#include "png.h"
#include "png_int.h"

struct apart_head {
	int rc;
	struct perr e;
};

static _Noreturn void child(int fd,
			   int (*fn)(void *, struct strbuf *, struct perr *),
			   void *ctx)
{
	struct apart_head h = { -1, { "" } };
	struct strbuf out = STRBUF_INIT;

	setenv("TZ", "UTC", 1);
	tzset();
	h.rc = fn(ctx, &out, &h.e);
	if (out.failed) {
		h.rc = perr_set(&h.e, "out of memory");
		out.len = 0;
	}
	/* _exit: the caller's stdio buffers, atexit handlers and leak check
	 * are the caller's, not the child's to run a second time */
	if (util_write_full(fd, &h, sizeof(h)) < 0 ||
	    util_write_full(fd, strbuf_str(&out), out.len) < 0)
		_exit(1);
	_exit(0);
}

/* All the pipe holds, until the child closes it. */
static int read_all(int fd, struct strbuf *b)
{
	for (;;) {
		if (strbuf_reserve(b, 4096) < 0)
			return -1;
		ssize_t r = read(fd, b->p + b->len, b->cap - b->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		b->len += (size_t)r;
		b->p[b->len] = '\0';
	}
}

static int wait_child(pid_t pid, struct perr *e)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return perr_set(e, "rrd_graph: waiting for its process: %s",
					strerror(errno));
	if (WIFSIGNALED(st))
		return perr_set(e, "rrd_graph: its process ended by signal %d (%s)",
				WTERMSIG(st), strsignal(WTERMSIG(st)));
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return perr_set(e, "rrd_graph: its process failed (exit %d)",
				WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}

/* fn(ctx, out, e) in the child; what it put in out appended to out, its
 * return returned (with its e when it failed); -1 with e set when the
 * child could not start or died. */
static int apart(int (*fn)(void *, struct strbuf *, struct perr *),
		 void *ctx, struct strbuf *out, struct perr *e)
{
	struct sigaction dfl, old;
	struct strbuf got = STRBUF_INIT;
	struct apart_head h;
	int fd[2], rd, waited;
	pid_t pid;

	if (pipe(fd) < 0)
		return perr_set(e, "rrd_graph: pipe: %s", strerror(errno));
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGCHLD, &dfl, &old);
	/* nothing pending in stdio for a child to write a second time (it
	 * _exits, but a library's exit() in it would flush its copies) */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int err = errno;
		sigaction(SIGCHLD, &old, NULL);
		close(fd[0]);
		close(fd[1]);
		return perr_set(e, "rrd_graph: fork: %s", strerror(err));
	}
	if (pid == 0) {
		close(fd[0]);
		child(fd[1], fn, ctx);
	}
	close(fd[1]);
	rd = read_all(fd[0], &got);
	close(fd[0]);
	waited = wait_child(pid, e);
	sigaction(SIGCHLD, &old, NULL);
	if (waited < 0) {
		strbuf_free(&got);
		return -1;
	}
	if (rd < 0 || got.len < sizeof(h)) {
		strbuf_free(&got);
		return perr_set(e, "rrd_graph: its process said nothing");
	}
	memcpy(&h, got.p, sizeof(h));
	h.e.msg[sizeof(h.e.msg) - 1] = '\0';
	if (h.rc < 0) {
		if (e)
			*e = h.e;
	} else if (strbuf_add(out, got.p + sizeof(h), got.len - sizeof(h)) < 0) {
		h.rc = perr_set(e, "out of memory");
	}
	strbuf_free(&got);
	return h.rc < 0 ? -1 : h.rc;
}

/* A chart to draw in the child, and where its results go. */
struct drawing {
	const char *path;
	const struct png_chart *c;
	int stack;
	const struct png_options *o;
};

/* In the child: png_render_here, then its results into out: the legend
 * of each series, the frame, the legend texts. */
static int draw(void *ctx, struct strbuf *out, struct perr *e)
{
	const struct drawing *d = ctx;
	struct png_options o = *d->o;
	struct png_legend *legend = calloc(d->c->nseries + 1, sizeof(*legend));
	struct strbuf texts = STRBUF_INIT;
	struct png_frame frame;
	int rc = -1;

	memset(&frame, 0, sizeof(frame));
	o.frame = &frame;
	o.legends = d->o->legends ? &texts : NULL;
	if (!legend)
		rc = perr_set(e, "out of memory");
	else if (!(rc = png_render_here(d->path, d->c, d->stack, &o, legend,
					e))) {
		strbuf_add(out, legend, d->c->nseries * sizeof(*legend));
		strbuf_add(out, &frame, sizeof(frame));
		strbuf_add(out, strbuf_str(&texts), texts.len);
	}
	strbuf_free(&texts);
	free(legend);
	return rc;
}

/* png_render_here in a child; its results back where the caller asked. */
static int render_apart(const char *path, const struct png_chart *c,
			int stack, const struct png_options *o,
			struct png_legend *legend, struct perr *e)
{
	struct drawing d = { path, c, stack, o };
	size_t nleg = c->nseries * sizeof(*legend);
	struct strbuf got = STRBUF_INIT;
	int rc = apart(draw, &d, &got, e);

	if (rc == 0 && got.len < nleg + sizeof(struct png_frame))
		rc = perr_set(e, "%s: rrd_graph: its results were cut short",
			      path);
	if (rc == 0) {
		if (legend)
			memcpy(legend, got.p, nleg);
		if (o->frame)
			memcpy(o->frame, got.p + nleg, sizeof(*o->frame));
		if (o->legends)
			strbuf_add(o->legends,
				   got.p + nleg + sizeof(struct png_frame),
				   got.len - nleg - sizeof(struct png_frame));
	}
	strbuf_free(&got);
	return rc;
}

int png_render(const char *path, const struct png_chart *c,
	       const struct png_options *o, struct png_legend *legend,
	       struct perr *e)
{
	return render_apart(path, c, 0, o, legend, e);
}

int png_render_stacked(const char *path, const struct png_chart *c,
		       const struct png_options *o, struct png_legend *legend,
		       struct perr *e)
{
	return render_apart(path, c, 1, o, legend, e);
}
