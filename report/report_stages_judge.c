/*
 * report_stages_judge.c - the verdict of the stages (report_stages.h; the
 * rules in report/README.md, "The stages of the data path", rule 6): the
 * busiest stage's own resource, its split judged as a client's
 * (report_waits_judge), with the stages that waited on it as evidence: a
 * wait on a pipe or a socket is the stage's it leads to. The stages come
 * ordered and shared out from report_stages_path.c. Pure.
 */
#include "report_stages.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/util.h"

int report_stages_busiest(const struct report_stages *ss)
{
	int b = -1;

	for (size_t i = 0; i < ss->n; i++)
		if (!isnan(ss->st[i].busy) &&
		    (b < 0 || ss->st[i].busy > ss->st[b].busy))
			b = (int)i;
	return b;
}

int report_stages_decide(const struct report_stages *ss)
{
	int trees = 0, b = report_stages_busiest(ss);

	for (size_t t = 0; t < ss->ntrees; t++) {
		int has = 0;
		for (size_t i = 0; i < ss->n; i++)
			has |= ss->st[i].tree == (int)t;
		trees += has;
	}
	if (!(ss->n >= 2 && (ss->linked || trees >= 2) && b >= 0 &&
	      ss->st[b].busy >= REPORT_STAGE_BUSY))
		return 0;
	/* a stage that sleeps most of its time paces the others (rsync
	 * --bwlimit's sender): unless one is busy most of its time, the
	 * tree's verdict (nothing: it paces itself) stays */
	for (size_t i = 0; i < ss->n; i++)
		if (ss->st[i].pct[WS_SLEEP] >= 50 && ss->st[b].busy < 50)
			return 0;
	return 1;
}

/* in with "the client's " and "the client " said of the stage who. */
static void speak_of(const char *in, const char *who, char *out, size_t n)
{
	size_t len = 0;

	out[0] = '\0';
	while (*in && len + 1 < n) {
		if (!strncmp(in, "the client's ", 13)) {
			len += (size_t)snprintf(out + len, n - len, "%s's ", who);
			in += 13;
		} else if (!strncmp(in, "the client ", 11)) {
			len += (size_t)snprintf(out + len, n - len, "%s ", who);
			in += 11;
		} else {
			out[len++] = *in++;
			out[len] = '\0';
		}
	}
	if (len >= n)
		out[n - 1] = '\0';
}

/* "NAME" or, with servers, "NAME (HOST)" */
static void stage_ref(const struct report_stages *ss,
		      const struct report_stage *s, char *buf, size_t n)
{
	if (ss->nsides > 1)
		snprintf(buf, n, "%s (%s)", s->name, ss->hosts[s->side]);
	else
		snprintf(buf, n, "%s", s->name);
}

/* Stage s's split as a client's wait states: its tree's cgroup
 * (throttling, stalls, quota) with the stage's own shares. */
static void stage_waits(const struct report_stages *ss,
			const struct report_stage *s, struct report_waits *w)
{
	*w = ss->trees[s->tree].w;
	w->have = w->from_totals = 1;
	w->unused[0] = '\0';
	w->nwork = w->nall = s->nthreads ? s->nthreads : 1;
	memcpy(w->work, s->pct, sizeof(w->work));
	memcpy(w->all, s->pct, sizeof(w->all));
	w->cpus = s->alive > 0 ?
		s->sec[WS_CPU] / (s->alive / (double)w->nwork) : NAN;
	util_strlcpy(w->top, s->comm, sizeof(w->top));
}

/* The state the busiest stage is judged on: its dominant one, else (no
 * state dominates: a server stage running 34%, waiting on the disk 41%)
 * the largest of its own resources, as its table row's "waits on" */
static int own_resource(const struct report_waits *w,
			const struct report_stage *s)
{
	static const int own[4] = { WS_CPU, WS_CPU_WAIT, WS_DISK, WS_NET };
	int d = report_waits_dominant(w), k = -1;

	if (d >= 0)
		return d;
	for (int i = 0; i < 4; i++)
		if (!isnan(s->pct[own[i]]) && s->pct[own[i]] > 0 &&
		    (k < 0 || s->pct[own[i]] > s->pct[k]))
			k = own[i];
	return k;
}

int report_stages_held(const struct report_stages *ss, int b)
{
	int h = -1;

	for (size_t i = 0; b >= 0 && i < ss->n; i++) {
		const struct report_stage *u = &ss->st[i];
		double own = u->busy - (isnan(u->pct[WS_NET]) ? 0 :
					 u->pct[WS_NET]);
		if (u->side == ss->st[b].side || !(own >= REPORT_STAGE_HELD))
			continue;
		if (h < 0 || u->busy > ss->st[h].busy)
			h = (int)i;
	}
	return h;
}

/* The two candidates of report_stages_subject: the busiest stage, held
 * by its largest own resource k (CPU with its CPU wait) top % of its
 * time, against its host's disk: d, the stage of that host waiting on it
 * most (the busiest itself, maybe), and disk, the disk shares of the
 * host's busy stages added. weighed 0 when the busiest decides alone (no
 * stage, k the disk, or k dominant and holding it at least
 * REPORT_STAGE_HELD % of its time). */
struct weighing {
	int busy, d, k, weighed;
	double top, disk;
};

static void weigh(const struct report_stages *ss, struct weighing *g)
{
	struct report_waits w;

	memset(g, 0, sizeof(*g));
	g->busy = report_stages_busiest(ss);
	g->d = g->k = -1;
	if (g->busy < 0)
		return;
	stage_waits(ss, &ss->st[g->busy], &w);
	if ((g->k = own_resource(&w, &ss->st[g->busy])) < 0 || g->k == WS_DISK)
		return;
	/* the busiest stage held by its own resource at least half its
	 * time decides alone; else (no state dominates it, or its largest
	 * holds it under half its time: it waits on the others the rest)
	 * its host's disk, one device however many stages wait on it,
	 * against that share (a CPU each stage has its own of) */
	g->top = ss->st[g->busy].pct[g->k] +
		 (g->k == WS_CPU ? ss->st[g->busy].pct[WS_CPU_WAIT] : 0);
	if (report_waits_dominant(&w) >= 0 && g->top >= REPORT_STAGE_HELD)
		return;
	for (size_t i = 0; i < ss->n; i++) {
		const struct report_stage *u = &ss->st[i];
		if (u->side != ss->st[g->busy].side ||
		    !(u->busy >= REPORT_STAGE_BUSY) || isnan(u->pct[WS_DISK]))
			continue;
		g->disk += u->pct[WS_DISK];
		if (g->d < 0 || u->pct[WS_DISK] > ss->st[g->d].pct[WS_DISK])
			g->d = (int)i;
	}
	g->weighed = g->d >= 0 && g->disk > 0;
}

/* Whether the disk won the weighing; the stage that did */
static int disk_won(const struct weighing *g)
{
	return g->weighed && g->disk > g->top;
}

static int winner(const struct weighing *g)
{
	return disk_won(g) ? g->d : g->busy;
}

int report_stages_subject(const struct report_stages *ss)
{
	struct weighing g;

	weigh(ss, &g);
	return winner(&g);
}

/* The subject won the weighing g by a close call: the loser came within
 * REPORT_WAIT_MARGIN of it (the demo's 50m10m on a quiet host: the
 * client running 42%, the two stages' disk waits adding up to 39% or
 * 45% from run to run): the runner-up said, so that the line does not
 * hang on a few points. */
static void close_behind(const struct report_stages *ss,
			 const struct weighing *g, struct report_verdict *v)
{
	double lo = g->top < g->disk ? g->top : g->disk;
	double hi = g->top < g->disk ? g->disk : g->top;
	char ref[96];

	/* (a network the busiest waits on is the stages-across rules') */
	if (!g->weighed || g->k == WS_NET || !(g->top > 0) ||
	    hi > lo * REPORT_WAIT_MARGIN)
		return;
	if (disk_won(g)) {
		stage_ref(ss, &ss->st[g->busy], ref, sizeof(ref));
		report_line_add(v, "; close behind, the CPU: the stage %s %s %.0f%% of its time (the disk: %.0f%%, its stages' waits added)",
				ref, g->k == WS_CPU ? "ran" : "waited for a CPU",
				g->top, g->disk);
	} else {
		const char *dev = ss->disks[ss->st[g->d].side];
		report_line_add(v, "; close behind, the disk%s%s: its stages waited on it %.0f%% of their time, added (the CPU: %.0f%%)",
				*dev ? " " : "", dev, g->disk, g->top);
	}
}

int report_stages_judge(const struct report_stages *ss,
			const struct report_figures *f, int on_host,
			struct report_verdict *v)
{
	return report_stages_judge_at(ss, report_stages_subject(ss), f,
				      on_host, v);
}

int report_stages_judge_at(const struct report_stages *ss, int b,
			   const struct report_figures *f, int on_host,
			   struct report_verdict *v)
{
	const struct report_stage *s;
	struct report_waits w;
	struct report_verdict one;
	struct weighing g;
	char who[128], ref[96], line[sizeof(v->line)];
	int said = 0, k, subject;

	if (b < 0 || (size_t)b >= ss->n)
		return 0;
	s = &ss->st[b];
	/* judged as a client's would be: on the disk when that is what
	 * made it the subject, else on its own resource */
	stage_waits(ss, s, &w);
	weigh(ss, &g);
	subject = winner(&g) == b;
	k = subject && disk_won(&g) ? WS_DISK : own_resource(&w, s);
	if (!report_waits_judge_as(f, &w, REPORT_NONE, k, &one))
		return 0;
	stage_ref(ss, s, ref, sizeof(ref));
	snprintf(who, sizeof(who), "the stage %s", ref);
	speak_of(one.line, who, line, sizeof(line));
	if (!strstr(line, who)) {
		/* a line that names no one ("CPU contention: runnable ..."):
		 * the stage after its label */
		const char *colon = strstr(line + 12, ": ");
		char tmp[sizeof(line)];
		if (colon) {
			int runnable = !strncmp(colon + 2, "runnable", 8);
			snprintf(tmp, sizeof(tmp), "%.*s: %s%s %s",
				 (int)(colon - line), line, who,
				 runnable ? " was" : ":", colon + 2);
			util_strlcpy(line, tmp, sizeof(line));
		}
	}
	memset(v, 0, sizeof(*v));
	v->kind = one.kind;
	if (on_host) {
		const char *p = line + 12, *colon = strstr(p, ": ");
		snprintf(v->line, sizeof(v->line), "Bottleneck: %.*s on %s%s",
			 colon ? (int)(colon - p) : (int)strlen(p), p,
			 ss->hosts[s->side], colon ? colon : "");
	} else {
		util_strlcpy(v->line, line, sizeof(v->line));
	}
	speak_of(one.hint, who, v->hint, sizeof(v->hint));
	/* another stage of its host as held by the same disk (the demo's
	 * 50m10m: the client reading 42%, the server writing 43%, one
	 * vda): naming only the busier would be a coin's toss */
	for (size_t i = 0; k == WS_DISK && i < ss->n; i++) {
		const struct report_stage *u = &ss->st[i];
		if ((int)i == b || u->side != s->side ||
		    !(u->pct[WS_DISK] >= s->pct[WS_DISK] - REPORT_STAGE_SHARED) ||
		    !(u->busy >= REPORT_STAGE_BUSY))
			continue;
		stage_ref(ss, u, ref, sizeof(ref));
		report_line_add(v, "; the stage %s waited on the same disk %.0f%% of its time",
				ref, u->pct[WS_DISK]);
		break;
	}
	if (subject)
		close_behind(ss, &g, v);
	/* the waits on it: evidence, never the verdict */
	for (size_t i = 0; i < ss->n && said < 3; i++) {
		const struct report_stage *u = &ss->st[i];
		if ((int)i == b || u->waits_stage != b)
			continue;
		stage_ref(ss, u, ref, sizeof(ref));
		report_line_add(v, "; %s waited on it %.0f%% of its time", ref,
				u->pct[WS_OTHER]);
		said++;
	}
	if (b != 0 && ss->st[0].waits_stage != b && !said &&
	    ss->st[0].pct[WS_OTHER] + ss->st[0].pct[WS_NET] >= 50) {
		stage_ref(ss, &ss->st[0], ref, sizeof(ref));
		report_line_add(v, "; %s waited on %s %.0f%% of its time", ref,
				ss->st[0].waits_on, ss->st[0].pct[WS_OTHER] >
				ss->st[0].pct[WS_NET] ? ss->st[0].pct[WS_OTHER] :
				ss->st[0].pct[WS_NET]);
	}
	return 1;
}
