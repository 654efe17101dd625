/*
 * dsmc.c - IBM Storage Protect / ADSM dsmc in the client table: the
 * summaries are summary.c's (their own keys stay summary.h's contract);
 * this file only maps them to the normalised figures:
 *   read     Total number of bytes inspected, else bytes transferred
 *   sent     Total number of bytes transferred
 *   files    Total number of objects inspected
 *   duration Elapsed processing time
 *   rate     Aggregate data transfer rate (ADSM: Data transfer rate), KB/sec
 *            x 1024
 *   errors   Total number of objects failed
 */
#include "client.h"

#include <math.h>
#include <string.h>

static double fig(const struct summary *s, enum summary_field f)
{
	return s->f[f].present ? s->f[f].value : NAN;
}

long dsmc_parse(const char *text, size_t len, struct client_list *out)
{
	struct summary_list sl;
	memset(&sl, 0, sizeof(sl));
	long n = summary_parse(text, len, &sl);
	if (n <= 0) {
		summary_list_free(&sl);
		return n;
	}
	for (size_t i = 0; i < sl.n; i++) {
		const struct summary *s = &sl.s[i];
		struct client_summary c;
		client_summary_init(&c);
		c.norm[CLN_READ] = fig(s, SUM_BYTES_INSPECTED);
		c.norm[CLN_SENT] = fig(s, SUM_BYTES_TRANSFERRED);
		if (isnan(c.norm[CLN_READ]))
			c.norm[CLN_READ] = c.norm[CLN_SENT];
		c.norm[CLN_FILES] = fig(s, SUM_OBJECTS_INSPECTED);
		c.norm[CLN_DURATION] = fig(s, SUM_ELAPSED);
		double r = fig(s, SUM_AGGREGATE_RATE);
		if (isnan(r))
			r = fig(s, SUM_TRANSFER_RATE);
		c.norm[CLN_RATE] = r * 1024;
		c.norm[CLN_ERRORS] = fig(s, SUM_OBJECTS_FAILED);
		client_derive(&c);
		if (client_push(out, &c) < 0) {
			summary_list_free(&sl);
			return -1;
		}
	}
	summary_list_free(&out->dsmc);
	out->dsmc = sl;
	return n;
}
