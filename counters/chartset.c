/*
 * chartset.c - the table of chart sets (chartset.h). Each row names its
 * charts and each chart its series: the counter, the instances it stands
 * for, the views that show it and how they label it. Where the viewer's
 * pane and the PNG show a set differently (the pane has room for the
 * busiest devices and a summary line, a PNG for every device), both are
 * here, side by side, marked by their views.
 */
#include "chartset.h"

#include <math.h>

const struct chartset chartset_table[CHARTSET_COUNT] = {
	[CHARTSET_CPU] = {
		.id = CHARTSET_CPU, .title = "CPU",
		.ranked = 1, .rank = CTR_CPU_PROCESSOR_TIME,
		.charts = {
			{ .title = "CPU (all CPUs)", .png = "cpu.png",
			  .unit = UNIT_PERCENT, .axis = "% of all CPUs",
			  .base = 1000, .lower = 0, .upper = 100,
			  .series = {
				{ .ctr = CTR_CPU_PROCESSOR_TIME, .inst = CI_TOTAL,
				  .views = CV_BOTH, .label = "total" },
				{ .ctr = CTR_CPU_USER_TIME, .inst = CI_TOTAL,
				  .views = CV_BOTH, .label = "user" },
				{ .ctr = CTR_CPU_PRIVILEGED_TIME, .inst = CI_TOTAL,
				  .views = CV_BOTH, .label = "priv" },
				{ .ctr = CTR_CPU_IOWAIT_TIME, .inst = CI_TOTAL,
				  .views = CV_BOTH, .label = "iowait" },
			  } },
			/* one busy CPU shows here, not in the total */
			{ .title = "CPU by CPU", .png = "cpus.png",
			  .unit = UNIT_PERCENT, .axis = "% of one CPU",
			  .base = 1000, .lower = 0, .upper = 100,
			  .series = {
				{ .ctr = CTR_CPU_PROCESSOR_TIME, .inst = CI_EACH,
				  .views = CV_PNG },
				{ .ctr = CTR_PROC_PROCESSOR_TIME, .inst = CI_EACH,
				  .views = CV_PNG,
				  .legend = "process % Processor Time" },
			  } },
		},
	},
	[CHARTSET_DISK] = {
		.id = CHARTSET_DISK, .title = "Disk busy",
		.ranked = 1, .rank = CTR_DISK_TIME, .top = 2,
		.charts = {
			{ .title = "Disk busy", .png = "disk.png",
			  .unit = UNIT_PERCENT, .axis = "% Disk Time",
			  .base = 1000, .lower = 0, .upper = 100,
			  .series = {
				{ .ctr = CTR_DISK_TIME, .inst = CI_EACH,
				  .views = CV_BOTH, .label = "" },
			  } },
			{ .title = "Disk throughput", .png = "diskio.png",
			  .unit = UNIT_BYTES_SEC, .base = 1024,
			  .lower = 0, .upper = NAN,
			  .series = {
				{ .ctr = CTR_DISK_READ_BYTES, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "read" },
				{ .ctr = CTR_DISK_WRITE_BYTES, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "write" },
				/* the pane: all disks together */
				{ .ctr = CTR_DISK_READ_BYTES,
				  .inst = CI_TOTAL_ELSE_TOP, .views = CV_PANE,
				  .label = "rd" },
				{ .ctr = CTR_DISK_WRITE_BYTES,
				  .inst = CI_TOTAL_ELSE_TOP, .views = CV_PANE,
				  .label = "wr" },
			  } },
			/* service time and queue: a third and fourth unit,
			 * PNG only (the pane has busy and throughput) */
			{ .title = "Disk latency", .png = "disklat.png",
			  .unit = UNIT_SECONDS, .axis = "ms per I/O",
			  .base = 1000, .lower = 0, .upper = NAN,
			  .series = {
				{ .ctr = CTR_DISK_SEC_PER_READ, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "per read" },
				{ .ctr = CTR_DISK_SEC_PER_WRITE, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "per write" },
			  } },
			{ .title = "Disk queue", .png = "diskq.png",
			  .unit = UNIT_COUNT, .axis = "requests",
			  .base = 1000, .lower = 0, .upper = NAN,
			  .series = {
				{ .ctr = CTR_DISK_QUEUE_LENGTH, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "average queue" },
				{ .ctr = CTR_DISK_CURRENT_QUEUE, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "in flight" },
			  } },
		},
	},
	[CHARTSET_MEMORY] = {
		.id = CHARTSET_MEMORY, .title = "Memory, paging",
		.charts = {
			{ .title = "Memory", .png = "memory.png",
			  .unit = UNIT_BYTES, .base = 1024,
			  .lower = 0, .upper = NAN,
			  .series = {
				{ .ctr = CTR_MEM_AVAILABLE, .inst = CI_NONE,
				  .views = CV_BOTH, .label = "avail" },
				{ .ctr = CTR_MEM_CACHE, .inst = CI_NONE,
				  .views = CV_BOTH, .label = "cache" },
			  } },
			{ .title = "Paging", .png = "paging.png",
			  .unit = UNIT_PER_SEC, .axis = "pages/s",
			  .base = 1000, .lower = 0, .upper = NAN,
			  .series = {
				{ .ctr = CTR_MEM_PAGES, .inst = CI_NONE,
				  .views = CV_BOTH, .label = "pages" },
				{ .ctr = CTR_MEM_PAGE_FAULTS, .inst = CI_NONE,
				  .views = CV_PNG },
			  } },
		},
	},
	[CHARTSET_NETWORK] = {
		.id = CHARTSET_NETWORK, .title = "Network",
		.ranked = 1, .rank = CTR_NET_BYTES_TOTAL, .top = 3,
		.charts = {
			{ .title = "Network", .png = "network.png",
			  .unit = UNIT_BYTES_SEC, .base = 1000,
			  .lower = 0, .upper = NAN,
			  .series = {
				/* the pane: each link's total against its
				 * bandwidth */
				{ .ctr = CTR_NET_BYTES_TOTAL, .inst = CI_EACH,
				  .views = CV_PANE, .label = "",
				  .has_ref = 1, .ref = CTR_NET_BANDWIDTH },
				{ .ctr = CTR_NET_BYTES_RECEIVED, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "received" },
				{ .ctr = CTR_NET_BYTES_SENT, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "sent" },
			  } },
			/* what goes wrong on the wire: mostly zero, so PNG
			 * only (a flat line would crowd the pane) */
			{ .title = "Network errors", .png = "neterrors.png",
			  .unit = UNIT_PER_SEC, .axis = "per second",
			  .base = 1000, .lower = 0, .upper = NAN,
			  .series = {
				{ .ctr = CTR_TCP_SEGS_RETRANS, .inst = CI_NONE,
				  .views = CV_PNG,
				  .legend = "TCP segments retransmitted" },
				{ .ctr = CTR_NET_RX_ERRORS, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "receive errors" },
				{ .ctr = CTR_NET_TX_ERRORS, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "send errors" },
				{ .ctr = CTR_NET_RX_DISCARDS, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "receive discards" },
				{ .ctr = CTR_NET_TX_DISCARDS, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "send discards" },
			  } },
		},
	},
	/* Linux PSI: the share of time some task (all tasks: full) waited
	 * for the resource. cpu has no full line at the system level that
	 * means anything (always 0), so io and memory only. PNG only: a
	 * fifth pane would leave each three rows at 80x24; `c` puts them
	 * in a pane. */
	[CHARTSET_PRESSURE] = {
		.id = CHARTSET_PRESSURE, .title = "Pressure stalls",
		.png_only = 1,
		.charts = {
			{ .title = "Pressure stalls", .png = "pressure.png",
			  .unit = UNIT_PERCENT, .axis = "% of the time",
			  .base = 1000, .lower = 0, .upper = 100,
			  .series = {
				{ .ctr = CTR_PSI_SOME, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "some" },
				{ .ctr = CTR_PSI_FULL, .inst = CI_NAMED,
				  .instance = "io", .views = CV_PNG,
				  .legend = "full" },
				{ .ctr = CTR_PSI_FULL, .inst = CI_NAMED,
				  .instance = "memory", .views = CV_PNG,
				  .legend = "full" },
			  } },
		},
	},
	/* Where backups land: NFS mounts and SMB shares (what the
	 * applications moved against what crossed the wire, and the time
	 * an operation took), tape drives (busy against writing: a drive
	 * busy half its time waits for data) and FC ports. PNG only, and
	 * only for what the log set has: a chart none of whose counters
	 * were logged is not drawn, so a host without NFS, tape or FC gets
	 * none of these. */
	[CHARTSET_TARGETS] = {
		.id = CHARTSET_TARGETS, .title = "Backup targets",
		.png_only = 1,
		.charts = {
			{ .title = "NFS and SMB throughput", .png = "nfs.png",
			  .unit = UNIT_BYTES_SEC, .base = 1024,
			  .lower = 0, .upper = NAN,
			  .series = {
				{ .ctr = CTR_NFS_READ_BYTES, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "read" },
				{ .ctr = CTR_NFS_WRITE_BYTES, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "write" },
				{ .ctr = CTR_NFS_SRV_READ_BYTES, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "server read" },
				{ .ctr = CTR_NFS_SRV_WRITE_BYTES, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "server write" },
				{ .ctr = CTR_CIFS_READ_BYTES, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "SMB read" },
				{ .ctr = CTR_CIFS_WRITE_BYTES, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "SMB write" },
			  } },
			{ .title = "NFS time per operation", .png = "nfslat.png",
			  .unit = UNIT_MILLISECONDS, .axis = "ms per operation",
			  .base = 1000, .lower = 0, .upper = NAN,
			  .series = {
				{ .ctr = CTR_NFS_EXEC_WRITE, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "execute per write" },
				{ .ctr = CTR_NFS_RTT_WRITE, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "RTT per write" },
				{ .ctr = CTR_NFS_EXEC_READ, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "execute per read" },
				{ .ctr = CTR_NFS_RTT_READ, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "RTT per read" },
			  } },
			{ .title = "Tape drives", .png = "tape.png",
			  .unit = UNIT_PERCENT, .axis = "% of the time",
			  .base = 1000, .lower = 0, .upper = 100,
			  .series = {
				{ .ctr = CTR_TAPE_BUSY, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "busy" },
				{ .ctr = CTR_TAPE_WRITE_TIME, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "writing" },
				{ .ctr = CTR_TAPE_READ_TIME, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "reading" },
			  } },
			{ .title = "FC and tape throughput", .png = "fc.png",
			  .unit = UNIT_BYTES_SEC, .base = 1024,
			  .lower = 0, .upper = NAN,
			  .series = {
				{ .ctr = CTR_FC_RX_BYTES, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "received" },
				{ .ctr = CTR_FC_TX_BYTES, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "sent" },
				{ .ctr = CTR_TAPE_WRITE_BYTES, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "tape write" },
				{ .ctr = CTR_TAPE_READ_BYTES, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "tape read" },
			  } },
		},
	},
	/* What the wrapped command's threads were doing, stacked: each
	 * thread adds 100 across the six states, so the stack's height is
	 * the threads alive and each band its share (counters/README.md
	 * "Wait states"). Running is the tree's % Processor Time (exact,
	 * reaped children included). The pane shows the busiest Process;
	 * the PNG every one, or the session's own (png_export). */
	[CHARTSET_WAITS] = {
		.id = CHARTSET_WAITS, .title = "Wait states",
		.ranked = 1, .rank = CTR_PROC_PROCESSOR_TIME, .top = 1,
		.charts = {
			/* the PNG: each state's share of the threads' time
			 * (export/png_export.c), as the report's "all
			 * threads" column */
			{ .title = "Wait states", .png = "waits.png",
			  .unit = UNIT_PERCENT, .axis = "% of the threads' time",
			  .base = 1000, .lower = 0, .upper = NAN, .stack = 1,
			  .series = {
				{ .ctr = CTR_PROC_PROCESSOR_TIME, .inst = CI_EACH,
				  .views = CV_BOTH, .label = "run",
				  .legend = "running" },
				{ .ctr = CTR_PROC_CPU_WAIT, .inst = CI_EACH,
				  .views = CV_BOTH, .label = "cpuw",
				  .legend = "CPU wait" },
				{ .ctr = CTR_PROC_DISK_WAIT, .inst = CI_EACH,
				  .views = CV_BOTH, .label = "disk",
				  .legend = "disk wait" },
				{ .ctr = CTR_PROC_NET_WAIT, .inst = CI_EACH,
				  .views = CV_BOTH, .label = "net",
				  .legend = "network wait" },
				{ .ctr = CTR_PROC_OTHER_WAIT, .inst = CI_EACH,
				  .views = CV_BOTH, .label = "other",
				  .legend = "other wait" },
				{ .ctr = CTR_PROC_SLEEP, .inst = CI_EACH,
				  .views = CV_BOTH, .label = "sleep",
				  .legend = "sleep" },
			  } },
			/* its cgroup: the limits behind the waits */
			{ .title = "Cgroup stalls", .png = "cgroup.png",
			  .unit = UNIT_PERCENT, .axis = "% of the time",
			  .base = 1000, .lower = 0, .upper = 100,
			  .series = {
				{ .ctr = CTR_PROC_CPU_SOME, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "CPU stalled" },
				{ .ctr = CTR_PROC_IO_SOME, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "I/O stalled" },
				{ .ctr = CTR_PROC_MEM_SOME, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "memory stalled" },
				{ .ctr = CTR_PROC_THROTTLED, .inst = CI_EACH,
				  .views = CV_PNG, .legend = "CPU quota throttled" },
			  } },
		},
	},
};

size_t chart_nseries(const struct chart *c)
{
	size_t n = 0;

	while (n < CHART_MAX_SERIES && c->series[n].views)
		n++;
	return n;
}

int chart_shows(const struct chart *c, unsigned views)
{
	for (size_t i = 0; i < chart_nseries(c); i++)
		if (c->series[i].views & views)
			return 1;
	return 0;
}

const struct chart_series *chartset_series(const struct chartset *s,
					   enum counter_id ctr)
{
	for (size_t k = 0; k < CHARTSET_MAX_CHARTS && s->charts[k].title; k++)
		for (size_t i = 0; i < chart_nseries(&s->charts[k]); i++)
			if (s->charts[k].series[i].ctr == ctr)
				return &s->charts[k].series[i];
	return NULL;
}
