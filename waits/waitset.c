/*
 * waitset.c - the watched tasks (waitset.h).
 */
#define _GNU_SOURCE
#include "waitset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../process/process.h"

struct waitset {
	pid_t *pids;		/* the processes, as given or added */
	DIR **taskdir;		/* one per process; NULL when gone at start */
	int *statfd;		/* its PID/stat: num_threads */
	long *nthreads;		/* num_threads at the last listing */
	size_t npids, cap[4];	/* util_grow's, an array each */
	size_t given;		/* how many waitset_pids was given */
	int valid;		/* tids[] is the last listing, still good */
	int cgfd;		/* cgroup.threads or tasks, or -1 */
	pid_t *tids;
	size_t ntids, captids;
	char *buf;
	size_t bufcap;
};

/* Open process k's task directory and stat (pids[k] set). */
static void open_pid(struct waitset *s, int procfd, size_t k)
{
	char rel[32];
	int fd;

	snprintf(rel, sizeof(rel), "%d/task", (int)s->pids[k]);
	fd = s->pids[k] > 0 ? openat(procfd, rel,
				     O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	s->taskdir[k] = NULL;
	if (fd >= 0 && !(s->taskdir[k] = fdopendir(fd)))
		close(fd);
	snprintf(rel, sizeof(rel), "%d/stat", (int)s->pids[k]);
	s->statfd[k] = s->taskdir[k] ?
		openat(procfd, rel, O_RDONLY | O_CLOEXEC) : -1;
	s->nthreads[k] = 0;
}

/* Room for n processes in each per-process array. */
static int grow(struct waitset *s, size_t n)
{
	return util_grow(&s->pids, &s->cap[0], n, sizeof(*s->pids)) < 0 ||
	       util_grow(&s->taskdir, &s->cap[1], n, sizeof(*s->taskdir)) < 0 ||
	       util_grow(&s->statfd, &s->cap[2], n, sizeof(*s->statfd)) < 0 ||
	       util_grow(&s->nthreads, &s->cap[3], n, sizeof(*s->nthreads)) < 0 ?
	       -1 : 0;
}

struct waitset *waitset_pids(int procfd, const pid_t *pids, size_t n,
			     struct perr *e)
{
	struct waitset *s = calloc(1, sizeof(*s));

	if (s)
		s->cgfd = -1;
	if (!s || grow(s, n ? n : 1) < 0) {
		waitset_free(s);
		perr_set(e, "out of memory");
		return NULL;
	}
	s->npids = s->given = n;
	for (size_t i = 0; i < n; i++) {
		s->pids[i] = pids[i];
		open_pid(s, procfd, i);
	}
	return s;
}

int waitset_add_pid(struct waitset *s, int procfd, pid_t pid)
{
	if (s->cgfd >= 0 || pid <= 0)
		return 0;
	for (size_t i = 0; i < s->npids; i++)
		if (s->pids[i] == pid)
			return 0;
	if (s->npids >= s->given + WAITSET_ADDED_MAX)
		return 0;
	if (grow(s, s->npids + 1) < 0)
		return -1;
	s->pids[s->npids] = pid;
	open_pid(s, procfd, s->npids++);
	waitset_invalidate(s);
	return 0;
}

int waitset_same_pids(const struct waitset *s, const pid_t *pids, size_t n)
{
	return s && s->cgfd < 0 && s->given == n && s->npids == n &&
	       (n == 0 || !memcmp(s->pids, pids, n * sizeof(*pids)));
}

struct waitset *waitset_cgroup(const char *dir, struct perr *e)
{
	struct waitset *s = calloc(1, sizeof(*s));
	char path[PATH_MAX + 32];

	if (!s) {
		perr_set(e, "out of memory");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/cgroup.threads", dir);
	s->cgfd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->cgfd < 0) {
		snprintf(path, sizeof(path), "%s/tasks", dir);
		s->cgfd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (s->cgfd < 0) {
		perr_set(e, "unable to open the thread list of cgroup '%s': %s",
			 dir, strerror(errno));
		free(s);
		return NULL;
	}
	return s;
}

void waitset_free(struct waitset *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->npids; i++) {
		if (s->taskdir[i])
			closedir(s->taskdir[i]);
		if (s->statfd[i] >= 0)
			close(s->statfd[i]);
	}
	free(s->pids);
	free(s->taskdir);
	free(s->statfd);
	free(s->nthreads);
	if (s->cgfd >= 0)
		close(s->cgfd);
	free(s->tids);
	free(s->buf);
	free(s);
}

static int add_tid(struct waitset *s, long tid)
{
	if (tid <= 0 || tid > INT_MAX)
		return 0;
	if (util_grow(&s->tids, &s->captids, s->ntids + 1, sizeof(pid_t)) < 0)
		return -1;
	s->tids[s->ntids++] = (pid_t)tid;
	return 0;
}

/* One number a line; anything else on a line is skipped. The kernel
 * hands out cgroup.threads (and v1's tasks) a page or so a call, whatever
 * the buffer's size: read on from where the last call ended until EOF
 * (a single read stopped at 681 threads of 2001). */
static int list_cgroup(struct waitset *s)
{
	size_t r = 0;
	ssize_t got;

	for (;;) {
		if (util_grow(&s->buf, &s->bufcap, r + 4096, 1) < 0)
			return -1;
		got = pread(s->cgfd, s->buf + r, s->bufcap - 1 - r, (off_t)r);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		r += (size_t)got;
	}
	if (r == 0)
		return 0;
	s->buf[r] = '\0';
	for (char *p = s->buf; *p;) {
		char *end;
		long tid = strtol(p, &end, 10);

		if (end != p && (*end == '\n' || *end == '\0') &&
		    add_tid(s, tid) < 0)
			return -1;
		p = strchr(end, '\n');
		if (!p)
			break;
		p++;
	}
	return 0;
}

/* num_threads (field 20) of process i, or -1 when unreadable. */
static long num_threads(struct waitset *s, size_t i)
{
	char buf[1024];
	struct pidstat ps;
	ssize_t r;

	if (s->statfd[i] < 0)
		return -1;
	r = pread(s->statfd[i], buf, sizeof(buf) - 1, 0);
	if (r <= 0)
		return -1;
	buf[r] = '\0';
	return pidstat_parse(buf, &ps) == 0 ? (long)ps.num_threads : -1;
}

/* Whether a process's thread count moved since the last listing: a
 * readdir of /proc/PID/task costs as much as reading every thread's
 * schedstat (the kernel builds a dentry per entry), a stat pread does
 * not. A thread that ends as another starts keeps the count: the sampler
 * sees the end (ESRCH) and calls waitset_invalidate. */
static int counts_moved(struct waitset *s)
{
	int moved = 0;

	for (size_t i = 0; i < s->npids; i++) {
		long n = num_threads(s, i);

		moved |= n != s->nthreads[i] || n < 0;
		s->nthreads[i] = n;
	}
	return moved;
}

static int list_pids(struct waitset *s)
{
	for (size_t i = 0; i < s->npids; i++) {
		struct dirent *d;

		if (!s->taskdir[i])
			continue;
		rewinddir(s->taskdir[i]);
		while ((d = readdir(s->taskdir[i]))) {
			char *end;
			long tid = strtol(d->d_name, &end, 10);

			if (*end == '\0' && end != d->d_name &&
			    add_tid(s, tid) < 0)
				return -1;
		}
	}
	return 0;
}

int waitset_fresh(const struct waitset *s)
{
	return s->cgfd >= 0;
}

void waitset_invalidate(struct waitset *s)
{
	s->valid = 0;
}

const pid_t *waitset_list(struct waitset *s, size_t *n)
{
	static const pid_t none[1];
	size_t k = 0;

	if (s->cgfd < 0 && counts_moved(s))
		s->valid = 0;
	if (s->valid) {
		*n = s->ntids;
		return s->tids ? s->tids : none;
	}
	s->ntids = 0;
	if ((s->cgfd >= 0 ? list_cgroup(s) : list_pids(s)) < 0)
		return NULL;
	if (s->ntids > 1)
		qsort(s->tids, s->ntids, sizeof(pid_t), util_cmp_pid);
	for (size_t j = 0; j < s->ntids; j++)
		if (k == 0 || s->tids[j] != s->tids[k - 1])
			s->tids[k++] = s->tids[j];
	s->ntids = k;
	s->valid = s->cgfd < 0;	/* a cgroup is listed afresh every time */
	*n = k;
	return s->tids ? s->tids : none;
}
