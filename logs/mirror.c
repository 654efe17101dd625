/*
 * mirror.c - the writer's side of mirror.h: a set's files but its RRD
 * files, sent to perflog receive as they change.
 *
 * What changed is found by looking, not by being told: the set's files
 * are written by the collector, by perflog run and perflog mark, each
 * through its own code, so after each sample the set's directory is read
 * (twenty-odd names, one fstatat each) and each file compared with what
 * was sent: a new inode, a file shorter than sent, or one as long but
 * modified since is sent whole; a longer one sends its new bytes only
 * (the appends of markers.tsv, collector.log, the journal). Every request
 * waits for its answer, bounded as the daemon's (writer_bound_socket).
 */
#define _GNU_SOURCE
#include "mirror.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "setdir.h"
#include "writer.h"

/* seconds before a new connection after one failed */
#define MIRROR_RETRY 10.0

struct mfile {
	char name[NAME_MAX + 1];
	ino_t ino;			/* 0: send it whole */
	off_t sent;			/* bytes there */
	struct timespec mtime;
	int seen;
};

struct mirror {
	char addr[300];
	char set[NAME_MAX + 1];
	char dir[PATH_MAX];		/* the set here, for messages */
	int dfd;			/* its directory (our own descriptor:
					 * the last poll follows the writer's
					 * close) */
	int fd;				/* -1 while not connected */
	double retry;			/* monotonic: no new connection before */
	char why[400];			/* why the last try failed */
	struct mfile *f;
	size_t n, cap;
};

/* Send all of buf: 0, or -1 with errno. */
static int send_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t k = send(fd, p, len, MSG_NOSIGNAL);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

/* The connection failed (why): dropped, every file to be sent whole on
 * the next one, no new try for MIRROR_RETRY. -1 with e set. */
static int broken(struct mirror *m, const char *why, struct perr *e)
{
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
	for (size_t i = 0; i < m->n; i++)
		m->f[i].ino = 0;
	m->retry = util_monotonic() + MIRROR_RETRY;
	snprintf(m->why, sizeof(m->why), "perflog receive at '%s': %s (the log set's files are sent again when it answers)",
		 m->addr, why);
	return perr_set(e, "%s", m->why);
}

/* One request (head, then len bytes of data) and its answer. */
static int request(struct mirror *m, const char *head, const void *data,
		   size_t len, struct perr *e)
{
	char reply[MIRROR_LINE];
	size_t n = 0;

	if (send_all(m->fd, head, strlen(head)) < 0 ||
	    (len && send_all(m->fd, data, len) < 0))
		return broken(m, errno == EAGAIN ? "no answer within 5 s" :
			      strerror(errno), e);
	while (n + 1 < sizeof(reply)) {
		ssize_t k = recv(m->fd, reply + n, 1, 0);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return broken(m, k == 0 ? "connection closed" :
				      errno == EAGAIN ? "no answer within 5 s" :
				      strerror(errno), e);
		if (reply[n] == '\n')
			break;
		n++;
	}
	reply[n] = '\0';
	if (!strcmp(reply, "OK"))
		return 0;
	return broken(m, strncmp(reply, "ERR ", 4) ? "a garbled answer" :
		      reply + 4, e);
}

static int connect_mirror(struct mirror *m, struct perr *e)
{
	char why[200], head[MIRROR_LINE];

	if (m->fd >= 0)
		return 0;
	if (util_monotonic() < m->retry)
		return perr_set(e, "%s", m->why);
	m->fd = writer_dial(m->addr, MIRROR_PORT, REMOTE_REACH_MS, NULL, NULL,
			    why, sizeof(why));
	if (m->fd < 0)
		return broken(m, why, e);
	writer_bound_socket(m->fd);
	snprintf(head, sizeof(head), "SET %s\n", m->set);
	return request(m, head, NULL, 0, e);
}

/* name's bytes from off to its end (st: what was read of it). */
static int send_file(struct mirror *m, struct mfile *f, int whole,
		     struct perr *e)
{
	char head[MIRROR_LINE], *buf = NULL;
	struct stat st;
	off_t off = whole ? 0 : f->sent;
	size_t len, got = 0;
	int fd = setdir_openat(m->dfd, m->dir, f->name, O_RDONLY, 0, e);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_size < off ||
	    st.st_size - off > MIRROR_FILE_MAX) {
		close(fd);
		return perr_set(e, "unable to send '%s/%s': %s", m->dir,
				f->name, "its size changed or is too large");
	}
	len = (size_t)(st.st_size - off);
	if (len && !(buf = malloc(len))) {
		close(fd);
		return perr_set(e, "out of memory");
	}
	while (got < len) {
		ssize_t k = pread(fd, buf + got, len - got, off + (off_t)got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	close(fd);
	if (whole)
		snprintf(head, sizeof(head), "PUT %s %zu\n", f->name, got);
	else
		snprintf(head, sizeof(head), "AT %s %lld %zu\n", f->name,
			 (long long)off, got);
	if (request(m, head, buf, got, e) < 0) {
		free(buf);
		return -1;
	}
	free(buf);
	f->ino = st.st_ino;
	f->sent = off + (off_t)got;
	f->mtime = st.st_mtim;
	return 0;
}

static struct mfile *tracked(struct mirror *m, const char *name)
{
	struct mfile *f;

	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->f[i].name, name))
			return &m->f[i];
	if (util_grow(&m->f, &m->cap, m->n + 1, sizeof(*m->f)) < 0)
		return NULL;
	f = &m->f[m->n++];
	memset(f, 0, sizeof(*f));
	util_strlcpy(f->name, name, sizeof(f->name));
	return f;
}

static int is_rrd(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, ".rrd");
}

/* One file of the directory: sent as it needs. */
static int sync_file(struct mirror *m, const char *name, struct perr *e)
{
	struct stat st;
	struct mfile *f;

	if (fstatat(m->dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISREG(st.st_mode))
		return 0;	/* gone meanwhile, or not a file */
	f = tracked(m, name);
	if (!f)
		return perr_set(e, "out of memory");
	f->seen = 1;
	if (f->ino != st.st_ino || st.st_size < f->sent ||
	    (st.st_size == f->sent &&
	     (st.st_mtim.tv_sec != f->mtime.tv_sec ||
	      st.st_mtim.tv_nsec != f->mtime.tv_nsec)))
		return send_file(m, f, 1, e);
	if (st.st_size > f->sent)
		return send_file(m, f, 0, e);
	return 0;
}

int mirror_poll(struct mirror *m, struct perr *e)
{
	char head[MIRROR_LINE];
	struct dirent *de;
	DIR *d;
	int fd, rc = 0;

	if (connect_mirror(m, e) < 0)
		return -1;
	fd = dup(m->dfd);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return perr_set(e, "unable to read '%s': %s", m->dir,
				strerror(errno));
	}
	rewinddir(d);
	for (size_t i = 0; i < m->n; i++)
		m->f[i].seen = 0;
	while (rc == 0 && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    !is_rrd(de->d_name))
			rc = sync_file(m, de->d_name, e);
	closedir(d);
	/* what was removed here goes there too */
	for (size_t i = 0; rc == 0 && i < m->n;) {
		if (m->f[i].seen) {
			i++;
			continue;
		}
		snprintf(head, sizeof(head), "DEL %s\n", m->f[i].name);
		rc = request(m, head, NULL, 0, e);
		if (rc == 0)
			m->f[i] = m->f[--m->n];
	}
	return rc;
}

double mirror_retry(const struct mirror *m)
{
	return m->fd < 0 ? m->retry : 0;
}

int mirror_put(struct mirror *m, const char *name, struct perr *e)
{
	struct mfile f = { .ino = 0 };

	if (connect_mirror(m, e) < 0)
		return -1;
	util_strlcpy(f.name, name, sizeof(f.name));
	return send_file(m, &f, 1, e);
}

int mirror_del(struct mirror *m, const char *name, struct perr *e)
{
	char head[MIRROR_LINE];

	if (connect_mirror(m, e) < 0)
		return -1;
	snprintf(head, sizeof(head), "DEL %s\n", name);
	return request(m, head, NULL, 0, e);
}

int mirror_open(const char *addr, const char *set, int dfd, const char *dir,
		struct mirror **out, struct perr *e)
{
	struct mirror *m = calloc(1, sizeof(*m));

	*out = NULL;
	if (!m)
		return perr_set(e, "out of memory");
	m->fd = -1;
	m->dfd = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
	if (m->dfd < 0) {
		free(m);
		return perr_set(e, "unable to open '%s': %s", dir,
				strerror(errno));
	}
	if (util_strlcpy(m->addr, addr, sizeof(m->addr)) < 0 ||
	    util_strlcpy(m->set, set, sizeof(m->set)) < 0 ||
	    util_strlcpy(m->dir, dir, sizeof(m->dir)) < 0) {
		mirror_close(m);
		return perr_set(e, "address or name too long: '%s'", addr);
	}
	if (connect_mirror(m, e) < 0) {
		char why[400], *tail;

		mirror_close(m);
		/* at the start: what is missing, not what will be done */
		if (!e)
			return -1;
		util_strlcpy(why, e->msg, sizeof(why));
		tail = strstr(why, " (the log set's");
		if (tail)
			*tail = '\0';
		return perr_set(e, "%s; over TCP a log set's files other than its RRD files go to perflog receive on the daemon's host (perflog receive -b the daemon's -b directory)",
				why);
	}
	*out = m;
	return 0;
}

void mirror_discard(struct mirror *m)
{
	if (m && (m->fd >= 0 || connect_mirror(m, NULL) == 0))
		(void)request(m, "GONE\n", NULL, 0, NULL);
	mirror_close(m);
}

void mirror_close(struct mirror *m)
{
	if (!m)
		return;
	if (m->fd >= 0)
		close(m->fd);
	close(m->dfd);
	free(m->f);
	free(m);
}
