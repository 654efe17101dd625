/*
 * test_journal.c - the log set's journal (logs/journal.h): a writer killed
 * after its first flush leaves its later samples only in the journal, and
 * the reader (logset_open, logset_fetch, logset_last) replays them into
 * the very rows the writer would have written; a journal cut short or
 * ending in garbage is replayed up to the damage, one of another layout
 * not at all (the set reads as its RRD files hold it); a cut drops only
 * the samples the files had one cut earlier; a killed set settled
 * (logset_settle) holds the replayed rows in its RRD file itself.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../logs/journal.h"
#include "../../logs/logset.h"
#include "tap.h"

static char scratch[] = "/tmp/perflog-journal-XXXXXX";
static time_t t0;

#define NSAMPLES 8

static double value_a(int i)
{
	return 10 + i;
}

/* A set NAME of System(2 counters) at 1 s: the first sample flushed to
 * the RRD file, the next ones held (a batch of 100), then the writer dies
 * as a kill -9 would leave it (a child that _exits). */
static int killed_set(const char *name)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		struct logset_options opt = {
			.parent = scratch, .name = name, .interval = 1,
			.retention = 3600, .start = t0, .batch = 100,
		};
		struct logset_writer *w;
		struct instance_values inst[1];
		struct sample s = { .inst = inst, .cap = 1, .n = 1 };
		int idx[2] = { 0, 1 };
		struct perr e;

		if (logset_create(&opt, &w, &e) < 0 ||
		    logset_add_instance(w, OBJ_SYSTEM, "", idx, 2, &e) < 0)
			_exit(2);
		inst[0].object = OBJ_SYSTEM;
		inst[0].instance[0] = '\0';
		for (int i = 0; i < NSAMPLES; i++) {
			inst[0].v[0] = value_a(i);
			inst[0].v[1] = i == 3 ? NAN : 100 + i;
			if (logset_write_sample(w, (double)t0 + i + 1.004, &s,
						&e) < 0)
				_exit(3);
			if (i == 0 && logset_flush(w, &e) < 0)
				_exit(4);
		}
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st)) {
		printf("# writer of %s failed\n", name);
		return -1;
	}
	return 0;
}

static void path_of(char *buf, size_t n, const char *name, const char *file)
{
	if (file)
		snprintf(buf, n, "%s/%s/%s", scratch, name, file);
	else
		snprintf(buf, n, "%s/%s", scratch, name);
}

/* Rows (t0, t0 + NSAMPLES] of both counters; the set's last row. */
static int fetch(const char *name, struct logset_series *s, time_t *last)
{
	char dir[512];
	struct logset *ls;
	struct perr e;
	size_t cols[2] = { 0, 1 };
	int rc;

	path_of(dir, sizeof(dir), name, NULL);
	if (logset_open(dir, &ls, &e) < 0) {
		printf("# %s\n", e.msg);
		return -1;
	}
	*last = logset_last(ls);
	rc = logset_fetch(ls, cols, 2, t0 + 1, t0 + NSAMPLES, "AVERAGE", 1, s,
			  &e);
	if (rc < 0)
		printf("# %s\n", e.msg);
	logset_close(ls);
	return rc;
}

static double at(const struct logset_series *s, time_t t, size_t c)
{
	if (t < s->first || (size_t)(t - s->first) >= s->rows)
		return -1e300;
	return s->values[(size_t)(t - s->first) * s->ncols + c];
}

/* Rows known in column 0, in order from t0 + 1, before the first unknown. */
static int known_rows(const struct logset_series *s)
{
	int n = 0;

	while (n < NSAMPLES && isfinite(at(s, t0 + 1 + n, 0)))
		n++;
	return n;
}

static long file_size(const char *name, const char *file)
{
	char p[600];
	struct stat st;

	path_of(p, sizeof(p), name, file);
	return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

static void replayed(void)
{
	struct logset_series s;
	time_t last;
	long size;

	if (killed_set("killed") < 0 || fetch("killed", &s, &last) < 0) {
		OK(0, "killed: written and fetched");
		return;
	}
	/* sample i is read at t0 + i + 1.004: the rows ending at t0 + 1 ..
	 * t0 + NSAMPLES are whole */
	EQ_INT(known_rows(&s), NSAMPLES,
	       "kill: every whole row the writer sampled reads back");
	EQ_DBL(at(&s, t0 + 1, 0), value_a(0), 1e-6,
	       "the first row (in the RRD file) is there");
	EQ_DBL(at(&s, t0 + 5, 0), 0.004 * value_a(3) + 0.996 * value_a(4), 1e-6,
	       "a replayed row is the writer's time-weighted average");
	EQ_DBL(at(&s, t0 + 4, 1), NAN, 0,
	       "an unknown value replays unknown (never 0)");
	EQ_DBL(at(&s, t0 + 5, 1), 104, 1e-6,
	       "the next row of that counter: its known part");
	EQ_INT(last, t0 + NSAMPLES, "logset_last reaches the journal's last row");
	logset_series_free(&s);
	/* the layout: header, the file announced, one record a sample */
	size = JOURNAL_HEADER + (JOURNAL_FRAME + 16 + (long)strlen("System.rrd")) +
	       NSAMPLES * (JOURNAL_FRAME + 16 + 2 * 8);
	EQ_INT(file_size("killed", JOURNAL_NAME), size,
	       "one record a sample: 12 + 16 + 8 bytes a value");
}

/* Copy set FROM to TO (cp -a) and change its journal with fn. */
static int copy_set(const char *from, const char *to)
{
	char cmd[1200];

	snprintf(cmd, sizeof(cmd), "cp -a '%s/%s' '%s/%s'", scratch, from,
		 scratch, to);
	return system(cmd) == 0 ? 0 : -1;
}

static int rewrite(const char *name, long keep, const char *tail, size_t n,
		   long at_off)
{
	char p[600];
	int fd;
	int rc = 0;

	path_of(p, sizeof(p), name, JOURNAL_NAME);
	fd = open(p, O_RDWR);
	if (fd < 0)
		return -1;
	if (keep >= 0 && ftruncate(fd, keep) < 0)
		rc = -1;
	if (tail && pwrite(fd, tail, n, at_off >= 0 ? at_off :
			   lseek(fd, 0, SEEK_END)) != (ssize_t)n)
		rc = -1;
	close(fd);
	return rc;
}

static void note_of(const char *name, struct perr *note, double *last)
{
	char dir[512];
	int dfd;
	struct journal *j = NULL;

	path_of(dir, sizeof(dir), name, NULL);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	note->msg[0] = '\0';
	*last = -1;
	if (dfd >= 0 && journal_load(dfd, dir, 1, &j, note) == 0)
		*last = journal_last(j);
	journal_free(j);
	if (dfd >= 0)
		close(dfd);
}

static void damaged(void)
{
	struct logset_series s;
	struct perr note;
	time_t last;
	double jl;
	long size = file_size("killed", JOURNAL_NAME);
	long rec = JOURNAL_FRAME + 16 + 2 * 8;
	static const char garbage[] = "\x17garbage, not a record\xff\xfe";

	/* cut mid-record: the last sample's record loses 5 bytes */
	if (copy_set("killed", "cut") < 0 || rewrite("cut", size - 5, NULL, 0, -1) < 0 ||
	    fetch("cut", &s, &last) < 0) {
		OK(0, "cut: copied, cut and fetched");
	} else {
		EQ_INT(known_rows(&s), NSAMPLES - 1,
		       "a tail cut mid-record: the rows before it replay");
		EQ_INT(last, t0 + NSAMPLES - 1, "and end where the damage is");
		logset_series_free(&s);
		note_of("cut", &note, &jl);
		OK(strstr(note.msg, "damaged at byte") != NULL,
		   "the note says where the journal is damaged");
		printf("# %s\n", note.msg);
	}

	/* garbage over the 6th sample's values: its CRC fails */
	if (copy_set("killed", "garbage") < 0 ||
	    rewrite("garbage", -1, garbage, sizeof(garbage) - 1,
		    size - 3 * rec + 20) < 0 || fetch("garbage", &s, &last) < 0) {
		OK(0, "garbage: copied, damaged and fetched");
	} else {
		EQ_INT(known_rows(&s), NSAMPLES - 3,
		   "garbage in a record: the samples before it replay, none after");
		logset_series_free(&s);
	}

	/* garbage after the last record (a torn append of junk) */
	if (copy_set("killed", "junk") < 0 ||
	    rewrite("junk", -1, garbage, sizeof(garbage) - 1, -1) < 0 ||
	    fetch("junk", &s, &last) < 0) {
		OK(0, "junk: copied, appended and fetched");
	} else {
		EQ_INT(known_rows(&s), NSAMPLES,
		       "junk after the last record: every record replays");
		logset_series_free(&s);
	}
}

static void other_layouts(void)
{
	struct logset_series s;
	struct perr note;
	time_t last;
	double jl;
	char p[600];
	unsigned char h[JOURNAL_HEADER];
	uint32_t v = JOURNAL_VERSION + 1, crc;

	/* a set written before the journal: no file, what the RRD has */
	path_of(p, sizeof(p), "older", JOURNAL_NAME);
	if (copy_set("killed", "older") < 0 || unlink(p) < 0 ||
	    fetch("older", &s, &last) < 0) {
		OK(0, "older: copied and fetched");
	} else {
		EQ_INT(known_rows(&s), 1,
		       "no journal (an older set): the RRD file's rows, no error");
		logset_series_free(&s);
	}
	/* a journal of a later version (its header whole): not replayed,
	 * said */
	path_of(p, sizeof(p), "killed", JOURNAL_NAME);
	{
		FILE *f = fopen(p, "rb");

		if (!f || fread(h, 1, sizeof(h), f) != sizeof(h))
			memset(h, 0, sizeof(h));
		if (f)
			fclose(f);
	}
	memcpy(h + 8, &v, 4);
	crc = journal_crc32(0, h, 24);
	memcpy(h + 24, &crc, 4);
	if (copy_set("killed", "newer") < 0 ||
	    rewrite("newer", -1, (const char *)h, sizeof(h), 0) < 0 ||
	    fetch("newer", &s, &last) < 0) {
		OK(0, "newer: copied and fetched");
	} else {
		EQ_INT(known_rows(&s), 1,
		       "a journal of another version: not replayed, the set reads");
		logset_series_free(&s);
		note_of("newer", &note, &jl);
		OK(strstr(note.msg, "version") != NULL,
		   "the note names the version");
	}
}

/* The writer's cut, through its own interface: many values a sample so
 * that JOURNAL_CUT_BYTES is passed in a few dozen samples. */
static void cut(void)
{
	enum { NV = 20000, N = 80 };
	char dir[512];
	struct journal_writer *jw;
	struct journal *j = NULL;
	struct perr e, note;
	int dfd, rc = 0;
	const struct rows *r;

	path_of(dir, sizeof(dir), "cutdir", NULL);
	mkdir(dir, 0755);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0 || journal_create(dfd, dir, 1, (double)t0, &jw, &e) < 0 ||
	    journal_announce(jw, "Big.rrd", NV, (double)t0, 1) < 0) {
		OK(0, "cut: journal created");
		return;
	}
	for (int i = 0; i < N && rc == 0; i++) {
		double *v = journal_sample_begin(jw, t0 + i + 0.5, t0 + i + 1.5);

		if (!v)
			break;
		for (int k = 0; k < NV; k++)
			v[k] = i;
		rc = journal_sample_end(jw, &e);
		/* the files have every row up to the sample before */
		if (rc == 0)
			rc = journal_cut(jw, (double)(t0 + i + 1), &e);
	}
	OK(rc == 0, "cut: every sample written, the cuts done");
	journal_close(jw, 0);
	if (journal_load(dfd, dir, 1, &j, &note) < 0 || !j) {
		OK(0, "cut: journal read back");
		close(dfd);
		return;
	}
	EQ_STR(note.msg, "", "a cut journal reads whole");
	/* a cut every JOURNAL_CUT_BYTES appended (26 samples here), each to
	 * what the files had at the cut before: 27 samples go at the 53rd */
	OK(file_size("cutdir", JOURNAL_NAME) < (long)(N * NV * 8) * 3 / 4,
	   "the journal was cut");
	EQ_DBL(journal_last(j), (double)(t0 + N), 0,
	       "it still reaches the last sample");
	r = journal_rows(j, "Big.rrd", NV);
	OK(r && r->nheld > 0, "its file replays");
	if (r && r->nheld > 0) {
		OK(r->held_t[0] > (double)t0 + 20,
		   "the rows of samples cut are gone");
		OK(r->held_t[0] < (double)t0 + 40,
		   "those the files had only since the last cut are kept");
		EQ_DBL(r->held_t[r->nheld - 1], (double)(t0 + N), 0,
		       "the last row is there");
		EQ_DBL(r->held[(r->nheld - 1) * NV + 7], (N - 1) * 0.5 + (N - 2) * 0.5,
		       1e-9, "with the writer's average");
	}
	OK(journal_rows(j, "Big.rrd", 3) == NULL,
	   "a file of another value count (another layout) is not replayed");
	journal_free(j);
	close(dfd);
}

/* A killed set settled (logs/settle.c): its journal's rows written into
 * its RRD file, so the file alone (the journal taken away) reads as the
 * replay did; nothing left to write the second time; a set whose .lock
 * someone holds (a collector) is left alone. */
static void settled(void)
{
	struct logset_series s;
	char dir[512], p[600];
	struct perr e;
	time_t last;
	int fd;

	path_of(dir, sizeof(dir), "settled", NULL);
	if (copy_set("killed", "settled") < 0) {
		OK(0, "settled: copied");
		return;
	}
	path_of(p, sizeof(p), "settled", ".lock");
	fd = open(p, O_RDWR | O_CLOEXEC);
	OK(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0, "a writer's .lock held");
	EQ_INT(logset_settle(dir, &e), 0, "a set being written is not settled");
	if (fd >= 0)
		close(fd);
	EQ_INT(logset_settle(dir, &e), 1, "a killed set settles: rows written");
	EQ_INT(logset_settle(dir, &e), 0, "and the second time nothing is left");
	path_of(p, sizeof(p), "settled", JOURNAL_NAME);
	OK(unlink(p) == 0, "its journal taken away");
	if (fetch("settled", &s, &last) < 0) {
		OK(0, "settled: fetched");
		return;
	}
	EQ_INT(known_rows(&s), NSAMPLES, "the file alone has every row sampled");
	EQ_DBL(at(&s, t0 + 5, 0), 0.004 * value_a(3) + 0.996 * value_a(4), 1e-6,
	       "a settled row is the writer's time-weighted average");
	EQ_DBL(at(&s, t0 + 4, 1), NAN, 0, "an unknown value stays unknown");
	EQ_INT(last, t0 + NSAMPLES, "the file's last update is the last row");
	logset_series_free(&s);
}

int main(void)
{
	t0 = time(NULL) - 86400;
	t0 -= t0 % 60;
	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		return 1;
	}
	replayed();
	damaged();
	other_layouts();
	cut();
	settled();
	if (rmtree(scratch) != 0)
		printf("# could not remove %s\n", scratch);
	return done_testing();
}
