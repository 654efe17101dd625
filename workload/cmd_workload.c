/*
 * cmd_workload.c - `perflog workload [--scale F] [--target DIR]`: the
 * reference backup (workload.h), set by set, each inside a session marker
 * when a collector is running ($PERFLOG_LOGSET, or the only one), then the
 * seed kit's SUMMARY table:
 *
 *   SUMMARY
 *   1MB of 1KB files : 27kb/sec
 *   10MB of 10KB files : 174kb/sec
 *   25MB of 100KB files: 406kb/sec
 *   50MB of 10MB files : 457kb/sec
 *
 * kb/sec there is KB of file data / elapsed seconds (the seed's figures
 * are exactly its dsmc runs' bytes transferred / elapsed processing
 * time). Each set's end marker carries workload.kb_per_sec=NNN.NN (a
 * contract with `perflog estimate --from`), workload.set, workload.files,
 * workload.bytes, and client.* figures of its dsmc-like summary (summary.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../collector/control.h"
#include "../commands.h"
#include "../client/summary.h"
#include "workload.h"

#define ME "perflog workload"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perflog workload [--scale F] [--target DIR]\n"
		"  --scale F     multiply the file counts (at least one file a set);\n"
		"                default 1: 1024 x 1 KB, 1024 x 10 KB, 256 x 100 KB,\n"
		"                5 x 10 MB\n"
		"  --target DIR  where the receiver writes (kept); default a temporary\n"
		"                directory under $TMPDIR or /tmp, removed afterwards\n"
		"Backs each set up through a loopback TCP connection, marks a session\n"
		"per set in the running collector's log set (if any), prints a dsmc-like\n"
		"summary per set and the seed kit's SUMMARY table.\n");
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

static void rm_tree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void size_label(char *buf, size_t n, size_t bytes)
{
	if (bytes >= 1048576 && bytes % 1048576 == 0)
		snprintf(buf, n, "%zu MB", bytes / 1048576);
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(buf, n, "%zu KB", bytes / 1024);
	else
		snprintf(buf, n, "%zu B", bytes);
}

/* One run: the collector taking markers (when marking), the source and
 * target directories. */
struct run {
	int marking;
	struct collector_info col;
	char base[4096], src[4200], tgt[4200];
	double scale;
};

/* The command line: 0, -1 after --help, or the exit status with the
 * message printed. */
static int parse_args(int argc, char **argv, double *scale, const char **target)
{
	static const struct option longopts[] = {
		{ "scale", required_argument, NULL, 's' },
		{ "target", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': {
			char *end;
			errno = 0;
			*scale = strtod(optarg, &end);
			if (end == optarg || *end || errno || !isfinite(*scale) ||
			    *scale <= 0 || *scale > 100) {
				fprintf(stderr, ME ": --scale: '%s' is not a number in (0, 100]\n",
					optarg);
				return 2;
			}
			break;
		}
		case 't': *target = optarg; break;
		case 'h': usage(stdout); return -1;
		default:
			return util_bad_option("workload", argv, optind, optopt);
		}
	}
	if (optind < argc) {
		fprintf(stderr, ME ": unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	return 0;
}

/* The temporary directory (sources, and the target unless given). */
static int make_dirs(struct run *w, const char *target)
{
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	snprintf(w->base, sizeof(w->base), "%s/perflog-workload.XXXXXX", tmp);
	if (!mkdtemp(w->base)) {
		fprintf(stderr, ME ": unable to create a directory under '%s': %s\n",
			tmp, strerror(errno));
		return -1;
	}
	snprintf(w->src, sizeof(w->src), "%s/src", w->base);
	if (target)
		util_strlcpy(w->tgt, target, sizeof(w->tgt));
	else
		snprintf(w->tgt, sizeof(w->tgt), "%s/target", w->base);
	if (util_mkdirs(w->tgt, 0755) < 0) {
		fprintf(stderr, ME ": unable to create '%s': %s\n", w->tgt,
			strerror(errno));
		rm_tree(w->base);
		return -1;
	}
	return 0;
}

/* The set's dsmc-like summary, ADSM's layout. */
static void set_summary(size_t n, const struct workload_result *r,
			struct summary *s)
{
	memset(s, 0, sizeof(*s));
	summary_set(s, SUM_OBJECTS_INSPECTED, (double)n);
	summary_set(s, SUM_OBJECTS_BACKED_UP, (double)r->files);
	summary_set(s, SUM_OBJECTS_UPDATED, 0);
	summary_set(s, SUM_OBJECTS_REBOUND, 0);
	summary_set(s, SUM_OBJECTS_DELETED, 0);
	summary_set(s, SUM_OBJECTS_FAILED, (double)(n - r->files));
	summary_set(s, SUM_BYTES_TRANSFERRED, (double)r->wire_bytes);
	summary_set(s, SUM_TRANSFER_TIME, r->transfer_time);
	summary_set(s, SUM_TRANSFER_RATE, r->transfer_time > 0
		    ? (double)r->wire_bytes / 1024 / r->transfer_time : 0);
	summary_set(s, SUM_AVERAGE_FILE_SIZE,
		    r->files ? (double)r->data_bytes / (double)r->files : 0);
	summary_set(s, SUM_ELAPSED, r->elapsed);
}

/* The set's end marker: workload.* and the summary's client.* fields. */
static void end_marker(const struct run *w, const struct workload_set *set,
		       const struct workload_result *r, struct summary *s,
		       const char *text)
{
	struct summary_list l = { .s = s, .n = 1, .cap = 1 };
	size_t nx = 0, k = 0;
	char **cx = summary_extras(&l, &nx);
	const char *ex[64];
	char xs[4][64];
	struct perr e;

	snprintf(xs[0], sizeof(xs[0]), "workload.set=%s", set->name);
	snprintf(xs[1], sizeof(xs[1]), "workload.files=%zu", r->files);
	snprintf(xs[2], sizeof(xs[2]), "workload.bytes=%llu",
		 (unsigned long long)r->data_bytes);
	snprintf(xs[3], sizeof(xs[3]), "workload.kb_per_sec=%.2f", r->kb_per_sec);
	for (int j = 0; j < 4; j++)
		ex[k++] = xs[j];
	for (size_t j = 0; j < nx && k < 64; j++)
		ex[k++] = cx[j];
	if (control_mark(w->col.logset, MARK_END, set->name, text, ex, k, &e) < 0)
		fprintf(stderr, ME ": end marker: %s\n", e.msg);
	summary_extras_free(cx, nx);
}

/* Set i: create its files, back them up inside its session, print its
 * summary, free its sources. 0, or 1 when it failed. */
static int run_set(struct run *w, int i, double *kbs)
{
	const struct workload_set *set = &workload_sets[i];
	size_t n = workload_count(set, w->scale);
	struct workload_result r;
	struct summary s;
	char sz[32], text[160], sdir[4300];
	struct perr e;
	int rc = 0;

	size_label(sz, sizeof(sz), set->size);
	snprintf(text, sizeof(text), "%s: %zu files of %s", set->title, n, sz);
	if (workload_create(w->src, set, n, &e) < 0) {
		fprintf(stderr, ME ": %s\n", e.msg);
		return 1;
	}
	if (w->marking && control_mark(w->col.logset, MARK_BEGIN, set->name,
				       text, NULL, 0, &e) < 0)
		fprintf(stderr, ME ": begin marker: %s\n", e.msg);
	if (workload_backup(w->src, w->tgt, set, &r, &e) < 0) {
		fprintf(stderr, ME ": %s: %s\n", set->name, e.msg);
		rc = 1;
	}
	set_summary(n, &r, &s);
	printf("perflog workload: set %s (%s)\n", set->name, text);
	summary_print(stdout, &s);
	printf("\n");
	fflush(stdout);
	kbs[i] = r.kb_per_sec;
	if (w->marking)
		end_marker(w, set, &r, &s, rc ? "failed" : text);
	/* the set's sources are not needed any more: free the space */
	snprintf(sdir, sizeof(sdir), "%s/%s", w->src, set->name);
	rm_tree(sdir);
	return rc;
}

int cmd_workload(int argc, char **argv)
{
	const char *target = NULL;
	double kbs[WORKLOAD_NSETS];
	struct run w = { .scale = 1 };
	struct perr e;
	int rc = parse_args(argc, argv, &w.scale, &target);

	if (rc)
		return rc < 0 ? 0 : rc;
	/* markers only when a collector takes them */
	w.marking = control_find(NULL, &w.col, &e) == 0;
	if (!w.marking && getenv("PERFLOG_LOGSET"))
		fprintf(stderr, ME ": no session markers: %s\n", e.msg);
	if (make_dirs(&w, target) < 0)
		return 1;
	printf("perflog workload: scale %g, files under %s, target %s%s\n\n",
	       w.scale, w.src, w.tgt, w.marking ? "" : " (no collector: no markers)");
	fflush(stdout);
	for (int i = 0; i < WORKLOAD_NSETS && rc == 0; i++)
		rc = run_set(&w, i, kbs);
	if (rc == 0) {
		printf("SUMMARY\n");
		for (int i = 0; i < WORKLOAD_NSETS; i++)
			printf("%-19s: %.0fkb/sec\n", workload_sets[i].title, kbs[i]);
	}
	rm_tree(w.base);	/* holds the target too unless --target was given */
	return rc;
}
