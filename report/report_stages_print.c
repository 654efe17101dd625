/*
 * report_stages_print.c - the stages of a session in the text report and
 * in --json (report_stages.h; the schema in man/perflog-report.1):
 *
 *   Stages (data path):                alive session    run   cpuw   disk    net  other  waits on
 *     rsync            (vm)            6.0 s    100%    0.5    0.1    0.0    0.0    5.4  rsync (srv)
 *     rsync            (srv)           5.9 s     98%    0.3    0.0    5.4    0.0    0.2  disk vdb
 *
 * Seconds: each stage's working threads' (a thread's seconds: a process
 * of two busy threads has two a second), its life as a share of the
 * session; other is waiting on a neighbour.
 */
#include "report_stages.h"

#include <math.h>
#include <string.h>

#include "../common/json.h"

static void secs(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, " %6s", "-");
	else
		fprintf(f, " %6.1f", v);
}

void report_stages_print(FILE *f, const struct report_stages *ss)
{
	if (!ss || ss->n < 2)
		return;
	fprintf(f, "  Stages (data path):%*s   alive session    run   cpuw   disk    net  other  waits on\n",
		13, "");
	for (size_t i = 0; i < ss->n; i++) {
		const struct report_stage *s = &ss->st[i];
		char host[72];

		snprintf(host, sizeof(host), "(%s)", ss->hosts[s->side]);
		fprintf(f, "    %-16s %-13s", s->name, host);
		/* alive: its threads' mean life (a pool of four threads
		 * alive 1.9 s is alive 1.9 s, not 7.6) */
		double alive = s->nthreads > 1 ? s->alive / (double)s->nthreads :
			       s->alive;
		fprintf(f, " %5.1f s", alive);
		if (ss->seconds > 0)
			fprintf(f, " %6.0f%%", 100.0 * alive / ss->seconds);
		else
			fprintf(f, " %7s", "-");
		secs(f, s->sec[WS_CPU]);
		secs(f, s->sec[WS_CPU_WAIT]);
		secs(f, s->sec[WS_DISK]);
		secs(f, s->sec[WS_NET]);
		secs(f, s->sec[WS_OTHER]);
		fprintf(f, "  %s\n", s->waits_on);
	}
}

void report_stages_json(struct json *j, const struct report_stages *ss)
{
	json_array_begin(j, "stages");
	for (size_t i = 0; ss && i < ss->n; i++) {
		const struct report_stage *s = &ss->st[i];

		json_object_begin(j, NULL);
		json_str(j, "name", s->name);
		json_str(j, "comm", s->comm);
		if (s->pid > 0)
			json_int(j, "pid", s->pid);
		else
			json_null(j, "pid");
		json_str(j, "host", ss->hosts[s->side]);
		json_str(j, "tree", ss->trees[s->tree].label);
		double alive = s->nthreads > 1 ? s->alive / (double)s->nthreads :
			       s->alive;
		json_num(j, "alive", alive);
		json_num(j, "session_share", ss->seconds > 0 ?
			 100.0 * alive / ss->seconds : NAN);
		json_num(j, "run_seconds", s->sec[WS_CPU]);
		json_num(j, "cpu_wait_seconds", s->sec[WS_CPU_WAIT]);
		json_num(j, "disk_seconds", s->sec[WS_DISK]);
		json_num(j, "net_seconds", s->sec[WS_NET]);
		json_num(j, "other_seconds", s->sec[WS_OTHER]);
		json_num(j, "busy", s->busy);
		json_num(j, "run", s->pct[WS_CPU]);
		json_num(j, "cpu_wait", s->pct[WS_CPU_WAIT]);
		json_num(j, "disk", s->pct[WS_DISK]);
		json_num(j, "net", s->pct[WS_NET]);
		json_num(j, "other", s->pct[WS_OTHER]);
		json_num(j, "sleep", s->pct[WS_SLEEP]);
		json_str(j, "waits_on", s->waits_on);
		if (s->waits_stage >= 0)
			json_int(j, "waits_on_stage", s->waits_stage);
		else
			json_null(j, "waits_on_stage");
		json_object_end(j);
	}
	json_array_end(j);
}
