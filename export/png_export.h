/*
 * png_export.h - the charts of a log set (`perflog export DIR --png OUTDIR`
 * and the HTML report): which counters go in which chart, planned from
 * the log set's metadata and drawn with png_render (png.h).
 *
 * Charts: one file per chart of the chart sets (counters/chartset.h),
 * only when the log set has its counters, each series in every instance,
 * each line over its MIN..MAX band (png.h):
 *   cpu.png       Processor(_Total) % Processor/User/Privileged/IOWait Time
 *   cpus.png      % Processor Time of each CPU (a single busy CPU shows)
 *   disk.png      % Disk Time of each disk
 *   diskio.png    Disk Read + Write Bytes/sec of each disk (base 1024)
 *   memory.png    Available Bytes, Cache Bytes (base 1024)
 *   paging.png    Pages/sec, Page Faults/sec
 *   disklat.png   Avg. Disk sec/Read and sec/Write of each disk
 *   diskq.png     Avg. and Current Disk Queue Length of each disk
 *   network.png   Bytes Received/Sent/sec of each interface
 *   neterrors.png TCP Segments Retransmitted/sec; receive and send errors
 *                 and discards of each interface
 *   waits.png     the wait states of each Process (perflog run), stacked
 *                 as shares of the threads' time (0..100%, the report's
 *                 "all threads"): running, CPU wait, disk, network,
 *                 other, sleep; with a session, only that session's
 *                 Process
 *   cgroup.png    its cgroup's CPU, I/O and memory stalls, quota throttling
 *   pressure.png  Pressure some of cpu, io, memory; full of io, memory
 *   NAME.png      one per --counters group (see png_export_options)
 * _Total instances of disks and interfaces are left out of the per-device
 * charts. Each chart's legend figures are also written to OUTDIR/charts.tsv:
 *   chart<TAB>series<TAB>min<TAB>avg<TAB>max<TAB>points
 * min/avg/max as rrd_graph_v computed them (min and max the lowest and
 * highest sample: the band, png.h), points what the points are ("avg of 1
 * min rows, band min..max", png_rows_note).
 */
#ifndef PERFLOG_PNG_EXPORT_H
#define PERFLOG_PNG_EXPORT_H

#include <time.h>

#include "../common/util.h"
#include "../logs/align.h"
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
	/* another host's set on the reference clock (export/report --with):
	 * shift is added to the set's times (logs/align.h), from/to are on
	 * the reference clock, host_note follows the host in the titles
	 * ("clock -30 s by its markers"); with fixed_span the session only
	 * picks the Process of the wait-state charts, from/to the axis */
	long shift;
	const char *host_note;
	int fixed_span;
	/* the session's interfaces (report --html: its connections' `net`
	 * edges, issue 29), comma-separated: the network charts draw only
	 * them (NULL: every interface); drop_zero: series that did not
	 * move over the span (stayed 0, or had no value) are left out of
	 * every chart of the chart sets (idle loop0..loop3, ifb0, a
	 * loopback nobody used: a session's charts and legends hold what
	 * moved; the --counters groups keep every series) */
	const char *net_only;
	int drop_zero;
	/* a second run laid over this one (export --png OUTDIR A B): its
	 * series beside this set's in every chart, labelled B (this set's
	 * A), moved so that its session cmp_session (else `session`, else
	 * its first) begins when this set's `session` (else its first)
	 * does; the time axis this set's, to the longer of the two */
	struct logset *cmp;
	const struct marker_list *cmp_ml;
	const char *cmp_session;
};

/* A --width or --height value (1..100000 pixels) into *out; else "perflog
 * CMD: OPT: bad size 'V'" on stderr and -1. For every command that draws
 * charts (export --png, report --html). */
int png_size_arg(const char *cmd, const char *opt, const char *v, int *out);

/* Draw every chart into outdir (created if missing). Returns the number of
 * charts written, or -1 with e set (bad session or counter names, librrd
 * errors). names, when not NULL, receives up to maxnames chart file names
 * ("cpu.png") in a caller's array of char[64]. */
int png_export(struct logset *ls, const struct marker_list *ml,
	       const char *outdir, const struct png_export_options *o,
	       char (*names)[64], int maxnames, struct perr *e);

/* The time axis png_export draws with options o (the reference clock):
 * o's span, a session with its margin, or the whole log. 0, or -1 with
 * e set (no such session, an empty range). */
int png_export_range(struct logset *ls, const struct marker_list *ml,
		     const struct png_export_options *o, time_t *from,
		     time_t *to, struct perr *e);

/* Another host's set drawn beside a reference set (export --with, the
 * HTML report of report --with, png_hosts.c). */
struct png_host {
	struct logset *ls;
	const struct marker_list *ml;
	struct align_shift shift;	/* onto the reference's clock */
	/* filled by png_export_hosts */
	char sub[80];			/* its folder under OUTDIR: its host
					   name made file-safe, -2 ... when
					   taken by an earlier one */
	int ncharts;			/* charts drawn, -1 when it failed */
	int norows;			/* no value over the span: nothing
					   drawn (ncharts 0), said by the
					   caller */
	time_t from, to;		/* the span, on its own clock */
	char names[16][64];		/* the first 16 charts' file names */
	char error[256];		/* why it failed */
};

/* Each host's charts into OUTDIR/SUB/ (png_export), over the same time
 * axis as the reference set's with options o (png_export_range: its
 * session with a margin, o's span or its whole log) on the reference's
 * clock: the host's data, markers and sessions shifted, its titles
 * "HOST (clock -30 s by its markers): ...". A host whose charts fail is
 * recorded in its error and the others are drawn; one with no value over
 * the span (a server logged at another time) is not drawn (norows: no
 * empty charts with -nan legends). Returns the number of
 * hosts drawn, or -1 with e set when the reference's axis cannot be
 * had. */
int png_export_hosts(struct logset *ref, const struct marker_list *rml,
		     const struct png_export_options *o, const char *outdir,
		     struct png_host *hosts, size_t n, struct perr *e);

/* What the points of png_export's charts with options o are: the
 * archive librrd reads for the span and size o gives (the first counter's
 * file; every file of a set has the same archives), as png_rows_note says
 * it: "avg of 1 min rows, band min..max". 0, or -1 with e set. */
int png_export_points(struct logset *ls, const struct marker_list *ml,
		      const struct png_export_options *o, char *buf, size_t n,
		      struct perr *e);

#endif
