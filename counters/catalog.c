/*
 * catalog.c - the counter catalog (see catalog.h) and counter path parsing.
 *
 * The table is the single place a counter is defined: its perfmon name, its
 * RRD data source name, its unit and bounds, where Linux keeps it and what
 * sar prints for it. counters/README.md explains every entry in prose.
 *
 * RRD data source names are unique across the whole catalog (not only
 * within an object) so a log set may put several objects in one file.
 */
#include "catalog.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define PCT 0.0, 100.0
#define UNBOUNDED 0.0, NAN

const struct counter_def catalog_counters[CTR_COUNT] = {
	/* Processor: shares of the elapsed /proc/stat ticks of one CPU. */
	[CTR_CPU_PROCESSOR_TIME] = {
		.id = CTR_CPU_PROCESSOR_TIME, .object = OBJ_PROCESSOR, .index = 0,
		.name = "% Processor Time", .ds = "cpu_processor",
		.unit = UNIT_PERCENT, .min = 0.0, .max = 100.0,
		.source = "/proc/stat cpuN: all - idle - iowait",
		.sysstat = "sar -u: 100 - %idle - %iowait",
		.help = "share of the interval the CPU was busy (steal counts as busy)",
	},
	[CTR_CPU_USER_TIME] = {
		.id = CTR_CPU_USER_TIME, .object = OBJ_PROCESSOR, .index = 1,
		.name = "% User Time", .ds = "cpu_user",
		.unit = UNIT_PERCENT, PCT,
		.source = "/proc/stat cpuN: user + nice",
		.sysstat = "sar -u: %user + %nice",
		.help = "share of the interval spent in user mode (niced included)",
	},
	[CTR_CPU_PRIVILEGED_TIME] = {
		.id = CTR_CPU_PRIVILEGED_TIME, .object = OBJ_PROCESSOR, .index = 2,
		.name = "% Privileged Time", .ds = "cpu_privileged",
		.unit = UNIT_PERCENT, PCT,
		.source = "/proc/stat cpuN: system + irq + softirq",
		.sysstat = "sar -u ALL: %sys + %irq + %soft",
		.help = "share of the interval spent in the kernel, interrupts included",
	},
	[CTR_CPU_IOWAIT_TIME] = {
		.id = CTR_CPU_IOWAIT_TIME, .object = OBJ_PROCESSOR, .index = 3,
		.name = "% IOWait Time", .ds = "cpu_iowait",
		.unit = UNIT_PERCENT, PCT,
		.source = "/proc/stat cpuN: iowait",
		.sysstat = "sar -u: %iowait",
		.help = "share of the interval idle with I/O outstanding",
	},

	/* LogicalDisk: /proc/diskstats per block device. */
	[CTR_DISK_TIME] = {
		.id = CTR_DISK_TIME, .object = OBJ_LOGICALDISK, .index = 0,
		.name = "% Disk Time", .ds = "disk_time",
		.unit = UNIT_PERCENT, PCT,
		.source = "/proc/diskstats: io_ticks (field 10)",
		.sysstat = "sar -d: %util",
		.help = "share of the interval the device had I/O in flight",
	},
	[CTR_DISK_READ_BYTES] = {
		.id = CTR_DISK_READ_BYTES, .object = OBJ_LOGICALDISK, .index = 1,
		.name = "Disk Read Bytes/sec", .ds = "disk_read_bytes",
		.unit = UNIT_BYTES_SEC, UNBOUNDED,
		.source = "/proc/diskstats: sectors read (field 3) * 512",
		.sysstat = "sar -d: rkB/s * 1024",
		.help = "bytes read per second",
	},
	[CTR_DISK_WRITE_BYTES] = {
		.id = CTR_DISK_WRITE_BYTES, .object = OBJ_LOGICALDISK, .index = 2,
		.name = "Disk Write Bytes/sec", .ds = "disk_write_bytes",
		.unit = UNIT_BYTES_SEC, UNBOUNDED,
		.source = "/proc/diskstats: sectors written (field 7) * 512",
		.sysstat = "sar -d: wkB/s * 1024",
		.help = "bytes written per second",
	},
	[CTR_DISK_READS] = {
		.id = CTR_DISK_READS, .object = OBJ_LOGICALDISK, .index = 3,
		.name = "Disk Reads/sec", .ds = "disk_reads",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/diskstats: reads completed (field 1)",
		.sysstat = "sar -d: r/s (iostat r/s)",
		.help = "read requests completed per second",
	},
	[CTR_DISK_WRITES] = {
		.id = CTR_DISK_WRITES, .object = OBJ_LOGICALDISK, .index = 4,
		.name = "Disk Writes/sec", .ds = "disk_writes",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/diskstats: writes completed (field 5)",
		.sysstat = "sar -d: w/s (iostat w/s)",
		.help = "write requests completed per second",
	},
	[CTR_DISK_SEC_PER_TRANSFER] = {
		.id = CTR_DISK_SEC_PER_TRANSFER, .object = OBJ_LOGICALDISK, .index = 5,
		.name = "Avg. Disk sec/Transfer", .ds = "disk_sec_xfer",
		.unit = UNIT_SECONDS, UNBOUNDED,
		.source = "/proc/diskstats: (read ms + write ms) / (reads + writes)",
		.sysstat = "sar -d: await / 1000",
		.help = "mean time a request took, queueing included (0 without I/O)",
	},
	[CTR_DISK_QUEUE_LENGTH] = {
		.id = CTR_DISK_QUEUE_LENGTH, .object = OBJ_LOGICALDISK, .index = 6,
		.name = "Avg. Disk Queue Length", .ds = "disk_queue",
		.unit = UNIT_COUNT, UNBOUNDED,
		.source = "/proc/diskstats: weighted ms doing I/O (field 11)",
		.sysstat = "sar -d: aqu-sz",
		.help = "mean number of requests queued or in service",
	},

	/* Memory: /proc/meminfo gauges and /proc/vmstat event counters. */
	[CTR_MEM_AVAILABLE] = {
		.id = CTR_MEM_AVAILABLE, .object = OBJ_MEMORY, .index = 0,
		.name = "Available Bytes", .ds = "mem_available",
		.unit = UNIT_BYTES, UNBOUNDED,
		.source = "/proc/meminfo: MemAvailable",
		.sysstat = "sar -r: kbavail * 1024",
		.help = "memory available to start new work without swapping",
	},
	[CTR_MEM_CACHE] = {
		.id = CTR_MEM_CACHE, .object = OBJ_MEMORY, .index = 1,
		.name = "Cache Bytes", .ds = "mem_cache",
		.unit = UNIT_BYTES, UNBOUNDED,
		.source = "/proc/meminfo: Cached",
		.sysstat = "sar -r: kbcached * 1024",
		.help = "page cache size",
	},
	[CTR_MEM_PAGES] = {
		.id = CTR_MEM_PAGES, .object = OBJ_MEMORY, .index = 2,
		.name = "Pages/sec", .ds = "mem_pages",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/vmstat: pswpin + pswpout",
		.sysstat = "sar -W: pswpin/s + pswpout/s",
		.help = "pages swapped in and out per second (not file I/O)",
	},
	[CTR_MEM_PAGE_FAULTS] = {
		.id = CTR_MEM_PAGE_FAULTS, .object = OBJ_MEMORY, .index = 3,
		.name = "Page Faults/sec", .ds = "mem_page_faults",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/vmstat: pgfault",
		.sysstat = "sar -B: fault/s",
		.help = "page faults per second, minor and major",
	},
	[CTR_MEM_PAGES_INPUT] = {
		.id = CTR_MEM_PAGES_INPUT, .object = OBJ_MEMORY, .index = 4,
		.name = "Pages Input/sec", .ds = "mem_pages_in",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/vmstat: pswpin",
		.sysstat = "sar -W: pswpin/s",
		.help = "pages swapped in per second",
	},
	[CTR_MEM_PAGES_OUTPUT] = {
		.id = CTR_MEM_PAGES_OUTPUT, .object = OBJ_MEMORY, .index = 5,
		.name = "Pages Output/sec", .ds = "mem_pages_out",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/vmstat: pswpout",
		.sysstat = "sar -W: pswpout/s",
		.help = "pages swapped out per second",
	},
	[CTR_MEM_PAGE_READS] = {
		.id = CTR_MEM_PAGE_READS, .object = OBJ_MEMORY, .index = 6,
		.name = "Page Reads/sec", .ds = "mem_page_reads",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/vmstat: pgmajfault",
		.sysstat = "sar -B: majflt/s",
		.help = "major faults (a page read from disk) per second",
	},

	/* Network Interface: /proc/net/dev and /sys/class/net/IF/speed. */
	[CTR_NET_BYTES_TOTAL] = {
		.id = CTR_NET_BYTES_TOTAL, .object = OBJ_NETWORK, .index = 0,
		.name = "Bytes Total/sec", .ds = "net_bytes_total",
		.unit = UNIT_BYTES_SEC, UNBOUNDED,
		.source = "/proc/net/dev: rx bytes + tx bytes",
		.sysstat = "sar -n DEV: (rxkB/s + txkB/s) * 1024",
		.help = "bytes received and sent per second",
	},
	[CTR_NET_BYTES_RECEIVED] = {
		.id = CTR_NET_BYTES_RECEIVED, .object = OBJ_NETWORK, .index = 1,
		.name = "Bytes Received/sec", .ds = "net_bytes_rx",
		.unit = UNIT_BYTES_SEC, UNBOUNDED,
		.source = "/proc/net/dev: rx bytes",
		.sysstat = "sar -n DEV: rxkB/s * 1024",
		.help = "bytes received per second",
	},
	[CTR_NET_BYTES_SENT] = {
		.id = CTR_NET_BYTES_SENT, .object = OBJ_NETWORK, .index = 2,
		.name = "Bytes Sent/sec", .ds = "net_bytes_tx",
		.unit = UNIT_BYTES_SEC, UNBOUNDED,
		.source = "/proc/net/dev: tx bytes",
		.sysstat = "sar -n DEV: txkB/s * 1024",
		.help = "bytes sent per second",
	},
	[CTR_NET_PACKETS] = {
		.id = CTR_NET_PACKETS, .object = OBJ_NETWORK, .index = 3,
		.name = "Packets/sec", .ds = "net_packets",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/net/dev: rx packets + tx packets",
		.sysstat = "sar -n DEV: rxpck/s + txpck/s",
		.help = "packets received and sent per second",
	},
	[CTR_NET_BANDWIDTH] = {
		.id = CTR_NET_BANDWIDTH, .object = OBJ_NETWORK, .index = 4,
		.name = "Current Bandwidth", .ds = "net_bandwidth",
		.unit = UNIT_BITS_SEC, UNBOUNDED,
		.source = "/sys/class/net/IF/speed (Mbit/s) * 10^6",
		.sysstat = "(none; ethtool Speed)",
		.help = "link speed in bits per second, unknown when not reported",
	},

	/* System. */
	[CTR_SYS_QUEUE_LENGTH] = {
		.id = CTR_SYS_QUEUE_LENGTH, .object = OBJ_SYSTEM, .index = 0,
		.name = "Processor Queue Length", .ds = "sys_queue_length",
		.unit = UNIT_COUNT, UNBOUNDED,
		.source = "/proc/stat: procs_running - 1",
		.sysstat = "sar -q: runq-sz",
		.help = "runnable tasks waiting for a CPU, the reader itself excluded",
	},
	[CTR_SYS_CONTEXT_SWITCHES] = {
		.id = CTR_SYS_CONTEXT_SWITCHES, .object = OBJ_SYSTEM, .index = 1,
		.name = "Context Switches/sec", .ds = "sys_ctx_switches",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/stat: ctxt",
		.sysstat = "sar -w: cswch/s",
		.help = "context switches per second, all CPUs",
	},

	/* Process: computed by the `perflog run` module, not by rates.c. */
	[CTR_PROC_PROCESSOR_TIME] = {
		.id = CTR_PROC_PROCESSOR_TIME, .object = OBJ_PROCESS, .index = 0,
		.name = "% Processor Time", .ds = "proc_processor",
		.unit = UNIT_PERCENT, .min = 0.0, .max = NAN,
		.source = "/proc/PID/stat: utime + stime of the process tree",
		.sysstat = "pidstat -u -T ALL: %CPU",
		.help = "CPU share of the process tree; 100 per busy CPU, so it can exceed 100",
	},
	[CTR_PROC_IO_READ] = {
		.id = CTR_PROC_IO_READ, .object = OBJ_PROCESS, .index = 1,
		.name = "IO Read Bytes/sec", .ds = "proc_io_read",
		.unit = UNIT_BYTES_SEC, UNBOUNDED,
		.source = "/proc/PID/io of every process in the tree",
		.sysstat = "pidstat -d -T ALL: kB_rd/s * 1024",
		.help = "bytes the process tree read per second",
	},
	[CTR_PROC_IO_WRITE] = {
		.id = CTR_PROC_IO_WRITE, .object = OBJ_PROCESS, .index = 2,
		.name = "IO Write Bytes/sec", .ds = "proc_io_write",
		.unit = UNIT_BYTES_SEC, UNBOUNDED,
		.source = "/proc/PID/io of every process in the tree",
		.sysstat = "pidstat -d -T ALL: kB_wr/s * 1024",
		.help = "bytes the process tree wrote per second",
	},
	[CTR_PROC_WORKING_SET] = {
		.id = CTR_PROC_WORKING_SET, .object = OBJ_PROCESS, .index = 3,
		.name = "Working Set", .ds = "proc_working_set",
		.unit = UNIT_BYTES, UNBOUNDED,
		.source = "/proc/PID resident set of every process in the tree",
		.sysstat = "pidstat -r: RSS * 1024",
		.help = "resident memory of the process tree",
	},
	/* Process wait states: 100 per thread, summed over the threads alive
	 * (counters/README.md "Wait states"; computed by waitrates.c) */
	[CTR_PROC_CPU_WAIT] = {
		.id = CTR_PROC_CPU_WAIT, .object = OBJ_PROCESS, .index = 4,
		.name = "% CPU Wait Time", .ds = "proc_cpu_wait",
		.unit = UNIT_PERCENT, .min = 0.0, .max = NAN,
		.source = "/proc/PID/task/TID/schedstat: run delay (field 2)",
		.sysstat = "none (atop -s: RDELAY)",
		.help = "threads runnable but not running: CPU contention or a CPU quota",
	},
	[CTR_PROC_DISK_WAIT] = {
		.id = CTR_PROC_DISK_WAIT, .object = OBJ_PROCESS, .index = 5,
		.name = "% Disk Wait Time", .ds = "proc_disk_wait",
		.unit = UNIT_PERCENT, .min = 0.0, .max = NAN,
		.source = "sampled wchan/syscall of each thread; delayacct_blkio_ticks",
		.sysstat = "none (atop: BDELAY)",
		.help = "threads blocked in the block-I/O path or on file data",
	},
	[CTR_PROC_NET_WAIT] = {
		.id = CTR_PROC_NET_WAIT, .object = OBJ_PROCESS, .index = 6,
		.name = "% Network Wait Time", .ds = "proc_net_wait",
		.unit = UNIT_PERCENT, .min = 0.0, .max = NAN,
		.source = "sampled wchan/syscall of each thread",
		.sysstat = "none",
		.help = "threads blocked on a socket: send, receive, accept, connect",
	},
	[CTR_PROC_OTHER_WAIT] = {
		.id = CTR_PROC_OTHER_WAIT, .object = OBJ_PROCESS, .index = 7,
		.name = "% Other Wait Time", .ds = "proc_other_wait",
		.unit = UNIT_PERCENT, .min = 0.0, .max = NAN,
		.source = "sampled wchan/syscall of each thread",
		.sysstat = "none",
		.help = "threads waiting on pipes, locks, children, or polling no socket",
	},
	[CTR_PROC_SLEEP] = {
		.id = CTR_PROC_SLEEP, .object = OBJ_PROCESS, .index = 8,
		.name = "% Sleep Time", .ds = "proc_sleep",
		.unit = UNIT_PERCENT, .min = 0.0, .max = NAN,
		.source = "sampled wchan/syscall of each thread",
		.sysstat = "none",
		.help = "threads in a timed sleep they asked for",
	},
};

const struct object_def catalog_objects[OBJ_COUNT] = {
	[OBJ_PROCESSOR] = { .object = OBJ_PROCESSOR, .name = "Processor",
		.file = "Processor", .has_instances = 1, .ncounters = 4 },
	[OBJ_LOGICALDISK] = { .object = OBJ_LOGICALDISK, .name = "LogicalDisk",
		.file = "LogicalDisk", .has_instances = 1, .ncounters = 7 },
	[OBJ_MEMORY] = { .object = OBJ_MEMORY, .name = "Memory",
		.file = "Memory", .has_instances = 0, .ncounters = 7 },
	[OBJ_NETWORK] = { .object = OBJ_NETWORK, .name = "Network Interface",
		.file = "NetworkInterface", .has_instances = 1, .ncounters = 5 },
	[OBJ_SYSTEM] = { .object = OBJ_SYSTEM, .name = "System",
		.file = "System", .has_instances = 0, .ncounters = 2 },
	[OBJ_PROCESS] = { .object = OBJ_PROCESS, .name = "Process",
		.file = "Process", .has_instances = 1, .ncounters = 9 },
};

const struct counter_def *catalog_counter_at(enum counter_object obj,
					     int index)
{
	if ((int)obj < 0 || obj >= OBJ_COUNT || index < 0 ||
	    index >= catalog_objects[obj].ncounters)
		return NULL;
	/* the table is in object order, so a linear scan is short and safe */
	for (int i = 0; i < CTR_COUNT; i++)
		if (catalog_counters[i].object == obj &&
		    catalog_counters[i].index == index)
			return &catalog_counters[i];
	return NULL;
}

/* Case-insensitive compare of a counted string with a C string. */
static int name_eq(const char *s, size_t len, const char *name)
{
	return strlen(name) == len && strncasecmp(s, name, len) == 0;
}

static const struct object_def *find_object_n(const char *s, size_t len)
{
	for (int i = 0; i < OBJ_COUNT; i++)
		if (name_eq(s, len, catalog_objects[i].name))
			return &catalog_objects[i];
	return NULL;
}

static const struct counter_def *find_counter_n(enum counter_object obj,
						const char *s, size_t len)
{
	for (int i = 0; i < CTR_COUNT; i++)
		if (catalog_counters[i].object == obj &&
		    name_eq(s, len, catalog_counters[i].name))
			return &catalog_counters[i];
	return NULL;
}

const struct object_def *catalog_find_object(const char *object)
{
	if (!object)
		return NULL;
	return find_object_n(object, strlen(object));
}

const struct counter_def *catalog_find(const char *object, const char *counter)
{
	const struct object_def *o = catalog_find_object(object);

	if (!o || !counter)
		return NULL;
	return find_counter_n(o->object, counter, strlen(counter));
}

/* Longest piece of user input quoted back in an error message. */
#define QUOTE_MAX 80

int catalog_parse_path(const char *text, struct counter_path *out,
		       struct perr *e)
{
	const char *p, *last_bs, *end, *open;
	const struct object_def *obj;
	size_t objlen, instlen;

	if (!text || !out)
		return perr_set(e, "missing counter path");
	memset(out, 0, sizeof(*out));
	p = text;
	if (!*p)
		return perr_set(e, "empty counter path");

	/* Optional "\\HOST\" or "\" prefix. */
	if (p[0] == '\\' && p[1] == '\\') {
		const char *h = p + 2, *hend = strchr(h, '\\');

		if (!hend || hend == h)
			return perr_set(e, "malformed counter path '%.*s': "
					"expected \\\\HOST\\Object\\Counter",
					QUOTE_MAX, text);
		if ((size_t)(hend - h) >= sizeof(out->host))
			return perr_set(e, "host name too long in '%.*s'",
					QUOTE_MAX, text);
		for (const char *c = h; c < hend; c++)
			if (*c == '(' || *c == ')' || (unsigned char)*c < ' ')
				return perr_set(e, "malformed host name in "
						"'%.*s'", QUOTE_MAX, text);
		memcpy(out->host, h, (size_t)(hend - h));
		out->host[hend - h] = '\0';
		p = hend + 1;
	} else if (p[0] == '\\') {
		p++;
	}

	/* Counter names hold no backslash: the last one ends the object part. */
	last_bs = strrchr(p, '\\');
	if (!last_bs || last_bs == p)
		return perr_set(e, "malformed counter path '%.*s': expected "
				"Object(Instance)\\Counter", QUOTE_MAX, text);
	if (!last_bs[1])
		return perr_set(e, "malformed counter path '%.*s': no counter "
				"name", QUOTE_MAX, text);

	end = last_bs;
	open = memchr(p, '(', (size_t)(end - p));
	objlen = (size_t)((open ? open : end) - p);
	if (objlen == 0)
		return perr_set(e, "malformed counter path '%.*s': no object "
				"name", QUOTE_MAX, text);
	if (memchr(p, '\\', objlen) || memchr(p, ')', objlen))
		return perr_set(e, "malformed counter path '%.*s'", QUOTE_MAX,
				text);
	obj = find_object_n(p, objlen);
	if (!obj)
		return perr_set(e, "unknown object '%.*s'",
				(int)(objlen > QUOTE_MAX ? QUOTE_MAX : objlen),
				p);

	if (open) {
		const char *inst = open + 1;

		if (end[-1] != ')' || end - 1 < inst)
			return perr_set(e, "malformed counter path '%.*s': "
					"unbalanced parentheses", QUOTE_MAX,
					text);
		if (!obj->has_instances)
			return perr_set(e, "object '%s' has no instances",
					obj->name);
		instlen = (size_t)(end - 1 - inst);
		if (instlen == 0)
			return perr_set(e, "empty instance in '%.*s'",
					QUOTE_MAX, text);
		if (instlen >= sizeof(out->instance))
			return perr_set(e, "instance name too long in '%.*s'",
					QUOTE_MAX, text);
		for (size_t i = 0; i < instlen; i++)
			if (inst[i] == '\\' || (unsigned char)inst[i] < ' ')
				return perr_set(e, "malformed instance in "
						"'%.*s'", QUOTE_MAX, text);
		memcpy(out->instance, inst, instlen);
		out->instance[instlen] = '\0';
	} else if (obj->has_instances) {
		return perr_set(e, "object '%s' takes an instance, e.g. "
				"'%s(_Total)' or '%s(*)'", obj->name, obj->name,
				obj->name);
	}

	{
		const char *cname = last_bs + 1;
		size_t clen = strlen(cname);

		out->def = find_counter_n(obj->object, cname, clen);
		if (!out->def)
			return perr_set(e, "unknown counter '%.*s' of object "
					"'%s'",
					(int)(clen > QUOTE_MAX ? QUOTE_MAX : clen),
					cname, obj->name);
	}
	return 0;
}

char *catalog_format_path(char *buf, size_t n, const struct counter_def *def,
			  const char *instance)
{
	const struct object_def *o;

	if (!buf || n == 0)
		return buf;
	if (!def) {
		buf[0] = '\0';
		return buf;
	}
	o = &catalog_objects[def->object];
	if (o->has_instances)
		snprintf(buf, n, "%s(%s)\\%s", o->name,
			 instance ? instance : "", def->name);
	else
		snprintf(buf, n, "%s\\%s", o->name, def->name);
	return buf;
}

const char *catalog_unit_label(enum counter_unit u)
{
	switch (u) {
	case UNIT_PERCENT: return "%";
	case UNIT_BYTES_SEC: return "B/s";
	case UNIT_PER_SEC: return "/s";
	case UNIT_BYTES: return "B";
	case UNIT_SECONDS: return "s";
	case UNIT_BITS_SEC: return "bit/s";
	case UNIT_COUNT: return "";
	}
	return "";
}
