/*
 * build.c - a session's graph from the parsed files of its trees on each
 * host (verdict.h verdict_build): the rows of waits-LABEL.tsv become the
 * processes' seconds, the rows of edges-LABEL.tsv the waits between
 * them (build_edges.c). Data in, no paths: the report reads the files.
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
 *     MEMORY; stalled VERDICT_MEMSTALL or more, all its disk seconds,
 *     and of the running of a thread that waited on the disk, the
 *     tree's kernel share (verdict_tree_in.kernel_share).
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
#include <stdlib.h>
#include <string.h>

#include "build_int.h"

static const enum vstate to_memory[] = { VS_DISK, VS_OTHER };
static const enum vstate run_state[] = { VS_RUN };

/* Whether the tree's file has the pid column (of after issue 29): a file
 * without is one process. */
static int has_pids(const struct waits_totals *w)
{
	for (size_t k = 0; k < w->n; k++)
		if (w->t[k].pid > 0)
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
		if (!waitrates_peer_pid(in->waits, r->pid))
			vbuild_to_grid(b, a, a + in->rows->step, &r->alive, 1,
				       out);
	}
	vbuild_norm(out, nint, b->even);
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
	const double *w = vbuild_proc_weights(b, in, tw, p);
	if (!w)
		return -1;
	size_t nint = g->nint;
	int working = waitrates_working(t), moved = waitrates_moved_data(t);
	double life = t->alive < b->seconds ? t->alive : b->seconds;
	/* a group its memory held that long reads back what its limit
	 * evicted: its disk seconds are the memory's (the kernel counts
	 * only workingset refaults as stalled, not a file's pages read
	 * again); and a thread that read back what the limit evicted ran in
	 * the kernel to fault those pages in and to reclaim room for them:
	 * its running there is the memory's too, as much of it as the
	 * tree's CPU was the kernel's (t3510's memory case: 97% of
	 * loadgen's CPU, running 50% of its life on a fast disk, was
	 * charged to the CPU, which then tied the memory's refaults and was
	 * named) */
	int held = !t->peer && in->cg.memory_limit &&
		   in->cg.memory_stall >= VERDICT_MEMSTALL;
	double kernel = in->kernel_share > 0 && in->kernel_share <= 1 ?
			in->kernel_share : 0;
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
		if (held && sec[VS_DISK] > m)
			m = sec[VS_DISK];
		if (m > 0)
			sec[VS_MEMORY] += m - vbuild_take(g, p, i, to_memory, 2,
							  m);
		if (held && x[WS_DISK] > 0 && kernel > 0)
			sec[VS_MEMORY] += x[WS_CPU] * kernel -
				vbuild_take(g, p, i, run_state, 1,
					    x[WS_CPU] * kernel);
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
		if (t->peer && !vbuild_watched(trees, n, hosts, hosts[k], t->pid))
			rc = add_thread(b, in, hosts[k], -1, disk, t, 1, tw);
	}
	free(tw);
	return rc ? rc : edge_disks(g, in, hosts[k]);
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
			if (vbuild_add_edge(&b, trees, n, hosts, k,
					    &trees[k].edges[j], ew))
				goto fail;
	if (vbuild_far_root(g, trees, n, hosts))
		goto fail;
	for (size_t k = 0; k < n; k++)
		if (vbuild_root_waits(g, &trees[k], hosts[k]))
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
