/*
 * mktargetset.c - a crafted log set of a backup to an NFS share or a
 * tape drive, written through the real writer (as mklogset.c), for the
 * report's verdict on where backups land (report/report_targets.c).
 *
 *   mktargetset PARENT NAME KIND   KIND: nfsdisk nfsnet nfsfast tapeslow
 *                                        tapefull
 *
 * 2 CPUs 5% busy, a disk sdb idle, eth0 at 1 Gb/s, 8 GiB of memory; 120
 * one-second samples; session KIND over samples 30..90 with a Process
 * instance KIND (perflog run's) whose working time is 80% blocked:
 * - nfsdisk: on the network (the RPC layer), NFS Client(/mnt/backup)
 *   writing 9.5 MiB/s, 200 ms to execute a write of which 25 ms round
 *   trip, no retransmissions, eth0 8% full: disk on the NFS server;
 * - nfsnet: the same with 180 ms of 200 the round trip and 3
 *   retransmissions/s: the network;
 * - nfsfast: 4 ms a write: not the server (the system's verdict stays);
 * - tapeslow: on the disk (the st driver), Tape(st0) 45% busy at 35
 *   MiB/s: the tape waits for data;
 * - tapefull: Tape(st0) 98% busy at 80 MiB/s: the tape is named.
 * Prints the log set's directory.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../counters/catalog.h"
#include "../../counters/rates.h"
#include "../../logs/logset.h"
#include "../../logs/markers.h"
#include "fill.h"

int main(int argc, char **argv)
{
	struct logset_writer *w;
	struct perr e;
	const time_t t0 = 1700000000;

	if (argc != 4) {
		fprintf(stderr, "usage: mktargetset PARENT NAME KIND\n");
		return 2;
	}
	const char *k = argv[3];
	int nfs = !strncmp(k, "nfs", 3), tape = !strncmp(k, "tape", 4);
	if (!nfs && !tape) {
		fprintf(stderr, "mktargetset: unknown kind '%s'\n", k);
		return 2;
	}
	w = fill_create("mktargetset", argv[1], argv[2], t0);
	if (!w)
		return 1;
	const char *cpus[] = { "_Total", "0", "1" };
	int bad = 0;
	for (int i = 0; i < 3; i++)
		bad |= fill_add_object(w, OBJ_PROCESSOR, cpus[i]);
	bad |= fill_add_object(w, OBJ_LOGICALDISK, "sdb");
	bad |= fill_add_object(w, OBJ_MEMORY, "");
	bad |= fill_add_object(w, OBJ_NETWORK, "eth0");
	bad |= fill_add_object(w, OBJ_TCP, "");
	bad |= fill_add_object(w, OBJ_PROCESS, k);
	bad |= fill_add_object(w, nfs ? OBJ_NFS : OBJ_TAPE,
			       nfs ? "/mnt/backup" : "st0");
	if (bad)
		return 1;
	struct sample s = { 0 };
	for (int i = 1; i <= 120; i++) {
		int in = i > 30 && i <= 90;
		double wob = (i % 5) * 0.2;

		sample_reset(&s);
		fill_value(&s, OBJ_PROCESSOR, "0", CTR_CPU_PROCESSOR_TIME, 5 + wob);
		fill_value(&s, OBJ_PROCESSOR, "1", CTR_CPU_PROCESSOR_TIME, 4 + wob);
		fill_value(&s, OBJ_PROCESSOR, "_Total", CTR_CPU_PROCESSOR_TIME, 4.5 + wob);
		fill_value(&s, OBJ_PROCESSOR, "_Total", CTR_CPU_IOWAIT_TIME, 1);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_TIME, 2 + wob);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_READ_BYTES, 1e5);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_WRITE_BYTES, 0);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_READS, 10);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_WRITES, 0);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_SEC_PER_TRANSFER, 0.001);
		fill_value(&s, OBJ_MEMORY, "", CTR_MEM_AVAILABLE, 6e9);
		fill_value(&s, OBJ_MEMORY, "", CTR_MEM_PAGES, 0);
		fill_value(&s, OBJ_NETWORK, "eth0", CTR_NET_BYTES_TOTAL,
			   in && nfs ? 10e6 : 1e5);
		fill_value(&s, OBJ_NETWORK, "eth0", CTR_NET_BANDWIDTH, 1e9);
		fill_value(&s, OBJ_TCP, "", CTR_TCP_SEGS_RETRANS, 0);
		/* the client: in the session, 80% blocked where the target
		 * shows (the RPC layer: network; the st driver: disk) */
		fill_value(&s, OBJ_PROCESS, k, CTR_PROC_PROCESSOR_TIME, in ? 15 : 0);
		fill_value(&s, OBJ_PROCESS, k, CTR_PROC_CPU_WAIT, in ? 1 : 0);
		fill_value(&s, OBJ_PROCESS, k, CTR_PROC_DISK_WAIT, in && tape ? 80 : 0);
		fill_value(&s, OBJ_PROCESS, k, CTR_PROC_NET_WAIT, in && nfs ? 80 : 0);
		fill_value(&s, OBJ_PROCESS, k, CTR_PROC_OTHER_WAIT, in ? 2 : 0);
		fill_value(&s, OBJ_PROCESS, k, CTR_PROC_SLEEP, in ? 2 : 0);
		if (nfs) {
			double exec = !strcmp(k, "nfsfast") ? 4 : 200;
			double rtt = !strcmp(k, "nfsnet") ? 180 : !strcmp(k, "nfsfast") ? 3 : 25;

			fill_value(&s, OBJ_NFS, "/mnt/backup", CTR_NFS_WRITE_BYTES, in ? 9.5 * 1048576 : 0);
			fill_value(&s, OBJ_NFS, "/mnt/backup", CTR_NFS_SRV_WRITE_BYTES, in ? 9.5 * 1048576 : 0);
			fill_value(&s, OBJ_NFS, "/mnt/backup", CTR_NFS_WRITES, in ? 9.5 : 0);
			fill_value(&s, OBJ_NFS, "/mnt/backup", CTR_NFS_EXEC_WRITE, in ? exec + wob : 0);
			fill_value(&s, OBJ_NFS, "/mnt/backup", CTR_NFS_RTT_WRITE, in ? rtt : 0);
			fill_value(&s, OBJ_NFS, "/mnt/backup", CTR_NFS_RETRANS,
				   in && !strcmp(k, "nfsnet") ? 3 : 0);
		} else {
			int full = !strcmp(k, "tapefull");

			fill_value(&s, OBJ_TAPE, "st0", CTR_TAPE_WRITE_BYTES,
				   in ? (full ? 80 : 35) * 1048576.0 : 0);
			fill_value(&s, OBJ_TAPE, "st0", CTR_TAPE_READ_BYTES, 0);
			fill_value(&s, OBJ_TAPE, "st0", CTR_TAPE_BUSY,
				   in ? (full ? 98 : 45) + wob : 0);
			fill_value(&s, OBJ_TAPE, "st0", CTR_TAPE_WRITE_TIME,
				   in ? (full ? 95 : 40) : 0);
		}
		if (logset_write_sample(w, t0 + i, &s, &e) < 0) {
			fprintf(stderr, "mktargetset: %s\n", e.msg);
			return 1;
		}
	}
	sample_free(&s);
	return fill_finish("mktargetset", w, t0 + 120, k, (double)t0 + 30,
			   (double)t0 + 90) < 0;
}

