/*
 * report_night.c - a night of overlapping sessions (report_night.h,
 * issue 47 item 2): the trees of every session of the set on one graph
 * (each tree once, by host and label: a `mark --watch` session's tree is
 * also a tree of the sessions it overlaps), each session's root solved
 * apart (verdict_solve with one root a session), verdict_night for the
 * verdicts, the sessions held by their own resource and the shared limit;
 * then the text and the JSON. The HTML is report_html_night.c's.
 *
 * A set is a night when two of its sessions overlap; any sessions will
 * do (perflog run, mark --watch, a server's connections): a session with
 * no tree's rows is ranked with its own verdict's word and charged
 * nothing.
 */
#include "report_night.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/json.h"
#include "report_graph_int.h"
#include "report_summary.h"

static double when(const struct marker *m)
{
	return (double)m->t + (m->ms > 0 ? m->ms / 1000.0 : 0);
}

static void night_free(struct report_night *nt)
{
	if (!nt)
		return;
	vnight_free(&nt->nt);
	vsolution_free(&nt->s);
	vgraph_free(&nt->g);
	free(nt->sess);
	free(nt->in);
	free(nt->rank);
	free(nt);
}

void report_night_free(struct report *r)
{
	night_free(r->night);
	r->night = NULL;
}

/* Whether two of the report's sessions overlap. */
static int any_overlap(const struct report *r)
{
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = i + 1; k < r->n; k++) {
			const struct report_session *a = &r->s[i], *b = &r->s[k];
			if (!a->begin_m || !b->begin_m)
				continue;
			double ab = when(a->begin_m), bb = when(b->begin_m);
			double lo = ab > bb ? ab : bb;
			double hi = ab + a->seconds < bb + b->seconds ?
				    ab + a->seconds : bb + b->seconds;
			if (hi > lo)
				return 1;
		}
	return 0;
}

/* Every tree of the night's sessions once, as the builder's input (a
 * `mark --watch` tree is also a tree of the sessions it overlaps): how
 * many, -1 out of memory. *x holds what (*in)[] points to. */
static long trees_in(const struct report *r, const struct report_night *nt,
		     struct verdict_tree_in **in, struct report_graph_tree **x)
{
	size_t cap = 0, n = 0;
	for (size_t k = 0; k < nt->n; k++) {
		const struct report_stages *ss = r->s[nt->sess[k]].stages;
		cap += ss ? ss->ntrees : 0;
	}
	*in = calloc(cap ? cap : 1, sizeof **in);
	*x = calloc(cap ? cap : 1, sizeof **x);
	if (!*in || !*x)
		return -1;
	for (size_t k = 0; k < nt->n; k++) {
		const struct report_session *s = &r->s[nt->sess[k]];
		const struct report_stages *ss = s->stages;
		for (size_t t = 0; ss && t < ss->ntrees; t++) {
			const char *host =
				report_graph_host(ss, ss->trees[t].side);
			size_t j = 0;
			while (j < n && (strcmp((*in)[j].host, host) ||
					 strcmp((*in)[j].label, ss->trees[t].label)))
				j++;
			if (j < n)
				continue;
			report_graph_tree_in(s, t, &(*x)[n]);
			if (!(*x)[n].tot.n)
				continue;	/* no seconds: nothing to add */
			(*in)[n] = (*x)[n].in;
			n++;
		}
	}
	return (long)n;
}

/* The root of the night's session k: its own tree's (the first of its
 * stages), -1 when it has none in the graph. */
static int root_of(const struct report *r, const struct report_night *nt,
		   size_t k)
{
	const struct report_stages *ss = r->s[nt->sess[k]].stages;
	if (!ss || !ss->ntrees)
		return -1;
	return verdict_tree_root(&nt->g, report_graph_host(ss, ss->trees[0].side),
				 ss->trees[0].label);
}

static const struct report_night *sort_nt;

/* Longest first; of equal length, the first begun first. */
static int by_duration(const void *a, const void *b)
{
	const struct vnight_in *x = &sort_nt->in[*(const size_t *)a];
	const struct vnight_in *y = &sort_nt->in[*(const size_t *)b];
	double dx = x->end - x->begin, dy = y->end - y->begin;
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* Solve the night: the graph, one root a session, verdict_night. */
static int solve(const struct report *r, struct report_night *nt)
{
	struct verdict_tree_in *in = NULL;
	struct report_graph_tree *x = NULL;
	int *roots = malloc((nt->n ? nt->n : 1) * sizeof *roots);
	long nin = trees_in(r, nt, &in, &x);
	int rc = -1;
	size_t nroots = 0;

	if (!roots || nin < 0 ||
	    verdict_build(&nt->g, in, (size_t)nin, nt->t0, nt->seconds))
		goto out;
	for (size_t k = 0; k < nt->n; k++) {
		int p = root_of(r, nt, k);
		nt->in[k].root = p < 0 ? -1 : (int)nroots;
		if (p >= 0)
			roots[nroots++] = p;
	}
	if (verdict_solve(&nt->g, roots, nroots, &nt->s) == 0)
		rc = verdict_night(&nt->g, &nt->s, nt->in, nt->n, &nt->nt);
out:
	free(roots);
	free(in);
	free(x);
	return rc;
}

void report_night_of(struct report *r)
{
	report_night_free(r);
	if (!any_overlap(r))
		return;
	struct report_night *nt = calloc(1, sizeof *nt);
	size_t n = 0;
	if (!nt)
		return;
	nt->sess = calloc(r->n, sizeof *nt->sess);
	nt->in = calloc(r->n, sizeof *nt->in);
	nt->rank = calloc(r->n, sizeof *nt->rank);
	if (!nt->sess || !nt->in || !nt->rank) {
		night_free(nt);
		return;
	}
	nt->t0 = INFINITY;
	for (size_t i = 0; i < r->n; i++)
		if (r->s[i].begin_m && when(r->s[i].begin_m) < nt->t0)
			nt->t0 = when(r->s[i].begin_m);
	for (size_t i = 0; i < r->n; i++) {
		const struct report_session *s = &r->s[i];
		if (!s->begin_m)
			continue;
		double b = when(s->begin_m) - nt->t0;
		nt->sess[n] = i;
		nt->in[n] = (struct vnight_in){ b, b + (s->seconds > 0 ? s->seconds : 0), -1 };
		if (nt->in[n].end > nt->seconds)
			nt->seconds = nt->in[n].end;
		nt->rank[n] = n;
		n++;
	}
	nt->n = n;
	if (solve(r, nt)) {
		night_free(nt);
		return;
	}
	sort_nt = nt;
	qsort(nt->rank, n, sizeof *nt->rank, by_duration);
	sort_nt = NULL;
	r->night = nt;
}

void report_night_row(const struct report *r, size_t k,
		      struct report_night_row *row)
{
	const struct report_night *nt = r->night;
	size_t x = nt->rank[k];
	const struct verdict *v = &nt->nt.v[x];

	memset(row, 0, sizeof *row);
	row->index = x;
	row->s = &r->s[nt->sess[x]];
	row->own = nt->nt.own[x];
	if (v->res >= 0) {
		row->word = verdict_kind_word(v->kind);
		report_graph_res_name(&nt->g, v->res, row->on, sizeof row->on);
	} else {
		/* no tree's rows: the session's own verdict */
		struct report_summary m;
		report_summary_of(r->ls, row->s, &m);
		row->word = m.word;
	}
}

/* What of its host the shared resource is: "device vda", "its CPUs". */
static void shared_what(const struct vgraph *g, int res, char *buf, size_t n)
{
	const struct vg_res *x = &g->res[res];
	switch (x->type) {
	case VRES_CPU:
		snprintf(buf, n, "its CPUs");
		break;
	case VRES_QUOTA:
		snprintf(buf, n, "the CPU quota of %s", x->name);
		break;
	case VRES_DISK:
		snprintf(buf, n, x->name[0] ? "device %s" : "its disk (device unknown)",
			 x->name);
		break;
	case VRES_NET:
		snprintf(buf, n, "the network%s%s to %s", x->name[0] ? " through " : "",
			 x->name, x->far_host >= 0 ? g->host[x->far_host].name :
			 x->peer[0] ? x->peer : "the other end");
		break;
	default:
		snprintf(buf, n, "the memory limit of %s", x->name);
		break;
	}
}

void report_night_shared(const struct report *r, char *buf, size_t n)
{
	const struct report_night *nt = r->night;
	const struct vnight *v = &nt->nt;
	const struct vgraph *g = &nt->g;
	size_t len;
	char what[160];

	if (v->shared < 0) {
		snprintf(buf, n, "nothing: no resource held two of the sessions "
			 "while they ran together");
		return;
	}
	const struct vg_res *x = &g->res[v->shared];
	shared_what(g, v->shared, what, sizeof what);
	len = (size_t)snprintf(buf, n, "%s on %s: %s;",
			       verdict_kind_word(verdict_word(x->type)->kind),
			       g->host[x->host].name, what);
	/* the holders, the most seconds first (the ranking's order is by
	 * duration) */
	char *taken = calloc(nt->n ? nt->n : 1, 1);
	for (int first = 1; taken; first = 0) {
		size_t best = nt->n;
		for (size_t k = 0; k < nt->n; k++)
			if (v->on[k] > 0 && !taken[k] &&
			    (best == nt->n || v->on[k] > v->on[best]))
				best = k;
		if (best == nt->n || len >= n)
			break;
		taken[best] = 1;
		len += (size_t)snprintf(buf + len, n - len, "%s %s %.1f s",
					first ? "" : ",",
					r->s[nt->sess[best]].name, v->on[best]);
	}
	free(taken);
	if (len < n)
		snprintf(buf + len, n - len, ", while they ran together %.1f s",
			 v->together);
}

/* "06:40:33" of the night's second x (UTC, as the report's times). */
static void clock_of(const struct report_night *nt, double x, char *buf,
		     size_t n)
{
	time_t t = (time_t)floor(nt->t0 + x);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, n, "%H:%M:%S", &tm);
}

int report_night_print(FILE *f, const struct report *r)
{
	const struct report_night *nt = r->night;
	char line[1024];

	if (!nt)
		return 0;
	fprintf(f, "\nSessions: a night of %zu, ranked by duration; two or more ran at once %.1f s\n",
		nt->n, nt->nt.overlapped);
	/* the names' column as wide as the longest (a server's sessions
	 * are named for their connections: sshd-cli-rsync-55535) */
	int w = 16;
	for (size_t k = 0; k < nt->n; k++) {
		int len = (int)strlen(r->s[nt->sess[k]].name);
		w = len > w ? len : w;
	}
	fprintf(f, "  %4s %-*s %-8s  %-8s  %10s %12s %12s  %-8s %s\n", "rank",
		w, "session", "from", "to", "duration", "bytes", "rate",
		"limit", "on");
	for (size_t k = 0; k < nt->n; k++) {
		struct report_night_row row;
		struct report_summary m;
		struct report_summary_cells c;
		char from[16], to[16];
		report_night_row(r, k, &row);
		report_summary_of(r->ls, row.s, &m);
		report_summary_cells(&m, &c);
		clock_of(nt, nt->in[row.index].begin, from, sizeof from);
		clock_of(nt, nt->in[row.index].end, to, sizeof to);
		fprintf(f, "  %4zu %-*s %-8s  %-8s  %10s %12s %12s  %-8s %s%s%s\n",
			k + 1, w, row.s->name, from, to, c.duration, c.bytes, c.rate,
			row.word, row.on[0] ? row.on : "-",
			row.own ? " (its own)" : "", row.s->open ? " (open)" : "");
	}
	report_night_shared(r, line, sizeof line);
	fprintf(f, "Shared: %s\n", line);
	for (size_t k = 0; k < nt->n; k++) {
		struct report_night_row row;
		report_night_row(r, k, &row);
		if (!row.own)
			continue;
		const struct verdict *v = &nt->nt.v[row.index];
		fprintf(f, "  %s: held back by its own %s, %.1f s of %.1f s; not counted in the shared limit\n",
			row.s->name, row.on, v->sec, row.s->seconds);
	}
	return 1;
}

/* A time of the night as the JSON's other times: ISO 8601, ms. */
static void iso(struct json *j, const char *key, double t)
{
	char buf[40];
	double whole = floor(t);
	int ms = (int)llround((t - whole) * 1000);
	if (ms > 999)
		ms = 999;
	json_str(j, key, util_iso8601(buf, sizeof buf, (time_t)whole, ms));
}

void report_night_json(struct json *j, const struct report *r)
{
	const struct report_night *nt = r->night;
	char line[1024];

	if (!nt) {
		json_null(j, "night");
		return;
	}
	const struct vnight *v = &nt->nt;
	json_object_begin(j, "night");
	json_num(j, "seconds", nt->seconds);
	json_num(j, "overlapped", v->overlapped);
	json_array_begin(j, "ranking");
	for (size_t k = 0; k < nt->n; k++) {
		struct report_night_row row;
		struct report_summary m;
		report_night_row(r, k, &row);
		report_summary_of(r->ls, row.s, &m);
		const struct verdict *vv = &v->v[row.index];
		json_object_begin(j, NULL);
		json_int(j, "rank", (long long)k + 1);
		json_str(j, "name", row.s->name);
		json_int(j, "session", (long long)nt->sess[row.index]);
		iso(j, "begin", nt->t0 + nt->in[row.index].begin);
		iso(j, "end", nt->t0 + nt->in[row.index].end);
		json_num(j, "duration", row.s->seconds);
		json_num(j, "bytes", m.bytes);
		json_num(j, "rate", m.rate);
		json_str(j, "kind", row.word);
		if (vv->res >= 0) {
			json_object_begin(j, "resource");
			report_graph_res_json(j, &nt->g, vv->res);
			json_object_end(j);
		} else {
			json_null(j, "resource");
		}
		json_num(j, "seconds", vv->res >= 0 ? vv->sec : NAN);
		json_bool(j, "own", row.own);
		json_num(j, "overlap", v->overlap[row.index]);
		json_num(j, "shared_seconds", v->on[row.index]);
		json_object_end(j);
	}
	json_array_end(j);
	if (v->shared < 0) {
		json_null(j, "shared");
	} else {
		json_object_begin(j, "shared");
		report_graph_res_json(j, &nt->g, v->shared);
		json_num(j, "together", v->together);
		json_array_begin(j, "sessions");
		for (size_t k = 0; k < nt->n; k++) {
			if (!(v->on[k] > 0))
				continue;
			json_object_begin(j, NULL);
			json_str(j, "name", r->s[nt->sess[k]].name);
			json_num(j, "seconds", v->on[k]);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	report_night_shared(r, line, sizeof line);
	json_str(j, "line", line);
	json_object_end(j);
}
