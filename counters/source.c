/* source.c - choose the backend, see source.h. */
#define _GNU_SOURCE
#include "source.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *source_psi_name(enum psi_resource r)
{
	static const char *const names[PSI_COUNT] = { "cpu", "io", "memory" };

	return (unsigned)r < PSI_COUNT ? names[r] : "";
}

int source_kernel_bits(const char *machine)
{
	/* 64-bit machines whose name does not say so */
	static const char *const wide[] = { "s390x", "alpha" };

	if (!machine || !*machine)
		return 0;
	if (strstr(machine, "64"))	/* x86_64 aarch64 ppc64le riscv64
					 * mips64 sparc64 loongarch64 ia64 */
		return 64;
	for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
		if (strcmp(machine, wide[i]) == 0)
			return 64;
	return 32;
}

struct source {
	struct procfs *proc;
	struct statgrab *sg;
};

struct source *source_open(const char *root, struct perr *e)
{
	struct source *src = calloc(1, sizeof(*src));
	const char *force = getenv("PERFLOG_SOURCE");
	char stat[PATH_MAX];

	if (!src) {
		perr_set(e, "out of memory");
		return NULL;
	}
	snprintf(stat, sizeof(stat), "%s/proc/stat", root);
	if ((!force || strcmp(force, "statgrab") != 0) &&
	    access(stat, R_OK) == 0) {
		src->proc = procfs_open(root, e);
		if (src->proc)
			return src;
	} else {
		src->sg = statgrab_open(e);
		if (src->sg)
			return src;
	}
	free(src);
	return NULL;
}

int source_read(struct source *src, struct raw_snapshot *s, struct perr *e)
{
	return src->proc ? procfs_read(src->proc, s, e)
			 : statgrab_read(src->sg, s, e);
}

const char *source_name(const struct source *src)
{
	return src->proc ? "procfs" : "libstatgrab";
}

void source_close(struct source *src)
{
	if (!src)
		return;
	procfs_close(src->proc);
	statgrab_close(src->sg);
	free(src);
}
