/*
 * cost.c - what a sample costs the collector, stage by stage and source
 * by source (issue 30): the monotonic clock around each stage of
 * take_sample (read, rates, watch, select, write) and, inside the read,
 * around each part of the source (sources/source.h source_cost), the
 * parts over the same reads as the read stage (a sample's, never the
 * baseline's); inside the write, the writer's parts the same way
 * (logs/logset.h logset_cost: the journal, the RRD files, the cut).
 * Totals since the start, so that a bench takes the difference over the
 * span it measures (bench/overhead.sh); `perflog
 * status --json` shows them, and a daemon writes the means at the end of
 * its collector.log on stop (tests/t9500-machine.t checks both, and that
 * the parts add up to no more than the read).
 * About 20 clock reads a sample (vDSO, well under a microsecond in all).
 * With $PERFLOG_COST_CLOCK=cpu (common/util.h util_cost_clock) the same
 * table is the loop thread's CPU time instead of the wall's: what a
 * stage costs on a machine other jobs load, which the wall time hides
 * behind their waits (about 20 system calls a sample more, so a bench
 * measures the ratios without it).
 */
#define _GNU_SOURCE
#include "collector_int.h"

#include <stdio.h>
#include <string.h>

static const char *const stage_name[ST_COUNT] = {
	[ST_READ] = "read", [ST_RATES] = "rates", [ST_WATCH] = "watch",
	[ST_SELECT] = "select", [ST_WRITE] = "write",
};

void cost_begin(struct collector *c, double *t)
{
	source_cost(c->proc, c->cost.part_at);
	logset_cost(c->w, c->cost.wpart_at);
	*t = util_cost_clock();
}

void cost_lap(struct collector *c, enum cost_stage st, double *t)
{
	double now = util_cost_clock();

	c->cost.stage[st] += now - *t;
	*t = now;
	if (st == ST_READ) {
		double part[SP_COUNT];

		source_cost(c->proc, part);
		for (int i = 0; i < SP_COUNT; i++)
			c->cost.part[i] += part[i] - c->cost.part_at[i];
	} else if (st == ST_WRITE) {
		double part[LC_COUNT];

		logset_cost(c->w, part);
		for (int i = 0; i < LC_COUNT; i++)
			c->cost.wpart[i] += part[i] - c->cost.wpart_at[i];
	}
}

/* ",NAME:US" at buf + *off; -1 when it does not fit. */
static int put(char *buf, size_t n, size_t *off, const char *name,
	       double sec)
{
	int k = snprintf(buf + *off, n - *off, ",%s:%.0f", name, sec * 1e6);

	if (k < 0 || (size_t)k >= n - *off)
		return -1;
	*off += (size_t)k;
	return 0;
}

int cost_format(const struct collector *c, char *buf, size_t n)
{
	size_t off;
	int k;

	k = snprintf(buf, n, "samples:%lu", c->cost.samples);
	if (k < 0 || (size_t)k >= n)
		return -1;
	off = (size_t)k;
	for (int i = 0; i < ST_COUNT; i++)
		if (put(buf, n, &off, stage_name[i], c->cost.stage[i]) < 0)
			return -1;
	if (!c->proc)
		return 0;
	for (int i = 0; i < SP_COUNT; i++)
		if (put(buf, n, &off, source_part_name((enum source_part)i),
			c->cost.part[i]) < 0)
			return -1;
	for (int i = 0; i < LC_COUNT; i++)
		if (put(buf, n, &off,
			logset_cost_name((enum logset_cost_part)i),
			c->cost.wpart[i]) < 0)
			return -1;
	return 0;
}

void cost_log(const struct collector *c, FILE *f)
{
	double n = (double)c->cost.samples;

	if (!c->cost.samples || !c->proc)
		return;
	fprintf(f, "perflog: cost per sample over %lu samples, in microseconds:",
		c->cost.samples);
	for (int i = 0; i < ST_COUNT; i++)
		fprintf(f, " %s %.1f", stage_name[i], c->cost.stage[i] * 1e6 / n);
	fprintf(f, "; of the read:");
	/* the same reads as the read's mean (issue 50 item 11: the
	 * baseline's, the first and dearest, was in the parts, over n + 1:
	 * after one sample they added to 350 us, the read 117.9 us) */
	for (int i = 0; i < SP_COUNT; i++)
		fprintf(f, " %s %.1f", source_part_name((enum source_part)i),
			c->cost.part[i] * 1e6 / n);
	fprintf(f, "; of the write:");
	for (int i = 0; i < LC_COUNT; i++)
		fprintf(f, " %s %.1f",
			logset_cost_name((enum logset_cost_part)i),
			c->cost.wpart[i] * 1e6 / n);
	fprintf(f, "\n");
}
