/*
 * run_remote.c - marking the servers over ssh (run_remote.h).
 *
 * Every server is a small state machine driven by one poll loop, so that
 * all of them proceed at once and one deadline bounds them together:
 *
 *   spawn -> HELLO -> PING x5 -> READY -> MARK -> READY -> quit, EOF
 *              \________\___________________\____ FAILED (why, once)
 *
 * A round trip is timed from just before the "ping" is written to when
 * its "pong" line is read: ssh's connection setup, the login and the
 * remote perflog's start all happen before "hello" is answered, outside
 * every measured trip. The clock compared is the local collector's (its
 * offset to ours is measured over its socket first, in microseconds), so
 * both sets' markers and rows are related by one number. Each server's
 * ssh, its pipes and the poll loop are run_remote_io.c's.
 */
#define _GNU_SOURCE
#include "run_remote_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define ME "perflog run"

int remotes_add(struct remotes *rs, const char *arg, struct perr *e)
{
	struct remote *r;
	const char *colon = strchr(arg, ':');
	size_t hl = colon ? (size_t)(colon - arg) : strlen(arg);

	if (rs->n == RUN_REMOTE_MAX)
		return perr_set(e, "--server: at most %d servers", RUN_REMOTE_MAX);
	if (!hl || hl >= sizeof(r->host) || arg[0] == '-' ||
	    strlen(arg) >= sizeof(r->arg))
		return perr_set(e, "--server '%s': expected HOST[:DIR]", arg);
	r = &rs->v[rs->n++];
	memset(r, 0, sizeof(*r));
	r->in = r->out = r->err = -1;
	util_strlcpy(r->arg, arg, sizeof(r->arg));
	memcpy(r->host, arg, hl);
	r->host[hl] = '\0';
	if (colon)
		util_strlcpy(r->dir, colon + 1, sizeof(r->dir));
	return 0;
}

/* The local collector's clock minus ours: the best of 5 requests over
 * its socket (a busy host makes one take milliseconds), and 0 when that
 * is within the round trip's error: the same clock, as it is but for the
 * test seam, must not pick up a few ms of scheduling noise. */
static double local_offset(const struct collector_info *col)
{
	struct clock_sample s[5];
	struct clock_fit f;
	size_t n = 0;

	for (int i = 0; col && i < 5; i++) {
		char reply[64];
		struct perr e;
		double t1 = util_walltime();

		if (control_request(col, "clock", reply, sizeof(reply), &e) < 0 ||
		    strncmp(reply, "wall=", 5))
			break;
		s[n++] = (struct clock_sample){ t1, strtod(reply + 5, NULL),
						util_walltime() };
	}
	if (clock_best(s, n, &f) < 0 || fabs(f.offset) <= f.rtt / 2)
		return 0;
	return f.offset;
}

void remotes_setup(struct remotes *rs, const char *file_ssh,
		   const struct collector_info *col, const char *watch)
{
	const char *env = getenv("PERFLOG_SSH");
	const char *ssh = env && *env ? env
			: file_ssh && *file_ssh ? file_ssh : RUN_REMOTE_SSH;

	util_strlcpy(rs->ssh, ssh, sizeof(rs->ssh));
	rs->timeout = clock_connect_timeout(rs->ssh, 10);
	rs->col = col;
	rs->watch = watch;
}

static double now_local(const struct remotes *rs)
{
	return util_walltime() + rs->local_off;
}


static void ping(struct remotes *rs, struct remote *r)
{
	r->sent = now_local(rs);
	remote_send(r, "ping");
}

/* One line from the server's perflog mark --remote. */
static void on_line(struct remotes *rs, struct remote *r, char *line)
{
	double t4 = now_local(rs);

	if (!strncmp(line, "error ", 6)) {
		char *u = markers_unescape(line + 6);

		remote_fail(r, u ? u : line + 6);
		free(u);
		return;
	}
	switch (r->state) {
	case ST_HELLO:
		if (strncmp(line, "perflog-mark 1 ", 15)) {
			char why[600];

			snprintf(why, sizeof(why), "unexpected answer '%.80s'", line);
			remote_fail(r, why);
			return;
		}
		r->state = ST_PING;
		ping(rs, r);
		return;
	case ST_PING:
		if (strncmp(line, "pong ", 5)) {
			remote_fail(r, "unexpected answer to ping");
			return;
		}
		r->s[r->ns++] = (struct clock_sample){ r->sent,
						       strtod(line + 5, NULL), t4 };
		if (r->ns < RUN_REMOTE_PINGS) {
			ping(rs, r);
			return;
		}
		r->have_fit = clock_best(r->s, (size_t)r->ns, &r->fit) == 0;
		r->state = ST_READY;
		return;
	case ST_MARK:
		if (!strncmp(line, "ok warning=", 11)) {
			char *u = markers_unescape(line + 11);

			util_strlcpy(r->warning, u ? u : line + 11,
				     sizeof(r->warning));
			free(u);
		} else if (strcmp(line, "ok")) {
			remote_fail(r, "unexpected answer to mark");
			return;
		}
		r->state = ST_READY;
		return;
	default:
		return;
	}
}


/* quit, and the end of its input; reaped by the deadline or killed. */
static void close_all(struct remotes *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct remote *r = &rs->v[i];

		if (r->state != ST_READY)
			continue;
		remote_send(r, "quit");
		remote_close_fd(&r->in);
	}
	for (size_t i = 0; i < rs->n; i++) {
		struct remote *r = &rs->v[i];

		while (r->pid > 0 && util_monotonic() < rs->deadline &&
		       waitpid(r->pid, NULL, WNOHANG) == 0)
			usleep(5000);
		if (r->pid > 0 && util_monotonic() >= rs->deadline)
			remote_reap(r, 1, NULL);
		else if (r->pid > 0)
			r->pid = 0;	/* reaped above */
		remote_close_fd(&r->out);
		remote_close_fd(&r->err);
		if (r->state == ST_READY)
			r->state = ST_IDLE;
	}
}

/* A server that failed at the begin is not tried again at the end (its
 * warning was given once; the end marker repeats why). */
static void connect_all(struct remotes *rs)
{
	rs->deadline = util_monotonic() + rs->timeout;
	rs->local_off = local_offset(rs->col);
	for (size_t i = 0; i < rs->n; i++) {
		struct remote *r = &rs->v[i];

		if (r->state == ST_FAILED) {
			r->warned = 1;
			continue;
		}
		r->state = ST_IDLE;
		r->ns = 0;
		r->have_fit = 0;
		r->error[0] = r->warning[0] = '\0';
		if (remote_spawn(rs, r) == 0) {
			r->state = ST_HELLO;
			remote_send(r, "hello");
		}
	}
	remotes_pump(rs, on_line);
}

/* The local marker's fields (run_remote.h); a warning for each failure. */
static void local_fields(struct remotes *rs, struct run_extras *x,
			 const char *what)
{
	char k[64];

	for (size_t i = 0; i < rs->n; i++) {
		struct remote *r = &rs->v[i];

		clock_key(k, sizeof(k), i + 1, "peer");
		run_extra_add(x, "%s=%s", k, r->host);
		if (r->state == ST_FAILED) {
			clock_key(k, sizeof(k), i + 1, "error");
			run_extra_add(x, "%s=%s", k, r->error);
			if (!r->warned)
				fprintf(stderr, ME ": server %s: %s (%s not marked)\n",
					r->arg, r->error, what);
			r->warned = 1;
			continue;
		}
		if (!r->have_fit)
			continue;
		clock_key(k, sizeof(k), i + 1, "offset");
		run_extra_add(x, "%s=%+.3f", k, r->fit.offset);
		clock_key(k, sizeof(k), i + 1, "rtt");
		run_extra_add(x, "%s=%.6f", k, r->fit.rtt);
	}
}

/* Send the session's marker to every server that is READY. */
static void mark_all(struct remotes *rs, const char *kind, const char *session,
		     const char *text, const char *cmdline)
{
	char host[256];

	if (gethostname(host, sizeof(host)) < 0)
		util_strlcpy(host, "localhost", sizeof(host));
	host[sizeof(host) - 1] = '\0';
	for (size_t i = 0; i < rs->n; i++) {
		struct remote *r = &rs->v[i];
		struct run_extras f = { 0 };
		char *line, *p;
		size_t len = 64;

		if (r->state != ST_READY)
			continue;
		run_extra_add(&f, "%s", session);
		run_extra_add(&f, "%s", text);
		run_extra_add(&f, "peer=%s", host);
		if (r->have_fit) {
			/* theirs is ours negated: client minus server */
			run_extra_add(&f, "offset=%+.3f", -r->fit.offset);
			run_extra_add(&f, "rtt=%.6f", r->fit.rtt);
		}
		run_extra_add(&f, "client.cmd=%s", cmdline);
		if (rs->watch && !strcmp(kind, "begin"))
			run_extra_add(&f, "watch=%s", rs->watch);
		for (size_t j = 0; j < f.n; j++)
			len += 4 * strlen(f.v[j]) + 2;
		line = malloc(len);
		if (!line) {
			run_extras_free(&f);
			remote_fail(r, "out of memory");
			continue;
		}
		p = line + sprintf(line, "mark %s", kind);
		for (size_t j = 0; j < f.n; j++) {
			char *esc = markers_escape(f.v[j]);

			if (esc)
				p += sprintf(p, "\t%s", esc);
			free(esc);
		}
		run_extras_free(&f);
		r->state = ST_MARK;
		remote_send(r, line);
		free(line);
	}
	remotes_pump(rs, on_line);
	for (size_t i = 0; i < rs->n; i++)
		if (rs->v[i].warning[0])
			fprintf(stderr, ME ": server %s: %s\n", rs->v[i].arg,
				rs->v[i].warning);
}

void remotes_begin(struct remotes *rs, const char *session,
		   const char *text, const char *cmdline,
		   struct run_extras *x)
{
	if (!rs->n)
		return;
	connect_all(rs);
	mark_all(rs, "begin", session, text, cmdline);
	close_all(rs);
	local_fields(rs, x, "begin");
}

void remotes_end_open(struct remotes *rs, struct run_extras *x)
{
	if (!rs->n)
		return;
	connect_all(rs);
	local_fields(rs, x, "end");
}

void remotes_end_mark(struct remotes *rs, const char *session,
		      const char *text, const char *cmdline)
{
	int was_ready[RUN_REMOTE_MAX];

	if (!rs->n)
		return;
	for (size_t i = 0; i < rs->n; i++)
		was_ready[i] = rs->v[i].state == ST_READY;
	mark_all(rs, "end", session, text, cmdline);
	close_all(rs);
	for (size_t i = 0; i < rs->n; i++) {
		struct remote *r = &rs->v[i];
		struct run_extras f = { 0 };
		char k[64], t[600];
		struct perr e;

		if (!was_ready[i] || r->state != ST_FAILED)
			continue;
		/* the local end marker named it as marked: say it was not */
		fprintf(stderr, ME ": server %s: %s (end not marked)\n", r->arg,
			r->error);
		clock_key(k, sizeof(k), i + 1, "peer");
		run_extra_add(&f, "%s=%s", k, r->host);
		clock_key(k, sizeof(k), i + 1, "error");
		run_extra_add(&f, "%s=%s", k, r->error);
		snprintf(t, sizeof(t), "server %s: end of %s not marked", r->host,
			 session);
		if (run_mark(rs->col, MARK_POINT, "", t, &f, &e) < 0)
			fprintf(stderr, ME ": %s\n", e.msg);
		run_extras_free(&f);
	}
}
