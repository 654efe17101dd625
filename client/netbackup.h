/*
 * netbackup.h - NetBackup's buffer wait and delay counters, the seed-era
 * bottleneck counters (seeds/netbackup-gigabit-tuning.txt tuned
 * NUMBER_DATA_BUFFERS and SIZE_DATA_BUFFERS run after run), as the bptm
 * and bpbkar debug logs and the Activity Monitor's job details print them
 * (NetBackup Backup Planning and Performance Tuning Guide, "Finding wait
 * and delay counter values"; Veritas article 000010401 / TECH145578):
 *
 *   <2> write_data: waited for full buffer 24552 times, delayed 1221273 times
 *   <2> ... waited for empty buffer 1883 times, delayed 14645 times
 *   <4> ... INF - bpbkar waited 64737 times for empty buffer, delayed 66780 times.
 *   <2> io_init: child delay = 10, parent delay = 15 (milliseconds)
 *
 * During a backup the data producer (bpbkar reading the client's disk, or
 * bptm's child receiving it from the network) fills shared buffers that
 * the consumer (bptm's parent writing tape or disk) empties. A consumer
 * that "waited for full buffer" was starved: the source (client reads,
 * network) is slow. A producer that "waited for empty buffer" was held
 * back: the storage unit is slow. Each delay is one sleep of the parent
 * delay (full buffers) or the child delay (empty buffers); their product
 * is the time lost, which is what the verdict weighs.
 */
#ifndef PERFLOG_NETBACKUP_H
#define PERFLOG_NETBACKUP_H

#include "../logs/markers.h"

/* NetBackup's defaults (PARENT_DELAY, CHILD_DELAY), used when no io_init
 * line told them. */
#define NETBACKUP_PARENT_DELAY_MS 15.0
#define NETBACKUP_CHILD_DELAY_MS 10.0

struct netbackup_waits {
	double full_waits, full_delays;		/* consumer starved */
	double empty_waits, empty_delays;	/* producer held back */
	double parent_ms, child_ms;		/* delay lengths */
};

enum netbackup_side {
	NBU_NONE,	/* no counters, or no side clearly waited more */
	NBU_SOURCE,	/* full-buffer waits: the data arrives slowly */
	NBU_STORAGE	/* empty-buffer waits: the storage unit is slow */
};

/* The counters an end marker carries (client=netbackup). Returns 0, or -1
 * when the marker has none. */
int netbackup_waits_of(const struct marker *end, struct netbackup_waits *w);

/* Which side waited: the one whose delays lost at least twice the other's
 * time and at least 5% of session_s (when session_s > 0). *lost_s gets
 * that side's lost time, clause a sentence for the verdict ("NetBackup:
 * bptm waited for full buffers 24552 times, delayed 1221273 times, 5:05:19
 * lost"). */
enum netbackup_side netbackup_judge(const struct netbackup_waits *w,
				    double session_s, double *lost_s,
				    char *clause, size_t n);

#endif
