/*
 * report_targets.h - where backups land in the verdict (report_targets.c;
 * the rules in report/README.md "Where backups land"): the session's
 * busiest NFS mount and tape drive, and the rules that turn their
 * figures and the client's waits into the verdict's word.
 *
 *   report_targets_of     a session's figures from its log set
 *   report_targets_judge  pure: may rewrite a verdict report_judge gave
 */
#ifndef PERFLOG_REPORT_TARGETS_H
#define PERFLOG_REPORT_TARGETS_H

#include <time.h>

#include "../logs/logset.h"
#include "report_rules.h"

/* Thresholds (report/README.md says why). */
#define REPORT_NFS_EXEC_WRITE 20.0	/* ms to execute a WRITE: high */
#define REPORT_NFS_RTT_CARRIES 0.5	/* RTT's share of the execute time */
#define REPORT_TARGET_WAITS 50.0	/* % of the client's time blocked
					   where a target's wait shows */
#define REPORT_TAPE_BUSY 50.0		/* % Busy Time: the drive is the limit */

struct report_targets {
	char nfs[64];			/* the mount that wrote most, "" none */
	struct report_stat nfs_wbytes;	/* its Write Bytes/sec */
	struct report_stat nfs_writes;	/* Write Ops/sec */
	struct report_stat nfs_exec_w;	/* Avg. Execute ms/Write */
	struct report_stat nfs_rtt_w;	/* Avg. RTT ms/Write */
	struct report_stat nfs_retrans;	/* Retransmissions/sec */
	char tape[64];			/* the drive that moved most, "" none */
	struct report_stat tape_busy;	/* % Busy Time */
	struct report_stat tape_bytes;	/* read + write bytes/sec */
};

/* The figures of [from, to] (rows ending there, as report_figures_of);
 * names "" and stats n 0 for what the log set lacks or a failed fetch. */
void report_targets_of(struct logset *ls, time_t from, time_t to,
		       struct report_targets *t);

/* Rewrite v (report_judge's verdict for the same session, f and w its
 * inputs) when a backup target explains it:
 * - the client blocked on the network or "other" >= REPORT_TARGET_WAITS
 *   (or, without wait states, no local resource named) while the mount's
 *   execute time per WRITE averaged >= REPORT_NFS_EXEC_WRITE ms: disk on
 *   the NFS server of the mount, or network when RTT is at least
 *   REPORT_NFS_RTT_CARRIES of the execute time and the path shows it
 *   (NFS or TCP retransmissions, the link >= REPORT_NET_FREE % full);
 * - a tape drive that moved data while the backup waited on it: busy <
 *   REPORT_TAPE_BUSY, "the tape waits for data: it is not the
 *   bottleneck" (a verdict that named a disk is replaced by nothing);
 *   busy >= REPORT_TAPE_BUSY, the tape is named (disk).
 * Returns 1 when v was changed. */
int report_targets_judge(const struct report_targets *t,
			 const struct report_figures *f,
			 const struct report_waits *w,
			 struct report_verdict *v);

#endif
