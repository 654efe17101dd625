/*
 * report_stages.c - the stages of a session's data path (report_stages.h;
 * the rules in prose in report/README.md, "The stages of the data path").
 *
 * A stage is a process of a watched tree that worked: its working
 * threads' seconds summed from the tree's waits-LABEL.tsv rows of its
 * pid. Its busy share is what it spent on its own resources (running,
 * waiting for a CPU, the disk, the network to another host); a wait on a
 * pipe or a local socket is a wait on its neighbour, counted there. The
 * edges (edges-LABEL.tsv) say who fed whom: "out" from A to B, or "in"
 * at B waiting on A, is data A -> B; a client's `net` edge leads to the
 * --with server's stages. The stages are ordered along that flow.
 */
#include "report_stages.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

int report_stages_tree(struct report_stages *ss, int side, const char *label,
		       const struct report_waits *w)
{
	struct report_stage_tree *t;

	if (ss->ntrees >= REPORT_STAGE_TREES_MAX)
		return -1;
	t = &ss->trees[ss->ntrees];
	memset(t, 0, sizeof(*t));
	util_strlcpy(t->label, label, sizeof(t->label));
	t->side = side;
	if (w)
		t->w = *w;
	if (side + 1 > ss->nsides)
		ss->nsides = side + 1;
	return (int)ss->ntrees++;
}

static struct report_stage *stage_of(struct report_stages *ss, int tree,
				     pid_t pid, const char *comm)
{
	/* comm NULL: the tree's one stage (a file without the pid column);
	 * pid 0 with a comm: the ended threads folded by that name */
	for (size_t i = 0; i < ss->n; i++)
		if (ss->st[i].tree == tree && ss->st[i].pid == pid &&
		    (pid || !comm || !strcmp(ss->st[i].comm, comm)))
			return &ss->st[i];
	if (ss->n >= REPORT_STAGES_MAX)
		return NULL;
	struct report_stage *s = &ss->st[ss->n++];
	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->tree = tree;
	s->side = ss->trees[tree].side;
	s->waits_stage = -1;
	util_strlcpy(s->comm, comm ? comm : "", sizeof(s->comm));
	return s;
}

long report_stages_add_waits(struct report_stages *ss, int tree,
			     const struct waits_totals *tot)
{
	size_t first = ss->n;
	double best_cpu = -1;
	int haspid = 0;

	/* a file of before issue 29 has no pid column (every pid 0): the
	 * tree is one stage, named by the command that ran most */
	for (size_t i = 0; i < tot->n && !haspid; i++)
		haspid = tot->t[i].pid > 0;
	for (size_t i = 0; i < tot->n; i++) {
		const struct waits_total *t = &tot->t[i];
		struct report_stage *s;

		/* a local peer's row (waits_total.peer) is no stage of the
		 * tree: it may be another tree's own (make demo's server,
		 * read by the client's sampler as the far end of its
		 * socket, was a second stage perflog[PID] beside
		 * 1m1k-server); the graph has its seconds */
		if (!waitrates_working(t) || !(t->alive > 0) || t->peer)
			continue;
		s = stage_of(ss, tree, t->pid, haspid ? t->comm : NULL);
		if (!s)
			continue;
		if (!haspid && t->sec[WS_CPU] > best_cpu) {
			best_cpu = t->sec[WS_CPU];
			util_strlcpy(s->comm, t->comm, sizeof(s->comm));
		}
		s->alive += t->alive;
		s->nthreads += waitrates_nthreads(t);
		for (int k = 0; k < WS_N; k++)
			s->sec[k] += t->sec[k];
	}
	return (long)(ss->n - first);
}

void report_stages_add_tree(struct report_stages *ss, int tree,
			    const double pct[WS_N], double seconds)
{
	struct report_stage *s;
	double sum = 0;

	for (int k = 0; k < WS_N; k++)
		sum += isnan(pct[k]) ? 0 : pct[k];
	if (!(sum > 0) || !(seconds > 0))
		return;
	s = stage_of(ss, tree, 0, NULL);
	if (!s)
		return;
	util_strlcpy(s->comm, ss->trees[tree].label, sizeof(s->comm));
	s->alive = seconds;
	s->nthreads = 1;
	for (int k = 0; k < WS_N; k++)
		s->sec[k] = isnan(pct[k]) ? 0 : seconds * pct[k] / sum;
}

/* The file's "-" (waitedges_parse reads it as ""), as the stages'
 * rules compare it. */
static void or_dash(char *dst, const char *src, size_t n)
{
	util_strlcpy(dst, *src ? src : "-", n);
}

long report_stages_add_edges(struct report_stages *ss, int tree,
			     const struct waitedge_row *rows, size_t n,
			     const struct waits_totals *tot)
{
	int side = tree >= 0 && (size_t)tree < ss->ntrees ?
		ss->trees[tree].side : 0;
	long added = 0;

	if (side >= 0 && side < 32)
		ss->edge_sides |= 1u << side;
	if (side + 1 > ss->nsides)
		ss->nsides = side + 1;
	for (size_t i = 0; i < n && ss->ne < REPORT_STAGE_EDGES_MAX; i++) {
		const struct waitedge_row *r = &rows[i];
		struct report_stage_edge *e;

		/* a disk's row is no wait on a process: the stage's disk
		 * seconds say it, the verdict names the disk (issue 46) */
		if (r->e.kind == PEER_DISK)
			continue;

		if (!ss->e && !(ss->e = calloc(REPORT_STAGE_EDGES_MAX,
					       sizeof(*ss->e))))
			break;
		e = &ss->e[ss->ne++];
		memset(e, 0, sizeof(*e));
		e->side = side;
		e->tree = tree;
		e->pid = r->e.pid;
		e->peer_pid = r->e.peer_pid;
		e->out = r->e.dir == PEER_OUT;
		util_strlcpy(e->comm, r->e.comm, sizeof(e->comm));
		util_strlcpy(e->kind, waitpeer_kind_name(r->e.kind),
			     sizeof(e->kind));
		or_dash(e->peer_comm, r->e.peer_comm, sizeof(e->peer_comm));
		or_dash(e->local, r->e.local, sizeof(e->local));
		or_dash(e->remote, r->e.remote, sizeof(e->remote));
		e->seconds = r->seconds;
		e->bytes = r->bytes;
		e->peer = waitrates_peer_pid(tot, e->pid);
		added++;
	}
	return added;
}

/* A copy of n elements of size sz (NULL when none or out of memory). */
static void *dup(const void *p, size_t n, size_t sz)
{
	void *c = p && n ? malloc(n * sz) : NULL;
	if (c)
		memcpy(c, p, n * sz);
	return c;
}

void report_stages_keep(struct report_stages *ss, int tree,
			struct waits_totals *tot, struct waitedge_row **edges,
			size_t nedges)
{
	struct report_stage_tree *t = &ss->trees[tree];

	free(t->rows);
	t->rows = tot->t;
	t->nrows = tot->n;
	tot->t = NULL;
	tot->n = tot->cap = 0;
	if (edges) {
		free(t->edges);
		t->edges = *edges;
		t->nedges = *edges ? nedges : 0;
		*edges = NULL;
	}
}

void report_stages_keep_rows(struct report_stages *ss, int tree,
			     struct waitrows_file *f)
{
	waitrows_file_free(&ss->trees[tree].intervals);
	ss->trees[tree].intervals = *f;
	memset(f, 0, sizeof(*f));
}

void report_stages_append(struct report_stages *ss,
			  const struct report_stages *from, int side)
{
	size_t tree0 = ss->ntrees;

	for (size_t t = 0; t < from->ntrees && ss->ntrees <
	     REPORT_STAGE_TREES_MAX; t++) {
		struct report_stage_tree *to = &ss->trees[ss->ntrees++];
		*to = from->trees[t];
		to->side = side;
		to->rows = dup(from->trees[t].rows, to->nrows, sizeof(*to->rows));
		to->edges = dup(from->trees[t].edges, to->nedges,
				sizeof(*to->edges));
		if (!to->rows)
			to->nrows = 0;
		if (!to->edges)
			to->nedges = 0;
		to->intervals.p = dup(to->intervals.p, to->intervals.np,
				      sizeof(*to->intervals.p));
		to->intervals.e = dup(to->intervals.e, to->intervals.ne,
				      sizeof(*to->intervals.e));
		if (!to->intervals.p || (to->intervals.ne && !to->intervals.e))
			waitrows_file_free(&to->intervals);
	}
	for (size_t i = 0; i < from->n && ss->n < REPORT_STAGES_MAX; i++) {
		if (tree0 + (size_t)from->st[i].tree >= ss->ntrees)
			continue;
		ss->st[ss->n] = from->st[i];
		ss->st[ss->n].side = side;
		ss->st[ss->n].tree += (int)tree0;
		ss->st[ss->n++].waits_stage = -1;
	}
	for (size_t i = 0; i < from->ne; i++) {
		if (ss->ne >= REPORT_STAGE_EDGES_MAX)
			break;
		if (!ss->e && !(ss->e = calloc(REPORT_STAGE_EDGES_MAX,
					       sizeof(*ss->e))))
			break;
		ss->e[ss->ne] = from->e[i];
		ss->e[ss->ne].tree += (int)tree0;
		ss->e[ss->ne++].side = side;
	}
	if (side < 4)
		util_strlcpy(ss->hosts[side], from->hosts[0], sizeof(ss->hosts[0]));
	if ((from->edge_sides & 1u) && side >= 0 && side < 32)
		ss->edge_sides |= 1u << side;
	if (side + 1 > ss->nsides)
		ss->nsides = side + 1;
}

void report_stages_free(struct report_stages *ss)
{
	for (size_t t = 0; t < ss->ntrees; t++) {
		free(ss->trees[t].rows);
		free(ss->trees[t].edges);
		ss->trees[t].rows = NULL;
		ss->trees[t].edges = NULL;
		waitrows_file_free(&ss->trees[t].intervals);
	}
	free(ss->e);
	ss->e = NULL;
	ss->ne = 0;
}
