/*
 * test_instr.c - the Storage Protect instrumentation parser against the
 * seed's text, a two-thread fixture, malformed tables and random bytes.
 * Run from the top of the tree (fixtures are tests/fixtures/clients/).
 */
#include <stdlib.h>
#include <string.h>

#include "../../client/instr.h"
#include "tap.h"

static const struct instr_section *find(const struct instr_thread *t,
					const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->s[i].name, name))
			return &t->s[i];
	return NULL;
}

static void test_seed(void)
{
	struct instr_report r;
	struct perr e = { "" };
	int n = instr_parse_file("tests/fixtures/clients/sp-instrument-detail.txt",
				 &r, &e);

	EQ_INT(n, 1, "seed: one thread");
	if (n != 1) {
		printf("# %s\n", e.msg);
		return;
	}
	const struct instr_thread *t = &r.t[0];
	EQ_INT(t->id, 2571, "seed: thread id");
	EQ_DBL(t->elapsed_s, 746.666, 1e-9, "seed: elapsed");
	EQ_INT(t->n, 14, "seed: 14 sections");
	const struct instr_section *s = find(t, "File I/O");
	OK(s, "seed: File I/O present");
	if (s) {
		EQ_DBL(s->actual_s, 524.380, 1e-9, "File I/O actual");
		EQ_DBL(s->average_ms, 10.8, 1e-9, "File I/O average");
		EQ_DBL(s->frequency, 48346, 0, "File I/O frequency");
		EQ_INT(s->cat, INSTR_CAT_FILE_IO, "File I/O category");
	}
	s = find(t, "BeginTxn Verb");
	OK(s && s->cat == INSTR_CAT_SERVER && s->frequency == 2,
	   "name with a space: BeginTxn Verb");
	s = find(t, "EndTxn Verb");
	EQ_DBL(s ? s->average_ms : -1, 1117.0, 1e-9, "EndTxn average");
	s = find(t, "Other");
	EQ_DBL(s ? s->actual_s : -1, 4.513, 1e-9, "last row read");

	double share;
	EQ_INT(instr_dominant(t, &share), INSTR_CAT_FILE_IO,
	       "seed: File I/O dominates");
	EQ_DBL(share, 524.380 / 746.666, 1e-9, "seed: File I/O share 70%");
	double c[INSTR_CAT_COUNT];
	instr_category_times(t, c);
	EQ_DBL(c[INSTR_CAT_CPU], 0.234 + 128.042, 1e-9, "CPU = Compute + CRC");
	EQ_DBL(c[INSTR_CAT_SERVER], 0.715 + 0.136 + 2.234, 1e-9,
	       "server = txn verbs");
	OK(instr_main_thread(&r) == t, "main thread of one");
}

static void test_two_threads(void)
{
	struct instr_report r;
	struct perr e = { "" };
	int n = instr_parse_file(
		"tests/fixtures/clients/sp-instrument-two-threads.txt", &r, &e);

	EQ_INT(n, 2, "two threads (CRLF, thousands separators)");
	if (n != 2) {
		printf("# %s\n", e.msg);
		return;
	}
	EQ_DBL(r.t[1].elapsed_s, 1300.25, 1e-9, "elapsed with a comma");
	const struct instr_thread *m = instr_main_thread(&r);
	EQ_INT(m ? m->id : 0, 18, "main thread is the longer one");
	double share;
	EQ_INT(instr_dominant(m, &share), INSTR_CAT_NETWORK,
	       "Data Verb dominates");
	EQ_DBL(share, 1000.5 / 1300.25, 1e-9, "Data Verb share");
	EQ_INT(instr_dominant(&r.t[0], NULL), INSTR_CAT_DIRS,
	       "producer thread walks directories");
}

static void test_bad(void)
{
	struct instr_report r;
	struct perr e = { "" };
	const char *hdr = "Section      Actual (sec) Average(msec)  Frequency used\n"
			  "-------------------\n";
	char buf[512];

	snprintf(buf, sizeof(buf), "%sFile I/O  1.0  x  3\n", hdr);
	EQ_INT(instr_parse(buf, strlen(buf), "out.log", &r, &e), -1,
	       "non-numeric cell refused");
	EQ_STR(e.msg, "out.log:3: instrumentation row is not "
	       "'SECTION ACTUAL AVERAGE FREQUENCY'", "error names file and line");
	snprintf(buf, sizeof(buf), "%sFile I/O  -1.0  2  3\n", hdr);
	EQ_INT(instr_parse(buf, strlen(buf), "x", &r, &e), -1,
	       "negative time refused");
	snprintf(buf, sizeof(buf), "%s  1.0  2  3\n", hdr);
	EQ_INT(instr_parse(buf, strlen(buf), "x", &r, &e), -1,
	       "row without a name refused");
	snprintf(buf, sizeof(buf), "%sFile I/O  nan  2  3\n", hdr);
	EQ_INT(instr_parse(buf, strlen(buf), "x", &r, &e), -1, "nan refused");
	const char *none = "Total number of bytes transferred: 1 GB\n";
	EQ_INT(instr_parse(none, strlen(none), "x", &r, &e), 0,
	       "plain client output: no report");
	EQ_INT(instr_parse("", 0, "x", &r, &e), 0, "empty text");
	snprintf(buf, sizeof(buf), "%s", hdr);
	EQ_INT(instr_parse(buf, strlen(buf), "x", &r, &e), 0,
	       "header without rows is no report");
	/* no terminating rule, no trailing newline, no Thread line */
	snprintf(buf, sizeof(buf), "%sFile I/O  1.5  2  3\nData Verb 0.5 1 1", hdr);
	EQ_INT(instr_parse(buf, strlen(buf), "x", &r, &e), 1,
	       "unterminated table still read");
	EQ_DBL(r.t[0].elapsed_s, 2.0, 1e-12, "elapsed defaults to the sum");
}

/* Random bytes and mutations of the seed must never crash (ASan build). */
static void test_garbage(void)
{
	size_t len;
	char *seed = util_read_file(
		"tests/fixtures/clients/sp-instrument-detail.txt", &len);
	struct instr_report r;
	struct perr e;
	int survived = 1;

	srand(5);
	for (int round = 0; seed && round < 3000; round++) {
		char *m = malloc(len);
		memcpy(m, seed, len);
		int flips = 1 + rand() % 20;
		for (int k = 0; k < flips; k++)
			m[rand() % len] = (char)(rand() % 256);
		size_t cut = (size_t)rand() % (len + 1);
		int rc = instr_parse(m, cut, "fuzz", &r, &e);
		if (rc < -1 || rc > INSTR_MAX_THREADS)
			survived = 0;
		free(m);
	}
	free(seed);
	OK(survived, "3000 mutated seeds parsed without crash");
}

int main(void)
{
	test_seed();
	test_two_threads();
	test_bad();
	test_garbage();
	return done_testing();
}
