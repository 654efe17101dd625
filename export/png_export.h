/*
 * png_export.h - the charts of a log set (`perflog export DIR --png OUTDIR`
 * and the HTML report): which counters go in which chart, planned from
 * the log set's metadata and drawn with png_render (png.h).
 *
 * Charts: one file per chart of the chart sets (counters/chartset.h),
 * only when the log set has its counters, each series in every instance:
 *   cpu.png       Processor(_Total) % Processor/User/Privileged/IOWait Time
 *   cpus.png      % Processor Time of each CPU (a single busy CPU shows)
 *   disk.png      % Disk Time of each disk
 *   diskio.png    Disk Read + Write Bytes/sec of each disk (base 1024)
 *   memory.png    Available Bytes, Cache Bytes (base 1024)
 *   paging.png    Pages/sec, Page Faults/sec
 *   network.png   Bytes Received/Sent/sec of each interface
 *   waits.png     the wait states of each Process (perflog run), stacked:
 *                 running, CPU wait, disk, network, other, sleep; with a
 *                 session, only that session's Process
 *   cgroup.png    its cgroup's CPU, I/O and memory stalls, quota throttling
 *   pressure.png  Pressure(cpu|io|memory) some and full
 *   NAME.png      one per --counters group (see png_export_options)
 * _Total instances of disks and interfaces are left out of the per-device
 * charts. Each chart's legend figures are also written to OUTDIR/charts.tsv:
 *   chart<TAB>series<TAB>min<TAB>avg<TAB>max   (as rrd_graph_v computed them)
 */
#ifndef PERFLOG_PNG_EXPORT_H
#define PERFLOG_PNG_EXPORT_H

#include <time.h>

#include "../common/util.h"
#include "../logs/logset.h"
#include "../logs/markers.h"

#define PNG_SESSION_MARGIN_MIN 5	/* seconds around a --session span */

struct png_export_options {
	time_t from, to;	/* 0: the log's start / last row */
	int width, height;	/* 0: png.h defaults */
	const char *session;	/* cover this session (plus a margin) */
	/* groups of counter paths: groups separated by ',', counters within
	 * a group by '+', "(*)" matches every instance:
	 * "System\Processor Queue Length,LogicalDisk(*)\Avg. Disk Queue Length" */
	const char *counters;
};

/* Draw every chart into outdir (created if missing). Returns the number of
 * charts written, or -1 with e set (bad session or counter names, librrd
 * errors). names, when not NULL, receives up to maxnames chart file names
 * ("cpu.png") in a caller's array of char[64]. */
int png_export(struct logset *ls, const struct marker_list *ml,
	       const char *outdir, const struct png_export_options *o,
	       char (*names)[64], int maxnames, struct perr *e);

#endif
