/*
 * rrdcached.h - a real rrdcached for the unit tests that write through
 * one (test_logset, test_cached_reset): started on a unix socket under
 * their scratch directory, its output to /dev/null, writes held for an
 * hour (-w 3600) so what reaches the files is what a flush sent.
 */
#ifndef PERFLOG_TEST_RRDCACHED_H
#define PERFLOG_TEST_RRDCACHED_H

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Start rrdcached on addr ("unix:SOCK"), base directory base (-b, -B);
 * its pid once SOCK exists (5 s at most), or -1. */
static inline pid_t rrdcached_start(const char *base, const char *addr,
				    const char *sock)
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execlp("rrdcached", "rrdcached", "-g", "-l", addr, "-b", base,
		       "-B", "-w", "3600", "-f", "7200", (char *)NULL);
		_exit(127);
	}
	if (pid < 0)
		return -1;
	for (int i = 0; i < 100; i++) {
		struct stat st;

		if (stat(sock, &st) == 0)
			return pid;
		usleep(50000);
	}
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	return -1;
}

#endif
