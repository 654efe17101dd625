/*
 * report_stages_path.c - the stages along the data path and their verdict
 * (report_stages.h; the rules in report/README.md, "The stages of the
 * data path"). Pure.
 *
 * Order: the net flow between two stages (what "out" edges from A to B
 * and "in" edges at B waiting on A add up to, minus the reverse) points
 * one way; the stages are sorted so that every stage comes after those
 * that feed it (the report's host first, then each --with server's, then
 * as read); a loop (rsync's generator and sender talk both ways) is
 * broken at the stage fed least. A client's `net` edge feeds the server
 * stage whose own `net` edge has the mirrored addresses, else the first
 * server stage no other stage of its host feeds (the receiver behind
 * sshd).
 *
 * Verdict: the busiest stage's own resource, its split judged as a
 * client's (report_waits_judge), with the stages that waited on it as
 * evidence: a wait on a pipe or a socket is the stage's it leads to.
 */
#include "report_stages.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

static int find(const struct report_stages *ss, int side, pid_t pid)
{
	for (size_t i = 0; i < ss->n; i++)
		if (ss->st[i].side == side && ss->st[i].pid == pid && pid > 0)
			return (int)i;
	return -1;
}

/* The stage a `child` edge leads to (waitedges.h: the children by
 * command): the busiest stage of that command in the waiter's tree. */
static int find_child(const struct report_stages *ss,
		      const struct report_stage_edge *e)
{
	int best = -1;

	for (size_t i = 0; i < ss->n; i++) {
		const struct report_stage *s = &ss->st[i];
		if (s->side != e->side || s->tree != e->tree ||
		    s->pid == e->pid || strcmp(s->comm, e->peer_comm))
			continue;
		if (best < 0 || s->busy > ss->st[best].busy)
			best = (int)i;
	}
	return best;
}

/* With its host's edges recorded, a network wait is one on another host
 * and has a `net` edge: a stage's network seconds with none are a wait
 * whose far end was not found (rsync --bwlimit's generator on its
 * socketpair), counted as other, not as its own resource. */
static void unattributed_net(struct report_stages *ss)
{
	for (size_t i = 0; i < ss->n; i++) {
		struct report_stage *s = &ss->st[i];
		int has = 0;

		if (!(s->sec[WS_NET] > 0) || s->side >= 32 ||
		    !(ss->edge_sides & (1u << s->side)) || !s->pid)
			continue;
		for (size_t k = 0; k < ss->ne && !has; k++)
			has = ss->e[k].side == s->side && ss->e[k].pid == s->pid &&
			      !strcmp(ss->e[k].kind, "net");
		if (!has) {
			s->sec[WS_OTHER] += s->sec[WS_NET];
			s->sec[WS_NET] = 0;
		}
	}
}

static void shares(struct report_stages *ss)
{
	unattributed_net(ss);
	for (size_t i = 0; i < ss->n; i++) {
		struct report_stage *s = &ss->st[i];
		for (int k = 0; k < WS_N; k++)
			s->pct[k] = s->alive > 0 ? 100 * s->sec[k] / s->alive : NAN;
		s->busy = s->alive > 0 ? s->pct[WS_CPU] + s->pct[WS_CPU_WAIT] +
			s->pct[WS_DISK] + s->pct[WS_NET] : NAN;
	}
}

/* COMM; a command that repeats on its host: its tree's label when the
 * stage is its tree's only one, else COMM[PID]. */
static void names(struct report_stages *ss)
{
	for (size_t i = 0; i < ss->n; i++) {
		struct report_stage *s = &ss->st[i];
		int same = 0, intree = 0;

		for (size_t j = 0; j < ss->n; j++) {
			same += ss->st[j].side == s->side &&
				!strcmp(ss->st[j].comm, s->comm);
			intree += ss->st[j].tree == s->tree;
		}
		if (same < 2 || (!s->pid && intree > 1))
			snprintf(s->name, sizeof(s->name), "%s", s->comm);
		else if (intree == 1)
			snprintf(s->name, sizeof(s->name), "%.47s",
				 ss->trees[s->tree].label);
		else
			snprintf(s->name, sizeof(s->name), "%s[%ld]", s->comm,
				 (long)s->pid);
	}
}

struct flows {
	double w[REPORT_STAGES_MAX][REPORT_STAGES_MAX];	/* data a -> b */
	double waited[REPORT_STAGES_MAX][REPORT_STAGES_MAX];	/* a on b */
	double ext[REPORT_STAGES_MAX];	/* seconds on an unwatched peer */
	char ext_comm[REPORT_STAGES_MAX][64];
	double net[REPORT_STAGES_MAX];	/* seconds on its `net` edges */
	char iface[REPORT_STAGES_MAX][64];
	int fed_outside[REPORT_STAGES_MAX];	/* waited "in" on an unwatched
						   peer (sshd): fed from the
						   network or a file */
};

/* The stage a wait on a process that is no stage leads to (it did no
 * work: rsync's generator, whose copy of the receiver's socket the fd
 * tables may show for a moment after its fork, or which only passes the
 * receiver's word on to the sender): the stage that process waited on
 * most itself, other than the waiter from, up to RELAY_DEPTH processes
 * away; -1 when none (it slept, or waited on a process not watched). */
#define RELAY_DEPTH 3
static int relay(const struct report_stages *ss, int side, pid_t pid,
		 int from, int depth)
{
	double best = 0;
	int to = -1;
	pid_t next = 0;

	for (size_t k = 0; depth > 0 && pid > 0 && k < ss->ne; k++) {
		const struct report_stage_edge *e = &ss->e[k];
		int c;

		if (e->side != side || e->pid != pid || !(e->seconds > best) ||
		    !strcmp(e->kind, "net") || !strcmp(e->kind, "child"))
			continue;
		c = find(ss, side, e->peer_pid);
		if (c == from || e->peer_pid == pid)
			continue;
		best = e->seconds;
		to = c;
		next = e->peer_pid;
	}
	if (to >= 0 || !next)
		return to;
	return relay(ss, side, next, from, depth - 1);
}

/* The edges between stages of one host, and to peers not watched. A
 * wait on a process that is no stage is a wait on the stage it leads to
 * (relay): it links the two and counts for "waits on", but says nothing
 * of which way the data went (the flows), which the relay's own edges
 * do not tell. */
static void local_flows(struct report_stages *ss, struct flows *fl)
{
	for (size_t i = 0; i < ss->ne; i++) {
		const struct report_stage_edge *e = &ss->e[i];
		int a = find(ss, e->side, e->pid), b;

		/* a link with no wait on it (waitedges.h) carries no
		 * evidence of who held whom */
		if (a < 0 || !(e->seconds > 0))
			continue;
		if (!strcmp(e->kind, "net")) {
			if (e->seconds > fl->net[a] / 2 && strcmp(e->peer_comm, "-"))
				util_strlcpy(fl->iface[a], e->peer_comm,
					     sizeof(fl->iface[a]));
			fl->net[a] += e->seconds;
			continue;
		}
		b = strcmp(e->kind, "child") ? find(ss, e->side, e->peer_pid) :
			find_child(ss, e);
		if (b < 0 && strcmp(e->kind, "child")) {
			int c = relay(ss, e->side, e->peer_pid, a, RELAY_DEPTH);

			if (c >= 0) {
				fl->waited[a][c] += e->seconds;
				ss->linked = 1;
				continue;
			}
		}
		if (b < 0 || b == a) {
			if (e->seconds > fl->ext[a]) {
				util_strlcpy(fl->ext_comm[a], e->peer_comm,
					     sizeof(fl->ext_comm[a]));
				fl->ext[a] = e->seconds;
			}
			fl->fed_outside[a] |= !e->out && b < 0;
			continue;
		}
		if (e->out)
			fl->w[a][b] += e->seconds;
		else
			fl->w[b][a] += e->seconds;
		fl->waited[a][b] += e->seconds;
		ss->linked = 1;
	}
}

/* The first stage of side that no stage of its host feeds. */
static int side_head(const struct report_stages *ss, const struct flows *fl,
		     int side)
{
	int any = -1;

	for (size_t i = 0; i < ss->n; i++) {
		int fed = 0;
		if (ss->st[i].side != side)
			continue;
		for (size_t j = 0; j < ss->n; j++)
			fed |= ss->st[j].side == side &&
			       fl->w[j][i] > fl->w[i][j];
		if (!fed && (fl->fed_outside[i] || fl->net[i] > 0))
			return (int)i;
		if (!fed && any < 0)
			any = (int)i;
	}
	return any;
}

/* A client's `net` edges to the servers' stages. */
static void net_flows(struct report_stages *ss, struct flows *fl)
{
	for (size_t i = 0; i < ss->ne; i++) {
		const struct report_stage_edge *e = &ss->e[i];
		int a = e->side == 0 ? find(ss, 0, e->pid) : -1;

		if (a < 0 || strcmp(e->kind, "net"))
			continue;
		for (int side = 1; side < ss->nsides; side++) {
			int t = -1;
			for (size_t j = 0; j < ss->ne && t < 0; j++)
				if (ss->e[j].side == side &&
				    !strcmp(ss->e[j].kind, "net") &&
				    !strcmp(ss->e[j].local, e->remote) &&
				    !strcmp(ss->e[j].remote, e->local))
					t = find(ss, side, ss->e[j].pid);
			if (t < 0)
				t = side_head(ss, fl, side);
			if (t < 0)
				continue;
			if (e->out)
				fl->w[a][t] += e->seconds;
			else
				fl->w[t][a] += e->seconds;
			ss->linked = 1;
		}
	}
}

static void waits_on(struct report_stages *ss, const struct flows *fl,
		     size_t i, const char *const *disks,
		     const char *const *nets)
{
	struct report_stage *s = &ss->st[i];
	const char *disk = disks && s->side < ss->nsides ? disks[s->side] : NULL;
	const char *net = nets && s->side < ss->nsides ? nets[s->side] : NULL;
	const struct report_waits *tw = &ss->trees[s->tree].w;
	int k = -1, b = -1;

	for (int j = 0; j < WS_N; j++)
		if (!isnan(s->pct[j]) && s->pct[j] > 0 &&
		    (k < 0 || s->pct[j] > s->pct[k]))
			k = j;
	for (size_t j = 0; j < ss->n; j++)
		if (fl->waited[i][j] > 0 && (b < 0 || fl->waited[i][j] >
					     fl->waited[i][b]))
			b = (int)j;
	s->waits_stage = b >= 0 && k == WS_OTHER ? b : -1;
	switch (k) {
	case WS_CPU:
		snprintf(s->waits_on, sizeof(s->waits_on), "CPU (running)");
		break;
	case WS_CPU_WAIT:
		snprintf(s->waits_on, sizeof(s->waits_on), "%s",
			 tw->throttled.n && tw->throttled.avg >=
			 REPORT_THROTTLED_MIN ? "CPU quota" : "CPU");
		break;
	case WS_DISK:
		snprintf(s->waits_on, sizeof(s->waits_on), "disk%s%s",
			 disk && disk[0] ? " " : "", disk ? disk : "");
		break;
	case WS_NET:
		net = fl->iface[i][0] ? fl->iface[i] : net;
		snprintf(s->waits_on, sizeof(s->waits_on), "network%s%s",
			 net && net[0] ? " " : "", net ? net : "");
		break;
	case WS_OTHER:
		if (b >= 0 && ss->st[b].side != s->side)
			snprintf(s->waits_on, sizeof(s->waits_on), "%s (%s)",
				 ss->st[b].name, ss->hosts[ss->st[b].side]);
		else if (b >= 0)
			snprintf(s->waits_on, sizeof(s->waits_on), "%s",
				 ss->st[b].name);
		else if (fl->ext[i] > 0 && strcmp(fl->ext_comm[i], "-"))
			snprintf(s->waits_on, sizeof(s->waits_on),
				 "%s (not watched)", fl->ext_comm[i]);
		else
			snprintf(s->waits_on, sizeof(s->waits_on),
				 "another process or a lock");
		break;
	case WS_SLEEP:
		snprintf(s->waits_on, sizeof(s->waits_on), "sleep (its own)");
		break;
	default:
		snprintf(s->waits_on, sizeof(s->waits_on), "-");
	}
}

/* Kahn's order on the net flows: every stage after those feeding it, the
 * lowest (side, index) first; in a loop, the stage fed least of the
 * lowest side (rsync's sender and the server's generator talk both ways:
 * broken across hosts, the server's receiver led the table once). */
static void sort(const struct report_stages *ss, const struct flows *fl,
		 int *order)
{
	int done[REPORT_STAGES_MAX] = { 0 };

	for (size_t pos = 0; pos < ss->n; pos++) {
		int pick = -1, loop = -1;
		double least = INFINITY;

		for (size_t c = 0; c < ss->n; c++) {
			double in = 0;
			if (done[c])
				continue;
			for (size_t p = 0; p < ss->n; p++)
				if (!done[p] && p != c && fl->w[p][c] > fl->w[c][p])
					in += fl->w[p][c] - fl->w[c][p];
			if (in == 0 && (pick < 0 || ss->st[c].side <
					ss->st[pick].side))
				pick = (int)c;
			if (loop < 0 || ss->st[c].side < ss->st[loop].side ||
			    (ss->st[c].side == ss->st[loop].side && in < least)) {
				least = in;
				loop = (int)c;
			}
		}
		if (pick < 0)
			pick = loop;
		done[pick] = 1;
		order[pos] = pick;
	}
}

void report_stages_order(struct report_stages *ss, const char *const *disks,
			 const char *const *nets)
{
	struct flows *fl = calloc(1, sizeof(*fl));
	struct report_stage *tmp;
	int order[REPORT_STAGES_MAX], where[REPORT_STAGES_MAX];

	shares(ss);
	names(ss);
	if (!fl)
		return;
	ss->linked = 0;
	local_flows(ss, fl);
	net_flows(ss, fl);
	for (size_t i = 0; i < ss->n; i++)
		waits_on(ss, fl, i, disks, nets);
	sort(ss, fl, order);
	for (size_t i = 0; i < ss->n; i++) {
		int fed = 0;
		for (size_t j = 0; j < ss->n; j++)
			fed |= fl->w[j][i] > fl->w[i][j];
		ss->st[i].head = !fed;
	}
	free(fl);
	tmp = malloc(ss->n * sizeof(*tmp) + 1);
	if (!tmp)
		return;
	for (size_t i = 0; i < ss->n; i++) {
		tmp[i] = ss->st[order[i]];
		where[order[i]] = (int)i;
	}
	for (size_t i = 0; i < ss->n; i++) {
		ss->st[i] = tmp[i];
		if (ss->st[i].waits_stage >= 0)
			ss->st[i].waits_stage = where[ss->st[i].waits_stage];
	}
	free(tmp);
}

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

int report_stages_subject(const struct report_stages *ss)
{
	int b = report_stages_busiest(ss), d = -1, k;
	double disk = 0, top;
	struct report_waits w;

	if (b < 0)
		return b;
	stage_waits(ss, &ss->st[b], &w);
	if ((k = own_resource(&w, &ss->st[b])) < 0 || k == WS_DISK)
		return b;
	/* the busiest stage held by its own resource at least half its
	 * time decides alone; else (no state dominates it, or its largest
	 * holds it under half its time: it waits on the others the rest)
	 * its host's disk, one device however many stages wait on it,
	 * against that share (a CPU each stage has its own of) */
	top = ss->st[b].pct[k] + (k == WS_CPU ? ss->st[b].pct[WS_CPU_WAIT] : 0);
	if (report_waits_dominant(&w) >= 0 && top >= REPORT_STAGE_HELD)
		return b;
	for (size_t i = 0; i < ss->n; i++) {
		const struct report_stage *u = &ss->st[i];
		if (u->side != ss->st[b].side || !(u->busy >= REPORT_STAGE_BUSY) ||
		    isnan(u->pct[WS_DISK]))
			continue;
		disk += u->pct[WS_DISK];
		if (d < 0 || u->pct[WS_DISK] > ss->st[d].pct[WS_DISK])
			d = (int)i;
	}
	return d >= 0 && disk > top && d != b ? d : b;
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
	char who[128], ref[96], line[sizeof(v->line)];
	int said = 0;

	if (b < 0 || (size_t)b >= ss->n)
		return 0;
	s = &ss->st[b];
	/* judged as a client's would be */
	stage_waits(ss, s, &w);
	if (!report_waits_judge_as(f, &w, REPORT_NONE, own_resource(&w, s),
				   &one))
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
	for (size_t i = 0; own_resource(&w, s) == WS_DISK && i < ss->n; i++) {
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
