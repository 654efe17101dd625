/*
 * growtime.c - the cost of one growth step against the file's size, for
 * bench/footprint.sh: for each span of the schedule (an hour, doubled up
 * to the cap) a file of N data sources at step 1 s is created at that span
 * (filled with rows, so its pages are real) and grown to the next span
 * the way the writer's worker does it (logs/grow.h: rrd_resize archive by
 * archive, sync, rename). Prints one line per step:
 *
 *   SPAN_FROM SPAN_TO BYTES_BEFORE BYTES_AFTER MS
 *
 *   growtime DIR [NDS [MAXSPAN]]      (DIR: an empty scratch directory)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <rrd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../logs/grow.h"
#include "../../logs/layout.h"

static long long size_of(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 ? (long long)st.st_size : -1;
}

/* A file of nds LogicalDisk data sources at span, three quarters full. */
static int make_file(const struct layout *l, unsigned long span, size_t nds,
		     time_t start)
{
	static char lines[256][256];
	char args[LAYOUT_MAXARGS][LAYOUT_ARGLEN];
	const char *argv[LAYOUT_MAXARGS], *up[256];
	int idx[CATALOG_MAX_PER_OBJECT];
	unsigned long rows = span * 3 / 4;
	int argc, k = 0;

	for (size_t i = 0; i < nds; i++)
		idx[i] = (int)i;
	argc = layout_args(l, span, OBJ_LOGICALDISK, idx, nds, args, argv);
	unlink("f.rrd");
	if (rrd_create_r2("f.rrd", l->step, start, 0, NULL, NULL, argc,
			  argv) != 0)
		return -1;
	for (unsigned long t = 1; t <= rows; t++) {
		int n = snprintf(lines[k], sizeof(lines[k]), "%ld",
				 (long)(start + t));

		for (size_t i = 0; i < nds; i++)
			n += snprintf(lines[k] + n, sizeof(lines[k]) - (size_t)n,
				      ":%lu", (t * 7 + i) % 100);
		up[k] = lines[k];
		if (++k == 256 || t == rows) {
			if (rrd_updatex_r("f.rrd", NULL, 0, k, up) != 0)
				return -1;
			k = 0;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct layout l = { .step = 1, .retention = 2 * 86400 };
	size_t nds = argc > 2 ? (size_t)atoi(argv[2]) : 7;
	size_t most = (size_t)catalog_objects[OBJ_LOGICALDISK].ncounters;
	unsigned long max = argc > 3 ? strtoul(argv[3], NULL, 10) : 4 * 86400;
	struct grower g;
	time_t start = time(NULL) - 10 * 86400;

	if (argc < 2 || nds < 1 || nds > most) {
		fprintf(stderr, "usage: growtime DIR [NDS [MAXSPAN]]\n");
		return 2;
	}
	if (chdir(argv[1]) < 0) {
		perror(argv[1]);
		return 1;
	}
	memset(&g, 0, sizeof(g));
	g.dfd = open(".", O_RDONLY | O_DIRECTORY);
	g.dir = argv[1];
	g.layout = l;
	for (unsigned long span = LAYOUT_FIRST_SPAN; span < max; span *= 2) {
		struct grow_job j = { .kind = GROW_RESIZE };
		char msg[320];
		long long before;
		double t0, ms;

		if (make_file(&l, span, nds, start) < 0) {
			fprintf(stderr, "growtime: %s\n", rrd_get_error());
			return 1;
		}
		before = size_of("f.rrd");
		strcpy(j.name, "f.rrd");
		j.span = layout_span_for(&l, span, 0.75 * (double)span);
		sync();
		t0 = util_monotonic();
		if (grow_run_job(&g, &j, msg, sizeof(msg)) < 0) {
			fprintf(stderr, "growtime: %s\n", msg);
			return 1;
		}
		ms = (util_monotonic() - t0) * 1000;
		printf("%lu %lu %lld %lld %.1f\n", span, j.span, before,
		       size_of("f.rrd"), ms);
		fflush(stdout);
	}
	unlink("f.rrd");
	return 0;
}
