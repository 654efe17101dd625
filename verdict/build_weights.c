/*
 * build_weights.c - where the builder's seconds fall (verdict.h
 * verdict_build; build.c and build_edges.c use it): each process's
 * weights over the intervals from its rows, redistributed by overlap
 * onto the graph's intervals as shares summing to 1, and the taking of
 * seconds from a process's states in an interval.
 */
#include <stdlib.h>
#include <string.h>

#include "build_int.h"

#include "../common/util.h"

#define W (1 + WS_N)

/* Take up to x seconds from states order[] of process p in interval i:
 * what was not there to take. */
double vbuild_take(struct vgraph *g, int p, size_t i,
		   const enum vstate *order, size_t n, double x)
{
	double *sec = vgraph_sec(g, p, i);
	for (size_t k = 0; k < n && x > 0; k++) {
		double t = sec[order[k]] < x ? sec[order[k]] : x;
		sec[order[k]] -= t;
		x -= t;
	}
	return x;
}

/* x[0..w) over [a, e) of the report's clock added into out[c * nint +
 * i] by the share of [a, e) in interval i. A bin the session's begin or
 * end cuts is taken as the part inside: the process was alive in the
 * session (the totals count nothing before the session's first read),
 * and a bin spread over its whole length would leave a process started
 * mid-bin a part of its first seconds before the begin. */
void vbuild_to_grid(const struct bctx *b, double a, double e,
		    const double *x, size_t w, double *out)
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
void vbuild_norm(double *col, size_t nint, const double *fallback)
{
	double sum = 0;
	for (size_t i = 0; i < nint; i++)
		sum += col[i];
	for (size_t i = 0; i < nint; i++)
		col[i] = sum > 0 ? col[i] / sum : fallback[i];
}

/* Process p's weights (tree in; tw its tree's): its rows by pid, else
 * its name's summed row (pid 0); NULL out of memory. */
const double *vbuild_proc_weights(struct bctx *b,
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
			vbuild_to_grid(b, a, a + f->step, x, W, w);
			found = 1;
		}
	vbuild_norm(w, nint, tw);
	for (size_t c = 1; c < W; c++)
		vbuild_norm(w + c * nint, nint, w);
	return w;
}
