/*
 * cmd_import.c - `perflog import FILE... [-o DIR] [--tz ZONE] [--host NAME]`:
 * nmon files and perfmon CSV as log sets (import.h).
 *
 * Each FILE is read and parsed whole before anything is written; a
 * perfmon CSV of several hosts gives a set each (import.h); a host's sets
 * of one interval and one format from files that follow one another in
 * time (a day's nmon files of one server) make one log set, others one
 * each. Prints each set's path. Exit status: 0 done, 1 a file is at
 * fault (one line naming it and its line; sets already written stay,
 * nothing half written does), 2 usage.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <limits.h>

#include "../commands.h"
#include "import.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perflog import FILE... [-o DIR] [--tz ZONE] [--host NAME]\n"
		"\n"
		"  FILE         an nmon file (AIX or Linux nmon) or a perfmon CSV\n"
		"               (relog -f csv, typeperf -f CSV, esxtop -b); a .blg must\n"
		"               first go through relog -f csv on Windows\n"
		"  -o DIR       create the log sets under DIR (default ./logs)\n"
		"  --tz ZONE    the zone nmon's local times are in (Europe/Berlin, UTC;\n"
		"               default this host's); perfmon CSV names its own, this\n"
		"               overrides it\n"
		"  --host NAME  the host the log set is of (default the file's)\n");
}

/* A zone glibc will read: a file of the zone database, UTC, or a POSIX
 * TZ string (with an offset: "EST5EDT"). glibc takes any unknown name
 * as UTC without a word, which would shift every row silently. */
static int zone_ok(const char *tz)
{
	char path[PATH_MAX];
	struct stat st;

	if (!strcmp(tz, "UTC") || !strcmp(tz, "GMT"))
		return 1;
	if (strpbrk(tz, "0123456789") && !strchr(tz, '/'))
		return 1;
	if (strstr(tz, ".."))
		return 0;
	snprintf(path, sizeof(path), "/usr/share/zoneinfo/%s", tz);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* SIGINT, SIGTERM, SIGHUP while a set is written: the write stops at
 * its next row and removes the hidden set (importset.c), then the
 * signal is raised again with its default action, so the caller sees
 * the process end by it. A signal the caller ignored (nohup) stays
 * ignored. STYLE 7: the handler only sets the flag. */
static volatile sig_atomic_t import_signal;

static void on_signal(int sig)
{
	import_signal = sig;
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

static int parse_one(const char *path, const char *tz, struct import_set *s,
		     enum import_format *fmt, struct perr *e)
{
	size_t len;
	char *text = util_load_file(path, &len, e);
	int rc = -1;

	if (!text)
		return -1;
	*fmt = import_detect(text, len);
	switch (*fmt) {
	case IMPORT_NMON:
		rc = import_nmon(text, len, path, tz, s, e);
		break;
	case IMPORT_PERFMON:
		rc = import_perfmon(text, len, path, tz, s, e);
		break;
	case IMPORT_BLG:
		perr_set(e, "%s: a binary perfmon log (BLG): run 'relog %s -f csv -o FILE.csv' on Windows and import the CSV",
			 path, path);
		break;
	default:
		perr_set(e, "%s:1: neither an nmon file (AAA, ZZZZ lines) nor a perfmon CSV (\"(PDH-CSV 4.0) ...\" header) nor perflog's (\"time,\\\\HOST\\...\" header)",
			 path);
	}
	free(text);
	return rc;
}

/* A set to write: one host's set of a file (a perfmon CSV of several
 * hosts gives one each, chained: import.h). */
struct part {
	const struct import_set *s;
	size_t file;
	enum import_format fmt;
	int done;
};

/* One host in two files of format fmt: perfmon's names in any case
 * (Windows' names do not tell case: \\SRV1 one day, \\srv1 the next, as
 * within one file, perfmon.c), nmon's as they are. */
static int same_host(enum import_format fmt, const char *a, const char *b)
{
	return fmt == IMPORT_PERFMON ? !strcasecmp(a, b) : !strcmp(a, b);
}

/* The part of the next file that continues part p (same format, host
 * and interval, starting after it ends), or -1. */
static long continued(const struct part *v, size_t n, size_t p)
{
	const struct import_set *a = v[p].s;

	for (size_t q = p + 1; q < n; q++) {
		const struct import_set *b = v[q].s;

		if (v[q].file != v[p].file + 1 || v[q].done ||
		    v[q].fmt != v[p].fmt ||
		    !same_host(v[p].fmt, a->host, b->host) ||
		    b->step != a->step || !(b->snap[0].t > a->snap[a->n - 1].t))
			continue;
		return (long)q;
	}
	return -1;
}

/* Write the sets of the files, each printed: a host's sets of files that
 * continue one another (a day's nmon files of one server; a week of
 * perfmon CSVs of two) make one log set, the others one each. 0, or 1
 * with the error said. */
static int write_runs(const struct import_set *sets,
		      const enum import_format *fmts, size_t nfiles,
		      const struct import_options *o)
{
	struct part *v = NULL;
	const struct import_set **run = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	for (size_t i = 0; i < nfiles; i++)
		for (const struct import_set *s = &sets[i]; s; s = s->next) {
			if (util_grow(&v, &cap, n + 1, sizeof(*v)) < 0)
				goto oom;
			v[n++] = (struct part){ .s = s, .file = i,
						.fmt = fmts[i] };
		}
	if (!(run = calloc(n ? n : 1, sizeof(*run))))
		goto oom;
	for (size_t p = 0; p < n && !rc; p++) {
		size_t k = 0;
		char dir[PATH_MAX];
		struct perr e;

		if (v[p].done)
			continue;
		for (long q = (long)p; q >= 0; q = continued(v, n, (size_t)q)) {
			v[q].done = 1;
			run[k++] = v[q].s;
		}
		if (import_write(run, k, o, dir, sizeof(dir), &e) < 0) {
			fprintf(stderr, "perflog import: %s\n", e.msg);
			rc = 1;
		} else {
			printf("%s\n", dir);
		}
	}
	free(run);
	free(v);
	return rc;
oom:
	fprintf(stderr, "perflog import: out of memory\n");
	free(v);
	return 1;
}

int cmd_import(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "tz", required_argument, NULL, 'z' },
		{ "host", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct import_options o = { 0 };
	struct import_set *sets;
	enum import_format *fmts;
	const char *tz = NULL;
	int c, nfiles, rc = 0;

	optind = 1;
	opterr = 0;
	while ((c = util_getopt(argc, argv, "ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': o.parent = optarg; break;
		case 'z': tz = optarg; break;
		case 'H': o.host = optarg; break;
		case 'h': usage(stdout); return 0;
		default: return util_bad_option("import", argv, optind, optopt);
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "perflog import: no file given\n");
		usage(stderr);
		return 2;
	}
	if (tz && (!*tz || !zone_ok(tz))) {
		fprintf(stderr, "perflog import: unknown zone '%s' (want a zone such as Europe/Berlin, UTC or EST5EDT)\n",
			tz);
		return 2;
	}
	if (o.host && (!*o.host || strlen(o.host) >= 64)) {
		fprintf(stderr, "perflog import: bad host name '%s'\n", o.host);
		return 2;
	}
	nfiles = argc - optind;
	sets = calloc((size_t)nfiles, sizeof(*sets));
	fmts = calloc((size_t)nfiles, sizeof(*fmts));
	if (!sets || !fmts) {
		fprintf(stderr, "perflog import: out of memory\n");
		free(sets);
		free(fmts);
		return 1;
	}
	for (int i = 0; i < nfiles; i++) {
		struct perr e;

		if (parse_one(argv[optind + i], tz, &sets[i], &fmts[i], &e) < 0) {
			fprintf(stderr, "perflog import: %s\n", e.msg);
			rc = 1;
			goto out;
		}
		if (o.host && sets[i].next) {
			fprintf(stderr, "perflog import: --host %s: %s holds the counters of several hosts (%s, %s ...), one log set each, named for its host\n",
				o.host, argv[optind + i], sets[i].host,
				sets[i].next->host);
			rc = 2;
			goto out;
		}
	}
	/* the notes once every file is read: a file at fault is one line */
	for (int i = 0; i < nfiles; i++)
		if (sets[i].notes.len)
			fprintf(stderr, "%s", sets[i].notes.p);
	catch_signals();
	o.stop = &import_signal;
	rc = write_runs(sets, fmts, (size_t)nfiles, &o);
out:
	if (import_signal) {
		/* the hidden set is gone: end as the signal would have, now
		 * (freeing a day of snapshots takes its time) */
		signal(import_signal, SIG_DFL);
		raise(import_signal);
	}
	for (int i = 0; i < nfiles; i++)
		import_set_free(&sets[i]);
	free(sets);
	free(fmts);
	return rc;
}
