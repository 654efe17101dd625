/*
 * source.h - where raw counters come from. One header, one file per backend
 * (STYLE 3): procfs.c reads Linux /proc and /sys under an injectable root;
 * statgrab.c reads the portable subset through libstatgrab.
 *
 * A backend fills a raw_snapshot with cumulative kernel counters as read
 * (ticks, sectors, bytes, events) plus instantaneous gauges. Nothing here is
 * a rate: rates.c turns two snapshots into per-interval values. Fields a
 * backend cannot supply are left as SRC_NA (counters) or flagged through the
 * have_* bits, and the counters built on them are logged as unknown.
 *
 *   read (source_*)  ->  raw_snapshot  ->  rates_compute(prev, cur)  ->  sample
 */
#ifndef PERFLOG_SOURCE_H
#define PERFLOG_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "../common/util.h"

#define SRC_NA UINT64_MAX	/* a cumulative counter the backend lacks */
#define SRC_NAME_MAX 64

/* One CPU line of /proc/stat, in USER_HZ ticks. */
struct cpu_raw {
	char name[SRC_NAME_MAX];	/* "_Total", "0", "1", ... */
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

/* One block device of /proc/diskstats. */
struct disk_raw {
	char name[SRC_NAME_MAX];	/* "sda", "nvme0n1", "dm-0", "sda1" */
	int in_total;		/* counted in the _Total instance (a whole,
				 * bottom-level disk: not a partition, dm, md,
				 * loop, ram or zram device) */
	uint64_t ident;		/* which device this is: major << 32 | minor
				 * (0 unknown). A different ident under the
				 * same name is a new device: no values for
				 * that interval (rates.c) */
	uint64_t rd_ios, rd_sectors, rd_ticks;	/* ticks in ms */
	uint64_t wr_ios, wr_sectors, wr_ticks;
	uint64_t io_ticks;		/* ms the device was busy */
	uint64_t time_in_queue;		/* weighted ms, for queue length */
	double in_flight;	/* gauge: requests in flight at the read
				 * (field 9), NAN when not reported */
};

/* One interface of /proc/net/dev (+ /sys/class/net/X/speed). */
struct net_raw {
	char name[SRC_NAME_MAX];
	uint64_t ident;		/* which device this is (ifindex plus a
				 * generation bumped when the device behind
				 * the name was replaced; 0 unknown) */
	uint64_t rx_bytes, tx_bytes, rx_packets, tx_packets;
	uint64_t rx_errs, tx_errs, rx_drop, tx_drop;
	double speed_bps;	/* link speed in bits/s, NAN when unknown */
	int is_loopback;	/* lo, or ARPHRD_LOOPBACK */
	int in_total;		/* counted in _Total: each byte on the wire
				 * once (counters/README.md "Network
				 * _Total") */
};

/* Memory: gauges in bytes, paging counters cumulative (/proc/vmstat). */
struct mem_raw {
	double available;	/* MemAvailable, bytes; NAN when absent */
	double cached;		/* Cached, bytes; NAN when absent */
	uint64_t pswpin, pswpout;	/* pages */
	uint64_t pgfault, pgmajfault;	/* events */
};

struct sys_raw {
	uint64_t ctxt;		/* context switches since boot */
	double procs_running;	/* runnable tasks now (incl. running) */
};

/* Pressure stall information of one resource (/proc/pressure/cpu, io,
 * memory, or a cgroup's cpu.pressure ...): the cumulative "total="
 * microseconds of the "some" and "full" lines. present is 0 when the file
 * is missing (kernel before 4.20, psi=0): the resource is not offered. */
enum psi_resource { PSI_CPU, PSI_IO, PSI_MEMORY, PSI_COUNT };
struct psi_raw {
	int present;
	uint64_t some_us, full_us;	/* SRC_NA when the line is missing */
};
/* "cpu", "io", "memory": the file names, and the Pressure instances. */
const char *source_psi_name(enum psi_resource r);

/* TCP segments of /proc/net/snmp (IPv4 and IPv6 share this MIB). */
struct tcp_raw {
	uint64_t in_segs, out_segs, retrans_segs;
};

/* Where backups land (procfs_nfs.c, procfs_cifs.c, procfs_tape.c,
 * procfs_fc.c; counters/README.md "Backup targets"). Each is a list,
 * empty when the kernel has none (no NFS client, no st driver ...): the
 * objects are then absent, never zero. Counters a line lacks stay
 * SRC_NA. */

/* One NFS mount of proc/self/mountstats (fs/nfs/super.c nfs_show_stats,
 * net/sunrpc/stats.c rpc_clnt_show_stats). */
struct nfs_raw {
	char name[SRC_NAME_MAX];	/* the mount point, unescaped */
	uint64_t ident;		/* the exported device ("srv:/export")
				 * hashed: another export mounted on the
				 * same point is another mount (0 unknown) */
	uint64_t age;		/* seconds since mounted ("age:") */
	uint64_t app_rd, app_wr;	/* "bytes:" normal + direct read/write */
	uint64_t srv_rd, srv_wr;	/* "bytes:" server read/write bytes */
	/* per-op READ and WRITE: operations, transmissions, cumulative
	 * milliseconds of round trip and of execution (queue included) */
	uint64_t rd_ops, rd_trans, rd_rtt, rd_exec;
	uint64_t wr_ops, wr_trans, wr_rtt, wr_exec;
	uint64_t sends, bklog;	/* "xprt:" sends and bklog_u, summed over
				 * the transports (nconnect gives several) */
};

/* One share (tree connection) of proc/fs/cifs/Stats (fs/smb/client
 * cifs_debug.c cifs_stats_proc_show). */
struct cifs_raw {
	char name[SRC_NAME_MAX];	/* \\server\share, as printed */
	uint64_t smbs;		/* "SMBs:" (an atomic_t: 32 bits) */
	uint64_t rd_bytes, wr_bytes;	/* "Bytes read:", "Bytes written:" */
	uint64_t reconnects;	/* the host's session + share reconnects
				 * (the file has no per-share count) */
};

/* One tape drive: sys/class/scsi_tape/stN/stats/ (drivers/scsi/st.c). */
struct tape_raw {
	char name[SRC_NAME_MAX];	/* "st0" */
	uint64_t rd_bytes, wr_bytes;	/* read_byte_cnt, write_byte_cnt */
	uint64_t rd_cnt, wr_cnt, other_cnt;	/* commands completed */
	uint64_t rd_ns, wr_ns, io_ns;	/* ns spent reading, writing, in any
					 * command (io_ns) */
	uint64_t resid;		/* resid_cnt: commands that moved less than
				 * asked */
	double in_flight;	/* gauge: commands outstanding, NAN unknown */
};

/* One FC host port: sys/class/fc_host/hostN/statistics/
 * (drivers/scsi/scsi_transport_fc.c fc_stat_show). */
struct fc_raw {
	char name[SRC_NAME_MAX];	/* "host3" */
	uint64_t since_reset;	/* seconds_since_last_reset */
	uint64_t tx_words, rx_words;	/* 4-byte words */
	uint64_t tx_frames, rx_frames;
	uint64_t error_frames, invalid_crc, link_failures;
};

struct raw_snapshot {
	double mono;		/* CLOCK_MONOTONIC seconds of the read */
	int kernel_bits;	/* the kernel's word size, 32 or 64; 0 when
				 * unknown. Decides which counters can wrap
				 * at 2^32 (rates.c) */
	struct cpu_raw *cpus;	/* cpus[0] is _Total (the "cpu" line) */
	size_t ncpus, cap_cpus;
	struct disk_raw *disks;
	size_t ndisks, cap_disks;
	struct net_raw *nets;
	size_t nnets, cap_nets;
	struct mem_raw mem;
	struct sys_raw sys;
	struct psi_raw psi[PSI_COUNT];
	struct tcp_raw tcp;
	struct nfs_raw *nfs;
	size_t nnfs, cap_nfs;
	struct cifs_raw *cifs;
	size_t ncifs, cap_cifs;
	struct tape_raw *tapes;
	size_t ntapes, cap_tapes;
	struct fc_raw *fcs;
	size_t nfcs, cap_fcs;
};

/* Empty a snapshot for reuse (keeps its arrays allocated). */
void snapshot_reset(struct raw_snapshot *s);
/* Free what a snapshot owns. */
void snapshot_free(struct raw_snapshot *s);
/* Append an entry, growing the array; returns NULL on out-of-memory. The
 * new entry is zeroed, with counters set to SRC_NA and gauges to NAN. */
struct cpu_raw *snapshot_add_cpu(struct raw_snapshot *s);
struct disk_raw *snapshot_add_disk(struct raw_snapshot *s);
struct net_raw *snapshot_add_net(struct raw_snapshot *s);
struct nfs_raw *snapshot_add_nfs(struct raw_snapshot *s);
struct cifs_raw *snapshot_add_cifs(struct raw_snapshot *s);
struct tape_raw *snapshot_add_tape(struct raw_snapshot *s);
struct fc_raw *snapshot_add_fc(struct raw_snapshot *s);
/* An entry by name, or NULL. */
const struct disk_raw *snapshot_find_disk(const struct raw_snapshot *s,
					  const char *name);
const struct net_raw *snapshot_find_net(const struct raw_snapshot *s,
					const char *name);

/* What a read's time goes to, part by part: the collector's cost table
 * (`perflog status --json`, bench/overhead.sh), so that a new source's
 * cost is seen the day it lands. */
enum source_part {
	SP_STAT, SP_DISKSTATS, SP_MEMINFO, SP_VMSTAT, SP_NETDEV, SP_SNMP,
	SP_PSI, SP_NFS, SP_CIFS, SP_TAPE, SP_FC,
	SP_COUNT
};
/* "stat", "diskstats", ... "nfs", "cifs", "tape", "fc": the table's
 * keys. */
const char *source_part_name(enum source_part part);

/*
 * The Linux backend. root is the file system root to read under: "/" in
 * production, a fixture tree such as "tests/fixtures/proc/root1" in tests
 * (STYLE 4). Files read: proc/stat, proc/diskstats, proc/meminfo,
 * proc/vmstat, proc/net/dev, proc/net/snmp, proc/pressure/{cpu,io,memory},
 * proc/sys/kernel/arch (once), sys/block/DEV (whole disks; partitions have
 * no entry there), sys/class/net/IF/ (type, speed, ifindex, uevent,
 * device, lower_*: what the interface is, see counters/README.md).
 *
 * procfs_open keeps what it can open; each procfs_read fills *s (after
 * snapshot_reset) and stamps s->mono. A missing file leaves its part of the
 * snapshot empty and is reported once through e with the path; it is not
 * fatal (returns 0) unless proc/stat itself cannot be read (-1). The
 * optional files (proc/net/snmp and proc/pressure/ *, absent on older
 * kernels or with psi=0) are not reported: their objects are simply not
 * offered (psi[].present = 0, tcp SRC_NA).
 * So a caller that wants the warning clears e->msg before the read and
 * checks it after a 0 return. procfs_open fails (NULL, e set) only when
 * proc/stat cannot be opened or on out-of-memory.
 *
 * Instance names: cpus "_Total", "0", "1"... (the N of cpuN); disks and
 * interfaces as the kernel names them. disk_raw.in_total: the name has a
 * sys/block entry, does not start with dm-, md, loop, ram, zram, and its
 * sys/block/NAME/slaves is empty. kernel_bits: from proc/sys/kernel/arch,
 * else uname(2). is_loopback: "lo" or sys/class/net/IF/type is 772;
 * net_raw.in_total: counters/README.md. speed_bps: NAN when the speed
 * file is missing, says -1 or fails (EINVAL). psi cpu full_us is SRC_NA:
 * the kernel defines no system-wide "full" for the CPU. A field an older
 * kernel does not print stays SRC_NA (MemAvailable, in_flight: NAN).
 * Nothing is allocated per read once the snapshot, the buffer and the
 * device caches have grown.
 */
struct procfs;
struct procfs *procfs_open(const char *root, struct perr *e);
int procfs_read(struct procfs *p, struct raw_snapshot *s, struct perr *e);
/* Seconds spent in each part since procfs_open (source_cost). */
void procfs_cost(const struct procfs *p, double sec[SP_COUNT]);
void procfs_close(struct procfs *p);

/*
 * The libstatgrab backend: the portable subset (total CPU times, cache
 * bytes, per-disk bytes, per-interface bytes/packets/errors/speed, context
 * switches). Per-CPU times, irq/softirq/steal, disk ops/busy/queue/times,
 * MemAvailable, swap paging and page faults (sg_get_page_stats counts
 * pgpgin/pgpgout, all file I/O, not swapping), the run queue, interface
 * drops and TCP are left SRC_NA/NAN, and Pressure is not offered: those
 * counters are "not available" on hosts where only this backend runs.
 * Disk bytes are stored as 512-byte sectors (bytes / 512). Interfaces
 * count in _Total unless loopback (no stacking information).
 * statgrab_open fails (NULL, e set) when sg_init fails; sg_init is done
 * once per process and shared by several readers.
 */
struct statgrab;
struct statgrab *statgrab_open(struct perr *e);
int statgrab_read(struct statgrab *g, struct raw_snapshot *s, struct perr *e);
void statgrab_close(struct statgrab *g);



/*
 * The source the collector uses: the Linux backend when ROOT/proc/stat is
 * readable (one pass over five files gives every counter at one instant,
 * at about half of libstatgrab's cost), else libstatgrab (AIX, Solaris,
 * the BSDs), whose missing counters are logged as unknown.
 * $PERFLOG_SOURCE=statgrab forces libstatgrab, for comparing the two.
 */
/* The word size of a kernel from its machine name (uname -m,
 * /proc/sys/kernel/arch): 64 for x86_64, aarch64, ppc64le, s390x, riscv64,
 * alpha ...; 32 for i686, armv7l, mips ...; 0 for NULL or "". */
int source_kernel_bits(const char *machine);

struct source;
struct source *source_open(const char *root, struct perr *e);
int source_read(struct source *src, struct raw_snapshot *s, struct perr *e);
const char *source_name(const struct source *src);	/* "procfs", "libstatgrab" */
/* Seconds (CLOCK_MONOTONIC) spent reading and parsing each part since
 * the source was opened, into sec[SP_COUNT]; libstatgrab's reads are not
 * split: all of it is SP_STAT. */
void source_cost(const struct source *src, double sec[SP_COUNT]);
void source_close(struct source *src);

/* ---- psi.c ----
 *
 * Pressure stall information (Linux 4.20+, CONFIG_PSI, not booted
 * with psi=0). One format serves /proc/pressure/{cpu,io,memory} and a
 * cgroup v2 directory's cpu.pressure, io.pressure and memory.pressure
 * (Documentation/accounting/psi.rst):
 *
 *   some avg10=0.00 avg60=0.00 avg300=0.00 total=14863194
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=0
 *
 * Only total= is kept: the cumulative microseconds in which some (at least
 * one) or all non-idle tasks were stalled on the resource. rates.c turns
 * two readings into the share of the interval, as `sar -q PSI` does; the
 * kernel's avg10/60/300 are decaying averages that would smear a short
 * stall over minutes. The totals are u64 (never wrap); a total that goes
 * back (a cgroup removed and made again) is a reset: unknown.
 */
/* Parse the text of a pressure file (len bytes, need not be terminated).
 * Fills out: present = 1 and some_us/full_us, SRC_NA for a line that is
 * missing or malformed (the cpu file had no "full" line before 5.13).
 * Returns 0, or -1 (present = 0) when there is no valid "some" line. */
int psi_parse(const char *buf, size_t len, struct psi_raw *out);

/* Read and parse one pressure file by path (for a cgroup's files; the
 * system-wide ones are read by procfs_read). Returns 0, or -1 with e set
 * ("unable to read 'PATH': ..." or "'PATH': no pressure figures") and
 * out->present = 0. A cgroup whose controller has pressure disabled
 * (cgroup.pressure = 0) fails to read with EOPNOTSUPP: also -1. */
int psi_read_file(const char *path, struct psi_raw *out, struct perr *e);

#endif
