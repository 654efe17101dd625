/*
 * cmd_report.c - `perflog report DIR [DIR2] [--json] [--html OUTDIR]
 * [--instrumentation FILE] [--width W --height H]`.
 *
 * One log set: the per-session report (report.h) on standard output, and
 * with --html also OUTDIR/index.html with the charts. Two log sets: their
 * sessions side by side with the change of each figure.
 * Exit status: 0 done, 1 a log set or file is at fault, 2 usage.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../commands.h"
#include "../export/png_export.h"
#include "report.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perflog report DIR [DIR2] [--json] [--html OUTDIR]\n"
		"                      [--instrumentation FILE] [--width W --height H]\n"
		"\n"
		"  per session of the log set DIR (the whole log without sessions): times,\n"
		"  the backup client's figures, average / 95th percentile / peak of CPU,\n"
		"  disk, memory and network, and the resource nearest saturation\n"
		"  (rules: report/README.md)\n"
		"  DIR2                   compare: DIR's sessions against DIR2's\n"
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

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "html", required_argument, NULL, 'H' },
		{ "instrumentation", required_argument, NULL, 'I' },
		{ "width", required_argument, NULL, 'W' },
		{ "height", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dirs[2] = { NULL, NULL }, *html = NULL, *instr = NULL;
	int ndirs = 0, width = 0, height = 0, json = 0, c, li;
	struct report *a = NULL;
	struct perr e;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, &li)) != -1) {
		if (c != 'h' && c != 'j' && c != '?' && !*optarg) {
			fprintf(stderr, "perflog report: --%s needs a value\n",
				longopts[li].name);
			return 2;
		}
		switch (c) {
		case 'j': json = 1; break;
		case 'H': html = optarg; break;
		case 'I': instr = optarg; break;
		case 'W': if (png_size_arg("report", "--width", optarg, &width)) return 2; break;
		case 'E': if (png_size_arg("report", "--height", optarg, &height)) return 2; break;
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
	if (report_build(dirs[0], instr, &a, &e) < 0) {
		fprintf(stderr, "perflog report: %s\n", e.msg);
		return 1;
	}
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
