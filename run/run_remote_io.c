/*
 * run_remote_io.c - one server's ssh and its pipes, for run_remote.c
 * (run_remote_int.h): the process started in a session of its own, the
 * request lines written to it, its answers read a line at a time, its
 * stderr's last line kept as the reason of a failure, and the poll loop
 * that drives every server at once until no one waits or the deadline.
 */
#define _GNU_SOURCE
#include "run_remote_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void remote_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Kill the ssh (its whole session: setsid made it a group) and reap. */
/* Forget the requests not written (a new connection, or the end). */
static void drop_out(struct remote *r)
{
	free(r->obuf);
	r->obuf = NULL;
	r->olen = r->ooff = 0;
}

void remote_reap(struct remote *r, int kill_it, int *status)
{
	int st = 0;

	remote_close_fd(&r->in);
	remote_close_fd(&r->out);
	remote_close_fd(&r->err);
	drop_out(r);
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

void remote_fail(struct remote *r, const char *why)
{
	int st;

	if (r->state == ST_FAILED)
		return;
	remote_reap(r, 1, &st);
	util_strlcpy(r->error, why, sizeof(r->error));
	r->state = ST_FAILED;
}

/* Write what r's requests have left, as much as its stdin takes now;
 * the rest waits for POLLOUT in remotes_pump, under the deadline. A
 * line longer than the pipe (64 KiB: the client.cmd of a tar with 3,500
 * paths is 84 KB) is written in parts: a partial write is not a server
 * that does not read, only the deadline says that. */
static void flush_out(struct remote *r)
{
	while (r->ooff < r->olen) {
		ssize_t w = write(r->in, r->obuf + r->ooff, r->olen - r->ooff);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return;
		if (w < 0) {
			remote_fail(r, strerror(errno));
			return;
		}
		r->ooff += (size_t)w;
	}
	drop_out(r);
}

void remote_send(struct remote *r, const char *s)
{
	size_t len = strlen(s), have = r->olen - r->ooff;
	char *buf = malloc(have + len + 1);

	if (!buf) {
		remote_fail(r, "out of memory");
		return;
	}
	if (have)
		memcpy(buf, r->obuf + r->ooff, have);
	memcpy(buf + have, s, len);
	buf[have + len] = '\n';
	free(r->obuf);
	r->obuf = buf;
	r->olen = have + len + 1;
	r->ooff = 0;
	flush_out(r);
}

int remote_spawn(struct remotes *rs, struct remote *r)
{
	const char *argv[6] = { "perflog", "mark", "--remote", NULL, NULL, NULL };
	int pin[2], pout[2], perr_[2];
	char *remote_cmd, *script;

	if (r->dir[0])
		argv[3] = "-d", argv[4] = r->dir;
	remote_cmd = run_cmdline((char **)argv);
	if (!remote_cmd || asprintf(&script, "exec %s \"$@\"", rs->ssh) < 0) {
		free(remote_cmd);
		remote_fail(r, "out of memory");
		return -1;
	}
	if (pipe2(pin, O_CLOEXEC) < 0 || pipe2(pout, O_CLOEXEC) < 0 ||
	    pipe2(perr_, O_CLOEXEC) < 0) {
		free(remote_cmd);
		free(script);
		remote_fail(r, strerror(errno));
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
		remote_fail(r, strerror(errno));
		return -1;
	}
	fcntl(r->in, F_SETFL, O_NONBLOCK);
	drop_out(r);
	r->nline = r->nerr = 0;
	r->errtail[0] = '\0';
	return 0;
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
		remote_close_fd(&r->err);
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
static void on_readable(struct remotes *rs, struct remote *r, int which,
			remote_line_fn *on_line)
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
		remote_reap(r, 0, &st);
		if (r->errtail[0])
			snprintf(why, sizeof(why), "%s", r->errtail);
		else if (WIFEXITED(st))
			snprintf(why, sizeof(why), "ssh exited with status %d",
				 WEXITSTATUS(st));
		else
			snprintf(why, sizeof(why), "ssh was killed");
		remote_fail(r, why);
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
void remotes_pump(struct remotes *rs, remote_line_fn *on_line)
{
	for (;;) {
		struct pollfd p[3 * RUN_REMOTE_MAX];
		struct remote *who[3 * RUN_REMOTE_MAX];
		int which[3 * RUN_REMOTE_MAX];
		nfds_t np = 0;
		double left = rs->deadline - util_monotonic();

		for (size_t i = 0; i < rs->n; i++) {
			struct remote *r = &rs->v[i];

			if (!waiting(r))
				continue;
			if (r->ooff < r->olen && r->in >= 0) {
				who[np] = r, which[np] = 0;
				p[np++] = (struct pollfd){ .fd = r->in,
							   .events = POLLOUT };
			}
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
			for (size_t i = 0; i < rs->n; i++) {
				struct remote *r = &rs->v[i];
				char why[160];

				if (!waiting(r))
					continue;
				if (r->ooff < r->olen)
					snprintf(why, sizeof(why),
						 "the server did not read the request (%zu of %zu bytes within %g s; killed)",
						 r->ooff, r->olen, rs->timeout);
				else
					snprintf(why, sizeof(why),
						 "no answer within %g s (killed)",
						 rs->timeout);
				remote_fail(r, why);
			}
			return;
		}
		if (poll(p, np, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			return;
		for (nfds_t i = 0; i < np; i++) {
			struct remote *r = who[i];

			if (!p[i].revents || !waiting(r) ||
			    (which[i] == 0 ? r->in : which[i] == 1 ? r->out
							: r->err) != p[i].fd)
				continue;
			if (which[i] == 0)
				flush_out(r);
			else
				on_readable(rs, r, which[i], on_line);
		}
	}
}
