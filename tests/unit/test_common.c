/*
 * test_common.c - the helpers of common/ every room uses: the growable
 * buffer (strbuf.h), the signal flag (sig.h), the row step as text
 * (util_fmt_step, read back by util_parse_duration) and the removal of a
 * tree (rmtree.h: every unit test's scratch root goes that way).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/rmtree.h"
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

/* Make base/rel: a directory (text NULL), a file, or a symlink to text
 * (link set). 0 or -1. */
static int put(const char *base, const char *rel, const char *text, int link)
{
	char p[600];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	if (link)
		return symlink(text, p);
	if (!text)
		return mkdir(p, 0755);
	if (!(f = fopen(p, "w")))
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int exists(const char *base, const char *rel)
{
	char p[600];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	return lstat(p, &st) == 0;
}

static unsigned mode_of(const char *base, const char *rel)
{
	char p[600];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	return stat(p, &st) == 0 ? (unsigned)(st.st_mode & 07777) : 0;
}

/* A tree whose directories its owner may not write (a log set's
 * read-only folder), read or enter, nested, made and removed by a user
 * whom permissions hold: 0 when rmtree took all of it. As root (who
 * passes every check) the child becomes nobody first. */
static int rmtree_unwritable(void)
{
	static const char *const locked[] = { "t/ro/deeper", "t/ro",
		"t/none/inner", "t/none", "t/noexec" };
	char base[] = "/tmp/perflog-rmtree.XXXXXX", t[600];
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (geteuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
			_exit(77);
		if (!mkdtemp(base))
			_exit(2);
		if (put(base, "t", NULL, 0) || put(base, "t/ro", NULL, 0) ||
		    put(base, "t/ro/deeper", NULL, 0) ||
		    put(base, "t/ro/deeper/f", "x", 0) ||
		    put(base, "t/ro/f", "x", 0) || put(base, "t/none", NULL, 0) ||
		    put(base, "t/none/inner", NULL, 0) ||
		    put(base, "t/none/inner/f", "x", 0) ||
		    put(base, "t/noexec", NULL, 0) ||
		    put(base, "t/noexec/f", "x", 0))
			_exit(3);
		for (size_t i = 0; i < sizeof(locked) / sizeof(locked[0]); i++) {
			snprintf(t, sizeof(t), "%s/%s", base, locked[i]);
			chmod(t, i < 2 ? 0555 : i < 4 ? 0 : 0644);
		}
		snprintf(t, sizeof(t), "%s/t", base);
		if (rmtree(t) < 0 || exists(base, "t"))
			_exit(4);
		_exit(rmdir(base) < 0 ? 5 : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* rmtree: the `rm -rf` every unit test ran through a shell, without one */
static void test_rmtree(void)
{
	char base[] = "/tmp/perflog-rmtree.XXXXXX", out[] = "/tmp/perflog-out.XXXXXX";
	char t[600];
	int rc;

	if (!mkdtemp(base) || !mkdtemp(out)) {
		OK(0, "rmtree: scratch directories");
		return;
	}
	/* outside the tree: a directory a link in it points at */
	put(out, "kept", "x", 0);
	chmod(out, 0500);
	OK(put(base, "a dir 'quoted'", NULL, 0) == 0 &&
	   put(base, "a dir 'quoted'/f", "x", 0) == 0 &&
	   put(base, "a dir 'quoted'/sub", NULL, 0) == 0 &&
	   put(base, "a dir 'quoted'/sub/g", "y", 0) == 0 &&
	   put(base, "a dir 'quoted'/out", out, 1) == 0 &&
	   put(base, "a dir 'quoted'/dangling", "/nowhere/at/all", 1) == 0,
	   "rmtree: a tree with a space and quotes in its name, links out");
	snprintf(t, sizeof(t), "%s/a dir 'quoted'/sub", base);
	EQ_INT(rmtree(t), 0, "rmtree: a part of the tree");
	OK(!exists(base, "a dir 'quoted'/sub") && exists(base, "a dir 'quoted'/f"),
	   "rmtree: that part gone, the rest there");
	snprintf(t, sizeof(t), "%s/a dir 'quoted'/f", base);
	OK(rmtree(t) == 0 && !exists(base, "a dir 'quoted'/f"), "rmtree: a file");
	snprintf(t, sizeof(t), "%s/a dir 'quoted'/out", base);
	OK(rmtree(t) == 0 && !exists(base, "a dir 'quoted'/out"),
	   "rmtree: a link to a directory: the link");
	put(base, "a dir 'quoted'/out", out, 1);
	OK(rmtree(base) == 0 && access(base, F_OK) < 0 && errno == ENOENT,
	   "rmtree: the whole tree");
	OK(exists(out, "kept") && mode_of(out, ".") == 0500,
	   "rmtree: what a link pointed at is kept, its mode as it was");
	EQ_INT(rmtree(base), 0, "rmtree: a path not there: 0, as rm -rf");
	rc = rmtree_unwritable();
	if (rc == 77)
		OK(1, "# SKIP rmtree: root could not become nobody");
	else
		EQ_INT(rc, 0, "rmtree: directories not writable, readable or "
		       "enterable by their owner: opened up and removed");
	chmod(out, 0700);
	OK(rmtree(out) == 0 && access(out, F_OK) < 0, "rmtree: the outside directory");
}

int main(void)
{
	test_mkdirs_made();
	test_rmtree();
	test_strbuf();
	test_sig();
	test_fmt_step();
	test_suggest();
	return done_testing();
}
