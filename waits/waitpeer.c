/*
 * waitpeer.c - the reads and the cache of waitpeer.h: which process
 * holds an inode (waitpeer_fds.c), the AF_UNIX peers (one sock_diag dump, once a
 * WAITPEER_RESCAN_SEC, same rule), a network namespace's
 * sockets and own addresses (waitpeer_inet.c), and the answers per
 * (process, inode, direction) for WAITPEER_KEEP_SEC.
 */
#define _GNU_SOURCE
#include "waitpeer_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../common/util.h"


struct waitpeer *waitpeer_open(int procfd, int diag)
{
	struct waitpeer *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->procfd = procfd;
	p->diag = diag;
	p->scanned = p->unix_at = -1e9;
	p->scan_gap = WAITPEER_RESCAN_SEC;
	return p;
}

void waitpeer_close(struct waitpeer *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nns; i++) {
		free(p->ns[i].if6);
		free(p->ns[i].route);
	}
	free(p->own);
	free(p->unx);
	free(p->fixed);
	free(p->inet);
	free(p->ans);
	free(p);
}

void waitpeer_stats(const struct waitpeer *p, unsigned *fd_scans,
		    unsigned *sock_reads)
{
	*fd_scans = p->scans;
	*sock_reads = p->reads;
}

int waitpeer_add_unix(struct waitpeer *p, unsigned long ino,
		      unsigned long peer)
{
	if (util_grow(&p->fixed, &p->capfixed, p->nfixed + 2,
		      sizeof(*p->fixed)) < 0)
		return -1;
	p->fixed[p->nfixed++] = (struct waitpeer_pair){ ino, peer };
	p->fixed[p->nfixed++] = (struct waitpeer_pair){ peer, ino };
	return 0;
}


/* ROOT/proc/PID/comm into comm (the files write its control characters
 * and tabs '?': waitrates_comm): 0, or -1 ("") when it cannot be read. */
static int read_comm(const struct waitpeer *p, pid_t pid, char comm[16])
{
	char rel[32], buf[64];

	comm[0] = '\0';
	snprintf(rel, sizeof(rel), "%d/comm", (int)pid);
	if (util_read_text_at(p->procfd, rel, buf, sizeof(buf)) <= 0)
		return -1;
	/* the kernel's newline ends it; one inside is the name's own (a
	 * command exec'ed through "he<NL>ad"): kept, as /proc/PID/stat's
	 * comm keeps it, and written '?' by the files (waitrates_comm) */
	if (strlen(buf) && buf[strlen(buf) - 1] == '\n')
		buf[strlen(buf) - 1] = '\0';
	buf[15] = '\0';
	memcpy(comm, buf, 16);
	return 0;
}

void waitpeer_comm(struct waitpeer *p, pid_t pid, double now, char comm[16])
{
	struct comm_ent *ce = &p->comms[(unsigned)pid % NCOMM];

	if (ce->pid == pid && now - ce->at < WAITPEER_RESCAN_SEC) {
		memcpy(comm, ce->comm, 16);
		return;
	}
	ce->pid = 0;
	if (read_comm(p, pid, comm) < 0)
		return;
	ce->pid = pid;
	ce->at = now;
	memcpy(ce->comm, comm, 16);
}

void waitpeer_comm_now(const struct waitpeer *p, pid_t pid, char comm[16])
{
	(void)read_comm(p, pid, comm);
}

int waitpeer_gone(const struct waitpeer *p, pid_t pid)
{
	char rel[16];

	snprintf(rel, sizeof(rel), "%d", (int)pid);
	return pid > 0 && faccessat(p->procfd, rel, F_OK, 0) < 0 &&
	       errno == ENOENT;
}

void waitpeer_forget(struct waitpeer *p, pid_t pid, double now)
{
	struct gone_ent *g = NULL;

	if (pid <= 0)
		return;
	for (unsigned i = 0; i < NGONE && !g; i++)
		if (p->gone[i].pid == pid)
			g = &p->gone[i];
	if (!g)
		g = &p->gone[p->ngone++ % NGONE];
	g->pid = pid;
	g->at = now;
}

/* Whether answer a names a far end forgotten since it was made. */
static int forgotten(const struct waitpeer *p, const struct answer *a)
{
	for (unsigned i = 0; a->ok && a->e.peer_pid > 0 && i < NGONE; i++)
		if (p->gone[i].pid == a->e.peer_pid && a->made <= p->gone[i].at)
			return 1;
	return 0;
}

void waitpeer_renamed(struct waitpeer *p, pid_t pid, const char *comm,
		      double now)
{
	struct comm_ent *ce = &p->comms[(unsigned)pid % NCOMM];

	ce->pid = pid;
	ce->at = now;
	memset(ce->comm, 0, sizeof(ce->comm));
	util_strlcpy(ce->comm, comm, sizeof(ce->comm));
}

static int cmp_pair(const void *a, const void *b)
{
	const struct waitpeer_pair *x = a, *y = b;

	return (x->ino > y->ino) - (x->ino < y->ino);
}

/* One sock_diag dump of the AF_UNIX sockets with their peers. */
static void dump_unix(struct waitpeer *p, double now)
{
	struct {
		struct nlmsghdr h;
		struct unix_diag_req r;
	} req = {
		.h = { .nlmsg_len = sizeof(req), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.r = { .sdiag_family = AF_UNIX, .udiag_states = ~0U,
		       .udiag_show = UDIAG_SHOW_PEER },
	};
	char buf[32768];
	int s, done = 0;
	struct timeval tv = { 0, 200000 };

	p->unix_at = now;
	p->nunx = 0;
	if (!p->diag)
		return;
	s = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (s < 0)
		return;
	/* the kernel answers at once; the bound is against a surprise */
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (send(s, &req, sizeof(req), 0) == (ssize_t)sizeof(req)) {
		while (!done) {
			ssize_t r = recv(s, buf, sizeof(buf), 0);

			if (r <= 0 || util_grow(&p->unx, &p->capunx,
						p->nunx + (size_t)r / 16 + 1,
						sizeof(*p->unx)) < 0)
				break;
			done = waitpeer_unix_diag(buf, (size_t)r, p->unx,
						  &p->nunx, p->capunx);
		}
	}
	close(s);
	p->reads++;
	qsort(p->unx, p->nunx, sizeof(*p->unx), cmp_pair);
}

/* The peer of ino in the dump (sorted by inode) or the fixed pairs. */
static int unix_known(const struct waitpeer *p, unsigned long ino,
		      unsigned long *peer)
{
	size_t lo = 0, hi = p->nunx;

	for (size_t i = 0; i < p->nfixed; i++)
		if (p->fixed[i].ino == ino) {
			*peer = p->fixed[i].peer;
			return 1;
		}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->unx[mid].ino == ino) {
			*peer = p->unx[mid].peer;
			return 1;
		}
		if (p->unx[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* The peer inode of an AF_UNIX socket: 1 (*peer 0 when unconnected),
 * 0 when ino is not an AF_UNIX socket we know. */
static int unix_peer(struct waitpeer *p, unsigned long ino, double now,
		     unsigned long *peer)
{
	if (unix_known(p, ino, peer))
		return 1;
	if (now - p->unix_at < WAITPEER_RESCAN_SEC)
		return 0;
	dump_unix(p, now);
	return unix_known(p, ino, peer);
}


/* waitpeer_resolve's answer: 1, WAITPEER_OWN (the waiter's own end:
 * a self-pipe), 0 not told. */
static int resolve(struct waitpeer *p, pid_t tgid, pid_t tid,
		   const struct waitpeer_id *id, int dir, double now,
		   struct waitpeer_edge *e, int *unsure)
{
	unsigned long peer;
	int own = 0;

	if (id->kind != 's') {
		/* a reader waits on the writing end's holder and the
		 * other way round */
		int want = dir == PEER_IN ? O_WRONLY : O_RDONLY;

		e->kind = PEER_PIPE;	/* a pipe, a named FIFO */
		e->peer_pid = waitpeer_holder(p, id, tgid, want, now, unsure,
					      &own);
		/* one the scan has not seen: its own child's, now */
		if (!e->peer_pid && !own)
			e->peer_pid = waitpeer_child_holder(p, id, tgid, tid,
							    want);
		return own ? WAITPEER_OWN : 1;
	}
	/* an AF_UNIX socket of the last dump needs no socket table */
	if (!unix_known(p, id->ino, &peer)) {
		unsigned long mirror = 0;

		if (waitpeer_inet_peer(p, tgid, id->ino, now, e, &mirror)) {
			if (mirror)
				e->peer_pid = waitpeer_holder(p,
					&(struct waitpeer_id){ 's', 0, mirror },
					tgid, -1, now, unsure, &own);
			return own ? WAITPEER_OWN : 1;
		}
		if (!unix_peer(p, id->ino, now, &peer))
			return 0;
	}
	e->kind = PEER_UNIX;
	if (peer)
		e->peer_pid = waitpeer_holder(p,
			&(struct waitpeer_id){ 's', 0, peer }, tgid, -1, now,
			unsure, &own);
	return own ? WAITPEER_OWN : 1;
}

static size_t ans_hash(pid_t tgid, unsigned long dev, unsigned long ino,
		       int dir)
{
	uint64_t h = ((uint64_t)ino ^ (uint64_t)dev << 32) *
		0x9e3779b97f4a7c15ULL ^
		((uint64_t)(uint32_t)tgid << 1 | (uint64_t)(dir & 1));

	h ^= h >> 29;
	return (size_t)(h * 0xbf58476d1ce4e5b9ULL >> 17);
}

/* The slot of (tgid, id, dir): its answer, or the free slot for it.
 * NULL when out of memory. Grows at half full; past MAX_ANSWERS the
 * table starts again (the answers are only a cache). */
static struct answer *ans_slot(struct waitpeer *p, pid_t tgid,
			       const struct waitpeer_id *id, int dir)
{
	struct answer *a;

	if (p->nans * 2 >= p->capans) {
		size_t cap = p->capans ? p->capans * 2 : 1024;
		struct answer *old = p->ans;
		size_t oldcap = p->capans;

		if (cap > 2 * MAX_ANSWERS) {	/* full: start again */
			memset(p->ans, 0, p->capans * sizeof(*p->ans));
			p->nans = 0;
			cap = p->capans;
		} else {
			if (!(p->ans = calloc(cap, sizeof(*p->ans)))) {
				p->ans = old;
				return NULL;
			}
			p->capans = cap;
			p->nans = 0;
			for (size_t i = 0; i < oldcap; i++)
				if (old[i].used) {
					size_t k = ans_hash(old[i].tgid, old[i].dev,
							    old[i].ino,
							    old[i].dir) & (cap - 1);

					while (p->ans[k].used)
						k = (k + 1) & (cap - 1);
					p->ans[k] = old[i];
					p->nans++;
				}
			free(old);
		}
	}
	for (size_t k = ans_hash(tgid, id->dev, id->ino, dir) & (p->capans - 1);;
	     k = (k + 1) & (p->capans - 1)) {
		a = &p->ans[k];
		if (!a->used || (a->tgid == tgid && a->ino == id->ino &&
				 a->dev == id->dev && a->dir == dir))
			return a;
	}
}

/* An answer's names read again (cached WAITPEER_RESCAN_SEC): kept as
 * they were when a process is gone. */
static void name_answer(struct waitpeer *p, struct waitpeer_edge *e,
			double now)
{
	char c[16];

	waitpeer_comm(p, e->pid, now, c);
	if (c[0])
		memcpy(e->comm, c, sizeof(c));
	if (e->peer_pid) {
		waitpeer_comm(p, e->peer_pid, now, c);
		if (c[0])
			memcpy(e->peer_comm, c, sizeof(c));
	}
}

int waitpeer_resolve(struct waitpeer *p, pid_t tgid, pid_t tid, long fd,
		     const char *link, int dir, double now,
		     struct waitpeer_edge *out)
{
	char buf[256], rel[64];
	struct waitpeer_id id = { 0, 0, 0 };
	struct answer *a = NULL;
	int unsure = 0;

	snprintf(rel, sizeof(rel), "%d/fd/%ld", (int)tid, fd);
	if (!link) {
		ssize_t n = readlinkat(p->procfd, rel, buf, sizeof(buf) - 1);

		if (n < 0)
			return 0;
		buf[n] = '\0';
		link = buf;
	}
	/* a named FIFO's link is its path: the FIFO by its device and
	 * inode (its holders matched so, waitpeer_fds.c) */
	if ((id.kind = (char)waitpeer_link(link, &id.ino)) == 0 &&
	    !(link[0] == '/' && waitpeer_fifo(p->procfd, rel, &id)))
		return 0;
	if (!(a = ans_slot(p, tgid, &id, dir)))
		return 0;
	/* (a holder gone since: its pipe was the answer for 5 s, the
	 * dead subshell of a login script (pyenv) the one sshd's wait
	 * on its command's output went to, t3741; the sampler says so,
	 * waitpeer_forget: a look at ROOT/proc/PID here cost every hit a
	 * system call, and a gone end found by waitthread.c's look was
	 * looked at again at once) */
	if (a->used && now < a->until && !forgotten(p, a)) {
		/* the names as of now (a process that exec'ed since the
		 * answer was made: head waited on "bash" for a python3) */
		if (a->ok)
			name_answer(p, &a->e, now);
		*out = a->e;
		return a->ok;
	}
	if (!a->used)
		p->nans++;
	memset(a, 0, sizeof(*a));
	a->used = 1;
	a->tgid = tgid;
	a->dev = id.dev;
	a->ino = id.ino;
	a->dir = dir;
	a->made = now;
	a->until = now + WAITPEER_KEEP_SEC;
	a->e.pid = tgid;
	a->e.dir = dir;
	a->ok = resolve(p, tgid, tid, &id, dir, now, &a->e, &unsure);
	/* a local far end whose process was not found yet (a connection
	 * accepted after the last scan), or one of several holders, is
	 * looked for again sooner */
	if (!a->ok || unsure || (a->e.kind != PEER_NET && !a->e.peer_pid))
		a->until = now + WAITPEER_RESCAN_SEC;
	if (a->ok)
		name_answer(p, &a->e, now);
	*out = a->e;
	return a->ok;
}
