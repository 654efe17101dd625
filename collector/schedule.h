/*
 * schedule.h - when to sample, and what time to stamp a sample with.
 *
 * Samples are taken on absolute deadlines of CLOCK_MONOTONIC (STYLE 6) so
 * the schedule never drifts, and stamped on the wall clock's multiples of
 * the interval so each value fills exactly one RRD primary data point:
 *
 *   stamp(k)    = t0 + k * interval            (wall clock, whole seconds)
 *   deadline(k) = mono0 + (stamp(k) - wall0)   (monotonic)
 *
 * where (mono0, wall0) were read together at start. After an overrun (the
 * collector was stopped or starved past the next deadline) the missed
 * deadlines are skipped, never made up in a burst. If the wall clock is
 * stepped (NTP, an admin), stamps keep their spacing: a step forward
 * re-anchors the stamps forward (the gap stays unknown in the log); a step
 * back keeps the old anchor, since RRD updates can never go backwards.
 * Everything here is pure: the caller passes the clocks in.
 */
#ifndef PERFLOG_SCHEDULE_H
#define PERFLOG_SCHEDULE_H

#include <time.h>

struct schedule {
	unsigned interval;
	double mono0, wall0;	/* clocks read together at the anchor */
	time_t t0;		/* stamp of k = 0 */
	long k;			/* index of the next sample */
	long skipped;		/* deadlines skipped after overruns */
	int stepped;		/* wall clock steps seen */
	double ref_mono, ref_wall;	/* reference for step detection */
};

/* Anchor at (mono, wall): the first stamp is the first multiple of interval
 * at least min_gap seconds ahead of wall. */
void schedule_init(struct schedule *s, unsigned interval, double mono,
		   double wall, double min_gap);

/* Deadline (monotonic) and stamp of the next sample. */
double schedule_deadline(const struct schedule *s);
time_t schedule_stamp(const struct schedule *s);

/* Called once the sample for the current k was taken at (mono, wall):
 * advance k, skipping deadlines already past, and re-anchor after a wall
 * clock step of more than an interval. Returns the number of deadlines
 * skipped by this call. */
long schedule_advance(struct schedule *s, double mono, double wall);

#endif
