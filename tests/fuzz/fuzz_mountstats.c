/* fuzz_mountstats.c - the readers of where backups land
 * (sources/procfs_nfs.c, procfs_cifs.c) and their rates
 * (counters/rates_targets.c).
 *
 * The input is split on lines "@@@" into up to four parts: a first
 * proc/self/mountstats and proc/fs/cifs/Stats, then a second pair
 * (missing parts repeat the first snapshot's). Each is parsed from a
 * NUL-terminated copy, as procfs_read hands them over, and rates_targets
 * turns the two snapshots into a sample, so remounts, resets, duplicate
 * and vanishing mounts and shares are fuzzed too. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../counters/rates.h"
#include "../../sources/procfs_int.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void parse(const unsigned char *d, size_t n, int cifs,
		  struct raw_snapshot *s)
{
	char *buf = malloc(n + 1);

	if (!buf)
		return;
	memcpy(buf, d, n);
	buf[n] = '\0';
	if (cifs)
		procfs_parse_cifs(buf, n, s);
	else
		procfs_parse_mountstats(buf, n, s);
	free(buf);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const unsigned char *part[4];
	size_t len[4];
	int n = fuzz_split(data, size, part, len, 4);
	struct raw_snapshot a = { 0 }, b = { 0 };
	struct sample out = { 0 };

	snapshot_reset(&a);
	snapshot_reset(&b);
	for (int i = 0; i < 4; i++) {
		int k = i < n ? i : i % 2;

		if (k < n)
			parse(part[k], len[k], i % 2, i < 2 ? &a : &b);
	}
	a.mono = 1;
	b.mono = 2;
	a.kernel_bits = b.kernel_bits = 64;
	if (rates_targets(&a, &b, 1.0, &out) == 0)
		for (size_t i = 0; i < out.n; i++)
			for (int k = 0; k < CATALOG_MAX_PER_OBJECT; k++)
				if (out.inst[i].v[k] < 0)
					abort();	/* a rate is never negative */
	sample_free(&out);
	snapshot_free(&a);
	snapshot_free(&b);
	return 0;
}
