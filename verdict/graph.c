/*
 * graph.c - the session's wait graph: vertices found by identity or
 * added, every amount a second per interval, and the process a tree's
 * seconds start from (verdict.h).
 */
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

#include "../common/util.h"

static void copy(char *dst, size_t n, const char *src)
{
	size_t l = src ? strlen(src) : 0;
	if (l >= n)
		l = n - 1;
	if (l)
		memcpy(dst, src, l);
	dst[l] = '\0';
}

int vgraph_init(struct vgraph *g, size_t nint, const double *len)
{
	memset(g, 0, sizeof *g);
	if (!nint)
		return -1;
	g->len = malloc(nint * sizeof *g->len);
	if (!g->len)
		return -1;
	memcpy(g->len, len, nint * sizeof *g->len);
	g->nint = nint;
	return 0;
}

void vgraph_free(struct vgraph *g)
{
	for (size_t i = 0; i < g->ncg; i++)
		free(g->cg[i].throttled);
	for (size_t i = 0; i < g->nproc; i++) {
		free(g->proc[i].alive);
		free(g->proc[i].sec);
	}
	for (size_t i = 0; i < g->nedge; i++)
		free(g->edge[i].sec);
	free(g->len);
	free(g->host);
	free(g->res);
	free(g->cg);
	free(g->proc);
	free(g->edge);
	memset(g, 0, sizeof *g);
}

double vgraph_seconds(const struct vgraph *g)
{
	double s = 0;
	for (size_t i = 0; i < g->nint; i++)
		s += g->len[i];
	return s;
}

double vgraph_proc_total(const struct vgraph *g, int p, double sec[VS_N])
{
	double alive = 0;
	if (sec)
		memset(sec, 0, VS_N * sizeof *sec);
	for (size_t i = 0; i < g->nint; i++) {
		alive += g->proc[p].alive[i];
		for (int k = 0; sec && k < VS_N; k++)
			sec[k] += vgraph_sec(g, p, i)[k];
	}
	return alive;
}

double vgraph_edge_total(const struct vgraph *g, int e)
{
	double s = 0;
	for (size_t i = 0; i < g->nint; i++)
		s += g->edge[e].sec[i];
	return s;
}

int vgraph_host(struct vgraph *g, const char *name)
{
	for (size_t i = 0; i < g->nhost; i++)
		if (!strcmp(g->host[i].name, name ? name : ""))
			return (int)i;
	if (util_grow(&g->host, &g->caphost, g->nhost + 1, sizeof *g->host))
		return -1;
	int h = (int)g->nhost++;
	copy(g->host[h].name, sizeof g->host[0].name, name);
	int cpu = vgraph_res(g, VRES_CPU, h, -1, "");
	int disk = vgraph_res(g, VRES_DISK, h, -1, "");
	int net = vgraph_res(g, VRES_NET, h, -1, "");
	int pacing = vgraph_res(g, VRES_PACING, h, -1, "");
	int unseen = vgraph_res(g, VRES_UNSEEN, h, -1, "");
	if (cpu < 0 || disk < 0 || net < 0 || pacing < 0 || unseen < 0)
		return -1;
	g->host[h] = (struct vg_host){ .cpu = cpu, .disk = disk, .net = net,
				       .pacing = pacing, .unseen = unseen };
	copy(g->host[h].name, sizeof g->host[0].name, name);
	return h;
}

/* A resource by its identity, found or added. */
static int res_of(struct vgraph *g, enum vres_type type, int host,
		  int far_host, const char *name, const char *peer)
{
	if (type != VRES_NET)
		far_host = -1, peer = "";
	for (size_t i = 0; i < g->nres; i++) {
		const struct vg_res *r = &g->res[i];
		if (r->type == type && r->host == host &&
		    r->far_host == far_host &&
		    !strcmp(r->name, name ? name : "") &&
		    !strcmp(r->peer, peer ? peer : ""))
			return (int)i;
	}
	if (util_grow(&g->res, &g->capres, g->nres + 1, sizeof *g->res))
		return -1;
	struct vg_res *r = &g->res[g->nres];
	r->type = type;
	r->host = host;
	r->far_host = far_host;
	copy(r->name, sizeof r->name, name);
	copy(r->peer, sizeof r->peer, peer);
	return (int)g->nres++;
}

int vgraph_res(struct vgraph *g, enum vres_type type, int host, int far_host,
	       const char *name)
{
	return res_of(g, type, host, far_host, name, "");
}

int vgraph_net(struct vgraph *g, int host, int far_host, const char *iface,
	       const char *peer)
{
	return res_of(g, VRES_NET, host, far_host, iface, peer);
}

int vgraph_cgroup(struct vgraph *g, int host, const char *name, double quota,
		  int memory_limit)
{
	for (size_t i = 0; i < g->ncg; i++)
		if (g->cg[i].host == host && !strcmp(g->cg[i].name, name))
			return (int)i;
	if (util_grow(&g->cg, &g->capcg, g->ncg + 1, sizeof *g->cg))
		return -1;
	struct vg_cgroup *c = &g->cg[g->ncg];
	memset(c, 0, sizeof *c);
	c->host = host;
	copy(c->name, sizeof c->name, name);
	c->throttled = calloc(g->nint, sizeof *c->throttled);
	if (!c->throttled)
		return -1;
	c->quota_res = c->memory_res = -1;
	g->ncg++;
	if (quota > 0 &&
	    (c->quota_res = vgraph_res(g, VRES_QUOTA, host, -1, name)) < 0)
		return -1;
	if (memory_limit &&
	    (c->memory_res = vgraph_res(g, VRES_MEMORY, host, -1, name)) < 0)
		return -1;
	return (int)(c - g->cg);
}

int vgraph_find_proc(const struct vgraph *g, int host, pid_t pid,
		     const char *comm)
{
	for (size_t i = 0; i < g->nproc; i++) {
		const struct vg_proc *p = &g->proc[i];
		if (p->host != host || p->pid != pid)
			continue;
		if (pid || !strcmp(p->comm, comm ? comm : ""))
			return (int)i;
	}
	return -1;
}

int vgraph_proc(struct vgraph *g, int host, pid_t pid, const char *comm,
		const char *tree)
{
	int f = vgraph_find_proc(g, host, pid, comm);
	if (f >= 0)
		return f;
	if (util_grow(&g->proc, &g->capproc, g->nproc + 1, sizeof *g->proc))
		return -1;
	struct vg_proc *p = &g->proc[g->nproc];
	memset(p, 0, sizeof *p);
	p->alive = calloc(g->nint, sizeof *p->alive);
	p->sec = calloc(g->nint * VS_N, sizeof *p->sec);
	if (!p->alive || !p->sec) {
		free(p->alive);
		free(p->sec);
		return -1;
	}
	p->host = host;
	p->pid = pid;
	copy(p->comm, sizeof p->comm, comm);
	copy(p->group, sizeof p->group, comm);
	copy(p->tree, sizeof p->tree, tree);
	p->cgroup = p->disk_res = -1;
	return (int)g->nproc++;
}

int vgraph_edge(struct vgraph *g, int from, int to, int res,
		const char *kind)
{
	for (size_t i = 0; i < g->nedge; i++) {
		const struct vg_edge *e = &g->edge[i];
		if (e->from == from && e->to == to && e->res == res &&
		    !strcmp(e->kind, kind))
			return (int)i;
	}
	if (util_grow(&g->edge, &g->capedge, g->nedge + 1, sizeof *g->edge))
		return -1;
	struct vg_edge *e = &g->edge[g->nedge];
	memset(e, 0, sizeof *e);
	e->sec = calloc(g->nint, sizeof *e->sec);
	if (!e->sec)
		return -1;
	e->from = from;
	e->to = to;
	e->res = res;
	copy(e->kind, sizeof e->kind, kind);
	return (int)g->nedge++;
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
