/*
 * report_summary.c - the sessions at a glance (report_summary.h): a row
 * a session with its length, the bytes its client moved and at what
 * rate, the verdict's first word and whom it names, for the text
 * report's opening table and the HTML page's (issue 49: the answer
 * first, before 60 lines a session).
 */
#include "report_summary.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_client.h"

/* Whom the verdict is about: the process the wait graph's verdict
 * names, else the client's tree; with its host when the report has more
 * than one. */
static void subject(const struct report_session *s, char *who, size_t nw,
		    char *host, size_t nh)
{
	who[0] = host[0] = '\0';
	if (s->verdict_who[0]) {
		snprintf(who, nw, "%s", s->verdict_who);
		snprintf(host, nh, "%s", s->verdict_who_host);
		return;
	}
	if (s->waits.have && s->waits.process[0])
		snprintf(who, nw, "%s", s->waits.process);
	if (s->verdict_host[0])
		snprintf(host, nh, "%s", s->verdict_host);
}

void report_summary_of(struct logset *ls, const struct report_session *s,
		       struct report_summary *out)
{
	double v[CLN_COUNT];
	unsigned derived = 0;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", s->name);
	out->seconds = s->seconds;
	out->open = s->open;
	out->word = report_kind_word(s->verdict.kind);
	out->bytes = out->rate = NAN;
	out->bytes_what = "";
	if (s->end_m && report_client_norm(s->end_m, v, &derived)) {
		if (!isnan(v[CLN_SENT])) {
			out->bytes = v[CLN_SENT];
			out->bytes_what = "sent";
		} else if (!isnan(v[CLN_READ])) {
			out->bytes = v[CLN_READ];
			out->bytes_what = "read";
		}
		out->rate = v[CLN_RATE];
	}
	/* a connection the server's daemons served (no perflog on the
	 * client): what the kernel counted it received, from its end
	 * marker (collector/conn_sessions.c) */
	if (isnan(out->bytes) && s->end_m &&
	    !isnan(marker_num(s->end_m, "conn.bytes_in"))) {
		out->bytes = marker_num(s->end_m, "conn.bytes_in");
		out->bytes_what = "received";
	}
	/* no client figures: what its process tree read, as logged (the
	 * bytes its processes passed each other through pipes left out,
	 * "-" when unknown: report_client_logged) */
	if (isnan(out->bytes) && s->begin_m) {
		struct report_client_logged lg;
		report_client_logged(ls, s, &lg);
		if (lg.process && !isnan(lg.proc_read)) {
			out->bytes = lg.proc_read;
			out->bytes_what = "read (logged)";
		}
	}
	if (isnan(out->rate) && !isnan(out->bytes) && s->seconds > 0)
		out->rate = out->bytes / s->seconds;
	subject(s, out->who, sizeof(out->who), out->host, sizeof(out->host));
}

void report_summary_duration(char *buf, size_t n, double seconds)
{
	long long ms = llround(seconds * 1000);

	if (ms < 0)
		ms = 0;
	if (ms < 60000)
		snprintf(buf, n, "%.1f s", ms / 1000.0);
	else
		snprintf(buf, n, "%lld:%02lld:%02lld", ms / 3600000,
			 ms / 60000 % 60, ms / 1000 % 60);
}

void report_summary_cells(const struct report_summary *m,
			  struct report_summary_cells *c)
{
	report_summary_duration(c->duration, sizeof(c->duration), m->seconds);
	if (isnan(m->bytes))
		snprintf(c->bytes, sizeof(c->bytes), "-");
	else
		report_fmt_bytes(c->bytes, sizeof(c->bytes), m->bytes, "");
	if (isnan(m->rate))
		snprintf(c->rate, sizeof(c->rate), "-");
	else
		report_fmt_bytes(c->rate, sizeof(c->rate), m->rate, "/s");
}

void report_summary_print(FILE *f, const struct report *r)
{
	char who[200];

	fprintf(f, "\nSessions:\n  %-16s %10s %12s %12s  %-8s %s\n", "session",
		"duration", "bytes", "rate", "limit", "on");
	for (size_t i = 0; i < r->n; i++) {
		struct report_summary m;
		struct report_summary_cells c;
		report_summary_of(r->ls, &r->s[i], &m);
		report_summary_cells(&m, &c);
		if (m.who[0] && m.host[0] && r->nwith)
			snprintf(who, sizeof(who), "%s (%s)", m.who, m.host);
		else
			snprintf(who, sizeof(who), "%s", m.who[0] ? m.who : "-");
		fprintf(f, "  %-16s %10s %12s %12s  %-8s %s%s\n", m.name,
			c.duration, c.bytes, c.rate, m.word, who,
			m.open ? " (open)" : "");
	}
}
