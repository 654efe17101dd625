/*
 * procfds.c - the /proc files of a tree's tasks kept open between reads
 * (process_books.h): each sample reads every live thread's task/TID/stat
 * and io (the taskstats books) or every process's stat and io; opening
 * and closing them each time was a third of the collector's CPU with a
 * client of 2,000 threads (perf, issue 30: open 25%, close 9%, the path
 * walk in both). A file is opened on its first read and kept, read again
 * with pread; a task gone or its id reused makes the read fail (ESRCH:
 * the descriptor stays on the dead task), and the file is opened again
 * by its path once. Files not read during a scan are closed at its end
 * (procfds_sweep), so a thread that ended holds nothing past a sample,
 * and one whose books read only its schedstat (it has not run) holds
 * that file alone.
 * At most PROCFDS_BUDGET descriptors, and a quarter of RLIMIT_NOFILE
 * (the wait-state sampler keeps its own within half): past it a file is
 * read as before, opened and closed.
 */
#define _GNU_SOURCE
#include "process_books.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define PROCFDS_BUDGET 16384

struct pfd_slot {
	pid_t pid, tid;		/* tid 0: the process's own file */
	int fd[PF_N];
	unsigned gen;		/* the scan it was last read in */
	unsigned fgen[PF_N];	/* the scan each file was last read in */
	int used;
};

struct procfds {
	struct pfd_slot *s;
	size_t cap, n;		/* cap a power of two, n slots used */
	int open, budget;
	unsigned gen;
};

struct procfds *procfds_new(void)
{
	struct procfds *c = calloc(1, sizeof(*c));
	struct rlimit rl;

	if (!c)
		return NULL;
	c->budget = PROCFDS_BUDGET;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur / 4 < (rlim_t)c->budget)
		c->budget = (int)(rl.rlim_cur / 4);
	return c;
}

static void close_slot(struct procfds *c, struct pfd_slot *s)
{
	for (int k = 0; k < PF_N; k++)
		if (s->fd[k] >= 0) {
			close(s->fd[k]);
			s->fd[k] = -1;
			c->open--;
		}
}

void procfds_free(struct procfds *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->cap; i++)
		if (c->s[i].used)
			close_slot(c, &c->s[i]);
	free(c->s);
	free(c);
}

static size_t hash(pid_t pid, pid_t tid)
{
	uint64_t h = ((uint64_t)(uint32_t)pid << 32 | (uint32_t)tid) *
		0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 20);
}

/* The slot of (pid, tid), added when new; NULL out of memory. */
static struct pfd_slot *slot(struct procfds *c, pid_t pid, pid_t tid);

/* Double the table and place the used slots again. */
static int grow(struct procfds *c)
{
	size_t cap = c->cap ? c->cap * 2 : 256, old = c->cap;
	struct pfd_slot *prev = c->s, *s = calloc(cap, sizeof(*s));

	if (!s)
		return -1;
	c->s = s;
	c->cap = cap;
	c->n = 0;
	for (size_t i = 0; i < old; i++)
		if (prev[i].used) {
			struct pfd_slot *to = slot(c, prev[i].pid, prev[i].tid);
			*to = prev[i];
		}
	free(prev);
	return 0;
}

static struct pfd_slot *slot(struct procfds *c, pid_t pid, pid_t tid)
{
	size_t k;

	if (2 * (c->n + 1) > c->cap && grow(c) < 0)
		return NULL;
	for (k = hash(pid, tid) & (c->cap - 1); c->s[k].used;
	     k = (k + 1) & (c->cap - 1))
		if (c->s[k].pid == pid && c->s[k].tid == tid)
			return &c->s[k];
	c->s[k].used = 1;
	c->s[k].pid = pid;
	c->s[k].tid = tid;
	for (int f = 0; f < PF_N; f++)
		c->s[k].fd[f] = -1;
	c->n++;
	return &c->s[k];
}

static const char *const file_name[PF_N] = {
	[PF_STAT] = "stat", [PF_IO] = "io", [PF_SCHED] = "schedstat",
};

void procfds_path(char *buf, size_t n, const char *root, pid_t pid,
		  pid_t tid, const char *file)
{
	if (tid)
		snprintf(buf, n, "%s/proc/%d/task/%d/%s", root, (int)pid,
			 (int)tid, file);
	else
		snprintf(buf, n, "%s/proc/%d/%s", root, (int)pid, file);
}

long procfds_read(struct procfds *c, const char *root, pid_t pid, pid_t tid,
		  int k, char *buf, size_t n)
{
	struct pfd_slot *s = c ? slot(c, pid, tid) : NULL;
	char path[PATH_MAX + 64];	/* made only to open (snprintf of a
					 * path a read: 4% of the collector's
					 * CPU with 2,000 threads) */
	ssize_t r;
	int fd;

	if (!s) {
		procfds_path(path, sizeof(path), root, pid, tid, file_name[k]);
		return util_read_small(path, buf, n);
	}
	s->gen = s->fgen[k] = c->gen;
	if (s->fd[k] >= 0) {
		if ((r = util_pread_text(s->fd[k], buf, n)) >= 0)
			return r;
		close(s->fd[k]);	/* gone, or the id reused */
		s->fd[k] = -1;
		c->open--;
	}
	procfds_path(path, sizeof(path), root, pid, tid, file_name[k]);
	if (c->open >= c->budget)
		return util_read_small(path, buf, n);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if ((r = util_pread_text(fd, buf, n)) < 0) {
		int err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	s->fd[k] = fd;
	c->open++;
	return r;
}

void procfds_sweep(struct procfds *c)
{
	struct pfd_slot *keep;
	size_t old;

	if (!c || !c->cap)
		return;
	/* the slots read in this scan are placed again in a fresh table;
	 * the others' files closed */
	keep = c->s;
	old = c->cap;
	c->s = calloc(old, sizeof(*c->s));
	if (!c->s) {
		c->s = keep;	/* keep all rather than lose track */
		c->gen++;
		return;
	}
	c->n = 0;
	for (size_t i = 0; i < old; i++) {
		if (!keep[i].used)
			continue;
		if (keep[i].gen != c->gen) {
			close_slot(c, &keep[i]);
			continue;
		}
		/* a file of the task this scan did not read: a known
		 * thread's stat (read when it was new), an idle one's io
		 * while only its schedstat is read (the books') */
		for (int k = 0; k < PF_N; k++)
			if (keep[i].fd[k] >= 0 && keep[i].fgen[k] != c->gen) {
				close(keep[i].fd[k]);
				keep[i].fd[k] = -1;
				c->open--;
			}
		*slot(c, keep[i].pid, keep[i].tid) = keep[i];
	}
	free(keep);
	c->gen++;
}

int procfds_open(const struct procfds *c)
{
	return c ? c->open : 0;
}
