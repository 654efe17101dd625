/*
 * waitlinks.c - the pipes joining the processes of a watched set, from
 * their fd tables (waits_int.h, waits_links_scan): the structure of the
 * pipeline, known without a wait caught on it.
 *
 * Why: the edges of the ticks (waittick.c) exist only where a thread
 * was caught blocked on a pipe. A writer that finishes at once (tar
 * handing 2 MB to ssh, which buffers it) is never caught, and the report
 * then took the tree's bytes (which count what tar wrote to the pipe and
 * ssh read from it) for the client's: "process tree wrote +100%:
 * disagree" (issue 29, t3720). Each process of the set is looked at once,
 * when first seen: its pipe ends (the link text "pipe:[INO]" and the
 * fdinfo access mode; nothing followed into a file system) are kept, and
 * two processes holding opposite ends of one pipe get an edge of no
 * seconds each way.
 *
 * Cost: a process's fd directory read once in its life (up to
 * LINK_FDS_MAX descriptors), an fdinfo read per pipe end.
 */
#define _GNU_SOURCE
#include "waits_int.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINK_FDS_MAX 256

/* An edge of no seconds from end a to end b, in direction dir. */
static void edge(struct waits *w, const struct waits_link *a,
		 const struct waits_link *b, int dir)
{
	struct waitpeer_edge e = { 0 };

	e.kind = PEER_PIPE;
	e.pid = a->pid;
	memcpy(e.comm, a->comm, sizeof(e.comm));
	e.dir = dir;
	e.peer_pid = b->pid;
	memcpy(e.peer_comm, b->comm, sizeof(e.peer_comm));
	(void)waits_edge_id(w, &e);
}

/* The writer's edge out to the reader, the reader's in from it. */
static void join(struct waits *w, const struct waits_link *wr,
		 const struct waits_link *rd)
{
	edge(w, wr, rd, PEER_OUT);
	edge(w, rd, wr, PEER_IN);
}

/* The table full: the ends of processes no longer in the set let go
 * (the edges they made stay), so a client of many short processes does
 * not fill it for good. */
static void prune(struct waits *w)
{
	size_t k = 0;

	for (size_t i = 0; i < w->nlinks; i++) {
		int live = 0;

		for (size_t j = 0; j < w->nlive && !live; j++)
			live = w->live[j].pub.pid == w->links[i].pid;
		if (live)
			w->links[k++] = w->links[i];
	}
	w->nlinks = k;
}

/* A new end: joined to every end of another process on the same pipe. */
static void add(struct waits *w, const struct waits_link *l)
{
	if (w->nlinks >= WAITS_MAX_LINKS)
		prune(w);
	for (size_t i = 0; i < w->nlinks; i++) {
		const struct waits_link *o = &w->links[i];

		if (o->ino != l->ino || o->pid == l->pid)
			continue;
		if (l->mode != O_RDONLY && o->mode != O_WRONLY)
			join(w, l, o);
		if (l->mode != O_WRONLY && o->mode != O_RDONLY)
			join(w, o, l);
	}
	if (w->nlinks < WAITS_MAX_LINKS &&
	    util_grow(&w->links, &w->caplinks, w->nlinks + 1,
		      sizeof(*w->links)) == 0)
		w->links[w->nlinks++] = *l;
}

struct scan {
	struct waits *w;
	const char *comm;
};

/* waitpeer_each_link's callback: a pipe end of the process. */
static void pipe_end(void *ctx, pid_t pid, int fd,
		     const struct waitpeer_id *id)
{
	struct scan *sc = ctx;
	struct waits_link l = { 0 };

	if (id->kind != 'p')
		return;
	l.ino = id->ino;
	l.pid = pid;
	l.mode = waitpeer_acc_mode(sc->w->procfd, pid, fd);
	if (l.mode < 0)
		return;
	util_strlcpy(l.comm, sc->comm, sizeof(l.comm));
	add(sc->w, &l);
}

void waits_links_scan(struct waits *w, pid_t pid, const char *comm)
{
	struct scan sc = { w, comm };

	(void)waitpeer_each_link(w->procfd, pid, LINK_FDS_MAX, 0, pipe_end,
				 &sc);
}
