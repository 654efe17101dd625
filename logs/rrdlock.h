/*
 * rrdlock.h - waiting out librrd's file locks.
 *
 * librrd 1.7 locks an RRD file without waiting (fcntl F_SETLK): every
 * reader (fetch, graph, last, info; ours, stock rrdtool's, a user's
 * script) holds a shared lock while it reads, and an update holds an
 * exclusive one while it writes. Whoever comes second fails at once with
 * "could not lock RRD", though the holder is done within milliseconds:
 * `perflog report` on a live set failed when it met an update, and the
 * collector's update failed when a reader met it. So each librrd call
 * that opens a file is called again while that is its error, after a
 * short pause, until a deadline: a reader waits out an update, the
 * collector waits out a reader.
 *
 *     double until = rrdlock_deadline(RRDLOCK_READ_WAIT);
 *     do {
 *             rrd_clear_error();
 *             rc = rrd_fetch_r(...);
 *     } while (rc != 0 && rrdlock_again(until));
 *
 * The collector's deadline is short and shared by a whole sample (the
 * writer's): anyone who can read a file can hold its lock for good, and
 * that must cost a sample at most RRDLOCK_SAMPLE_WAIT, after which the
 * rows are held and tried again at the next one, in silence until the
 * lock has lasted RRDLOCK_READ_WAIT (writer_send.c, lock_passing).
 */
#ifndef PERFLOG_RRDLOCK_H
#define PERFLOG_RRDLOCK_H

#include <rrd.h>

#define RRDLOCK_READ_WAIT 2.0	/* seconds a command that reads waits */
#define RRDLOCK_SAMPLE_WAIT 0.1	/* seconds one sample's writes may wait */

/* The monotonic time wait seconds from now. */
double rrdlock_deadline(double wait);

/* The last librrd error is a lock conflict. */
int rrdlock_conflict(void);

/* rrd_fetch_r (its arguments), waiting out an update's lock for up to
 * RRDLOCK_READ_WAIT; the error left in rrd_get_error when it fails. */
int rrdlock_fetch(const char *path, const char *cf, time_t *start,
		  time_t *end, unsigned long *step, unsigned long *ds_cnt,
		  char ***names, rrd_value_t **data);

/* After a librrd call failed: when its error is a lock conflict and
 * until (rrdlock_deadline) has not passed, pause a millisecond or two and
 * return 1 (call it again); otherwise 0, the error left as it is. */
int rrdlock_again(double until);

#endif
