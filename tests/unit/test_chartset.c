/*
 * test_chartset.c - the chart sets (counters/chartset.h) and the lookups
 * every view finds its counters with (logs/lookup.h): the table is
 * consistent, a set's series become the right counters of a log set, the
 * busiest instances rank the same for everyone, stacked lines sum, and
 * units are named once (the viewer's pane titles as catalog_unit_label).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../common/rmtree.h"
#include "../../counters/chartset.h"
#include "../../logs/lookup.h"
#include "../../viewer/layout.h"
#include "../tools/fill.h"
#include "tap.h"

static char scratch[] = "/tmp/perflog-test-chartset.XXXXXX";

/* Every series is of its chart's unit, on an object its instance rule
 * fits; file names are unique; every set has a PNG, and a pane unless it
 * says it has none. */
static void check_table(void)
{
	int units = 1, rules = 1, pngs = 1, refs = 1;

	for (size_t k = 0; k < CHARTSET_COUNT; k++) {
		const struct chartset *set = &chartset_table[k];
		int pane = 0, png = 0;

		EQ_INT(set->id, k, "a set's id is its row");
		for (size_t c = 0; c < CHARTSET_MAX_CHARTS && set->charts[c].title; c++) {
			const struct chart *ch = &set->charts[c];

			pane |= chart_shows(ch, CV_PANE);
			png |= ch->png != NULL;
			for (size_t k2 = 0; k2 < CHARTSET_COUNT; k2++)
				for (size_t c2 = 0; c2 < CHARTSET_MAX_CHARTS &&
				     chartset_table[k2].charts[c2].title; c2++) {
					const char *o = chartset_table[k2].charts[c2].png;
					if ((k2 != k || c2 != c) && o && ch->png &&
					    !strcmp(o, ch->png))
						pngs = 0;
				}
			for (size_t i = 0; i < chart_nseries(ch); i++) {
				const struct chart_series *s = &ch->series[i];
				const struct counter_def *d = &catalog_counters[s->ctr];
				int inst = catalog_objects[d->object].has_instances;

				if (d->unit != ch->unit)
					units = 0;
				if ((s->inst == CI_NONE) == !!inst ||
				    (s->inst == CI_NAMED) != !!s->instance)
					rules = 0;
				if (s->has_ref &&
				    catalog_counters[s->ref].object != d->object)
					refs = 0;
			}
		}
		OK((pane || set->png_only) && png && !(pane && set->png_only),
		   set->title);
		if (set->ranked)
			OK(catalog_objects[catalog_counters[set->rank].object].has_instances,
			   "a ranked set ranks instances");
	}
	{
		/* the wait states: the six states of a thread, stacked, so
		 * the stack's height is the threads alive */
		const struct chart *c = &chartset_table[CHARTSET_WAITS].charts[0];
		static const enum counter_id six[] = { CTR_PROC_PROCESSOR_TIME,
			CTR_PROC_CPU_WAIT, CTR_PROC_DISK_WAIT, CTR_PROC_NET_WAIT,
			CTR_PROC_OTHER_WAIT, CTR_PROC_SLEEP };
		int all = c->stack && chart_nseries(c) == 6 && chart_shows(c, CV_PANE);

		for (size_t i = 0; all && i < 6; i++)
			all = c->series[i].ctr == six[i] && (c->series[i].views & CV_PNG);
		OK(all, "the wait-state chart stacks the six states, pane and PNG");
	}
	{
		/* one table draws a client's set and a server's (report
		 * --with, export --with, the viewer's second set): no title
		 * says whose (a server's waits.png read "Client wait states") */
		int named = 0;
		for (size_t i = 0; i < CHARTSET_COUNT; i++) {
			const struct chartset *set = &chartset_table[i];
			named += !strncmp(set->title, "Client", 6);
			for (size_t k = 0; k < CHARTSET_MAX_CHARTS &&
			     set->charts[k].title; k++)
				named += !strncmp(set->charts[k].title, "Client", 6);
		}
		EQ_INT(named, 0, "no chart set or chart is titled for the client");
	}
	OK(units, "every series is of its chart's unit");
	OK(rules, "CI_NONE exactly for objects without instances, CI_NAMED "
	   "exactly with an instance");
	OK(pngs, "PNG file names are unique");
	OK(refs, "a reference counter is of its series' object");
}

/* Disks sda (idle), sdb and sdc (equally busy); interfaces lo (idle),
 * eth0 (idle), eth1 (busy); no _Total disk, a _Total interface; Pressure
 * cpu, io and memory; 60 rows. */
static int write_set(time_t t0, char *dir, size_t n)
{
	struct logset_options o = { .parent = scratch, .name = "set",
				    .interval = 1, .retention = 3600, .start = t0 };
	struct logset_writer *w;
	struct sample s = { 0 };
	struct perr e;

	if (logset_create(&o, &w, &e) < 0) {
		printf("# %s\n", e.msg);
		return -1;
	}
	fill_add_object(w, OBJ_LOGICALDISK, "sda");
	fill_add_object(w, OBJ_LOGICALDISK, "sdb");
	fill_add_object(w, OBJ_LOGICALDISK, "sdc");
	fill_add_object(w, OBJ_MEMORY, "");
	fill_add_object(w, OBJ_NETWORK, "_Total");
	fill_add_object(w, OBJ_NETWORK, "lo");
	fill_add_object(w, OBJ_NETWORK, "eth0");
	fill_add_object(w, OBJ_NETWORK, "eth1");
	fill_add_object(w, OBJ_PRESSURE, "cpu");
	fill_add_object(w, OBJ_PRESSURE, "io");
	fill_add_object(w, OBJ_PRESSURE, "memory");
	for (int i = 1; i <= 60; i++) {
		sample_reset(&s);
		fill_value(&s, OBJ_LOGICALDISK, "sda", CTR_DISK_TIME, 0);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_TIME, 50);
		fill_value(&s, OBJ_LOGICALDISK, "sdc", CTR_DISK_TIME, 50);
		fill_value(&s, OBJ_MEMORY, "", CTR_MEM_AVAILABLE, 1e9);
		fill_value(&s, OBJ_NETWORK, "_Total", CTR_NET_BYTES_TOTAL, 3e6);
		fill_value(&s, OBJ_NETWORK, "lo", CTR_NET_BYTES_TOTAL, 0);
		fill_value(&s, OBJ_NETWORK, "eth0", CTR_NET_BYTES_TOTAL, 0);
		fill_value(&s, OBJ_NETWORK, "eth1", CTR_NET_BYTES_TOTAL, 3e6);
		fill_value(&s, OBJ_NETWORK, "eth1", CTR_NET_BANDWIDTH, 1e9);
		if (logset_write_sample(w, (double)(t0 + i), &s, &e) < 0)
			printf("# %s\n", e.msg);
	}
	sample_free(&s);
	snprintf(dir, n, "%s", logset_writer_dir(w));
	return logset_close_writer(w, (double)(t0 + 60), &e);
}

static const char *inst_of(struct logset *ls, size_t idx)
{
	return logset_meta(ls)->counters[idx].instance;
}

/* The pressure chart: some of each resource, full of io and memory (a
 * named instance), nothing of an instance not logged. */
static void check_pressure(const struct logset_meta *m)
{
	const struct chart *c = &chartset_table[CHARTSET_PRESSURE].charts[0];
	struct lookup_hit hit[8];
	size_t n = 0, full = 0;

	for (size_t i = 0; i < chart_nseries(c); i++) {
		size_t k = lookup_series(m, &c->series[i], NULL, 0, hit, 8);
		for (size_t h = 0; h < k; h++)
			if (c->series[i].ctr == CTR_PSI_FULL)
				full += strcmp(hit[h].instance, "cpu") != 0;
		n += k;
	}
	EQ_INT(n, 5, "pressure.png: some of cpu, io, memory; full of io, memory");
	EQ_INT(full, 2, "no cpu full");
	struct chart_series none = { .ctr = CTR_PSI_FULL, .inst = CI_NAMED,
				     .instance = "gpu", .views = CV_PNG };
	EQ_INT(lookup_series(m, &none, NULL, 0, hit, 8), 0,
	       "CI_NAMED of an instance not logged: none");
	OK(chartset_table[CHARTSET_PRESSURE].png_only &&
	   !chart_shows(c, CV_PANE), "pressure: PNG only, no default pane");
}

/* lookup_busiest_in over one fetch of every counter ranks as
 * lookup_busiest's own fetch did (want: its ranking of the interfaces);
 * a counter not fetched is unknown, ranked last. */
static void check_busiest_in(struct logset *ls, time_t t0,
			     const struct lookup_rank *want, long nwant)
{
	const struct logset_meta *m = logset_meta(ls);
	size_t *idx = malloc(m->ncounters * sizeof(*idx));
	long *col = malloc(m->ncounters * sizeof(*col));
	struct lookup_rank r[8];
	struct logset_series s;
	struct perr e;
	int same = 1;

	for (size_t i = 0; idx && col && i < m->ncounters; i++) {
		idx[i] = i;
		col[i] = (long)i;
	}
	if (!idx || !col || logset_fetch(ls, idx, m->ncounters, t0, t0 + 60,
					 "AVERAGE", 1, &s, &e) < 0) {
		OK(0, "every counter fetched");
		free(idx);
		free(col);
		return;
	}
	long n = lookup_busiest_in(m, CTR_NET_BYTES_TOTAL, &s, col, r, 8);
	for (long i = 0; i < n && i < nwant; i++)
		same &= r[i].idx == want[i].idx &&
			(r[i].mean == want[i].mean ||
			 (isnan(r[i].mean) && isnan(want[i].mean)));
	OK(n == nwant && same, "busiest_in: lookup_busiest's ranking, means and all");
	col[want[0].idx] = -1;
	n = lookup_busiest_in(m, CTR_NET_BYTES_TOTAL, &s, col, r, 8);
	OK(n > 0 && n == nwant && r[n - 1].idx == want[0].idx && isnan(r[n - 1].mean),
	   "busiest_in: an instance not fetched is unknown, last");
	logset_series_free(&s);
	free(idx);
	free(col);
}

static void check_lookup(void)
{
	time_t t0 = time(NULL) - 86400;
	struct lookup_rank r[8];
	struct lookup_hit hit[8];
	struct logset *ls;
	struct perr e;
	char dir[600];
	size_t rank[8];

	t0 -= t0 % 60;
	if (write_set(t0, dir, sizeof(dir)) < 0 || logset_open(dir, &ls, &e) < 0) {
		OK(0, "a log set to look in");
		return;
	}
	const struct logset_meta *m = logset_meta(ls);
	long c = lookup_counter(m, CTR_DISK_TIME, "sdb");
	OK(c >= 0 && !strcmp(m->counters[c].instance, "sdb") &&
	   m->counters[c].def->id == CTR_DISK_TIME, "lookup_counter by id and instance");
	EQ_INT(lookup_counter(m, CTR_DISK_TIME, "sdz"), -1, "an instance not logged: -1");
	EQ_INT(lookup_counter(m, CTR_CPU_USER_TIME, "_Total"), -1, "a counter not logged: -1");

	long n = lookup_busiest(ls, CTR_DISK_TIME, t0, t0 + 60, 1, r, 8);
	EQ_INT(n, 3, "three disks ranked");
	OK(n == 3 && !strcmp(inst_of(ls, r[0].idx), "sdb") &&
	   !strcmp(inst_of(ls, r[1].idx), "sdc") && !strcmp(inst_of(ls, r[2].idx), "sda"),
	   "busiest first, a tie in perflog.meta order");
	EQ_DBL(n > 0 ? r[0].mean : NAN, 50, 1e-6, "the mean ranked by");
	n = lookup_busiest(ls, CTR_NET_BYTES_TOTAL, t0, t0 + 60, 1, r, 8);
	OK(n == 3 && !strcmp(inst_of(ls, r[0].idx), "eth1") &&
	   !strcmp(inst_of(ls, r[1].idx), "eth0") && !strcmp(inst_of(ls, r[2].idx), "lo"),
	   "interfaces: _Total left out, an idle lo after an idle eth0");
	for (long i = 0; i < n; i++)
		rank[i] = r[i].idx;
	check_busiest_in(ls, t0, r, n);

	/* the network set's pane series: each interface, busiest first,
	 * against its bandwidth */
	const struct chart_series *bytes =
		chartset_series(&chartset_table[CHARTSET_NETWORK], CTR_NET_BYTES_TOTAL);
	size_t nh = bytes ? lookup_series(m, bytes, rank, 2, hit, 8) : 0;
	OK(nh == 2 && !strcmp(hit[0].instance, "eth1") && !strcmp(hit[1].instance, "eth0"),
	   "CI_EACH ranked: the top instances in rank order");
	OK(nh && hit[0].ref == lookup_counter(m, CTR_NET_BANDWIDTH, "eth1"),
	   "the series' reference counter of the same instance");
	nh = bytes ? lookup_series(m, bytes, NULL, 0, hit, 8) : 0;
	OK(nh == 3 && !strcmp(hit[0].instance, "lo") && !strcmp(hit[2].instance, "eth1"),
	   "CI_EACH unranked: every instance but _Total in perflog.meta order");

	/* _Total when there is one, else the busiest */
	struct chart_series tot = { .ctr = CTR_NET_BYTES_RECEIVED,
				    .inst = CI_TOTAL_ELSE_TOP, .views = CV_PANE };
	nh = lookup_series(m, &tot, rank, 3, hit, 8);
	OK(nh == 1 && !strcmp(hit[0].instance, "_Total"), "CI_TOTAL_ELSE_TOP: _Total");
	struct chart_series top = { .ctr = CTR_DISK_READ_BYTES,
				    .inst = CI_TOTAL_ELSE_TOP, .views = CV_PANE };
	size_t drank[1] = { (size_t)lookup_counter(m, CTR_DISK_TIME, "sdc") };
	nh = lookup_series(m, &top, drank, 1, hit, 8);
	OK(nh == 1 && !strcmp(hit[0].instance, "sdc"),
	   "CI_TOTAL_ELSE_TOP without _Total: the busiest");
	struct chart_series mem = { .ctr = CTR_MEM_AVAILABLE, .inst = CI_NONE,
				    .views = CV_BOTH };
	nh = lookup_series(m, &mem, NULL, 0, hit, 8);
	OK(nh == 1 && hit[0].ref == -1 && !strcmp(hit[0].instance, ""), "CI_NONE");
	check_pressure(m);
	logset_close(ls);
}

static void check_stack(void)
{
	double below[4] = { 1, NAN, 2, 3 }, pts[4] = { 10, 20, NAN, 30 };

	vl_stack_onto(pts, below, 4);
	OK(pts[0] == 11 && pts[1] == 20 && isnan(pts[2]) && pts[3] == 33,
	   "stacked: running sums, an unknown below counts as 0, unknown stays unknown");
}

/* The viewer's titles name units as catalog_unit_label does (the PNG's
 * axes too): "B", where the viewer once said "bytes". */
static void check_units(void)
{
	struct vl_plan p;
	double pts[200];
	struct vl_line line = { .label = "avail", .axis = 0, .color = 1,
				.pts = pts, .at_cursor = NAN, .ref = NAN };
	struct vl_pane pane = { .title = "Memory", .unit = { UNIT_BYTES, UNIT_PER_SEC },
				.has_axis = { 1, 1 }, .lines = &line, .nlines = 1 };
	struct vl_view v = { .from = 1000, .to = 1600, .header = "h",
			     .glyphs = VL_ASCII, .panes = &pane, .npanes = 1,
			     .utc = 1, .focus = -1 };
	struct vl_grid g = { 0 };
	char row[512], want[64];

	for (size_t i = 0; i < 200; i++)
		pts[i] = 1e9;
	line.st = (struct vl_stats){ 1e9, 1e9, 1e9, 1e9, 1 };
	vl_plan(80, 24, 1, 0, VL_ASCII, &p);
	vl_render(&v, &p, &g);
	vl_grid_row(&g, p.pane[0].y, row, sizeof(row));
	snprintf(want, sizeof(want), "Memory [%s | %s]",
		 catalog_unit_label(UNIT_BYTES), catalog_unit_label(UNIT_PER_SEC));
	OK(strstr(row, want) != NULL, "pane title units are catalog_unit_label's");
	vl_grid_free(&g);
}

int main(void)
{
	check_table();
	check_stack();
	check_units();
	if (!mkdtemp(scratch)) {
		OK(0, "mkdtemp");
		return done_testing();
	}
	check_lookup();
	if (rmtree(scratch) != 0)
		printf("# could not remove %s\n", scratch);
	return done_testing();
}
