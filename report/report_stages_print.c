/*
 * report_stages_print.c - the stages of a session in the text report and
 * in --json (report_stages.h; the schema in man/perflog-report.1):
 *
 *   Stages (data path):            busy   run  cpuw  disk   net  other  waits on
 *     rsync            (vm)          9%    8%    1%    0%    0%    91%  rsync (srv)
 *     rsync            (srv)        96%    5%    0%   91%    0%     4%  disk vdb
 *
 * Shares of each stage's working threads' time; busy = run + cpuw + disk
 * + net; the rest is other (waiting on a neighbour) and sleep.
 */
#include "report_stages.h"

#include <math.h>
#include <string.h>

#include "../common/json.h"

static void pct(FILE *f, double v, int width)
{
	if (isnan(v))
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, " %*.0f%%", width - 1, v);
}

void report_stages_print(FILE *f, const struct report_stages *ss)
{
	if (!ss || ss->n < 2)
		return;
	fprintf(f, "  Stages (data path):%*s busy   run  cpuw  disk   net  other  waits on\n",
		13, "");
	for (size_t i = 0; i < ss->n; i++) {
		const struct report_stage *s = &ss->st[i];
		char host[72];

		snprintf(host, sizeof(host), "(%s)", ss->hosts[s->side]);
		fprintf(f, "    %-16s %-13s", s->name, host);
		pct(f, s->busy, 4);
		pct(f, s->pct[WS_CPU], 5);
		pct(f, s->pct[WS_CPU_WAIT], 5);
		pct(f, s->pct[WS_DISK], 5);
		pct(f, s->pct[WS_NET], 5);
		pct(f, s->pct[WS_OTHER], 6);
		fprintf(f, "  %s\n", s->waits_on);
	}
	if (ss->judged)
		fprintf(f, "  the verdict is the busiest stage's own resource\n");
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
	json_bool(j, "stages_decide", ss && ss->judged);
}
