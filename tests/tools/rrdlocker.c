/*
 * rrdlocker - take the locks librrd takes on RRD files, from another
 * process, for the lock suite (tests/t7320-locks.t): a reader's shared
 * lock, an update's exclusive one (fcntl, the whole file, as librrd 1.7's
 * rrd_open does).
 *
 *   rrdlocker [-x] ON OFF SECONDS FILE...
 *       for SECONDS (0: until killed): lock every FILE, hold the locks ON
 *       milliseconds, release them, wait OFF milliseconds, again; -x
 *       exclusive (an update), else shared (a reader). A file that cannot
 *       be opened is skipped (a file created later is missed).
 *
 * Prints "locked" once the first locks are held (a suite waits for it)
 * and the number of rounds at the end.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	int excl = 0, a = 1, nfd = 0;
	long on, off, rounds = 0;
	double secs, end;
	int *fd;

	if (argc > 1 && !strcmp(argv[1], "-x")) {
		excl = 1;
		a = 2;
	}
	if (argc - a < 4) {
		fprintf(stderr, "usage: rrdlocker [-x] ON_MS OFF_MS SECONDS FILE...\n");
		return 64;
	}
	on = atol(argv[a]);
	off = atol(argv[a + 1]);
	secs = atof(argv[a + 2]);
	a += 3;
	fd = calloc((size_t)(argc - a), sizeof(*fd));
	if (!fd)
		return 1;
	for (int i = a; i < argc; i++) {
		int f = open(argv[i], (excl ? O_RDWR : O_RDONLY) | O_CLOEXEC);

		if (f >= 0)
			fd[nfd++] = f;
	}
	end = now() + secs;
	for (;;) {
		struct flock l = { .l_type = excl ? F_WRLCK : F_RDLCK,
				   .l_whence = SEEK_SET };

		/* waits for the collector's update, as a reader would not:
		 * the point is to be holding the lock when it comes */
		for (int i = 0; i < nfd; i++)
			fcntl(fd[i], F_SETLKW, &l);
		if (rounds++ == 0) {
			printf("locked\n");
			fflush(stdout);
		}
		nap_ms(on);
		l.l_type = F_UNLCK;
		for (int i = 0; i < nfd; i++)
			fcntl(fd[i], F_SETLK, &l);
		if (secs > 0 && now() >= end)
			break;
		nap_ms(off);
	}
	printf("%ld rounds, %d files\n", rounds, nfd);
	return 0;
}
