/*
 * test_common.c - the helpers of common/ every room uses: the growable
 * buffer (strbuf.h), the signal flag (sig.h) and the row step as text
 * (util_fmt_step, read back by util_parse_duration).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/sig.h"
#include "../../common/strbuf.h"
#include "../../common/suggest.h"
#include "../../common/util.h"
#include "tap.h"

static void test_strbuf(void)
{
	struct strbuf b = STRBUF_INIT;
	char *s;
	size_t len = 99;

	EQ_STR(strbuf_str(&b), "", "empty buffer reads as \"\"");
	OK(strbuf_printf(&b, "%s=%d", "a", 1) == 0, "printf into an empty buffer");
	strbuf_puts(&b, ";");
	/* past the first allocation: the printf that does not fit is redone */
	for (int i = 0; i < 100; i++)
		strbuf_printf(&b, "%03d", i);
	EQ_INT(b.len, 4 + 300, "length after many appends");
	OK(!strncmp(b.p, "a=1;000001", 10) && !strcmp(b.p + b.len - 3, "099"),
	   "contents in order");
	EQ_INT(b.p[b.len], '\0', "always NUL-terminated");
	strbuf_add(&b, "x\0y", 3);
	EQ_INT(b.len, 307, "bytes with a NUL appended");
	strbuf_truncate(&b, 3);
	EQ_STR(strbuf_str(&b), "a=1", "truncate");
	s = strbuf_detach(&b, &len);
	EQ_STR(s, "a=1", "detach hands the text over");
	EQ_INT(len, 3, "detach gives the length");
	OK(!b.p && !b.len, "detach leaves the buffer empty");
	free(s);
	s = strbuf_detach(&b, NULL);
	EQ_STR(s, "", "detach of an empty buffer: \"\"");
	free(s);

	/* a limit: an append that would pass it fails, contents unchanged */
	b.max = 8;
	OK(strbuf_puts(&b, "1234567") == 0, "up to max - 1 bytes fit");
	OK(strbuf_printf(&b, "%d", 8) < 0, "one byte more fails");
	EQ_STR(strbuf_str(&b), "1234567", "contents unchanged by the failed append");
	OK(b.failed && strbuf_puts(&b, "") < 0, "failure sticks");
	OK(strbuf_detach(&b, NULL) == NULL, "detach of a failed buffer: NULL");
	strbuf_free(&b);
}

static void test_sig(void)
{
	int sigs[] = { SIGUSR1, SIGUSR2 }, ign = SIGWINCH;
	struct sigaction orig[2], now;

	signal(SIGWINCH, SIG_IGN);
	EQ_INT(sig_catch(sigs, 2, 0, orig), 0, "sig_catch");
	OK(orig[0].sa_handler == SIG_DFL, "the disposition before is saved");
	EQ_INT(sig_catch(&ign, 1, SIG_KEEP_IGNORED, NULL), 0,
	       "sig_catch of an ignored signal");
	sigaction(SIGWINCH, NULL, &now);
	OK(now.sa_handler == SIG_IGN, "SIG_KEEP_IGNORED: it stays ignored");
	EQ_INT(sig_caught(), 0, "no signal yet");
	raise(SIGUSR2);
	EQ_INT(sig_caught(), SIGUSR2, "the signal that came is read back");
	raise(SIGUSR1);
	EQ_INT(sig_caught(), SIGUSR1, "the latest signal wins");
	EQ_INT(sig_take(SIGUSR2), 1, "sig_take: SIGUSR2 came");
	EQ_INT(sig_take(SIGUSR2), 0, "sig_take forgets it");
	sig_clear();
	EQ_INT(sig_caught(), 0, "sig_clear");
	EQ_INT(sig_take(SIGUSR1), 0, "sig_clear forgets each signal");
	sig_restore(sigs, 2, orig);
	sigaction(SIGUSR1, NULL, &now);
	OK(now.sa_handler == SIG_DFL, "sig_restore puts the default back");
}

static void test_fmt_step(void)
{
	static const struct { unsigned long s; const char *wide, *compact; } c[] = {
		{ 1, "1 s", "1s" }, { 59, "59 s", "59s" }, { 60, "1 min", "1m" },
		{ 90, "90 s", "90s" }, { 300, "5 min", "5m" },
		{ 3600, "1 h", "1h" }, { 5400, "90 min", "90m" },
		{ 86400, "24 h", "24h" },
	};
	char b[32];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned long back = 0;

		EQ_STR(util_fmt_step(b, sizeof(b), c[i].s, 0), c[i].wide, c[i].wide);
		EQ_STR(util_fmt_step(b, sizeof(b), c[i].s, 1), c[i].compact,
		       c[i].compact);
		OK(util_parse_duration(b, &back) == 0 && back == c[i].s,
		   "the compact form reads back");
	}
}

/* "did you mean": the distance, and which name is near enough */
static const char *nearest(const char *word, const char *const *names)
{
	struct suggest s;

	suggest_init(&s, word);
	for (; *names; names++)
		suggest_offer(&s, *names);
	return suggest_best(&s);
}

static void test_suggest(void)
{
	static const char *const cmds[] = { "start", "stop", "status",
		"counters", "export", "mark", "run", "workload", "report",
		"estimate", "view", "import", NULL };
	static const char *const opts[] = { "json", "html", "with", "width",
		"height", "shift", NULL };
	const char *g;

	EQ_INT(suggest_distance("kitten", "sitting"), 3, "distance: kitten, sitting");
	EQ_INT(suggest_distance("reprot", "report"), 1, "distance: a swap of neighbours is one");
	EQ_INT(suggest_distance("", "abc"), 3, "distance: from nothing");
	EQ_INT(suggest_distance("JSON", "json"), 0, "distance: case ignored");
	g = nearest("reprot", cmds);
	EQ_STR(g ? g : "(none)", "report", "reprot: report");
	g = nearest("stat", cmds);
	EQ_STR(g ? g : "(none)", "start", "stat: start (one slip), before status (a beginning)");
	g = nearest("htm", opts);
	EQ_STR(g ? g : "(none)", "html", "htm: html");
	g = nearest("widht", opts);
	EQ_STR(g ? g : "(none)", "width", "widht: width, not with");
	OK(!nearest("frobnicate", cmds), "frobnicate: none near");
	OK(!nearest("x", opts), "one letter: no beginning guessed");
	OK(!nearest("json", opts), "the name itself is no suggestion");
	g = nearest("Memory\\Avalable Bytes", (const char *const[]){
		"Memory\\Cache Bytes", "Memory\\Available Bytes", NULL });
	EQ_STR(g ? g : "(none)", "Memory\\Available Bytes", "a counter path one letter off");
}

static int is_dir(const char *base, const char *rel)
{
	char p[512];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* what a failed `start -o NEW/DIR` made is taken back, and only that
 * (t7050 on a full disk) */
static void test_mkdirs_made(void)
{
	char base[] = "/tmp/perflog-mkdirs.XXXXXX", dir[600], made[600], f[600];

	if (!mkdtemp(base)) {
		OK(0, "mkdirs: a scratch directory");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/a/b/c", base);
	OK(util_mkdirs_made(dir, 0755, made, sizeof(made)) == 0, "mkdirs: a/b/c made");
	snprintf(f, sizeof(f), "%s/a", base);
	EQ_STR(made, f, "mkdirs: the topmost one made is a");
	OK(util_mkdirs_made(dir, 0755, made, sizeof(made)) == 0 && !made[0], "mkdirs: again: none made");
	util_rmdirs_made(dir, f);
	OK(!is_dir(base, "a"), "rmdirs: a/b/c and its parents up to a are gone");
	OK(is_dir(base, "."), "rmdirs: the parent that was there stays");
	/* a sibling came to share a/: a/b/c goes, a stays */
	util_mkdirs_made(dir, 0755, made, sizeof(made));
	snprintf(f, sizeof(f), "%s/a/other", base);
	OK(util_mkdirs(f, 0755) == 0, "mkdirs: a/other");
	util_rmdirs_made(dir, made);
	OK(!is_dir(base, "a/b") && is_dir(base, "a/other"), "rmdirs: stops at one that holds something");
	snprintf(dir, sizeof(dir), "%s/x/y/", base);
	OK(util_mkdirs_made(dir, 0755, made, sizeof(made)) == 0 && is_dir(base, "x/y"), "mkdirs: a trailing slash");
	util_rmdirs_made(dir, made);
	OK(!is_dir(base, "x"), "rmdirs: a trailing slash");
	util_rmdirs_made(dir, "");
	util_rmdirs_made(base, "/nowhere");
	OK(is_dir(base, "."), "rmdirs: nothing made, or made elsewhere: nothing removed");
	snprintf(f, sizeof(f), "%s/a/other", base);
	rmdir(f);
	snprintf(f, sizeof(f), "%s/a", base);
	rmdir(f);
	rmdir(base);
}

int main(void)
{
	test_mkdirs_made();
	test_strbuf();
	test_sig();
	test_fmt_step();
	test_suggest();
	return done_testing();
}
