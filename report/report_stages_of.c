/*
 * report_stages_of.c - a session's stages from its log set (report.h,
 * report_stages.h): the watched trees of the session on this host,
 *   - its own (perflog run's command, the workload's client, a `mark
 *     --watch` session's tree): the end marker's waits=FILE;
 *   - the trees its end marker names by KEY.waits=FILE (the workload's
 *     server);
 *   - a Process its begin marker names as KEY.server=Process(LABEL)
 *     (the workload's server) when no file came for it: its logged
 *     counters, one stage;
 *   - every other `mark --watch` session (watch= in its begin marker)
 *     that overlaps at least half of this one (a local server watched
 *     while the backup ran): its end marker's waits=FILE;
 * each totals file with its edges file beside it (waits-X -> edges-X; a
 * missing one is an old set: no edges). Then the verdict of the stages
 * (report_stages_verdict) and, with --with, across hosts.
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_hosts.h"
#include "../counters/counters.h"
#include "../logs/lookup.h"

/* The tree's waits file and the edges file beside it into ss. */
static void read_files(struct report_stages *ss, const char *dir, int tree,
		       const char *waits)
{
	struct perr e;
	struct waits_totals tot = { 0 };
	struct waitedge_row *rows;
	long n = treefiles_waits(dir, waits, &tot, NULL, &e);

	if (n == -2)
		return;
	if (n >= 0)
		report_stages_add_waits(ss, tree, &tot);
	n = treefiles_edges(dir, waits, &rows, NULL);
	if (n >= 0)		/* -1: an old set, no edges known */
		report_stages_add_edges(ss, tree, rows, (size_t)n, &tot);
	report_stages_keep(ss, tree, &tot, &rows, n > 0 ? (size_t)n : 0);
	waitrates_totals_free(&tot);
	free(rows);
	/* none, or a line not the format's: the tree's seconds are its
	 * totals alone (spread evenly over the session's intervals) */
	struct waitrows_file f;
	if (treefiles_rows(dir, waits, &f, &e) >= 0)
		report_stages_keep_rows(ss, tree, &f);
}

/* A tree of label over session s's span: its tree-wide waits (the end
 * marker end, or NULL: the counters of Process(label) alone). */
static int tree_of(struct report_stages *ss, struct logset *ls,
		   const char *dir, const struct report_session *s,
		   const char *label, const struct marker *end)
{
	struct report_session f = *s;
	struct report_waits *w = malloc(sizeof(*w));
	int t;

	if (!w)
		return -1;
	util_strlcpy(f.name, label, sizeof(f.name));
	f.end_m = end;
	f.stages = NULL;
	report_waits_of(ls, dir, &f, w);
	t = report_stages_tree(ss, 0, label, w);
	free(w);
	return t;
}

static int has_tree(const struct report_stages *ss, const char *label)
{
	for (size_t t = 0; t < ss->ntrees; t++)
		if (!strcmp(ss->trees[t].label, label))
			return 1;
	return 0;
}

/* "waits-LABEL.tsv" -> LABEL */
static void label_of(const char *file, char *out, size_t n)
{
	const char *dot = strrchr(file, '.');
	size_t len = strlen(file) - 6;

	if (dot && dot > file + 6)
		len = (size_t)(dot - file) - 6;
	snprintf(out, n, "%.*s", (int)len, file + 6);
}

static int ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);
	return a >= b && !strcmp(s + a - b, tail);
}

/* The end marker's KEY.waits=FILE and the begin marker's
 * KEY.server=Process(LABEL). */
static void named_trees(struct report_stages *ss, struct logset *ls,
			const char *dir, const struct report_session *s)
{
	const struct marker *m = s->end_m;
	char label[128];

	for (size_t i = 0; m && i < m->nextra; i++) {
		const char *v = m->extra[i].value;
		if (!ends_with(m->extra[i].key, ".waits") ||
		    strncmp(v, "waits-", 6) || strchr(v, '/'))
			continue;
		label_of(v, label, sizeof(label));
		if (has_tree(ss, label))
			continue;
		int t = tree_of(ss, ls, dir, s, label, NULL);
		if (t >= 0)
			read_files(ss, dir, t, v);
	}
	m = s->begin_m;
	for (size_t i = 0; m && i < m->nextra; i++) {
		const char *v = m->extra[i].value;
		size_t len = strlen(v);
		if (!ends_with(m->extra[i].key, ".server") ||
		    strncmp(v, "Process(", 8) || len < 10 || v[len - 1] != ')')
			continue;
		snprintf(label, sizeof(label), "%.*s", (int)(len - 9), v + 8);
		if (has_tree(ss, label))
			continue;
		int t = tree_of(ss, ls, dir, s, label, NULL);
		if (t >= 0 && ss->trees[t].w.have)
			report_stages_add_tree(ss, t, ss->trees[t].w.all,
					       s->seconds);
	}
}

/* Every other mark --watch session over at least half of s. */
static void watch_sessions(struct report_stages *ss, struct logset *ls,
			   const char *dir, const struct marker_list *ml,
			   const struct report_session *s)
{
	struct session *sess = NULL;
	long n = ml ? markers_sessions(ml, &sess) : -1;

	for (long k = 0; k < n; k++) {
		const struct session *o = &sess[k];
		const char *w = o->end ? marker_get(o->end, "waits") : NULL;
		if (!w || !marker_get(o->begin, "watch") ||
		    !strcmp(o->name, s->name) || has_tree(ss, o->name))
			continue;
		double b = (double)o->begin->t > (double)s->begin ?
			(double)o->begin->t : (double)s->begin;
		double e = (double)o->end->t < (double)s->end ?
			(double)o->end->t : (double)s->end;
		if (e - b < 0.5 * (double)(s->end - s->begin))
			continue;
		int t = tree_of(ss, ls, dir, s, o->name, o->end);
		if (t >= 0)
			read_files(ss, dir, t, w);
	}
	free(sess);
}

void report_stages_of(struct logset *ls, const char *dir,
		      const struct marker_list *ml, struct report_session *s)
{
	struct report_stages *ss = calloc(1, sizeof(*ss));
	const char *own = s->end_m ? marker_get(s->end_m, "waits") : NULL;
	const char *disks[1] = { s->fig.disk }, *nets[1] = { s->fig.net };
	int t;

	s->stages = ss;
	if (!ss)
		return;
	util_strlcpy(ss->hosts[0], logset_meta(ls)->host, sizeof(ss->hosts[0]));
	ss->nsides = 1;
	ss->seconds = s->seconds;
	if (!s->begin_m)
		return;		/* the whole log: no session, no trees */
	t = report_stages_tree(ss, 0, s->waits.process[0] ? s->waits.process :
			       s->name, &s->waits);
	if (t >= 0 && own && !strncmp(own, "waits-", 6) && !strchr(own, '/'))
		read_files(ss, dir, t, own);
	else if (t >= 0 && s->waits.have)
		report_stages_add_tree(ss, t, s->waits.all, s->seconds);
	named_trees(ss, ls, dir, s);
	watch_sessions(ss, ls, dir, ml, s);
	report_stages_order(ss, disks, nets);
}

void report_stages_across(struct report *r, struct report_session *s)
{
	struct report_stages *all;
	const char *disks[4] = { s->fig.disk }, *nets[4] = { s->fig.net };
	if (!s->stages || !(all = calloc(1, sizeof(*all))))
		return;
	report_stages_append(all, s->stages, 0);
	all->seconds = s->stages->seconds;
	for (size_t i = 0; i < r->nwith && i + 1 < 4; i++) {
		struct report_session *p = &s->peers[i].s;
		if (!p->stages)
			continue;
		size_t t0 = all->ntrees;
		report_stages_append(all, p->stages, (int)i + 1);
		for (size_t t = t0; t < all->ntrees; t++)	/* its rows' times */
			all->trees[t].shift = r->with[i].shift.seconds;
		util_strlcpy(all->hosts[i + 1], logset_meta(r->with[i].ls)->host,
			     sizeof(all->hosts[0]));
		disks[i + 1] = p->fig.disk;
		nets[i + 1] = p->fig.net;
	}
	report_stages_order(all, disks, nets);
	report_stages_free(s->stages);
	free(s->stages);
	s->stages = all;
}

size_t report_stages_ifaces(const struct report_stages *ss, int side,
			    char *buf, size_t n)
{
	size_t count = 0;

	if (n)
		buf[0] = '\0';
	for (size_t i = 0; ss && i < ss->ne; i++) {
		const char *f = ss->e[i].side != side ? NULL :
			waitedges_iface(ss->e[i].kind, ss->e[i].peer_comm);
		count += f && util_list_add(buf, n, f);
	}
	return count;
}

/* The disk side 0's processes waited on most (their `disk` rows'
 * seconds summed by disk), NULL none. */
static const char *used_disk(const struct report_stages *ss)
{
	const char *disk = NULL;
	double best = 0;

	for (size_t t = 0; ss && t < ss->ntrees; t++) {
		const struct report_stage_tree *tr = &ss->trees[t];

		for (size_t i = 0; tr->side == 0 && i < tr->nedges; i++) {
			const struct waitpeer_edge *e = &tr->edges[i].e;
			double sum = 0;

			if (e->kind != PEER_DISK || !e->peer_comm[0])
				continue;
			for (size_t u = 0; u < ss->ntrees; u++)
				for (size_t k = 0; ss->trees[u].side == 0 &&
				     k < ss->trees[u].nedges; k++) {
					const struct waitedge_row *x =
						&ss->trees[u].edges[k];
					if (x->e.kind == PEER_DISK &&
					    !strcmp(x->e.peer_comm, e->peer_comm))
						sum += x->seconds;
				}
			if (sum > best) {
				best = sum;
				disk = e->peer_comm;
			}
		}
	}
	return disk;
}

int report_stages_redo(struct logset *ls, struct report_session *s)
{
	struct report_stages *ss = s->stages;
	double best = 0;
	const char *iface = NULL, *disk = used_disk(ss);
	int redo = 0;

	/* (once: a session judged again is not asked again) */
	if (disk && !s->disk_want[0] && strcmp(disk, s->fig.disk) &&
	    lookup_counter(logset_meta(ls), CTR_DISK_TIME, disk) >= 0) {
		util_strlcpy(s->disk_want, disk, sizeof(s->disk_want));
		/* the host's disk of its stages and trees (the graph's
		 * disk of a process with no disk edge of its own) */
		util_strlcpy(ss->disks[0], disk, sizeof(ss->disks[0]));
		redo = 1;
	}

	for (size_t i = 0; ss && i < ss->ne; i++) {
		const struct report_stage_edge *e = &ss->e[i];
		if (e->side == 0 && !strcmp(e->kind, "net") &&
		    strcmp(e->peer_comm, "-") && e->seconds >= best) {
			best = e->seconds;
			iface = e->peer_comm;
		}
	}
	if (!iface || !strcmp(iface, s->fig.net) || s->net_want[0] ||
	    lookup_counter(logset_meta(ls), CTR_NET_BYTES_TOTAL, iface) < 0)
		return redo;
	util_strlcpy(s->net_want, iface, sizeof(s->net_want));
	return 1;
}
