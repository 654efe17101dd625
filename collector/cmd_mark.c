/*
 * cmd_mark.c - `perflog mark [--begin|--end] [-s SESSION] [-d DIR] TEXT`.
 *
 * The marker goes through the collector's control socket (control_mark):
 * the collector owns markers.tsv, stamps the line in milliseconds, escapes
 * nothing twice, appends it with one write under flock and checks the
 * peer's uid, so only the collector's owner may mark and concurrent marks
 * from several processes never interleave. Which collector: -d DIR, else
 * $PERFLOG_LOGSET, else the one whose set has the session open, else the
 * only one running (mark_find.c). --at TIME stamps the marker at TIME
 * (a session closed after the fact); the collector checks it lies in the
 * set's span and after the session's begin (sessions_check_mark). A set
 * named whose collector is gone takes a marker --at TIME directly, with
 * the same checks (mark_late, logs/markers.h markers_append_late).
 *
 * --watch SPEC with --begin: the collector logs SPEC (a PID, UNIT.service
 * or name=COMM) as Process(SESSION) until the session's --end, as perflog
 * run logs its command (mark_session.c). --remote: the server's side of
 * `perflog run --server`, a request loop on stdin (mark.h).
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../logs/logset.h"
#include "../logs/markers.h"
#include "control.h"
#include "mark.h"
#include "../commands.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perflog mark [--begin|--end] [-s SESSION] [-d DIR] [--at TIME] [--watch SPEC] TEXT\n"
		"       perflog mark --remote [-d DIR]\n"
		"  --begin     the marker opens SESSION\n"
		"  --end       the marker closes SESSION (and ends its --watch)\n"
		"  --watch SPEC  with --begin: log SPEC as Process(SESSION) until --end:\n"
		"              a PID (its tree), UNIT.service (its cgroup) or name=COMM\n"
		"              (every process of that name, and their children)\n"
		"  --remote    answer perflog run --server on stdin (run over ssh)\n"
		"  -s SESSION  session name (default \"session\" with --begin/--end,\n"
		"              none for a point marker)\n"
		"  -d DIR      the log set to mark (default: $PERFLOG_LOGSET, else the\n"
		"              one with SESSION open, else the only running collector)\n"
		"  --at TIME   stamp the marker at TIME, not now: ISO 8601 UTC as\n"
		"              markers.tsv has it (2026-11-30T04:50:12.345Z) or -DURATION\n"
		"              ago (-90s, -5m, -2h); within the log set, after the\n"
		"              session's begin (a session closed after the fact); with\n"
		"              -d DIR also a set whose collector is gone\n"
		"TEXT may hold any bytes; tabs, newlines and control bytes are escaped\n"
		"so one marker is always one line of markers.tsv.\n");
}

/* --at TIME into *when, the marker's time as the protocol has it
 * (KIND@SECONDS, control.h): ISO 8601 UTC as markers.tsv has it, or
 * -DURATION before now. The collector's clock is the wall clock (but for
 * its test seam), so a time read off markers.tsv is taken as it is. 0, or
 * -1 when TIME is neither. */
static int parse_at(const char *s, double *when)
{
	time_t t;
	int ms;
	unsigned long secs;

	if (util_parse_iso8601(s, &t, &ms) == 0) {
		*when = (double)t + ms / 1000.0;
		return 0;
	}
	if (s[0] == '-' && util_parse_duration(s + 1, &secs) == 0 && secs) {
		*when = util_walltime() - (double)secs;
		return 0;
	}
	return -1;
}

/* No collector for the marker (why in e): with --at, a set named (-d DIR,
 * $PERFLOG_LOGSET) that no collector writes any more takes it directly
 * (markers_append_late: a session left open when its collector stopped).
 * Returns the exit status. */
static int mark_late(const char *dir, double when, enum marker_kind kind,
		     const char *session, const char *text, const char *watch,
		     struct perr *e)
{
	const char *env = getenv("PERFLOG_LOGSET");
	char meta[PATH_MAX];
	struct perr le;
	int rc, set;

	if (!dir && env && *env)
		dir = env;
	set = dir && snprintf(meta, sizeof(meta), "%s/%s", dir, LOGSET_META) <
			     (int)sizeof(meta) && access(meta, F_OK) == 0;
	if (!set || watch || !(when > 0)) {
		fprintf(stderr, "perflog mark: %s%s\n", e->msg,
			set && !watch ? " (--at TIME marks a set after the fact)"
				      : "");
		return 1;
	}
	rc = markers_append_late(dir, when, kind, session, text, &le);
	if (rc == 0)
		return 0;
	if (rc > 0)
		fprintf(stderr, "perflog mark: %s, but its .lock is held: a collector writes it and does not answer\n",
			e->msg);
	else
		fprintf(stderr, "perflog mark: %s\n", le.msg);
	return 1;
}

int cmd_mark(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "begin", no_argument, NULL, 'b' },
		{ "end", no_argument, NULL, 'e' },
		{ "session", required_argument, NULL, 's' },
		{ "dir", required_argument, NULL, 'd' },
		{ "watch", required_argument, NULL, 'w' },
		{ "remote", no_argument, NULL, 'r' },
		{ "at", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum marker_kind kind = MARK_POINT;
	const char *session = NULL, *dir = NULL, *watch = NULL, *at = NULL;
	double when = 0;
	struct collector_info col;
	char warn[600];
	struct perr e;
	int c, remote = 0;

	optind = 1;
	opterr = 0;
	while ((c = util_getopt(argc, argv, "+s:d:h", longopts, NULL)) != -1) {
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
		case 'w': watch = optarg; break;
		case 'r': remote = 1; break;
		case 'a': at = optarg; break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "perflog mark: unknown option '%s' (see perflog mark --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (remote) {
		if (optind != argc || kind != MARK_POINT || watch || session ||
		    at) {
			fprintf(stderr, "perflog mark: --remote takes only -d DIR\n");
			return 2;
		}
		return mark_remote(dir);
	}
	if (watch && kind != MARK_BEGIN) {
		fprintf(stderr, "perflog mark: --watch goes with --begin\n");
		return 2;
	}
	if (at && parse_at(at, &when) < 0) {
		fprintf(stderr, "perflog mark: --at: bad time '%s' (want ISO 8601 UTC such as 2026-11-30T04:50:12.345Z, or -DURATION such as -5m)\n",
			at);
		return 2;
	}
	if (optind != argc - 1) {
		fprintf(stderr, optind == argc
				? "perflog mark: TEXT missing (see perflog mark --help)\n"
				: "perflog mark: one TEXT argument expected (quote it)\n");
		return 2;
	}
	if (!session)
		session = kind == MARK_POINT ? "" : "session";
	if (mark_find(dir, kind, session, &col, &e) < 0)
		return mark_late(dir, at ? when : 0, kind, session,
				 argv[optind], watch, &e);
	if (mark_session(&col, when, kind, session, argv[optind], watch, NULL,
			 0, warn, sizeof(warn), &e) < 0) {
		fprintf(stderr, "perflog mark: %s\n", e.msg);
		return 1;
	}
	if (warn[0])
		fprintf(stderr, "perflog mark: %s\n", warn);
	return 0;
}
