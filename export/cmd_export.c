/*
 * cmd_export.c - `perflog export DIR --csv FILE|- [--from T] [--to T]`.
 *
 * Exit status: 0 done, 1 the log set or the output is at fault (one line
 * naming it), 2 usage. The output file is opened only once the log set has
 * been read, so a wrong DIR never truncates FILE. The PNG export (--png
 * OUTDIR, viewer/) joins here as a second output kind beside --csv.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../commands.h"
#include "../common/util.h"
#include "../logs/csv.h"
#include "../logs/logset.h"
#include "../logs/markers.h"
#include "../logs/pattern.h"
#include "png_export.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perflog export DIR --csv FILE|- [--from TIME] [--to TIME] [--counters LIST]\n"
		"       perflog export DIR --png OUTDIR [--session S] [--from TIME --to TIME]\n"
		"                      [--width W --height H] [--counters LIST]\n"
		"\n"
		"  --csv FILE   write the log set as CSV (\"-\" = standard output):\n"
		"               time, then one column per counter, \\\\HOST\\Object(Instance)\\Counter\n"
		"  --from TIME  first row to write, ISO 8601 UTC (2026-11-30T04:50:00Z)\n"
		"  --to TIME    last row to write\n"
		"  --png OUTDIR one PNG per chart (export/png_export.h) and charts.tsv\n"
		"  --session S  charts cover session S with a small margin\n"
		"  --width W --height H  image size in pixels (default 1000x400)\n"
		"  --counters LIST  with --png, more charts: groups split by ',',\n"
		"               counters in a group joined by '+', (*) for every instance;\n"
		"               with --csv, only these columns: patterns split by ',' or\n"
		"               '+', '*' matches any text (LogicalDisk(*)\\Disk*Bytes/sec)\n");
}

/* "--opt VALUE" or "--opt=VALUE"; returns the value or NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt)
{
	size_t n = strlen(opt);

	if (!strncmp(argv[*i], opt, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (!strcmp(argv[*i], opt)) {
		if (*i + 1 >= argc)
			return NULL;
		return argv[++*i];
	}
	return NULL;
}

static int is_opt(const char *arg, const char *opt)
{
	size_t n = strlen(opt);

	return !strncmp(arg, opt, n) && (arg[n] == '\0' || arg[n] == '=');
}

int cmd_export(int argc, char **argv)
{
	const char *dir = NULL, *csv = NULL;
	struct png_export_options po = { 0 };
	const char *png = NULL;
	time_t from = 0, to = 0;
	struct logset *ls;
	struct perr e;
	FILE *f;
	int rc;
	size_t *cols = NULL;
	long ncols = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		}
		/* the PNG export's options (export/png_export.h) */
		if (is_opt(a, "--png") || is_opt(a, "--session") ||
		    is_opt(a, "--counters") || is_opt(a, "--width") ||
		    is_opt(a, "--height")) {
			const char *o = is_opt(a, "--png") ? "--png" :
				is_opt(a, "--session") ? "--session" :
				is_opt(a, "--counters") ? "--counters" :
				is_opt(a, "--width") ? "--width" : "--height";
			const char *v = opt_value(argc, argv, &i, o);
			char *end;
			long n;

			if (!v || !*v) {
				fprintf(stderr, "perflog export: %s needs a value\n", o);
				return 2;
			}
			if (!strcmp(o, "--png"))
				png = v;
			else if (!strcmp(o, "--session"))
				po.session = v;
			else if (!strcmp(o, "--counters"))
				po.counters = v;
			else {
				n = strtol(v, &end, 10);
				if (*end || n < 1 || n > 100000) {
					fprintf(stderr, "perflog export: %s: bad size '%s'\n", o, v);
					return 2;
				}
				*(!strcmp(o, "--width") ? &po.width : &po.height) = (int)n;
			}
			continue;
		}
		if (is_opt(a, "--csv") || is_opt(a, "--from") ||
		    is_opt(a, "--to")) {
			const char *name = a;
			const char *v = opt_value(argc, argv, &i, is_opt(a, "--csv") ?
						  "--csv" : is_opt(a, "--from") ?
						  "--from" : "--to");
			time_t t;

			if (!v || !*v) {
				fprintf(stderr, "perflog export: %.6s needs a value\n",
					name);
				return 2;
			}
			if (is_opt(name, "--csv")) {
				csv = v;
				continue;
			}
			if (util_parse_iso8601(v, &t, NULL) < 0) {
				fprintf(stderr, "perflog export: bad time '%s' (want ISO 8601 UTC such as 2026-11-30T04:50:00Z)\n",
					v);
				return 2;
			}
			if (is_opt(name, "--from"))
				from = t;
			else
				to = t;
			continue;
		}
		if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "perflog export: unknown option '%s' (see perflog export --help)\n",
				a);
			return 2;
		}
		if (dir) {
			fprintf(stderr, "perflog export: one log set at a time ('%s' and '%s')\n",
				dir, a);
			return 2;
		}
		dir = a;
	}
	if (!dir) {
		fprintf(stderr, "perflog export: no log set given\n");
		usage(stderr);
		return 2;
	}
	if (!csv && !png) {
		fprintf(stderr, "perflog export: say what to export: --csv FILE|- or --png OUTDIR\n");
		return 2;
	}
	if (from && to && to < from) {
		fprintf(stderr, "perflog export: --to is before --from\n");
		return 2;
	}
	if (logset_open(dir, &ls, &e) < 0) {
		fprintf(stderr, "perflog export: %s\n", e.msg);
		return 1;
	}
	if (png) {
		struct marker_list ml = { 0 };
		int n;

		po.from = from;
		po.to = to;
		if (markers_load(dir, &ml, &e) < 0)
			n = -1;
		else
			n = png_export(ls, &ml, png, &po, NULL, 0, &e);
		markers_free(&ml);
		if (n < 0 || !csv) {
			logset_close(ls);
			if (n < 0) {
				fprintf(stderr, "perflog export: %s\n", e.msg);
				return 1;
			}
			return 0;
		}
	}
	/* --counters with --csv: only the columns it names, checked before
	 * FILE is opened (and truncated) */
	if (po.counters &&
	    (ncols = pattern_select(logset_meta(ls), po.counters, &cols, &e)) < 0) {
		fprintf(stderr, "perflog export: %s\n", e.msg);
		logset_close(ls);
		return 1;
	}
	if (!strcmp(csv, "-")) {
		f = stdout;
	} else {
		f = fopen(csv, "w");
		if (!f) {
			fprintf(stderr, "perflog export: unable to write '%s': %s\n",
				csv, strerror(errno));
			free(cols);
			logset_close(ls);
			return 1;
		}
	}
	if (po.counters)
		rc = csv_export_columns(ls, f, !strcmp(csv, "-") ? "standard output" : csv,
					from, to, cols, (size_t)ncols, &e);
	else
		rc = csv_export(ls, f, !strcmp(csv, "-") ? "standard output" : csv,
				from, to, &e);
	free(cols);
	if (f != stdout && fclose(f) != 0 && rc == 0)
		rc = perr_set(&e, "unable to write '%s': %s", csv,
			      strerror(errno));
	logset_close(ls);
	if (rc < 0) {
		fprintf(stderr, "perflog export: %s\n", e.msg);
		return 1;
	}
	return 0;
}
