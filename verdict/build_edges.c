/*
 * build_edges.c - the waits of a session's graph (verdict.h
 * verdict_build, its second half): the rows of edges-LABEL.tsv become
 * edges in seconds between the processes build.c made, interval by
 * interval. A wait on a process by pid, a shell's wait4 on its children
 * by command (child_edges), a net row's far end by the mirrored row of
 * another host's tree (mirror) or, unmirrored, the other host's watched
 * root (vbuild_far_root), through the path to its peer's address (each
 * client of a server its own path: vgraph_net), and a tree's root
 * blocked on nothing named, on its own children (vbuild_root_waits). An edge's seconds leave its
 * waiter's states (build.c's top says which, in which order).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_int.h"

static const enum vstate from_proc_wait[] = { VS_OTHER, VS_IDLE, VS_NET,
					      VS_SLEEP };
static const enum vstate from_net_wait[] = { VS_NET, VS_OTHER, VS_IDLE };

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

/* Edge row r's weights over the intervals into out[nint]: its rows',
 * else its waiting process's (from) alive. */
static void edge_weights(const struct bctx *b, const struct verdict_tree_in *in,
			 const struct waitedge_row *r, const double *from_w,
			 double *out)
{
	size_t nint = b->g->nint;
	memset(out, 0, nint * sizeof *out);
	for (size_t k = 0; b->edge && in->rows && k < in->rows->ne; k++) {
		const struct waitrows_erow *x = &in->rows->e[k];
		double a = x->start + in->shift;
		if (waitedges_same_row(&x->r.e, &r->e))
			vbuild_to_grid(b, a, a + in->rows->step,
				       &x->r.seconds, 1, out);
	}
	vbuild_norm(out, nint, from_w);
}

/* Whether process p is of tree in on host, named comm, and not from. */
static int tree_kin(const struct vgraph *g, const struct verdict_tree_in *in,
		    int host, int from, size_t p, const char *comm)
{
	return (int)p != from && g->proc[p].host == host &&
	       !strcmp(g->proc[p].tree, in->label) &&
	       (!comm || !strcmp(g->proc[p].comm, comm));
}

/* Seconds x of interval i that process from waited on kin[] (its
 * children), shared by their seconds alive in i, else over the
 * session (whole: the sum of kin's alive over every interval). -1 out of
 * memory. */
static int share_by_alive(struct vgraph *g, int from, const char *kin,
			  size_t i, double x, double whole, const char *kind)
{
	double alive = 0;
	for (size_t p = 0; p < g->nproc; p++)
		alive += kin[p] ? g->proc[p].alive[i] : 0;
	for (size_t p = 0; p < g->nproc && x > 0; p++) {
		if (!kin[p])
			continue;
		double a = alive > 0 ? g->proc[p].alive[i] / alive : 0;
		if (!(alive > 0))
			for (size_t j = 0; j < g->nint; j++)
				a += g->proc[p].alive[j] / whole;
		if (!(a > 0))
			continue;
		int e = vgraph_edge(g, from, (int)p, -1, kind);
		if (e < 0)
			return -1;
		g->edge[e].sec[i] += x * a;
	}
	return 0;
}

/* kin[p]: a process of tree in on host named comm (any name: NULL), not
 * from, alive in the session; their seconds alive, summed, in *whole.
 * NULL out of memory. */
static char *kin_of(const struct vgraph *g, const struct verdict_tree_in *in,
		    int host, int from, const char *comm, double *whole)
{
	char *kin = calloc(g->nproc ? g->nproc : 1, 1);
	*whole = 0;
	for (size_t p = 0; kin && p < g->nproc; p++) {
		if (!tree_kin(g, in, host, from, p, comm))
			continue;
		for (size_t i = 0; i < g->nint; i++)
			*whole += g->proc[p].alive[i];
		for (size_t i = 0; i < g->nint; i++)
			kin[p] |= g->proc[p].alive[i] > 0;
	}
	return kin;
}

/* A shell's wait4 on its children by command (no pid: a loop's gzips,
 * one after another), or its read of their pipes ($(date) in a loop: a
 * new pipe and a new date each command): one edge to each process of
 * that command in the
 * tree, each interval's seconds shared by their seconds alive in it (a
 * child alive 0.2 s of the loop's 4 s took its 5%, not all of it). 1
 * when it did, 0 when the tree has none of that command, -1 out of
 * memory. ew: the edge row's weights over the intervals. */
static int child_edges(struct vgraph *g, const struct verdict_tree_in *in,
		       int host, int from, const struct waitedge_row *r,
		       const double *ew)
{
	double whole;
	char *kin = kin_of(g, in, host, from, r->e.peer_comm, &whole);
	int rc = 0;
	if (!kin)
		return -1;
	if (!(whole > 0)) {
		free(kin);
		return 0;
	}
	for (size_t i = 0; i < g->nint && !rc; i++) {
		double x = r->seconds * ew[i];
		vbuild_take(g, from, i, from_proc_wait, 4, x);
		rc = share_by_alive(g, from, kin, i, x, whole,
				    waitpeer_kind_name(r->e.kind));
	}
	free(kin);
	return rc < 0 ? -1 : 1;
}

int vbuild_add_edge(struct bctx *b, const struct verdict_tree_in *trees,
		    size_t n, const int *hosts, size_t k,
		    const struct waitedge_row *r, double *ew)
{
	struct vgraph *g = b->g;
	const struct verdict_tree_in *in = &trees[k];
	int host = hosts[k];
	if (!(r->seconds > 0))
		return 0;	/* a link the fd tables showed, no wait */
	if (r->e.kind == PEER_DISK)
		return 0;	/* its process's disk (edge_disks), no wait */
	if (waitrates_peer_pid(in->waits, r->e.pid) &&
	    vbuild_watched(trees, n, hosts, host, r->e.pid))
		return 0;	/* a peer another tree watches: its edges */
	int from = vgraph_proc(g, host, r->e.pid, r->e.comm, in->label);
	if (from < 0)
		return -1;
	/* the waiter's weights: its tree's fallback is even here (a
	 * process first named by an edge has no threads of its own) */
	const double *fw = vbuild_proc_weights(b, in, b->even, from);
	if (!fw)
		return -1;
	edge_weights(b, in, r, fw, ew);
	/* (a pipe to its children by command too: a shell's $(cmd) in
	 * a loop, waitthread.c) */
	if ((r->e.kind == PEER_CHILD || r->e.kind == PEER_PIPE) &&
	    r->e.peer_pid <= 0 && r->e.peer_comm[0]) {
		int c = child_edges(g, in, host, from, r, ew);
		if (c)
			return c < 0 ? -1 : 0;
	}
	int to, res = -1;
	const enum vstate *order = from_proc_wait;
	size_t norder = 4;
	if (r->e.kind == PEER_NET) {
		int far = -1;
		/* the path to its peer, but through an interface that ran
		 * at its capacity: that is every connection's limit */
		char peer[sizeof g->res->peer] = "";
		if (!in->net_full || strcmp(in->net_full, r->e.peer_comm))
			waitedges_remote_host(&r->e, peer, sizeof peer);
		to = mirror(g, trees, n, hosts, host, r, &far);
		res = vgraph_net(g, host, far, r->e.peer_comm, peer);
		if (res < 0)
			return -1;
		order = from_net_wait;
		norder = 3;
	} else {
		/* to may be from: threads of one process waiting on each
		 * other (make demo's client and server are threads of
		 * perflog workload), a wait within its knot, whose seconds
		 * the solver gives to what the process waited on outside
		 * (its server thread's disk), not to "not seen" */
		if ((to = peer_of(g, in, host, from, &r->e)) < 0)
			return -1;
	}
	int e = vgraph_edge(g, from, to, res, waitpeer_kind_name(r->e.kind));
	if (e < 0)
		return -1;
	for (size_t i = 0; i < g->nint; i++) {
		double x = r->seconds * ew[i];
		vbuild_take(g, from, i, order, norder, x);
		g->edge[e].sec[i] += x;
	}
	return 0;
}

/* A net edge no row of another host mirrors (the far end's process, an
 * sshd say, is not watched) reaches, when the report has exactly one
 * other host, that host's first tree's root: the server's watched
 * process, which the relay fed. 0, -1 out of memory. */
int vbuild_far_root(struct vgraph *g, const struct verdict_tree_in *trees,
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
		struct vg_res path = g->res[x->res];	/* (g->res may move) */
		int res = vgraph_net(g, from, far, path.name, path.peer);
		if (res < 0)
			return -1;
		x->to = to;
		x->res = res;
	}
	return 0;
}

/* A tree's root blocked on something no edge of its names (a shell in
 * `wait` whose wait4 the sampler did not tie to a child: t3500's gzipN,
 * whose loops' subshells share its command) waits on its tree: its
 * `other` and idle seconds become waits on the tree's processes no
 * process of the tree waits on as a child (its own children), interval
 * by interval by their seconds alive. 0, -1 out of memory. */
int vbuild_root_waits(struct vgraph *g, const struct verdict_tree_in *in,
		      int host)
{
	int root = verdict_tree_root(g, g->host[host].name, in->label);
	if (root < 0)
		return 0;
	for (size_t e = 0; e < g->nedge; e++)
		for (size_t i = 0; g->edge[e].from == root && i < g->nint; i++)
			if (g->edge[e].sec[i] > 0)
				return 0;	/* its waits are known */
	double whole;
	char *kid = kin_of(g, in, host, root, NULL, &whole);
	if (!kid)
		return -1;
	for (size_t e = 0; e < g->nedge; e++)
		if (!strcmp(g->edge[e].kind, "child") && g->edge[e].to >= 0)
			kid[g->edge[e].to] = 0;
	int rc = 0;
	for (size_t i = 0; i < g->nint && !rc; i++) {
		/* a shell that did no work of its own is all idle: its
		 * seconds are its wait all the same */
		double *sec = vgraph_sec(g, root, i), alive = 0;
		double other = sec[VS_OTHER] + sec[VS_IDLE];
		for (size_t p = 0; p < g->nproc; p++)
			alive += kid[p] ? g->proc[p].alive[i] : 0;
		if (!(other > 0) || !(alive > 0))
			continue;	/* nothing of its own alive then */
		sec[VS_OTHER] = sec[VS_IDLE] = 0;
		rc = share_by_alive(g, root, kid, i, other, whole, "child");
	}
	free(kid);
	return rc;
}
