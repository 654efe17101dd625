/*
 * clock.c - the collector's wall clock (collector_int.h): every row and
 * every marker it writes is stamped with it, so the two always agree, and
 * a remote perflog run measures it (the "clock" request, control.h).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "collector_int.h"

/*
 * The wall clock the collector stamps with. Test seam (STYLE 4, like git's
 * GIT_TEST_DATE_NOW): when $PERFLOG_TEST_CLOCK_OFFSET_FILE names a file, the
 * number of seconds it holds (may be negative or fractional) is added to
 * CLOCK_REALTIME, re-read at every call (each sample, marker and "clock" request), so a test can
 * step the "wall clock" forward or back mid-run without root and without
 * disturbing the machine. A missing or unreadable file means no offset.
 * Not for production use; tests/t7300-clock.t and t3700-two-hosts.t use it.
 */
double collector_clock(void)
{
	/* looked up once: the environment is the process's from its start,
	 * and the lookup, a walk of every variable, was a sample's cost */
	static const char *f;
	static int looked;
	double wall = util_walltime();
	char buf[64];
	ssize_t n;
	int fd;

	if (!looked) {
		f = getenv("PERFLOG_TEST_CLOCK_OFFSET_FILE");
		looked = 1;
	}
	if (!f || !*f)
		return wall;
	fd = open(f, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return wall;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n > 0) {
		char *end;
		double off;

		buf[n] = '\0';
		off = strtod(buf, &end);
		if (end != buf && isfinite(off) && fabs(off) < 1e9)
			wall += off;
	}
	return wall;
}
