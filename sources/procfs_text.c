/*
 * procfs_text.c - the Linux source's reading and tokenizing (procfs_int.h).
 *
 * Files are read by pread from offset 0 (seq_file and sysfs regenerate
 * their content then) into one buffer that grows to the largest file and
 * is reused, and parsed in place: no allocation per sample. Tokens are
 * parsed by hand, strictly: a malformed or overflowing number makes its
 * line (or field) unknown, never a wrong value.
 */
#define _GNU_SOURCE
#include "procfs_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int procfs_path(const struct procfs *p, char *out, size_t n, const char *a,
		const char *b, const char *c)
{
	size_t len = strlen(p->root);
	int r;

	/* root "/" or "dir/": no doubled slash */
	r = snprintf(out, n, "%s%s%s%s%s%s", p->root,
		     (len && p->root[len - 1] == '/') ? "" : "/", a,
		     b ? b : "", c ? "/" : "", c ? c : "");
	return (r < 0 || (size_t)r >= n) ? -1 : 0;
}

ssize_t procfs_read_fd(struct procfs *p, int fd, enum procfs_read_mode mode)
{
	size_t off = 0;

	for (;;) {
		ssize_t r;

		if (p->cap - off < 2) {
			size_t ncap = p->cap * 2;
			char *nb;

			if (ncap > PROCFS_FILE_MAX) {
				char *nl = memrchr(p->buf, '\n', off);

				off = nl ? (size_t)(nl - p->buf) + 1 : 0;
				break;
			}
			nb = realloc(p->buf, ncap);
			if (!nb)
				return -1;
			p->buf = nb;
			p->cap = ncap;
		}
		r = pread(fd, p->buf + off, p->cap - off - 1, (off_t)off);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		off += (size_t)r;
		if (mode == PROCFS_SHORT_LINES && off == (size_t)r &&
		    off < PROCFS_SHORT_END)
			break;
		if (mode == PROCFS_FIRST_PAGE && off == (size_t)r &&
		    off < p->cap - 1)
			break;
	}
	p->buf[off] = '\0';
	return (ssize_t)off;
}

int procfs_read_small(int fd, char *buf, size_t n)
{
	ssize_t r;

	do
		r = pread(fd, buf, n - 1, 0);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -1;
	buf[r] = '\0';
	return 0;
}

int procfs_read_path(const struct procfs *p, const char *a, const char *b,
		     const char *c, char *buf, size_t n)
{
	char path[PROCFS_PATH_MAX];
	int fd, rc;

	if (procfs_path(p, path, sizeof(path), a, b, c) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = procfs_read_small(fd, buf, n);
	close(fd);
	return rc;
}

char *procfs_next_line(char **cursor, char *end)
{
	char *s = *cursor, *nl;

	if (s >= end)
		return NULL;
	nl = memchr(s, '\n', (size_t)(end - s));
	if (nl) {
		*nl = '\0';
		*cursor = nl + 1;
	} else {
		*cursor = end;
	}
	return s;
}

int procfs_blank(char c)
{
	return c == ' ' || c == '\t';
}

int procfs_parse_u64(const char **s, uint64_t *v)
{
	const char *q = *s;
	uint64_t x = 0;

	while (procfs_blank(*q))
		q++;
	if (!*q)
		return 0;
	if (*q < '0' || *q > '9')
		return -1;
	for (; *q >= '0' && *q <= '9'; q++) {
		unsigned d = (unsigned)(*q - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	if (*q && !procfs_blank(*q))
		return -1;
	*v = x;
	*s = q;
	return 1;
}

int procfs_parse_fields(const char *s, uint64_t *f, int max)
{
	int n = 0, r = 0;

	while (n < max && (r = procfs_parse_u64(&s, &f[n])) == 1)
		n++;
	if (n < max && r < 0)
		return -1;
	return n;
}

int procfs_parse_name(const char **s, char *out)
{
	const char *q = *s, *start;
	size_t len;

	while (procfs_blank(*q))
		q++;
	start = q;
	while (*q && !procfs_blank(*q))
		q++;
	len = (size_t)(q - start);
	if (len == 0 || len >= SRC_NAME_MAX)
		return -1;
	memcpy(out, start, len);
	out[len] = '\0';
	*s = q;
	return 0;
}

/* ---- the device caches ---- */

int procfs_cache_reserve(struct procfs_cache *c, size_t need, size_t sz)
{
	void *a, *b;
	size_t ncap;

	if (need <= c->cap)
		return 0;
	ncap = c->cap ? c->cap : 16;
	while (ncap < need)
		ncap *= 2;
	a = realloc(c->old, ncap * sz);
	if (!a)
		return -1;
	c->old = a;
	b = realloc(c->cur, ncap * sz);
	if (!b)
		return -1;
	c->cur = b;
	c->cap = ncap;
	return 0;
}

/* Start a read: what was built last time becomes the lookup table. */
void procfs_cache_begin(struct procfs_cache *c)
{
	void *t = c->old;

	c->old = c->cur;
	c->cur = t;
	c->nold = c->ncur;
	c->ncur = 0;
	c->hint = 0;
}

long procfs_cache_find(struct procfs_cache *c, size_t sz,
		       int (*eq)(const void *entry, const void *key),
		       const void *key)
{
	const char *old = c->old;

	if (c->hint < c->nold && eq(old + c->hint * sz, key))
		return (long)c->hint++;
	for (size_t i = 0; i < c->nold; i++)
		if (eq(old + i * sz, key)) {
			c->hint = i + 1;
			return (long)i;
		}
	return -1;
}

int procfs_read_u64(const struct procfs *p, const char *a, const char *b,
		    const char *c, uint64_t *v)
{
	char buf[64], *end;
	const char *q = buf;
	unsigned long long x;

	if (procfs_read_path(p, a, b, c, buf, sizeof(buf)) < 0)
		return -1;
	while (procfs_blank(*q))
		q++;
	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		/* sysfs hex ("0x1a2b\n", scsi_transport_fc.c) */
		if (!((q[2] >= '0' && q[2] <= '9') ||
		      (q[2] >= 'a' && q[2] <= 'f') ||
		      (q[2] >= 'A' && q[2] <= 'F')))
			return -1;
		errno = 0;
		x = strtoull(q + 2, &end, 16);
		if (errno || (*end && *end != '\n'))
			return -1;
		*v = x;
		return 0;
	}
	if (procfs_parse_u64(&q, v) != 1)
		return -1;
	while (procfs_blank(*q) || *q == '\n')
		q++;
	return *q ? -1 : 0;
}
