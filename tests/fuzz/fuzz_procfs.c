/* fuzz_procfs.c - the /proc readers (sources/procfs.c) and the rates
 * computed from what they read (counters/rates.c).
 *
 * The input is split on lines "@@@" into up to eighteen parts: parts 0-8
 * are proc/stat, proc/diskstats, proc/meminfo, proc/vmstat, proc/net/dev,
 * proc/net/snmp and proc/pressure/{cpu,io,memory} of a first snapshot,
 * parts 9-17 the same files of a second one (missing parts repeat the
 * first snapshot's). Each is written under a private temporary root
 * (procfs_open's fixture-tree seam, STYLE 4) and read with procfs_read;
 * rates_compute then turns the pair into a sample, so counter wrap,
 * resets and devices that vanish between reads are fuzzed too. The
 * pressure parser is also fed each pressure part directly (psi_parse, the
 * cgroup files' reader). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../counters/rates.h"
#include "../../sources/source.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define NFILES 9
static char root[64];
static const char *const files[NFILES] = {
	"proc/stat", "proc/diskstats", "proc/meminfo", "proc/vmstat",
	"proc/net/dev", "proc/net/snmp", "proc/pressure/cpu",
	"proc/pressure/io", "proc/pressure/memory",
};

static void cleanup(void)
{
	char p[128];

	for (int i = 0; i < NFILES; i++) {
		snprintf(p, sizeof(p), "%s/%s", root, files[i]);
		unlink(p);
	}
	snprintf(p, sizeof(p), "%s/proc/net", root);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/proc/pressure", root);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/proc", root);
	rmdir(p);
	rmdir(root);
}

static void setup(void)
{
	char p[128];

	snprintf(root, sizeof(root), "/tmp/perflog-fuzz.XXXXXX");
	if (!mkdtemp(root))
		abort();
	snprintf(p, sizeof(p), "%s/proc", root);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/proc/net", root);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/proc/pressure", root);
	mkdir(p, 0700);
	atexit(cleanup);
}

static void put(int i, const unsigned char *d, size_t n)
{
	fuzz_put(root, files[i], d, n);
}

static int take(struct raw_snapshot *s)
{
	struct perr e;
	struct procfs *p = procfs_open(root, &e);
	int r;

	if (!p)
		return -1;
	r = procfs_read(p, s, &e);
	procfs_close(p);
	return r;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const unsigned char *part[2 * NFILES];
	size_t len[2 * NFILES];
	int n;
	struct raw_snapshot a, b;
	struct sample smp;

	if (!root[0])
		setup();
	n = fuzz_split(data, size, part, len, 2 * NFILES);
	for (int i = 0; i < NFILES; i++)
		put(i, i < n ? part[i] : NULL, i < n ? len[i] : 0);
	for (int i = 6; i < n && i < NFILES; i++) {
		struct psi_raw r;

		psi_parse((const char *)part[i], len[i], &r);
	}
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&smp, 0, sizeof(smp));
	if (take(&a) == 0) {
		for (int i = NFILES; i < n; i++)
			put(i - NFILES, part[i], len[i]);
		if (take(&b) == 0) {
			b.mono = a.mono + 1.0;	/* a fixed, sane interval */
			rates_compute(&a, &b, &smp);
		}
	}
	sample_free(&smp);
	snapshot_free(&a);
	snapshot_free(&b);
	return 0;
}
