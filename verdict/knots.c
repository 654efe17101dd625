/*
 * knots.c - the knots of an interval: processes that waited on each
 * other in a circle (rsync's sender and generator, a request and its
 * reply) are one knot, charged together (wPerf's knots). Tarjan's
 * strongly connected components, iterative so that a long chain cannot
 * run the stack out. Waits through the network are not followed here: the
 * two directions of a connection across hosts meet at the path, which is
 * a resource (solve.c).
 */
#include <stdlib.h>

#include "verdict.h"

struct frame {
	int v;
	size_t next;	/* the next of its out-edges to look at */
};

/* The out-edges of each process in interval i, as a compressed list. */
static int adjacency(const struct vgraph *g, size_t i, size_t **first,
		     int **to)
{
	size_t n = g->nproc;
	*first = calloc(n + 1, sizeof **first);
	*to = malloc((g->nedge ? g->nedge : 1) * sizeof **to);
	if (!*first || !*to)
		return -1;
	for (size_t e = 0; e < g->nedge; e++) {
		const struct vg_edge *ed = &g->edge[e];
		if (ed->to >= 0 && ed->res < 0 && ed->sec[i] > 0)
			(*first)[ed->from + 1]++;
	}
	for (size_t v = 0; v < n; v++)
		(*first)[v + 1] += (*first)[v];
	size_t *fill = malloc((n ? n : 1) * sizeof *fill);
	if (!fill)
		return -1;
	for (size_t v = 0; v < n; v++)
		fill[v] = (*first)[v];
	for (size_t e = 0; e < g->nedge; e++) {
		const struct vg_edge *ed = &g->edge[e];
		if (ed->to >= 0 && ed->res < 0 && ed->sec[i] > 0)
			(*to)[fill[ed->from]++] = ed->to;
	}
	free(fill);
	return 0;
}

long verdict_knots(const struct vgraph *g, size_t i, int *knot)
{
	size_t n = g->nproc;
	size_t *first = NULL;
	int *to = NULL;
	long nknots = -1;
	int *idx = malloc((n ? n : 1) * sizeof *idx);
	int *low = malloc((n ? n : 1) * sizeof *low);
	int *stack = malloc((n ? n : 1) * sizeof *stack);
	char *on = calloc(n ? n : 1, 1);
	struct frame *fr = malloc((n ? n : 1) * sizeof *fr);
	if (!idx || !low || !stack || !on || !fr || adjacency(g, i, &first, &to))
		goto out;
	for (size_t v = 0; v < n; v++)
		idx[v] = -1;
	int counter = 0;
	size_t sp = 0;
	nknots = 0;
	for (size_t s = 0; s < n; s++) {
		if (idx[s] >= 0)
			continue;
		size_t depth = 0;
		fr[depth++] = (struct frame){ (int)s, first[s] };
		idx[s] = low[s] = counter++;
		stack[sp++] = (int)s;
		on[s] = 1;
		while (depth) {
			struct frame *f = &fr[depth - 1];
			int v = f->v;
			if (f->next < first[v + 1]) {
				int w = to[f->next++];
				if (idx[w] < 0) {
					idx[w] = low[w] = counter++;
					stack[sp++] = w;
					on[w] = 1;
					fr[depth++] = (struct frame){ w, first[w] };
				} else if (on[w] && idx[w] < low[v]) {
					low[v] = idx[w];
				}
				continue;
			}
			if (low[v] == idx[v]) {
				int w;
				do {
					w = stack[--sp];
					on[w] = 0;
					knot[w] = (int)nknots;
				} while (w != v);
				nknots++;
			}
			depth--;
			if (depth && low[v] < low[fr[depth - 1].v])
				low[fr[depth - 1].v] = low[v];
		}
	}
out:
	free(idx);
	free(low);
	free(stack);
	free(on);
	free(fr);
	free(first);
	free(to);
	return nknots;
}
