/*
 * fuzz.h - shared by the fuzz targets that feed several files from one
 * input (fuzz_procfs, fuzz_waits): the input split on lines "@@@".
 * Include it after defining _GNU_SOURCE (memmem).
 */
#ifndef PERFLOG_FUZZ_H
#define PERFLOG_FUZZ_H

#include <stddef.h>
#include <string.h>

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

#endif
