/*
 * perfmon_paths.c - a perfmon counter path, \\HOST\Object(Instance)\Counter,
 * mapped to perflog's counter (perfmon_int.h): by name for the counters
 * Windows and esxtop name their own way (counters/README.md "Imported
 * counters"), else by the catalog's own paths (perflog's CSV and
 * `export --pdh` read back). The counter follows the last backslash and
 * the instance is between the first '(' and the last ')' of the rest
 * ("HarddiskVolume1\(x)", "svchost (1)").
 */
#define _GNU_SOURCE
#include "perfmon_int.h"

#include <string.h>
#include <strings.h>



struct name_map {
	const char *object, *counter;	/* the source's */
	int obj, id;
	double scale;
	int invert;
};

/* By name: Windows (relog, typeperf) and esxtop -b. */
static const struct name_map names[] = {
	{ "Processor", "% Processor Time", OBJ_PROCESSOR, CTR_CPU_PROCESSOR_TIME, 1, 0 },
	{ "Processor", "% User Time", OBJ_PROCESSOR, CTR_CPU_USER_TIME, 1, 0 },
	{ "Processor", "% Privileged Time", OBJ_PROCESSOR, CTR_CPU_PRIVILEGED_TIME, 1, 0 },
	{ "Physical Cpu", "% Processor Time", OBJ_PROCESSOR, CTR_CPU_PROCESSOR_TIME, 1, 0 },
	{ "*Disk", "% Idle Time", OBJ_LOGICALDISK, CTR_DISK_TIME, 1, 1 },
	{ "*Disk", "Disk Read Bytes/sec", OBJ_LOGICALDISK, CTR_DISK_READ_BYTES, 1, 0 },
	{ "*Disk", "Disk Write Bytes/sec", OBJ_LOGICALDISK, CTR_DISK_WRITE_BYTES, 1, 0 },
	{ "*Disk", "Disk Reads/sec", OBJ_LOGICALDISK, CTR_DISK_READS, 1, 0 },
	{ "*Disk", "Disk Writes/sec", OBJ_LOGICALDISK, CTR_DISK_WRITES, 1, 0 },
	{ "*Disk", "Avg. Disk sec/Transfer", OBJ_LOGICALDISK, CTR_DISK_SEC_PER_TRANSFER, 1, 0 },
	{ "*Disk", "Avg. Disk sec/Read", OBJ_LOGICALDISK, CTR_DISK_SEC_PER_READ, 1, 0 },
	{ "*Disk", "Avg. Disk sec/Write", OBJ_LOGICALDISK, CTR_DISK_SEC_PER_WRITE, 1, 0 },
	{ "*Disk", "Avg. Disk Queue Length", OBJ_LOGICALDISK, CTR_DISK_QUEUE_LENGTH, 1, 0 },
	{ "*Disk", "Current Disk Queue Length", OBJ_LOGICALDISK, CTR_DISK_CURRENT_QUEUE, 1, 0 },
	{ "Physical Disk SCSI Device", "MBytes Read/sec", OBJ_LOGICALDISK, CTR_DISK_READ_BYTES, 1048576, 0 },
	{ "Physical Disk SCSI Device", "MBytes Written/sec", OBJ_LOGICALDISK, CTR_DISK_WRITE_BYTES, 1048576, 0 },
	{ "Physical Disk SCSI Device", "Reads/sec", OBJ_LOGICALDISK, CTR_DISK_READS, 1, 0 },
	{ "Physical Disk SCSI Device", "Writes/sec", OBJ_LOGICALDISK, CTR_DISK_WRITES, 1, 0 },
	{ "Memory", "Available Bytes", OBJ_MEMORY, CTR_MEM_AVAILABLE, 1, 0 },
	{ "Memory", "Available KBytes", OBJ_MEMORY, CTR_MEM_AVAILABLE, 1024, 0 },
	{ "Memory", "Available MBytes", OBJ_MEMORY, CTR_MEM_AVAILABLE, 1048576, 0 },
	{ "Memory", "Cache Bytes", OBJ_MEMORY, CTR_MEM_CACHE, 1, 0 },
	{ "Memory", "Pages/sec", OBJ_MEMORY, CTR_MEM_PAGES, 1, 0 },
	{ "Memory", "Page Faults/sec", OBJ_MEMORY, CTR_MEM_PAGE_FAULTS, 1, 0 },
	{ "Memory", "Pages Input/sec", OBJ_MEMORY, CTR_MEM_PAGES_INPUT, 1, 0 },
	{ "Memory", "Pages Output/sec", OBJ_MEMORY, CTR_MEM_PAGES_OUTPUT, 1, 0 },
	{ "Memory", "Page Reads/sec", OBJ_MEMORY, CTR_MEM_PAGE_READS, 1, 0 },
	{ "Network Interface", "Bytes Total/sec", OBJ_NETWORK, CTR_NET_BYTES_TOTAL, 1, 0 },
	{ "Network Interface", "Bytes Received/sec", OBJ_NETWORK, CTR_NET_BYTES_RECEIVED, 1, 0 },
	{ "Network Interface", "Bytes Sent/sec", OBJ_NETWORK, CTR_NET_BYTES_SENT, 1, 0 },
	{ "Network Interface", "Packets/sec", OBJ_NETWORK, CTR_NET_PACKETS, 1, 0 },
	{ "Network Interface", "Current Bandwidth", OBJ_NETWORK, CTR_NET_BANDWIDTH, 1, 0 },
	{ "Network Interface", "Packets Received Errors", OBJ_NETWORK, CTR_NET_RX_ERRORS, 1, 0 },
	{ "Network Interface", "Packets Outbound Errors", OBJ_NETWORK, CTR_NET_TX_ERRORS, 1, 0 },
	{ "Network Interface", "Packets Received Discarded", OBJ_NETWORK, CTR_NET_RX_DISCARDS, 1, 0 },
	{ "Network Interface", "Packets Outbound Discarded", OBJ_NETWORK, CTR_NET_TX_DISCARDS, 1, 0 },
	{ "System", "Processor Queue Length", OBJ_SYSTEM, CTR_SYS_QUEUE_LENGTH, 1, 0 },
	{ "System", "Context Switches/sec", OBJ_SYSTEM, CTR_SYS_CONTEXT_SWITCHES, 1, 0 },
	{ "TCPv4", "Segments Sent/sec", OBJ_TCP, CTR_TCP_SEGS_SENT, 1, 0 },
	{ "TCPv4", "Segments Received/sec", OBJ_TCP, CTR_TCP_SEGS_RECEIVED, 1, 0 },
	{ "TCPv4", "Segments Retransmitted/sec", OBJ_TCP, CTR_TCP_SEGS_RETRANS, 1, 0 },
	{ "TCP", "Segments Sent/sec", OBJ_TCP, CTR_TCP_SEGS_SENT, 1, 0 },
	{ "TCP", "Segments Received/sec", OBJ_TCP, CTR_TCP_SEGS_RECEIVED, 1, 0 },
	{ "TCP", "Segments Retransmitted/sec", OBJ_TCP, CTR_TCP_SEGS_RETRANS, 1, 0 },
	{ "Process", "% Processor Time", OBJ_PROCESS, CTR_PROC_PROCESSOR_TIME, 1, 0 },
	{ "Process", "IO Read Bytes/sec", OBJ_PROCESS, CTR_PROC_IO_READ, 1, 0 },
	{ "Process", "IO Write Bytes/sec", OBJ_PROCESS, CTR_PROC_IO_WRITE, 1, 0 },
	{ "Process", "Working Set", OBJ_PROCESS, CTR_PROC_WORKING_SET, 1, 0 },
};

/* Split a path: host, object, instance (NULL when none), counter. The
 * path is modified. 0, or -1 when it is no counter path. */
static int split_path(char *p, char **host, char **obj, char **inst,
		      char **ctr)
{
	char *bs, *open, *close;

	*host = NULL;
	if (p[0] == '\\' && p[1] == '\\') {
		*host = p + 2;
		p = strchr(p + 2, '\\');
		if (!p)
			return -1;
		*p++ = '\0';
	} else if (p[0] == '\\') {
		p++;
	}
	bs = strrchr(p, '\\');
	if (!bs || bs == p || !bs[1])
		return -1;
	*bs = '\0';
	*ctr = bs + 1;
	*obj = p;
	*inst = NULL;
	open = strchr(p, '(');
	close = strrchr(p, ')');
	if (open) {
		if (!close || close < open || close[1])
			return -1;
		*open = '\0';
		*close = '\0';
		*inst = open + 1;
	}
	return **obj ? 0 : -1;
}

static int object_is(const char *pattern, const char *obj, int physical)
{
	if (!strcmp(pattern, "*Disk"))
		/* PhysicalDisk is what perflog's LogicalDisk is (a block
		 * device); LogicalDisk (a volume) only when the log has no
		 * PhysicalDisk, so no disk is counted twice */
		return !strcasecmp(obj, "PhysicalDisk") ||
		       (!physical && !strcasecmp(obj, "LogicalDisk"));
	return !strcasecmp(pattern, obj);
}

/* A counter of perflog's own catalog by its path (what `perflog export
 * --csv` and `--pdh` write). LogicalDisk's % Disk Time only from
 * perflog's own plain CSV (own): Windows gives the name to another
 * figure, the queue length x 100, over 100 on a busy disk; the PDH form
 * writes the busy share as % Idle Time. */
static void catalog_column(const char *obj, const char *inst,
			   const char *ctr, int physical, int own,
			   struct column *c)
{
	const struct counter_def *d = catalog_find(obj, ctr);

	if (!d || (d->id == CTR_DISK_TIME && !own) ||
	    (d->object == OBJ_LOGICALDISK && physical) ||
	    catalog_objects[d->object].has_instances != (inst != NULL) ||
	    (inst && (!*inst || strlen(inst) >= sizeof(c->instance))))
		return;
	util_strlcpy(c->instance, inst ? inst : "", sizeof(c->instance));
	for (char *p = c->instance; *p; p++)
		if (*p == '\\' || (unsigned char)*p < ' ')
			*p = '/';
	c->obj = (int)d->object;
	c->id = (int)d->id;
	c->scale = 1;
	c->invert = 0;
}

/* Map a column by its path (modified; own: perflog's own CSV, its
 * paths as perflog names them); its host's name (in path), NULL when the
 * path names none or is no counter path. */
const char *perfmon_map_column(char *path, int physical, int own,
			       struct column *c)
{
	char *h, *obj, *inst, *ctr;

	c->obj = -1;
	if (split_path(path, &h, &obj, &inst, &ctr) < 0)
		return NULL;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct name_map *m = &names[i];
		int has = catalog_objects[m->obj].has_instances;

		if (!object_is(m->object, obj, physical) ||
		    strcasecmp(m->counter, ctr))
			continue;
		if (has != (inst != NULL))
			return h;
		if (inst) {
			if (!*inst || strlen(inst) >= sizeof(c->instance))
				return h;
			if (m->obj == OBJ_PROCESS &&
			    (!strcmp(inst, "_Total") || !strcmp(inst, "Idle")))
				return h;
			util_strlcpy(c->instance, inst, sizeof(c->instance));
			/* the meta's paths hold no backslash in an instance */
			for (char *p = c->instance; *p; p++)
				if (*p == '\\' || (unsigned char)*p < ' ')
					*p = '/';
		}
		c->obj = m->obj;
		c->id = m->id;
		c->scale = m->scale;
		c->invert = m->invert;
		return h;
	}
	catalog_column(obj, inst, ctr, physical, own, c);
	return h;
}

