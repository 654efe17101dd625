/*
 * cmd_export.c - `perflog export DIR --csv FILE|- [--pdh] [--from T] [--to T]`.
 *
 * Exit status: 0 done, 1 the log set or the output is at fault (one line
 * naming it), 2 usage. The output file is opened only once the log set has
 * been read, so a wrong DIR never truncates FILE. --png OUTDIR draws the
 * charts (png_export.h); with both, the PNGs are drawn first. --with
 * SERVERDIR (with --png): each server's charts in OUTDIR/HOST/ on DIR's
 * clock (png_export_hosts), shifted by the clock offset the markers
 * recorded or --shift, and OUTDIR/hosts.tsv saying which folder holds
 * which host and by how much it was shifted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../collector/control.h"
#include "../commands.h"
#include "../common/util.h"
#include "../logs/align.h"
#include "../logs/csv.h"
#include "../logs/logset.h"
#include "../logs/markers.h"
#include "../logs/pattern.h"
#include "png_export.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perflog export DIR --csv FILE|- [--pdh] [--from TIME] [--to TIME]\n"
		"                      [--counters LIST]\n"
		"       perflog export DIR --png OUTDIR [--session S] [--from TIME --to TIME]\n"
		"                      [--width W --height H] [--counters LIST]\n"
		"                      [--with SERVERDIR]... [--shift SET=SECONDS]...\n"
		"       perflog export A B --png OUTDIR [--session S [--session S2]]\n"
		"\n"
		"  --csv FILE   write the log set as CSV (\"-\" = standard output):\n"
		"               time (2026-11-30 04:50:15, UTC: a date to a spreadsheet),\n"
		"               then one column per counter, \\\\HOST\\Object(Instance)\\Counter\n"
		"  --pdh        with --csv, relog's own form (PDH-CSV 4.0, times UTC as\n"
		"               MM/DD/YYYY HH:MM:SS.mmm, every cell quoted): perfmon,\n"
		"               relog and PAL open it, with PAL's counter names;\n"
		"               perflog import reads either form back\n"
		"  --from TIME  first row to write, ISO 8601 UTC (2026-11-30T04:50:00Z)\n"
		"  --to TIME    last row to write\n"
		"  --png OUTDIR one PNG per chart (man perflog-export) and charts.tsv\n"
		"  --session S  charts cover session S with a small margin\n"
		"  A B          two runs laid over each other from their sessions' begins\n"
		"               (S in each, or S in A and S2 in B; else each one's first),\n"
		"               every chart with A's series and B's, labelled A and B\n"
		"  --width W --height H  image size in pixels (default 1000x400)\n"
		"  --counters LIST  with --png, more charts: groups split by ',',\n"
		"               counters in a group joined by '+', (*) for every instance;\n"
		"               with --csv, only these columns: patterns split by ',' or\n"
		"               '+', '*' matches any text (LogicalDisk(*)\\Disk*Bytes/sec)\n"
		"  --with SERVERDIR  with --png, a server's charts too, in OUTDIR/HOST/, on\n"
		"               DIR's clock by the offset the markers recorded\n"
		"  --shift SET=SECONDS  add SECONDS to a --with set's times instead\n");
}

struct options {
	const char *dir, *csv, *png;
	const char *dir2;	/* --png A B: the second run, laid over */
	int pdh;		/* --pdh: the CSV in relog's form */
	time_t from, to;
	struct png_export_options po;
	char **with;		/* --with sets */
	double *shift;		/* their --shift, NAN: recorded */
	size_t nwith;
	char **shifts;		/* --shift arguments */
	size_t nshifts;
	int norows;		/* a --with set had no rows: exit 1 */
};

/* --from / --to */
static int time_arg(const char *v, time_t *t)
{
	if (util_parse_iso8601(v, t, NULL) < 0) {
		fprintf(stderr, "perflog export: bad time '%s' (want ISO 8601 UTC such as 2026-11-30T04:50:00Z)\n",
			v);
		return -1;
	}
	return 0;
}

/* The command line, checked: 0, -1 after --help, or the exit status with
 * the message printed. */
static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "csv", required_argument, NULL, 'c' },
		{ "pdh", no_argument, NULL, 'P' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "png", required_argument, NULL, 'p' },
		{ "session", required_argument, NULL, 's' },
		{ "counters", required_argument, NULL, 'C' },
		{ "width", required_argument, NULL, 'W' },
		{ "height", required_argument, NULL, 'H' },
		{ "with", required_argument, NULL, 'w' },
		{ "shift", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, li;

	o->with = calloc((size_t)argc, sizeof(*o->with));
	o->shift = calloc((size_t)argc, sizeof(*o->shift));
	o->shifts = calloc((size_t)argc, sizeof(*o->shifts));
	if (!o->with || !o->shift || !o->shifts) {
		fprintf(stderr, "perflog export: out of memory\n");
		return 1;
	}
	optind = 1;
	opterr = 0;
	while ((c = util_getopt(argc, argv, "h", longopts, &li)) != -1) {
		if (c != 'h' && c != '?' && c != 'P' && !*optarg) {
			fprintf(stderr, "perflog export: --%s needs a value\n",
				longopts[li].name);
			return 2;
		}
		switch (c) {
		case 'c': o->csv = optarg; break;
		case 'P': o->pdh = 1; break;
		case 'p': o->png = optarg; break;
		case 's':	/* a session's network chart: only the
				 * interfaces that moved something (issue 29);
				 * a second --session: the second run's */
			if (o->po.session)
				o->po.cmp_session = optarg;
			else
				o->po.session = optarg;
			o->po.drop_zero = 1;
			break;
		case 'C': o->po.counters = optarg; break;
		case 'f': if (time_arg(optarg, &o->from)) return 2; break;
		case 't': if (time_arg(optarg, &o->to)) return 2; break;
		case 'W': if (png_size_arg("export", "--width", optarg, &o->po.width)) return 2; break;
		case 'H': if (png_size_arg("export", "--height", optarg, &o->po.height)) return 2; break;
		case 'w':
			o->shift[o->nwith] = NAN;
			o->with[o->nwith++] = optarg;
			break;
		case 'S': o->shifts[o->nshifts++] = optarg; break;
		case 'h': usage(stdout); return -1;
		default: return util_bad_option("export", argv, optind, optopt);
		}
	}
	for (; optind < argc; optind++) {
		if (o->dir && !o->dir2 && o->png && !o->csv && !o->nwith) {
			o->dir2 = argv[optind];	/* two runs compared */
			continue;
		}
		if (o->dir) {
			fprintf(stderr, "perflog export: one log set at a time ('%s' and '%s'; two runs are compared with --png alone)\n",
				o->dir, o->dir2 ? o->dir2 : argv[optind]);
			return 2;
		}
		o->dir = argv[optind];
	}
	if (!o->dir) {
		fprintf(stderr, "perflog export: no log set given\n");
		usage(stderr);
		return 2;
	}
	if (o->pdh && !o->csv) {
		fprintf(stderr, "perflog export: --pdh is a form of the CSV: give --csv FILE|-\n");
		return 2;
	}
	if (!o->csv && !o->png) {
		fprintf(stderr, "perflog export: say what to export: --csv FILE|- or --png OUTDIR\n");
		return 2;
	}
	if (o->nwith && !o->png) {
		fprintf(stderr, "perflog export: --with draws the servers' charts: give --png OUTDIR\n");
		return 2;
	}
	for (size_t k = 0; k < o->nshifts; k++) {
		size_t i;
		double secs;
		int rc = align_shift_arg(o->shifts[k], o->with, o->nwith, &i, &secs);

		if (rc == -1)
			fprintf(stderr, "perflog export: --shift wants SET=SECONDS, got '%s'\n",
				o->shifts[k]);
		else if (rc == -2)
			fprintf(stderr, "perflog export: --shift names '%s', which is not a --with set\n",
				o->shifts[k]);
		if (rc)
			return 2;
		o->shift[i] = secs;
	}
	if (o->from && o->to && o->to < o->from) {
		fprintf(stderr, "perflog export: --to is before --from\n");
		return 2;
	}
	return 0;
}

/* The charts and charts.tsv into o->png; with a second run (A B), its
 * series laid over the first's from their sessions' begins. 0 or -1 with
 * e set. */
static int export_png(struct logset *ls, struct options *o, struct perr *e)
{
	struct marker_list ml = { 0 }, ml2 = { 0 };
	struct logset *ls2 = NULL;
	int n = -1;

	o->po.from = o->from;
	o->po.to = o->to;
	if (o->dir2 && (logset_open(o->dir2, &ls2, e) < 0 ||
			markers_load(o->dir2, &ml2, e) < 0))
		goto out;
	o->po.cmp = ls2;
	o->po.cmp_ml = ls2 ? &ml2 : NULL;
	if (markers_load(o->dir, &ml, e) == 0)
		n = png_export(ls, &ml, o->png, &o->po, NULL, 0, e);
out:
	markers_free(&ml);
	markers_free(&ml2);
	if (ls2)
		logset_close(ls2);
	return n < 0 ? -1 : 0;
}

/* OUTDIR/hosts.tsv: the folder, host, log set and shift of every set
 * drawn. */
static int hosts_tsv(const struct options *o, struct logset *ls,
		     const struct png_host *h, size_t n, struct perr *e)
{
	char path[1200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/hosts.tsv", o->png);
	if (!(f = fopen(path, "w")))
		return perr_set(e, "unable to write '%s': %s", path, strerror(errno));
	fprintf(f, "folder\thost\tlogset\tshift\tfrom\n");
	fprintf(f, ".\t%s\t%s\t0\treference\n", logset_meta(ls)->host, o->dir);
	for (size_t i = 0; i < n; i++)
		if (!h[i].norows)	/* no folder: nothing drawn */
			fprintf(f, "%s\t%s\t%s\t%ld\t%s\n", h[i].sub,
			logset_meta(h[i].ls)->host, o->with[i],
			lround(h[i].shift.seconds), h[i].shift.what);
	if (fclose(f) != 0)
		return perr_set(e, "unable to write '%s': %s", path, strerror(errno));
	return 0;
}

/* The --with sets' charts, each in OUTDIR/HOST/. 0 or -1 with e set. */
static int export_with(struct logset *ls, struct options *o, struct perr *e)
{
	struct marker_list ml = { 0 };
	struct png_host *h = calloc(o->nwith, sizeof(*h));
	struct marker_list *hml = calloc(o->nwith, sizeof(*hml));
	size_t opened = 0;
	int rc = -1;

	if (!h || !hml) {
		perr_set(e, "out of memory");
		goto out;
	}
	if (markers_load(o->dir, &ml, e) < 0)
		goto out;
	for (; opened < o->nwith; opened++) {
		if (logset_open(o->with[opened], &h[opened].ls, e) < 0 ||
		    markers_load(o->with[opened], &hml[opened], e) < 0) {
			opened++;
			goto out;
		}
		h[opened].ml = &hml[opened];
		if (isnan(o->shift[opened]))
			align_shift_of(logset_meta(ls), &ml, logset_meta(h[opened].ls),
				       &hml[opened], &h[opened].shift);
		else
			align_manual(o->shift[opened], &h[opened].shift);
	}
	if (png_export_hosts(ls, &ml, &o->po, o->png, h, o->nwith, e) < 0)
		goto out;
	rc = 0;
	for (size_t i = 0; i < o->nwith && rc == 0; i++)
		if (h[i].ncharts < 0)
			rc = perr_set(e, "%s", h[i].error);
	for (size_t i = 0; i < o->nwith && rc == 0; i++) {
		char t1[40], t2[40];

		if (!h[i].norows)
			continue;
		/* said, and the others drawn; exit 1: what was asked for
		 * is not there (a set logged at another time) */
		fprintf(stderr, "perflog export: '%s' (host %s) has no rows from %s to %s (the charts' span on its clock): its charts are left out\n",
			o->with[i], logset_meta(h[i].ls)->host,
			util_iso8601(t1, sizeof(t1), h[i].from, -1),
			util_iso8601(t2, sizeof(t2), h[i].to, -1));
		o->norows = 1;
	}
	if (rc == 0)
		rc = hosts_tsv(o, ls, h, o->nwith, e);
out:
	for (size_t i = 0; h && hml && i < opened; i++) {
		if (h[i].ls)
			logset_close(h[i].ls);
		markers_free(&hml[i]);
	}
	markers_free(&ml);
	free(h);
	free(hml);
	return rc;
}

/* The CSV into o->csv ("-": standard output), opened only now that the
 * log set has been read. 0 or -1 with e set. */
static int export_csv(struct logset *ls, const struct options *o,
		      struct perr *e)
{
	int to_stdout = !strcmp(o->csv, "-");
	const char *name = to_stdout ? "standard output" : o->csv;
	size_t *cols = NULL;
	long ncols = 0;
	FILE *f;
	int rc;

	/* --counters with --csv: only the columns it names, checked before
	 * FILE is opened (and truncated) */
	if (o->po.counters &&
	    (ncols = pattern_select(logset_meta(ls), o->po.counters, &cols, e)) < 0)
		return -1;
	if (!cols) {
		ncols = (long)logset_meta(ls)->ncounters;
		cols = malloc((ncols ? (size_t)ncols : 1) * sizeof(*cols));
		if (!cols)
			return perr_set(e, "out of memory");
		for (long i = 0; i < ncols; i++)
			cols[i] = (size_t)i;
	}
	f = to_stdout ? stdout : fopen(o->csv, "w");
	if (!f) {
		free(cols);
		return perr_set(e, "unable to write '%s': %s", o->csv,
				strerror(errno));
	}
	rc = csv_export_form(ls, f, name, o->from, o->to, cols, (size_t)ncols,
			     o->pdh ? CSV_PDH : CSV_PLAIN, e);
	free(cols);
	if (!to_stdout && fclose(f) != 0 && rc == 0)
		rc = perr_set(e, "unable to write '%s': %s", o->csv,
			      strerror(errno));
	return rc;
}

static void free_options(struct options *o)
{
	free(o->with);
	free(o->shift);
	free(o->shifts);
}

/* The PNGs are drawn by librrd from the RRD files themselves (DEFs that
 * `rrdtool graph` can redo), not through the journal: a live set's
 * collector, which holds rows back for [log] flush (60 s), is asked to
 * write them first, as the report does; a set whose collector was killed
 * has its journal's rows written into its files (logs/settle.c). Said
 * once when either cannot be done. */
static void sync_live(const char *dir)
{
	struct perr e;

	if (control_sync_live(dir, &e) < 0)
		fprintf(stderr, "perflog export: warning: '%s': %s: the charts lack those rows\n",
			dir, e.msg);
}

int cmd_export(int argc, char **argv)
{
	struct options o;
	struct logset *ls;
	struct perr e;
	int rc;

	memset(&o, 0, sizeof(o));
	rc = parse_args(argc, argv, &o);
	if (rc) {
		free_options(&o);
		return rc < 0 ? 0 : rc;
	}
	if (o.png) {
		sync_live(o.dir);
		for (size_t i = 0; i < o.nwith; i++)
			sync_live(o.with[i]);
	}
	if (logset_open(o.dir, &ls, &e) < 0) {
		fprintf(stderr, "perflog export: %s\n", e.msg);
		free_options(&o);
		return 1;
	}
	rc = 0;
	if (o.png)
		rc = export_png(ls, &o, &e);
	if (rc == 0 && o.nwith)
		rc = export_with(ls, &o, &e);
	if (rc == 0 && o.csv)
		rc = export_csv(ls, &o, &e);
	logset_close(ls);
	free_options(&o);
	if (rc < 0) {
		fprintf(stderr, "perflog export: %s\n", e.msg);
		return 1;
	}
	return o.norows;
}
