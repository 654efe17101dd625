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
 * both sets' markers and rows are related by one number.
 */
#define _GNU_SOURCE
#include "run_remote.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ME "perflog run"

enum { ST_IDLE, ST_HELLO, ST_PING, ST_READY, ST_MARK, ST_FAILED };


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

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Kill the ssh (its whole session: setsid made it a group) and reap. */
static void reap(struct remote *r, int kill_it, int *status)
{
	int st = 0;

	close_fd(&r->in);
	close_fd(&r->out);
	close_fd(&r->err);
	if (r->pid > 0) {
		if (kill_it)
			kill(-r->pid, SIGKILL);
		while (waitpid(r->pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	r->pid = 0;
	if (status)
		*status = st;
}

static void fail(struct remote *r, const char *why)
{
	int st;

	if (r->state == ST_FAILED)
		return;
	reap(r, 1, &st);
	util_strlcpy(r->error, why, sizeof(r->error));
	r->state = ST_FAILED;
}

static void send_line(struct remote *r, const char *s)
{
	size_t len = strlen(s);
	char *buf = malloc(len + 2);
	ssize_t w;

	if (!buf) {
		fail(r, "out of memory");
		return;
	}
	memcpy(buf, s, len);
	buf[len++] = '\n';
	/* non-blocking: a full pipe is a server that does not read */
	while ((w = write(r->in, buf, len)) < 0 && errno == EINTR)
		;
	free(buf);
	if (w != (ssize_t)len)
		fail(r, w < 0 && errno != EAGAIN ? strerror(errno)
					       : "the server does not read");
}

static int spawn(struct remotes *rs, struct remote *r)
{
	const char *argv[6] = { "perflog", "mark", "--remote", NULL, NULL, NULL };
	int pin[2], pout[2], perr_[2];
	char *remote_cmd, *script;

	if (r->dir[0])
		argv[3] = "-d", argv[4] = r->dir;
	remote_cmd = run_cmdline((char **)argv);
	if (!remote_cmd || asprintf(&script, "exec %s \"$@\"", rs->ssh) < 0) {
		free(remote_cmd);
		fail(r, "out of memory");
		return -1;
	}
	if (pipe2(pin, O_CLOEXEC) < 0 || pipe2(pout, O_CLOEXEC) < 0 ||
	    pipe2(perr_, O_CLOEXEC) < 0) {
		free(remote_cmd);
		free(script);
		fail(r, strerror(errno));
		return -1;
	}
	fflush(NULL);
	r->pid = fork();
	if (r->pid == 0) {
		/* a session of its own: no terminal to prompt on, and our
		 * terminal's Ctrl-C is the command's, not ssh's */
		setsid();
		dup2(pin[0], 0);
		dup2(pout[1], 1);
		dup2(perr_[1], 2);
		execl("/bin/sh", "sh", "-c", script, "perflog-ssh", r->host,
		      remote_cmd, (char *)NULL);
		_exit(127);
	}
	free(remote_cmd);
	free(script);
	close(pin[0]);
	close(pout[1]);
	close(perr_[1]);
	r->in = pin[1];
	r->out = pout[0];
	r->err = perr_[0];
	if (r->pid < 0) {
		r->pid = 0;
		fail(r, strerror(errno));
		return -1;
	}
	fcntl(r->in, F_SETFL, O_NONBLOCK);
	r->state = ST_HELLO;
	r->nline = r->nerr = 0;
	r->errtail[0] = '\0';
	send_line(r, "hello");
	return 0;
}

static void ping(struct remotes *rs, struct remote *r)
{
	r->sent = now_local(rs);
	send_line(r, "ping");
}

/* One line from the server's perflog mark --remote. */
static void on_line(struct remotes *rs, struct remote *r, char *line)
{
	double t4 = now_local(rs);

	if (!strncmp(line, "error ", 6)) {
		char *u = markers_unescape(line + 6);

		fail(r, u ? u : line + 6);
		free(u);
		return;
	}
	switch (r->state) {
	case ST_HELLO:
		if (strncmp(line, "perflog-mark 1 ", 15)) {
			char why[600];

			snprintf(why, sizeof(why), "unexpected answer '%.80s'", line);
			fail(r, why);
			return;
		}
		r->state = ST_PING;
		ping(rs, r);
		return;
	case ST_PING:
		if (strncmp(line, "pong ", 5)) {
			fail(r, "unexpected answer to ping");
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
			fail(r, "unexpected answer to mark");
			return;
		}
		r->state = ST_READY;
		return;
	default:
		return;
	}
}

/* One read of r's stderr, its last line kept as the reason of a failure;
 * 0 at its end (closed) or when nothing is there (non-blocking). */
static int drain_err(struct remote *r)
{
	char buf[4096];
	ssize_t n = read(r->err, buf, sizeof(buf));

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		close_fd(&r->err);
		return 0;
	}
	for (ssize_t i = 0; i < n; i++) {
		if (buf[i] == '\n' || buf[i] == '\r') {
			r->nerr = 0;	/* next line starts */
			continue;
		}
		if (r->nerr == 0)
			r->errtail[0] = '\0';
		if (r->nerr + 1 < sizeof(r->errtail)) {
			r->errtail[r->nerr++] = buf[i];
			r->errtail[r->nerr] = '\0';
		}
	}
	return 1;
}

/* Read what r's stdout or stderr has; lines to on_line, stderr's last
 * line kept as the reason of a failure. */
static void on_readable(struct remotes *rs, struct remote *r, int which)
{
	char buf[4096];
	ssize_t n;

	if (which == 2) {
		drain_err(r);
		return;
	}
	n = read(r->out, buf, sizeof(buf));
	if (n <= 0) {
		char why[600];
		int st;

		/* it ended without answering: ssh or the shell said why,
		 * on a stderr poll may not have shown us yet (both pipes
		 * readable at once, stdout taken first). ssh closed stdout
		 * by exiting, which closed stderr with it: what is in the
		 * pipe now is all there is, read before reap closes it */
		if (r->err >= 0) {
			fcntl(r->err, F_SETFL, O_NONBLOCK);
			while (r->err >= 0 && drain_err(r))
				;
		}
		reap(r, 0, &st);
		if (r->errtail[0])
			snprintf(why, sizeof(why), "%s", r->errtail);
		else if (WIFEXITED(st))
			snprintf(why, sizeof(why), "ssh exited with status %d",
				 WEXITSTATUS(st));
		else
			snprintf(why, sizeof(why), "ssh was killed");
		fail(r, why);
		return;
	}
	for (ssize_t i = 0; i < n && r->state != ST_FAILED; i++) {
		if (buf[i] != '\n') {
			if (r->nline + 1 < sizeof(r->line))
				r->line[r->nline++] = buf[i];
			continue;
		}
		r->line[r->nline] = '\0';
		r->nline = 0;
		on_line(rs, r, r->line);
	}
}

static int waiting(const struct remote *r)
{
	return r->state == ST_HELLO || r->state == ST_PING ||
	       r->state == ST_MARK;
}

/* Until no server waits for an answer, or the deadline: then whoever
 * still waits is killed. */
static void pump(struct remotes *rs)
{
	for (;;) {
		struct pollfd p[2 * RUN_REMOTE_MAX];
		struct remote *who[2 * RUN_REMOTE_MAX];
		int which[2 * RUN_REMOTE_MAX];
		nfds_t np = 0;
		double left = rs->deadline - util_monotonic();

		for (size_t i = 0; i < rs->n; i++) {
			struct remote *r = &rs->v[i];

			if (!waiting(r))
				continue;
			who[np] = r, which[np] = 1;
			p[np++] = (struct pollfd){ .fd = r->out, .events = POLLIN };
			if (r->err >= 0) {
				who[np] = r, which[np] = 2;
				p[np++] = (struct pollfd){ .fd = r->err,
							   .events = POLLIN };
			}
		}
		if (!np)
			return;
		if (left <= 0) {
			char why[128];

			snprintf(why, sizeof(why), "no answer within %g s (killed)",
				 rs->timeout);
			for (size_t i = 0; i < rs->n; i++)
				if (waiting(&rs->v[i]))
					fail(&rs->v[i], why);
			return;
		}
		if (poll(p, np, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			return;
		for (nfds_t i = 0; i < np; i++)
			if (p[i].revents && waiting(who[i]) &&
			    (which[i] == 2 ? who[i]->err : who[i]->out) == p[i].fd)
				on_readable(rs, who[i], which[i]);
	}
}

/* quit, and the end of its input; reaped by the deadline or killed. */
static void close_all(struct remotes *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct remote *r = &rs->v[i];

		if (r->state != ST_READY)
			continue;
		send_line(r, "quit");
		close_fd(&r->in);
	}
	for (size_t i = 0; i < rs->n; i++) {
		struct remote *r = &rs->v[i];

		while (r->pid > 0 && util_monotonic() < rs->deadline &&
		       waitpid(r->pid, NULL, WNOHANG) == 0)
			usleep(5000);
		if (r->pid > 0 && util_monotonic() >= rs->deadline)
			reap(r, 1, NULL);
		else if (r->pid > 0)
			r->pid = 0;	/* reaped above */
		close_fd(&r->out);
		close_fd(&r->err);
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
		spawn(rs, r);
	}
	pump(rs);
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
			fail(r, "out of memory");
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
		send_line(r, line);
		free(line);
	}
	pump(rs);
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
