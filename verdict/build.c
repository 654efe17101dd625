/*
 * build.c - a session's graph from the parsed files of its trees on each
 * host (verdict.h verdict_build): the rows of waits-LABEL.tsv become the
 * processes' seconds, the rows of edges-LABEL.tsv the waits between
 * them. Data in, no paths: the report reads the files.
 *
 * What a thread's seconds become (enum vstate):
 *   - running and waiting to run: RUN and RUNQ, whoever the thread;
 *   - a thread that worked (waitrates_working): disk, net and other as
 *     they are; its sleep is SLEEP (pacing) when it moved data
 *     (waitrates_moved_data), else IDLE: a runtime's helper sleeping
 *     between its rounds paces nothing;
 *   - a thread that did not work (a pool parked on a futex or a poll):
 *     its blocked and asleep seconds are IDLE, no outlet of its process;
 *   - a cgroup with a memory limit of its own stalled on memory a share
 *     m of the session: m of each working thread's seconds alive move
 *     from disk (reclaim and swap-in block there), then other, to
 *     MEMORY.
 * An edge's seconds are the waiting threads' seconds of net and other
 * (waitrates.h): they leave its process's states (a wait on a process
 * from other, idle, net, sleep in that order; a wait on the network from
 * net, other, idle), so a process's seconds are what it did itself and
 * its waits, each once.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

/* Take up to x seconds from states order[] of process p: what was not
 * there to take. */
static double take(struct vgraph *g, int p, const enum vstate *order,
		   size_t n, double x)
{
	double *sec = vgraph_sec(g, p, 0);
	for (size_t k = 0; k < n && x > 0; k++) {
		double t = sec[order[k]] < x ? sec[order[k]] : x;
		sec[order[k]] -= t;
		x -= t;
	}
	return x;
}

static const enum vstate from_proc_wait[] = { VS_OTHER, VS_IDLE, VS_NET,
					      VS_SLEEP };
static const enum vstate from_net_wait[] = { VS_NET, VS_OTHER, VS_IDLE };
static const enum vstate to_memory[] = { VS_DISK, VS_OTHER };

/* Whether the tree's file has the pid column (of after issue 29): a file
 * without is one process. */
static int has_pids(const struct waits_totals *w)
{
	for (size_t k = 0; k < w->n; k++)
		if (w->t[k].pid > 0)
			return 1;
	return 0;
}

static int add_thread(struct vgraph *g, const struct verdict_tree_in *in,
		      int host, int cg, int disk, const struct waits_total *t,
		      int pids, double seconds)
{
	const char *comm = pids ? t->comm : in->label;
	int p = vgraph_proc(g, host, pids ? t->pid : 0, comm, in->label);
	if (p < 0)
		return -1;
	struct vg_proc *pr = &g->proc[p];
	pr->cgroup = cg;
	pr->disk_res = disk;
	if (!pr->tree[0])	/* named by an edge first */
		strncpy(pr->tree, in->label, sizeof pr->tree - 1);
	double alive = t->alive < seconds ? t->alive : seconds;
	if (alive > pr->alive[0])
		pr->alive[0] = alive;
	if (t->tid && t->tid == t->pid && (!pr->start || t->start < pr->start))
		pr->start = t->start;
	double *sec = vgraph_sec(g, p, 0);
	sec[VS_RUN] += t->sec[WS_CPU];
	sec[VS_RUNQ] += t->sec[WS_CPU_WAIT];
	if (!waitrates_working(t)) {
		sec[VS_IDLE] += t->sec[WS_DISK] + t->sec[WS_NET] +
				t->sec[WS_OTHER] + t->sec[WS_SLEEP];
		return 0;
	}
	sec[VS_DISK] += t->sec[WS_DISK];
	sec[VS_NET] += t->sec[WS_NET];
	sec[VS_OTHER] += t->sec[WS_OTHER];
	sec[waitrates_moved_data(t) ? VS_SLEEP : VS_IDLE] += t->sec[WS_SLEEP];
	double m = in->cg.memory_limit && in->cg.memory_stall > 0 ?
		   in->cg.memory_stall * t->alive : 0;
	if (m > 0)
		sec[VS_MEMORY] += m - take(g, p, to_memory, 2, m);
	return 0;
}

/* A tree's processes and seconds; *hosts[k] its host's index. */
static int add_tree(struct vgraph *g, const struct verdict_tree_in *in,
		    int *host, double seconds)
{
	if ((*host = vgraph_host(g, in->host)) < 0)
		return -1;
	int cg = -1, disk = -1;
	double quota = isnan(in->cg.quota) ? 0 : in->cg.quota;
	if (in->cg.name && (quota > 0 || in->cg.memory_limit)) {
		cg = vgraph_cgroup(g, *host, in->cg.name, quota,
				   in->cg.memory_limit);
		if (cg < 0)
			return -1;
		double th = in->cg.throttled;
		g->cg[cg].throttled[0] = isnan(th) || th < 0 ? 0 : th > 1 ? 1 : th;
	}
	if (in->disk && in->disk[0] &&
	    (disk = vgraph_res(g, VRES_DISK, *host, -1, in->disk)) < 0)
		return -1;
	if (!in->waits)
		return 0;
	int pids = has_pids(in->waits);
	for (size_t k = 0; k < in->waits->n; k++)
		if (add_thread(g, in, *host, cg, disk, &in->waits->t[k], pids,
			       seconds))
			return -1;
	return 0;
}

/* The process of another host whose net row mirrors row r (addresses
 * swapped), or -1; *far its host. */
static int mirror(struct vgraph *g, const struct verdict_tree_in *trees,
		  size_t n, const int *hosts, int host,
		  const struct waitedge_row *r, int *far)
{
	if (!r->e.local[0] || !r->e.remote[0])
		return -1;
	for (size_t k = 0; k < n; k++) {
		if (hosts[k] == host)
			continue;
		for (size_t j = 0; j < trees[k].nedges; j++) {
			const struct waitpeer_edge *e = &trees[k].edges[j].e;
			if (e->kind != PEER_NET || strcmp(e->local, r->e.remote) ||
			    strcmp(e->remote, r->e.local))
				continue;
			*far = hosts[k];
			return vgraph_proc(g, hosts[k], e->pid, e->comm,
					   trees[k].label);
		}
	}
	return -1;
}

/* The process a row waits on (not net): its pid's, a child by command
 * within the tree, or a peer by name (not seen). */
static int peer_of(struct vgraph *g, const struct verdict_tree_in *in,
		   int host, int from, const struct waitpeer_edge *e)
{
	const char *name = e->peer_comm[0] ? e->peer_comm : "-";
	if (e->peer_pid > 0)
		return vgraph_proc(g, host, e->peer_pid, name, NULL);
	if (e->kind == PEER_CHILD)
		for (size_t p = 0; p < g->nproc; p++)
			if ((int)p != from && g->proc[p].host == host &&
			    !strcmp(g->proc[p].tree, in->label) &&
			    !strcmp(g->proc[p].comm, name))
				return (int)p;
	return vgraph_proc(g, host, 0, name, NULL);
}

static int add_edge(struct vgraph *g, const struct verdict_tree_in *trees,
		    size_t n, const int *hosts, size_t k,
		    const struct waitedge_row *r)
{
	const struct verdict_tree_in *in = &trees[k];
	int host = hosts[k];
	if (!(r->seconds > 0))
		return 0;	/* a link the fd tables showed, no wait */
	int from = vgraph_proc(g, host, r->e.pid, r->e.comm, in->label);
	if (from < 0)
		return -1;
	int to, res = -1;
	if (r->e.kind == PEER_NET) {
		int far = -1;
		to = mirror(g, trees, n, hosts, host, r, &far);
		res = vgraph_res(g, VRES_NET, host, far, r->e.peer_comm);
		if (res < 0)
			return -1;
		take(g, from, from_net_wait, 3, r->seconds);
	} else {
		if ((to = peer_of(g, in, host, from, &r->e)) < 0)
			return -1;
		if (to == from)
			return 0;
		take(g, from, from_proc_wait, 4, r->seconds);
	}
	int e = vgraph_edge(g, from, to, res, waitpeer_kind_name(r->e.kind));
	if (e < 0)
		return -1;
	g->edge[e].sec[0] += r->seconds;
	return 0;
}

/* A net edge no row of another host mirrors (the far end's process, an
 * sshd say, is not watched) reaches, when the report has exactly one
 * other host, that host's first tree's root: the server's watched
 * process, which the relay fed. 0, -1 out of memory. */
static int far_root(struct vgraph *g, const struct verdict_tree_in *trees,
		    size_t n, const int *hosts)
{
	for (size_t e = 0; e < g->nedge; e++) {
		struct vg_edge *x = &g->edge[e];
		if (x->res < 0 || x->to >= 0 || g->res[x->res].type != VRES_NET)
			continue;
		int from = g->proc[x->from].host, far = -1;
		size_t first = n;
		for (size_t k = 0; k < n; k++) {
			if (hosts[k] == from)
				continue;
			if (far >= 0 && hosts[k] != far)
				return 0;	/* two other hosts: which? */
			far = hosts[k];
			if (first == n)
				first = k;
		}
		if (far < 0)
			return 0;
		int to = verdict_tree_root(g, g->host[far].name,
					   trees[first].label);
		if (to < 0)
			continue;
		char name[64];
		snprintf(name, sizeof(name), "%s", g->res[x->res].name);
		int res = vgraph_res(g, VRES_NET, from, far, name);
		if (res < 0)
			return -1;
		x->to = to;
		x->res = res;
	}
	return 0;
}

int verdict_build(struct vgraph *g, const struct verdict_tree_in *trees,
		  size_t n, double seconds)
{
	int *hosts = malloc((n ? n : 1) * sizeof *hosts);
	if (!hosts || vgraph_init(g, 1, &seconds)) {
		free(hosts);
		return -1;
	}
	for (size_t k = 0; k < n; k++)
		if (add_tree(g, &trees[k], &hosts[k], seconds))
			goto fail;
	for (size_t k = 0; k < n; k++)
		for (size_t j = 0; j < trees[k].nedges; j++)
			if (add_edge(g, trees, n, hosts, k, &trees[k].edges[j]))
				goto fail;
	if (far_root(g, trees, n, hosts))
		goto fail;
	free(hosts);
	return 0;
fail:
	free(hosts);
	vgraph_free(g);
	return -1;
}

/* Whether another process of p's tree waits on p. */
static int waited_on(const struct vgraph *g, int p)
{
	for (size_t e = 0; e < g->nedge; e++) {
		const struct vg_edge *x = &g->edge[e];
		if (x->to == p && x->res < 0 &&
		    !strcmp(g->proc[x->from].tree, g->proc[p].tree))
			return 1;
	}
	return 0;
}

/* Whether p comes before b as the tree's root: its main thread started
 * first (a start unknown last), then no process of the tree waits on it
 * (the command waits on its stages, not they on it), then the lower pid. */
static int before(const struct vgraph *g, int p, int b)
{
	unsigned long long sp = g->proc[p].start, sb = g->proc[b].start;
	if (sp != sb)
		return sp && (!sb || sp < sb);
	int wp = waited_on(g, p), wb = waited_on(g, b);
	if (wp != wb)
		return !wp;
	return g->proc[p].pid < g->proc[b].pid;
}

int verdict_tree_root(const struct vgraph *g, const char *host,
		      const char *label)
{
	int best = -1;
	for (size_t p = 0; p < g->nproc; p++) {
		const struct vg_proc *pr = &g->proc[p];
		if (strcmp(g->host[pr->host].name, host) ||
		    strcmp(pr->tree, label) || !(pr->alive[0] > 0))
			continue;
		if (best < 0 || before(g, (int)p, best))
			best = (int)p;
	}
	return best;
}
