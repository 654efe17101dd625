/*
 * waitpeer_fds.c - which process holds an inode (waitpeer.h): every
 * process's fd table, scanned at most once a WAITPEER_RESCAN_SEC and
 * SCAN_SHARE of a CPU, and only for an inode not in the last scan; of
 * several holders, the one doing the work (waitactive.h). A named
 * FIFO's holders by its device and inode: once one is looked for, the
 * scans stat the paths' links too (a statx each, DONT_SYNC).
 */
#define _GNU_SOURCE
#include "waitpeer_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../common/util.h"
#include "waitactive.h"

static int cmp_owner(const void *a, const void *b)
{
	const struct owner *x = a, *y = b;

	if (x->ino != y->ino)
		return (x->ino > y->ino) - (x->ino < y->ino);
	if (x->dev != y->dev)
		return (x->dev > y->dev) - (x->dev < y->dev);
	return (x->pid > y->pid) - (x->pid < y->pid);
}

int waitpeer_fifo(int dirfd, const char *rel, struct waitpeer_id *id)
{
	struct statx st;

	if (statx(dirfd, rel, AT_STATX_DONT_SYNC | AT_NO_AUTOMOUNT,
		  STATX_TYPE | STATX_INO, &st) < 0 ||
	    (st.stx_mask & (STATX_TYPE | STATX_INO)) != (STATX_TYPE | STATX_INO) ||
	    !S_ISFIFO(st.stx_mode))
		return 0;
	id->kind = 'f';
	/* never 0: a pipe's or a socket's (an anonymous device 0:N
	 * counts from 1, and the + 1 keeps a 0:0 apart all the same) */
	id->dev = (unsigned long)makedev(st.stx_dev_major, st.stx_dev_minor) + 1;
	id->ino = (unsigned long)st.stx_ino;
	return 1;
}

/* What descriptor rel below dirfd is (its link read; a path's stat only
 * with fifos set): 1 with *id, 0 when neither pipe, socket nor FIFO. */
static int fd_id(int dirfd, const char *rel, int fifos,
		 struct waitpeer_id *id)
{
	char link[64];
	ssize_t n = readlinkat(dirfd, rel, link, sizeof(link) - 1);
	int kind;

	if (n <= 0)
		return 0;
	link[n] = '\0';
	if ((kind = waitpeer_link(link, &id->ino))) {
		id->kind = (char)kind;
		id->dev = 0;
		return 1;
	}
	return fifos && link[0] == '/' && waitpeer_fifo(dirfd, rel, id);
}

int waitpeer_each_link(int procfd, pid_t pid, int max, int fifos,
		       void (*fn)(void *ctx, pid_t pid, int fd,
				  const struct waitpeer_id *id),
		       void *ctx)
{
	char rel[64];
	struct dirent *f;
	int ffd, seen = 0;
	DIR *fdir;

	snprintf(rel, sizeof(rel), "%d/fd", (int)pid);
	ffd = openat(procfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ffd < 0 || !(fdir = fdopendir(ffd))) {
		if (ffd >= 0)
			close(ffd);
		return -1;
	}
	while ((f = readdir(fdir)) && (max <= 0 || seen < max)) {
		struct waitpeer_id id;

		if (f->d_name[0] == '.')
			continue;
		seen++;
		if (fd_id(ffd, f->d_name, fifos, &id))
			fn(ctx, pid, atoi(f->d_name), &id);
	}
	closedir(fdir);
	return 0;
}

/* waitpeer_each_link's callback of scan_fds: inode -> (pid, fd). */
static void own_link(void *ctx, pid_t pid, int fd,
		     const struct waitpeer_id *id)
{
	struct waitpeer *p = ctx;

	if (util_grow(&p->own, &p->capown, p->nown + 1, sizeof(*p->own)) == 0)
		p->own[p->nown++] = (struct owner){ id->ino, id->dev, pid, fd };
}

/* Every process's pipes and sockets (and FIFOs, once one was looked
 * for): inode -> (pid, fd). */
static void scan_fds(struct waitpeer *p, double now)
{
	int dfd = openat(p->procfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *e;
	double cpu0 = util_thread_cpu();

	p->scanned = now;
	p->scans++;
	p->nown = 0;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((e = readdir(d))) {
		pid_t pid = (pid_t)atoi(e->d_name);

		if (pid > 0)
			waitpeer_each_link(p->procfd, pid, 0, p->fifos,
					   own_link, p);
	}
	closedir(d);
	qsort(p->own, p->nown, sizeof(*p->own), cmp_owner);
	p->scan_gap = (util_thread_cpu() - cpu0) / SCAN_SHARE;
	if (p->scan_gap < WAITPEER_RESCAN_SEC)
		p->scan_gap = WAITPEER_RESCAN_SEC;
}

/* The first holder of id in the table, or NULL. */
static const struct owner *first_owner(const struct waitpeer *p,
				       const struct waitpeer_id *id,
				       size_t *count)
{
	size_t lo = 0, hi = p->nown, k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct owner *m = &p->own[mid];

		if (m->ino < id->ino || (m->ino == id->ino && m->dev < id->dev))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < p->nown && p->own[k].ino == id->ino &&
	     p->own[k].dev == id->dev; k++)
		;
	*count = k - lo;
	return k > lo ? &p->own[lo] : NULL;
}

int waitpeer_acc_mode(int procfd, pid_t pid, int fd)
{
	char rel[64], buf[256], *f;

	snprintf(rel, sizeof(rel), "%d/fdinfo/%d", (int)pid, fd);
	if (util_read_text_at(procfd, rel, buf, sizeof(buf)) <= 0 ||
	    !(f = strstr(buf, "flags:")))
		return -1;
	return (int)(strtoul(f + 6, NULL, 8) & 3);
}

/* Whether pid's descriptor fd still names ino: the fd tables are read
 * once a scan, and a process just forked holds its parent's ends until
 * it closes them (rsync's generator, its receiver's socket). */
static int still_holds(const struct waitpeer *p, const struct owner *o)
{
	char rel[64];
	struct waitpeer_id id;

	snprintf(rel, sizeof(rel), "%d/fd/%d", (int)o->pid, o->fd);
	return fd_id(p->procfd, rel, o->dev != 0, &id) && id.ino == o->ino &&
	       id.dev == o->dev;
}

/* waitpeer_each_link's callback of holds: whether the process holds
 * the inode (ctx: struct held), with the access mode wanted. */
struct held {
	const struct waitpeer *p;
	const struct waitpeer_id *id;
	int want, found;
};

static void held_link(void *ctx, pid_t pid, int fd,
		      const struct waitpeer_id *id)
{
	struct held *h = ctx;

	if (!h->found && id->ino == h->id->ino && id->dev == h->id->dev &&
	    (h->want < 0 || waitpeer_acc_mode(h->p->procfd, pid, fd) == h->want))
		h->found = 1;
}

/* Whether process pid holds id with access mode want (-1 any), among its
 * first MAX_CHILD_FDS descriptors: a holder's child looked at by hand,
 * not in the fd tables' last scan. */
static int holds(const struct waitpeer *p, pid_t pid,
		 const struct waitpeer_id *id, int want)
{
	struct held h = { p, id, want, 0 };

	return waitpeer_each_link(p->procfd, pid, MAX_CHILD_FDS, id->dev != 0,
				  held_link, &h) == 0 && h.found;
}

/* The busiest of parent's descendants (up to DESCEND_DEPTH down) that
 * hold id with access mode want (-1 any), when busier than the parent
 * (*act its activity): the parent itself otherwise; never the waiter.
 * A shell waiting on its children holds the end it gave them, and one
 * forked after the last fd scan is not in the table: `(head | gzip;
 * echo) | cat`, cat's writer is gzip, not the subshell that only holds
 * the pipe. */
#define DESCEND_DEPTH 3
#define DESCEND_CHILDREN 8
static pid_t busiest_child(const struct waitpeer *p, pid_t parent,
			   const struct waitpeer_id *id, int want,
			   pid_t waiter, int depth, enum waitactive *act)
{
	pid_t kids[DESCEND_CHILDREN], best = parent;
	size_t n;

	if (*act != ACTIVE_PARENT || depth >= DESCEND_DEPTH)
		return parent;
	n = waitactive_children(p->procfd, parent, parent, kids,
				DESCEND_CHILDREN);
	for (size_t i = 0; i < n; i++) {
		enum waitactive a;
		pid_t k;

		if (kids[i] == waiter || !holds(p, kids[i], id, want))
			continue;
		a = waitactive_of(p->procfd, kids[i]);
		k = busiest_child(p, kids[i], id, want, waiter, depth + 1, &a);
		if (a > *act) {
			*act = a;
			best = k;
		}
	}
	return best;
}

pid_t waitpeer_child_holder(const struct waitpeer *p,
			    const struct waitpeer_id *id, pid_t tgid,
			    pid_t tid, int want)
{
	pid_t kids[DESCEND_CHILDREN];
	size_t n = waitactive_children(p->procfd, tgid, tid, kids,
				       DESCEND_CHILDREN);

	for (size_t i = 0; i < n; i++) {
		enum waitactive a;

		if (kids[i] == tgid || !holds(p, kids[i], id, want))
			continue;
		/* (a subshell that holds it for its pipeline: the one of
		 * them at work) */
		a = waitactive_of(p->procfd, kids[i]);
		return busiest_child(p, kids[i], id, want, tgid, 1, &a);
	}
	return 0;
}

/* The process holding id other than tgid (for a pipe, want: the access
 * mode of the end we look for, O_WRONLY feeding a reader, O_RDONLY
 * draining a writer; -1 any end, a socket's). Of several holders, the
 * one doing the work (waitactive.h: running, then blocked on something,
 * then asleep, last waiting on its children), its busiest descendant
 * holding it too when it waits on them: the first in the fd tables was
 * a shell that only held the end its children write (issue 46). Ties go
 * to the first (the lower pid). A holder the last scan saw is asked
 * again whether it still holds it; the fd tables are scanned again when
 * nobody else holds it (or nobody the scan saw still does) and the last
 * scan is old enough. *unsure is set when the answer may change soon
 * (several holders, or one waiting on its children: who works among
 * them moves; one running: it may fork the process it gives the end to,
 * which no scan has seen; for a pipe not the end wanted; the holders
 * seen are gone and no scan was due): it is kept only a
 * WAITPEER_RESCAN_SEC. 0 when not found, and never tgid: the waiter's
 * own entries are no far end. They were: a scan that saw the waiter
 * alone on a pipe (between its pipe() and its fork, or before the
 * other end's holder was listed) answered the waiter itself until the
 * next scan, and for good while no other inode asked for one ("head ->
 * head 0.4 s" in an edges file, issue 46). */
pid_t waitpeer_holder(struct waitpeer *p, const struct waitpeer_id *id,
		      pid_t tgid, int want, double now, int *unsure,
		      int *own)
{
	if (id->dev && !p->fifos) {
		p->fifos = 1;	/* the scans so far left FIFOs out */
		p->scanned = -1e9;
	}
	for (int pass = 0; pass < 2; pass++) {
		size_t n = 0, seen = 0, gone = 0, nbest = 0;
		const struct owner *o = first_owner(p, id, &n);
		pid_t other = 0, best = 0;
		int self = 0;
		enum waitactive act = ACTIVE_UNKNOWN;

		for (size_t i = 0; i < n && seen < MAX_HOLDERS; i++) {
			enum waitactive a;

			if (o[i].pid == tgid) {
				/* its own end; the end looked for too when
				 * it holds both (a self-pipe, a socketpair
				 * kept alone), or it let it go since the
				 * scan (to a child forked since: sshd holds
				 * the end it gives its command until the
				 * fork, and was its own far end 4.8 s of
				 * its wait in t3741) */
				if (!still_holds(p, &o[i]))
					gone++;
				else if (want < 0 ||
					 waitpeer_acc_mode(p->procfd, o[i].pid,
							   o[i].fd) == want)
					self = 1;
				continue;
			}
			seen++;
			if (!still_holds(p, &o[i])) {
				gone++;
				continue;
			}
			if (want >= 0 &&
			    waitpeer_acc_mode(p->procfd, o[i].pid, o[i].fd) != want) {
				if (!other)
					other = o[i].pid;
				continue;
			}
			a = waitactive_of(p->procfd, o[i].pid);
			if (!nbest++ || a > act) {
				best = o[i].pid;
				act = a;
			}
		}
		if (best) {
			/* a running holder may be forking the process it
			 * hands the end to: a subshell starting its
			 * pipeline, the only writer cat's pipe had when
			 * looked at, was cat's peer for the next 5 s, its
			 * whole run (t7725 beside a loaded make check) */
			*unsure |= nbest > 1 || act == ACTIVE_PARENT ||
				   act == ACTIVE_RUN;
			return busiest_child(p, best, id, want, tgid, 0, &act);
		}
		/* the holders the scan saw gone: scanned again when due,
		 * before another answer (the end a gone subshell held is
		 * held by the command it started) */
		if (!pass && gone && now - p->scanned >= p->scan_gap) {
			scan_fds(p, now);
			continue;
		}
		/* a pipe's end not seen: the other holder, unsure */
		if (other) {
			*unsure = 1;
			return other;
		}
		/* the waiter holds the end looked for itself, alone as of
		 * the last scan and still (a self-pipe, a socketpair kept
		 * by one process): no process on the other side (*own),
		 * and no scan again for it. Else the scan saw no one else,
		 * or only holders gone since: scanned again when due,
		 * unknown until then */
		if ((self && !gone) || pass || now - p->scanned < p->scan_gap) {
			*unsure |= gone > 0;
			*own = self && !gone;
			return 0;
		}
		scan_fds(p, now);
	}
	return 0;
}
