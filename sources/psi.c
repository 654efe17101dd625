/*
 * psi.c - pressure stall files (see source.h, "psi.c"). The system's three files are
 * kept open and read by procfs_read through psi_parse; a cgroup's are read
 * by path with psi_read_file, the same parser.
 */
#define _GNU_SOURCE
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* "total=N" in the line [s, end): 0 and *v, or -1. */
static int line_total(const char *s, const char *end, uint64_t *v)
{
	const char *t = NULL;
	uint64_t x = 0;

	for (const char *q = s; q + 6 <= end; q++)
		if ((q == s || q[-1] == ' ') && memcmp(q, "total=", 6) == 0)
			t = q + 6;
	if (!t || t >= end || *t < '0' || *t > '9')
		return -1;
	for (; t < end && *t >= '0' && *t <= '9'; t++) {
		unsigned d = (unsigned)(*t - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	if (t < end && *t != ' ' && *t != '\n')
		return -1;
	*v = x;
	return 0;
}

int psi_parse(const char *buf, size_t len, struct psi_raw *out)
{
	const char *s = buf, *end = buf + len;

	out->present = 0;
	out->some_us = out->full_us = SRC_NA;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *le = nl ? nl : end;
		uint64_t v;

		if (le - s > 5 && line_total(s + 5, le, &v) == 0) {
			if (memcmp(s, "some ", 5) == 0)
				out->some_us = v;
			else if (memcmp(s, "full ", 5) == 0)
				out->full_us = v;
		}
		s = le + 1;
	}
	if (out->some_us == SRC_NA) {
		out->full_us = SRC_NA;
		return -1;
	}
	out->present = 1;
	return 0;
}

int psi_read_file(const char *path, struct psi_raw *out, struct perr *e)
{
	char buf[512];
	ssize_t n;
	int fd;

	out->present = 0;
	out->some_us = out->full_us = SRC_NA;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return perr_set(e, "unable to read '%s': %s", path,
				strerror(errno));
	do
		n = read(fd, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		int saved = errno;

		close(fd);
		return perr_set(e, "unable to read '%s': %s", path,
				strerror(saved));
	}
	close(fd);
	if (psi_parse(buf, (size_t)n, out) < 0)
		return perr_set(e, "'%s': no pressure figures", path);
	return 0;
}
