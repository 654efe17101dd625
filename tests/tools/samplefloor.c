/*
 * samplefloor.c - the least a 1 s sampler of the default set can cost on
 * this host, for bench/overhead.sh to put beside the collector and sadc
 * (issue 48: is a third of sadc reachable here at all?):
 *
 *   samplefloor wake             wake at each whole second of the
 *                                monotonic clock (ppoll, as the
 *                                collector waits), nothing else
 *   samplefloor read             and pread once each of the files the
 *                                default set reads, kept open (stat,
 *                                diskstats, meminfo, vmstat's first page,
 *                                net/dev, net/snmp, the three pressure
 *                                files: sources/procfs.c's reads)
 *   samplefloor journal FILE     and append a record of the default
 *                                set's size to FILE, fdatasync every
 *                                5th: perflog.journal's contract
 *                                (man/perflog-logset.5)
 *   samplefloor file PATH MS     wake at MS milliseconds past each
 *                                second and pread PATH alone: one
 *                                file's cost by itself, less a wake
 *                                (bench/floor.sh runs one a file)
 *
 * Runs until killed; no parsing, no rates, no RRD file. Its CPU (its
 * /proc/PID/schedstat, as the bench reads the others') is what any
 * design pays here for the same files at the same rate. Each part wakes
 * at its own quarter of the second (wake .25, read .5, journal .75):
 * two readers of the same files at the same instant share warm caches
 * (side by side at 0 s offset 207-229 us a wake with the reads, alone
 * at .25, .5 and .75 s 284-315 us), and the floor is a sampler alone.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* the journal's record of the default set (its strace: 1,020 bytes) */
#define RECORD_BYTES 1020
#define SYNC_EVERY 5

static const char *const files[] = {
	"/proc/stat", "/proc/diskstats", "/proc/meminfo", "/proc/vmstat",
	"/proc/net/dev", "/proc/net/snmp", "/proc/pressure/cpu",
	"/proc/pressure/io", "/proc/pressure/memory",
};
#define NFILES (sizeof(files) / sizeof(*files))

static void wait_until(const struct timespec *at)
{
	struct timespec now, left;
	long long ns;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (at->tv_sec - now.tv_sec) * 1000000000LL + at->tv_nsec -
	     now.tv_nsec;
	if (ns <= 0)
		return;
	left.tv_sec = ns / 1000000000LL;
	left.tv_nsec = ns % 1000000000LL;
	ppoll(NULL, 0, &left, NULL);
}

int main(int argc, char **argv)
{
	static char buf[65536];
	int fd[NFILES], journal = -1, reads, k = 0;
	int one = argc == 4 && strcmp(argv[1], "file") == 0;
	long ms = one ? strtol(argv[3], NULL, 10) : 0;
	struct timespec at;

	if (argc < 2 || ms < 0 || ms > 999 ||
	    (strcmp(argv[1], "wake") && strcmp(argv[1], "read") &&
	     (strcmp(argv[1], "journal") || argc < 3) && !one)) {
		fprintf(stderr,
			"usage: samplefloor wake | read | journal FILE | file PATH MS (0-999)\n");
		return 2;
	}
	reads = strcmp(argv[1], "wake") != 0 && !one;
	for (size_t i = 0; i < NFILES; i++)
		fd[i] = reads ? open(files[i], O_RDONLY | O_CLOEXEC) : -1;
	if (one) {
		fd[0] = open(argv[2], O_RDONLY | O_CLOEXEC);
		if (fd[0] < 0) {
			perror(argv[2]);
			return 1;
		}
	} else if (argc > 2) {
		journal = open(argv[2], O_WRONLY | O_CREAT | O_APPEND |
				  O_CLOEXEC, 0644);
		if (journal < 0) {
			perror(argv[2]);
			return 1;
		}
	}
	memset(buf, 'j', sizeof(buf));
	clock_gettime(CLOCK_MONOTONIC, &at);
	at.tv_nsec = one ? ms * 1000000L :
		     (reads ? (argc > 2 ? 3 : 2) : 1) * 250000000L;
	for (;;) {
		at.tv_sec++;
		wait_until(&at);
		for (size_t i = 0; i < NFILES; i++)
			if (fd[i] >= 0 && pread(fd[i], buf, sizeof(buf), 0) < 0)
				return 1;
		if (journal < 0)
			continue;
		if (write(journal, buf, RECORD_BYTES) != RECORD_BYTES)
			return 1;
		if (++k % SYNC_EVERY == 0)
			fdatasync(journal);
	}
}
