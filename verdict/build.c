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
 * its waits, each once. A disk's edge (kind disk) is no wait: it names
 * the disk of its process's files, its disk resource (edge_disks).
 *
 * Interval by interval: the totals are each thread's and edge's amounts,
 * the rows file (waits/waitrows.h) when they fell. Each process gets
 * weights, per interval, for its alive and for each state (its rows'
 * seconds, redistributed onto the graph's intervals by overlap, as
 * shares summing to 1); its threads' seconds go into the intervals by
 * them and are classified there as above, the memory stall and the
 * edges' seconds (by their own rows' weights) taken per interval.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

/* What the builder carries: the intervals' bounds and each process's
 * weights. */
struct bctx {
	struct vgraph *g;
	const double *edge;	/* [nint + 1]: the intervals' bounds on the
				 * report's clock; NULL: one, no rows read */
	double seconds;
	double *even;		/* [nint]: an interval's share of the session */
	double **w;		/* [nw]: process p's weights, W columns of
				 * nint (alive, then the WS_N states), NULL
				 * not made yet */
	size_t nw;
};

#define W (1 + WS_N)

/* Take up to x seconds from states order[] of process p in interval i:
 * what was not there to take. */
static double take(struct vgraph *g, int p, size_t i, const enum vstate *order,
		   size_t n, double x)
{
	double *sec = vgraph_sec(g, p, i);
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

/* x[0..w) over [a, e) of the report's clock added into out[c * nint +
 * i] by the share of [a, e) in interval i. A bin the session's begin or
 * end cuts is taken as the part inside: the process was alive in the
 * session (the totals count nothing before the session's first read),
 * and a bin spread over its whole length would leave a process started
 * mid-bin a part of its first seconds before the begin. */
static void to_grid(const struct bctx *b, double a, double e, const double *x,
		    size_t w, double *out)
{
	size_t nint = b->g->nint, lo = 0, hi = nint;
	a = a > b->edge[0] ? a : b->edge[0];
	e = e < b->edge[nint] ? e : b->edge[nint];
	if (!(e > a))
		return;
	while (lo < hi) {	/* the first interval ending after a */
		size_t mid = lo + (hi - lo) / 2;
		if (b->edge[mid + 1] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < nint && b->edge[i] < e; i++) {
		double s = a > b->edge[i] ? a : b->edge[i];
		double t = e < b->edge[i + 1] ? e : b->edge[i + 1];
		if (!(t > s))
			continue;
		for (size_t c = 0; c < w; c++)
			out[c * nint + i] += x[c] * (t - s) / (e - a);
	}
}

/* col[0..nint) as shares summing to 1, else fallback's. */
static void norm(double *col, size_t nint, const double *fallback)
{
	double sum = 0;
	for (size_t i = 0; i < nint; i++)
		sum += col[i];
	for (size_t i = 0; i < nint; i++)
		col[i] = sum > 0 ? col[i] / sum : fallback[i];
}

/* Whether pid is a local peer's in w (its rows are no part of the
 * tree's). */
static int peer_pid(const struct waits_totals *w, pid_t pid)
{
	for (size_t k = 0; w && pid > 0 && k < w->n; k++)
		if (w->t[k].pid == pid && w->t[k].peer)
			return 1;
	return 0;
}

/* Whether process pid is a tree's own on host (not a peer's) among
 * trees[0..n): a peer one sampler read that another watches (the local
 * server a client's pipe leads to) counts once, as the other's. */
static int watched(const struct verdict_tree_in *trees, size_t n,
		   const int *hosts, int host, pid_t pid)
{
	for (size_t k = 0; k < n; k++)
		for (size_t j = 0; hosts[k] == host && trees[k].waits &&
		     j < trees[k].waits->n; j++)
			if (trees[k].waits->t[j].pid == pid &&
			    !trees[k].waits->t[j].peer)
				return 1;
	return 0;
}

/* A tree's weights when a process of it has no row: its processes'
 * alive together (when the tree ran), else even. out[nint]. */
static void tree_weights(const struct bctx *b, const struct verdict_tree_in *in,
			 double *out)
{
	size_t nint = b->g->nint;
	memset(out, 0, nint * sizeof *out);
	for (size_t k = 0; b->edge && in->rows && k < in->rows->np; k++) {
		const struct waitrows_prow *r = &in->rows->p[k];
		double a = r->start + in->shift;
		if (!peer_pid(in->waits, r->pid))
			to_grid(b, a, a + in->rows->step, &r->alive, 1, out);
	}
	norm(out, nint, b->even);
}

/* Process p's weights (tree in; tw its tree's): its rows by pid, else
 * its name's summed row (pid 0); NULL out of memory. */
static const double *proc_weights(struct bctx *b,
				  const struct verdict_tree_in *in,
				  const double *tw, int p)
{
	struct vgraph *g = b->g;
	size_t nint = g->nint;
	if ((size_t)p >= b->nw) {
		size_t cap = b->nw, need = (size_t)p + 1;
		if (util_grow(&b->w, &cap, need, sizeof *b->w))
			return NULL;
		memset(b->w + b->nw, 0, (need - b->nw) * sizeof *b->w);
		b->nw = need;
	}
	if (b->w[p])
		return b->w[p];
	double *w = calloc(W * nint, sizeof *w);
	if (!(b->w[p] = w))
		return NULL;
	const struct vg_proc *pr = &g->proc[p];
	const struct waitrows_file *f = b->edge ? in->rows : NULL;
	for (int pass = 0, found = 0; f && pass < 2 && !found; pass++)
		for (size_t k = 0; k < f->np; k++) {
			const struct waitrows_prow *r = &f->p[k];
			if (pass ? r->pid || strcmp(r->comm, pr->comm) :
			    !pr->pid || r->pid != pr->pid)
				continue;
			double x[W], a = r->start + in->shift;
			x[0] = r->alive;
			memcpy(x + 1, r->sec, sizeof r->sec);
			to_grid(b, a, a + f->step, x, W, w);
			found = 1;
		}
	norm(w, nint, tw);
	for (size_t c = 1; c < W; c++)
		norm(w + c * nint, nint, w);
	return w;
}

/* The seconds of thread t in each interval, by its process's weights,
 * classified (see the top). */
static int add_thread(struct bctx *b, const struct verdict_tree_in *in,
		      int host, int cg, int disk, const struct waits_total *t,
		      int pids, const double *tw)
{
	struct vgraph *g = b->g;
	const char *comm = pids ? t->comm : in->label;
	int p = vgraph_proc(g, host, pids ? t->pid : 0, comm,
			    t->peer ? NULL : in->label);
	if (p < 0)
		return -1;
	struct vg_proc *pr = &g->proc[p];
	/* a local peer (waits_total.peer) is no process of the tree: in no
	 * cgroup of its, never its root */
	pr->cgroup = t->peer ? -1 : cg;
	pr->disk_res = disk;
	if (!pr->tree[0] && !t->peer)	/* named by an edge first */
		strncpy(pr->tree, in->label, sizeof pr->tree - 1);
	if (t->tid && t->tid == t->pid && (!pr->start || t->start < pr->start))
		pr->start = t->start;
	const double *w = proc_weights(b, in, tw, p);
	if (!w)
		return -1;
	size_t nint = g->nint;
	int working = waitrates_working(t), moved = waitrates_moved_data(t);
	double life = t->alive < b->seconds ? t->alive : b->seconds;
	for (size_t i = 0; i < nint; i++) {
		double x[WS_N], alive = life * w[i];
		for (int k = 0; k < WS_N; k++)
			x[k] = t->sec[k] * w[(size_t)(1 + k) * nint + i];
		if (alive > g->len[i])
			alive = g->len[i];
		if (alive > pr->alive[i])
			pr->alive[i] = alive;
		double *sec = vgraph_sec(g, p, i);
		sec[VS_RUN] += x[WS_CPU];
		sec[VS_RUNQ] += x[WS_CPU_WAIT];
		if (!working) {
			sec[VS_IDLE] += x[WS_DISK] + x[WS_NET] + x[WS_OTHER] +
					x[WS_SLEEP];
			continue;
		}
		sec[VS_DISK] += x[WS_DISK];
		sec[VS_NET] += x[WS_NET];
		sec[VS_OTHER] += x[WS_OTHER];
		sec[moved ? VS_SLEEP : VS_IDLE] += x[WS_SLEEP];
		double m = t->peer ? 0 :
			   in->cg.memory_limit && in->cg.memory_stall > 0 ?
			   in->cg.memory_stall * t->alive * w[i] : 0;
		/* a group its memory held that long reads back what its
		 * limit evicted: its disk seconds are the memory's (the
		 * kernel counts only workingset refaults as stalled, not a
		 * file's pages read again) */
		if (!t->peer && in->cg.memory_limit &&
		    in->cg.memory_stall >= VERDICT_MEMSTALL &&
		    sec[VS_DISK] > m)
			m = sec[VS_DISK];
		if (m > 0)
			sec[VS_MEMORY] += m - take(g, p, i, to_memory, 2, m);
	}
	return 0;
}

/* Each process's disk: the one its disk edges (edges-LABEL.tsv kind
 * disk: the device of the files it was blocked on) name most, their
 * seconds summed over both directions; a process with none keeps the
 * tree's (in->disk, the host's busiest): the evidence named loop2, the
 * busiest, while the session's throttled source was loop1 (issue 46).
 * 0, -1 out of memory. */
static int edge_disks(struct vgraph *g, const struct verdict_tree_in *in,
		      int host)
{
	double *most = calloc(g->nproc ? g->nproc : 1, sizeof *most);
	if (!most)
		return -1;
	for (size_t j = 0; j < in->nedges; j++) {
		const struct waitpeer_edge *e = &in->edges[j].e;
		if (e->kind != PEER_DISK || !e->peer_comm[0])
			continue;
		int p = vgraph_find_proc(g, host, e->pid, e->comm);
		double s = 0;
		for (size_t k = 0; p >= 0 && k < in->nedges; k++) {
			const struct waitpeer_edge *x = &in->edges[k].e;
			if (x->kind == PEER_DISK && x->pid == e->pid &&
			    !strcmp(x->peer_comm, e->peer_comm))
				s += in->edges[k].seconds;
		}
		if (p < 0 || !(s > most[p]))
			continue;
		int d = vgraph_res(g, VRES_DISK, host, -1, e->peer_comm);
		if (d < 0) {
			free(most);
			return -1;
		}
		most[p] = s;
		g->proc[p].disk_res = d;
	}
	free(most);
	return 0;
}

/* A tree's processes and seconds; *hosts[k] its host's index. */
static int add_tree(struct bctx *b, const struct verdict_tree_in *in,
		    int *host)
{
	struct vgraph *g = b->g;
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
		for (size_t i = 0; i < g->nint; i++)
			g->cg[cg].throttled[i] = isnan(th) || th < 0 ? 0 :
						 th > 1 ? 1 : th;
	}
	if (in->disk && in->disk[0] &&
	    (disk = vgraph_res(g, VRES_DISK, *host, -1, in->disk)) < 0)
		return -1;
	if (!in->waits)
		return 0;
	int pids = has_pids(in->waits);
	double *tw = malloc(g->nint * sizeof *tw);
	if (!tw)
		return -1;
	tree_weights(b, in, tw);
	int rc = 0;
	for (size_t k = 0; k < in->waits->n && !rc; k++)
		if (!in->waits->t[k].peer)
			rc = add_thread(b, in, *host, cg, disk,
					&in->waits->t[k], pids, tw);
	free(tw);
	return rc;
}

/* Tree k's local peers (waits_total.peer), once every tree's own
 * processes are in: a peer another tree watches is that tree's. Then
 * each process's disk from the tree's disk edges. */
static int add_peers(struct bctx *b, const struct verdict_tree_in *trees,
		     size_t n, const int *hosts, size_t k)
{
	const struct verdict_tree_in *in = &trees[k];
	struct vgraph *g = b->g;
	int rc = 0, disk = -1;
	if (!in->waits)
		return 0;
	if (in->disk && in->disk[0] &&
	    (disk = vgraph_res(g, VRES_DISK, hosts[k], -1, in->disk)) < 0)
		return -1;
	double *tw = malloc(g->nint * sizeof *tw);
	if (!tw)
		return -1;
	tree_weights(b, in, tw);
	for (size_t j = 0; j < in->waits->n && !rc; j++) {
		const struct waits_total *t = &in->waits->t[j];
		if (t->peer && !watched(trees, n, hosts, hosts[k], t->pid))
			rc = add_thread(b, in, hosts[k], -1, disk, t, 1, tw);
	}
	free(tw);
	return rc ? rc : edge_disks(g, in, hosts[k]);
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
			to_grid(b, a, a + in->rows->step, &x->r.seconds, 1, out);
	}
	norm(out, nint, from_w);
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
			  size_t i, double x, double whole)
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
		int e = vgraph_edge(g, from, (int)p, -1, "child");
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
 * one after another): one edge to each process of that command in the
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
		take(g, from, i, from_proc_wait, 4, x);
		rc = share_by_alive(g, from, kin, i, x, whole);
	}
	free(kin);
	return rc < 0 ? -1 : 1;
}

static int add_edge(struct bctx *b, const struct verdict_tree_in *trees,
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
	if (peer_pid(in->waits, r->e.pid) &&
	    watched(trees, n, hosts, host, r->e.pid))
		return 0;	/* a peer another tree watches: its edges */
	int from = vgraph_proc(g, host, r->e.pid, r->e.comm, in->label);
	if (from < 0)
		return -1;
	/* the waiter's weights: its tree's fallback is even here (a
	 * process first named by an edge has no threads of its own) */
	const double *fw = proc_weights(b, in, b->even, from);
	if (!fw)
		return -1;
	edge_weights(b, in, r, fw, ew);
	if (r->e.kind == PEER_CHILD && r->e.peer_pid <= 0 &&
	    r->e.peer_comm[0]) {
		int c = child_edges(g, in, host, from, r, ew);
		if (c)
			return c < 0 ? -1 : 0;
	}
	int to, res = -1;
	const enum vstate *order = from_proc_wait;
	size_t norder = 4;
	if (r->e.kind == PEER_NET) {
		int far = -1;
		to = mirror(g, trees, n, hosts, host, r, &far);
		res = vgraph_res(g, VRES_NET, host, far, r->e.peer_comm);
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
		take(g, from, i, order, norder, x);
		g->edge[e].sec[i] += x;
	}
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

/* A tree's root blocked on something no edge of its names (a shell in
 * `wait` whose wait4 the sampler did not tie to a child: t3500's gzipN,
 * whose loops' subshells share its command) waits on its tree: its
 * `other` and idle seconds become waits on the tree's processes no
 * process of the tree waits on as a child (its own children), interval
 * by interval by their seconds alive. 0, -1 out of memory. */
static int root_waits(struct vgraph *g, const struct verdict_tree_in *in,
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
		rc = share_by_alive(g, root, kid, i, other, whole);
	}
	free(kid);
	return rc;
}

/* The intervals: the session cut at the multiples of the finest rows'
 * step (a tree's bins of a coarser step, or on another clock, are
 * redistributed by overlap: what is known of it), at most
 * VERDICT_INTERVALS; one when no tree has rows or begin is unknown.
 * Their bounds into *edge (NULL for one), their count. */
static size_t intervals(const struct verdict_tree_in *trees, size_t n,
			double begin, double seconds, double **edge)
{
	double step = 0;
	*edge = NULL;
	for (size_t k = 0; k < n; k++)
		if (trees[k].rows && trees[k].rows->np &&
		    (!(step > 0) || trees[k].rows->step < step))
			step = trees[k].rows->step;
	if (!(step > 0) || !isfinite(begin) || !(seconds > 0))
		return 1;
	while (seconds / step > VERDICT_INTERVALS - 2)
		step *= 2;
	double end = begin + seconds;
	double k0 = floor(begin / step) + 1, k1 = ceil(end / step) - 1;
	size_t nint = k1 >= k0 ? (size_t)(k1 - k0) + 2 : 1;
	double *e = malloc((nint + 1) * sizeof *e);
	if (!e)
		return 0;
	e[0] = begin;
	for (size_t i = 1; i < nint; i++)
		e[i] = (k0 + (double)(i - 1)) * step;
	e[nint] = end;
	*edge = e;
	return nint;
}

int verdict_build(struct vgraph *g, const struct verdict_tree_in *trees,
		  size_t n, double begin, double seconds)
{
	struct bctx b = { .g = g, .seconds = seconds };
	double *edge = NULL, *len = NULL, *ew = NULL;
	int rc = -1;
	size_t nint = intervals(trees, n, begin, seconds, &edge);
	int *hosts = malloc((n ? n : 1) * sizeof *hosts);
	memset(g, 0, sizeof *g);
	if (nint)
		len = malloc(nint * sizeof *len);
	if (nint)
		b.even = malloc(nint * sizeof *b.even);
	if (nint)
		ew = malloc(nint * sizeof *ew);
	if (!hosts || !len || !b.even || !ew)
		goto fail;
	for (size_t i = 0; i < nint; i++) {
		len[i] = edge ? edge[i + 1] - edge[i] : seconds;
		b.even[i] = seconds > 0 ? len[i] / seconds : 1.0 / (double)nint;
	}
	if (vgraph_init(g, nint, len))
		goto fail;
	b.edge = edge;
	for (size_t k = 0; k < n; k++)
		if (add_tree(&b, &trees[k], &hosts[k]))
			goto fail;
	for (size_t k = 0; k < n; k++)
		if (add_peers(&b, trees, n, hosts, k))
			goto fail;
	for (size_t k = 0; k < n; k++)
		for (size_t j = 0; j < trees[k].nedges; j++)
			if (add_edge(&b, trees, n, hosts, k, &trees[k].edges[j],
				     ew))
				goto fail;
	if (far_root(g, trees, n, hosts))
		goto fail;
	for (size_t k = 0; k < n; k++)
		if (root_waits(g, &trees[k], hosts[k]))
			goto fail;
	rc = 0;
fail:
	if (rc)
		vgraph_free(g);
	for (size_t p = 0; p < b.nw; p++)
		free(b.w[p]);
	free(b.w);
	free(b.even);
	free(ew);
	free(len);
	free(edge);
	free(hosts);
	return rc;
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
		    strcmp(pr->tree, label) ||
		    !(vgraph_proc_total(g, (int)p, NULL) > 0))
			continue;
		if (best < 0 || before(g, (int)p, best))
			best = (int)p;
	}
	return best;
}
