/*
 * catalog.h - the counter catalog: every counter perflog knows, as one const
 * table shared by the collector, the viewer, the report and the exporters.
 *
 * A counter is named perfmon-style: Object(Instance)\Counter, e.g.
 * "Processor(_Total)\% Processor Time", "LogicalDisk(sda)\Disk Reads/sec",
 * "Pressure(io)\% Some Stalled Time", "Memory\Available Bytes" (Memory,
 * System and TCP have no instances). In
 * settings files the path may start with a backslash and may carry a host,
 * "\\HOST\Object(Instance)\Counter", and "(*)" is the instance wildcard.
 *
 * Each counter has an index within its object (CTR_* below, in object
 * order); struct instance_values in rates.h stores values by that index.
 * The definition of every counter (Linux source, sysstat equivalent) is in
 * counters/README.md.
 */
#ifndef PERFLOG_CATALOG_H
#define PERFLOG_CATALOG_H

#include <stddef.h>

#include "../common/util.h"

enum counter_object {
	OBJ_PROCESSOR,
	OBJ_LOGICALDISK,
	OBJ_MEMORY,
	OBJ_NETWORK,
	OBJ_SYSTEM,
	OBJ_PRESSURE,
	OBJ_TCP,
	OBJ_PROCESS,
	OBJ_NFS,		/* NFS Client(MOUNTPOINT): where backups land */
	OBJ_CIFS,		/* CIFS Share(\\server\share) */
	OBJ_TAPE,		/* Tape(stN) */
	OBJ_FC,			/* FC Port(hostN) */
	OBJ_COUNT
};

/* Counter ids; the catalog table is in this order. */
enum counter_id {
	CTR_CPU_PROCESSOR_TIME,	/* Processor: % Processor Time */
	CTR_CPU_USER_TIME,	/* % User Time */
	CTR_CPU_PRIVILEGED_TIME,	/* % Privileged Time */
	CTR_CPU_IOWAIT_TIME,	/* % IOWait Time */
	CTR_DISK_TIME,		/* LogicalDisk: % Disk Time */
	CTR_DISK_READ_BYTES,	/* Disk Read Bytes/sec */
	CTR_DISK_WRITE_BYTES,	/* Disk Write Bytes/sec */
	CTR_DISK_READS,		/* Disk Reads/sec */
	CTR_DISK_WRITES,	/* Disk Writes/sec */
	CTR_DISK_SEC_PER_TRANSFER,	/* Avg. Disk sec/Transfer */
	CTR_DISK_QUEUE_LENGTH,	/* Avg. Disk Queue Length */
	CTR_DISK_SEC_PER_READ,	/* Avg. Disk sec/Read */
	CTR_DISK_SEC_PER_WRITE,	/* Avg. Disk sec/Write */
	CTR_DISK_CURRENT_QUEUE,	/* Current Disk Queue Length (in flight) */
	CTR_MEM_AVAILABLE,	/* Memory: Available Bytes */
	CTR_MEM_CACHE,		/* Cache Bytes */
	CTR_MEM_PAGES,		/* Pages/sec (swap in + swap out) */
	CTR_MEM_PAGE_FAULTS,	/* Page Faults/sec */
	CTR_MEM_PAGES_INPUT,	/* Pages Input/sec (swap in) */
	CTR_MEM_PAGES_OUTPUT,	/* Pages Output/sec (swap out) */
	CTR_MEM_PAGE_READS,	/* Page Reads/sec (major faults) */
	CTR_NET_BYTES_TOTAL,	/* Network Interface: Bytes Total/sec */
	CTR_NET_BYTES_RECEIVED,	/* Bytes Received/sec */
	CTR_NET_BYTES_SENT,	/* Bytes Sent/sec */
	CTR_NET_PACKETS,	/* Packets/sec */
	CTR_NET_BANDWIDTH,	/* Current Bandwidth (bits/sec) */
	CTR_NET_RX_ERRORS,	/* Packets Received Errors/sec */
	CTR_NET_TX_ERRORS,	/* Packets Outbound Errors/sec */
	CTR_NET_RX_DISCARDS,	/* Packets Received Discarded/sec */
	CTR_NET_TX_DISCARDS,	/* Packets Outbound Discarded/sec */
	CTR_SYS_QUEUE_LENGTH,	/* System: Processor Queue Length */
	CTR_SYS_CONTEXT_SWITCHES,	/* Context Switches/sec */
	CTR_PSI_SOME,		/* Pressure: % Some Stalled Time */
	CTR_PSI_FULL,		/* % Full Stalled Time */
	CTR_TCP_SEGS_SENT,	/* TCP: Segments Sent/sec */
	CTR_TCP_SEGS_RECEIVED,	/* Segments Received/sec */
	CTR_TCP_SEGS_RETRANS,	/* Segments Retransmitted/sec */
	CTR_PROC_PROCESSOR_TIME,	/* Process: % Processor Time */
	CTR_PROC_IO_READ,	/* IO Read Bytes/sec */
	CTR_PROC_IO_WRITE,	/* IO Write Bytes/sec */
	CTR_PROC_WORKING_SET,	/* Working Set (bytes) */
	CTR_PROC_CPU_WAIT,	/* % CPU Wait Time (wait states: waitrates.h) */
	CTR_PROC_DISK_WAIT,	/* % Disk Wait Time */
	CTR_PROC_NET_WAIT,	/* % Network Wait Time */
	CTR_PROC_OTHER_WAIT,	/* % Other Wait Time */
	CTR_PROC_SLEEP,		/* % Sleep Time */
	CTR_PROC_CPU_SOME,	/* % CPU Some Stalled Time (the command's cgroup:
				 * cgstat.h) */
	CTR_PROC_CPU_FULL,	/* % CPU Full Stalled Time */
	CTR_PROC_IO_SOME,	/* % IO Some Stalled Time */
	CTR_PROC_IO_FULL,	/* % IO Full Stalled Time */
	CTR_PROC_MEM_SOME,	/* % Memory Some Stalled Time */
	CTR_PROC_MEM_FULL,	/* % Memory Full Stalled Time */
	CTR_PROC_THROTTLED,	/* % Throttled Time (CPU quota) */
	CTR_PROC_THROTTLED_PERIODS,	/* % Throttled Periods (CPU quota) */
	CTR_PROC_DISK_READ,	/* Disk Read Bytes/sec (storage: read_bytes) */
	CTR_PROC_DISK_WRITE,	/* Disk Write Bytes/sec (write_bytes) */
	/* where backups land (catalog_targets.def; counters/README.md) */
	CTR_NFS_READ_BYTES,	/* NFS Client: Read Bytes/sec (application) */
	CTR_NFS_WRITE_BYTES,	/* Write Bytes/sec */
	CTR_NFS_SRV_READ_BYTES,	/* Server Read Bytes/sec (on the wire) */
	CTR_NFS_SRV_WRITE_BYTES,	/* Server Write Bytes/sec */
	CTR_NFS_READS,		/* Read Ops/sec */
	CTR_NFS_WRITES,		/* Write Ops/sec */
	CTR_NFS_RTT_READ,	/* Avg. RTT ms/Read */
	CTR_NFS_RTT_WRITE,	/* Avg. RTT ms/Write */
	CTR_NFS_EXEC_READ,	/* Avg. Execute ms/Read */
	CTR_NFS_EXEC_WRITE,	/* Avg. Execute ms/Write */
	CTR_NFS_RETRANS,	/* Retransmissions/sec */
	CTR_NFS_BACKLOG,	/* Backlog/Send */
	CTR_CIFS_READ_BYTES,	/* CIFS Share: Bytes Read/sec */
	CTR_CIFS_WRITE_BYTES,	/* Bytes Written/sec */
	CTR_CIFS_SMBS,		/* SMBs/sec */
	CTR_CIFS_RECONNECTS,	/* Reconnects (in the interval, the host's) */
	CTR_TAPE_READ_BYTES,	/* Tape: Read Bytes/sec */
	CTR_TAPE_WRITE_BYTES,	/* Write Bytes/sec */
	CTR_TAPE_READS,		/* Reads/sec */
	CTR_TAPE_WRITES,	/* Writes/sec */
	CTR_TAPE_READ_TIME,	/* % Read Time */
	CTR_TAPE_WRITE_TIME,	/* % Write Time */
	CTR_TAPE_BUSY,		/* % Busy Time (io_ns) */
	CTR_TAPE_IN_FLIGHT,	/* In Flight (gauge) */
	CTR_TAPE_RESIDUALS,	/* Residuals/sec */
	CTR_TAPE_OTHER,		/* Other Ops/sec */
	CTR_FC_RX_BYTES,	/* FC Port: Bytes Received/sec (words x 4) */
	CTR_FC_TX_BYTES,	/* Bytes Sent/sec */
	CTR_FC_RX_FRAMES,	/* Frames Received/sec */
	CTR_FC_TX_FRAMES,	/* Frames Sent/sec */
	CTR_FC_ERRORS,		/* Errors/sec */
	CTR_FC_LINK_FAILURES,	/* Link Failures (in the interval) */
	CTR_COUNT
};

/* Most counters any one object has (sizes instance_values.v). */
#define CATALOG_MAX_PER_OBJECT 19

enum counter_unit {
	UNIT_PERCENT,	/* 0..100 (per CPU; Process can exceed 100 on SMP) */
	UNIT_BYTES_SEC,
	UNIT_PER_SEC,	/* operations, pages, packets, switches per second */
	UNIT_BYTES,
	UNIT_SECONDS,
	UNIT_BITS_SEC,
	UNIT_COUNT,	/* a plain number (queue lengths) */
	UNIT_MILLISECONDS	/* NFS times per operation, as nfsiostat */
};

struct counter_def {
	enum counter_id id;
	enum counter_object object;
	int index;		/* position within its object, 0.. */
	const char *name;	/* "% Processor Time" */
	const char *ds;		/* RRD data source name, [a-z0-9_]{1,19} */
	enum counter_unit unit;
	double min, max;	/* RRD DS bounds; NAN = unbounded */
	const char *source;	/* where it comes from, e.g. "/proc/stat" */
	const char *sysstat;	/* sar equivalent, e.g. "sar -u %user+%nice" */
	const char *help;	/* one-line definition */
};

struct object_def {
	enum counter_object object;
	const char *name;	/* "Processor", "LogicalDisk", "Network Interface" */
	const char *file;	/* RRD file name stem, e.g. "Processor" */
	int has_instances;	/* 0 for Memory, System and TCP */
	int ncounters;
};

extern const struct counter_def catalog_counters[CTR_COUNT];
extern const struct object_def catalog_objects[OBJ_COUNT];

/* The counter of an object by its index within the object, or NULL. */
const struct counter_def *catalog_counter_at(enum counter_object obj,
					     int index);

/* Look up by object name and counter name (case-insensitive, as perfmon).
 * Returns NULL when unknown. */
const struct counter_def *catalog_find(const char *object,
				       const char *counter);
const struct object_def *catalog_find_object(const char *object);

/* A parsed counter path. instance is "" for objects without instances and
 * "*" for the wildcard. */
struct counter_path {
	char host[64];		/* "" when the path has no \\HOST prefix */
	const struct counter_def *def;
	char instance[64];
};

/* Parse "Object(Instance)\Counter", with optional leading "\" or
 * "\\HOST\". Returns 0, or -1 with a message naming what is wrong
 * ("unknown counter 'X'", "unknown object 'Y'", "instance missing" ...). */
int catalog_parse_path(const char *text, struct counter_path *out,
		       struct perr *e);

/* Format "Object(Instance)\Counter" (no host) into buf. */
char *catalog_format_path(char *buf, size_t n, const struct counter_def *def,
			  const char *instance);

/* Unit as a short label: "%", "B/s", "/s", "B", "s", "bit/s", "", "ms". The one
 * place units are named: the viewer's pane titles and values, the PNGs'
 * vertical axes and `perflog counters` all print these. */
const char *catalog_unit_label(enum counter_unit u);

#endif
