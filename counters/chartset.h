/*
 * chartset.h - the chart sets: which counters make the CPU, disk, memory
 * and paging, network, pressure and backup-target charts, as one const table that every view
 * draws from (STYLE 16, in the spirit of sysstat's `struct activity`
 * table, where each output hangs off one row):
 *
 *   the viewer (viewer/model.c)   one pane per set: the series marked
 *                                 CV_PANE, a chart's unit per axis
 *   the PNGs (export/png_export.c) one PNG per chart with a file name:
 *                                 the series marked CV_PNG
 *   the report (report/report.c)  the busiest instance of a set by its
 *                                 rank counter, and the reference level
 *                                 (Current Bandwidth) of a series
 *
 * Each chart: its title and PNG file name, its unit, the vertical axis's
 * label, base and bounds, whether its series stack, and its series.
 *
 * A series stands for one counter and an instance rule (enum chart_inst);
 * logs/lookup.h turns it into the counters of a given log set. A set
 * with more than one instance of its object (disks, interfaces, CPUs)
 * ranks them by the mean of its `rank` counter: the viewer, which has
 * room for a few, shows the `top` busiest; the PNGs draw every one; the
 * report judges the busiest.
 *
 * To add a set: a CHARTSET_ id before CHARTSET_COUNT and its row in
 * chartset_table (chartset.c); every view walks the table, so the pane,
 * the PNGs and the report's instance choice follow without more code.
 *
 * What the viewer draws by default is kept readable at 80x24: four panes
 * (CPU, disk, memory and paging, network) of at most two units each. A
 * series that would crowd a pane (a third unit, a seldom-moving error
 * count) is CV_PNG only, and a set with no CV_PANE series is png_only:
 * both are drawn in the PNGs, and the viewer's counter chooser (`c`)
 * lists them first for the pane of their set (viewer/actions.c).
 */
#ifndef PERFLOG_CHARTSET_H
#define PERFLOG_CHARTSET_H

#include <stddef.h>

#include "catalog.h"

enum chartset_id {
	CHARTSET_CPU,
	CHARTSET_DISK,
	CHARTSET_MEMORY,
	CHARTSET_NETWORK,
	CHARTSET_WAITS,		/* the client's wait states (perflog run) */
	CHARTSET_PRESSURE,	/* the host's pressure stalls (PNG only) */
	CHARTSET_TARGETS,	/* where backups land: NFS, SMB, tape, FC
				   (PNG only; drawn when the log has them) */
	CHARTSET_COUNT
};

/* Which instances of its counter a series stands for. */
enum chart_inst {
	CI_NONE,		/* an object without instances (Memory, System) */
	CI_TOTAL,		/* the _Total instance */
	CI_EACH,		/* every instance but _Total: in the viewer the
				   set's `top` busiest, in the PNGs all of them
				   in perflog.meta order */
	CI_TOTAL_ELSE_TOP,	/* _Total when the log set has it, else the
				   busiest instance (the first one unranked) */
	CI_NAMED		/* the one instance chart_series.instance
				   names (Pressure's "io") */
};

/* The views a series appears in (bits of chart_series.views). */
#define CV_PANE 1		/* the viewer's pane of the set */
#define CV_PNG 2		/* the PNG chart (export --png, report --html,
				   the viewer's `e`) */
#define CV_BOTH (CV_PANE | CV_PNG)

#define CHART_MAX_SERIES 8	/* per chart */
#define CHARTSET_MAX_CHARTS 4	/* per set */

struct chart_series {
	enum counter_id ctr;
	enum chart_inst inst;
	unsigned views;		/* CV_ bits; 0 ends a chart's list */
	/* the viewer's label: CI_NONE and CI_TOTAL show it as it is;
	 * CI_EACH and CI_TOTAL_ELSE_TOP put the instance before it ("sda
	 * rd", "all rd" for _Total), or show the instance alone when "" */
	const char *label;
	/* the PNG legend after the instance ("sda read"); NULL: the
	 * counter's name ("sda % Disk Time", "Available Bytes") */
	const char *legend;
	/* a reference level per instance, drawn with the series and its
	 * share of it shown (Current Bandwidth for bytes/sec) */
	int has_ref;
	enum counter_id ref;
	const char *instance;	/* CI_NAMED: the instance */
};

struct chart {
	const char *title;	/* the PNG's title, "CPU (all CPUs)"; NULL
				   ends a set's list */
	const char *png;	/* its file name, "cpu.png"; NULL: none */
	enum counter_unit unit;	/* every series of a chart shares it */
	const char *axis;	/* the PNG's vertical label when the unit
				   alone says too little ("% of one CPU");
				   NULL: catalog_unit_label(unit) */
	int base;		/* 1024: the axis in powers of 1024; 1000 */
	double lower, upper;	/* y bounds; NAN: from the data */
	int stack;		/* series drawn stacked, each on the ones
				   before it (shares of a whole: the PNG as
				   areas, the viewer's lines as running
				   sums); legends and readouts keep each
				   series' own values */
	struct chart_series series[CHART_MAX_SERIES];
};

struct chartset {
	enum chartset_id id;
	const char *title;	/* the viewer's pane title: "Disk busy" */
	int ranked;		/* the instances are ranked by `rank` */
	enum counter_id rank;	/* whose mean ranks the instances */
	size_t top;		/* the viewer shows this many CI_EACH
				   instances, the busiest */
	int png_only;		/* no pane in the viewer's default layout
				   (its series are chosen with `c`) */
	struct chart charts[CHARTSET_MAX_CHARTS];
};

extern const struct chartset chartset_table[CHARTSET_COUNT];

/* The first series of set s with counter ctr, or NULL. */
const struct chart_series *chartset_series(const struct chartset *s,
					   enum counter_id ctr);

/* Series of chart c, up to the first with no view (views == 0). */
size_t chart_nseries(const struct chart *c);

/* 1 when chart c has a series for the given views (CV_ bits). */
int chart_shows(const struct chart *c, unsigned views);

#endif
