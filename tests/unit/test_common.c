/*
 * test_common.c - the helpers of common/ every room uses: the growable
 * buffer (strbuf.h), the signal flag (sig.h) and the row step as text
 * (util_fmt_step, read back by util_parse_duration).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/sig.h"
#include "../../common/strbuf.h"
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

int main(void)
{
	test_strbuf();
	test_sig();
	test_fmt_step();
	return done_testing();
}
