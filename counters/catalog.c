/*
 * catalog.c - the counter catalog (see catalog.h); lookups and counter
 * paths are in catalog_path.c.
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
	[CTR_DISK_SEC_PER_READ] = {
		.id = CTR_DISK_SEC_PER_READ, .object = OBJ_LOGICALDISK, .index = 7,
		.name = "Avg. Disk sec/Read", .ds = "disk_sec_read",
		.unit = UNIT_SECONDS, UNBOUNDED,
		.source = "/proc/diskstats: read ms (field 4) / reads (field 1)",
		.sysstat = "sar -d: r_await / 1000",
		.help = "mean time a read took, queueing included (0 without reads)",
	},
	[CTR_DISK_SEC_PER_WRITE] = {
		.id = CTR_DISK_SEC_PER_WRITE, .object = OBJ_LOGICALDISK, .index = 8,
		.name = "Avg. Disk sec/Write", .ds = "disk_sec_write",
		.unit = UNIT_SECONDS, UNBOUNDED,
		.source = "/proc/diskstats: write ms (field 8) / writes (field 5)",
		.sysstat = "sar -d: w_await / 1000",
		.help = "mean time a write took, queueing included (0 without writes)",
	},
	[CTR_DISK_CURRENT_QUEUE] = {
		.id = CTR_DISK_CURRENT_QUEUE, .object = OBJ_LOGICALDISK, .index = 9,
		.name = "Current Disk Queue Length", .ds = "disk_queue_now",
		.unit = UNIT_COUNT, UNBOUNDED,
		.source = "/proc/diskstats: I/Os in flight (field 9) at the sample",
		.sysstat = "(none; /sys/block/DEV/inflight)",
		.help = "requests issued and not yet completed, at the sample",
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
	[CTR_NET_RX_ERRORS] = {
		.id = CTR_NET_RX_ERRORS, .object = OBJ_NETWORK, .index = 5,
		.name = "Packets Received Errors/sec", .ds = "net_rx_errors",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/net/dev: receive errs",
		.sysstat = "sar -n EDEV: rxerr/s",
		.help = "received packets with errors per second (bad CRC, frame, overrun ...)",
	},
	[CTR_NET_TX_ERRORS] = {
		.id = CTR_NET_TX_ERRORS, .object = OBJ_NETWORK, .index = 6,
		.name = "Packets Outbound Errors/sec", .ds = "net_tx_errors",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/net/dev: transmit errs",
		.sysstat = "sar -n EDEV: txerr/s",
		.help = "packets that could not be sent because of errors, per second",
	},
	[CTR_NET_RX_DISCARDS] = {
		.id = CTR_NET_RX_DISCARDS, .object = OBJ_NETWORK, .index = 7,
		.name = "Packets Received Discarded/sec", .ds = "net_rx_discards",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/net/dev: receive drop (rx_dropped + rx_missed_errors)",
		.sysstat = "sar -n EDEV: rxdrop/s",
		.help = "received packets dropped per second (no buffer, ring full, filtered)",
	},
	[CTR_NET_TX_DISCARDS] = {
		.id = CTR_NET_TX_DISCARDS, .object = OBJ_NETWORK, .index = 8,
		.name = "Packets Outbound Discarded/sec", .ds = "net_tx_discards",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/net/dev: transmit drop",
		.sysstat = "sar -n EDEV: txdrop/s",
		.help = "packets to send dropped per second (queue full, no route out)",
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

	/* Pressure: /proc/pressure/{cpu,io,memory} total= (Linux 4.20+). */
	[CTR_PSI_SOME] = {
		.id = CTR_PSI_SOME, .object = OBJ_PRESSURE, .index = 0,
		.name = "% Some Stalled Time", .ds = "psi_some",
		.unit = UNIT_PERCENT, PCT,
		.source = "/proc/pressure/RESOURCE: some total= (us)",
		.sysstat = "sar -q PSI: %scpu, %sio, %smem",
		.help = "share of the interval in which some task waited for the resource",
	},
	[CTR_PSI_FULL] = {
		.id = CTR_PSI_FULL, .object = OBJ_PRESSURE, .index = 1,
		.name = "% Full Stalled Time", .ds = "psi_full",
		.unit = UNIT_PERCENT, PCT,
		.source = "/proc/pressure/RESOURCE: full total= (us); none for cpu",
		.sysstat = "sar -q PSI: %fio, %fmem",
		.help = "share of the interval in which every non-idle task waited (io, memory)",
	},

	/* TCP: the Tcp MIB of /proc/net/snmp (IPv4 and IPv6). */
	[CTR_TCP_SEGS_SENT] = {
		.id = CTR_TCP_SEGS_SENT, .object = OBJ_TCP, .index = 0,
		.name = "Segments Sent/sec", .ds = "tcp_segs_sent",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/net/snmp: Tcp OutSegs",
		.sysstat = "sar -n TCP: oseg/s",
		.help = "TCP segments sent per second, retransmissions excluded",
	},
	[CTR_TCP_SEGS_RECEIVED] = {
		.id = CTR_TCP_SEGS_RECEIVED, .object = OBJ_TCP, .index = 1,
		.name = "Segments Received/sec", .ds = "tcp_segs_rcvd",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/net/snmp: Tcp InSegs",
		.sysstat = "sar -n TCP: iseg/s",
		.help = "TCP segments received per second, errors included",
	},
	[CTR_TCP_SEGS_RETRANS] = {
		.id = CTR_TCP_SEGS_RETRANS, .object = OBJ_TCP, .index = 2,
		.name = "Segments Retransmitted/sec", .ds = "tcp_segs_retrans",
		.unit = UNIT_PER_SEC, UNBOUNDED,
		.source = "/proc/net/snmp: Tcp RetransSegs",
		.sysstat = "sar -n ETCP: retrans/s",
		.help = "TCP segments sent again per second (loss, a slow or full path)",
	},

	/* Process: a watched tree (process.h), computed by rates_process;
	 * its wait states by waitrates.c. */
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
		.sysstat = "none (pidstat -d counts storage bytes: Disk Read Bytes/sec)",
		.help = "bytes the process tree read per second",
	},
	[CTR_PROC_IO_WRITE] = {
		.id = CTR_PROC_IO_WRITE, .object = OBJ_PROCESS, .index = 2,
		.name = "IO Write Bytes/sec", .ds = "proc_io_write",
		.unit = UNIT_BYTES_SEC, UNBOUNDED,
		.source = "/proc/PID/io of every process in the tree",
		.sysstat = "none (pidstat -d counts storage bytes: Disk Write Bytes/sec)",
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
	/* Process: the command's own cgroup (cgstat.h; counters/README.md
	 * "The command's cgroup"): its pressure stalls, 0..100 of the
	 * interval like the Pressure object's, and its CPU quota throttling */
	[CTR_PROC_CPU_SOME] = {
		.id = CTR_PROC_CPU_SOME, .object = OBJ_PROCESS, .index = 9,
		.name = "% CPU Some Stalled Time", .ds = "proc_cpu_some",
		.unit = UNIT_PERCENT, PCT,
		.source = "the command's cgroup v2 cpu.pressure: some total= (us)",
		.sysstat = "none (the group's own PSI; sar -q PSI is the host's)",
		.help = "share of the interval in which some task of the command waited for a CPU",
	},
	[CTR_PROC_CPU_FULL] = {
		.id = CTR_PROC_CPU_FULL, .object = OBJ_PROCESS, .index = 10,
		.name = "% CPU Full Stalled Time", .ds = "proc_cpu_full",
		.unit = UNIT_PERCENT, PCT,
		.source = "the command's cgroup v2 cpu.pressure: full total= (us), 5.13+",
		.sysstat = "none",
		.help = "share of the interval in which no task of the command ran while some waited for a CPU (a quota)",
	},
	[CTR_PROC_IO_SOME] = {
		.id = CTR_PROC_IO_SOME, .object = OBJ_PROCESS, .index = 11,
		.name = "% IO Some Stalled Time", .ds = "proc_io_some",
		.unit = UNIT_PERCENT, PCT,
		.source = "the command's cgroup v2 io.pressure: some total= (us)",
		.sysstat = "none",
		.help = "share of the interval in which some task of the command waited for block I/O",
	},
	[CTR_PROC_IO_FULL] = {
		.id = CTR_PROC_IO_FULL, .object = OBJ_PROCESS, .index = 12,
		.name = "% IO Full Stalled Time", .ds = "proc_io_full",
		.unit = UNIT_PERCENT, PCT,
		.source = "the command's cgroup v2 io.pressure: full total= (us)",
		.sysstat = "none",
		.help = "share of the interval in which every non-idle task of the command waited for block I/O",
	},
	[CTR_PROC_MEM_SOME] = {
		.id = CTR_PROC_MEM_SOME, .object = OBJ_PROCESS, .index = 13,
		.name = "% Memory Some Stalled Time", .ds = "proc_mem_some",
		.unit = UNIT_PERCENT, PCT,
		.source = "the command's cgroup v2 memory.pressure: some total= (us)",
		.sysstat = "none",
		.help = "share of the interval in which some task of the command waited for memory (reclaim, refaults)",
	},
	[CTR_PROC_MEM_FULL] = {
		.id = CTR_PROC_MEM_FULL, .object = OBJ_PROCESS, .index = 14,
		.name = "% Memory Full Stalled Time", .ds = "proc_mem_full",
		.unit = UNIT_PERCENT, PCT,
		.source = "the command's cgroup v2 memory.pressure: full total= (us)",
		.sysstat = "none",
		.help = "share of the interval in which every non-idle task of the command waited for memory",
	},
	[CTR_PROC_THROTTLED] = {
		.id = CTR_PROC_THROTTLED, .object = OBJ_PROCESS, .index = 15,
		.name = "% Throttled Time", .ds = "proc_throttled",
		.unit = UNIT_PERCENT, .min = 0.0, .max = NAN,
		.source = "cpu.stat of the nearest group with a CPU quota: v1 throttled_time (ns), v2 throttled_usec",
		.sysstat = "none (docker stats: throttled_time)",
		.help = "run queues of the command's quota group held back by the quota, 100 per CPU",
	},
	/* the same throttling as a share of time: % Throttled Time adds a
	 * held run queue per CPU, so it reads 139 where the group was held
	 * in 70% of its periods; this one is never over 100 */
	[CTR_PROC_THROTTLED_PERIODS] = {
		.id = CTR_PROC_THROTTLED_PERIODS, .object = OBJ_PROCESS, .index = 16,
		.name = "% Throttled Periods", .ds = "proc_thr_periods",
		.unit = UNIT_PERCENT, PCT,
		.source = "cpu.stat of the nearest group with a CPU quota: nr_throttled / nr_periods",
		.sysstat = "none (cAdvisor: container_cpu_cfs_throttled_periods_total / _periods_total)",
		.help = "share of the quota's periods (cpu.max's period, 100 ms by default) in which the quota held the command's group back",
	},
	/* what of the tree's I/O reached the storage: a local repository's
	 * or target's writes, the files it read that were not cached (IO
	 * Read/Write Bytes/sec count pipes, sockets and the cache too) */
	[CTR_PROC_DISK_READ] = {
		.id = CTR_PROC_DISK_READ, .object = OBJ_PROCESS, .index = 17,
		.name = "Disk Read Bytes/sec", .ds = "proc_disk_read",
		.unit = UNIT_BYTES_SEC, UNBOUNDED,
		.source = "/proc/PID/io read_bytes of every process in the tree (exit records' read_bytes)",
		.sysstat = "pidstat -d -T ALL: kB_rd/s * 1024",
		.help = "bytes per second the process tree made the storage read (page-cache hits, pipes and sockets add none)",
	},
	[CTR_PROC_DISK_WRITE] = {
		.id = CTR_PROC_DISK_WRITE, .object = OBJ_PROCESS, .index = 18,
		.name = "Disk Write Bytes/sec", .ds = "proc_disk_write",
		.unit = UNIT_BYTES_SEC, UNBOUNDED,
		.source = "/proc/PID/io write_bytes of every process in the tree (exit records' write_bytes)",
		.sysstat = "pidstat -d -T ALL: kB_wr/s * 1024",
		.help = "bytes per second the process tree wrote into files on a block device (counted as it dirties the pages, written back later; pipes, sockets and tmpfs add none)",
	},

	/* where backups land: NFS mounts, SMB shares, tape drives, FC
	 * ports (sources/procfs_nfs.c ... procfs_fc.c) */
#include "catalog_targets.def"
};

const struct object_def catalog_objects[OBJ_COUNT] = {
	[OBJ_PROCESSOR] = { .object = OBJ_PROCESSOR, .name = "Processor",
		.file = "Processor", .has_instances = 1, .ncounters = 4 },
	[OBJ_LOGICALDISK] = { .object = OBJ_LOGICALDISK, .name = "LogicalDisk",
		.file = "LogicalDisk", .has_instances = 1, .ncounters = 10 },
	[OBJ_MEMORY] = { .object = OBJ_MEMORY, .name = "Memory",
		.file = "Memory", .has_instances = 0, .ncounters = 7 },
	[OBJ_NETWORK] = { .object = OBJ_NETWORK, .name = "Network Interface",
		.file = "NetworkInterface", .has_instances = 1, .ncounters = 9 },
	[OBJ_SYSTEM] = { .object = OBJ_SYSTEM, .name = "System",
		.file = "System", .has_instances = 0, .ncounters = 2 },
	[OBJ_PRESSURE] = { .object = OBJ_PRESSURE, .name = "Pressure",
		.file = "Pressure", .has_instances = 1, .ncounters = 2 },
	[OBJ_TCP] = { .object = OBJ_TCP, .name = "TCP",
		.file = "TCP", .has_instances = 0, .ncounters = 3 },
	[OBJ_PROCESS] = { .object = OBJ_PROCESS, .name = "Process",
		.file = "Process", .has_instances = 1, .ncounters = 19 },
	[OBJ_NFS] = { .object = OBJ_NFS, .name = "NFS Client",
		.file = "NFSClient", .has_instances = 1, .ncounters = 12 },
	[OBJ_CIFS] = { .object = OBJ_CIFS, .name = "CIFS Share",
		.file = "CIFSShare", .has_instances = 1, .ncounters = 4 },
	[OBJ_TAPE] = { .object = OBJ_TAPE, .name = "Tape",
		.file = "Tape", .has_instances = 1, .ncounters = 10 },
	[OBJ_FC] = { .object = OBJ_FC, .name = "FC Port",
		.file = "FCPort", .has_instances = 1, .ncounters = 6 },
};
