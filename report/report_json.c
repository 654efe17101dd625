/*
 * report_json.c - `perflog report --json`: the report of report.h as JSON
 * for scripts (common/json.h). The schema is documented in
 * man/perflog-report.1 (section JSON); what the text report prints, with
 * numbers in base units (percent, bytes, seconds) and unknown as null.
 */
#include "report.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/json.h"
#include "report_client.h"
#include "report_night.h"

#define REPORT_JSON_FORMAT 1

static void stat_obj(struct json *j, const char *key, const struct report_stat *s)
{
	json_object_begin(j, key);
	json_num(j, "avg", s->n ? s->avg : NAN);
	json_num(j, "p95", s->n ? s->p95 : NAN);
	json_num(j, "peak", s->n ? s->peak : NAN);
	json_num(j, "min", s->n ? s->min : NAN);
	json_int(j, "samples", (long long)s->n);
	json_object_end(j);
}

static double num_of(const char *v)
{
	char *end;
	double d;

	if (!v || !*v)
		return NAN;
	d = strtod(v, &end);
	return *end ? NAN : d;
}

static void time_str(struct json *j, const char *key, time_t t, int ms)
{
	char buf[40];

	json_str(j, key, util_iso8601(buf, sizeof(buf), t, ms));
}

/* 1 when "client.KEY" is a normalised figure (client.h) or bookkeeping,
 * not one of the client's own figures */
static int normalised_key(const char *key)
{
	if (!strcmp(key, "derived") || !strcmp(key, "summaries"))
		return 1;
	for (int k = 0; k < CLN_COUNT; k++)
		if (!strcmp(key, client_norm_keys[k]))
			return 1;
	return 0;
}

/* The client's own figures of summary I (prefix "client.I.") or the last
 * summary's (prefix "client."): {"KEY": {"printed": "7.31 GB", "value":
 * 7849052733.44}}, value null for text figures. */
static void client_obj(struct json *j, const char *key, const struct marker *m,
		       const char *prefix)
{
	size_t pl = strlen(prefix);
	int plain = !strcmp(prefix, "client.");

	json_object_begin(j, key);
	for (size_t i = 0; m && i < m->nextra; i++) {
		const char *k = m->extra[i].key;
		char num[160];

		if (strncmp(k, prefix, pl) || !k[pl] || strchr(k + pl, '.'))
			continue;
		if (plain && (isdigit((unsigned char)k[pl]) || normalised_key(k + pl)))
			continue;
		json_object_begin(j, k + pl);
		json_str(j, "printed", m->extra[i].value);
		snprintf(num, sizeof(num), "%s.num", k);
		json_num(j, "value", num_of(marker_get(m, num)));
		json_object_end(j);
	}
	json_object_end(j);
}

/* "client": the normalised figures, the same for every client (client.h);
 * "client_figures": the client's own; "client_summaries": each summary's
 * own when the output held several. */
static void client_figures(struct json *j, const struct marker *m)
{
	double v[CLN_COUNT];
	unsigned derived = 0;
	const char *name = m ? report_client_norm(m, v, &derived) : NULL;
	double ns = num_of(m ? marker_get(m, "client.summaries") : NULL);
	long n = isnan(ns) ? 0 : (long)ns;	/* (long)NAN is undefined */

	if (name) {
		json_object_begin(j, "client");
		json_str(j, "name", name);
		for (int k = 0; k < CLN_COUNT; k++)
			json_num(j, client_norm_keys[k], v[k]);
		json_array_begin(j, "derived");
		for (int k = 0; k < CLN_COUNT; k++)
			if (derived & (1u << k))
				json_str(j, NULL, client_norm_keys[k]);
		json_array_end(j);
		json_object_end(j);
	} else {
		json_null(j, "client");
	}
	client_obj(j, "client_figures", m, "client.");
	json_array_begin(j, "client_summaries");
	for (long i = 1; n > 1 && i <= n && i <= 1000; i++) {
		char prefix[32];

		snprintf(prefix, sizeof(prefix), "client.%ld.", i);
		client_obj(j, NULL, m, prefix);
	}
	json_array_end(j);
}

/* One check of a client byte count against a logged one, as the text
 * report prints it, when both are known. */
static void check(struct json *j, const char *figure, double client,
		  const char *by, const char *inst, double logged, int shared)
{
	double change;
	const char *verdict;

	if (isnan(client) || isnan(logged))
		return;
	verdict = report_client_agree(client, logged, shared, &change);
	json_object_begin(j, NULL);
	json_str(j, "figure", figure);
	json_num(j, "client", client);
	json_str(j, "logged", by);
	json_str(j, "instance", inst);
	json_num(j, "logged_bytes", logged);
	json_num(j, "change", change);
	json_bool(j, "agree", !strcmp(verdict, "agree"));
	if (shared == REPORT_SHARED_IFACE)
		json_bool(j, "other_traffic", !strcmp(verdict, REPORT_CLIENT_OTHERS));
	if (shared == REPORT_SHARED_OWN)
		json_bool(j, "reads_back", !strcmp(verdict, REPORT_CLIENT_OWN));
	if (shared == REPORT_SHARED_STORE || shared == REPORT_SHARED_PAGES) {
		json_bool(j, "other_files", !strcmp(verdict, REPORT_CLIENT_STORE_MORE));
		json_bool(j, "whole_pages", !strcmp(verdict, REPORT_CLIENT_STORE_PAGES));
		json_bool(j, "no_block_device", !strcmp(verdict, REPORT_CLIENT_STORE_NONE));
	}
	json_object_end(j);
}

/* "client_check": the client's read and sent bytes against the process
 * tree's I/O and the interface's bytes (report_client.h) */
static void client_check(struct json *j, struct logset *ls,
			 const struct report_session *s)
{
	double v[CLN_COUNT];
	unsigned derived;
	struct report_client_logged lg;

	json_array_begin(j, "client_check");
	if (s->end_m && report_client_norm(s->end_m, v, &derived)) {
		report_client_logged(ls, s, &lg);
		int own = report_client_reads_back(v, &lg) ?
			REPORT_SHARED_OWN : REPORT_SHARED_NO;
		check(j, "read", v[CLN_READ], "process_read", lg.process, lg.proc_read, own);
		check(j, "sent", v[CLN_SENT], "process_written", lg.process, lg.proc_written, own);
		check(j, "sent", v[CLN_SENT], "interface", lg.net_if, lg.net_bytes,
		      REPORT_SHARED_IFACE);
		check(j, "sent", v[CLN_SENT], "process_stored", lg.stored_by,
		      lg.proc_stored, report_client_store_shared(v, &lg));
	}
	json_array_end(j);
}

static void resources(struct json *j, const struct report_figures *g)
{
	json_object_begin(j, "resources");
	json_object_begin(j, "cpu");
	json_int(j, "cpus", g->ncpu);
	stat_obj(j, "total", &g->cpu);
	json_str(j, "busiest_instance", g->cpu1_name[0] ? g->cpu1_name : NULL);
	stat_obj(j, "busiest", &g->cpu1);
	stat_obj(j, "iowait", &g->iowait);
	json_object_end(j);
	if (g->proc_cpu.n) {
		json_object_begin(j, "process");
		stat_obj(j, "cpu", &g->proc_cpu);
		json_object_end(j);
	} else {
		json_null(j, "process");
	}
	if (g->disk[0]) {
		json_object_begin(j, "disk");
		json_str(j, "instance", g->disk);
		stat_obj(j, "busy", &g->disk_busy);
		stat_obj(j, "bytes_per_sec", &g->disk_bytes);
		stat_obj(j, "transfers_per_sec", &g->disk_xfers);
		stat_obj(j, "sec_per_transfer", &g->disk_service);
		json_num(j, "bytes_per_transfer", g->disk_xfer_size);
		json_object_end(j);
	} else {
		json_null(j, "disk");
	}
	json_object_begin(j, "memory");
	stat_obj(j, "available_bytes", &g->mem_avail);
	json_num(j, "available_reference_bytes", g->mem_avail_ref);
	stat_obj(j, "pages_per_sec", &g->pages);
	json_object_end(j);
	if (g->net[0]) {
		json_object_begin(j, "network");
		json_str(j, "instance", g->net);
		stat_obj(j, "bytes_per_sec", &g->net_bytes);
		stat_obj(j, "bandwidth_share", &g->net_share);
		json_num(j, "bandwidth_bits_per_sec", g->net_bandwidth);
		json_object_end(j);
	} else {
		json_null(j, "network");
	}
	json_object_end(j);
}

static void instrumentation(struct json *j, const struct report_session *s)
{
	const struct instr_thread *t;

	if (!s->has_instr) {
		json_null(j, "instrumentation");
		return;
	}
	t = instr_main_thread(&s->instr);
	json_object_begin(j, "instrumentation");
	json_str(j, "source", s->instr_src);
	json_int(j, "thread", t->id);
	json_num(j, "elapsed", t->elapsed_s);
	json_array_begin(j, "sections");
	for (size_t i = 0; i < t->n; i++) {
		json_object_begin(j, NULL);
		json_str(j, "name", t->s[i].name);
		json_str(j, "category", instr_category_name(t->s[i].cat));
		json_num(j, "seconds", t->s[i].actual_s);
		json_num(j, "share", t->elapsed_s > 0 ? t->s[i].actual_s / t->elapsed_s : NAN);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

static void verdict_obj(struct json *j, const struct report_verdict *v,
			const char *host, const char *peer)
{
	json_object_begin(j, "verdict");
	/* the line's first word, and its detail: the wait graph's
	 * (verdict/words.c), else the counters' rule */
	json_str(j, "kind", report_kind_word(v->kind));
	json_str(j, "detail", v->detail ? v->detail : report_kind_name(v->kind));
	json_str(j, "line", v->line);
	json_str(j, "hint", v->hint[0] ? v->hint : NULL);
	json_str(j, "host", host && *host ? host : NULL);
	json_str(j, "peer", peer && *peer ? peer : NULL);
	json_object_end(j);
}

/* With --with: each server's side of session s ("servers") and the
 * client's own verdict ("local_verdict"). */
static void servers(struct json *j, const struct report *r,
		    const struct report_session *s)
{
	static const char *const source[] = { "none", "own-markers",
		"client-markers", "manual", "self" };

	if (!s->peers)
		return;
	json_array_begin(j, "servers");
	for (size_t i = 0; i < r->nwith; i++) {
		const struct report_with *w = &r->with[i];
		const struct report_session *p = &s->peers[i].s;
		int d = report_waits_dominant(&p->waits);

		json_object_begin(j, NULL);
		json_str(j, "host", logset_meta(w->ls)->host);
		json_str(j, "logset", w->dir);
		json_bool(j, "matched", s->peers[i].matched);
		json_object_begin(j, "shift");
		json_num(j, "seconds", w->shift.seconds);
		json_str(j, "source", source[w->shift.source]);
		json_str(j, "what", w->shift.what);
		json_num(j, "rtt", w->shift.rtt);
		json_object_end(j);
		time_str(j, "begin", p->begin_m ? p->begin_m->t : p->begin,
			 p->begin_m ? p->begin_m->ms : -1);
		time_str(j, "end", p->end_m ? p->end_m->t : p->end,
			 p->end_m ? p->end_m->ms : -1);
		resources(j, &p->fig);
		json_str(j, "receiver", p->waits.have ? p->waits.process : NULL);
		json_str(j, "receiver_dominant_wait",
			 !p->waits.have ? NULL : d < 0 ? "none" :
			 waitrates_name((enum waits_state)d));
		verdict_obj(j, &p->verdict, logset_meta(w->ls)->host, NULL);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_begin(j, "local_verdict");
	json_str(j, "kind", report_kind_word(s->local.kind));
	json_str(j, "detail", s->local.detail ? s->local.detail :
		 report_kind_name(s->local.kind));
	json_str(j, "line", s->local.line);
	json_object_end(j);
}

static void session(struct json *j, const struct report *r,
		    const struct report_session *s)
{
	struct logset *ls = r->ls;

	const struct marker *b = s->begin_m, *e = s->end_m;
	double dur = s->seconds;

	json_object_begin(j, NULL);
	json_str(j, "name", s->name);
	json_bool(j, "whole_log", !b);
	json_bool(j, "open", s->open);
	time_str(j, "begin", b ? b->t : s->begin, b ? b->ms : -1);
	time_str(j, "end", e ? e->t : s->end, e ? e->ms : -1);
	json_num(j, "duration", dur < 0 ? 0 : dur);
	json_str(j, "command", e ? marker_get(e, "cmd") : NULL);
	json_num(j, "exit_status", num_of(e ? marker_get(e, "status") : NULL));
	json_num(j, "command_duration", num_of(e ? marker_get(e, "duration") : NULL));
	/* the rows the figures rest on, as the text's "figures from N rows
	 * of S s" (report_print_rows) */
	json_num(j, "rows", (double)s->fig.rows);
	json_num(j, "row_seconds", s->fig.step ? (double)s->fig.step : NAN);
	json_bool(j, "few_rows", s->fig.rows < REPORT_FEW_ROWS);
	json_object_begin(j, "end_fields");
	for (size_t i = 0; e && i < e->nextra; i++)
		json_str(j, e->extra[i].key, e->extra[i].value);
	json_object_end(j);
	client_figures(j, e);
	client_check(j, ls, s);
	resources(j, &s->fig);
	instrumentation(j, s);
	servers(j, r, s);
	report_stages_json(j, s->stages);
	report_graph_json(j, s);
	verdict_obj(j, &s->verdict, s->verdict_host, s->verdict_peer);
	json_object_end(j);
}

static void report_obj(struct json *j, const char *key, const struct report *r)
{
	const struct logset_meta *m = logset_meta(r->ls);

	json_object_begin(j, key);
	json_str(j, "logset", r->dir);
	json_str(j, "host", m->host);
	json_str(j, "os", m->os);
	json_str(j, "perflog_version", m->version);
	json_int(j, "interval", m->interval);
	time_str(j, "start", m->start, -1);
	if (m->stop)
		time_str(j, "stop", m->stop, -1);
	else
		json_null(j, "stop");
	json_int(j, "malformed_marker_lines", (long long)r->markers.bad_lines);
	json_array_begin(j, "sessions");
	for (size_t i = 0; i < r->n; i++)
		session(j, r, &r->s[i]);
	json_array_end(j);
	report_night_json(j, r);
	json_object_end(j);
}

void report_json(FILE *f, const struct report *r)
{
	struct json j;

	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_int(&j, "format", REPORT_JSON_FORMAT);
	report_obj(&j, "report", r);
	json_object_end(&j);
	json_finish(&j);
}

void report_json_compare(FILE *f, const struct report *a,
			 const struct report *b)
{
	struct json j;
	long *pair = calloc(a->n ? a->n : 1, sizeof(*pair));
	char *used = calloc(b->n ? b->n : 1, 1);

	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_int(&j, "format", REPORT_JSON_FORMAT);
	report_obj(&j, "a", a);
	report_obj(&j, "b", b);
	json_array_begin(&j, "pairs");
	if (pair && used) {
		report_pair_sessions(a, b, pair, used);
		for (size_t i = 0; i < a->n; i++) {
			json_object_begin(&j, NULL);
			json_int(&j, "a", (long long)i);
			if (pair[i] >= 0)
				json_int(&j, "b", pair[i]);
			else
				json_null(&j, "b");
			json_object_end(&j);
		}
		for (size_t k = 0; k < b->n; k++) {
			if (used[k])
				continue;
			json_object_begin(&j, NULL);
			json_null(&j, "a");
			json_int(&j, "b", (long long)k);
			json_object_end(&j);
		}
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
	free(pair);
	free(used);
}
