/*
 * solve.c - where each second of a root went (verdict.h; wPerf's
 * cascaded redistribution, on seconds).
 *
 * Interval by interval, the root's wall seconds alive are poured into its
 * knot (knots.c: a process in no cycle is a knot of one), and the knots
 * are swept in their order along the waits, each once with all it
 * received (sweep). A knot passes what it receives on to its outlets in
 * proportion to their seconds in that same interval:
 *   - its members' own seconds: running and waiting to run to the host's
 *     CPUs (to the cgroup's quota for the share it was throttled), disk
 *     to the disk its files are on, network with no edge to its host's
 *     network, memory to its cgroup's limit, sleep that paced data to the
 *     host's pacing: each a charge, with the member that spent them;
 *   - its waits on processes outside the knot: poured on into that
 *     process's knot, recursively (the waits between its members are the
 *     knot's own and go nowhere);
 *   - its waits on the network: to the path; when the far end's process
 *     is known, into it, whose own network seconds then are that path's
 *     (the far end waited on its socket: the network) and whose other
 *     seconds are followed as any process's (busy on its disk: the disk);
 *     its waits back through the network are the same path's, not
 *     followed again, and what it cannot cover (it was not alive, or
 *     idle) is the path's too.
 * A knot passes on at most its outlets' seconds: a process alive 2% of
 * the session absorbs at most its 2%, and a pool of idle threads adds
 * nothing (its parked seconds are no outlet). When it receives more, a
 * knot of several whose members waited on each other at the same time
 * (rsync's sender on ssh's pipe while ssh waited on the sender's) waited
 * as a whole: up to its internal waits' seconds, the gap goes to its
 * waiting outlets (disk, network, memory, pacing, waits out of the knot,
 * waits on nothing known), in proportion. What is left was a wait on
 * something the log does not see: charged to the knot's host's "not
 * seen", with the member that waited on nothing known most.
 */
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

struct ctx {
	const struct vgraph *g;
	size_t i;		/* the interval */
	const int *knot;	/* [nproc] */
	const size_t *kfirst;	/* [nknots + 1]: members by knot */
	const int *kmem;
	const size_t *efirst;	/* [nproc + 1]: out-edges by process */
	const int *eout;
	double *acc, *accq;	/* [nres * nproc]: this root's charges */
	/* per knot of the interval: the seconds poured in (plain, and
	 * through a network path: via), how many knots deep */
	double *in, *vin, *next_vin;
	int *vres, *next_vres, *depth;
};

static void charge(struct ctx *c, int res, int proc, double sec, int queued)
{
	size_t k = (size_t)res * c->g->nproc + (size_t)proc;
	c->acc[k] += sec;
	if (queued)
		c->accq[k] += sec;
}

/* The resource a member's own state's seconds go to; via: the network
 * path it was reached through, or -1. */
static int own_res(const struct ctx *c, int p, enum vstate s, int via)
{
	const struct vgraph *g = c->g;
	const struct vg_proc *pr = &g->proc[p];
	const struct vg_host *h = &g->host[pr->host];
	const struct vg_cgroup *cg = pr->cgroup >= 0 ? &g->cg[pr->cgroup] : NULL;
	switch (s) {
	case VS_DISK:
		return pr->disk_res >= 0 ? pr->disk_res : h->disk;
	case VS_NET:
		return via >= 0 ? via : h->net;
	case VS_MEMORY:
		return cg && cg->memory_res >= 0 ? cg->memory_res : h->unseen;
	case VS_SLEEP:
		return h->pacing;
	case VS_RUN:
	case VS_RUNQ:
		return h->cpu;
	default:
		return h->unseen;
	}
}

/* A member's CPU seconds x (queued: waiting to run): its cgroup's quota
 * takes the share the quota throttled it in the interval. */
static void charge_cpu(struct ctx *c, int p, double x, int queued)
{
	const struct vgraph *g = c->g;
	const struct vg_proc *pr = &g->proc[p];
	double q = 0;
	int qres = -1;
	if (pr->cgroup >= 0 && g->cg[pr->cgroup].quota_res >= 0) {
		qres = g->cg[pr->cgroup].quota_res;
		q = g->cg[pr->cgroup].throttled[c->i];
		q = q < 0 ? 0 : q > 1 ? 1 : q;
	}
	if (q > 0)
		charge(c, qres, p, x * q, queued);
	if (q < 1)
		charge(c, g->host[pr->host].cpu, p, x * (1 - q), queued);
}

/* An edge passes seconds on outside the knot k: not a wait between two
 * of its members. */
static int leaves(const struct ctx *c, const struct vg_edge *e, int k)
{
	return e->sec[c->i] > 0 &&
	       (e->res >= 0 || e->to < 0 || c->knot[e->to] != k);
}

struct outlets {
	const enum vstate *st;	/* the members' states that pass seconds */
	size_t n;
};

/* The active outlets, and the waiting ones a knot's mutual waits go to. */
static const enum vstate active_st[] = { VS_RUN, VS_RUNQ, VS_DISK, VS_NET,
					 VS_MEMORY, VS_SLEEP };
static const enum vstate waiting_st[] = { VS_DISK, VS_NET, VS_MEMORY,
					  VS_SLEEP, VS_OTHER };
static const struct outlets active = { active_st, 6 };
static const struct outlets waiting = { waiting_st, 5 };

/* The seconds of knot k's outlets o and its edges out of the knot, in
 * the interval; *internal (may be NULL) those of its edges within. */
static double outlet_sum(const struct ctx *c, int k, struct outlets o,
			 double *internal)
{
	const struct vgraph *g = c->g;
	double t = 0, in = 0;
	for (size_t m = c->kfirst[k]; m < c->kfirst[k + 1]; m++) {
		int p = c->kmem[m];
		const double *sec = vgraph_sec(g, p, c->i);
		for (size_t a = 0; a < o.n; a++)
			t += sec[o.st[a]];
		for (size_t x = c->efirst[p]; x < c->efirst[p + 1]; x++) {
			const struct vg_edge *e = &g->edge[c->eout[x]];
			if (leaves(c, e, k))
				t += e->sec[c->i];
			else
				in += e->sec[c->i];
		}
	}
	if (internal)
		*internal = in;
	return t;
}

/* Whether process p has no seconds in the interval: a peer the log does
 * not see. */
static int unseen(const struct ctx *c, int p)
{
	const double *sec = vgraph_sec(c->g, p, c->i);
	double x = c->g->proc[p].alive[c->i];
	for (int s = 0; s < VS_N; s++)
		x += sec[s];
	return !(x > 0);
}

/* Seconds a poured into the knot of process `to` from knot k: through a
 * network path res (the far end's, poured in the next sweep), or -1; via:
 * the path k itself was reached through, or -1 (the far host's processes
 * downstream of a connection wait on it as its far end did). */
static void flow(struct ctx *c, int k, int to, int res, int via, double a)
{
	int kk = c->knot[to];
	if (c->depth[kk] < c->depth[k] + 1)
		c->depth[kk] = c->depth[k] + 1;
	if (res < 0 && via < 0) {
		c->in[kk] += a;
	} else if (res < 0) {
		c->vin[kk] += a;	/* a lower number: this sweep */
		if (c->vres[kk] < 0)
			c->vres[kk] = via;
	} else {
		c->next_vin[kk] += a;
		if (c->next_vres[kk] < 0)
			c->next_vres[kk] = res;
	}
}

/* Pass f times each of knot k's outlets o and edges out on. */
static void pass(struct ctx *c, int k, struct outlets o, double f, int via)
{
	const struct vgraph *g = c->g;
	size_t i = c->i;
	for (size_t m = c->kfirst[k]; m < c->kfirst[k + 1]; m++) {
		int p = c->kmem[m];
		const double *sec = vgraph_sec(g, p, i);
		for (size_t a = 0; a < o.n; a++) {
			enum vstate s = o.st[a];
			if (sec[s] <= 0)
				continue;
			if (s == VS_RUN || s == VS_RUNQ)
				charge_cpu(c, p, sec[s] * f, s == VS_RUNQ);
			else
				charge(c, own_res(c, p, s, via), p, sec[s] * f, 0);
		}
		for (size_t x = c->efirst[p]; x < c->efirst[p + 1]; x++) {
			const struct vg_edge *e = &g->edge[c->eout[x]];
			if (!leaves(c, e, k))
				continue;
			double a = e->sec[i] * f;
			/* reached through the network, a wait on a peer the
			 * log does not see is on the connection's relay (the
			 * sshd the client's ssh talks to): the path's */
			if ((e->res >= 0 && (via >= 0 || e->to < 0)) ||
			    (via >= 0 && e->to >= 0 && unseen(c, e->to)))
				charge(c, via >= 0 ? via : e->res, p, a, 0);
			else
				flow(c, k, e->to, e->res, via, a);
		}
	}
}

/* Knot k's seconds w, all poured in before (its inflows summed: it
 * absorbs at most its outlets' seconds whoever waited on it), on to its
 * outlets. */
static void pour(struct ctx *c, int k, double w, int via)
{
	const struct vgraph *g = c->g;
	const int *mem = c->kmem + c->kfirst[k];
	size_t nmem = c->kfirst[k + 1] - c->kfirst[k];
	if (w <= 0 || !nmem)
		return;
	if (c->depth[k] > VERDICT_DEPTH) {
		charge(c, g->host[g->proc[mem[0]].host].unseen, mem[0], w, 0);
		return;
	}
	double internal;
	double t = outlet_sum(c, k, active, &internal);
	if (t > 0)
		pass(c, k, active, t > w ? w / t : 1, via);
	if (t >= w)
		return;
	double gap = w - t;
	/* the members waited on each other at once: the knot as a whole
	 * waited, on what its members waited on outside it */
	double mutual = gap < internal ? gap : internal;
	double tw = mutual > 0 ? outlet_sum(c, k, waiting, NULL) : 0;
	if (tw > 0) {
		pass(c, k, waiting, mutual / tw, via);
		gap -= mutual;
	}
	if (gap <= 0)
		return;
	/* the rest: waits on nothing known, by the member that had most;
	 * reached through the network, the far end was not there to hold
	 * the wait (not alive, or idle): the path's */
	int who = mem[0];
	double most = -1;
	for (size_t m = 0; m < nmem; m++) {
		const double *sec = vgraph_sec(g, mem[m], c->i);
		double o = sec[VS_OTHER] + sec[VS_IDLE];
		if (o > most) {
			most = o;
			who = mem[m];
		}
	}
	charge(c, via >= 0 ? via : g->host[g->proc[who].host].unseen, who,
	       gap, 0);
}

/* Root r's seconds w of interval c->i, through the knots: Tarjan
 * numbers a knot after every knot it waits on, so a sweep from the
 * highest number down pours each knot once, all its inflows in. A wait
 * through the network into another host's knot is poured in the next
 * sweep (the knots are per host: those waits are no knot's edges). */
static void sweep(struct ctx *c, long nk, int root, double w)
{
	for (long k = 0; k < nk; k++) {
		c->in[k] = c->vin[k] = c->next_vin[k] = 0;
		c->vres[k] = c->next_vres[k] = -1;
		c->depth[k] = 0;
	}
	c->in[c->knot[root]] = w;
	for (int round = 0; round <= VERDICT_DEPTH; round++) {
		int more = 0;
		for (long k = nk - 1; k >= 0; k--) {
			double x = c->in[k], v = c->vin[k];
			c->in[k] = c->vin[k] = 0;
			pour(c, (int)k, x, -1);
			pour(c, (int)k, v, c->vres[k]);
		}
		for (long k = 0; k < nk; k++) {
			c->vin[k] = c->next_vin[k];
			c->vres[k] = c->next_vres[k];
			c->next_vin[k] = 0;
			c->next_vres[k] = -1;
			more |= c->vin[k] > 0;
		}
		if (!more)
			return;
	}
	/* hosts crossed more often than the bound: not seen */
	for (long k = 0; k < nk; k++)
		if (c->vin[k] > 0) {
			int m = c->kmem[c->kfirst[k]];
			charge(c, c->g->host[c->g->proc[m].host].unseen, m,
			       c->vin[k], 0);
		}
}

static int by_root_sec(const void *a, const void *b)
{
	const struct vcharge *x = a, *y = b;
	if (x->root != y->root)
		return x->root < y->root ? -1 : 1;
	if (x->sec != y->sec)
		return x->sec > y->sec ? -1 : 1;
	if (x->res != y->res)
		return x->res < y->res ? -1 : 1;
	return x->proc < y->proc ? -1 : x->proc > y->proc;
}

/* This root's charges into s->c; acc emptied. */
static int flush(struct ctx *c, struct vsolution *s, int root)
{
	size_t n = c->g->nres * c->g->nproc;
	for (size_t k = 0; k < n; k++) {
		if (c->acc[k] <= 0)
			continue;
		if (util_grow(&s->c, &s->cap, s->n + 1, sizeof *s->c) < 0)
			return -1;
		s->c[s->n++] = (struct vcharge){
			.root = root, .res = (int)(k / c->g->nproc),
			.proc = (int)(k % c->g->nproc), .sec = c->acc[k],
			.queued = c->accq[k] };
		c->acc[k] = c->accq[k] = 0;
	}
	return 0;
}

/* Out-edges by process, as a compressed list. */
static int out_edges(const struct vgraph *g, size_t **first, int **out)
{
	*first = calloc(g->nproc + 1, sizeof **first);
	*out = malloc((g->nedge ? g->nedge : 1) * sizeof **out);
	if (!*first || !*out)
		return -1;
	for (size_t e = 0; e < g->nedge; e++)
		(*first)[g->edge[e].from + 1]++;
	for (size_t p = 0; p < g->nproc; p++)
		(*first)[p + 1] += (*first)[p];
	for (size_t e = 0, *fill = *first; e < g->nedge; e++) {
		size_t slot = fill[g->edge[e].from]++;
		(*out)[slot] = (int)e;
	}
	for (size_t p = g->nproc; p > 0; p--)	/* undo the fill's shift */
		(*first)[p] = (*first)[p - 1];
	(*first)[0] = 0;
	return 0;
}

/* Members by knot, as a compressed list. */
static void members(const int *knot, size_t nproc, long nknots,
		    size_t *kfirst, int *kmem)
{
	memset(kfirst, 0, ((size_t)nknots + 1) * sizeof *kfirst);
	for (size_t p = 0; p < nproc; p++)
		kfirst[knot[p] + 1]++;
	for (long k = 0; k < nknots; k++)
		kfirst[k + 1] += kfirst[k];
	for (size_t p = 0; p < nproc; p++)
		kmem[kfirst[knot[p]]++] = (int)p;
	for (long k = nknots; k > 0; k--)
		kfirst[k] = kfirst[k - 1];
	kfirst[0] = 0;
}

int verdict_solve(const struct vgraph *g, const int *roots, size_t nroots,
		  struct vsolution *s)
{
	memset(s, 0, sizeof *s);
	size_t np = g->nproc ? g->nproc : 1;
	struct ctx c = { .g = g };
	int *knot = malloc(np * sizeof *knot);
	int *kmem = malloc(np * sizeof *kmem);
	size_t *kfirst = malloc((np + 1) * sizeof *kfirst);
	size_t *efirst = NULL;
	int *eout = NULL;
	c.acc = calloc(g->nres * np, sizeof *c.acc);
	c.accq = calloc(g->nres * np, sizeof *c.accq);
	c.in = malloc(np * sizeof *c.in);
	c.vin = malloc(np * sizeof *c.vin);
	c.next_vin = malloc(np * sizeof *c.next_vin);
	c.vres = malloc(np * sizeof *c.vres);
	c.next_vres = malloc(np * sizeof *c.next_vres);
	c.depth = malloc(np * sizeof *c.depth);
	s->roots = malloc((nroots ? nroots : 1) * sizeof *s->roots);
	s->followed = calloc(nroots ? nroots : 1, sizeof *s->followed);
	int rc = -1;
	if (!knot || !kmem || !kfirst || !c.acc || !c.accq || !c.in ||
	    !c.vin || !c.next_vin || !c.vres || !c.next_vres || !c.depth ||
	    !s->roots ||
	    !s->followed || out_edges(g, &efirst, &eout))
		goto out;
	c.knot = knot;
	c.kmem = kmem;
	c.kfirst = kfirst;
	c.efirst = efirst;
	c.eout = eout;
	s->nroots = nroots;
	if (nroots)
		memcpy(s->roots, roots, nroots * sizeof *roots);
	for (size_t r = 0; r < nroots; r++) {
		for (size_t i = 0; i < g->nint; i++) {
			/* knots again per interval and root: cheap beside
			 * the pour, and the tables stay one */
			long nk = verdict_knots(g, i, knot);
			if (nk < 0)
				goto out;
			members(knot, g->nproc, nk, kfirst, kmem);
			c.i = i;
			double w = g->proc[roots[r]].alive[i];
			s->followed[r] += w;
			sweep(&c, nk, roots[r], w);
		}
		if (flush(&c, s, (int)r))
			goto out;
	}
	qsort(s->c, s->n, sizeof *s->c, by_root_sec);
	rc = 0;
out:
	free(knot);
	free(kmem);
	free(kfirst);
	free(efirst);
	free(eout);
	free(c.acc);
	free(c.accq);
	free(c.in);
	free(c.vin);
	free(c.next_vin);
	free(c.vres);
	free(c.next_vres);
	free(c.depth);
	if (rc)
		vsolution_free(s);
	return rc;
}

void vsolution_free(struct vsolution *s)
{
	free(s->roots);
	free(s->followed);
	free(s->c);
	memset(s, 0, sizeof *s);
}

double verdict_res_seconds(const struct vsolution *s, size_t r, int res)
{
	double sum = 0;
	for (size_t k = 0; k < s->n; k++)
		if (s->c[k].root == (int)r && s->c[k].res == res)
			sum += s->c[k].sec;
	return sum;
}

int verdict_res_user(const struct vsolution *s, size_t r, int res,
		     double *sec)
{
	/* sorted by seconds within a root: the first is the most */
	for (size_t k = 0; k < s->n; k++)
		if (s->c[k].root == (int)r && s->c[k].res == res) {
			if (sec)
				*sec = s->c[k].sec;
			return s->c[k].proc;
		}
	if (sec)
		*sec = 0;
	return -1;
}

int verdict_cmd_user(const struct vgraph *g, const struct vsolution *s,
		     size_t r, int res, double *sec, int *nprocs)
{
	int best = -1, n = 0;
	double most = 0;
	/* sorted by seconds within a root: a command's first charge is
	 * its process charged most */
	for (size_t k = 0; k < s->n; k++) {
		const struct vcharge *c = &s->c[k];
		if (c->root != (int)r || c->res != res || c->proc < 0)
			continue;
		const struct vg_proc *p = &g->proc[c->proc];
		int first = 1;
		for (size_t j = 0; j < k && first; j++)
			first = !(s->c[j].root == (int)r && s->c[j].res == res &&
				  s->c[j].proc >= 0 &&
				  g->proc[s->c[j].proc].host == p->host &&
				  !strcmp(g->proc[s->c[j].proc].group, p->group));
		if (!first)
			continue;
		double x = 0;
		int m = 0;
		for (size_t j = k; j < s->n; j++)
			if (s->c[j].root == (int)r && s->c[j].res == res &&
			    s->c[j].proc >= 0 &&
			    g->proc[s->c[j].proc].host == p->host &&
			    !strcmp(g->proc[s->c[j].proc].group, p->group)) {
				x += s->c[j].sec;
				m++;
			}
		if (x > most) {
			most = x;
			best = c->proc;
			n = m;
		}
	}
	/* one process of it that held most of the command's seconds is
	 * the one named (rsync's receiver, not its generator beside it) */
	double own = 0;
	for (size_t k = 0; best >= 0 && k < s->n; k++)
		if (s->c[k].root == (int)r && s->c[k].res == res &&
		    s->c[k].proc == best)
			own += s->c[k].sec;
	if (best >= 0 && 2 * own >= most) {
		most = own;
		n = 1;
	}
	if (sec)
		*sec = most;
	if (nprocs)
		*nprocs = n;
	return best;
}

void verdict_of(const struct vgraph *g, const struct vsolution *s, size_t r,
		struct verdict *v)
{
	memset(v, 0, sizeof *v);
	v->res = v->proc = v->runner_res = v->runner_proc = v->host = -1;
	v->kind = VERDICT_NOTHING;
	v->word = verdict_word(VRES_UNSEEN);
	double best = 0, second = 0;
	for (size_t res = 0; res < g->nres; res++) {
		double x = verdict_res_seconds(s, r, (int)res);
		if (x > best) {
			second = best;
			v->runner_res = v->res;
			best = x;
			v->res = (int)res;
		} else if (x > second) {
			second = x;
			v->runner_res = (int)res;
		}
	}
	if (v->res < 0)
		return;
	double session = vgraph_seconds(g);
	v->word = verdict_word(g->res[v->res].type);
	v->kind = v->word->kind;
	v->host = g->res[v->res].host;
	v->sec = best;
	v->share = session > 0 ? best / session : 0;
	v->proc = verdict_cmd_user(g, s, r, v->res, &v->proc_sec, &v->nprocs);
	if (v->runner_res >= 0 && second * VERDICT_MARGIN >= best) {
		v->runner_sec = second;
		v->runner_proc = verdict_cmd_user(g, s, r, v->runner_res, NULL,
					  NULL);
	} else {
		v->runner_res = -1;
	}
}
