/*
 * walk.c - the tree walk of `perflog estimate`; see walk.h for what is
 * counted and why.
 *
 * Per directory: fdopendir on an fd opened relative to the parent's, a
 * readdir loop, fstatat only where d_type says regular file or does not
 * say, recursion into subdirectories while the parent stays open (so every
 * lookup is one path component: no path resolution from the root, and no
 * race can swap a directory for a symlink under us). The full path is
 * kept in a growable buffer only to name directories in messages.
 */
#define _GNU_SOURCE
#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/strbuf.h"

#ifndef AT_NO_AUTOMOUNT
#define AT_NO_AUTOMOUNT 0
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* An open-addressing set of (dev, ino); grows at half load. */
struct idset {
	uint64_t *dev, *ino;
	unsigned char *used;
	size_t cap, n;
};

struct walker {
	struct walk_options opt;
	struct walk_stats st;
	struct idset links, dirs;
	struct estimate_dist *d;
	dev_t root_dev;
	struct strbuf path;	/* current directory, for messages */
	unsigned tick;		/* entries since the last clock read */
	double next_progress;
	int fatal;		/* out of memory or byte overflow: stop */
	struct perr *e;
};

static uint64_t mix(uint64_t dev, uint64_t ino)
{
	/* splitmix64's finalizer over both halves */
	uint64_t z = ino * 0x9e3779b97f4a7c15ULL ^ dev;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int idset_grow(struct idset *s)
{
	size_t ncap = s->cap ? s->cap * 2 : 1024;
	struct idset t = { calloc(ncap, sizeof(uint64_t)),
			   calloc(ncap, sizeof(uint64_t)), calloc(ncap, 1), ncap, 0 };

	if (!t.dev || !t.ino || !t.used) {
		free(t.dev);
		free(t.ino);
		free(t.used);
		return -1;
	}
	for (size_t i = 0; i < s->cap; i++) {
		if (!s->used[i])
			continue;
		size_t j = mix(s->dev[i], s->ino[i]) & (ncap - 1);

		while (t.used[j])
			j = (j + 1) & (ncap - 1);
		t.used[j] = 1;
		t.dev[j] = s->dev[i];
		t.ino[j] = s->ino[i];
		t.n++;
	}
	free(s->dev);
	free(s->ino);
	free(s->used);
	*s = t;
	return 0;
}

/* 1 when newly added, 0 when already there, -1 out of memory. */
static int idset_add(struct idset *s, uint64_t dev, uint64_t ino)
{
	if ((s->n + 1) * 2 > s->cap && idset_grow(s) < 0)
		return -1;
	size_t j = mix(dev, ino) & (s->cap - 1);

	while (s->used[j]) {
		if (s->dev[j] == dev && s->ino[j] == ino)
			return 0;
		j = (j + 1) & (s->cap - 1);
	}
	s->used[j] = 1;
	s->dev[j] = dev;
	s->ino[j] = ino;
	s->n++;
	return 1;
}

static int idset_has(const struct idset *s, uint64_t dev, uint64_t ino)
{
	if (!s->cap)
		return 0;
	for (size_t j = mix(dev, ino) & (s->cap - 1); s->used[j];
	     j = (j + 1) & (s->cap - 1))
		if (s->dev[j] == dev && s->ino[j] == ino)
			return 1;
	return 0;
}

static void idset_free(struct idset *s)
{
	free(s->dev);
	free(s->ino);
	free(s->used);
	memset(s, 0, sizeof(*s));
}

struct walker *walk_new(const struct walk_options *opt)
{
	struct walker *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	if (opt)
		w->opt = *opt;
	/* the first report after 256 entries, so that a long walk shows
	 * itself at once; then every progress_every seconds */
	w->next_progress = util_monotonic();
	return w;
}

const struct walk_stats *walk_stats(const struct walker *w)
{
	return &w->st;
}

void walk_free(struct walker *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->st.nkept; i++)
		free(w->st.kept[i]);
	idset_free(&w->links);
	idset_free(&w->dirs);
	strbuf_free(&w->path);
	free(w);
}

static int oom(struct walker *w)
{
	w->fatal = 1;
	return perr_set(w->e, "out of memory");
}

/* Append "/name" (or name for the root) to the path; returns the old
 * length to restore, or (size_t)-1 out of memory. */
static size_t path_push(struct walker *w, const char *name)
{
	size_t old = w->path.len;

	if (old > 0 && w->path.p[old - 1] != '/')
		strbuf_puts(&w->path, "/");
	strbuf_puts(&w->path, name);
	return w->path.failed ? (size_t)-1 : old;
}

static void path_pop(struct walker *w, size_t old)
{
	strbuf_truncate(&w->path, old);
}

/* Count the current directory (w->path) as not fully read. */
static void unreadable(struct walker *w, const char *why)
{
	w->st.unreadable++;
	if (w->st.nkept >= WALK_KEEP_ERRORS)
		return;
	size_t n = w->path.len + strlen(why) + 3;
	char *m = malloc(n);

	if (!m)
		return;		/* the count is what matters */
	snprintf(m, n, "%s: %s", strbuf_str(&w->path), why);
	w->st.kept[w->st.nkept++] = m;
}

static void progress(struct walker *w)
{
	if (!w->opt.progress || ++w->tick < 256)
		return;
	w->tick = 0;
	double now = util_monotonic();

	if (now < w->next_progress)
		return;
	w->next_progress = now + w->opt.progress_every;
	w->opt.progress(w->opt.progress_arg, &w->st);
}

/* Count a regular file once: a hard-linked one (or any, with always_once:
 * a file named twice on the command line) only the first time its inode is
 * seen. */
static int count_file(struct walker *w, const struct stat *sb,
		      int always_once)
{
	if (sb->st_nlink > 1 || always_once) {
		int r = idset_add(&w->links, (uint64_t)sb->st_dev,
				  (uint64_t)sb->st_ino);

		if (r < 0)
			return oom(w);
		if (r == 0) {
			w->st.hardlinks++;
			return 0;
		}
	}
	if (estimate_add(w->d, (uint64_t)sb->st_size) < 0) {
		w->fatal = 1;
		return perr_set(w->e, "total size exceeds 2^64 bytes");
	}
	w->st.files++;
	w->st.bytes += (uint64_t)sb->st_size;
	return 0;
}

static int walk_dir(struct walker *w, int fd, int depth);

/* Enter the subdirectory name of parent fd pfd (w->path already names
 * it). */
static int enter(struct walker *w, int pfd, const char *name, int depth)
{
	struct stat sb;

	if (depth >= WALK_MAX_DEPTH) {
		unreadable(w, "too deep, not entered");
		return 0;
	}
	if (w->opt.xdev) {
		if (fstatat(pfd, name, &sb, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT) < 0) {
			if (errno == ENOENT)
				w->st.vanished++;
			else
				unreadable(w, strerror(errno));
			return 0;
		}
		if (sb.st_dev != w->root_dev) {
			w->st.other_fs++;
			return 0;
		}
	}
	int fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT)
			w->st.vanished++;
		else if (errno == ELOOP || errno == ENOTDIR)
			w->st.vanished++;	/* replaced by a link or file meanwhile */
		else
			unreadable(w, strerror(errno));
		return 0;
	}
	return walk_dir(w, fd, depth);
}

/* Walk the open directory fd (consumed). */
static int walk_dir(struct walker *w, int fd, int depth)
{
	struct stat sb;
	int stat_failed = 0, rc = 0;

	if (fstat(fd, &sb) < 0) {
		unreadable(w, strerror(errno));
		close(fd);
		return 0;
	}
	int r = idset_add(&w->dirs, (uint64_t)sb.st_dev, (uint64_t)sb.st_ino);

	if (r <= 0) {
		close(fd);
		if (r < 0)
			return oom(w);
		w->st.revisited++;
		return 0;
	}
	DIR *dir = fdopendir(fd);

	if (!dir) {
		unreadable(w, strerror(errno));
		close(fd);
		return 0;
	}
	w->st.dirs++;
	for (;;) {
		errno = 0;
		struct dirent *de = readdir(dir);

		if (!de) {
			if (errno)
				unreadable(w, strerror(errno));
			break;
		}
		const char *n = de->d_name;

		if (n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])))
			continue;
		progress(w);
		int type = DT_UNKNOWN;
#ifdef _DIRENT_HAVE_D_TYPE
		type = de->d_type;
#endif
		if (type != DT_REG && type != DT_DIR && type != DT_UNKNOWN)
			continue;	/* links, devices, fifos, sockets */
		if (type == DT_REG || type == DT_UNKNOWN) {
			if (fstatat(dirfd(dir), n, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
				if (errno == ENOENT)
					w->st.vanished++;
				else if (!stat_failed++)
					unreadable(w, strerror(errno));
				continue;
			}
			if (S_ISREG(sb.st_mode)) {
				if (count_file(w, &sb, 0) < 0) {
					rc = -1;
					break;
				}
				continue;
			}
			if (!S_ISDIR(sb.st_mode))
				continue;
		}
		size_t old = path_push(w, n);

		if (old == (size_t)-1) {
			rc = oom(w);
			break;
		}
		rc = enter(w, dirfd(dir), n, depth + 1);
		path_pop(w, old);
		if (rc < 0 || w->fatal)
			break;
	}
	closedir(dir);
	return rc;
}

/* A regular file given as a PATH: not again when its directory was walked
 * (walk directories first), and once however often it is named. */
static int count_arg_file(struct walker *w, const char *path,
			  const struct stat *sb)
{
	struct stat pb;
	const char *slash = strrchr(path, '/');
	char *parent = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path))
			     : strdup(".");

	if (!parent)
		return oom(w);
	int seen = stat(parent, &pb) == 0 &&
		idset_has(&w->dirs, (uint64_t)pb.st_dev, (uint64_t)pb.st_ino);

	free(parent);
	if (seen)
		return 0;
	return count_file(w, sb, 1);
}

int walk_path(struct walker *w, const char *path, struct estimate_dist *d,
	      struct perr *e)
{
	struct stat sb;

	w->d = d;
	w->e = e;
	strbuf_truncate(&w->path, 0);
	if (path_push(w, path) == (size_t)-1)
		return oom(w);
	if (lstat(path, &sb) < 0)
		return perr_set(e, "cannot access '%s': %s", path, strerror(errno));
	if (S_ISLNK(sb.st_mode)) {
		w->st.symlink_args++;
		return 0;
	}
	if (S_ISREG(sb.st_mode))
		return count_arg_file(w, path, &sb);
	if (!S_ISDIR(sb.st_mode))
		return 0;
	w->root_dev = sb.st_dev;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		unreadable(w, strerror(errno));
		return 0;
	}
	return walk_dir(w, fd, 0);
}

void walk_sort_args(char **paths, int n)
{
	struct stat sb;
	int k = 0;

	/* a stable partition: insertion of each directory after the last */
	for (int i = 0; i < n; i++) {
		if (lstat(paths[i], &sb) < 0 || !S_ISDIR(sb.st_mode))
			continue;
		char *p = paths[i];

		memmove(paths + k + 1, paths + k, (size_t)(i - k) * sizeof(*paths));
		paths[k++] = p;
	}
}
