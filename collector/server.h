/*
 * server.h - the collector's end of the control socket (control.h has the
 * protocol and the client side). The collector polls server_fd() with its
 * deadline and calls server_accept() when it is readable; the request is
 * read with a time limit that ends at the next sample's deadline, so a
 * client that connects and says nothing cannot stall sampling.
 */
#ifndef PERFLOG_SERVER_H
#define PERFLOG_SERVER_H

#include <stddef.h>
#include <sys/types.h>

#include "../common/util.h"

#define SERVER_MAX_REQUEST 65536

struct server;

/* Bind RUNTIME/PID.sock (0600) and write RUNTIME/PID.info naming the log
 * set and interval. */
struct server *server_open(const char *logset, unsigned interval,
			   struct perr *e);
int server_fd(const struct server *s);
/* Remove the socket and info file and free. */
void server_close(struct server *s);

/* A client with its request read: line is NUL-terminated without its
 * newline. */
struct request {
	int fd;
	char *line;
	pid_t pid;	/* the client's (SO_PEERCRED) */
};

/* Accept one connection and read its request, waiting for it no later than
 * `until` (monotonic; the caller's next sample deadline) but at least
 * SERVER_MIN_WAIT and at most SERVER_MAX_WAIT seconds: a client that
 * connects and says nothing delays a sample by SERVER_MIN_WAIT at worst.
 * Returns 1 with *r filled, 0 when there was nothing to serve (the client
 * went away, sent garbage, was slow, was another user: answered and closed
 * here), -1 on error. */
#define SERVER_MIN_WAIT 0.05
#define SERVER_MAX_WAIT 2.0
int server_accept(struct server *s, struct request *r, double until);

/* Send "ok TEXT" or "error TEXT" and close the client. */
void server_reply(struct request *r, int ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
