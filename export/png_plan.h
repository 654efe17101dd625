/*
 * png_plan.h - inside export/ only: what a chart of png_export draws, as
 * (file, data source, legend) of a log set's counters (png_plan.c),
 * before png_render draws it. A chart of the chart sets
 * (counters/chartset.h), a --counters group, and a second run's series
 * appended to a first's (export --png A B).
 */
#ifndef PERFLOG_PNG_PLAN_H
#define PERFLOG_PNG_PLAN_H

#include <stddef.h>

#include "../common/util.h"
#include "../counters/counters.h"
#include "../logs/logset.h"

#define PNG_PLAN_MAX 24

/* A chart's series, as png_render's png_series will be. */
struct png_plan {
	char what[96];
	char vlabel[32];
	enum counter_unit unit;
	double lower, upper;
	int stack;
	char file[PNG_PLAN_MAX][1024];
	char ds[PNG_PLAN_MAX][20];
	char legend[PNG_PLAN_MAX][96];
	double scale[PNG_PLAN_MAX];
	int share_of[PNG_PLAN_MAX];	/* png_series.share_of */
	long shift[PNG_PLAN_MAX];		/* png_series.shift */
	size_t n;
};

/* p: chart c of the chart sets, its series marked CV_PNG in every
 * instance of ls (perflog.meta order), "INSTANCE LEGEND" as legends; of
 * the Process object only instance proc when not NULL (the session's own
 * tree), of interfaces only those in net_only when not NULL; a stack
 * (the wait states) as shares of one whole (png_series.share_of). */
void png_plan_chart(struct png_plan *p, struct logset *ls,
		    const struct chart *c, const char *proc,
		    const char *net_only);

/* p: one --counters group ("A+B", "(*)" for every instance); 0, or -1
 * with e set (a bad or absent counter). */
int png_plan_group(struct png_plan *p, struct logset *ls, const char *group,
		   struct perr *e);

/* q's series after p's, their legends after "TAG " and their times moved
 * by shift (a second run over a first: "B _Total % Processor Time");
 * as many as fit. */
void png_plan_append(struct png_plan *p, const struct png_plan *q,
		     const char *tag, long shift);

/* Every legend of p after "TAG " ("A ..."). */
void png_plan_tag(struct png_plan *p, const char *tag);

/* A file name from a group's text: "System\Processor Queue Length" ->
 * "System_Processor_Queue_Length", at most 60 characters. */
void png_file_stem(char *buf, size_t n, const char *text);

#endif
