/*
 * report_hosts_print.c - the servers' sides of a session in the text
 * report (report.h, `report --with`): per server its host and log set,
 * how its span was found (its own session markers, or the client's span
 * on its clock), the clock shift and where it came from, its resource
 * table, its receiver's wait states, and its own one-host verdict; then
 * the client's own verdict, before the verdict across hosts.
 */
#include "report.h"

#include <math.h>

void report_hosts_print(FILE *f, const struct report *r,
			const struct report_session *s)
{
	char t1[40], t2[40];

	for (size_t i = 0; i < r->nwith; i++) {
		const struct report_with *w = &r->with[i];
		const struct report_peer *p = &s->peers[i];
		const struct logset_meta *m = logset_meta(w->ls);

		util_iso8601(t1, sizeof(t1), p->s.begin_m ? p->s.begin_m->t : p->s.begin,
			     p->s.begin_m ? p->s.begin_m->ms : -1);
		util_iso8601(t2, sizeof(t2), p->s.end_m ? p->s.end_m->t : p->s.end,
			     p->s.end_m ? p->s.end_m->ms : -1);
		if (p->empty) {	/* no table of n/a, no verdict of nothing */
			fprintf(f, "  server %s (%s) has no rows for this session (from %s to %s on its clock): left out\n",
				m->host, w->dir, t1, t2);
			continue;
		}
		fprintf(f, "  server %s (%s):\n", m->host, w->dir);
		fprintf(f, "    clock: %s", w->shift.what);
		if (!isnan(w->shift.rtt))
			fprintf(f, ", round trip %.3f s", w->shift.rtt);
		fprintf(f, "\n    %s from %s to %s (its own clock)\n",
			p->matched ? "its session, from its markers," :
			"no session of that name: the client's span,", t1, t2);
		report_print_resources(f, &p->s.fig, r->verbose);
		report_print_waits(f, &p->s.waits, "receiver", r->verbose);
		fprintf(f, "    %s alone: %s\n", m->host, p->s.verdict.line);
	}
	for (size_t i = 0; i < r->nwith; i++)
		if (!s->peers[i].empty) {	/* else it is the verdict */
			fprintf(f, "  %s alone: %s\n",
				logset_meta(r->ls)->host, s->local.line);
			break;
		}
}
