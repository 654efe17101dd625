/*
 * run_remote_int.h - what run_remote.c (the protocol: hello, pings,
 * marks, the markers' fields) and run_remote_io.c (each server's ssh,
 * its pipes, the poll loop) share; not an interface for other files:
 * run_remote.h is.
 */
#ifndef PERFLOG_RUN_REMOTE_INT_H
#define PERFLOG_RUN_REMOTE_INT_H

#include "run_remote.h"

/* A server's state (struct remote's state), run_remote.c's diagram. */
enum { ST_IDLE, ST_HELLO, ST_PING, ST_READY, ST_MARK, ST_FAILED };

/* A line the server wrote on its stdout, without its newline. */
typedef void remote_line_fn(struct remotes *rs, struct remote *r, char *line);

/* Close *fd if open, and mark it closed (-1). */
void remote_close_fd(int *fd);
/* Close r's pipes, kill its ssh's process group when kill_it, reap it
 * (its wait status to *status when not NULL). */
void remote_reap(struct remote *r, int kill_it, int *status);
/* r failed: reaped (killed), why kept; the first reason stays. */
void remote_fail(struct remote *r, const char *why);
/* Write s and a newline to r's stdin; a failure fails r. */
void remote_send(struct remote *r, const char *s);
/* Start r's ssh (rs->ssh, r->host, `perflog mark --remote [-d DIR]`)
 * with its three pipes. 0, or -1 with r failed. */
int remote_spawn(struct remotes *rs, struct remote *r);
/* Until no server waits for an answer (HELLO, PING, MARK), or
 * rs->deadline: then whoever still waits is failed and killed. Each line
 * read goes to on_line. */
void remotes_pump(struct remotes *rs, remote_line_fn *on_line);

#endif
