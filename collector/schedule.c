/* schedule.c - see schedule.h. */
#include "schedule.h"

#include <math.h>

void schedule_init(struct schedule *s, unsigned interval, double mono,
		   double wall, double min_gap)
{
	double first = wall + min_gap;

	s->interval = interval;
	s->mono0 = mono;
	s->wall0 = wall;
	s->t0 = (time_t)(ceil(first / interval) * interval);
	s->k = 0;
	s->skipped = 0;
	s->stepped = 0;
	s->ref_mono = mono;
	s->ref_wall = wall;
}

time_t schedule_stamp(const struct schedule *s)
{
	return s->t0 + (time_t)s->k * s->interval;
}

double schedule_deadline(const struct schedule *s)
{
	return s->mono0 + ((double)schedule_stamp(s) - s->wall0);
}

long schedule_advance(struct schedule *s, double mono, double wall)
{
	long skipped = 0;
	/* where the wall clock says we are, relative to the anchor */
	double drift = (wall - s->ref_wall) - (mono - s->ref_mono);

	s->k++;
	if (drift > s->interval) {
		/* wall clock stepped forward: move the anchor so stamps
		 * follow it; stamps only ever increase */
		time_t last = schedule_stamp(s) - s->interval;
		double want;

		s->mono0 = s->ref_mono = mono;
		s->wall0 = s->ref_wall = wall;
		want = ceil((wall + 0.2) / s->interval) * s->interval;
		if (want <= (double)last)
			want = (double)last + s->interval;
		s->t0 = (time_t)want;
		s->k = 0;
		s->stepped++;
		return 0;
	}
	if (drift < -(double)s->interval) {
		/* stepped back: keep the stamps' anchor (RRD updates cannot
		 * go back), only note the step once */
		s->stepped++;
		s->ref_mono = mono;
		s->ref_wall = wall;
	}
	while (schedule_deadline(s) <= mono) {
		s->k++;
		skipped++;
	}
	s->skipped += skipped;
	return skipped;
}
