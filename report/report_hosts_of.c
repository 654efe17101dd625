/*
 * report_hosts_of.c - the servers' sides of a report (`perflog report
 * CLIENT --with SERVER...`, report.h): open each --with set, put it on
 * the client's clock (logs/align.h: the offset its markers or the
 * client's recorded, or --shift), find each client session's match in
 * it, judge that side alone as report.c judges the client's (its
 * receiver's wait states when `mark --watch` logged a Process of the
 * session), then the verdict across hosts (report_hosts.c).
 *
 * Matching: the server's session of the same name whose span, shifted
 * onto the client's clock, overlaps the client's the most; else the one
 * of that name whose begin is nearest, within the client's length (and
 * at least a minute) of it. A set with no such session (an nmon or
 * perfmon import, a server nobody marked) is read over the client's span
 * moved onto its own clock.
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_hosts.h"
#include "report_night.h"

/* The index of the server session matching client session cs, or -1. */
static long match(const struct report_session *cs, const struct session *ss,
		  long nss, double shift)
{
	double cb = (double)cs->begin, ce = (double)cs->end;
	double best = 0, near = INFINITY;
	long b = -1, nb = -1;
	double slack = ce - cb > 60 ? ce - cb : 60;

	if (!cs->begin_m)
		return -1;
	for (long k = 0; k < nss; k++) {
		if (strcmp(ss[k].name, cs->name))
			continue;
		double sb = (double)ss[k].begin->t + shift;
		double se = ss[k].end ? (double)ss[k].end->t + shift : ce;
		double ov = (se < ce ? se : ce) - (sb > cb ? sb : cb);
		if (ov > best) {
			best = ov;
			b = k;
		}
		if (fabs(sb - cb) < near) {
			near = fabs(sb - cb);
			nb = k;
		}
	}
	if (b >= 0)
		return b;
	return near <= slack ? nb : -1;
}

/* Server w's side of client session cs into p. */
static int side_of(struct report_with *w, const struct report_session *cs,
		   struct report_peer *p, const struct session *ss, long nss,
		   struct perr *e)
{
	const struct logset_meta *m = logset_meta(w->ls);
	time_t last = logset_last(w->ls);
	time_t lend = last ? last : (m->stop ? m->stop : m->start);
	long sh = lround(w->shift.seconds);
	long k = match(cs, ss, nss, w->shift.seconds);
	struct report_session *s = &p->s;

	memset(p, 0, sizeof(*p));
	util_strlcpy(s->name, cs->name, sizeof(s->name));
	if (k >= 0) {
		p->matched = 1;
		s->begin_m = ss[k].begin;
		s->end_m = ss[k].end;
		s->begin = ss[k].begin->t;
		s->open = !ss[k].end;
		s->end = ss[k].end ? ss[k].end->t + (ss[k].end->ms > 0) : lend;
		s->seconds = s->end_m ?
			(double)(s->end_m->t - s->begin_m->t) +
			(s->end_m->ms - s->begin_m->ms) / 1000.0 :
			(double)(s->end - s->begin);
	} else {
		s->begin = cs->begin - sh;
		s->end = cs->end - sh;
		s->seconds = cs->seconds;
	}
	if (report_judge_session(w->ls, w->dir, s, NULL, NULL, lend, e) < 0)
		return -1;
	report_stages_of(w->ls, w->dir, &w->markers, s);
	if (report_stages_redo(w->ls, s) &&
	    report_judge_session(w->ls, w->dir, s, NULL, NULL, lend, e) < 0)
		return -1;
	/* its NFS mounts' and tape drives' own figures (report.c does the
	 * same for the client's side after its graph) */
	report_targets_judge(&s->targets, &s->fig, &s->waits, &s->verdict);
	s->fig.proc_who = "server";	/* its watched process is no client */
	char line[sizeof(s->verdict.line)];
	report_hosts_receiver(s->verdict.line, line, sizeof(line));
	util_strlcpy(s->verdict.line, line, sizeof(s->verdict.line));
	report_hosts_receiver(s->verdict.hint, line, sizeof(line));
	util_strlcpy(s->verdict.hint, line, sizeof(s->verdict.hint));
	return 0;
}

/* Open --with set i and align it on r's clock. */
static int open_with(struct report *r, struct report_with *w, const char *dir,
		     double shift, struct perr *e)
{
	util_strlcpy(w->dir, dir, sizeof(w->dir));
	if (logset_open(dir, &w->ls, e) < 0 ||
	    markers_load(dir, &w->markers, e) < 0)
		return -1;
	if (!isnan(shift))
		align_manual(shift, &w->shift);
	else
		align_shift_of(logset_meta(r->ls), &r->markers,
			       logset_meta(w->ls), &w->markers, &w->shift);
	return 0;
}

/* The verdict across hosts of session s, from its sides. */
static int judge_across(struct report *r, struct report_session *s)
{
	struct report_host_side c = { logset_meta(r->ls)->host, &s->fig,
				      &s->waits, &s->local };
	struct report_host_side *sv = calloc(r->nwith, sizeof(*sv));

	if (!sv)
		return -1;
	size_t n = 0;

	for (size_t i = 0; i < r->nwith; i++)
		if (!s->peers[i].empty)	/* no figures to judge by */
			sv[n++] = (struct report_host_side){
				logset_meta(r->with[i].ls)->host,
				&s->peers[i].s.fig, &s->peers[i].s.waits,
				&s->peers[i].s.verdict };
	if (n)
		report_hosts_judge(&c, sv, n, &s->verdict, s->verdict_host,
				   sizeof(s->verdict_host), s->verdict_peer,
				   sizeof(s->verdict_peer));
	free(sv);
	return 0;
}

int report_add_hosts(struct report *r, char *const *dirs, size_t n,
		     const double *shifts, struct perr *e)
{
	if (!n)
		return 0;
	r->with = calloc(n, sizeof(*r->with));
	if (!r->with)
		return perr_set(e, "out of memory");
	for (size_t i = 0; i < n; i++) {
		r->nwith++;
		if (open_with(r, &r->with[i], dirs[i], shifts ? shifts[i] : NAN,
			      e) < 0)
			return -1;
	}
	for (size_t j = 0; j < r->n; j++) {
		struct report_session *s = &r->s[j];
		s->peers = calloc(n, sizeof(*s->peers));
		if (!s->peers)
			return perr_set(e, "out of memory");
		s->local = s->verdict;
		for (size_t i = 0; i < n; i++) {
			struct session *ss = NULL;
			long nss = markers_sessions(&r->with[i].markers, &ss);
			int rc = nss < 0 ? perr_set(e, "out of memory") :
				 side_of(&r->with[i], s, &s->peers[i], ss, nss, e);
			free(ss);
			if (rc < 0)
				return -1;
			s->peers[i].empty = !s->peers[i].s.fig.rows &&
					    !s->peers[i].s.waits.have;
		}
		/* the stages of every host, their graph solved again over
		 * all of them: its verdict when a server's tree is in it,
		 * else the hosts' counters' (a server watched by its
		 * counters only: no graph of its side) */
		report_stages_across(r, s);
		report_graph_of(s);
		if (report_graph_verdict(s, 1))
			continue;
		s->verdict_who[0] = s->verdict_who_host[0] = '\0';
		if (judge_across(r, s) < 0)
			return perr_set(e, "out of memory");
	}
	report_night_of(r);	/* again, with the servers' trees */
	return 0;
}

void report_hosts_free(struct report *r)
{
	for (size_t i = 0; i < r->nwith; i++) {
		if (r->with[i].ls)
			logset_close(r->with[i].ls);
		markers_free(&r->with[i].markers);
	}
	for (size_t j = 0; r->s && j < r->n; j++) {
		for (size_t i = 0; r->s[j].peers && i < r->nwith; i++)
			if (r->s[j].peers[i].s.stages) {
				report_stages_free(r->s[j].peers[i].s.stages);
				free(r->s[j].peers[i].s.stages);
			}
		free(r->s[j].peers);
	}
	free(r->with);
	r->with = NULL;
	r->nwith = 0;
}
