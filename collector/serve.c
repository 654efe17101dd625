/*
 * serve.c - the collector's answers to control requests (control.h has
 * the protocol; watch.c the requests about process trees).
 *
 * A "sync" takes a sample at once and writes the rows held back, so whoever
 * asked finds the log current up to now whatever the interval: with -i 150
 * the answer does not wait up to two and a half minutes for the next
 * deadline. No request ever waits for a deadline: the baseline is read
 * before the collector answers (collector.c make_files), so a sample can
 * be taken from the first request on (a run that joined a collector just
 * started once waited for its first sample: 39.6 s for a `sleep 1` at
 * -i 30, and more than the client's 120 s at -i 150).
 *
 * A marker's KIND may carry its time, "end@SECONDS" (wall clock, the
 * epoch's seconds with milliseconds): perflog run stamps its end marker
 * with the moment the command ended, not the moment the marker came, and
 * `perflog mark --at` closes a session after the fact. An end of a
 * session not open, and a time outside the set's span or before the
 * session's begin, are refused (sessions_check_mark).
 *
 * A marker may carry any number of fields; the request's 64 KiB bound is
 * the only limit (perflog run keeps what would not fit in a file beside
 * the marker, markers.h). Sessions begun and not ended here are
 * remembered (sessions.c).
 *
 * Markers are stamped with the collector's own clock (clock.c), the one
 * its rows carry, and "clock" answers it: a host's markers and rows are
 * on one clock, and another host can measure it.
 *
 * Nothing here calls back into the loop: a request that needs a sample
 * (sync, watch, unwatch) or the stop says so in its loop_request, the
 * loop acts on it and then hands it back to serve_finish, which answers.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../logs/markers.h"
#include "collector_int.h"

static enum marker_kind kind_of(const char *s)
{
	if (!strcmp(s, "begin"))
		return MARK_BEGIN;
	if (!strcmp(s, "end"))
		return MARK_END;
	return strcmp(s, "point") ? (enum marker_kind)-1 : MARK_POINT;
}

/* "end", or "end@1764626721.095": the kind, and the time when one is
 * given (*when stays as it is otherwise). Whether the set takes a marker
 * at that time is sessions_check_mark's. */
static enum marker_kind kind_at(char *s, double *when)
{
	char *at = strchr(s, '@'), *end;

	if (at) {
		double t = strtod(at + 1, &end);

		*at = '\0';
		if (end == at + 1 || *end || !(t > 0))
			return (enum marker_kind)-1;
		*when = t;
	}
	return kind_of(s);
}

/* A marker's time on the collector's clock (the one its rows carry):
 * now, or when (perflog run's "end@SECONDS", the moment its command ended,
 * on the real wall clock) moved by that clock's offset, which is zero but
 * for the test seam (collector/clock.c). */
static double stamp_of(double when)
{
	double now = collector_clock();

	return when > 0 ? when + (now - util_walltime()) : now;
}

/* The marker of fields [1..n) into markers.tsv, or held when it cannot
 * be written (markhold.h): 0 written, 1 held, -1 with e set. */
static int serve_append(struct collector *c, double when,
			enum marker_kind kind, char **field, size_t n,
			struct perr *e)
{
	char *line = markers_format(when, kind, field[1], field[2],
				    (const char *const *)field + 3, n - 3);
	int rc;

	if (!line)
		return perr_set(e, "out of memory");
	rc = markhold_append(&c->held, logset_writer_dir(c->w), line, e);
	free(line);
	if (rc > 0)
		complain(&c->c_marks, util_monotonic(),
			 "markers held (%zu): %s", c->held.n, e->msg);
	return rc;
}

/* "mark KIND[@SECONDS]<TAB>SESSION<TAB>TEXT[<TAB>EXTRA...]", every field
 * escaped. */
static void handle_mark(struct collector *c, struct request *r, char *args)
{
	size_t n = 1, k = 0;
	char **field;
	struct perr pe;
	enum marker_kind kind;
	double when = 0;
	int ok = 0, held = -1;

	for (const char *p = args; *p; p++)
		n += *p == '\t';
	field = calloc(n, sizeof(*field));
	if (!field) {
		server_reply(r, 0, "out of memory");
		return;
	}
	for (char *p = args; p; k++) {
		char *tab = strchr(p, '\t');

		if (tab)
			*tab = '\0';
		field[k] = p;
		p = tab ? tab + 1 : NULL;
	}
	if (n < 3) {
		server_reply(r, 0, "mark: expected KIND, SESSION and TEXT");
	} else if ((int)(kind = kind_at(field[0], &when)) < 0) {
		server_reply(r, 0, "mark: unknown kind '%.32s'", field[0]);
	} else {
		int bad = 0;

		/* unescape in place into new strings: field[i] -> u[i] */
		for (size_t i = 1; i < n; i++)
			bad |= !(field[i] = markers_unescape(field[i]));
		if (bad)
			util_strlcpy(pe.msg, "mark: bad escape in a field",
				     sizeof(pe.msg));
		else if (sessions_check_mark(c, kind, field[1], stamp_of(when),
					     when > 0, &pe) == 0)
			held = serve_append(c, stamp_of(when), kind, field,
					    n, &pe);
		ok = held >= 0;
		if (ok && kind == MARK_BEGIN)
			sessions_begin(c, field[1]);
		else if (ok && kind == MARK_END)
			sessions_end(c, field[1]);
		for (size_t i = 1; i < n; i++)
			free(field[i]);
		if (held > 0)
			server_reply(r, 1, "held=%s: held, written when it can be",
				     pe.msg);
		else if (ok)
			server_reply(r, 1, "%s", "");
		else
			server_reply(r, 0, "%s", pe.msg);
	}
	free(field);
}

/* The sync after its sample, taken or not (none just after the last
 * one: the log is as current as it can be). */
static void finish_sync(struct collector *c, struct request *r)
{
	struct perr pe;

	if (c->samples && logset_flush(c->w, &pe) < 0) {
		complain(&c->c_write, util_monotonic(), "%s", pe.msg);
		server_reply(r, 0, "%s", pe.msg);
		return;
	}
	server_reply(r, 1, "samples=%lu", c->samples);
}

void serve_finish(struct collector *c, struct loop_request *lr)
{
	switch (lr->finish) {
	case FINISH_SYNC:
		finish_sync(c, &lr->r);
		break;
	case FINISH_WATCH:
	case FINISH_UNWATCH:
	case FINISH_WAITS:
		watch_finish(c, lr);
		break;
	case FINISH_NONE:
		break;
	}
}

/* The status reply's " runs=PID:LABEL,..." (nothing without): the
 * perflog runs whose trees are watched, so that `perflog stop` can name
 * the run it would cut short. */
static void runs_field(const struct collector *c, char *buf, size_t n)
{
	size_t j = 0;

	buf[0] = '\0';
	for (int i = 0; i < c->nwatch && j + 1 < n; i++) {
		const struct watch *w = &c->watch[i];
		int k;

		if (w->follow || w->state == WATCH_ENDED)
			continue;
		k = snprintf(buf + j, n - j, "%s%ld:%s", j ? "," : " runs=",
			     (long)w->client, w->label);
		if (k < 0 || (size_t)k >= n - j)
			break;
		j += (size_t)k;
	}
}

void serve_one(struct collector *c, struct loop_request *lr)
{
	struct request r;
	char last[40] = "-", cost[512], runs[1024];

	memset(lr, 0, sizeof(*lr));
	if (server_accept(c->srv, &r, schedule_deadline(&c->sched)) != 1)
		return;
	if (!strcmp(r.line, "status")) {
		if (c->last)
			util_iso8601(last, sizeof(last), c->last, -1);
		if (cost_format(c, cost, sizeof(cost)) < 0)
			cost[0] = '\0';
		runs_field(c, runs, sizeof(runs));
		server_reply(&r, 1, "logset=%s interval=%u samples=%lu last=%s cost=%s%s",
			     logset_writer_dir(c->w), c->set->interval,
			     c->samples, last, cost, runs);
	} else if (!strcmp(r.line, "release") && watch_active(c)) {
		/* perflog run that started us: stop once no tree is
		 * watched, that is once every run that joined is done */
		c->release = 1;
		server_reply(&r, 1, "deferred");
	} else if (!strcmp(r.line, "stop") || !strcmp(r.line, "release")) {
		if (c->nstop < MAX_SYNC)	/* answered once closed */
			c->stopper[c->nstop++] = r;
		else
			server_reply(&r, 1, "stopping");
		lr->want = WANT_STOP;
	} else if (!strcmp(r.line, "clock")) {
		/* the clock the rows and markers carry (clock.c), for a
		 * remote perflog run measuring the offset between hosts */
		server_reply(&r, 1, "wall=%.6f", collector_clock());
	} else if (!strcmp(r.line, "sync")) {
		lr->want = WANT_SAMPLE;
		lr->finish = FINISH_SYNC;
		lr->r = r;
	} else if (!strncmp(r.line, "mark ", 5)) {
		handle_mark(c, &r, r.line + 5);
	} else if (!strncmp(r.line, "watch ", 6)) {
		watch_request(c, &r, r.line + 6, lr);
	} else if (!strncmp(r.line, "follow ", 7)) {
		watch_spec_request(c, &r, r.line + 7, lr);
	} else if (!strncmp(r.line, "unwatch ", 8)) {
		watch_unwatch(c, &r, r.line + 8, lr);
	} else if (!strncmp(r.line, "waits ", 6)) {
		watch_waits_request(c, &r, r.line + 6, lr);
	} else {
		server_reply(&r, 0, "unknown request");
	}
}
