/*
 * test_summary.c - backup client summaries (client/summary.c) against
 * the seeds' real dsmc output (tests/fixtures/clients/README.md) and against
 * malformed variants that must never crash (every buffer is exactly as
 * long as its text, so ASan catches any read past the end).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../client/summary.h"
#include "fixtures.h"
#include "tap.h"


/* Parse exactly len bytes from a private copy (no NUL after it). */
static long parse_exact(const char *text, size_t len, struct summary_list *l)
{
	char *copy = malloc(len ? len : 1);
	if (!copy)
		return -1;
	memcpy(copy, text, len);
	memset(l, 0, sizeof(*l));
	long n = summary_parse(copy, len, l);
	free(copy);
	return n;
}

#define FIG(s, fld) ((s)->f[fld])

static void check_adsm(const struct summary_list *l, const char *what)
{
	char name[128];
	snprintf(name, sizeof(name), "%s: four summaries (perf.bat ran dsmc 4 times)", what);
	EQ_INT(l->n, 4, name);
	if (l->n != 4)
		return;
	const struct summary *a = &l->s[0], *d = &l->s[3];
	snprintf(name, sizeof(name), "%s: objects inspected 1,024", what);
	OK(FIG(a, SUM_OBJECTS_INSPECTED).present &&
	   FIG(a, SUM_OBJECTS_INSPECTED).value == 1024 &&
	   !strcmp(FIG(a, SUM_OBJECTS_INSPECTED).printed, "1,024"), name);
	snprintf(name, sizeof(name), "%s: backed up 1,026", what);
	EQ_DBL(FIG(a, SUM_OBJECTS_BACKED_UP).value, 1026, 0, name);
	snprintf(name, sizeof(name), "%s: bytes as printed", what);
	EQ_STR(FIG(a, SUM_BYTES_TRANSFERRED).printed, "1,035.0 KB", name);
	snprintf(name, sizeof(name), "%s: bytes as number", what);
	EQ_DBL(FIG(a, SUM_BYTES_TRANSFERRED).value, 1035.0 * 1024, 1e-6, name);
	snprintf(name, sizeof(name), "%s: transfer time", what);
	OK(FIG(a, SUM_TRANSFER_TIME).value == 0.37 &&
	   !strcmp(FIG(a, SUM_TRANSFER_TIME).printed, "0.37 sec"), name);
	snprintf(name, sizeof(name), "%s: ADSM data transfer rate", what);
	OK(fabs(FIG(a, SUM_TRANSFER_RATE).value - 2797.29) < 1e-9 &&
	   !strcmp(FIG(a, SUM_TRANSFER_RATE).printed, "2,797.29 KB/sec"), name);
	snprintf(name, sizeof(name), "%s: average file size without unit", what);
	OK(FIG(a, SUM_AVERAGE_FILE_SIZE).value == 1028 &&
	   !strcmp(FIG(a, SUM_AVERAGE_FILE_SIZE).printed, "1,028"), name);
	snprintf(name, sizeof(name), "%s: elapsed 0:00:39", what);
	OK(FIG(a, SUM_ELAPSED).value == 39 &&
	   !strcmp(FIG(a, SUM_ELAPSED).printed, "0:00:39"), name);
	snprintf(name, sizeof(name), "%s: no network rate in ADSM", what);
	OK(!FIG(a, SUM_NETWORK_RATE).present, name);
	snprintf(name, sizeof(name), "%s: fourth: 50.0 MB in 0:01:52", what);
	OK(FIG(d, SUM_BYTES_TRANSFERRED).value == 50.0 * 1048576 &&
	   FIG(d, SUM_ELAPSED).value == 112 &&
	   !strcmp(FIG(d, SUM_AVERAGE_FILE_SIZE).printed, "8,533.3 KB"), name);
	/* the seed's SUMMARY table is KB transferred / elapsed seconds */
	snprintf(name, sizeof(name), "%s: 10MB set 174 kb/sec as the seed's table", what);
	EQ_DBL(FIG(&l->s[1], SUM_BYTES_TRANSFERRED).value / 1024 /
	       FIG(&l->s[1], SUM_ELAPSED).value, 173.6, 0.1, name);
}

static void test_adsm(void)
{
	size_t len;
	char *t = load("adsm-perfdata.txt", &len);
	struct summary_list l;
	OK(t && parse_exact(t, len, &l) == 4, "adsm: parsed");
	check_adsm(&l, "adsm");
	summary_list_free(&l);

	/* the same with CRLF line ends, as perf.bat wrote it on NT */
	char *crlf = malloc(2 * len + 1);
	size_t k = 0;
	for (size_t i = 0; t && i < len; i++) {
		if (t[i] == '\n')
			crlf[k++] = '\r';
		crlf[k++] = t[i];
	}
	parse_exact(crlf, k, &l);
	check_adsm(&l, "adsm crlf");
	summary_list_free(&l);
	free(crlf);
	free(t);

	t = load("adsm-perfdata-joined.txt", &len);
	OK(t && parse_exact(t, len, &l) == 4, "joined: parsed");
	check_adsm(&l, "joined (seed verbatim)");
	summary_list_free(&l);
	free(t);
}

static void test_sp(void)
{
	size_t len;
	char *t = load("sp-instrumentation.txt", &len);
	struct summary_list l;
	EQ_INT(t ? parse_exact(t, len, &l) : -1, 1, "sp seed: one summary");
	if (l.n == 1) {
		const struct summary *s = &l.s[0];
		EQ_STR(FIG(s, SUM_BYTES_TRANSFERRED).printed, "11.80 GB",
		       "sp seed: bytes as printed");
		EQ_DBL(FIG(s, SUM_BYTES_TRANSFERRED).value,
		       11.80 * 1073741824.0, 1, "sp seed: bytes as number");
		EQ_STR(FIG(s, SUM_SERVERFREE_BYTES).printed, "0  B",
		       "sp seed: '0  B' kept as printed");
		EQ_DBL(FIG(s, SUM_SERVERFREE_BYTES).value, 0, 0,
		       "sp seed: 0 bytes");
		EQ_DBL(FIG(s, SUM_NETWORK_RATE).value, 57294.91, 1e-6,
		       "sp seed: network rate");
		EQ_DBL(FIG(s, SUM_AGGREGATE_RATE).value, 16542.69, 1e-6,
		       "sp seed: aggregate rate");
		OK(!FIG(s, SUM_TRANSFER_RATE).present,
		   "sp seed: 'Network data transfer rate' is not ADSM's rate");
		EQ_DBL(FIG(s, SUM_ELAPSED).value, 12 * 60 + 28, 0,
		       "sp seed: 00:12:28");
		EQ_DBL(FIG(s, SUM_TRANSFER_TIME).value, 216.01, 1e-9,
		       "sp seed: transfer time");
		EQ_STR(FIG(s, SUM_AVERAGE_FILE_SIZE).printed, "11.66 GB",
		       "sp seed: average file size");
	}
	summary_list_free(&l);
	free(t);

	t = load("sp-full.txt", &len);
	EQ_INT(t ? parse_exact(t, len, &l) : -1, 1, "sp full: one summary");
	if (l.n == 1) {
		const struct summary *s = &l.s[0];
		EQ_DBL(FIG(s, SUM_OBJECTS_FAILED).value, 2, 0, "sp full: failed");
		EQ_DBL(FIG(s, SUM_OBJECTS_INSPECTED).value, 6118, 0,
		       "sp full: inspected 6,118");
		EQ_STR(FIG(s, SUM_BYTES_INSPECTED).printed, "7.31 GB",
		       "sp full: bytes inspected");
		EQ_STR(FIG(s, SUM_ELAPSED).printed, "00:04:16",
		       "sp full: elapsed as printed");
		EQ_DBL(FIG(s, SUM_ELAPSED).value, 256, 0, "sp full: 256 s");
		EQ_STR(FIG(s, SUM_COMPRESSED_BY).printed, "0%",
		       "sp full: compressed by");
		EQ_STR(FIG(s, SUM_REDUCTION_RATIO).printed, "0.00%",
		       "sp full: reduction ratio");
		EQ_INT(s->nfigures, 18, "sp full: every figure found");
	}
	/* every prefix of the text, exactly sized: truncation never
	 * crashes or reads past the end */
	int prefix_ok = 1;
	for (size_t n = 0; t && n <= len; n++) {
		struct summary_list p;
		if (parse_exact(t, n, &p) < 0)
			prefix_ok = 0;
		summary_list_free(&p);
	}
	OK(prefix_ok, "sp full: every truncated prefix parses");
	summary_list_free(&l);
	free(t);
}

static int has(char **x, size_t n, const char *want)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(x[i], want))
			return 1;
	return 0;
}

/* A marker as markers_parse would give it, from "key=value" extras. */
static void fill_marker(struct marker *m, struct marker_extra *ex, char **x,
			size_t n)
{
	memset(m, 0, sizeof(*m));
	m->kind = MARK_END;
	for (size_t i = 0; i < n; i++) {
		char *eq = strchr(x[i], '=');
		*eq = '\0';
		ex[i].key = x[i];
		ex[i].value = eq + 1;
	}
	m->extra = ex;
	m->nextra = n;
}

static void test_extras_and_print(void)
{
	size_t len, n;
	char *t = load("sp-full.txt", &len);
	struct summary_list l;
	parse_exact(t, len, &l);
	char **x = summary_extras(&l, &n);
	OK(x && has(x, n, "client.summaries=1"), "extras: summaries=1");
	OK(x && has(x, n, "client.bytes_transferred=7.31 GB"),
	   "extras: bytes as printed");
	OK(x && has(x, n, "client.bytes_transferred.num=7849052733.44"),
	   "extras: bytes as number");
	OK(x && has(x, n, "client.elapsed=00:04:16") &&
	   has(x, n, "client.elapsed.num=256"), "extras: elapsed");
	OK(x && has(x, n, "client.network_rate.num=111532.44"),
	   "extras: network rate KB/sec");
	struct marker m;
	struct marker_extra ex[128];
	char buf[4096] = "";
	if (x && n <= 128) {
		fill_marker(&m, ex, x, n);
		FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
		int lines = summary_print_session(f, &m);
		fclose(f);
		EQ_INT(lines, 18, "print_session: one line a figure");
		OK(strstr(buf, "Total number of bytes transferred:") &&
		   strstr(buf, "7.31 GB\n") && strstr(buf, "00:04:16\n"),
		   "print_session: as the client printed them");
	}
	summary_extras_free(x, n);
	summary_list_free(&l);
	free(t);

	t = load("adsm-perfdata.txt", &len);
	parse_exact(t, len, &l);
	x = summary_extras(&l, &n);
	OK(x && has(x, n, "client.summaries=4") &&
	   has(x, n, "client.1.elapsed=0:00:39") &&
	   has(x, n, "client.4.elapsed=0:01:52") &&
	   has(x, n, "client.elapsed=0:01:52"),
	   "extras: all four kept, the last one plain");
	if (x && n <= 128) {
		fill_marker(&m, ex, x, n);
		FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
		summary_print_session(f, &m);
		fclose(f);
		OK(strstr(buf, "summary 1 of 4") && strstr(buf, "summary 4 of 4") &&
		   strstr(buf, "1,035.0 KB") && strstr(buf, "50.0 MB"),
		   "print_session: every summary of a session");
	}
	summary_extras_free(x, n);
	summary_list_free(&l);
	free(t);

	memset(&m, 0, sizeof(m));
	EQ_INT(summary_print_session(stdout, &m), 0,
	       "print_session: nothing for a plain marker");
	memset(&l, 0, sizeof(l));
	OK(summary_extras(&l, &n) == NULL && n == 0, "extras: none for none");
}

static void test_set(void)
{
	struct summary s;
	memset(&s, 0, sizeof(s));
	summary_set(&s, SUM_OBJECTS_INSPECTED, 1024);
	summary_set(&s, SUM_BYTES_TRANSFERRED, 1035.0 * 1024);
	summary_set(&s, SUM_TRANSFER_TIME, 0.37);
	summary_set(&s, SUM_TRANSFER_RATE, 2797.29);
	summary_set(&s, SUM_AVERAGE_FILE_SIZE, 1028);
	summary_set(&s, SUM_ELAPSED, 39);
	EQ_STR(s.f[SUM_OBJECTS_INSPECTED].printed, "1,024", "set: count");
	EQ_STR(s.f[SUM_BYTES_TRANSFERRED].printed, "1,035.0 KB", "set: KB");
	EQ_STR(s.f[SUM_TRANSFER_TIME].printed, "0.37 sec", "set: sec");
	EQ_STR(s.f[SUM_TRANSFER_RATE].printed, "2,797.29 KB/sec", "set: rate");
	EQ_STR(s.f[SUM_AVERAGE_FILE_SIZE].printed, "1,028", "set: avg bytes");
	EQ_STR(s.f[SUM_ELAPSED].printed, "0:00:39", "set: H:MM:SS");
	summary_set(&s, SUM_BYTES_TRANSFERRED, 50.0 * 1048576);
	EQ_STR(s.f[SUM_BYTES_TRANSFERRED].printed, "50.0 MB", "set: MB");
	summary_set(&s, SUM_AVERAGE_FILE_SIZE, 8533.3 * 1024);
	EQ_STR(s.f[SUM_AVERAGE_FILE_SIZE].printed, "8,533.3 KB",
	       "set: avg KB");
	EQ_INT(s.nfigures, 6, "set: figures counted once");
	/* round trip: what summary_print writes parses back the same */
	char buf[2048];
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	summary_print(f, &s);
	long pos = ftell(f);
	fclose(f);
	struct summary_list l;
	OK(parse_exact(buf, (size_t)pos, &l) == 1 &&
	   l.s[0].nfigures == 6 &&
	   !strcmp(l.s[0].f[SUM_BYTES_TRANSFERRED].printed, "50.0 MB") &&
	   l.s[0].f[SUM_ELAPSED].value == 39, "set: printed summary reads back");
	summary_list_free(&l);
}

struct bad {
	const char *text;
	int field;		/* -1 = nothing expected */
	double value;
	const char *why;
};

static void test_malformed(void)
{
	static const struct bad cases[] = {
		{ "Total number of bytes transferred:", -1, 0, "label, no value" },
		{ "Total number of bytes transferred", -1, 0, "label, no colon" },
		{ "Total number of bytes transferred: lots", -1, 0, "garbage value" },
		{ "Total number of bytes transferred: 1,035.0", SUM_BYTES_TRANSFERRED, 1035, "unit missing: bytes" },
		{ "Data transfer time: 0.37", SUM_TRANSFER_TIME, 0.37, "unit missing: sec" },
		{ "Data transfer time: 5 GB", -1, 0, "wrong unit" },
		{ "Data transfer time: 0,37 sec", SUM_TRANSFER_TIME, 0.37, "decimal comma" },
		{ "Total number of bytes transferred: 1.024,5 KB", SUM_BYTES_TRANSFERRED, 1024.5 * 1024, "European grouping" },
		{ "Total number of bytes transferred: 1,0", SUM_BYTES_TRANSFERRED, 1.0, "truncated number" },
		{ "Elapsed processing time: 0:99:00", -1, 0, "minutes >= 60" },
		{ "Elapsed processing time: ::", -1, 0, "colons only" },
		{ "Elapsed processing time: 1:2:3:4", -1, 0, "four parts" },
		{ "Elapsed processing time: 12:05", SUM_ELAPSED, 725, "MM:SS" },
		{ "Total number of objects inspected: -5", -1, 0, "negative" },
		{ "Total number of objects inspected: 5 GB", -1, 0, "unit on a count" },
		{ "Total number of bytes transferred: 99999999999999999999999999999999999999 PB", SUM_BYTES_TRANSFERRED, 1e38 * 1125899906842624.0, "huge number" },
		{ "Total number of bytes transferred: 99999999999999999999999999999999999999999999999999 GB", -1, 0, "absurdly long number" },
		{ "Objects compressed by: 52.5%", SUM_COMPRESSED_BY, 52.5, "percent" },
		{ "xTotal number of objects inspected: 5", -1, 0, "label inside a word" },
		{ "TOTAL NUMBER OF OBJECTS INSPECTED:\t7", SUM_OBJECTS_INSPECTED, 7, "case and tab" },
		{ "Total number of objects inspected:\n5", -1, 0, "value on the next line" },
		{ "Network data transfer rate: 1.5 MB/sec", SUM_NETWORK_RATE, 1536, "MB/sec" },
		{ "Data transfer rate: ...", -1, 0, "dots" },
		{ "Data transfer rate: ,.,", -1, 0, "separators only" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct summary_list l;
		long n = parse_exact(cases[i].text, strlen(cases[i].text), &l);
		char name[160];
		snprintf(name, sizeof(name), "malformed: %s", cases[i].why);
		if (cases[i].field < 0)
			OK(n == 0, name);
		else
			OK(n == 1 && l.s[0].f[cases[i].field].present &&
			   fabs(l.s[0].f[cases[i].field].value -
				cases[i].value) <=
				   1e-9 * fabs(cases[i].value) + 1e-9,
			   name);
		summary_list_free(&l);
	}
	/* garbage: pseudo-random bytes with labels sprinkled in */
	size_t len = 1 << 18;
	char *g = malloc(len);
	unsigned long long x = 88172645463325252ULL;
	for (size_t i = 0; i < len; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		g[i] = (char)(x & 0xff);
		if ((x >> 20) % 5000 == 0 && i + 80 < len) {
			const char *lab = summary_fields[(x >> 8) % SUM_NFIELDS].label;
			memcpy(g + i, lab, strlen(lab));
			i += strlen(lab);
			g[i] = ':';
		}
	}
	struct summary_list l;
	OK(parse_exact(g, len, &l) >= 0, "garbage: 256 KiB of noise survived");
	summary_list_free(&l);
	free(g);
	double v;
	OK(summary_parse_value("7.31 GB", 7, SUMU_BYTES, &v) == 0 &&
	   fabs(v - 7.31 * 1073741824.0) < 1, "parse_value: 7.31 GB");
	OK(summary_parse_value("", 0, SUMU_HMS, &v) < 0, "parse_value: empty");
}

/* Localised numbers (issue 21): NUMBERFORMAT 5 printed "objects
 * inspected: 12.345", read as 12 files; the whole summary decides the
 * decimal point, a count has none, and what cannot be decided is
 * "unreadable", never a wrong number. */
static void test_numberformat(void)
{
	static const char *const files[] = { "sp-numberformat5.txt",
		"sp-numberformat2.txt", "sp-numberformat6.txt" };
	for (size_t i = 0; i < 3; i++) {
		size_t len;
		char *t = load(files[i], &len), name[128];
		struct summary_list l = { 0 };
		long n = t ? summary_parse(t, len, &l) : 0;
		const struct summary *s = n == 1 ? &l.s[0] : NULL;

		snprintf(name, sizeof(name), "%s: one summary", files[i]);
		OK(n == 1, name);
		snprintf(name, sizeof(name), "%s: 12345 objects inspected", files[i]);
		EQ_DBL(s ? s->f[SUM_OBJECTS_INSPECTED].value : NAN, 12345, 0, name);
		snprintf(name, sizeof(name), "%s: 6118 backed up", files[i]);
		EQ_DBL(s ? s->f[SUM_OBJECTS_BACKED_UP].value : NAN, 6118, 0, name);
		snprintf(name, sizeof(name), "%s: 7,31 GB", files[i]);
		EQ_DBL(s ? s->f[SUM_BYTES_TRANSFERRED].value : NAN,
		       7.31 * 1073741824.0, 1, name);
		snprintf(name, sizeof(name), "%s: 68,76 sec", files[i]);
		EQ_DBL(s ? s->f[SUM_TRANSFER_TIME].value : NAN, 68.76, 1e-9, name);
		snprintf(name, sizeof(name), "%s: 111532,44 KB/sec", files[i]);
		EQ_DBL(s ? s->f[SUM_NETWORK_RATE].value : NAN, 111532.44, 1e-6, name);
		summary_list_free(&l);
		free(t);
	}
	/* under NUMBERFORMAT 5 "1.035 KB" is 1035 KB (the summary's decimal
	 * point is ','); a count that is not in groups of three has no
	 * reading: kept as printed, "unreadable" */
	static const char mixed[] =
		"Total number of objects inspected: 12.3456\n"
		"Total number of bytes transferred: 1.035 KB\n"
		"Data transfer time: 68,76 sec\n";
	struct summary_list l = { 0 };
	size_t nx;
	long n = summary_parse(mixed, sizeof(mixed) - 1, &l);
	char **x = summary_extras(&l, &nx);
	int un = 0, kept = 0;
	for (size_t i = 0; i < nx; i++) {
		un |= !strcmp(x[i], "client.objects_inspected.num=unreadable");
		kept |= !strcmp(x[i], "client.objects_inspected=12.3456");
	}
	OK(n == 1 && un && kept, "a count of 12.3456: kept as printed, unreadable");
	OK(n == 1 && isnan(l.s[0].f[SUM_OBJECTS_INSPECTED].value),
	   "... and no number for it (not 12)");
	EQ_DBL(n == 1 ? l.s[0].f[SUM_BYTES_TRANSFERRED].value : NAN, 1035 * 1024.0, 0,
	       "1.035 KB among decimal commas: 1035 KB");
	summary_extras_free(x, nx);
	summary_list_free(&l);
}

int main(void)
{
	test_adsm();
	test_sp();
	test_extras_and_print();
	test_set();
	test_malformed();
	test_numberformat();
	return done_testing();
}
