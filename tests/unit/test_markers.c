/*
 * test_markers.c - markers.tsv: escaping round trips of hostile text,
 * formatting, tolerant parsing with line numbers, session pairing, and
 * concurrent appends from several processes.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../logs/markers.h"
#include "tap.h"

static void roundtrip(const char *s, const char *name)
{
	char *esc = markers_escape(s), *back;

	OK(esc && !strpbrk(esc, "\t\n\r"), name);
	back = esc ? markers_unescape(esc) : NULL;
	EQ_STR(back, s, name);
	free(esc);
	free(back);
}

static void test_escape(void)
{
	char all[256], big[10241], bad_utf8[] = "caf\xc3 \xff\xfe end \x80";
	char *e;

	/* every byte 1..255 */
	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';
	roundtrip(all, "every byte 1..255 round trips");
	roundtrip("tab\there\nnew line\r\nand \\ backslash \\t literal",
		  "tabs, newlines, backslashes");
	roundtrip("\x01\x02\x1f\x7f", "control bytes");
	roundtrip(bad_utf8, "invalid UTF-8 passes through");
	roundtrip("", "empty string");
	for (size_t i = 0; i < sizeof(big) - 1; i++)
		big[i] = "ab\tc\\d\ne\x01"[i % 9];
	big[sizeof(big) - 1] = '\0';
	roundtrip(big, "10 KB hostile text");

	e = markers_escape("a\tb\\c\x01");
	EQ_STR(e, "a\\tb\\\\c\\x01", "escape spelling");
	free(e);
	OK(markers_unescape("trailing\\") == NULL, "lone trailing backslash refused");
	OK(markers_unescape("\\q") == NULL, "unknown escape refused");
	OK(markers_unescape("\\x4") == NULL, "short \\x refused");
	OK(markers_unescape("\\xzz") == NULL, "bad hex refused");
	OK(markers_unescape("\\x00") == NULL, "NUL refused");
	e = markers_unescape("\\x41\\x7F");
	EQ_STR(e, "A\x7f", "\\x upper and lower case hex");
	free(e);
}

static void test_format_parse(void)
{
	const char *extra[] = { "cmd=dsmc incr /data\tx", "status=0",
				"client.bytes=7.31 GB" };
	char *line = markers_format(1796014212.345, MARK_END, "backup 1",
				    "done\nwith \\ tab\t!", extra, 3);
	struct marker_list l;
	struct session *s;
	long ns;

	EQ_STR(line, "2026-11-30T04:50:12.345Z\tend\tbackup 1\tdone\\nwith \\\\ tab\\t!"
	       "\tcmd=dsmc incr /data\\tx\tstatus=0\tclient.bytes=7.31 GB\n",
	       "format of an end marker with extras");
	OK(markers_parse(line, "m", &l) == 0, "parse own output");
	EQ_INT(l.n, 1, "one marker");
	EQ_INT(l.bad_lines, 0, "no bad lines");
	if (l.n == 1) {
		EQ_INT(l.m[0].t, 1796014212, "seconds");
		EQ_INT(l.m[0].ms, 345, "milliseconds");
		EQ_INT(l.m[0].kind, MARK_END, "kind");
		EQ_STR(l.m[0].session, "backup 1", "session");
		EQ_STR(l.m[0].text, "done\nwith \\ tab\t!", "text unescaped");
		EQ_STR(marker_get(&l.m[0], "cmd"), "dsmc incr /data\tx", "extra cmd");
		EQ_STR(marker_get(&l.m[0], "client.bytes"), "7.31 GB", "extra client");
		OK(marker_get(&l.m[0], "nope") == NULL, "absent extra");
		EQ_DBL(marker_num(&l.m[0], "status"), 0, 0, "a number field");
		OK(isnan(marker_num(&l.m[0], "client.bytes")) &&
		   isnan(marker_num(&l.m[0], "nope")) &&
		   isnan(marker_num(NULL, "status")),
		   "not wholly a number, absent, no marker: NAN");
		EQ_INT(l.m[0].line, 1, "line number");
	}
	markers_free(&l);
	free(line);

	/* malformed lines: skipped, counted, the first one named */
	const char *text =
		"2026-11-30T04:50:12.345Z\tbegin\ts1\tstart\n"	/* 1 ok */
		"garbage without tabs\n"			/* 2 */
		"2026-11-30T04:50:13Z\tbogus\ts1\tx\n"		/* 3 kind */
		"\n"						/* 4 blank */
		"2026-13-30T04:50:13Z\tpoint\t\tx\n"		/* 5 time */
		"2026-11-30T04:50:13Z\tpoint\t\tbad\\escape\\\n"	/* 6 escape */
		"2026-11-30T04:50:13Z\tpoint\t\n"		/* 7 3 fields */
		"2026-11-30T04:50:14.5Z\tend\ts1\tstop\tk=v\tflag\r\n"	/* 8 ok */
		"2026-11-30T04:50:15Z\tpoint\t\tlast, no newline";	/* 9 ok */
	OK(markers_parse(text, "markers.tsv", &l) == 0, "parse mixed text");
	EQ_INT(l.n, 3, "three good markers");
	EQ_INT(l.bad_lines, 5, "five bad lines");
	OK(strncmp(l.first_bad.msg, "markers.tsv:2: ", 15) == 0,
	   "first bad line named with its number");
	printf("# %s\n", l.first_bad.msg);
	if (l.n == 3) {
		EQ_INT(l.m[1].line, 8, "line numbers kept past bad lines");
		EQ_INT(l.m[1].ms, 500, "one digit of milliseconds");
		EQ_STR(marker_get(&l.m[1], "flag"), "", "extra without '='");
		OK(isnan(marker_num(&l.m[1], "flag")), "an empty field: NAN");
		EQ_STR(l.m[2].text, "last, no newline", "unterminated last line");
	}
	ns = markers_sessions(&l, &s);
	EQ_INT(ns, 1, "one session");
	if (ns == 1)
		OK(s[0].begin == &l.m[0] && s[0].end == &l.m[1], "paired");
	free(s);
	markers_free(&l);

	/* garbage never crashes */
	char junk[512];
	unsigned seed = 7;
	for (int round = 0; round < 200; round++) {
		for (size_t i = 0; i < sizeof(junk) - 1; i++) {
			seed = seed * 1103515245 + 12345;
			junk[i] = "\t\n\\x2026-11-30T:Z.beginendpoint="[(seed >> 16) % 32];
			if (junk[i] == '\0')
				junk[i] = 'a';
		}
		junk[sizeof(junk) - 1] = '\0';
		if (markers_parse(junk, "j", &l) < 0)
			break;
		ns = markers_sessions(&l, &s);
		free(s);
		markers_free(&l);
	}
	OK(1, "200 random garbage texts parsed without a crash");
}

static void test_sessions(void)
{
	const char *text =
		"2026-11-30T00:00:01Z\tbegin\ta\t\n"	/* 0 */
		"2026-11-30T00:00:02Z\tend\tnone\t\n"	/* 1 unmatched end */
		"2026-11-30T00:00:03Z\tbegin\tb\t\n"	/* 2 */
		"2026-11-30T00:00:04Z\tbegin\ta\t\n"	/* 3 repeated: ignored */
		"2026-11-30T00:00:05Z\tpoint\ta\t\n"	/* 4 */
		"2026-11-30T00:00:06Z\tend\ta\t\n"	/* 5 closes 0 */
		"2026-11-30T00:00:07Z\tend\ta\t\n"	/* 6 unmatched */
		"2026-11-30T00:00:08Z\tbegin\ta\t\n"	/* 7 new a, open */
		"2026-11-30T00:00:09Z\tbegin\t\t\n"	/* 8 unnamed */
		"2026-11-30T00:00:10Z\tend\t\t\n";	/* 9 closes 8 */
	struct marker_list l;
	struct session *s;
	long n;

	markers_parse(text, "m", &l);
	EQ_INT(l.n, 10, "ten markers");
	n = markers_sessions(&l, &s);
	EQ_INT(n, 4, "four sessions");
	if (n == 4) {
		OK(s[0].begin == &l.m[0] && s[0].end == &l.m[5],
		   "a: first begin stays open until the end (repeated begin ignored)");
		OK(s[1].begin == &l.m[2] && s[1].end == NULL, "b: still open");
		OK(s[2].begin == &l.m[7] && s[2].end == NULL, "second a: open");
		OK(s[3].begin == &l.m[8] && s[3].end == &l.m[9],
		   "unnamed session pairs with unnamed end");
		EQ_STR(s[0].name, "a", "session name");
	}
	free(s);
	markers_free(&l);
	markers_parse("", "m", &l);
	n = markers_sessions(&l, &s);
	EQ_INT(n, 0, "no markers, no sessions");
	free(s);
	markers_free(&l);
}

/* markers_open (issue 50: `mark --end -s ful` for an open "full" lists
 * the open ones), and an end appended after later markers but stamped
 * before them (`mark --at`) closing the session it names */
static void test_open(void)
{
	static const char text[] =
		"2026-11-30T00:00:00Z\tbegin\tfull\t\n"
		"2026-11-30T00:00:01Z\tbegin\ttar\t\n"
		"2026-11-30T00:00:02Z\tend\ttar\t\n"
		"2026-11-30T00:00:03Z\tbegin\tincr 2\t\n"
		"2026-11-30T00:00:09Z\tpoint\t\tlater\n"
		"2026-11-30T00:00:05.250Z\tend\tincr 2\tat\n";
	struct marker_list l;
	struct session *s;
	const struct marker *m;
	char names[64];
	long n;

	markers_parse(text, "m", &l);
	m = markers_open(&l, "full", names, sizeof(names));
	OK(m == &l.m[0], "full is open: its begin");
	EQ_STR(names, "full", "the open ones: full (incr 2 closed at 00:05.250)");
	OK(markers_open(&l, "ful", names, sizeof(names)) == NULL,
	   "a typo is not open");
	OK(markers_open(&l, "tar", NULL, 0) == NULL, "tar is closed");
	n = markers_sessions(&l, &s);
	EQ_INT(n, 3, "three sessions");
	if (n == 3) {
		OK(s[2].end == &l.m[5], "the late end closes incr 2");
		EQ_INT((int)(s[2].end->t - s[2].begin->t), 2,
		       "at its own time, before the point written earlier");
		EQ_INT(s[2].end->ms, 250, "to the millisecond");
	}
	free(s);
	markers_free(&l);
	markers_parse("2026-11-30T00:00:00Z\tbegin\ta\t\n"
		      "2026-11-30T00:00:01Z\tbegin\tb\t\n", "m", &l);
	markers_open(&l, "x", names, 4);
	EQ_STR(names, "a, ", "the list cut to its buffer");
	markers_free(&l);
}

/* markers_check_time and markers_check_session: what the collector and
 * a late `mark --at` of a stopped set refuse (issue 50: an end of a
 * session not open, a time outside the set, an end before its begin) */
#define T0 1795996800.0	/* 2026-11-30T00:00:00Z */

static void test_check(void)
{
	static const char text[] =
		"2026-11-30T00:00:00Z\tbegin\tfull\t\n"
		"2026-11-30T00:00:01Z\tbegin\ttar\t\n"
		"2026-11-30T00:00:02Z\tend\ttar\t\n";
	struct mark_span live = { T0, T0 + 100, 1 }, gone = { T0, T0 + 60, 0 };
	struct marker_list l;
	struct perr e;

	OK(markers_check_time(&live, T0 + 50, &e) == 0, "time: within");
	OK(markers_check_time(&gone, T0 + 60, &e) == 0,
	   "time: a stopped set's last moment");
	OK(markers_check_time(&gone, T0 - 0.0004, &e) == 0,
	   "time: the start, as markers.tsv rounds it");
	OK(markers_check_time(&gone, T0 - 0.001, &e) < 0, "time: before the start");
	EQ_STR(e.msg, "2026-11-29T23:59:59.999Z is before the log set's start (2026-11-30T00:00:00.000Z)",
	       "... said with both times");
	OK(markers_check_time(&live, T0 + 100.5, &e) < 0, "time: live, past now");
	EQ_STR(e.msg, "2026-11-30T00:01:40.500Z is in the future", "... in the future");
	OK(markers_check_time(&gone, T0 + 60.25, &e) < 0,
	   "time: a stopped set, past its end");
	EQ_STR(e.msg, "2026-11-30T00:01:00.250Z is after the log set's end (2026-11-30T00:01:00.000Z)",
	       "... after its end, not in the future");

	markers_parse(text, "m", &l);
	OK(markers_check_session(&l, "D", MARK_END, "ful", T0 + 5, 0, &e) < 0,
	   "session: an end of a typo");
	EQ_STR(e.msg, "no session 'ful' is open in D (open: full)",
	       "... lists the open ones");
	OK(markers_check_session(&l, "D", MARK_END, "tar", T0 + 5, 0, &e) < 0,
	   "session: an end of one closed");
	OK(markers_check_session(&l, "D", MARK_END, "full", T0 + 0.5, 1, &e) == 0,
	   "session: an end after its begin");
	OK(markers_check_session(&l, "D", MARK_END, "full", T0 - 1, 1, &e) < 0,
	   "session: an end before its begin");
	EQ_STR(e.msg, "the end of 'full' at 2026-11-29T23:59:59.000Z is before its begin (2026-11-30T00:00:00.000Z)",
	       "... said with both times");
	OK(markers_check_session(&l, "D", MARK_END, "full", T0 - 1, 0, &e) == 0,
	   "session: stamped now, no time to check");
	OK(markers_check_session(&l, "D", MARK_BEGIN, "tar", T0 + 1.5, 1, &e) < 0,
	   "session: a begin before that name's last end");
	EQ_STR(e.msg, "the begin of 'tar' at 2026-11-30T00:00:01.500Z is before its last end (2026-11-30T00:00:02.000Z)",
	       "... said");
	OK(markers_check_session(&l, "D", MARK_BEGIN, "tar", T0 + 3, 1, &e) == 0,
	   "session: a begin after it");
	OK(markers_check_session(&l, "D", MARK_POINT, "ful", T0 - 9, 1, &e) == 0,
	   "session: a point marker names no session to check");
	markers_free(&l);
	markers_parse("2026-11-30T00:00:00Z\tbegin\ta\t\n"
		      "2026-11-30T00:00:01Z\tend\ta\t\n", "m", &l);
	OK(markers_check_session(&l, "D", MARK_END, "a", T0 + 5, 0, &e) < 0 &&
	   !strcmp(e.msg, "no session 'a' is open in D (none is open)"),
	   "session: none open, said so");
	markers_free(&l);
}

/* markers_check_mark with the collector's held markers (a full disk): a
 * begin held is open, so its end is not refused and lost */
static void test_check_held(void)
{
	char dir[] = "/tmp/perflog-markers-XXXXXX", path[64], *held, *both;
	char *end;
	struct mark_span live = { T0, T0 + 100, 1 };
	struct marker_list l;
	struct perr e;

	if (!mkdtemp(dir)) {
		OK(0, "mkdtemp");
		return;
	}
	OK(markers_append_at(dir, T0 + 1, MARK_BEGIN, "full", "", NULL, 0, &e) == 0,
	   "held: the file's begin");
	held = markers_format(T0 + 2, MARK_BEGIN, "x\ty", "held", NULL, 0);
	end = markers_format(T0 + 3, MARK_END, "full", "held", NULL, 0);
	both = malloc(strlen(held) + strlen(end) + 1);
	strcat(strcpy(both, held), end);
	OK(markers_check_mark(dir, NULL, &live, MARK_END, "x\ty", T0 + 4, 1, &e) < 0,
	   "held: without the held lines the end is refused");
	OK(strstr(e.msg, "(open: full)") != NULL, "... full alone is open there");
	OK(markers_check_mark(dir, held, &live, MARK_END, "x\ty", T0 + 4, 1, &e) == 0,
	   "held: with them, the held begin is open");
	OK(markers_check_mark(dir, both, &live, MARK_END, "full", 0, 0, &e) < 0,
	   "held: an end held closed the file's begin");
	OK(markers_check_mark(dir, both, &live, MARK_POINT, "", T0 - 5, 1, &e) < 0,
	   "held: a point marker's time is checked");
	OK(markers_check_mark(dir, both, &live, MARK_BEGIN, "full", 0, 0, &e) == 0,
	   "held: a begin stamped now needs nothing");
	OK(markers_load(dir, &l, &e) == 0 && l.n == 1, "held: the file untouched");
	markers_free(&l);
	free(held);
	free(end);
	free(both);
	snprintf(path, sizeof(path), "%s/markers.tsv", dir);
	unlink(path);
	rmdir(dir);
}

static void test_append(void)
{
	char dir[] = "/tmp/perflog-markers-XXXXXX";
	struct marker_list l;
	struct perr e;
	int nproc = 8, per = 200, all_ok = 1;

	if (!mkdtemp(dir)) {
		OK(0, "mkdtemp");
		return;
	}
	OK(markers_load(dir, &l, &e) == 0 && l.n == 0, "missing file is empty");
	markers_free(&l);
	for (int p = 0; p < nproc; p++) {
		pid_t pid = fork();

		if (pid == 0) {
			for (int i = 0; i < per; i++) {
				char text[64];
				const char *ex[] = { "proc=x" };

				snprintf(text, sizeof(text), "p%d\tm%d\nline2", p, i);
				if (markers_append(dir, i % 3 == 0 ? MARK_BEGIN :
						   i % 3 == 1 ? MARK_POINT : MARK_END,
						   "s", text, ex, 1, &e) < 0)
					_exit(1);
			}
			_exit(0);
		}
	}
	for (int p = 0; p < nproc; p++) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			all_ok = 0;
	}
	OK(all_ok, "8 processes appended 200 markers each");
	OK(markers_load(dir, &l, &e) == 0, "load");
	EQ_INT(l.n, nproc * per, "every line parses: 1600 markers");
	EQ_INT(l.bad_lines, 0, "no torn or interleaved line");
	{
		int seen[8][200] = { { 0 } }, dup = 0;

		for (size_t i = 0; i < l.n; i++) {
			int p, m;

			if (sscanf(l.m[i].text, "p%d\tm%d\nline2", &p, &m) == 2 &&
			    p >= 0 && p < 8 && m >= 0 && m < 200 &&
			    !strcmp(marker_get(&l.m[i], "proc"), "x"))
				dup += seen[p][m]++;
			else
				dup++;
		}
		EQ_INT(dup, 0, "each marker exactly once, intact");
	}
	markers_free(&l);
	OK(markers_append("/nonexistent/dir", MARK_POINT, "", "x", NULL, 0, &e) < 0 &&
	   strstr(e.msg, "/nonexistent/dir/markers.tsv"),
	   "append to a missing dir names the file");
	if (rmtree(dir) != 0)
		printf("# could not remove %s\n", dir);
}

/* Figures beside a marker: written once, read back into the marker,
 * never through a symlink. */
static void test_figures(void)
{
	char dir[] = "/tmp/perflog-figures-XXXXXX", path[128], name[64];
	const char *all[] = { "cmd=a\tb\nc", "client.summaries=200",
			      "client.200.elapsed=0:01:52" };
	const char *inline_[] = { "cmd=a", "figures=figures-job.tsv" };
	struct marker_list l;
	struct perr e;
	FILE *f;

	if (!mkdtemp(dir)) {
		OK(0, "mkdtemp");
		return;
	}
	OK(markers_write_figures(dir, "job", all, 3, name, sizeof(name), &e) == 0,
	   "figures: written");
	EQ_STR(name, "figures-job.tsv", "figures: named for the session");
	OK(markers_write_figures(dir, "job", all, 1, path, sizeof(path), &e) == 0 &&
	   !strcmp(path, "figures-job-2.tsv"), "figures: a second one never overwrites");
	OK(markers_append(dir, MARK_END, "job", "done", inline_, 2, &e) == 0,
	   "figures: the marker names it");
	OK(markers_load(dir, &l, &e) == 0 && l.n == 1, "figures: loaded");
	EQ_STR(marker_get(&l.m[0], "client.200.elapsed"), "0:01:52",
	       "figures: a field only in the file");
	EQ_STR(marker_get(&l.m[0], "cmd"), "a\tb\nc",
	       "figures: the file's value wins, escapes undone");
	EQ_INT(l.bad_lines, 0, "figures: nothing bad");
	markers_free(&l);

	/* a planted symlink is not followed, the line is counted bad */
	snprintf(path, sizeof(path), "%s/figures-evil.tsv", dir);
	if (symlink("/etc/passwd", path) < 0)
		OK(0, "symlink");
	snprintf(path, sizeof(path), "%s/markers.tsv", dir);
	f = fopen(path, "a");
	if (f) {
		fputs("2026-11-30T04:50:12.345Z\tend\tevil\tx\tfigures=figures-evil.tsv\n"
		      "2026-11-30T04:50:13.345Z\tend\tdots\tx\tfigures=../markers.tsv\n", f);
		fclose(f);
	}
	OK(markers_load(dir, &l, &e) == 0 && l.n == 3, "figures: loaded again");
	EQ_INT(l.bad_lines, 2, "figures: a symlink and a path are refused");
	OK(!marker_get(&l.m[1], "root"), "figures: nothing read through the link");
	markers_free(&l);
	if (rmtree(dir) != 0)
		printf("# could not remove %s\n", dir);
}

int main(void)
{
	test_escape();
	test_format_parse();
	test_sessions();
	test_open();
	test_check();
	test_check_held();
	test_append();
	test_figures();
	return done_testing();
}
