/*
 * run_clock.c - the clock offset and friends of perflog run --server
 * (run_clock.h).
 */
#define _GNU_SOURCE
#include "run_clock.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int clock_best(const struct clock_sample *v, size_t n, struct clock_fit *out)
{
	int found = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		double rtt = v[i].t4 - v[i].t1;

		if (!isfinite(rtt) || !isfinite(v[i].tr) || rtt < 0)
			continue;
		out->used++;
		if (found && rtt >= out->rtt)
			continue;
		found = 1;
		out->rtt = rtt;
		/* (t1 + t4) / 2 as t1 + rtt / 2: no loss of the
		 * microseconds in a sum of two 1.8e9 second stamps */
		out->offset = (v[i].tr - v[i].t1) - rtt / 2;
	}
	return found ? 0 : -1;
}

double clock_connect_timeout(const char *ssh, double dflt)
{
	static const char key[] = "connecttimeout";
	size_t klen = sizeof(key) - 1;

	for (const char *p = ssh; p && *p; p++) {
		char *end;
		double v;

		if (strncasecmp(p, key, klen))
			continue;
		p += klen;
		while (*p == ' ' || *p == '=' || *p == '\t')
			p++;
		v = strtod(p, &end);
		if (end != p && isfinite(v) && v > 0 && v < 86400)
			return v;
	}
	return dflt;
}

void clock_key(char *out, size_t n, size_t k, const char *field)
{
	int err = !strcmp(field, "error");

	if (k <= 1)
		snprintf(out, n, "%s", err ? "peer.error" : field);
	else if (err)
		snprintf(out, n, "peer.%zu.error", k);
	else
		snprintf(out, n, "%s.%zu", field, k);
}
