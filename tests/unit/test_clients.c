/*
 * test_clients.c - every backup client parser (client/client.h) on every
 * fixture of tests/fixtures/clients/real/ (captured from the programs)
 * and doc/ (from documentation): the normalised figures against what the
 * client printed (read off each .out file by hand, see the comments),
 * no client taking another's output, detection by command name, the
 * marker keys and their reading back, truncated input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../client/client.h"
#include "../../client/netbackup.h"
#include "fixtures.h"
#include "tap.h"


#define U NAN	/* not printed: must stay unknown */

static const struct expect {
	const char *file, *client;
	long summaries;
	double norm[CLN_COUNT];	/* read sent files duration rate errors */
	const char *key, *printed;	/* one own figure, as printed */
} cases[] = {
	/* "processed 30 files, 2.909 MiB in 0:00", "(1.007 MiB stored)" */
	{ "real/restic-text-first.out", "restic", 1,
	  { 2.909 * 1048576, 1.007 * 1048576, 30, 0, U, 0 },
	  "data_added", "2.920 MiB" },
	{ "real/restic-text-incr.out", "restic", 1,
	  { 2.909 * 1048576, 1.682 * 1024, 31, 0, U, 0 },
	  "files_changed", "1" },
	{ "real/restic-text-errors.out", "restic", 1,	/* "error: open ..." */
	  { 2.909 * 1048576, 1.007 * 1048576, 30, 0, U, 1 },
	  "files_new", "30" },
	{ "real/restic-text-big.out", "restic", 1,	/* "3.003 GiB in 0:11" */
	  { 3.003 * 1073741824, 1.007 * 1048576, 31, 11, 3.003 * 1073741824 / 11, 0 },
	  "total_bytes_processed", "3.003 GiB" },
	{ "real/restic-json-first.out", "restic", 1,
	  { 3050012, 3061881, 31, 0.238859026, 3050012 / 0.238859026, 0 },
	  "tree_blobs", "4" },
	{ "real/restic-json-errors.out", "restic", 1,	/* one "error" message */
	  { 3050000, 0, 30, 0.212821448, 3050000 / 0.212821448, 1 },
	  "files_unmodified", "30" },
	{ "real/restic-json-big.out", "restic", 1,
	  { 3224275472.0, 0, 31, 0.226771511, 3224275472.0 / 0.226771511, 0 },
	  "total_bytes_processed", "3224275472" },
	/* "This archive: 3.05 MB 1.06 MB 1.06 MB", "Duration: 0.02 seconds" */
	{ "real/borg-text-first.out", "borg", 1,
	  { 3.05e6, 1.06e6, 31, 0.02, 3.05e6 / 0.02, 0 },
	  "compressed_size", "1.06 MB" },
	{ "real/borg-text-incr.out", "borg", 1,
	  { 3.05e6, 475, 31, 0.01, 3.05e6 / 0.01, 0 },
	  "deduplicated_size", "475 B" },
	{ "real/borg-text-errors.out", "borg", 1,	/* two "[Errno" lines */
	  { 3.05e6, 1.06e6, 30, 0.02, 3.05e6 / 0.02, 2 },
	  "archive", "errors" },
	{ "real/borg-text-lz4big.out", "borg", 1,	/* 3.22 GB, 34.22 kB, 3.78 s */
	  { 3.22e9, 34220, 31, 3.78, 3.22e9 / 3.78, 0 },
	  "all_original_size", "3.23 GB" },
	{ "real/borg-json-first.out", "borg", 1,
	  { 3050516, 1058725, 31, 0.012756, 3050516 / 0.012756, 0 },
	  "original_size", "3050516" },
	{ "real/borg-json-incr.out", "borg", 1,
	  { 3050514, 469, 31, 0.008799, 3050514 / 0.008799, 0 },
	  "deduplicated_size", "469" },
	{ "real/borg-json-errors.out", "borg", 1,
	  { 3050552, 499, 30, 0.006192, 3050552 / 0.006192, 2 },
	  "nfiles", "30" },
	/* "Total transferred file size: 3,050,012 bytes", "Total bytes sent:
	 * 3,052,651", "sent ... received 624 bytes  6,106,550.00 bytes/sec" */
	{ "real/rsync-stats-first.out", "rsync", 1,
	  { 3050012, 3052651, 31, (3052651 + 624) / 6106550.0, 6106550, 0 },
	  "number_of_files", "34 (reg: 31, dir: 3)" },
	{ "real/rsync-stats-incr.out", "rsync", 1,
	  { 200006, 200739, 1, (200739 + 37) / 401552.0, 401552, 0 },
	  "total_file_size", "3,050,018 bytes" },
	{ "real/rsync-stats-human.out", "rsync", 1,	/* -h: "3.05M", 1000-based */
	  { 3.05e6, 3.05e6, 31, (3.05e6 + 624) / 6.11e6, 6.11e6, 0 },
	  "bytes_per_sec", "6.11M bytes/sec" },
	{ "real/rsync-stats-errors.out", "rsync", 1,	/* two "rsync: " lines */
	  { 3050007, 3052604, 31, (3052604 + 625) / 6106458.0, 6106458, 2 },
	  "literal_data", "3,050,000 bytes" },
	/* de_DE: "Total transferred file size: 3.000.081 bytes", "Total
	 * bytes sent: 3.002.616", "... received 608 bytes  6.006.448,00
	 * bytes/sec" (read as 3 bytes, and 0,001 s as 1 s) */
	{ "real/rsync-stats-de.out", "rsync", 1,
	  { 3000081, 3002616, 31, (3002616 + 608) / 6006448.0, 6006448, 0 },
	  "file_list_generation_time", "0,001 seconds" },
	{ "real/rsync-stats-de-human.out", "rsync", 1,	/* "3,00M", "2,00M bytes/sec" */
	  { 3.00e6, 3.00e6, 31, (3.00e6 + 608) / 2.00e6, 2.00e6, 0 },
	  "bytes_per_sec", "2,00M bytes/sec" },
	{ "real/rsync-stats-big.out", "rsync", 1,
	  { 3224275472.0, 3225064548.0, 31, (3225064548.0 + 632) / 339480545.26,
	    339480545.26, 0 },
	  "bytes_sent", "3,225,064,548" },
	/* "Total bytes written: 3082240 (3.0MiB, 258MiB/s)" */
	{ "real/tar-totals-create.out", "tar", 1,
	  { U, 3082240, U, 3082240 / (258 * 1048576.0), 258 * 1048576.0, 0 },
	  "bytes_per_sec", "258MiB/s" },
	{ "real/tar-totals-extract.out", "tar", 1,
	  { 3082240, U, U, 3082240 / (223 * 1048576.0), 223 * 1048576.0, 0 },
	  "bytes_read", "3082240" },
	{ "real/tar-totals-errors.out", "tar", 1,	/* Cannot open, Cannot stat */
	  { U, 3082240, U, 3082240 / (521 * 1048576.0), 521 * 1048576.0, 2 },
	  "size", "3.0MiB" },
	{ "real/tar-totals-big.out", "tar", 1,
	  { U, 3224309760.0, U, 3224309760.0 / (831 * 1048576.0), 831 * 1048576.0, 0 },
	  "bytes_written", "3224309760" },
	{ "real/tar-totals-sparse.out", "tar", 1,
	  { U, 3082240, U, 3082240 / (146 * 1048576.0), 146 * 1048576.0, 0 },
	  "bytes_per_sec", "146MiB/s" },
	/* "FD Bytes Written: 3,050,000 (3.050 MB)", "Rate: 3050.0 KB/s" */
	{ "real/bacula-job.out", "bacula", 1,
	  { 3050000, 3050000, 31, 1, 3050000, 0 },
	  "comm_compression", "65.2% 2.9:1" },
	{ "real/bacula-job-gzip-errors.out", "bacula", 1,	/* GZIP: read unknown */
	  { U, 1057246, 31, 1, 1057200, 1 },
	  "software_compression", "65.2% 2.9:1" },
	{ "doc/bareos-job.txt", "bareos", 1,
	  { 1099511627776.0, 1099511627776.0, 1234567, 3723, 295300500, 3 },
	  "elapsed", "1 hour 2 mins 3 secs" },
	{ "doc/netbackup-bptm-source.txt", "netbackup", 1,
	  { U, U, U, U, U, U }, "full_buffer_delays", "1221273" },
	{ "doc/netbackup-storage.txt", "netbackup", 1,
	  { U, U, U, U, U, U }, "empty_buffer_waits", "29364" },
	/* dsmc through summary.c: "Total number of bytes inspected: 7.31 GB",
	 * "Aggregate data transfer rate: 29,927.27 KB/sec", "00:04:16" */
	{ "sp-full.txt", "dsmc", 1,
	  { 7.31 * 1073741824, 7.31 * 1073741824, 6118, 256, 29927.27 * 1024, 2 },
	  NULL, NULL },
	{ "adsm-perfdata.txt", "dsmc", 4,	/* the last: 50.0 MB, 0:01:52 */
	  { 50.0 * 1048576, 50.0 * 1048576, 5, 112, 1525.81 * 1024, 0 },
	  NULL, NULL },
};

/* An exact-length private copy, so ASan sees any read past the end. */
static long detect_exact(const char *text, size_t len, const struct client_def *forced,
			 struct client_list *l)
{
	char *copy = malloc(len ? len : 1);
	memcpy(copy, text, len);
	memset(l, 0, sizeof(*l));
	long n = client_detect(copy, len, forced, NULL, l);
	free(copy);
	return n;
}

static const char *extra(char **x, size_t n, const char *key)
{
	size_t k = strlen(key);
	for (size_t i = 0; i < n; i++)
		if (!strncmp(x[i], key, k) && x[i][k] == '=')
			return x[i] + k + 1;
	return NULL;
}

static void check_case(const struct expect *c)
{
	size_t len;
	char *t = load(c->file, &len), name[200];
	struct client_list l;
	if (!t) {
		OK(0, c->file);
		return;
	}
	long n = detect_exact(t, len, NULL, &l);
	snprintf(name, sizeof(name), "%s: %ld summaries by %s", c->file,
		 c->summaries, c->client);
	OK(n == c->summaries && l.def && !strcmp(l.def->name, c->client), name);
	size_t nx;
	char **x = client_extras(&l, &nx);
	EQ_STR(x ? x[0] : NULL, (snprintf(name, sizeof(name), "client=%s", c->client), name),
	       "  client= is the first key");
	for (int k = 0; k < CLN_COUNT && n > 0; k++) {
		double got = l.s[l.n - 1].norm[k];
		snprintf(name, sizeof(name), "  %s %s", c->file, client_norm_keys[k]);
		EQ_DBL(got, c->norm[k], isnan(c->norm[k]) ? 0 : fabs(c->norm[k]) * 1e-6 + 1e-6,
		       name);
	}
	if (c->key) {
		char key[96];
		snprintf(key, sizeof(key), "client.%s", c->key);
		snprintf(name, sizeof(name), "  %s %s as printed", c->file, key);
		EQ_STR(extra(x, nx, key), c->printed, name);
	}
	/* the forced client finds the same; every other finds nothing */
	struct client_list o;
	for (size_t i = 0; i < client_count; i++) {
		long m = detect_exact(t, len, &client_table[i], &o);
		int mine = l.def == &client_table[i];
		if (mine ? m != n : m != 0) {
			snprintf(name, sizeof(name), "  %s: --client %s finds %ld",
				 c->file, client_table[i].name, m);
			OK(0, name);
		}
		client_list_free(&o);
	}
	/* every prefix parses without a crash (ASan) and never finds more */
	long worst = 0;
	for (size_t cut = 0; cut < len; cut += 1 + len / 97) {
		long m = detect_exact(t, cut, NULL, &o);
		if (m > worst)
			worst = m;
		client_list_free(&o);
	}
	snprintf(name, sizeof(name), "  %s: prefixes parse, never more summaries", c->file);
	OK(worst <= c->summaries, name);
	client_extras_free(x, nx);
	client_list_free(&l);
	free(t);
}

static void check_commands(void)
{
	static const struct { const char *argv[8]; const char *client; } cmds[] = {
		{ { "restic", "backup", "/data" }, "restic" },
		{ { "/usr/bin/borg", "create", "r::a", "/data" }, "borg" },
		{ { "env", "LC_ALL=C", "nice", "-n", "5", "rsync", "-a" }, "rsync" },
		{ { "sudo", "-u", "backup", "tar", "--totals", "-cf", "x" }, "tar" },
		{ { "ionice", "-c", "3", "bconsole" }, "bacula" },
		{ { "dsmc", "incremental" }, "dsmc" },
		{ { "./backup.sh" }, NULL },
		{ { "nice" }, NULL },
	};
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		const struct client_def *d = client_by_command((char *const *)cmds[i].argv);
		char name[96];
		snprintf(name, sizeof(name), "command %s ... names %s", cmds[i].argv[0],
			 cmds[i].client ? cmds[i].client : "no client");
		EQ_STR(d ? d->name : NULL, cmds[i].client, name);
	}
	OK(client_find("borg") == &client_table[2] && !client_find("veeam"),
	   "client_find by name");
}

/* No client's own key is a normalised one (they share client.KEY). */
static void check_keys(void)
{
	int clash = 0;
	for (size_t i = 0; i < client_count; i++)
		for (const struct client_field_def *f = client_table[i].fields;
		     f && f->key; f++)
			for (int k = 0; k < CLN_COUNT; k++)
				if (!strcmp(f->key, client_norm_keys[k]) ||
				    !strcmp(f->key, "derived") ||
				    !strcmp(f->key, "summaries"))
					clash++, printf("# %s: %s\n",
						       client_table[i].name, f->key);
	OK(!clash, "own keys never clash with the normalised ones");
}

/* The marker written and read back gives the same figures. */
static void check_marker(void)
{
	size_t len, nx;
	char *t = load("real/borg-text-lz4big.out", &len);
	struct client_list l = { 0 };
	client_detect(t, len, NULL, NULL, &l);
	char **x = client_extras(&l, &nx);
	char *line = markers_format(1796043789.5, MARK_END, "borg", "exit 0",
				    (const char *const *)x, nx);
	struct marker_list ml = { 0 };
	markers_parse(line, "test", &ml);
	double v[CLN_COUNT];
	unsigned derived = 0;
	const char *name = ml.n ? client_norm_of(&ml.m[0], v, &derived) : NULL;
	EQ_STR(name, "borg", "marker: client name read back");
	EQ_DBL(v[CLN_READ], 3.22e9, 0.5, "marker: read read back");
	EQ_DBL(v[CLN_SENT], 34220, 0.5, "marker: sent read back");
	EQ_DBL(v[CLN_DURATION], 3.78, 0.0005, "marker: duration read back");
	OK(derived == (1u << CLN_RATE), "marker: rate marked derived");
	char *buf = NULL;
	size_t bl = 0;
	FILE *f = open_memstream(&buf, &bl);
	int lines = ml.n ? client_print_own(f, &ml.m[0]) : 0;
	fclose(f);
	OK(lines == 11 && strstr(buf, "This archive: Deduplicated size:") &&
	   strstr(buf, "34.22 kB"), "marker: own figures printed with borg's labels");
	free(buf);
	markers_free(&ml);
	free(line);
	client_extras_free(x, nx);
	client_list_free(&l);
	free(t);
}

/* Several summaries in one session (the seed kit's four file sets, one
 * after another): the session's figures are their sums, its rate the
 * sums' (the last alone gave one set's 5 files). */
static void check_sums(void)
{
	size_t len, nx;
	char *t = load("adsm-perfdata.txt", &len);
	struct client_list l;
	long n = t ? detect_exact(t, len, NULL, &l) : 0;
	char **x = n > 0 ? client_extras(&l, &nx) : NULL;

	OK(n == 4 && x, "four summaries");
	if (x) {
		EQ_STR(extra(x, nx, "client.files"), "2309", "files: 1024+1024+256+5");
		EQ_STR(extra(x, nx, "client.duration"), "273.000",
		       "duration: 39+59+63+112 s");
		EQ_STR(extra(x, nx, "client.sent"), "90188800",
		       "sent: 1035 KB + 10 + 25 + 50 MB");
		EQ_STR(extra(x, nx, "client.rate"), "330362", "rate: the sums'");
		EQ_STR(extra(x, nx, "client.derived"), "rate", "... derived");
		EQ_STR(extra(x, nx, "client.errors"), "0", "errors: none failed");
		client_extras_free(x, nx);
	}
	if (n > 0)
		client_list_free(&l);
	free(t);
}

static void check_bounds(void)
{
	/* a printed figure over 48 characters is cut visibly */
	struct client_summary s;
	client_summary_init(&s);
	static const char longv[] = "123456789 123456789 123456789 123456789 123456789 123";
	client_add(&s, &bacula_fields[1], longv, strlen(longv), 0);
	OK(s.nf == 1 && strlen(s.f[0].printed) == CLIENT_PRINTED_MAX &&
	   !strcmp(s.f[0].printed + CLIENT_PRINTED_MAX - 3, "..."),
	   "a long printed figure ends in ...");
	/* a job name with a control byte cannot break the marker */
	client_add(&s, &bacula_fields[2], "Fu\001ll", 5, 0);
	EQ_STR(s.f[1].printed, "Fu?ll", "control bytes shown as ?");
	/* 40 summaries: all counted, all kept */
	char text[8192];
	size_t k = 0;
	for (int i = 0; i < 40; i++)
		k += (size_t)snprintf(text + k, sizeof(text) - k,
				      "Total bytes written: %d (1.0KiB, 1.0MiB/s)\n", 1024 + i);
	struct client_list l;
	long n = detect_exact(text, k, NULL, &l);
	size_t nx;
	char **x = client_extras(&l, &nx);
	OK(n == 40 && extra(x, nx, "client.40.bytes_written") &&
	   !strcmp(extra(x, nx, "client.sent"), "41740"),
	   "40 tar totals: 40 summaries, normalised as their sum");
	client_extras_free(x, nx);
	client_list_free(&l);
}

/* Localised numbers (issue 21): rsync in de_DE groups with '.' and puts
 * ',' before the decimals; the whole output decides which it is, and a
 * number nothing decides is "unreadable", never a wrong one. */
static void check_localised(void)
{
	static const struct { const char *text, *key, *num; double sent; } c[] = {
		/* no time, rate or speedup line to tell: "3.002" of it
		 * would be 3 bytes */
		{ "Total bytes sent: 3.002.896\nTotal bytes received: 608\n",
		  "client.bytes_sent", "unreadable", NAN },
		{ "Total bytes sent: 3,002,896\nTotal bytes received: 608\n",
		  "client.bytes_sent", "3002896", 3002896 },
		/* the time's ',' tells: '.' groups */
		{ "File list generation time: 0,001 seconds\nTotal bytes sent: 3.002.896\n",
		  "client.file_list_generation_time", "0.001", 3002896 },
		{ "File list generation time: 0.001 seconds\nTotal bytes sent: 3,002,896\n",
		  "client.file_list_generation_time", "0.001", 3002896 },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct client_list l;
		size_t nx;
		char name[160];
		long n = detect_exact(c[i].text, strlen(c[i].text),
				      client_find("rsync"), &l);
		char **x = client_extras(&l, &nx);
		snprintf(name, sizeof(name), "rsync localised %zu: %s.num=%s", i,
			 c[i].key, c[i].num);
		EQ_STR(n == 1 ? extra(x, nx, (snprintf(name + 100, 60, "%s.num", c[i].key), name + 100)) : NULL,
		       c[i].num, name);
		snprintf(name, sizeof(name), "rsync localised %zu: client.sent", i);
		EQ_DBL(n == 1 ? l.s[0].norm[CLN_SENT] : -1, c[i].sent,
		       isnan(c[i].sent) ? 0 : 1e-6, name);
		client_extras_free(x, nx);
		client_list_free(&l);
	}
	size_t len, nx = 0;
	char *t = load("real/rsync-stats-de.out", &len);
	struct client_list l;
	long n = t ? detect_exact(t, len, NULL, &l) : 0;
	char **x = n ? client_extras(&l, &nx) : NULL;
	EQ_STR(x ? extra(x, nx, "client.file_list_generation_time.num") : NULL, "0.001",
	       "rsync de_DE: 0,001 seconds is 0.001 s");
	EQ_STR(x ? extra(x, nx, "client.total_file_size.num") : NULL, "3000081",
	       "rsync de_DE: 3.000.081 bytes");
	client_extras_free(x, nx);
	if (n)
		client_list_free(&l);
	free(t);
}

static void check_numbers(void)
{
	static const struct { const char *s; size_t len; double v; int size; } nums[] = {
		{ "3,050,000 (3.050 MB)", 9, 3050000, 0 },
		{ "1,0", 1, 1, 0 },		/* not a thousands group */
		{ "12,3456", 2, 12, 0 },
		{ "0.001 seconds", 5, 0.001, 0 },
		{ "30 new,", 2, 30, 0 },
		{ "2.920 MiB (", 9, 2.920 * 1048576, 1 },
		{ "3.05 MB", 7, 3.05e6, 1 },
		{ "34.22 kB", 8, 34220, 1 },
		{ "521 B", 5, 521, 1 },
		{ "3.05M bytes", 11, 3.05e6, 1 },	/* rsync -h */
		{ "3.0MiB, 521MiB/s", 6, 3 * 1048576.0, 1 },
		{ "3,050,007 bytes", 15, 3050007, 1 },
	};
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		double v = NAN;
		size_t n = nums[i].size ? client_size(nums[i].s, strlen(nums[i].s), &v)
					: client_number(nums[i].s, strlen(nums[i].s), &v);
		char name[96];
		snprintf(name, sizeof(name), "'%s': %zu characters, %g", nums[i].s,
			 nums[i].len, nums[i].v);
		OK(n == nums[i].len && fabs(v - nums[i].v) < 1e-6, name);
	}
	double v;
	OK(!client_size("12 apples", 9, &v) && !client_number(",5", 2, &v) &&
	   !client_number("", 0, &v), "not numbers, not sizes");
}

static void check_netbackup(void)
{
	static const struct { const char *file; enum netbackup_side side; } nb[] = {
		{ "doc/netbackup-bptm-source.txt", NBU_SOURCE },
		{ "doc/netbackup-storage.txt", NBU_STORAGE },
	};
	for (size_t i = 0; i < 2; i++) {
		size_t len, nx;
		char *t = load(nb[i].file, &len);
		struct client_list l = { 0 };
		client_detect(t, len, NULL, NULL, &l);
		char **x = client_extras(&l, &nx);
		char *line = markers_format(1.0, MARK_END, "nbu", "exit 0",
					    (const char *const *)x, nx);
		struct marker_list ml = { 0 };
		markers_parse(line, "test", &ml);
		struct netbackup_waits w;
		double lost;
		char clause[256];
		OK(ml.n && netbackup_waits_of(&ml.m[0], &w) == 0 &&
		   netbackup_judge(&w, 0, &lost, clause, sizeof(clause)) == nb[i].side,
		   nb[i].side == NBU_SOURCE ? "NetBackup: full-buffer waits: the source"
					    : "NetBackup: empty-buffer waits: the storage");
		if (i == 0)	/* 1221273 delays x 15 ms */
			EQ_DBL(lost, 1221273 * 0.015, 0.001, "NetBackup: time lost");
		else		/* 58033 delays x the default 10 ms */
			EQ_DBL(lost, 58033 * 0.010, 0.001, "NetBackup: default child delay");
		markers_free(&ml);
		free(line);
		client_extras_free(x, nx);
		client_list_free(&l);
		free(t);
	}
	struct netbackup_waits w = { 10, 10, 10, 10, 15, 10 };
	double lost;
	char clause[256];
	OK(netbackup_judge(&w, 0, &lost, clause, sizeof(clause)) == NBU_NONE,
	   "NetBackup: even waits name no side");
	w.full_delays = 1000;	/* 15 s lost in a 1000 s session: < 5% */
	OK(netbackup_judge(&w, 1000, &lost, clause, sizeof(clause)) == NBU_NONE,
	   "NetBackup: waits under 5% of the session name no side");
	/* a count no bptm prints (found by fuzz_clients): the time lost is
	 * shown, not converted past what an integer holds (UBSan aborts) */
	w.full_delays = 1e27;
	OK(netbackup_judge(&w, 1000, &lost, clause, sizeof(clause)) == NBU_SOURCE &&
	   strstr(clause, "1.5e+25 s lost"), "NetBackup: an absurd delay count, no overflow");
}

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_case(&cases[i]);
	check_commands();
	check_keys();
	check_marker();
	check_sums();
	check_bounds();
	check_numbers();
	check_localised();
	check_netbackup();
	return done_testing();
}
