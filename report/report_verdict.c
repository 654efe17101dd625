/*
 * report_verdict.c - the Bottleneck line from the session's wait graph
 * (report_graph.c builds and solves it; verdict/verdict.h): the resource
 * that held the most of the root's seconds, its host and the process
 * that used it, the seconds that made it, a runner-up within
 * VERDICT_MARGIN beside it, and the remedy of its resource type (one
 * table). Every figure is seconds, a share only of the session:
 *
 *   Bottleneck: network between vm and srv: the stage ssh (vm) waited on
 *   the network eth0 16.4 s of the session's 21.0 s (78%); restic waited
 *   17.2 s of its 21.0 s, 16.4 s of those on it; eth0 carried ...
 */
#include "report.h"

#include <math.h>
#include <string.h>

#include "report_graph_int.h"

/* What the process did on a resource ("the stage X ___ RES"), and the
 * remedy: one row a resource type. */
static const struct {
	const char *did;
	const char *remedy;
} say[VRES_NTYPE] = {
	[VRES_CPU] = { "ran on a CPU",
		"a CPU does the work: a lighter setting (compression level, cipher), more threads or streams, or a faster CPU" },
	[VRES_QUOTA] = { "was runnable but not running",
		"a CPU quota (cgroup cpu.max or cpu.cfs_quota_us) holds it, not the host's CPUs: raise the quota" },
	[VRES_DISK] = { "waited on the disk",
		"the disk: a faster device, fewer synchronous writes (fsync per file), larger transfers, or a raised I/O limit (io.max, blkio)" },
	[VRES_NET] = { "waited on the network",
		"the network path: a shaper or policer, a slow hop, a full link, or a receiver that takes the data slowly" },
	[VRES_MEMORY] = { "stalled on memory",
		"the working set does not fit its cgroup's memory limit (memory.max or memory.limit_in_bytes): raise the limit or shrink the cache" },
	[VRES_PACING] = { "slept",
		"it paces itself (a bandwidth limit option): nothing on the hosts held it" },
	[VRES_UNSEEN] = { "waited on what the log does not see",
		"it waited on a process no watch saw: watch it (perflog run --watch, --server-watch) to follow the wait" },
};

#define ADD(...) report_line_add(v, __VA_ARGS__)

/* p and q are processes of one command on one host */
static int same_cmd(const struct vgraph *g, int p, int q)
{
	return p == q || (p >= 0 && q >= 0 &&
			  g->proc[p].host == g->proc[q].host &&
			  !strcmp(g->proc[p].group, g->proc[q].group));
}

static const struct report_figures *figs_of(const struct report_session *s,
					    int side)
{
	if (side == 0)
		return &s->fig;
	if (side > 0 && s->peers && !s->peers[side - 1].empty)
		return &s->peers[side - 1].s.fig;
	return NULL;
}

/* The tree whose process p is (its label on its host), NULL unknown. */
static const struct report_waits *tree_of(const struct report_session *s,
					  const struct vgraph *g, int p)
{
	const struct report_stages *ss = s->stages;
	int side = report_graph_side(s, g->host[g->proc[p].host].name);
	for (size_t t = 0; ss && t < ss->ntrees; t++)
		if (ss->trees[t].side == side &&
		    !strcmp(ss->trees[t].label, g->proc[p].tree))
			return &ss->trees[t].w;
	return NULL;
}

/* "CPU", "CPU quota", "disk on srv", "network between vm and srv" */
static void head(const struct vgraph *g, int r, char *buf, size_t n)
{
	const struct vg_res *x = &g->res[r];
	const char *word = verdict_kind_word(verdict_word(x->type)->kind);
	const char *q = x->type == VRES_QUOTA ? " quota" : "";
	/* a path whose far end no row mirrors leads to the one other host
	 * of the report when there is one (its receiver not caught) */
	int far = x->far_host >= 0 || g->nhost != 2 ? x->far_host :
		  1 - x->host;
	if (g->nhost < 2)
		snprintf(buf, n, "%s%s", word, q);
	else if (x->type == VRES_NET && far >= 0)
		snprintf(buf, n, "%s between %s and %s", word,
			 g->host[x->host].name, g->host[far].name);
	else
		snprintf(buf, n, "%s%s on %s", word, q, g->host[x->host].name);
}

/* "the stage gzip", "the stage rsync (srv)" */
static void stage(const struct report_session *s, const struct vgraph *g,
		  int p, int nprocs, char *buf, size_t n)
{
	char name[48];
	if (nprocs > 1)	/* a command of several processes */
		snprintf(name, sizeof(name), "%s", g->proc[p].group);
	else
		report_graph_stage_name(s, g, p, name, sizeof(name));
	if (g->nhost < 2)
		snprintf(buf, n, "the stage %s", name);
	else
		snprintf(buf, n, "the stage %s (%s)", name,
			 g->host[g->proc[p].host].name);
}

/* The evidence of the figures the resource's host logged: the quota and
 * its throttling, the disk's busy time, the interface's load. */
static void figures(const struct report_session *s, const struct vgraph *g,
		    const struct verdict *vd, struct report_verdict *v)
{
	const struct vg_res *x = &g->res[vd->res];
	const struct report_figures *f =
		figs_of(s, report_graph_side(s, g->host[x->host].name));
	const struct report_waits *w = vd->proc >= 0 ? tree_of(s, g, vd->proc) :
				       NULL;
	double all = vgraph_seconds(g);
	char a[48], bw[32];

	switch (x->type) {
	case VRES_CPU:
		if (vd->proc >= 0 && f && f->ncpu >= 2) {
			double ran = 0;
			for (size_t p = 0; p < g->nproc; p++)
				for (size_t i = 0; same_cmd(g, (int)p, vd->proc) &&
				     i < g->nint; i++)
					ran += vgraph_sec(g, (int)p, i)[VS_RUN];
			if (all > 0 && ran / all <= 1.15)
				ADD(", at most one CPU's worth of %d", f->ncpu);
			else if (all > 0)
				ADD(", %.1f CPUs' worth of %d", ran / all, f->ncpu);
		}
		if (f && f->cpu.n)
			ADD("; the host %.0f%% busy", f->cpu.avg);
		break;
	case VRES_QUOTA:
		if (!w)
			break;
		/* the group that has the quota, an ancestor as often as
		 * not: perflog run's command is a child of its own group */
		if (w->quota_group[0])
			ADD("; cgroup %s's quota", w->quota_group);
		else
			ADD("; its cgroup's quota");
		if (!isnan(w->quota))
			ADD(" of %.2g CPU", w->quota);
		ADD(" held it back (");
		if (w->thr_periods.n)
			ADD("throttled in %.0f%% of its periods; ",
			    w->thr_periods.avg);
		ADD("%% Throttled Time %.0f, 100 per CPU)", w->throttled.avg);
		break;
	case VRES_DISK:
		if (f && f->disk[0] && f->disk_busy.n &&
		    (!x->name[0] || !strcmp(x->name, f->disk))) {
			ADD("; %s %.0f%% busy", f->disk, f->disk_busy.avg);
			if (f->disk_bytes.n)
				ADD(" at %s", report_fmt_bytes(a, sizeof(a),
						f->disk_bytes.avg, "/s"));
			if (f->disk_service.n)
				ADD(", %.1f ms a transfer",
				    f->disk_service.avg * 1000);
		}
		break;
	case VRES_NET:
		if (!f || !f->net[0] || !f->net_bytes.n)
			break;
		ADD("; %s carried %s", f->net,
		    report_fmt_bytes(a, sizeof(a), f->net_bytes.avg, "/s"));
		if (f->net_share.n)
			ADD(", %.0f%% of its %s", f->net_share.avg,
			    report_fmt_bits(bw, sizeof(bw), f->net_bandwidth));
		if (f->retrans.n && f->retrans.avg >= 1)
			ADD(", %.0f TCP retransmissions/s", f->retrans.avg);
		/* a link near full is the link; else what holds the
		 * sends is on the path or at the receiver */
		ADD(report_link_full(f) ?
		    ": the link is full" : f->net_share.n ?
		    ": a shaper, the path or the receiver" :
		    ": the path or the receiver");
		break;
	case VRES_MEMORY:
		if (w && w->have)
			report_memory_parts(report_waits_shares(w), v);
		break;
	default:
		break;
	}
}

/* Of root 0's seconds charged to resource res with process p's command
 * (each p alone when one): the queued ones (runnable, waiting for a
 * CPU); all of them in *sec. */
static double on(const struct vgraph *g, const struct vsolution *so, int res,
		 int p, int one, double *sec)
{
	double q = 0, x = 0;
	for (size_t k = 0; k < so->n; k++)
		if (so->c[k].root == 0 && so->c[k].res == res &&
		    (one ? so->c[k].proc == p : same_cmd(g, so->c[k].proc, p))) {
			q += so->c[k].queued;
			x += so->c[k].sec;
		}
	if (sec)
		*sec = x;
	return q;
}

static enum report_kind kind_of(enum verdict_kind k)
{
	switch (k) {
	case VERDICT_CPU:
		return REPORT_CPU;
	case VERDICT_DISK:
		return REPORT_DISK;
	case VERDICT_NETWORK:
		return REPORT_NETWORK;
	case VERDICT_MEMORY:
		return REPORT_PAGING;
	default:
		return REPORT_NONE;
	}
}

/* The process that waited on the network path res most (its sender:
 * the client's ssh), -1 none. The solver charges the path's seconds
 * with the far process they were poured into (the receiver fed by an
 * sshd not watched); the line names the stage that waited on the wire. */
static int net_waiter(const struct vgraph *g, int res, double *sec)
{
	int best = -1;
	double most = 0;
	for (size_t e = 0; e < g->nedge; e++) {
		const struct vg_edge *x = &g->edge[e];
		double t = 0;
		if (x->res < 0 || g->res[x->res].type != VRES_NET ||
		    g->res[x->res].host != g->res[res].host ||
		    g->res[x->res].far_host != g->res[res].far_host ||
		    strcmp(g->res[x->res].peer, g->res[res].peer))
			continue;
		for (size_t i = 0; i < g->nint; i++)
			t += x->sec[i];
		if (t > most) {
			most = t;
			best = x->from;
		}
	}
	if (sec)
		*sec = most;
	return best;
}

int report_graph_verdict(struct report_session *s, int across)
{
	const struct report_graph *rg = s->graph;
	if (!rg || rg->v.res < 0 || (across && rg->g.nhost < 2))
		return 0;
	const struct vgraph *g = &rg->g;
	struct verdict named = rg->v;
	const struct verdict *vd = &named;
	const struct vg_res *x = &g->res[vd->res];
	struct report_verdict out = { 0 }, *v = &out;
	double waited;
	int w = x->type == VRES_NET ? net_waiter(g, vd->res, &waited) : -1;
	if (w >= 0) {
		named.proc = w;
		named.nprocs = 1;
	}
	double all = vgraph_seconds(g);
	char h[200], who[160], name[48];

	s->verdict_who[0] = s->verdict_who_host[0] = '\0';

	v->kind = kind_of(vd->kind);
	v->detail = vd->word->detail;
	/* the host's CPUs held it more waiting for one than running on
	 * one: other work had them (contention), its own seconds say so */
	/* both over the command's processes: its seconds on the CPUs and,
	 * of those, the ones it waited for one (vd->proc_sec may be one
	 * process's, and 'ran' came out as -1.0 s in a demo's session) */
	double cmd_sec = 0;
	double queued = on(g, &rg->s, vd->res, vd->proc, 0, &cmd_sec);
	int contended = x->type == VRES_CPU && 2 * queued > cmd_sec;
	head(g, vd->res, h, sizeof(h));
	if (contended) {
		const char *on_host = strchr(h, ' ');
		snprintf(v->line, sizeof(v->line), "Bottleneck: CPU contention%s: ",
			 on_host ? on_host : "");
	} else {
		snprintf(v->line, sizeof(v->line), "Bottleneck: %s: ", h);
	}
	if (vd->proc >= 0) {
		stage(s, g, vd->proc, vd->nprocs, who, sizeof(who));
		ADD("%s ", who);
		if (vd->nprocs > 1)
			util_strlcpy(s->verdict_who, g->proc[vd->proc].group,
				     sizeof(s->verdict_who));
		else
			report_graph_stage_name(s, g, vd->proc, s->verdict_who,
				sizeof(s->verdict_who));
		util_strlcpy(s->verdict_who_host, g->host[g->proc[vd->proc].host].name,
			     sizeof(s->verdict_who_host));
	}
	ADD("%s", contended ? say[VRES_QUOTA].did : say[x->type].did);
	if ((x->type == VRES_DISK || x->type == VRES_NET) && x->name[0])
		ADD(" %s", x->name);
	/* a share of the session, said as the old lines said it */
	if (x->type == VRES_MEMORY || x->type == VRES_PACING)
		ADD(" %.0f%% of the time%s (%.1f s of the session's %.1f s)",
		    100.0 * vd->share, x->type == VRES_PACING ?
		    " by its own choice" : "", vd->sec, all);
	else if (contended)
		ADD(" %.1f s of the session's %.1f s (%.0f%%), ran %.1f s",
		    queued, all, 100.0 * queued / (all > 0 ? all : 1),
		    cmd_sec > queued ? cmd_sec - queued : 0.0);
	else
		ADD(" %.1f s of the session's %.1f s (%.0f%%)", vd->proc_sec,
		    all, 100.0 * vd->proc_sec / (all > 0 ? all : 1));
	if (vd->nprocs > 1)
		ADD(", in %d processes", vd->nprocs);
	if (!contended && x->type == VRES_CPU && queued >= 0.05)
		ADD(", %.1f s of them waiting for one", queued);
	figures(s, g, vd, v);
	/* the root's seconds that waited on it through others */
	int root = rg->root;
	if (vd->proc >= 0 && vd->proc != root) {
		double alive = 0, own = report_graph_charged(&rg->s, root);
		for (size_t i = 0; i < g->nint; i++)
			alive += g->proc[root].alive[i];
		double mine = 0;
		on(g, &rg->s, vd->res, root, 1, &mine);
		report_graph_stage_name(s, g, root, name, sizeof(name));
		ADD("; %s waited %.1f s of its %.1f s, %.1f s of those on it",
		    name, alive - own > 0 ? alive - own : 0, alive,
		    vd->sec - mine);
	}
	if (vd->runner_res >= 0) {
		head(g, vd->runner_res, h, sizeof(h));
		ADD("; close behind: %s", h);
		if (vd->runner_proc >= 0) {
			report_graph_stage_name(s, g, vd->runner_proc, name, sizeof(name));
			ADD(" (%s)", name);
		}
		ADD(" %.1f s", vd->runner_sec);
	}
	snprintf(v->hint, sizeof(v->hint), "%s", say[x->type].remedy);
	s->verdict = out;
	s->verdict_host[0] = s->verdict_peer[0] = '\0';
	int far = x->far_host >= 0 || g->nhost != 2 ? x->far_host :
		  1 - x->host;
	if (g->nhost >= 2 && x->type == VRES_NET && far >= 0)
		util_strlcpy(s->verdict_peer, g->host[far].name,
			     sizeof(s->verdict_peer));
	else if (g->nhost >= 2)
		util_strlcpy(s->verdict_host, g->host[x->host].name,
			     sizeof(s->verdict_host));
	return 1;
}
