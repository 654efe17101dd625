/*
 * report_stages_path.c - the stages along the data path (report_stages.h;
 * the rules in report/README.md, "The stages of the data path"): their
 * shares, names, order and "waits on": evidence beside the wait graph's
 * verdict (report_verdict.c). Pure.
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

/* A client's `net` edges to the servers' stages. Across hosts the data
 * runs from the report's host to the --with hosts (perflog run --server
 * on the client: a backup), whichever way the client's stage waited on
 * its socket: ssh polls its pipe and its socket for input at once, and a
 * sender waits for a slow receiver's replies as long as it likes ("in":
 * the server's rsync, fed by sshd, led the table over the client's rsync
 * and ssh, and the server's cat sat between tar and ssh). */
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
			fl->w[a][t] += e->seconds;
			ss->linked = 1;
		}
	}
}

/* The stage i waited on most (edges), or -1. */
static int most_waited(const struct report_stages *ss,
		       const struct flows *fl, size_t i)
{
	int b = -1;

	for (size_t j = 0; j < ss->n; j++)
		if (fl->waited[i][j] > 0 && (b < 0 || fl->waited[i][j] >
					     fl->waited[i][b]))
			b = (int)j;
	return b;
}

/* The largest of stage i's split (k: -1 none). */
static int largest(const struct report_stage *s)
{
	int k = -1;

	for (int j = 0; j < WS_N; j++)
		if (!isnan(s->pct[j]) && s->pct[j] > 0 &&
		    (k < 0 || s->pct[j] > s->pct[k]))
			k = j;
	return k;
}

/* Whether stage i, mostly waiting on stage b, is in a loop with it that
 * waits on the network: b mostly waits on i, and i waits on its socket
 * too. rsync's sender and its ssh wait on each other for the server's
 * replies, ssh polling its pipe and its socket at once (other,
 * waitclass.h): the pair waits on the network together, and "ssh waits
 * on rsync, rsync on ssh" named nothing (t3720's shaped link: ssh other
 * 48%, net 45% in one run of three). */
static int net_loop(const struct report_stages *ss, const struct flows *fl,
		    size_t i, int b)
{
	const struct report_stage *s = &ss->st[i];

	return b >= 0 && largest(&ss->st[b]) == WS_OTHER &&
	       most_waited(ss, fl, (size_t)b) == (int)i &&
	       !isnan(s->pct[WS_NET]) && s->pct[WS_NET] > 0;
}

static void waits_on(struct report_stages *ss, const struct flows *fl,
		     size_t i, const char *const *disks,
		     const char *const *nets)
{
	struct report_stage *s = &ss->st[i];
	const char *disk = disks && s->side < ss->nsides ? disks[s->side] : NULL;
	const char *net = nets && s->side < ss->nsides ? nets[s->side] : NULL;
	const struct report_waits *tw = &ss->trees[s->tree].w;
	int k = largest(s), b = most_waited(ss, fl, i);

	if (k == WS_OTHER && net_loop(ss, fl, i, b))
		k = WS_NET;
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

/* Is stage c its host's way out, to be placed after the stages of its
 * host it is joined to: it waits on the network, and one of them, not
 * placed yet, does not. A flow's direction is where a stage waited, and
 * a sender waits for its receiver's replies as long as it likes (rsync's
 * sender "in" on its ssh 7.0 s, ssh "in" on it 2.3 s): ssh led rsync's
 * sender. */
static int way_out(const struct report_stages *ss, const struct flows *fl,
		   const int *done, size_t c)
{
	if (!(fl->net[c] > 0))
		return 0;
	for (size_t p = 0; p < ss->n; p++)
		if (!done[p] && p != c && ss->st[p].side == ss->st[c].side &&
		    !(fl->net[p] > 0) && (fl->w[p][c] > 0 || fl->w[c][p] > 0))
			return 1;
	return 0;
}

/* Kahn's order on the net flows: every stage after those feeding it, the
 * lowest (side, index) first, a host's way out after the stages of its
 * host it is joined to (way_out); in a loop, the stage fed least of the
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
			if (done[c] || way_out(ss, fl, done, c))
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
		/* a loop of a lower host before a higher one's stage fed
		 * by none (a server's receiver behind sshd whose net edge
		 * was not matched) */
		if (pick < 0 || (loop >= 0 &&
				 ss->st[loop].side < ss->st[pick].side))
			pick = loop;
		for (size_t c = 0; pick < 0 && c < ss->n; c++)
			if (!done[c])	/* only ways out left, each waiting on
					 * another's stages: the first */
				pick = (int)c;
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
	for (int i = 0; i < 4; i++)
		util_strlcpy(ss->disks[i], disks && i < ss->nsides && disks[i] ?
			     disks[i] : "", sizeof(ss->disks[i]));
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
