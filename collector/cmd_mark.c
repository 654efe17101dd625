/*
 * cmd_mark.c - `perflog mark [--begin|--end] [-s SESSION] [-d DIR] TEXT`.
 *
 * The marker goes through the collector's control socket (control_mark):
 * the collector owns markers.tsv, stamps the line in milliseconds, escapes
 * nothing twice, appends it with one write under flock and checks the
 * peer's uid, so only the collector's owner may mark and concurrent marks
 * from several processes never interleave. Which collector: -d DIR, else
 * $PERFLOG_LOGSET, else the only one running (control_find).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "../commands.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perflog mark [--begin|--end] [-s SESSION] [-d DIR] TEXT\n"
		"  --begin     the marker opens SESSION\n"
		"  --end       the marker closes SESSION\n"
		"  -s SESSION  session name (default \"session\" with --begin/--end,\n"
		"              none for a point marker)\n"
		"  -d DIR      the log set to mark (default: $PERFLOG_LOGSET, else the\n"
		"              only running collector)\n"
		"TEXT may hold any bytes; tabs, newlines and control bytes are escaped\n"
		"so one marker is always one line of markers.tsv.\n");
}

int cmd_mark(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "begin", no_argument, NULL, 'b' },
		{ "end", no_argument, NULL, 'e' },
		{ "session", required_argument, NULL, 's' },
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum marker_kind kind = MARK_POINT;
	const char *session = NULL, *dir = NULL;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+s:d:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
		case 'e':
			if (kind != MARK_POINT) {
				fprintf(stderr, "perflog mark: --begin and --end exclude each other\n");
				return 2;
			}
			kind = c == 'b' ? MARK_BEGIN : MARK_END;
			break;
		case 's': session = optarg; break;
		case 'd': dir = optarg; break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "perflog mark: unknown option '%s' (see perflog mark --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, optind == argc
				? "perflog mark: TEXT missing (see perflog mark --help)\n"
				: "perflog mark: one TEXT argument expected (quote it)\n");
		return 2;
	}
	if (!session)
		session = kind == MARK_POINT ? "" : "session";
	struct perr e;
	if (control_mark(dir, kind, session, argv[optind], NULL, 0, &e) < 0) {
		fprintf(stderr, "perflog mark: %s\n", e.msg);
		return 1;
	}
	return 0;
}
