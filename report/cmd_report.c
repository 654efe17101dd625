/*
 * cmd_report.c - `perflog report DIR [DIR2] [--with SERVERDIR]...
 * [--shift SET=SECONDS]... [--json] [--html OUTDIR] [--instrumentation
 * FILE] [--width W --height H]`.
 *
 * One log set: the per-session report (report.h) on standard output, and
 * with --html also OUTDIR/index.html with the charts. Two log sets: their
 * sessions side by side with the change of each figure. --with: the
 * servers' sides of DIR's sessions and one verdict across the hosts
 * (report_hosts_of.c).
 * Exit status: 0 done, 1 a log set or file is at fault, 2 usage.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collector/control.h"
#include "../commands.h"
#include "../export/png_export.h"
#include "../logs/align.h"
#include "report.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perflog report DIR [DIR2] [-v] [--json] [--html OUTDIR]\n"
		"                      [--with SERVERDIR]... [--shift SET=SECONDS]...\n"
		"                      [--instrumentation FILE] [--width W --height H]\n"
		"\n"
		"  per session of the log set DIR (the whole log without sessions): times,\n"
		"  the backup client's figures, average / 95th percentile / peak of CPU,\n"
		"  disk, memory and network, and the resource nearest saturation\n"
		"  (rules: man perflog-report)\n"
		"  DIR2                   compare: DIR's sessions against DIR2's\n"
		"  -v, --verbose          the method's fine print too (every figure,\n"
		"                         the client's checks and own lines, the wait\n"
		"                         states' table, the wait graph), lines whole\n"
		"  --with SERVERDIR       a server's log set of the same sessions: both\n"
		"                         hosts' figures and one verdict along the data\n"
		"                         path, aligned by the clock offset the markers\n"
		"                         recorded (perflog run --server)\n"
		"  --shift SET=SECONDS    add SECONDS to a --with set's times instead\n"
		"  --json                 the report as JSON, for scripts (schema:\n"
		"                         man perflog-report)\n"
		"  --html OUTDIR          also write OUTDIR/index.html with the charts\n"
		"  --instrumentation FILE the client's instrumentation report (dsmc\n"
		"                         testflag=instrument:detail) for every session\n"
		"  --width W --height H   chart size in pixels for --html\n");
}

/* DIR against DIR2: text or JSON; frees a. The exit status. */
static int compare(struct report *a, const char *dir2, const char *instr,
		   int json)
{
	struct report *b;
	struct perr e;

	if (report_build(dir2, instr, &b, &e) < 0) {
		fprintf(stderr, "perflog report: %s\n", e.msg);
		report_free(a);
		return 1;
	}
	if (json)
		report_json_compare(stdout, a, b);
	else
		report_compare(stdout, a, b);
	report_free(a);
	report_free(b);
	return fflush(stdout) ? 1 : 0;
}

/* --with sets and their --shift (NAN: the recorded offset). */
struct withs {
	char **dirs;
	double *shift;
	size_t n;
};

/* Each --shift SET=SECONDS onto the --with set it names: 0, or 2 with
 * the message printed. */
static int add_shifts(struct withs *w, char **shift, size_t nshift)
{
	for (size_t k = 0; k < nshift; k++) {
		size_t i;
		double secs;
		int rc = align_shift_arg(shift[k], w->dirs, w->n, &i, &secs);

		if (rc == -1)
			fprintf(stderr, "perflog report: --shift wants SET=SECONDS, got '%s'\n",
				shift[k]);
		else if (rc == -2)
			fprintf(stderr, "perflog report: --shift names '%s', which is not a --with set\n",
				shift[k]);
		if (rc)
			return 2;
		w->shift[i] = secs;
	}
	return 0;
}

/* The set's rows into its files (a live set's collector holds them back
 * for [log] flush, a killed one's are in its journal only). A live
 * collector that does not sync is said always: through rrdcached the
 * rows it sent are in the daemon, neither in the files nor in the
 * journal. A killed set that cannot be settled only with --html, whose
 * charts are drawn from the files: the figures read its journal over
 * them and lack nothing (it was called live, and the report said to
 * lack rows). */
static void sync_live(const char *dir, const char *html)
{
	struct perr e;
	int rc = control_sync_live(dir, &e);

	if (rc == -1 || (rc == -2 && html))
		fprintf(stderr, "perflog report: warning: '%s': %s: %s lack those rows\n",
			dir, e.msg, rc == -1 ? "the report and its charts may" :
			"the charts");
}

/* The command, with what it allocates in w and *shiftp for the caller to
 * free. */
static int report_main(int argc, char **argv, struct withs *w, char ***shiftp,
		       size_t *nshift)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "html", required_argument, NULL, 'H' },
		{ "instrumentation", required_argument, NULL, 'I' },
		{ "width", required_argument, NULL, 'W' },
		{ "height", required_argument, NULL, 'E' },
		{ "with", required_argument, NULL, 'w' },
		{ "shift", required_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dirs[2] = { NULL, NULL }, *html = NULL, *instr = NULL;
	int ndirs = 0, width = 0, height = 0, json = 0, verbose = 0, c, li;
	struct report *a = NULL;
	struct perr e;

	w->dirs = calloc((size_t)argc, sizeof(*w->dirs));
	w->shift = calloc((size_t)argc, sizeof(*w->shift));
	*shiftp = calloc((size_t)argc, sizeof(**shiftp));
	if (!w->dirs || !w->shift || !*shiftp) {
		fprintf(stderr, "perflog report: out of memory\n");
		return 1;
	}
	optind = 1;
	opterr = 0;
	while ((c = util_getopt(argc, argv, "hv", longopts, &li)) != -1) {
		if (c != 'h' && c != 'j' && c != 'v' && c != '?' && !*optarg) {
			fprintf(stderr, "perflog report: --%s needs a value\n",
				longopts[li].name);
			return 2;
		}
		switch (c) {
		case 'j': json = 1; break;
		case 'v': verbose = 1; break;
		case 'H': html = optarg; break;
		case 'I': instr = optarg; break;
		case 'W': if (png_size_arg("report", "--width", optarg, &width)) return 2; break;
		case 'E': if (png_size_arg("report", "--height", optarg, &height)) return 2; break;
		case 'w':
			w->shift[w->n] = NAN;
			w->dirs[w->n++] = optarg;
			break;
		case 's': (*shiftp)[(*nshift)++] = optarg; break;
		case 'h': usage(stdout); return 0;
		default: return util_bad_option("report", argv, optind, optopt);
		}
	}
	for (; optind < argc; optind++) {
		if (ndirs == 2) {
			fprintf(stderr, "perflog report: at most two log sets ('%s')\n",
				argv[optind]);
			return 2;
		}
		dirs[ndirs++] = argv[optind];
	}
	if (!ndirs) {
		fprintf(stderr, "perflog report: no log set given\n");
		usage(stderr);
		return 2;
	}
	if (ndirs == 2 && html) {
		fprintf(stderr, "perflog report: --html takes one log set\n");
		return 2;
	}
	if (ndirs == 2 && w->n) {
		fprintf(stderr, "perflog report: --with takes one client log set, not a comparison\n");
		return 2;
	}
	if ((c = add_shifts(w, *shiftp, *nshift)))
		return c;
	for (int i = 0; i < ndirs; i++)
		sync_live(dirs[i], html);
	if (report_build(dirs[0], instr, &a, &e) < 0 ||
	    report_add_hosts(a, w->dirs, w->n, w->shift, &e) < 0) {
		fprintf(stderr, "perflog report: %s\n", e.msg);
		report_free(a);
		return 1;
	}
	a->verbose = verbose;
	if (ndirs == 2)
		return compare(a, dirs[1], instr, json);
	if (json)
		report_json(stdout, a);
	else
		report_print(stdout, a);
	int rc = 0;
	if (html && report_html(a, html, width, height, &e) < 0) {
		fprintf(stderr, "perflog report: %s\n", e.msg);
		rc = 1;
	}
	report_free(a);
	if (fflush(stdout))
		rc = 1;
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct withs w = { 0 };
	char **shift = NULL;
	size_t nshift = 0;
	int rc = report_main(argc, argv, &w, &shift, &nshift);

	free(w.dirs);
	free(w.shift);
	free(shift);
	return rc;
}
