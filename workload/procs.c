/*
 * procs.c - the server side of the reference backup as a process of its
 * own (workload.h): a forked receiver on a loopback socket, or the
 * receiver on another host through ssh. Either way its I/O is not in the
 * client's process tree, so the client's figures can be checked against
 * the client's own, as a dsmc against its dsmserv.
 *
 * The local receiver serves one connection at a time (a set each) until
 * the stop pipe closes. The remote one is `REMOTE_PERFLOG workload
 * --receive DIR` run by `sh -c 'SSH "$@"' sh HOST CMD`, SSH being
 * $PERFLOG_SSH or WORKLOAD_SSH (so the user's quoting and ~/.ssh/config
 * work as on their command line); it says WORKLOAD_HELLO first, which is
 * awaited here for 30 s, so that a host that cannot be reached is one
 * error before anything is created.
 */
#define _GNU_SOURCE
#include "workload.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* The seed's dsm.opt and dsmserv.opt: TCPWindowsize 64 (KB). Without a
 * bound, loopback's buffers held megabytes: the client "finished" a set of
 * 1 KB files while thousands of them still waited for the server's fsync,
 * and the set ran seconds past --seconds. */
#define WORKLOAD_WINDOW (64 * 1024)

int workload_remote(const char *target, char *host, size_t n,
		    const char **dir)
{
	const char *colon = strchr(target, ':');
	const char *slash = strchr(target, '/');

	if (!colon || colon == target || (slash && slash < colon))
		return 0;
	size_t len = (size_t)(colon - target);
	if (len >= n)
		len = n - 1;
	memcpy(host, target, len);
	host[len] = '\0';
	*dir = colon[1] ? colon + 1 : ".";
	return 1;
}

/* The local receiver's life: accept, serve, until stop reads EOF. */
static void serve_local(int lfd, int stop, const char *target)
{
	struct pollfd p[2] = { { .fd = lfd, .events = POLLIN },
			       { .fd = stop, .events = POLLIN } };
	int rc = 0;

	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		struct perr e;
		if (workload_serve(fd, fd, target, &e) < 0) {
			fprintf(stderr, "perflog workload: %s\n", e.msg);
			rc = 1;
		}
		close(fd);
	}
	_exit(rc);
}

static int start_local(struct workload_server *s, const char *target,
		       struct perr *e)
{
	socklen_t sl = sizeof(s->addr);
	int sp[2];

	s->addr = (struct sockaddr_in){ .sin_family = AF_INET,
					.sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd >= 0)	/* the accepted sockets inherit it */
		setsockopt(lfd, SOL_SOCKET, SO_RCVBUF, &(int){ WORKLOAD_WINDOW },
			   sizeof(int));
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&s->addr, sizeof(s->addr)) < 0 ||
	    listen(lfd, 4) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&s->addr, &sl) < 0 ||
	    pipe2(sp, O_CLOEXEC) < 0) {
		perr_set(e, "loopback receiver: %s", strerror(errno));
		if (lfd >= 0)
			close(lfd);
		return -1;
	}
	fflush(NULL);
	s->pid = fork();
	if (s->pid == 0) {
		close(sp[1]);
		serve_local(lfd, sp[0], target);
	}
	close(lfd);
	close(sp[0]);
	if (s->pid < 0) {
		close(sp[1]);
		return perr_set(e, "cannot start the receiver: %s", strerror(errno));
	}
	s->stop = sp[1];
	return 0;
}

/* 'DIR' for the remote shell. */
static void shell_quote(char *out, size_t n, const char *s)
{
	size_t k = 0;
	if (n < 3)
		return;
	out[k++] = '\'';
	for (; *s && k + 5 < n; s++) {
		if (*s == '\'') {
			memcpy(out + k, "'\\''", 4);
			k += 4;
		} else {
			out[k++] = *s;
		}
	}
	out[k++] = '\'';
	out[k] = '\0';
}

/* Wait up to 30 s for the receiver's hello on fd. */
static int await_hello(int fd)
{
	const char *want = WORKLOAD_HELLO;
	size_t got = 0, len = strlen(want);
	char c;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	double until = util_monotonic() + 30;

	while (got < len) {
		int ms = (int)((until - util_monotonic()) * 1000);
		if (ms <= 0 || poll(&p, 1, ms) <= 0 || read(fd, &c, 1) != 1 ||
		    c != want[got])
			return -1;
		got++;
	}
	return 0;
}

static int start_remote(struct workload_server *s, const char *dir,
			const char *remote_perflog, struct perr *e)
{
	const char *ssh = getenv("PERFLOG_SSH");
	char qdir[4200], qcmd[4400], cmd[9000], shell[1024];
	int to[2], from[2];

	if (!ssh || !*ssh)
		ssh = WORKLOAD_SSH;
	shell_quote(qdir, sizeof(qdir), dir);
	shell_quote(qcmd, sizeof(qcmd), remote_perflog);
	snprintf(cmd, sizeof(cmd), "%s workload --receive %s", qcmd, qdir);
	snprintf(shell, sizeof(shell), "%s \"$@\"", ssh);
	if (pipe2(to, O_CLOEXEC) < 0 || pipe2(from, O_CLOEXEC) < 0)
		return perr_set(e, "pipe: %s", strerror(errno));
	fflush(NULL);
	s->pid = fork();
	if (s->pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		execl("/bin/sh", "sh", "-c", shell, "sh", s->host, cmd, (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	s->out = to[1];
	s->in = from[0];
	if (s->pid < 0)
		return perr_set(e, "cannot start ssh: %s", strerror(errno));
	if (await_hello(s->in) < 0) {
		struct perr e2;
		workload_server_stop(s, &e2);
		return perr_set(e, "no receiver on %s through '%s' (%s)", s->host,
				ssh, e2.msg[0] ? e2.msg : "no answer in 30 s");
	}
	return 0;
}

int workload_server_start(struct workload_server *s, const char *target,
			  const char *remote_perflog, struct perr *e)
{
	const char *dir;

	memset(s, 0, sizeof(*s));
	s->out = s->in = s->stop = -1;
	s->remote = workload_remote(target, s->host, sizeof(s->host), &dir);
	return s->remote ? start_remote(s, dir, remote_perflog, e)
			 : start_local(s, target, e);
}

int workload_server_stop(struct workload_server *s, struct perr *e)
{
	int st = 0;

	e->msg[0] = '\0';
	if (s->remote && s->out >= 0) {
		unsigned char end[4] = { 0 };
		util_write_full(s->out, end, 4);	/* the end of the stream */
	}
	if (s->out >= 0)
		close(s->out);
	if (s->stop >= 0)
		close(s->stop);
	s->out = s->stop = -1;
	if (s->pid > 0) {
		/* a remote receiver ends at the end of the stream, ssh with it;
		 * one that does not within a while is ended */
		double until = util_monotonic() + 15;
		pid_t w;
		while ((w = waitpid(s->pid, &st, WNOHANG)) == 0 &&
		       util_monotonic() < until)
			usleep(20000);
		if (w == 0) {
			kill(s->pid, SIGTERM);
			waitpid(s->pid, &st, 0);
		}
		s->pid = 0;
	}
	if (s->in >= 0)
		close(s->in);
	s->in = -1;
	if (WIFSIGNALED(st))
		return perr_set(e, "the receiver was killed by signal %d",
				WTERMSIG(st));
	if (WIFEXITED(st) && WEXITSTATUS(st))
		return perr_set(e, "%s exited with %d",
				s->remote ? "ssh" : "the receiver",
				WEXITSTATUS(st));
	return 0;
}

int workload_connect(const struct workload_server *s, int *out, int *in,
		     struct perr *e)
{
	if (s->remote) {
		*out = s->out, *in = s->in;
		return 0;
	}
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &(int){ WORKLOAD_WINDOW },
			   sizeof(int));
	if (fd < 0 || connect(fd, (const struct sockaddr *)&s->addr,
			      sizeof(s->addr)) < 0) {
		perr_set(e, "loopback connect: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*out = *in = fd;
	return 0;
}
