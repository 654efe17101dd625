/*
 * mirror_answer.c - perflog receive's side of mirror.h: one connection's
 * requests applied under the base directory.
 *
 * Every name is one path component (no "/", not "." or ".."), the set's
 * directory is opened without following a symlink and every file in it
 * through setdir_openat (O_NOFOLLOW), so a sender writes nowhere but
 * BASE/SET/NAME. A request's data is read whole before it is applied, so
 * a refused one (a full disk) leaves the stream in step: the answer says
 * why and the collector tries again later.
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

struct answer {
	int basefd;
	int setfd;
	char set[NAME_MAX + 1];
	char dir[PATH_MAX];		/* "SET", for messages */
};

static int good_name(const char *s)
{
	return *s && strlen(s) <= NAME_MAX && !strchr(s, '/') &&
	       strcmp(s, ".") && strcmp(s, "..");
}

static int open_set(struct answer *a, const char *name, struct perr *e)
{
	if (!good_name(name))
		return perr_set(e, "bad log set name '%s'", name);
	if (a->setfd >= 0)
		return perr_set(e, "a log set is named already");
	if (mkdirat(a->basefd, name, 0755) < 0 && errno != EEXIST)
		return perr_set(e, "unable to create '%s': %s", name,
				strerror(errno));
	a->setfd = openat(a->basefd, name, O_RDONLY | O_DIRECTORY |
			  O_NOFOLLOW | O_CLOEXEC);
	if (a->setfd < 0)
		return perr_set(e, "unable to open '%s': %s", name,
				strerror(errno));
	util_strlcpy(a->set, name, sizeof(a->set));
	util_strlcpy(a->dir, name, sizeof(a->dir));
	return 0;
}

static int put(struct answer *a, const char *name, const char *data,
	       size_t len, struct perr *e)
{
	char tmp[NAME_MAX + 16];

	snprintf(tmp, sizeof(tmp), ".%.*s.recv", NAME_MAX - 6, name);
	(void)unlinkat(a->setfd, tmp, 0);
	int fd = setdir_openat(a->setfd, a->dir, tmp,
			       O_WRONLY | O_CREAT | O_EXCL, 0644, e);

	if (fd < 0)
		return -1;
	if (util_write_full(fd, data, len) < 0 || close(fd) < 0) {
		int err = errno;

		(void)unlinkat(a->setfd, tmp, 0);
		return perr_set(e, "unable to write '%s/%s': %s", a->dir, name,
				strerror(err));
	}
	if (renameat(a->setfd, tmp, a->setfd, name) < 0) {
		int err = errno;

		(void)unlinkat(a->setfd, tmp, 0);
		return perr_set(e, "unable to rename '%s/%s': %s", a->dir, tmp,
				strerror(err));
	}
	return 0;
}

static int write_at(struct answer *a, const char *name, long long off,
		    const char *data, size_t len, struct perr *e)
{
	struct stat st;
	int fd = setdir_openat(a->setfd, a->dir, name, O_WRONLY | O_CREAT,
			       0644, e);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_size < off) {
		close(fd);
		return perr_set(e, "'%s/%s' holds less than %lld bytes",
				a->dir, name, off);
	}
	while (len) {
		ssize_t k = pwrite(fd, data, len, (off_t)off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			int err = errno;

			close(fd);
			return perr_set(e, "unable to write '%s/%s': %s",
					a->dir, name, strerror(err));
		}
		data += k;
		off += k;
		len -= (size_t)k;
	}
	close(fd);
	return 0;
}

/* The set's files but the daemon's RRD files (the probe is a sender's),
 * then the directory if empty. */
static int gone(struct answer *a)
{
	int fd = dup(a->setfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    (!(n > 4 && !strcmp(de->d_name + n - 4, ".rrd")) ||
		     !strcmp(de->d_name, MIRROR_PROBE)))
			(void)unlinkat(a->setfd, de->d_name, 0);
	}
	closedir(d);
	close(a->setfd);
	a->setfd = -1;
	(void)unlinkat(a->basefd, a->set, AT_REMOVEDIR);
	return 0;
}

/* One request (line without its newline): 0 applied, -1 refused with e
 * set, -2 the stream is broken (its data short). */
static int apply(struct answer *a, FILE *in, char *line, struct perr *e)
{
	char op[8], name[NAME_MAX + 1], *data = NULL;
	long long off = 0, len = 0;
	int n = 0, k, rc;

	k = sscanf(line, "%7s %255s%n", op, name, &n);
	if (k < 1)
		return perr_set(e, "an empty request");
	if (!strcmp(op, "GONE"))
		return a->setfd < 0 ? perr_set(e, "no log set named") :
		       gone(a) < 0 ? perr_set(e, "unable to remove '%s'", a->set) : 0;
	if (k < 2)
		return perr_set(e, "'%s': no name", op);
	if (!strcmp(op, "SET"))
		return open_set(a, name, e);
	if ((!strcmp(op, "PUT") && sscanf(line + n, "%lld", &len) != 1) ||
	    (!strcmp(op, "AT") && sscanf(line + n, "%lld %lld", &off, &len) != 2))
		return -2;
	if (len < 0 || len > MIRROR_FILE_MAX || off < 0)
		return -2;
	if (len && (!(data = malloc((size_t)len)) ||
		    fread(data, 1, (size_t)len, in) != (size_t)len)) {
		free(data);
		return -2;
	}
	if (a->setfd < 0 || !good_name(name))
		rc = perr_set(e, a->setfd < 0 ? "no log set named" :
			      "bad file name");
	else if (!strcmp(op, "PUT"))
		rc = put(a, name, data, (size_t)len, e);
	else if (!strcmp(op, "AT"))
		rc = write_at(a, name, off, data, (size_t)len, e);
	else if (!strcmp(op, "DEL"))
		rc = unlinkat(a->setfd, name, 0) < 0 && errno != ENOENT ?
		     perr_set(e, "unable to remove '%s/%s': %s", a->dir, name,
			      strerror(errno)) : 0;
	else
		rc = perr_set(e, "unknown request '%s'", op);
	free(data);
	return rc;
}

void mirror_answer(int basefd, FILE *in, int fd, const char *peer,
		   FILE *log)
{
	struct answer a = { .basefd = basefd, .setfd = -1 };
	char line[MIRROR_LINE], reply[MIRROR_LINE + 8];

	while (fgets(line, sizeof(line), in)) {
		struct perr e = { "" };
		size_t n = strlen(line);
		int rc;

		if (n == 0 || line[n - 1] != '\n')
			break;	/* too long: not a request */
		line[n - 1] = '\0';
		rc = apply(&a, in, line, &e);
		if (rc == -2)
			break;
		if (rc == 0 && !strncmp(line, "SET ", 4) && log)
			fprintf(log, "perflog receive: log set '%s' from %s\n",
				a.set, peer);
		if (rc < 0 && log)
			fprintf(log, "perflog receive: %s: %s\n", peer, e.msg);
		snprintf(reply, sizeof(reply), rc == 0 ? "OK\n" : "ERR %s\n",
			 e.msg);
		if (util_write_full(fd, reply, strlen(reply)) < 0)
			break;
	}
	if (a.setfd >= 0)
		close(a.setfd);
}
