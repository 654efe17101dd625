/*
 * fuzz.h - shared by the fuzz targets that feed several files from one
 * input (fuzz_procfs, fuzz_waits): the input split on lines "@@@", and
 * each part written into their private fixture tree.
 * Include it after defining _GNU_SOURCE (memmem).
 */
#ifndef PERFLOG_FUZZ_H
#define PERFLOG_FUZZ_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

/* Cut data[0..size) at each "@@@\n" into at most max parts (the last one
 * runs to the end); part[i] and len[i] get each part. Returns how many. */
static inline int fuzz_split(const unsigned char *data, size_t size,
			     const unsigned char **part, size_t *len, int max)
{
	const unsigned char *p = data, *end = data + size;
	int n = 0;

	while (n < max) {
		const unsigned char *sep = memmem(p, (size_t)(end - p), "@@@\n", 4);

		part[n] = p;
		len[n] = sep ? (size_t)(sep - p) : (size_t)(end - p);
		n++;
		if (!sep)
			break;
		p = sep + 4;
	}
	return n;
}

/* Write d[0..n) to root/rel (created 0600, truncated); aborts on failure,
 * so a broken fixture tree is never mistaken for a parser's answer. */
static inline void fuzz_put(const char *root, const char *rel,
			    const unsigned char *d, size_t n)
{
	char p[128];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		abort();
	if (n && write(fd, d, n) != (ssize_t)n)
		abort();
	close(fd);
}

#endif
