/* fuzz_cgstat.c - the command's cgroup counters (process/cgstat.h) on
 * whatever a fake cgroup tree holds: the quota found by walking up (v1
 * cpu.cfs_quota_us / cpu.cfs_period_us, v2 cpu.max), the quota group's
 * cpu.stat, the pressure files, and the rates of two reads.
 *
 * The input is split on lines "@@@" into up to eight parts, written as:
 * 0 top/cpu.max, 1 top/cpu.cfs_quota_us, 2 top/cpu.cfs_period_us,
 * 3 top/cpu.stat, 4 top/cmd/cpu.pressure, 5 top/cmd/io.pressure,
 * 6 top/cmd/memory.pressure, 7 top/cmd/cpu.max. Both directories are
 * cgroups (cgroup.procs), their parent is not. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../common/rmtree.h"
#include "../../counters/rates.h"
#include "../../process/cgstat.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static char root[64];
static const char *const files[8] = {
	"top/cpu.max", "top/cpu.cfs_quota_us", "top/cpu.cfs_period_us",
	"top/cpu.stat", "top/cmd/cpu.pressure", "top/cmd/io.pressure",
	"top/cmd/memory.pressure", "top/cmd/cpu.max",
};

static void cleanup(void)
{
	rmtree(root);
}

static void setup(void)
{
	char p[128];

	snprintf(root, sizeof(root), "/tmp/perflog-fuzz.XXXXXX");
	if (!mkdtemp(root))
		abort();
	snprintf(p, sizeof(p), "%s/top", root);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/top/cmd", root);
	mkdir(p, 0700);
	fuzz_put(root, "top/cgroup.procs", NULL, 0);
	fuzz_put(root, "top/cmd/cgroup.procs", NULL, 0);
	atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const unsigned char *part[8];
	size_t len[8];
	struct cgroup_set g;
	struct cgstat_raw a, b;
	struct instance_values iv;
	int n;

	if (!root[0])
		setup();
	n = fuzz_split(data, size, part, len, 8);
	for (int i = 0; i < 8; i++)
		fuzz_put(root, files[i], i < n ? part[i] : NULL, i < n ? len[i] : 0);
	memset(&g, 0, sizeof(g));
	snprintf(g.v2, sizeof(g.v2), "%s/top/cmd", root);
	snprintf(g.cpu, sizeof(g.cpu), "%s/top/cmd", root);
	cgstat_read(&g, 1.0, &a);
	cgstat_read(&g, 2.0, &b);
	rates_cgroup(&a, &b, &iv);
	g.v2[0] = '\0';
	cgstat_read(&g, 3.0, &a);
	rates_cgroup(&b, &a, &iv);
	/* a quota found is positive and names a directory of the tree */
	if (a.pick >= 0 && (!(a.quota_cpus > 0) || strncmp(a.quota_dir, root, strlen(root))))
		abort();
	return 0;
}
