/*
 * figures.c - the figures file beside a marker (markers.h, "Figures
 * beside a marker"): what fits a marker's line, writing the file for
 * perflog run and a server's mark --remote, merging one into its marker
 * for every reader.
 */
#define _GNU_SOURCE
#include "markers.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIGURES_HEADER "# perflog figures 1\n"
#define FIGURES_MAX (64u << 20)	/* a reader reads no more than this */

int markers_inline_field(const char *kv)
{
	const char *eq = strchr(kv, '=');

	if (!eq || strlen(eq + 1) > MARKERS_INLINE_VALUE)
		return 0;
	if (!strncmp(kv, "client.", 7) && isdigit((unsigned char)kv[7]))
		return 0;
	return 1;
}

int markers_fit_line(const char *const *extra, size_t n)
{
	size_t len = 0;

	if (n > MARKERS_INLINE_FIELDS)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(extra[i], '=');
		char *e;

		if (eq && strlen(eq + 1) > MARKERS_INLINE_VALUE)
			return 0;
		e = markers_escape(extra[i]);
		len += e ? strlen(e) + 1 : MARKERS_INLINE_LINE;
		free(e);
	}
	return len <= MARKERS_INLINE_LINE;
}

/* "PREFIX-LABEL.EXT" (PREFIX-LABEL-K.EXT for k > 1), the label kept to
 * [A-Za-z0-9._-]. */
static void beside_name(char *out, size_t n, const char *prefix,
			const char *label, const char *ext, int k)
{
	char safe[64];
	size_t j = 0;

	for (const char *p = label; *p && j + 1 < sizeof(safe); p++) {
		unsigned char c = (unsigned char)*p;

		safe[j++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '.' || c == '_' ||
			    c == '-' ? (char)c : '_';
	}
	safe[j] = '\0';
	if (k > 1)
		snprintf(out, n, "%s-%s-%d.%s", prefix, safe, k, ext);
	else
		snprintf(out, n, "%s-%s.%s", prefix, safe, ext);
}

int markers_create_beside(const char *dir, const char *prefix,
			  const char *label, const char *ext, char *name,
			  size_t name_n, struct perr *e)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd = -1;

	if (dfd < 0)
		return perr_set(e, "unable to open '%s': %s", dir,
				strerror(errno));
	for (int k = 1; k < 1000 && fd < 0; k++) {
		beside_name(name, name_n, prefix, label, ext, k);
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
					       O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0)
		perr_set(e, "unable to create a %s file in '%s': %s", prefix,
			 dir, strerror(errno));
	close(dfd);
	return fd;
}

int markers_remove_beside(const char *dir, const char *name)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	if (dfd < 0)
		return -1;
	rc = unlinkat(dfd, name, 0);
	close(dfd);
	return rc;
}

int markers_write_figures(const char *dir, const char *label,
			  const char *const *extra, size_t n, char *name,
			  size_t name_n, struct perr *e)
{
	int fd = markers_create_beside(dir, "figures", label, "tsv", name,
				       name_n, e);
	int rc;

	if (fd < 0)
		return -1;
	rc = util_write_full(fd, FIGURES_HEADER, strlen(FIGURES_HEADER));
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *x = markers_escape(extra[i]);

		rc = !x || util_write_full(fd, x, strlen(x)) < 0 ||
		     util_write_full(fd, "\n", 1) < 0 ? -1 : 0;
		free(x);
	}
	if (rc == 0 && fdatasync(fd) < 0)
		rc = -1;
	if (rc < 0) {	/* half a file would be taken for all of it */
		perr_set(e, "unable to write '%s/%s': %s", dir, name,
			 strerror(errno ? errno : ENOSPC));
		markers_remove_beside(dir, name);
	}
	close(fd);
	return rc;
}

/* Set key to value in m (replacing a field of that key). */
static int set_extra(struct marker *m, char *key, char *value)
{
	struct marker_extra *nx;

	for (size_t i = 0; i < m->nextra; i++)
		if (!strcmp(m->extra[i].key, key)) {
			free(m->extra[i].value);
			m->extra[i].value = value;
			free(key);
			return 0;
		}
	nx = realloc(m->extra, (m->nextra + 1) * sizeof(*nx));
	if (!nx)
		return -1;
	m->extra = nx;
	nx[m->nextra].key = key;
	nx[m->nextra++].value = value;
	return 0;
}

char *markers_read_beside(const char *dir, const char *name,
			  const char *prefix, size_t max, size_t *len,
			  struct perr *e)
{
	size_t pl = strlen(prefix), got = 0;
	const char *dot = strrchr(name, '.');
	int dfd, fd;
	char *buf;
	struct stat st;

	if (strncmp(name, prefix, pl) || name[pl] != '-' || strchr(name, '/') ||
	    !dot || dot <= name + pl + 1 || !dot[1]) {
		perr_set(e, "'%s' is not a %s file name", name, prefix);
		return NULL;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = dfd < 0 ? -1 : openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd >= 0)
		close(dfd);
	if (fd < 0 || fstat(fd, &st) < 0) {
		perr_set(e, "unable to read '%s/%s': %s", dir, name,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > max ||
	    !(buf = malloc((size_t)st.st_size + 1))) {
		perr_set(e, "'%s/%s' is not a %s file", dir, name, prefix);
		close(fd);
		return NULL;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	if (len)
		*len = got;
	return buf;
}

/* The figures file's text, checked for its header. */
static char *read_figures(const char *dir, const char *name, struct perr *e)
{
	char *buf = markers_read_beside(dir, name, "figures", FIGURES_MAX,
					NULL, e);

	if (buf && strncmp(buf, FIGURES_HEADER, strlen(FIGURES_HEADER))) {
		perr_set(e, "'%s/%s' is not a figures file", dir, name);
		free(buf);
		return NULL;
	}
	return buf;
}

int markers_read_figures(const char *dir, struct marker *m, struct perr *e)
{
	const char *name = marker_get(m, MARKERS_FIGURES_KEY);
	char *text, *line, *save = NULL;
	int rc = 0;

	if (!name)
		return 0;
	text = read_figures(dir, name, e);
	if (!text)
		return -1;
	for (line = strtok_r(text + strlen(FIGURES_HEADER), "\n", &save);
	     line && rc == 0; line = strtok_r(NULL, "\n", &save)) {
		char *kv = markers_unescape(line), *eq, *value;

		if (!kv)
			continue;	/* a damaged line: the others stand */
		eq = strchr(kv, '=');
		if (eq)
			*eq = '\0';
		value = strdup(eq ? eq + 1 : "");
		if (!value || set_extra(m, kv, value) < 0) {
			free(kv);
			free(value);
			rc = perr_set(e, "out of memory");
		}
	}
	free(text);
	return rc;
}
