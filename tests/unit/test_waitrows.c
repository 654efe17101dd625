/*
 * test_waitrows.c - waits-LABEL.rows.tsv (waits/waitrows.c): a thread's
 * seconds spread over the bins its span overlaps, by process, on the
 * wall clock; edges summed per bin as the edges file sums them; the
 * step doubled past WAITROWS_BINS (sums kept); ended processes summed by
 * name past WAITROWS_PROCS; the text read back; a garbage line is an
 * error naming the file and line, a cut tail leaves the lines before
 * it, a newer version is refused; the file's name.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "../../waits/waitstates.h"

#define TOL 1e-9

static char *format(const struct waitrows *r, const struct waitpeer_edge *keys,
		    size_t nkeys, size_t *len)
{
	struct strbuf b = STRBUF_INIT;
	OK(waitrows_format(r, keys, nkeys, &b) == 0, "formatted");
	return strbuf_detach(&b, len);
}

static const struct waitrows_prow *prow(const struct waitrows_file *f,
					double start, pid_t pid)
{
	for (size_t i = 0; i < f->np; i++)
		if (f->p[i].start == start && f->p[i].pid == pid)
			return &f->p[i];
	return NULL;
}

static void test_bins(void)
{
	struct waitrows r;
	struct waitpeer_edge keys[2] = {
		{ .pid = 10, .comm = "tar", .dir = PEER_OUT, .kind = PEER_PIPE,
		  .peer_pid = 11, .peer_comm = "gzip" },
		/* a second pipe to the same peer: one row with the first */
		{ .pid = 10, .comm = "tar", .dir = PEER_OUT, .kind = PEER_PIPE,
		  .peer_pid = 11, .peer_comm = "gzip" },
	};
	double cpu[WS_N] = { [WS_CPU] = 1.0 };
	double disk[WS_N] = { [WS_DISK] = 0.8, [WS_CPU] = 0.2 };

	waitrows_init(&r, 1);
	waitrows_clock(&r, 1000);	/* monotonic 0 is wall 1000 */
	/* tar's two threads: one over [0.5, 1.5), one over [0.5, 1.0) */
	waitrows_thread(&r, 10, "sh", 0.5, 1.5, cpu);
	waitrows_thread(&r, 10, "tar", 0.5, 1.0, disk);
	waitrows_thread(&r, 11, "gzip", 0.5, 1.5, cpu);
	waitrows_edge(&r, 0, 0.5, 1.5, 0.4);
	waitrows_edge(&r, 1, 0.5, 1.0, 0.1);
	waitrows_next(&r);
	size_t len;
	char *text = format(&r, keys, 2, &len);
	struct waitrows_file f;
	struct perr e;
	long n = waitrows_parse(text, len, "rows.tsv", &f, &e);
	EQ_INT(n, 6, "bins: 4 process lines, 2 edge lines");
	EQ_DBL(f.step, 1, TOL, "bins: the step");
	const struct waitrows_prow *a = prow(&f, 1000, 10), *b = prow(&f, 1001, 10);
	OK(a && b, "bins: tar in both bins");
	if (a && b) {
		EQ_DBL(a->sec[WS_CPU], 0.5 + 0.2, 1e-3, "bins: its threads summed");
		EQ_DBL(a->sec[WS_DISK], 0.8, 1e-3, "bins: the short thread's disk");
		EQ_DBL(b->sec[WS_CPU], 0.5, 1e-3, "bins: the rest in the next bin");
		EQ_DBL(a->alive, 0.5, 1e-3, "bins: alive is wall time, not threads'");
		EQ_DBL(b->alive, 0.5, 1e-3, "bins: alive in the second bin");
		EQ_STR(a->comm, "tar", "bins: the process's last name");
	}
	OK(f.ne == 2 && f.e[0].start == 1000 && f.e[1].start == 1001,
	   "bins: the edge in both bins, in time order");
	if (f.ne == 2) {
		EQ_DBL(f.e[0].r.seconds, 0.2 + 0.1, 1e-3,
		       "bins: two pipes to one peer are one row");
		EQ_DBL(f.e[1].r.seconds, 0.2, 1e-3, "bins: the second bin's");
		EQ_STR(f.e[0].r.e.peer_comm, "gzip", "bins: the peer named");
	}
	EQ_INT(f.cut, 0, "bins: nothing cut");
	waitrows_file_free(&f);

	/* a cut tail: the last line without its newline */
	char *cut = strdup(text);
	size_t clen = len - 5;
	n = waitrows_parse(cut, clen, "rows.tsv", &f, &e);
	EQ_INT(n, 5, "cut tail: the lines before it read");
	EQ_INT(f.cut, 1, "cut tail: said");
	waitrows_file_free(&f);
	/* cut inside the first line: no header */
	OK(waitrows_parse(cut, 10, "rows.tsv", &f, &e) == -1 &&
	   strstr(e.msg, "rows.tsv") != NULL, "cut in the header: an error");
	free(cut);

	/* a garbage line in the middle: the file and its line */
	char bad[4096];
	const char *nl = strchr(strchr(strchr(strchr(text, '\n') + 1, '\n') + 1,
				       '\n') + 1, '\n');
	snprintf(bad, sizeof(bad), "%.*sp\t1000.000\t10\ttar\tNaN?\n%s",
		 (int)(nl + 1 - text), text, nl + 1);
	n = waitrows_parse(bad, strlen(bad), "dir/waits-j.rows.tsv", &f, &e);
	EQ_INT(n, -1, "garbage: refused");
	EQ_STR(e.msg, "dir/waits-j.rows.tsv:5: not a line of the rows file (version 1)",
	       "garbage: the file and its line");
	OK(!f.p && !f.e && !f.np, "garbage: nothing half read");
	snprintf(bad, sizeof(bad), "%s%s", text, "x\ty\n");
	OK(waitrows_parse(bad, strlen(bad), "r", &f, &e) == -1 &&
	   !strcmp(e.msg, "r:10: not a line of the rows file (version 1)"),
	   "garbage: an unknown kind of line");
	snprintf(bad, sizeof(bad), "%s%s", text, "e\t1000.000\t10\ttar\tsideways\n");
	OK(waitrows_parse(bad, strlen(bad), "r", &f, &e) == -1,
	   "garbage: an edge line that is not the edges file's");
	snprintf(bad, sizeof(bad), "#perflog-rows\t2\tstep=1.000\n");
	OK(waitrows_parse(bad, strlen(bad), "r", &f, &e) == -1 &&
	   strstr(e.msg, "r:1: rows of version 2"), "a newer version: refused");
	snprintf(bad, sizeof(bad), "tid\tcomm\n");
	OK(waitrows_parse(bad, strlen(bad), "r", &f, &e) == -1 &&
	   strstr(e.msg, "r:1:"), "not a rows file: line 1");
	/* a short last line, the text not NUL-terminated (a file read
	 * whole into a buffer of its size): fuzz_waits read past the
	 * buffer's end looking for its last field's tab */
	static const char cutp[] = "#perflog-rows\t1\tstep=1.000\n"
				   "p\t1000.000\t10\ttar\t1.000\t0.\t-\n";
	char *exact = malloc(sizeof(cutp) - 1);

	if (exact)
		memcpy(exact, cutp, sizeof(cutp) - 1);
	OK(exact && waitrows_parse(exact, sizeof(cutp) - 1, "r", &f, &e) == -1 &&
	   strstr(e.msg, "r:2:"),
	   "a short line at the buffer's end: refused, read within the buffer");
	free(exact);
	free(text);
	waitrows_free(&r);
}

/* 300 one-second samples: the step doubles twice (300 > 128, 150 >
 * 128), 75 bins of 4 s, every second kept; a step of the wall clock
 * in between leaves them in one piece. */
static void test_doubling(void)
{
	struct waitrows r;
	double cpu[WS_N] = { [WS_CPU] = 0.5, [WS_SLEEP] = 0.5 };
	struct waitpeer_edge key = { .pid = 1, .comm = "a", .dir = PEER_IN,
				     .kind = PEER_CHILD, .peer_comm = "b" };

	waitrows_init(&r, 1);
	waitrows_clock(&r, 0);
	for (int s = 0; s < 300; s++) {
		/* the wall clock stepped an hour ahead at 100 s: kept off */
		waitrows_clock(&r, s < 100 ? 0 : 3600);
		waitrows_thread(&r, 1, "a", s, s + 1, cpu);
		waitrows_edge(&r, 0, s, s + 1, 0.25);
		waitrows_next(&r);
	}
	size_t len;
	char *text = format(&r, &key, 1, &len);
	struct waitrows_file f;
	struct perr e;
	OK(waitrows_parse(text, len, "r", &f, &e) > 0, "doubling: read");
	EQ_DBL(f.step, 4, TOL, "doubling: 4 s bins");
	EQ_INT(f.np, 75, "doubling: 75 bins");
	double c = 0, alive = 0, edge = 0;
	for (size_t i = 0; i < f.np; i++) {
		c += f.p[i].sec[WS_CPU];
		alive += f.p[i].alive;
	}
	for (size_t i = 0; i < f.ne; i++)
		edge += f.e[i].r.seconds;
	OK(fmod(f.p[0].start, 4) == 0, "doubling: bins on multiples of the step");
	EQ_DBL(c, 150, 1e-6, "doubling: every CPU second kept");
	EQ_DBL(alive, 300, 1e-6, "doubling: every second alive kept");
	EQ_DBL(edge, 75, 1e-6, "doubling: every edge second kept");
	printf("# 300 s at -i 1, one process and one edge: %zu bytes\n", len);
	free(text);
	waitrows_file_free(&f);
	waitrows_free(&r);
}

/* 1,000 short processes of one name, one a sample: the ended ones are
 * summed by name past WAITROWS_PROCS, their seconds kept. */
static void test_fold(void)
{
	struct waitrows r;
	double cpu[WS_N] = { [WS_CPU] = 0.1 };

	waitrows_init(&r, 1);
	for (int s = 0; s < 1000; s++) {
		waitrows_thread(&r, 100 + s, "job", s * 0.1, s * 0.1 + 0.1, cpu);
		waitrows_thread(&r, 1, "sh", s * 0.1, s * 0.1 + 0.1, cpu);
		waitrows_next(&r);
	}
	OK(r.np <= WAITROWS_PROCS + 1, "fold: the processes kept are bounded");
	size_t len;
	char *text = format(&r, NULL, 0, &len);
	struct waitrows_file f;
	struct perr e;
	OK(waitrows_parse(text, len, "r", &f, &e) > 0, "fold: read");
	double job = 0, sh = 0;
	int folded = 0;
	for (size_t i = 0; i < f.np; i++) {
		if (!strcmp(f.p[i].comm, "job"))
			job += f.p[i].sec[WS_CPU];
		else
			sh += f.p[i].sec[WS_CPU];
		folded |= !f.p[i].pid && !strcmp(f.p[i].comm, "job");
	}
	OK(folded, "fold: a row of pid 0 for the ended jobs");
	EQ_DBL(job, 100, 1e-6, "fold: the jobs' seconds kept");
	EQ_DBL(sh, 100, 1e-6, "fold: the live shell keeps its own row");
	free(text);
	waitrows_file_free(&f);
	waitrows_free(&r);
}

static void test_name(void)
{
	char out[64];
	OK(waitrows_name("waits-job.tsv", out, sizeof(out)) == 0 &&
	   !strcmp(out, "waits-job.rows.tsv"), "name: beside the waits file");
	OK(waitrows_name("edges-job.tsv", out, sizeof(out)) < 0,
	   "name: not of another file");
	OK(waitrows_name("waits-job.tsv", out, 10) < 0, "name: too long");
}

/* The file of a session of 20 processes, each waiting on the next
 * through a pipe, every one busy the whole time, at -i 1: its size for
 * an hour and for a night of 8 hours (the bins stay 64-128, so the
 * size does not grow with the session). */
static size_t session_bytes(int seconds, double *step)
{
	struct waitrows r;
	struct waitpeer_edge keys[20];
	double sec[WS_N] = { [WS_CPU] = 0.31, [WS_CPU_WAIT] = 0.02,
			     [WS_DISK] = 0.11, [WS_OTHER] = 0.56 };

	memset(keys, 0, sizeof(keys));
	for (int k = 0; k < 20; k++) {
		keys[k].pid = 1000 + k;
		snprintf(keys[k].comm, sizeof(keys[k].comm), "stage%d", k);
		keys[k].dir = PEER_OUT;
		keys[k].kind = PEER_PIPE;
		keys[k].peer_pid = 1001 + k;
		snprintf(keys[k].peer_comm, sizeof(keys[k].peer_comm), "stage%d",
			 k + 1);
	}
	waitrows_init(&r, 1);
	waitrows_clock(&r, 1765000000);
	for (int s = 0; s < seconds; s++) {
		for (int k = 0; k < 20; k++) {
			waitrows_thread(&r, 1000 + k, keys[k].comm, s, s + 1, sec);
			waitrows_edge(&r, (uint32_t)k, s, s + 1, 0.5);
		}
		waitrows_next(&r);
	}
	size_t len;
	char *text = format(&r, keys, 20, &len);
	*step = r.step;
	free(text);
	waitrows_free(&r);
	return len;
}

static void test_size(void)
{
	double step;
	size_t hour = session_bytes(3600, &step);
	printf("# 1 h, 20 processes and 20 edges at -i 1: %zu bytes, %.0f s bins\n",
	       hour, step);
	EQ_DBL(step, 32, TOL, "size: an hour in 32 s bins");
	size_t night = session_bytes(8 * 3600, &step);
	printf("# 8 h, the same: %zu bytes, %.0f s bins\n", night, step);
	EQ_DBL(step, 256, TOL, "size: a night in 256 s bins");
	OK(hour < 400 * 1024 && night <= hour * 11 / 10,
	   "size: under 400 KB, a night no larger than an hour");
}

int main(void)
{
	test_bins();
	test_doubling();
	test_fold();
	test_name();
	test_size();
	return done_testing();
}
