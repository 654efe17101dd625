/*
 * report_graph.c - the session's wait graph (verdict/verdict.h, issue
 * 46) from the rows its stages kept of each watched tree's files on each
 * host, solved from the session's root, printed in seconds and shares of
 * the session, and in --json:
 *
 *   Seconds (the wait graph: where the session's 19.1 s went):
 *     stage              host          alive     run    cpuw    disk     net   other  charged
 *     zstd               (vm)           19.1    18.9     0.0     0.0     0.0     0.2   18.9 s  99%
 *     ...
 *     CPU on vm                                                                          19.0 s  99%  zstd 18.9 s
 *
 * The Bottleneck line above it is this solution's (report_verdict.c).
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/json.h"
#include "report_graph_int.h"

void report_graph_free(struct report_session *s)
{
	if (!s->graph)
		return;
	vsolution_free(&s->graph->s);
	vgraph_free(&s->graph->g);
	free(s->graph);
	s->graph = NULL;
}

int report_graph_side(const struct report_session *s, const char *host)
{
	const struct report_stages *ss = s->stages;
	for (int i = 0; ss && i < 4; i++)
		if (ss->hosts[i][0] && !strcmp(ss->hosts[i], host))
			return i;
	return -1;
}

void report_graph_stage_name(const struct report_session *s,
			     const struct vgraph *g, int p, char *buf,
			     size_t n)
{
	const struct report_stages *ss = s->stages;
	int side = report_graph_side(s, g->host[g->proc[p].host].name);
	for (size_t i = 0; ss && i < ss->n; i++)
		if (ss->st[i].pid == g->proc[p].pid && ss->st[i].side == side &&
		    ss->st[i].pid > 0) {
			snprintf(buf, n, "%s", ss->st[i].name);
			return;
		}
	report_graph_proc_name(g, p, buf, n);
}

/* Each process grouped with the others of its stage's name, its
 * "[PID]" left out: a shell's loop of gzips (gzip[12], gzip[13]) is one
 * command, make demo's server and its clients (all "perflog") are not. */
static void group_by_stage(const struct report_session *s, struct vgraph *g)
{
	for (size_t p = 0; p < g->nproc; p++) {
		char name[48];
		report_graph_stage_name(s, g, (int)p, name, sizeof(name));
		size_t len = strlen(name);
		if (len && name[len - 1] == ']') {
			size_t k = len - 1;
			while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
				k--;
			if (k > 0 && k < len - 1 && name[k - 1] == '[')
				name[k - 1] = '\0';
		}
		if (name[0])
			util_strlcpy(g->proc[p].group, name,
				     sizeof(g->proc[p].group));
	}
}

const char *report_graph_host(const struct report_stages *ss, int side)
{
	return side >= 0 && side < 4 && ss->hosts[side][0] ? ss->hosts[side] :
	       "?";
}

/* A tree known only by its logged Process counters (a receiver `mark
 * --watch` logged, a totals file not written or not readable): one
 * process of one thread alive the session, its seconds the counters'
 * shares of it, so that every tree with wait states is in the graph
 * and the graph alone judges a session that has them. */
static void counters_row(const struct report_stage_tree *tr, double seconds,
			 struct waits_total *row, struct waits_totals *tot)
{
	memset(row, 0, sizeof(*row));
	row->tid = 1;
	snprintf(row->comm, sizeof(row->comm), "%s",
		 tr->w.top[0] ? tr->w.top : tr->label);
	row->alive = seconds;
	for (int k = 0; k < WS_N; k++)
		row->sec[k] = tr->w.all[k] / 100.0 * seconds;
	row->io_bytes = 1u << 20;	/* it moved the data: its sleep paces */
	row->working = 1;
	tot->t = row;
	tot->n = tot->cap = 1;
}

/* The figures of a tree's side: the session's host's, or a --with
 * host's; NULL unknown. */
static const struct report_figures *side_fig(const struct report_session *s,
					     int side)
{
	return side == 0 ? &s->fig : side > 0 && s->peers ?
	       &s->peers[side - 1].s.fig : NULL;
}

/* The network wait of a tree known by its counters, when the report has
 * another host: a connection whose far end no row names (no edges file
 * of either side), which the builder leads to the one other host's
 * watched root as it does a relay's (verdict/build.c far_root). */
static size_t counters_net(const struct report_session *s,
			   const struct report_stage_tree *tr,
			   struct waitedge_row *e)
{
	const struct report_stages *ss = s->stages;
	double net = tr->w.all[WS_NET];
	if (ss->nsides < 2 || !(net > 0))
		return 0;
	/* its side's busiest interface: the one its figures name */
	const struct report_figures *f = side_fig(s, tr->side);
	const char *iface = f ? f->net : "";
	memset(e, 0, sizeof(*e));
	snprintf(e->e.comm, sizeof(e->e.comm), "%s", tr->label);
	util_strlcpy(e->e.peer_comm, iface, sizeof(e->e.peer_comm));
	e->e.dir = PEER_OUT;
	e->e.kind = PEER_NET;
	e->seconds = net / 100.0 * s->seconds;
	e->bytes = NAN;
	return 1;
}

void report_graph_tree_in(const struct report_session *s, size_t t,
			  struct report_graph_tree *x)
{
	const struct report_stages *ss = s->stages;
	const struct report_stage_tree *tr = &ss->trees[t];
	int side = tr->side;
	memset(x, 0, sizeof(*x));
	x->tot.t = tr->rows;
	x->tot.n = x->tot.cap = tr->nrows;
	/* a tree known by its counters only */
	const struct waitedge_row *edges = tr->edges;
	size_t nedges = tr->nedges;
	if (!tr->rows && tr->w.have) {
		counters_row(tr, s->seconds, &x->one, &x->tot);
		if (!nedges && counters_net(s, tr, &x->net))
			edges = &x->net, nedges = 1;
	}
	double thr = tr->w.have ? tr->w.thr_periods.avg : NAN;
	const struct report_figures *f = side_fig(s, side);
	x->in = (struct verdict_tree_in){
		.host = report_graph_host(ss, side), .label = tr->label,
		.waits = x->tot.n ? &x->tot : NULL,
		.edges = edges, .nedges = nedges,
		.rows = tr->intervals.version ? &tr->intervals : NULL,
		.shift = tr->shift,
		/* the host's busiest disk until the tree's own is
		 * known (its open files' devices) */
		.disk = side >= 0 && side < 4 && ss->disks[side][0] ?
			ss->disks[side] : NULL,
		.net_full = f && report_link_full(f) ? f->net : NULL,
		/* the quota's resource is its group's: trees under one
		 * quota share it */
		.cg = { .name = tr->w.have && tr->w.quota_group[0] ?
				tr->w.quota_group : tr->label,
			.quota = tr->w.have ? tr->w.quota : NAN,
			.throttled = isnan(thr) ? 0 : thr / 100.0,
			/* the command's own group's memory stall
			 * (Pressure some): read only where it has a
			 * group of its own */
			.memory_limit = tr->w.have && tr->w.stall_mem.n,
			.memory_stall = tr->w.stall_mem.n ?
				tr->w.stall_mem.avg / 100.0 : 0 },
		.kernel_share = tr->w.kernel_share,
	};
}

void report_graph_of(struct report_session *s)
{
	const struct report_stages *ss = s->stages;
	report_graph_free(s);
	if (!ss || !ss->ntrees || !(s->seconds > 0))
		return;
	size_t n = ss->ntrees, rows = 0;
	struct report_graph_tree *x = calloc(n, sizeof(*x));
	struct verdict_tree_in *in = calloc(n, sizeof(*in));
	struct report_graph *rg = calloc(1, sizeof(*rg));
	if (!x || !in || !rg)
		goto out;
	for (size_t t = 0; t < n; t++) {
		report_graph_tree_in(s, t, &x[t]);
		in[t] = x[t].in;
		rows += x[t].tot.n;
	}
	double begin = s->begin_m ? (double)s->begin_m->t +
		       s->begin_m->ms / 1000.0 : NAN;
	if (!rows || verdict_build(&rg->g, in, n, begin, s->seconds))
		goto out;
	group_by_stage(s, &rg->g);
	rg->root = verdict_tree_root(&rg->g,
				     report_graph_host(ss, ss->trees[0].side),
				     ss->trees[0].label);
	if (rg->root < 0 || verdict_solve(&rg->g, &rg->root, 1, &rg->s)) {
		vgraph_free(&rg->g);
		goto out;
	}
	verdict_of(&rg->g, &rg->s, 0, &rg->v);
	s->graph = rg;
	rg = NULL;
out:
	free(rg);
	free(in);
	free(x);
}

void report_graph_res_name(const struct vgraph *g, int r, char *buf, size_t n)
{
	const struct vg_res *x = &g->res[r];
	const struct verdict_word *w = verdict_word(x->type);
	const char *word = verdict_kind_word(w->kind);
	char what[112];

	if (w->kind == VERDICT_NOTHING)
		snprintf(what, sizeof(what), "%s (%s)", word, w->detail);
	else if (x->type == VRES_QUOTA)
		snprintf(what, sizeof(what), "%s quota %s", word, x->name);
	else
		snprintf(what, sizeof(what), "%s%s%s", word, x->name[0] ? " " : "",
			 x->name);
	if (x->type == VRES_NET && x->far_host >= 0)
		snprintf(buf, n, "%s from %s to %s", what, g->host[x->host].name,
			 g->host[x->far_host].name);
	else if (x->type == VRES_NET && x->peer[0])
		snprintf(buf, n, "%s between %s and %s", what,
			 g->host[x->host].name, x->peer);
	else
		snprintf(buf, n, "%s on %s", what, g->host[x->host].name);
}

void report_graph_proc_name(const struct vgraph *g, int p, char *buf, size_t n)
{
	const struct vg_proc *pr = &g->proc[p];
	for (size_t q = 0; q < g->nproc; q++)
		if ((int)q != p && g->proc[q].host == pr->host &&
		    !strcmp(g->proc[q].comm, pr->comm) && pr->pid > 0) {
			snprintf(buf, n, "%s[%d]", pr->comm, (int)pr->pid);
			return;
		}
	snprintf(buf, n, "%s", pr->comm);
}

double report_graph_charged(const struct vsolution *s, int p)
{
	double x = 0;
	for (size_t k = 0; k < s->n; k++)
		if (s->c[k].proc == p)
			x += s->c[k].sec;
	return x;
}

static double pct(double x, double of)
{
	return of > 0 ? 100.0 * x / of : 0;
}

void report_graph_print(FILE *f, const struct report_session *s)
{
	const struct report_graph *rg = s->graph;
	if (!rg)
		return;
	const struct vgraph *g = &rg->g;
	double all = vgraph_seconds(g);
	fprintf(f, "  Seconds (the wait graph: where the session's %.1f s went):\n", all);
	fprintf(f, "    %-18s %-12s %6s  %6s  %6s  %6s  %6s  %6s  charged\n",
		"stage", "host", "alive", "run", "cpuw", "disk", "net", "other");
	for (size_t p = 0; p < g->nproc; p++) {
		const struct vg_proc *pr = &g->proc[p];
		double sec[VS_N], alive = vgraph_proc_total(g, (int)p, sec);
		double c = report_graph_charged(&rg->s, (int)p);
		char host[72], name[40];
		if (!(alive > 0) && !(c > 0))
			continue;
		snprintf(host, sizeof(host), "(%s)", g->host[pr->host].name);
		report_graph_proc_name(g, (int)p, name, sizeof(name));
		fprintf(f, "    %-18s %-12s %6.1f  %6.1f  %6.1f  %6.1f  %6.1f  %6.1f  %5.1f s %3.0f%%\n",
			name, host, alive, sec[VS_RUN], sec[VS_RUNQ],
			sec[VS_DISK], sec[VS_NET], sec[VS_OTHER], c, pct(c, all));
	}
	for (size_t r = 0; r < g->nres; r++) {
		double x = verdict_res_seconds(&rg->s, 0, (int)r), ps;
		char name[256];
		if (!(x >= 0.05))
			continue;
		int p = verdict_res_user(&rg->s, 0, (int)r, &ps);
		char who[40];
		report_graph_res_name(g, (int)r, name, sizeof(name));
		fprintf(f, "    %-76s %5.1f s %3.0f%%", name, x, pct(x, all));
		if (p >= 0) {
			report_graph_proc_name(g, p, who, sizeof(who));
			fprintf(f, "  %s %.1f s", who, ps);
		}
		fputc('\n', f);
	}
}

static void proc_ref(struct json *j, const char *key, int p)
{
	if (p < 0)
		json_null(j, key);
	else
		json_int(j, key, p);
}

void report_graph_res_json(struct json *j, const struct vgraph *g, int r)
{
	const struct vg_res *x = &g->res[r];
	const struct verdict_word *w = verdict_word(x->type);
	json_str(j, "kind", verdict_kind_word(w->kind));
	json_str(j, "detail", w->detail);
	json_str(j, "host", g->host[x->host].name);
	if (x->far_host >= 0)
		json_str(j, "far_host", g->host[x->far_host].name);
	else
		json_null(j, "far_host");
	json_str(j, "name", x->name);
	if (x->type == VRES_NET)
		json_str(j, "peer", x->peer);
}

static void graph_nodes(struct json *j, const struct vgraph *g)
{
	static const char *const st[VS_N] = {
		[VS_RUN] = "run", [VS_RUNQ] = "cpu_wait", [VS_DISK] = "disk",
		[VS_NET] = "net", [VS_MEMORY] = "memory", [VS_SLEEP] = "sleep",
		[VS_OTHER] = "other", [VS_IDLE] = "idle" };
	json_array_begin(j, "nodes");
	for (size_t p = 0; p < g->nproc; p++) {
		const struct vg_proc *pr = &g->proc[p];
		double sec[VS_N], alive = vgraph_proc_total(g, (int)p, sec);
		json_object_begin(j, NULL);
		json_int(j, "id", (long long)p);
		json_str(j, "type", "process");
		json_str(j, "host", g->host[pr->host].name);
		json_int(j, "pid", pr->pid);
		json_str(j, "comm", pr->comm);
		json_str(j, "tree", pr->tree);
		json_num(j, "alive", alive);
		for (int k = 0; k < VS_N; k++)
			json_num(j, st[k], sec[k]);
		json_object_end(j);
	}
	for (size_t r = 0; r < g->nres; r++) {
		json_object_begin(j, NULL);
		json_int(j, "id", (long long)(g->nproc + r));
		json_str(j, "type", "resource");
		report_graph_res_json(j, g, (int)r);
		json_object_end(j);
	}
	json_array_end(j);
}

void report_graph_json(struct json *j, const struct report_session *s)
{
	const struct report_graph *rg = s->graph;
	if (!rg) {
		json_null(j, "graph");
		json_null(j, "charges");
		json_null(j, "graph_verdict");
		return;
	}
	const struct vgraph *g = &rg->g;
	double all = vgraph_seconds(g);
	json_object_begin(j, "graph");
	json_num(j, "seconds", all);
	json_int(j, "root", rg->root);
	graph_nodes(j, g);
	json_array_begin(j, "edges");
	for (size_t e = 0; e < g->nedge; e++) {
		const struct vg_edge *x = &g->edge[e];
		json_object_begin(j, NULL);
		json_int(j, "from", x->from);
		proc_ref(j, "to", x->to);
		if (x->res >= 0)
			json_int(j, "via", (long long)(g->nproc + (size_t)x->res));
		else
			json_null(j, "via");
		json_str(j, "kind", x->kind);
		json_num(j, "seconds", vgraph_edge_total(g, (int)e));
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
	json_array_begin(j, "charges");
	for (size_t k = 0; k < rg->s.n; k++) {
		const struct vcharge *c = &rg->s.c[k];
		json_object_begin(j, NULL);
		json_int(j, "resource", (long long)(g->nproc + (size_t)c->res));
		json_int(j, "process", c->proc);
		json_num(j, "seconds", c->sec);
		json_num(j, "queued", c->queued);
		json_num(j, "share", pct(c->sec, all));
		json_object_end(j);
	}
	json_array_end(j);
	const struct verdict *v = &rg->v;
	json_object_begin(j, "graph_verdict");
	if (v->res >= 0) {
		report_graph_res_json(j, g, v->res);
		json_int(j, "resource", (long long)(g->nproc + (size_t)v->res));
	} else {
		json_str(j, "kind", verdict_kind_word(v->kind));
		json_str(j, "detail", v->word->detail);
	}
	proc_ref(j, "process", v->proc);
	json_str(j, "comm", v->proc >= 0 ? g->proc[v->proc].comm : "");
	json_num(j, "seconds", v->sec);
	json_num(j, "process_seconds", v->proc_sec);
	json_num(j, "share", 100.0 * v->share);
	if (v->runner_res >= 0) {
		json_object_begin(j, "runner_up");
		report_graph_res_json(j, g, v->runner_res);
		proc_ref(j, "process", v->runner_proc);
		json_num(j, "seconds", v->runner_sec);
		json_object_end(j);
	} else {
		json_null(j, "runner_up");
	}
	json_object_end(j);
}
