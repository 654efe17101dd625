/*
 * waitrates_file.c - waits-LABEL.tsv, the per-thread totals of a session
 * (waitrates.h: waitrates_format, waitrates_parse): one row a thread,
 * the folded rows of ended threads last; files of before the fold (no
 * threads column) and of before issue 29 (no pid column) still read.
 */
#include "waitrates.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

/* the header before the fold had no threads column: still read */
#define TSV_HEADER0 "tid\tcomm\tstart\talive\tcpu\tcpu_wait\tdisk\tnet" \
	"\tother\tsleep\tio_bytes\tworking"
#define TSV_HEADER1 TSV_HEADER0 "\tthreads"
#define TSV_HEADER TSV_HEADER1 "\tpid\n"
/* A local peer's thread (waits.h waits_thread.peer): a 15th field past
 * the header's, so a reader of before it skips the line as not the
 * format's and reads the tree as it was (its sums, its root) */
#define PEER_FIELD "peer"

void waitrates_comm(char out[16], const char *name)
{
	size_t k;

	for (k = 0; k < 15 && name[k]; k++)
		out[k] = (unsigned char)name[k] < ' ' ? '?' : name[k];
	out[k] = '\0';
}

static int format_row(const struct waits_total *t, char *line, size_t n)
{
	char comm[16];

	if (!t)
		return snprintf(line, n, "%s", TSV_HEADER);
	waitrates_comm(comm, t->comm);
	return snprintf(line, n, "%d\t%s\t%llu\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f"
			"\t%.3f\t%.3f\t%llu\t%d\t%zu\t%d%s\n", (int)t->tid, comm,
			(unsigned long long)t->start, t->alive, t->sec[WS_CPU],
			t->sec[WS_CPU_WAIT], t->sec[WS_DISK], t->sec[WS_NET],
			t->sec[WS_OTHER], t->sec[WS_SLEEP],
			(unsigned long long)t->io_bytes, waitrates_working(t),
			waitrates_nthreads(t), t->tid ? (int)t->pid : 0,
			t->peer && t->tid ? "\t" PEER_FIELD : "");
}

size_t waitrates_format(const struct waits_totals *tot, char *buf, size_t n)
{
	size_t len = 0;
	int full = n == 0;
	char line[512];

	for (size_t i = 0; i <= tot->n + tot->nagg; i++) {
		const struct waits_total *t = i == 0 ? NULL :
			i <= tot->n ? &tot->t[i - 1] : &tot->agg[i - 1 - tot->n];
		int w = format_row(t, line, sizeof(line));

		if (w < 0)
			continue;
		if (!full && len + (size_t)w < n) {
			memcpy(buf + len, line, (size_t)w + 1);
		} else if (!full) {
			buf[len] = '\0';	/* cut after the last whole line */
			full = 1;
		}
		len += (size_t)w;
	}
	return len;
}

/* One row of waitrates_format's into t; 0, or -1 when it does not
 * parse (the comm is the second field, up to the tab). */
static int parse_row(const char *line, size_t len, struct waits_total *t,
		     int with_threads, int with_pid)
{
	int pid = 0;
	char buf[512], *tab, *end, *rest;
	unsigned long long start, io, threads = 1;
	double f[1 + WS_N], sum = 0;
	int tid, working, used;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	memset(t, 0, sizeof(*t));
	tid = (int)strtol(buf, &end, 10);
	if (end == buf || *end != '\t' || tid < 0 || (tid == 0 && !with_threads))
		return -1;
	tab = strchr(end + 1, '\t');
	if (!tab || tab - (end + 1) >= (long)sizeof(t->comm))
		return -1;
	memcpy(t->comm, end + 1, (size_t)(tab - (end + 1)));
	if (sscanf(tab + 1, "%llu\t%lf\t%lf\t%lf\t%lf\t%lf\t%lf\t%lf\t%llu\t%d%n",
		   &start, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6],
		   &io, &working, &used) != 10)
		return -1;
	rest = tab + 1 + used;
	if (with_threads) {
		if (*rest != '\t' || sscanf(rest + 1, "%llu%n", &threads, &used) != 1 ||
		    threads == 0 || threads > UINT_MAX || (tid > 0 && threads != 1))
			return -1;
		rest += 1 + used;
	}
	if (with_pid) {
		if (*rest != '\t' || sscanf(rest + 1, "%d%n", &pid, &used) != 1 ||
		    pid < 0 || (tid == 0 && pid != 0))
			return -1;
		rest += 1 + used;
		if (tid > 0 && pid > 0 && !strcmp(rest, "\t" PEER_FIELD)) {
			t->peer = 1;
			rest += strlen(rest);
		}
	}
	if (*rest != '\0')
		return -1;
	for (int k = 0; k <= WS_N; k++) {
		if (!isfinite(f[k]) || f[k] < 0 || f[k] > 1e9)
			return -1;
		sum += k ? f[k] : 0;
	}
	/* a thread's states add up to its time alive (each written to the
	 * millisecond): a row that does not is damaged, and would give
	 * shares over 100% */
	if (fabs(sum - f[0]) > 0.001 * WS_N + 1e-9 * f[0])
		return -1;
	t->tid = (pid_t)tid;
	t->pid = (pid_t)pid;
	t->start = start;
	t->alive = f[0];
	t->threads = (unsigned)threads;
	t->working = working != 0;
	t->ended = tid == 0;
	for (int k = 0; k < WS_N; k++)
		t->sec[k] = f[1 + k];
	t->io_bytes = io;
	return 0;
}

long waitrates_parse(const char *text, size_t len, struct waits_totals *tot,
		     size_t *bad)
{
	size_t hl = strlen(TSV_HEADER), nbad = 0;
	const char *p = text, *end = text + len;
	int with_threads = 1, with_pid = 1;

	tot->n = 0;
	if (len < hl || memcmp(text, TSV_HEADER, hl)) {
		with_pid = 0;
		hl = strlen(TSV_HEADER1 "\n");
		if (len < hl || memcmp(text, TSV_HEADER1 "\n", hl)) {
			hl = strlen(TSV_HEADER0 "\n");
			if (len < hl || memcmp(text, TSV_HEADER0 "\n", hl))
				return -1;
			with_threads = 0;
		}
	}
	for (p += hl; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = (size_t)((nl ? nl : end) - p);
		struct waits_total t;

		if (ll && parse_row(p, ll, &t, with_threads, with_pid) == 0) {
			if (util_grow(&tot->t, &tot->cap, tot->n + 1,
				      sizeof(*tot->t)) < 0)
				return -1;
			tot->t[tot->n++] = t;
		} else if (ll) {
			nbad++;
		}
		p += ll + 1;
	}
	if (bad)
		*bad = nbad;
	return (long)tot->n;
}
