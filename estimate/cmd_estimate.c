/*
 * cmd_estimate.c - `perflog estimate`: how long will a backup of this data
 * take at the rates a test measured? (the seed kit's timest, section 8 of
 * seeds/adsm-perf-testing.txt).
 *
 *   distribution: walk PATHs (walk.h) | read a listing (listing.h)
 *   rates:        --rates R1 R2 R3 R4 | --from LOGSET | none
 *   -> estimate_compute -> the seed's table or CSV on stdout,
 *      progress and what could not be read on stderr.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../commands.h"
#include "estimate.h"
#include "listing.h"
#include "walk.h"

static const char usage_text[] =
"usage: perflog estimate [PATH... | --listing FILE] [--rates R1 R2 R3 R4 | --from LOGSET]\n"
"                        [--xdev] [--csv]\n"
"\n"
"Estimate a backup's duration from a file-size distribution, as the seed\n"
"kit's timest did: files are counted in four size classes (0..<1KB,\n"
"1KB..<10KB, 10KB..<100KB, 100KB and up; 1KB = 1024 bytes), each class's\n"
"bytes are divided by the rate measured for files of that size, and the\n"
"times are added up.\n"
"\n"
"  PATH...          directory trees to walk (default: .); regular files only,\n"
"                   symlinks never followed, each hard-linked file once\n"
"  --listing FILE   read the files from a listing instead ('-' = stdin):\n"
"                   'find DIR -type f -printf \"%s %p\\n\"' output, or a Windows\n"
"                   'dir /s' listing (DOS, NT 4.0, 2000 and later layouts)\n"
"  --rates R1 R2 R3 R4\n"
"                   KB/sec for 1k, 10k, 100k and 10MB files (the reference\n"
"                   workload's four file sets), e.g. --rates 26 173 406 457\n"
"  --from LOGSET    take the rates from a log set of 'perflog workload'\n"
"                   (sessions 1m1k, 10m10k, 25m100k, 50m10m)\n"
"  --xdev           do not enter directories on other file systems\n"
"  --csv            the table as CSV, for spreadsheets\n"
"\n"
"Without rates only the distribution is printed. Directories that cannot be\n"
"read are listed on stderr at the end; they do not stop the walk.\n";

struct progress_state {
	int shown;
};

static void human(char *buf, size_t n, uint64_t bytes)
{
	static const char unit[] = "KMGTPE";
	double v = (double)bytes;
	int u = -1;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, n, "%" PRIu64 " bytes", bytes);
	else
		snprintf(buf, n, "%.1f %ciB", v, unit[u]);
}

static void show_progress(void *arg, const struct walk_stats *st)
{
	struct progress_state *ps = arg;
	char h[32];

	human(h, sizeof(h), st->bytes);
	fprintf(stderr, "\r\033[Kperflog estimate: %" PRIu64 " files, %s so far",
		st->files, h);
	fflush(stderr);
	ps->shown = 1;
}

/* Many levels of depth keep one directory open each: allow as many as
 * the hard limit lets us. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int walk_all(char **paths, int npaths, int xdev,
		    struct estimate_dist *d)
{
	struct progress_state ps = { 0 };
	struct walk_options wo = { .xdev = xdev };
	struct perr e;
	int rc = 0;

	/* the progress line is rewritten in place: not on a dumb terminal */
	if (isatty(STDERR_FILENO) && !util_term_dumb()) {
		wo.progress = show_progress;
		wo.progress_arg = &ps;
		wo.progress_every = 0.25;
	}
	raise_fd_limit();
	walk_sort_args(paths, npaths);
	struct walker *w = walk_new(&wo);

	if (!w) {
		fprintf(stderr, "perflog estimate: out of memory\n");
		return 1;
	}
	for (int i = 0; i < npaths && !rc; i++)
		if (walk_path(w, paths[i], d, &e) < 0) {
			if (ps.shown)
				fputs("\r\033[K", stderr);
			fprintf(stderr, "perflog estimate: %s\n", e.msg);
			rc = 1;
		}
	if (ps.shown && !rc)
		fputs("\r\033[K", stderr);
	const struct walk_stats *st = walk_stats(w);

	if (st->symlink_args)
		fprintf(stderr, "perflog estimate: %" PRIu64 " PATH(s) are symbolic links, not followed (add a trailing / to follow)\n",
			st->symlink_args);
	if (st->unreadable) {
		fprintf(stderr, "perflog estimate: %" PRIu64 " unreadable director%s, not counted:\n",
			st->unreadable, st->unreadable == 1 ? "y" : "ies");
		for (size_t i = 0; i < st->nkept; i++)
			fprintf(stderr, "  %s\n", st->kept[i]);
		if (st->unreadable > st->nkept)
			fprintf(stderr, "  ... and %" PRIu64 " more\n",
				st->unreadable - st->nkept);
	}
	walk_free(w);
	return rc;
}

static int read_listing(const char *path, struct estimate_dist *d)
{
	struct listing_state s;
	struct perr e;
	int rc = listing_read(path, &s, d, &e);

	for (size_t i = 0; i < s.nwarn; i++)
		fprintf(stderr, "perflog estimate: %s\n", s.warn[i]);
	if (s.skipped > s.nwarn)
		fprintf(stderr, "perflog estimate: %s: %" PRIu64 " more lines skipped\n",
			s.name, s.skipped - s.nwarn);
	if (rc < 0) {
		fprintf(stderr, "perflog estimate: %s\n", e.msg);
		return 1;
	}
	return 0;
}

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "perflog estimate: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see perflog estimate --help)\n");
	return 2;
}

/* The whole command line, checked: 0, or an exit status with the message
 * printed. */
struct options {
	const char *listing, *from;
	int have_rates, xdev, csv, npaths;
	char **paths;
	struct estimate_rates rates;
};

/* --rates R1 R2 R3 R4: the first is optarg, the other three the next
 * arguments. */
static int parse_rates(int argc, char **argv, struct options *o)
{
	struct perr e;

	if (o->have_rates || o->from)
		return bad_usage("%s: rates given twice", "--rates");
	for (int c = 0; c < ESTIMATE_NCLASS; c++) {
		const char *v = c ? (optind < argc ? argv[optind++] : NULL) : optarg;

		if (!v)
			return bad_usage("%s needs four rates in KB/sec (1k 10k 100k 10MB files)",
					 "--rates");
		if (estimate_parse_rate(v, &o->rates.milli_kbps[c], &e) < 0) {
			fprintf(stderr, "perflog estimate: --rates: %s\n", e.msg);
			return 2;
		}
	}
	o->have_rates = 1;
	return 0;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "listing", required_argument, NULL, 'l' },
		{ "rates", required_argument, NULL, 'r' },
		{ "from", required_argument, NULL, 'f' },
		{ "xdev", no_argument, NULL, 'x' },
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = util_getopt(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (o->listing)
				return bad_usage("%s given twice", "--listing");
			o->listing = optarg;
			break;
		case 'r':
			if ((rc = parse_rates(argc, argv, o)))
				return rc;
			break;
		case 'f':
			if (o->have_rates || o->from)
				return bad_usage("%s: rates given twice", "--from");
			o->from = optarg;
			break;
		case 'x': o->xdev = 1; break;
		case 'c': o->csv = 1; break;
		case 'h': fputs(usage_text, stdout); return -1;
		default: return util_bad_option("estimate", argv, optind, optopt);
		}
	}
	while (optind < argc)
		o->paths[o->npaths++] = argv[optind++];
	if (o->listing && o->npaths)
		return bad_usage("give PATHs or --listing, not both ('%s')",
				 o->paths[0]);
	if (o->listing && o->xdev)
		return bad_usage("%s applies to a walk, not to --listing", "--xdev");
	if (!o->listing && !o->npaths)
		o->paths[o->npaths++] = (char *)".";
	return 0;
}

int cmd_estimate(int argc, char **argv)
{
	struct options o;
	struct estimate_dist dist;
	struct estimate_result res;
	struct perr e;
	int rc;

	memset(&o, 0, sizeof(o));
	memset(&dist, 0, sizeof(dist));
	o.paths = calloc((size_t)argc + 1, sizeof(char *));
	if (!o.paths) {
		fprintf(stderr, "perflog estimate: out of memory\n");
		return 1;
	}
	rc = parse_args(argc, argv, &o);
	if (rc) {
		free(o.paths);
		return rc < 0 ? 0 : rc;
	}
	/* rates first: a wrong log set should not cost a long walk */
	if (o.from) {
		if (estimate_rates_from_logset(o.from, &o.rates, &e) < 0) {
			fprintf(stderr, "perflog estimate: %s\n", e.msg);
			free(o.paths);
			return 1;
		}
		o.have_rates = 1;
	}
	if (o.listing)
		rc = read_listing(o.listing, &dist);
	else
		rc = walk_all(o.paths, o.npaths, o.xdev, &dist);
	free(o.paths);
	if (rc)
		return rc;
	const struct estimate_rates *rates = o.have_rates ? &o.rates : NULL;

	estimate_compute(&dist, rates, &res);
	if (o.csv)
		rc = estimate_print_csv(stdout, &dist, rates, &res);
	else
		rc = estimate_print_table(stdout, &dist, &res);
	if (rc < 0) {
		perror("perflog estimate: standard output");
		return 1;
	}
	return 0;
}
