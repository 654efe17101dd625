/*
 * test_estimate.c - `perflog estimate`'s arithmetic (the seed's own table
 * reproduced), size classes at their boundaries, rates, and the listing
 * parsers on the fixtures in tests/fixtures/listings/ (real dir /s layouts
 * of DOS, NT 4.0, Windows 2000+, a German console, PowerShell), malformed
 * lines with their numbers, huge numbers and garbage.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "../../estimate/estimate.h"
#include "../../estimate/listing.h"
#include "tap.h"

#define FIXTURES "tests/fixtures/listings/"

/* The seed's table: rates 26 173 406 457 KB/sec and its class totals. */
static void test_seed(void)
{
	struct estimate_dist d = {
		.files = { 7908, 5004, 2150, 391 },
		.bytes = { 12060126, 96081375, 324402231, 1010361054 },
	};
	struct estimate_rates r;
	struct estimate_result res;
	const char *in[4] = { "26", "173", "406", "457" };
	const uint64_t bps[4] = { 26624, 177152, 415744, 467968 };
	const uint64_t t[4] = { 452, 542, 780, 2159 };
	char buf[64];
	struct perr e;

	for (int i = 0; i < 4; i++)
		EQ_INT(estimate_parse_rate(in[i], &r.milli_kbps[i], &e), 0, "seed rate parses");
	estimate_compute(&d, &r, &res);
	for (int i = 0; i < 4; i++) {
		EQ_DBL(res.bytes_per_sec[i], (double)bps[i], 0, "seed bytes/sec per class");
		EQ_INT(res.time_sec[i], t[i], "seed time per class");
	}
	EQ_INT(res.total_files, 15453, "seed: 15453 files");
	EQ_INT(res.total_bytes, 1442904786ULL, "seed: total size");
	EQ_INT(res.avg_size, 93373, "seed: average file size 93373");
	EQ_INT(res.avg_class, 2, "seed: average falls in 10KB..<100KB");
	EQ_STR(estimate_format_hms(buf, sizeof(buf), res.est_sec),
	       "1 hours 5 mins 33 sec", "seed: Estimated Time");
	EQ_STR(estimate_format_hms(buf, sizeof(buf), res.est_avg_sec),
	       "0 hours 57 mins 50 sec", "seed: Estimated Time based on average file size");

	/* the table as the seed printed it */
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	EQ_INT(estimate_print_table(f, &d, &res), 0, "table written");
	fclose(f);
	OK(strstr(out, "Total size for all 15453 files: 1442904786.\n") != NULL, "table: total line");
	OK(strstr(out, "Average file size: 93373\n") != NULL, "table: average line");
	OK(strstr(out, "Estimated Time: 1 hours 5 mins 33 sec\n") != NULL, "table: estimate line");
	OK(strstr(out, "Estimated Time based on average file size: 0 hours 57 mins 50 sec\n") != NULL,
	   "table: average estimate line");
	OK(strstr(out, "1KB..< 10KB") && strstr(out, " 96081375 ") && strstr(out, " 177152 ") &&
	   strstr(out, " 542\n"), "table: a class row");
	free(out);

	f = open_memstream(&out, &len);
	EQ_INT(estimate_print_csv(f, &d, &r, &res), 0, "csv written");
	fclose(f);
	EQ_STR(out,
	       "range,min_bytes,max_bytes,files,bytes,kb_per_sec,bytes_per_sec,time_sec\n"
	       "0..< 1KB,0,1023,7908,12060126,26,26624.00,452\n"
	       "1KB..< 10KB,1024,10239,5004,96081375,173,177152.00,542\n"
	       "10KB..< 100KB,10240,102399,2150,324402231,406,415744.00,780\n"
	       "100KB and up,102400,,391,1010361054,457,467968.00,2159\n"
	       "total,,,15453,1442904786,,,3933\n"
	       "average file size,93373,93373,15453,1442904786,406,415744.00,3470\n",
	       "csv of the seed's table");
	free(out);
}

static void test_classes(void)
{
	const struct { uint64_t size; int cls; } c[] = {
		{ 0, 0 }, { 1, 0 }, { 1023, 0 }, { 1024, 1 }, { 10239, 1 },
		{ 10240, 2 }, { 102399, 2 }, { 102400, 3 },
		{ 10485760, 3 }, { UINT64_MAX, 3 },
	};
	char name[64];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(name, sizeof(name), "class of %llu", (unsigned long long)c[i].size);
		EQ_INT(estimate_class(c[i].size), c[i].cls, name);
	}
	uint64_t lo, hi;

	estimate_class_bounds(1, &lo, &hi);
	OK(lo == 1024 && hi == 10239, "bounds of 1KB..<10KB");
	estimate_class_bounds(3, &lo, &hi);
	OK(lo == 102400 && hi == UINT64_MAX, "bounds of 100KB and up");

	struct estimate_dist d;

	memset(&d, 0, sizeof(d));
	EQ_INT(estimate_add(&d, UINT64_MAX - 10), 0, "add a huge file");
	EQ_INT(estimate_add(&d, 10), 0, "add up to exactly 2^64-1");
	EQ_INT(estimate_add(&d, 1), -1, "one more byte overflows");
	OK(d.files[0] == 1 && d.files[3] == 1 && d.bytes[0] == 10, "overflow leaves the distribution unchanged");

	/* no files: no division by zero, zero times */
	struct estimate_result res;
	struct estimate_rates r = { { 1000, 1000, 1000, 1000 } };

	memset(&d, 0, sizeof(d));
	estimate_compute(&d, &r, &res);
	OK(res.avg_size == 0 && res.est_sec == 0 && res.est_avg_sec == 0, "empty distribution");
	/* no rates: distribution only */
	estimate_compute(&d, NULL, &res);
	EQ_INT(res.have_rates, 0, "no rates, no times");

	/* the largest numbers stay exact: 2^64-1 bytes at 0.001 KB/sec */
	d.bytes[3] = UINT64_MAX;
	d.files[3] = 1;
	r.milli_kbps[3] = 1;
	estimate_compute(&d, &r, &res);
	/* floor((2^64-1) * 1000 / 1024) */
	EQ_INT(res.time_sec[3], 18014398509481983999ULL, "exact at 2^64-1 bytes, 0.001 KB/sec");
}

static void test_rates(void)
{
	const struct { const char *s; uint64_t milli; } good[] = {
		{ "26", 26000 }, { "1368.19", 1368190 }, { "0.5", 500 }, { ".25", 250 },
		{ "7.", 7000 }, { "1.0005", 1001 }, { "1.0004", 1000 },
		{ "0.9999", 1000 }, { "1000000000", 1000000000000ULL },
	};
	const char *bad[] = { "", "-5", "+5", "abc", "1e3", "0", "0.0004", "1.2.3",
			      "1000000000.001", "99999999999999999999999", " 5", "5 ", "." };
	struct perr e;
	uint64_t v;
	char name[80];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(name, sizeof(name), "rate '%s'", good[i].s);
		v = 0;
		EQ_INT(estimate_parse_rate(good[i].s, &v, &e), 0, name);
		EQ_INT(v, good[i].milli, name);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(name, sizeof(name), "rate '%s' refused", bad[i]);
		e.msg[0] = '\0';
		EQ_INT(estimate_parse_rate(bad[i], &v, &e), -1, name);
		OK(e.msg[0] != '\0' && strchr(e.msg, '\n') == NULL, "with a one-line message");
	}

	/* a fractional rate: 1 MiB at 1.5 KB/sec = 682.67 s -> 682 */
	struct estimate_dist d = { .files = { 0, 0, 0, 1 }, .bytes = { 0, 0, 0, 1048576 } };
	struct estimate_rates r = { { 1, 1, 1, 1500 } };
	struct estimate_result res;

	estimate_compute(&d, &r, &res);
	EQ_INT(res.time_sec[3], 682, "fractional rate truncates like the seed");
	EQ_DBL(res.bytes_per_sec[3], 1536.0, 1e-9, "1.5 KB/sec is 1536 bytes/sec");

	char buf[64];

	EQ_STR(estimate_format_hms(buf, sizeof(buf), 90061), "25 hours 1 mins 1 sec",
	       "hours are not folded into days");
}

struct expect {
	const char *file;
	uint64_t files[4], bytes[4];
	uint64_t dirs, skipped;
};

static void check_fixture(const struct expect *x)
{
	struct listing_state s;
	struct estimate_dist d;
	struct perr e;
	char path[256], name[256];

	memset(&d, 0, sizeof(d));
	snprintf(path, sizeof(path), FIXTURES "%s", x->file);
	int rc = listing_read(path, &s, &d, &e);

	snprintf(name, sizeof(name), "%s reads", x->file);
	EQ_INT(rc, 0, name);
	if (rc)
		printf("#   %s\n", e.msg);
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "%s: class %d files", x->file, i);
		EQ_INT(d.files[i], x->files[i], name);
		snprintf(name, sizeof(name), "%s: class %d bytes", x->file, i);
		EQ_INT(d.bytes[i], x->bytes[i], name);
	}
	snprintf(name, sizeof(name), "%s: directory entries", x->file);
	EQ_INT(s.dirs, x->dirs, name);
	snprintf(name, sizeof(name), "%s: lines skipped", x->file);
	EQ_INT(s.skipped, x->skipped, name);
}

static void test_fixtures(void)
{
	static const struct expect x[] = {
		{ "dir-nt4.txt", { 2, 5, 2, 2 }, { 1023, 14335, 112639, 10588160 }, 5, 0 },
		{ "dir-xp.txt", { 1, 0, 1, 2 }, { 976, 0, 70132, 7608464 }, 4, 0 },
		{ "dir-de.txt", { 1, 0, 1, 1 }, { 512, 0, 10240, 1131638 }, 2, 0 },
		{ "dir-dos.txt", { 1, 2, 3, 0 }, { 7, 2048, 164858, 0 }, 3, 0 },
		{ "dir-ps.txt", { 1, 1, 0, 1 }, { 1023, 1024, 0, 102400 }, 1, 0 },
		{ "dir-console.txt", { 0, 1, 0, 0 }, { 0, 1024, 0, 0 }, 0, 4 },
		{ "find.txt", { 2, 2, 2, 2 },
		  { 1023, 11263, 112639, 102400 + 18446744073709324290ULL }, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(x) / sizeof(x[0]); i++)
		check_fixture(&x[i]);

	/* the skipped console lines are named with their numbers */
	struct listing_state s;
	struct estimate_dist d;
	struct perr e;

	memset(&d, 0, sizeof(d));
	listing_read(FIXTURES "dir-console.txt", &s, &d, &e);
	EQ_INT(s.nwarn, 4, "console: four warnings kept");
	OK(s.nwarn == 4 && strstr(s.warn[0], "dir-console.txt:1: cannot parse 'C:\\perftest>dir /s'"),
	   "console: line 1 named");
	OK(s.nwarn == 4 && strstr(s.warn[1], "dir-console.txt:7: cannot parse"), "console: line 7 named");
	OK(s.nwarn == 4 && strstr(s.warn[2], "dir-console.txt:8: cannot parse"),
	   "console: an entry without a name is line 8");
	OK(s.nwarn == 4 && strstr(s.warn[3], "dir-console.txt:11:"), "console: line 11 named");
}

static void expect_error(const char *file, const char *want, const char *name)
{
	struct listing_state s;
	struct estimate_dist d;
	struct perr e;
	char path[256];

	memset(&d, 0, sizeof(d));
	e.msg[0] = '\0';
	snprintf(path, sizeof(path), FIXTURES "%s", file);
	EQ_INT(listing_read(path, &s, &d, &e), -1, name);
	OK(strstr(e.msg, want) != NULL, name);
	if (!strstr(e.msg, want))
		printf("#   message: %s\n", e.msg);
}

static void test_errors(void)
{
	expect_error("find-bad.txt", "find-bad.txt:3: cannot parse '12ab /data/bad'",
		     "SIZE PATH: a bad line is fatal and named");
	expect_error("find-nopath.txt", "find-nopath.txt:2: cannot parse '2048'",
		     "SIZE PATH: a size without a path");
	expect_error("find-overflow.txt", "find-overflow.txt:2: size out of range",
		     "SIZE PATH: a size above 2^64-1");
	expect_error("find-total-overflow.txt", "find-total-overflow.txt:2: total size exceeds 2^64",
		     "SIZE PATH: a total above 2^64-1");
	expect_error("garbage.bin", "garbage.bin: not a listing",
		     "binary garbage is not a listing");
	expect_error("no-such-file.txt", "cannot open", "a missing listing");

	/* in-memory cases */
	struct listing_state s;
	struct estimate_dist d;
	struct perr e;
	const char nul[] = "1024 /a\n20\0 /b\n";

	memset(&d, 0, sizeof(d));
	EQ_INT(listing_parse(nul, sizeof(nul) - 1, "mem", &s, &d, &e), -1, "a NUL byte in SIZE PATH");
	OK(strstr(e.msg, "mem:2:") != NULL, "  named by its line");

	const char utf16[] = "\xff\xfe \x00V\x00o\x00";

	FILE *f = fopen("/tmp/perflog-test-estimate-utf16.txt", "w");

	if (f) {
		fwrite(utf16, 1, sizeof(utf16) - 1, f);
		fclose(f);
		memset(&d, 0, sizeof(d));
		EQ_INT(listing_read("/tmp/perflog-test-estimate-utf16.txt", &s, &d, &e), -1,
		       "UTF-16 refused");
		OK(strstr(e.msg, "iconv") != NULL, "  with the way to convert it");
		remove("/tmp/perflog-test-estimate-utf16.txt");
	}

	/* empty input and blank lines: nothing, no error */
	memset(&d, 0, sizeof(d));
	EQ_INT(listing_parse("\n\n  \n", 5, "blank", &s, &d, &e), 0, "blank listing is empty");
	EQ_INT(s.files, 0, "  no files");

	/* dir: a size out of range on an entry is fatal too */
	const char big[] = "08/13/1997  10:15 AM  99,999,999,999,999,999,999 x\n";

	memset(&d, 0, sizeof(d));
	EQ_INT(listing_parse(big, sizeof(big) - 1, "big", &s, &d, &e), -1, "dir: size above 2^64-1");
	OK(strstr(e.msg, "big:1: size out of range") != NULL, "  named by its line");

	/* lines are length-bounded, not NUL-terminated: under ASan a read
	 * past the end is caught (a fuzzer found one in the rule check) */
	static const char *const unterminated[] = {
		"----   --  ", "Mode    LastWriteTime", "-a----  8/13/1997  10:15 AM  1024",
		"Total files listed", "F1K 1 1,024 08-13-97", "08/13/1997 10:15a",
	};

	for (size_t i = 0; i < sizeof(unterminated) / sizeof(unterminated[0]); i++) {
		size_t n = strlen(unterminated[i]);
		char *b = malloc(n);

		memcpy(b, unterminated[i], n);
		memset(&d, 0, sizeof(d));
		listing_init(&s, "bounded");
		s.kind = LISTING_DIR;
		EQ_INT(listing_line(&s, b, n, &d, &e), 0, "unterminated dir line read within its length");
		free(b);
	}

	/* random lines, mostly of the characters the parsers look at: under
	 * ASan nothing may go wrong, and SIZE PATH must accept exactly what an
	 * independent reading of its grammar accepts */
	unsigned seed = 12345;
	char line[200];
	int wrong = 0, accepted = 0;

	for (int round = 0; round < 20000; round++) {
		static const char alpha[] = "0123456789 /.-:,<>aApPmMd\t\r'";
		size_t len;

		seed = seed * 1103515245 + 12345;
		len = (seed >> 16) % sizeof(line);
		for (size_t n = 0; n < len; n++) {
			seed = seed * 1103515245 + 12345;
			unsigned k = (seed >> 16) % 40;

			line[n] = k < sizeof(alpha) - 1 ? alpha[k] : (char)(seed >> 8);
		}
		memset(&d, 0, sizeof(d));
		listing_init(&s, "fuzz");
		s.kind = round & 1 ? LISTING_DIR : LISTING_SIZE_PATH;
		int rc = listing_line(&s, line, len, &d, &e);

		if (s.kind == LISTING_DIR) {
			if (s.files > 1 || (rc < 0 && !strstr(e.msg, "out of range")))
				wrong++;
			continue;
		}
		size_t l = len && line[len - 1] == '\r' ? len - 1 : len, i = 0, b = 0;

		while (b < l && (line[b] == ' ' || line[b] == '\t'))
			b++;
		while (i < l && line[i] >= '0' && line[i] <= '9')
			i++;
		if (b == l) {		/* blank */
			wrong += rc != 0 || s.files != 0;
			continue;
		}
		if (i > 19)
			continue;	/* may overflow: covered above */
		int want = i > 0 && i + 1 < l && (line[i] == ' ' || line[i] == '\t') &&
			!memchr(line, '\0', l);

		accepted += want;
		wrong += want ? (rc != 0 || s.files != 1) : (rc != -1 || s.files != 0);
	}
	EQ_INT(wrong, 0, "20000 random lines: SIZE PATH accepts exactly its grammar");
	OK(accepted > 100, "  and some of them were accepted");
}

int main(void)
{
	test_seed();
	test_classes();
	test_rates();
	test_fixtures();
	test_errors();
	return done_testing();
}
