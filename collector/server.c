/* server.c - see server.h. */
#define _GNU_SOURCE
#include "server.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "../common/strbuf.h"
#include "control.h"

struct server {
	int fd;
	char sock[PATH_MAX];
	char info[PATH_MAX];
};

struct server *server_open(const char *logset, unsigned interval,
			   struct perr *e)
{
	const char *dir = control_runtime_dir(e);
	struct server *s;
	struct sockaddr_un sa;
	char text[PATH_MAX + 64];
	mode_t old;

	if (!dir)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		perr_set(e, "out of memory");
		return NULL;
	}
	snprintf(s->sock, sizeof(s->sock), "%s/%ld.sock", dir, (long)getpid());
	snprintf(s->info, sizeof(s->info), "%s/%ld.info", dir, (long)getpid());
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (util_strlcpy(sa.sun_path, s->sock, sizeof(sa.sun_path)) < 0) {
		perr_set(e, "control socket path too long: '%s'", s->sock);
		free(s);
		return NULL;
	}
	s->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s->fd < 0) {
		perr_set(e, "socket: %s", strerror(errno));
		free(s);
		return NULL;
	}
	unlink(s->sock);	/* a stale one of a dead pid with our number */
	old = umask(077);	/* the socket is born 0600 */
	if (bind(s->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(s->fd, 16) < 0) {
		umask(old);
		perr_set(e, "unable to listen on '%s': %s", s->sock,
			 strerror(errno));
		close(s->fd);
		free(s);
		return NULL;
	}
	umask(old);
	chmod(s->sock, 0600);	/* bind gave 0777 & ~umask: rw is all needed */
	snprintf(text, sizeof(text), "logset\t%s\ninterval\t%u\n", logset,
		 interval);
	if (util_write_atomic(s->info, text, strlen(text), e) < 0) {
		close(s->fd);
		unlink(s->sock);
		free(s);
		return NULL;
	}
	chmod(s->info, 0600);
	return s;
}

int server_fd(const struct server *s)
{
	return s->fd;
}

void server_close(struct server *s)
{
	if (!s)
		return;
	close(s->fd);
	unlink(s->sock);
	unlink(s->info);
	free(s);
}

static void send_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;	/* a client that does not read loses it */
		buf += w;
		len -= (size_t)w;
	}
}

void server_reply(struct request *r, int ok, const char *fmt, ...)
{
	char buf[PATH_MAX + 1024];
	int n = snprintf(buf, sizeof(buf), "%s", ok ? "ok" : "error ");
	va_list ap;

	if (ok && fmt[0])
		buf[n++] = ' ';
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	strcat(buf, "\n");
	send_all(r->fd, buf, strlen(buf));
	close(r->fd);
	r->fd = -1;
	free(r->line);
	r->line = NULL;
}

/* Read the request line from fd into b by the deadline: 1 with b holding
 * the line (newline cut off), 0 when refused (answered and closed). */
static int read_request(struct request *r, struct strbuf *b, double deadline)
{
	for (;;) {
		struct pollfd p = { .fd = r->fd, .events = POLLIN };
		int wait = (int)((deadline - util_monotonic()) * 1000);
		ssize_t n;
		char *nl;

		if (wait <= 0 || poll(&p, 1, wait) <= 0) {
			server_reply(r, 0, "request timed out");
			return 0;
		}
		if (b->len + 1 >= b->cap) {
			/* double, up to SERVER_MAX_REQUEST with the NUL */
			size_t more = b->cap ? b->cap : 1023;

			if (b->len + 1 >= SERVER_MAX_REQUEST) {
				server_reply(r, 0, "request too long");
				return 0;
			}
			if (b->len + more + 1 > SERVER_MAX_REQUEST)
				more = SERVER_MAX_REQUEST - b->len - 1;
			if (strbuf_reserve(b, more) < 0) {
				server_reply(r, 0, "out of memory");
				return 0;
			}
		}
		n = read(r->fd, b->p + b->len, b->cap - b->len - 1);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			server_reply(r, 0, "incomplete request");
			return 0;
		}
		b->len += (size_t)n;
		b->p[b->len] = '\0';
		nl = memchr(b->p, '\n', b->len);
		if (nl) {
			*nl = '\0';
			if (strlen(b->p) != (size_t)(nl - b->p)) {
				server_reply(r, 0, "NUL byte in request");
				return 0;
			}
			strbuf_truncate(b, (size_t)(nl - b->p));
			return 1;
		}
	}
}

int server_accept(struct server *s, struct request *r, double until)
{
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	struct strbuf b = STRBUF_INIT;
	double deadline;
	int fd = accept4(s->fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	r->fd = -1;
	r->line = NULL;
	if (fd < 0)
		return (errno == EAGAIN || errno == EINTR ||
			errno == ECONNABORTED) ? 0 : -1;
	r->fd = fd;
	/* the socket is 0600 in a 0700 directory, but check anyway: only
	 * the owner (or root) controls a collector */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) < 0 ||
	    (cred.uid != geteuid() && cred.uid != 0)) {
		server_reply(r, 0, "permission denied");
		return 0;
	}
	r->pid = cred.pid;
	deadline = util_monotonic();
	if (until < deadline + SERVER_MIN_WAIT)
		deadline += SERVER_MIN_WAIT;
	else if (until > deadline + SERVER_MAX_WAIT)
		deadline += SERVER_MAX_WAIT;
	else
		deadline = until;
	if (!read_request(r, &b, deadline)) {
		strbuf_free(&b);
		return 0;
	}
	r->line = strbuf_detach(&b, NULL);
	if (!r->line) {
		server_reply(r, 0, "out of memory");
		return 0;
	}
	return 1;
}
