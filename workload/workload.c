/*
 * workload.c - the reference backup's file sets (workload.h): their
 * definition and creating them, as the seed's perfcfg. Sending them is
 * wire.c, the two processes procs.c.
 */
#define _GNU_SOURCE
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct workload_set workload_sets[WORKLOAD_NSETS] = {
	{ .name = "1m1k", .title = "1MB of 1KB files", .count = 1024, .size = 1024 },
	{ .name = "10m10k", .title = "10MB of 10KB files", .count = 1024, .size = 10240 },
	{ .name = "25m100k", .title = "25MB of 100KB files", .count = 256, .size = 102400 },
	{ .name = "50m10m", .title = "50MB of 10MB files", .count = 5, .size = 10485760 },
};

#define CHUNK (1u << 20)

size_t workload_count(const struct workload_set *set, double scale)
{
	double n = ceil((double)set->count * scale - 1e-9);
	if (!(n >= 1))
		return 1;
	if (n > 1e7)
		return 10000000;
	return (size_t)n;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

int workload_create(const char *dir, const struct workload_set *set,
		    size_t nfiles, struct perr *e)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, set->name);
	if (util_mkdirs(path, 0755) < 0)
		return perr_set(e, "unable to create '%s': %s", path,
				strerror(errno));
	size_t bufsz = set->size < CHUNK ? set->size : CHUNK;
	uint64_t *buf = malloc(bufsz + 8);
	if (!buf)
		return perr_set(e, "out of memory");
	int rc = 0;
	for (size_t i = 0; i < nfiles && rc == 0; i++) {
		snprintf(path, sizeof(path), "%s/%s/f%06zu", dir, set->name, i);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			rc = perr_set(e, "unable to create '%s': %s", path,
				      strerror(errno));
			break;
		}
		uint64_t seed = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)i << 17) ^
				(uint64_t)set->size;
		for (size_t left = set->size; left > 0 && rc == 0;) {
			size_t n = left < bufsz ? left : bufsz;
			for (size_t k = 0; k < (n + 7) / 8; k++)
				buf[k] = xorshift(&seed);
			if (util_write_full(fd, buf, n) < 0)
				rc = perr_set(e, "unable to write '%s': %s",
					      path, strerror(errno));
			left -= n;
		}
		close(fd);
	}
	/* one flush for the whole set, then drop the pages: the backup must
	 * read from the disk (the seed's perfcfg ran long before perf) */
	snprintf(path, sizeof(path), "%s/%s", dir, set->name);
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		syncfs(dfd);
		close(dfd);
	}
	for (size_t i = 0; i < nfiles && rc == 0; i++) {
		snprintf(path, sizeof(path), "%s/%s/f%06zu", dir, set->name, i);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
			close(fd);
		}
	}
	free(buf);
	return rc;
}
