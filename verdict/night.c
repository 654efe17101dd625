/*
 * night.c - a night of overlapping sessions on one graph (verdict.h
 * verdict_night, issue 47): each session's root solved apart
 * (verdict_solve with several roots), then the resource they held each
 * other back on.
 *
 * The night's clock is cut at every session's begin and end into spans
 * in which the same sessions ran. A session's charges are spread evenly
 * over its own span (its trees' files are session totals, so nothing
 * finer is known). In each span where two sessions or more ran, a
 * resource is held by each of them whose charges on it come to at least
 * VERDICT_NIGHT_HELD of its session; when two or more hold it there,
 * their seconds on it in that span count for it. The shared limit is the
 * resource with the most such seconds. A session whose own verdict is a
 * resource no session beside it held (its own link's shaping, its own
 * cgroup's quota, the CPUs of a host only it ran on) was held back by
 * its own: it is said, and it is not a holder of anything shared.
 */
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

/* The resources sessions can hold each other back on: pacing and "not
 * seen" are no one's to share. */
static int shareable(const struct vgraph *g, int res)
{
	switch (g->res[res].type) {
	case VRES_CPU:
	case VRES_QUOTA:
	case VRES_DISK:
	case VRES_NET:
	case VRES_MEMORY:
		return 1;
	default:
		return 0;
	}
}

static double span(const struct vnight_in *x)
{
	return x->end > x->begin ? x->end - x->begin : 0;
}

static int overlap(const struct vnight_in *a, const struct vnight_in *b)
{
	double lo = a->begin > b->begin ? a->begin : b->begin;
	double hi = a->end < b->end ? a->end : b->end;
	return hi > lo;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Session k held resource res (ch: [n * nres] its charges). */
static int held(const struct vgraph *g, const struct vnight_in *in,
		const double *ch, size_t k, int res)
{
	double len = span(&in[k]);
	return in[k].root >= 0 && len > 0 &&
	       ch[k * g->nres + (size_t)res] >= VERDICT_NIGHT_HELD * len;
}

int verdict_night(const struct vgraph *g, const struct vsolution *s,
		  const struct vnight_in *in, size_t n, struct vnight *out)
{
	memset(out, 0, sizeof *out);
	out->shared = -1;
	size_t nn = n ? n : 1, nres = g->nres;
	double *ch = calloc(nn * (nres ? nres : 1), sizeof *ch);
	double *cut = malloc(2 * nn * sizeof *cut);
	double *best_on = calloc(nn, sizeof *best_on);
	double *on = calloc(nn, sizeof *on);
	size_t *alive = malloc(nn * sizeof *alive);
	out->n = n;
	out->v = calloc(nn, sizeof *out->v);
	out->own = calloc(nn, sizeof *out->own);
	out->overlap = calloc(nn, sizeof *out->overlap);
	out->on = calloc(nn, sizeof *out->on);
	if (!ch || !cut || !best_on || !on || !alive || !out->v || !out->own ||
	    !out->overlap || !out->on) {
		free(ch);
		free(cut);
		free(best_on);
		free(on);
		free(alive);
		vnight_free(out);
		return -1;
	}
	/* each session's charges by resource, and its verdict */
	for (size_t c = 0; c < s->n; c++)
		for (size_t k = 0; k < n; k++)
			if (in[k].root == s->c[c].root)
				ch[k * nres + (size_t)s->c[c].res] += s->c[c].sec;
	for (size_t k = 0; k < n; k++) {
		if (in[k].root >= 0 && (size_t)in[k].root < s->nroots) {
			verdict_of(g, s, (size_t)in[k].root, &out->v[k]);
		} else {
			out->v[k].res = out->v[k].proc = out->v[k].host = -1;
			out->v[k].runner_res = out->v[k].runner_proc = -1;
			out->v[k].word = verdict_word(VRES_UNSEEN);
		}
	}
	/* held back by its own: no session beside it held its resource */
	for (size_t k = 0; k < n; k++) {
		int res = out->v[k].res;
		if (res < 0 || !shareable(g, res))
			continue;
		int others = 0, beside = 0;
		for (size_t o = 0; o < n; o++) {
			if (o == k || !overlap(&in[k], &in[o]))
				continue;
			beside = 1;
			others |= held(g, in, ch, o, res);
		}
		out->own[k] = beside && !others;
	}
	/* the night's spans, cut at every begin and end */
	size_t ncut = 0;
	for (size_t k = 0; k < n; k++) {
		cut[ncut++] = in[k].begin;
		cut[ncut++] = in[k].end;
	}
	qsort(cut, ncut, sizeof *cut, by_value);
	double best = 0;
	for (size_t r = 0; r <= nres; r++) {
		/* r == nres: the pass that only counts the overlaps */
		int count = r == nres;
		if (!count && !shareable(g, (int)r))
			continue;
		double total = 0, together = 0;
		memset(on, 0, nn * sizeof *on);
		for (size_t c = 0; c + 1 < ncut; c++) {
			double a = cut[c], b = cut[c + 1], len = b - a;
			size_t na = 0, nh = 0;
			if (!(len > 0))
				continue;
			for (size_t k = 0; k < n; k++)
				if (in[k].begin <= a && in[k].end >= b)
					alive[na++] = k;
			if (na < 2)
				continue;
			if (count) {
				out->overlapped += len;
				for (size_t x = 0; x < na; x++)
					out->overlap[alive[x]] += len;
				continue;
			}
			for (size_t x = 0; x < na; x++)
				if (!out->own[alive[x]] && held(g, in, ch, alive[x], (int)r))
					alive[nh++] = alive[x];
			if (nh < 2)
				continue;
			together += len;
			for (size_t x = 0; x < nh; x++) {
				size_t k = alive[x];
				double sec = ch[k * nres + r] / span(&in[k]) * len;
				sec = sec < len ? sec : len;
				on[k] += sec;
				total += sec;
			}
		}
		if (!count && total > best) {
			best = total;
			out->shared = (int)r;
			out->together = together;
			memcpy(best_on, on, nn * sizeof *on);
		}
	}
	memcpy(out->on, best_on, nn * sizeof *best_on);
	free(ch);
	free(cut);
	free(best_on);
	free(on);
	free(alive);
	return 0;
}

void vnight_free(struct vnight *nt)
{
	free(nt->v);
	free(nt->own);
	free(nt->overlap);
	free(nt->on);
	memset(nt, 0, sizeof *nt);
	nt->shared = -1;
}
