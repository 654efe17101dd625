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

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINK_FDS_MAX 256

/* An edge of no seconds from a's end to b's (a writes, b reads). */
static void join(struct waits *w, const struct waits_link *wr,
		 const struct waits_link *rd)
{
	struct waitpeer_edge e = { 0 };

	e.kind = PEER_PIPE;
	e.pid = wr->pid;
	memcpy(e.comm, wr->comm, sizeof(e.comm));
	e.dir = PEER_OUT;
	e.peer_pid = rd->pid;
	memcpy(e.peer_comm, rd->comm, sizeof(e.peer_comm));
	(void)waits_edge_id(w, &e);
	e.pid = rd->pid;
	memcpy(e.comm, rd->comm, sizeof(e.comm));
	e.dir = PEER_IN;
	e.peer_pid = wr->pid;
	memcpy(e.peer_comm, wr->comm, sizeof(e.peer_comm));
	(void)waits_edge_id(w, &e);
}

/* A new end: joined to every end of another process on the same pipe. */
static void add(struct waits *w, const struct waits_link *l)
{
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

void waits_links_scan(struct waits *w, pid_t pid, const char *comm)
{
	char rel[32];
	int dfd, seen = 0;
	DIR *d;
	struct dirent *f;

	snprintf(rel, sizeof(rel), "%d/fd", (int)pid);
	dfd = openat(w->procfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return;
	if (!(d = fdopendir(dfd))) {
		close(dfd);
		return;
	}
	while ((f = readdir(d)) && seen++ < LINK_FDS_MAX) {
		char link[64];
		unsigned long ino;
		struct waits_link l = { 0 };
		ssize_t n;

		if (f->d_name[0] == '.')
			continue;
		n = readlinkat(dfd, f->d_name, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (waitpeer_link(link, &ino) != 'p')
			continue;
		l.ino = ino;
		l.pid = pid;
		l.mode = waitpeer_acc_mode(w->procfd, pid, atoi(f->d_name));
		if (l.mode < 0)
			continue;
		util_strlcpy(l.comm, comm, sizeof(l.comm));
		add(w, &l);
	}
	closedir(d);
}
