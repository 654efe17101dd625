/*
 * verdictfix.h - the verdict unit tests' fixtures (test_verdict_build,
 * test_verdict_intervals): a tree's waits and edges files as texts, read
 * by the files' own parsers as the report reads them, and a process of
 * the built graph found by host and pid.
 */
#ifndef PERFLOG_TEST_VERDICTFIX_H
#define PERFLOG_TEST_VERDICTFIX_H

#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "../../verdict/verdict.h"

#define TOL 1e-6
#define WH "tid\tcomm\tstart\talive\tcpu\tcpu_wait\tdisk\tnet\tother\tsleep\tio_bytes\tworking\tthreads\tpid\n"
#define EH "pid\tcomm\tdir\tkind\tpeer_pid\tpeer_comm\tlocal\tremote\tseconds\tbytes\n"

struct parsed {
	struct waits_totals w;
	struct waitedge_row *e;
	long ne;
};

static inline void parse(struct parsed *p, const char *waits, const char *edges)
{
	size_t bad = 0;
	memset(p, 0, sizeof *p);
	OK(waitrates_parse(waits, strlen(waits), &p->w, &bad) > 0 && !bad,
	   "a waits fixture parses");
	p->ne = waitedges_parse(edges, strlen(edges), &p->e, &bad, NULL);
	OK(p->ne >= 0 && !bad, "an edges fixture parses");
}

static inline void unparse(struct parsed *p)
{
	waitrates_totals_free(&p->w);
	free(p->e);
}

static inline int find(const struct vgraph *g, const char *host, pid_t pid)
{
	for (size_t h = 0; h < g->nhost; h++)
		if (!strcmp(g->host[h].name, host))
			return vgraph_find_proc(g, (int)h, pid, NULL);
	return -1;
}

#endif
