/*
 * rrdlock.c - waiting out librrd's file locks (rrdlock.h).
 */
#define _GNU_SOURCE
#include "rrdlock.h"

#include <rrd.h>
#include <string.h>
#include <time.h>

#include "../common/util.h"

double rrdlock_deadline(double wait)
{
	return util_monotonic() + wait;
}

int rrdlock_conflict(void)
{
	const char *why = rrd_get_error();

	/* rrd_open's words when fcntl(F_SETLK) is refused (librrd 1.7);
	 * librrd gives no error code to test instead */
	return why && strstr(why, "could not lock RRD") != NULL;
}

int rrdlock_fetch(const char *path, const char *cf, time_t *start,
		  time_t *end, unsigned long *step, unsigned long *ds_cnt,
		  char ***names, rrd_value_t **data)
{
	double until = rrdlock_deadline(RRDLOCK_READ_WAIT);
	time_t s0 = *start, e0 = *end;
	unsigned long step0 = *step;

	for (;;) {
		rrd_clear_error();
		if (rrd_fetch_r(path, cf, start, end, step, ds_cnt, names,
				data) == 0)
			return 0;
		if (!rrdlock_again(until))
			return -1;
		*start = s0;	/* as asked, whatever the failed try left */
		*end = e0;
		*step = step0;
	}
}

int rrdlock_again(double until)
{
	/* a reader holds its lock for a millisecond or so, an update of a
	 * batch of rows a few: 2 ms pauses wait them out in a try or two */
	struct timespec pause = { 0, 2 * 1000 * 1000 };

	if (!rrdlock_conflict() || util_monotonic() + 0.002 > until)
		return 0;
	nanosleep(&pause, NULL);
	rrd_clear_error();
	return 1;
}
