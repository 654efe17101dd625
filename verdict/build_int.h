/*
 * build_int.h - what the builder's files share (verdict.h verdict_build):
 * build.c (the intervals, the processes and their seconds: calls the
 * others), build_edges.c (the waits between the processes),
 * build_weights.c (where a process's seconds fall over the intervals)
 * and build_peers.c (which rows are a local peer's).
 */
#ifndef PERFLOG_VERDICT_BUILD_INT_H
#define PERFLOG_VERDICT_BUILD_INT_H

#include <stddef.h>

#include "verdict.h"

/* What the builder carries: the intervals' bounds and each process's
 * weights. */
struct bctx {
	struct vgraph *g;
	const double *edge;	/* [nint + 1]: the intervals' bounds on the
				 * report's clock; NULL: one, no rows read */
	double seconds;
	double *even;		/* [nint]: an interval's share of the session */
	double **w;		/* [nw]: process p's weights, 1 + WS_N
				 * columns of nint (alive, then the states),
				 * NULL not made yet */
	size_t nw;
};

/* ---- build_weights.c ---------------------------------------------- */

/* Take up to x seconds from states order[0..n) of process p in interval
 * i, in that order: what was not there to take. */
double vbuild_take(struct vgraph *g, int p, size_t i,
		   const enum vstate *order, size_t n, double x);
/* x[0..w) over [a, e) of the report's clock added into out[c * nint +
 * i] by the share of [a, e) in interval i (a bin the session cuts taken
 * as its part inside). */
void vbuild_to_grid(const struct bctx *b, double a, double e,
		    const double *x, size_t w, double *out);
/* col[0..nint) as shares summing to 1, else fallback's. */
void vbuild_norm(double *col, size_t nint, const double *fallback);
/* Process p's weights (tree in; tw its tree's, the fallback): its rows
 * by pid, else its name's summed row (pid 0); NULL out of memory. */
const double *vbuild_proc_weights(struct bctx *b,
				  const struct verdict_tree_in *in,
				  const double *tw, int p);

/* ---- build_peers.c ------------------------------------------------ */

/* Whether process pid is a tree's own on host (not a peer's) among
 * trees[0..n): a peer one sampler read that another watches (the local
 * server a client's pipe leads to) counts once, as the other's. */
int vbuild_watched(const struct verdict_tree_in *trees, size_t n,
		   const int *hosts, int host, pid_t pid);

/* ---- build_edges.c ------------------------------------------------ */

/* Edge row r of tree k (host hosts[k]) into the graph, its seconds taken
 * from its waiter's states interval by interval; ew[nint] scratch. 0, -1
 * out of memory. */
int vbuild_add_edge(struct bctx *b, const struct verdict_tree_in *trees,
		    size_t n, const int *hosts, size_t k,
		    const struct waitedge_row *r, double *ew);
/* The net edges no row of another host mirrors, onto the other host's
 * first tree's root when the report has exactly one other host. 0, -1
 * out of memory. */
int vbuild_far_root(struct vgraph *g, const struct verdict_tree_in *trees,
		    size_t n, const int *hosts);
/* A tree's root blocked on nothing an edge names waits on its own
 * children, by their seconds alive. 0, -1 out of memory. */
int vbuild_root_waits(struct vgraph *g, const struct verdict_tree_in *in,
		      int host);

#endif
