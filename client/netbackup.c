/*
 * netbackup.c - NetBackup buffer wait/delay counters (netbackup.h) as a
 * client summary: every counter line in the text adds to one summary
 * (several streams or fragments sum), with the io_init delay lengths.
 * NetBackup prints no byte, file or time figures in these lines, so no
 * normalised figure is known; the counters go to the verdict.
 */
#include "netbackup.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"

enum { F_FULL_WAITS, F_FULL_DELAYS, F_EMPTY_WAITS, F_EMPTY_DELAYS,
       F_PARENT_MS, F_CHILD_MS };

const struct client_field_def netbackup_fields[] = {
	[F_FULL_WAITS] = { "full_buffer_waits", "waited for full buffer (times)", CLU_COUNT },
	[F_FULL_DELAYS] = { "full_buffer_delays", "full buffer delayed (times)", CLU_COUNT },
	[F_EMPTY_WAITS] = { "empty_buffer_waits", "waited for empty buffer (times)", CLU_COUNT },
	[F_EMPTY_DELAYS] = { "empty_buffer_delays", "empty buffer delayed (times)", CLU_COUNT },
	[F_PARENT_MS] = { "parent_delay_ms", "parent delay (ms)", CLU_COUNT },
	[F_CHILD_MS] = { "child_delay_ms", "child delay (ms)", CLU_COUNT },
	{ NULL, NULL, CLU_COUNT }
};

/* The number right after s in line (blanks skipped); 0 when none. */
static int num_after(const char *line, size_t n, const char *s, double *v)
{
	const char *p = client_find_str(line, n, s);
	if (!p)
		return 0;
	p += strlen(s);
	size_t rest = (size_t)(line + n - p);
	while (rest && *p == ' ')
		p++, rest--;
	return client_number(p, rest, v) > 0;
}

long netbackup_parse(const char *text, size_t len, struct client_list *out)
{
	double sum[6] = { 0 };
	int seen = 0, have_parent = 0, have_child = 0;
	size_t pos = 0, n;
	const char *l;

	while (client_next_line(text, len, &pos, &l, &n)) {
		double w, d;
		if (num_after(l, n, "waited for full buffer", &w) &&
		    num_after(l, n, "times, delayed", &d)) {
			sum[F_FULL_WAITS] += w;
			sum[F_FULL_DELAYS] += d;
			seen = 1;
		} else if ((num_after(l, n, "waited for empty buffer", &w) ||
			    num_after(l, n, "bpbkar waited", &w)) &&
			   client_find_str(l, n, "empty buffer") &&
			   num_after(l, n, "delayed", &d)) {
			sum[F_EMPTY_WAITS] += w;
			sum[F_EMPTY_DELAYS] += d;
			seen = 1;
		} else if (client_find_str(l, n, "io_init:")) {
			if (num_after(l, n, "parent delay =", &d))
				sum[F_PARENT_MS] = d, have_parent = 1;
			if (num_after(l, n, "child delay =", &d))
				sum[F_CHILD_MS] = d, have_child = 1;
		}
	}
	if (!seen)
		return 0;
	struct client_summary s;
	client_summary_init(&s);
	for (int f = 0; f <= F_CHILD_MS; f++) {
		if ((f == F_PARENT_MS && !have_parent) ||
		    (f == F_CHILD_MS && !have_child))
			continue;
		char buf[48];
		int k = snprintf(buf, sizeof(buf), "%.0f", sum[f]);
		client_add(&s, &netbackup_fields[f], buf, (size_t)k, sum[f]);
	}
	return client_push(out, &s) < 0 ? -1 : 1;
}

static double get(const struct marker *m, int f, double dflt)
{
	char key[96];
	snprintf(key, sizeof(key), "client.%s.num", netbackup_fields[f].key);
	const char *v = marker_get(m, key);
	char *e;
	double d = v ? strtod(v, &e) : NAN;
	return v && !*e && isfinite(d) && d >= 0 ? d : dflt;
}

int netbackup_waits_of(const struct marker *end, struct netbackup_waits *w)
{
	const char *c = end ? marker_get(end, "client") : NULL;
	if (!c || strcmp(c, "netbackup"))
		return -1;
	w->full_waits = get(end, F_FULL_WAITS, 0);
	w->full_delays = get(end, F_FULL_DELAYS, 0);
	w->empty_waits = get(end, F_EMPTY_WAITS, 0);
	w->empty_delays = get(end, F_EMPTY_DELAYS, 0);
	w->parent_ms = get(end, F_PARENT_MS, NETBACKUP_PARENT_DELAY_MS);
	w->child_ms = get(end, F_CHILD_MS, NETBACKUP_CHILD_DELAY_MS);
	return 0;
}

static void hms(char *buf, size_t n, double s)
{
	unsigned long long t;

	/* counts no bptm prints (a damaged log) would not fit the integer:
	 * say the seconds instead of converting past its range */
	if (!(s >= 0 && s < 1e15)) {
		snprintf(buf, n, "%.3g s", s);
		return;
	}
	t = (unsigned long long)(s + 0.5);
	snprintf(buf, n, "%llu:%02llu:%02llu", t / 3600, t / 60 % 60, t % 60);
}

enum netbackup_side netbackup_judge(const struct netbackup_waits *w,
				    double session_s, double *lost_s,
				    char *clause, size_t n)
{
	double full = w->full_delays * w->parent_ms / 1000;
	double empty = w->empty_delays * w->child_ms / 1000;
	char t[32];
	enum netbackup_side side = NBU_NONE;

	*lost_s = 0;
	if (full > 0 && full >= 2 * empty)
		side = NBU_SOURCE;
	else if (empty > 0 && empty >= 2 * full)
		side = NBU_STORAGE;
	if (side != NBU_NONE && session_s > 0 &&
	    (side == NBU_SOURCE ? full : empty) < 0.05 * session_s)
		side = NBU_NONE;
	if (side == NBU_SOURCE) {
		*lost_s = full;
		hms(t, sizeof(t), full);
		snprintf(clause, n, "NetBackup: waited for full buffers %.0f times, delayed %.0f times, %s lost",
			 w->full_waits, w->full_delays, t);
	} else if (side == NBU_STORAGE) {
		*lost_s = empty;
		hms(t, sizeof(t), empty);
		snprintf(clause, n, "NetBackup: waited for empty buffers %.0f times, delayed %.0f times, %s lost",
			 w->empty_waits, w->empty_delays, t);
	} else {
		snprintf(clause, n, "NetBackup: full buffer waits %.0f (delayed %.0f), empty buffer waits %.0f (delayed %.0f): neither side clearly waited",
			 w->full_waits, w->full_delays, w->empty_waits, w->empty_delays);
	}
	return side;
}
