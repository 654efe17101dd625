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
