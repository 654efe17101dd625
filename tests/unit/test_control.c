/*
 * test_control.c - the client's side of a collector's control socket
 * (collector/control.h), against a fake collector on a scratch runtime
 * directory.
 * - control_gone: a collector that is stopping is gone to the run that
 *   logs through it. Its control socket goes first, its pid a moment
 *   later: a `perflog run` whose command ended in that moment printed
 *   three errors ("sync", "unwatch", "stopping the collector": does not
 *   answer) and wrote no log.ended=early (t3130 on a loaded machine),
 *   where it says once that the log ends early.
 * - control_request: a request the collector refused to wait for
 *   ("request timed out": it waits SERVER_MIN_WAIT for a request near a
 *   sample's deadline) is sent again; 8 `perflog mark`s at once beside a
 *   load lost one to "Broken pipe" (t3000 25).
 */
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../collector/control.h"
#include "../../common/util.h"
#include "tap.h"

static void test_gone(const char *dir)
{
	char sock[PATH_MAX];
	struct collector_info c;
	FILE *f;

	memset(&c, 0, sizeof(c));
	c.pid = getpid();
	util_strlcpy(c.rundir, dir, sizeof(c.rundir));
	snprintf(sock, sizeof(sock), "%s/%ld.sock", dir, (long)c.pid);
	f = fopen(sock, "w");
	OK(f != NULL, "a socket's name in place");
	if (f)
		fclose(f);
	EQ_INT(control_gone(&c), 0, "alive, its socket there: not gone");
	unlink(sock);
	EQ_INT(control_gone(&c), 1, "alive, its socket removed: stopping, gone");
	c.pid = 0x7ffffff0;	/* no such pid */
	EQ_INT(control_gone(&c), 1, "its process gone");
}

/* A fake collector at dir/PID.sock: the first `refuse` connections are
 * answered as server.c answers a request not in by its deadline (before
 * reading it), the next with "ok fine" once its line is in. */
static pid_t fake_collector(const char *dir, pid_t pid, int refuse)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	pid_t child;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%ld.sock", dir, (long)pid);
	unlink(sa.sun_path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 4) < 0)
		return -1;
	child = fork();
	if (child) {
		close(fd);
		return child;
	}
	for (int i = 0; i <= refuse; i++) {
		int cfd = accept(fd, NULL, NULL);
		char line[256];
		size_t got = 0;

		if (cfd < 0)
			_exit(1);
		if (i < refuse) {
			(void)!write(cfd, "error request timed out\n", 24);
			close(cfd);
			continue;
		}
		while (got < sizeof(line) - 1) {
			ssize_t r = read(cfd, line + got, 1);

			if (r <= 0 || line[got] == '\n')
				break;
			got++;
		}
		(void)!write(cfd, "ok fine\n", 8);
		close(cfd);
	}
	_exit(0);
}

static void test_refused(const char *dir)
{
	struct collector_info c;
	char reply[64] = "";
	struct perr e;
	pid_t srv;
	int st;

	memset(&c, 0, sizeof(c));
	c.pid = getpid();
	util_strlcpy(c.rundir, dir, sizeof(c.rundir));
	srv = fake_collector(dir, c.pid, 2);
	OK(srv > 0, "a fake collector");
	if (srv <= 0)
		return;
	EQ_INT(control_request(&c, "sync", reply, sizeof(reply), &e), 0,
	       "refused twice ('request timed out'), asked again: ok");
	EQ_STR(reply, "fine", "... and its reply read");
	kill(srv, SIGKILL);	/* done, or waiting for a try that never came */
	waitpid(srv, &st, 0);

	srv = fake_collector(dir, c.pid, 50);
	if (srv <= 0)
		return;
	EQ_INT(control_request(&c, "sync", reply, sizeof(reply), &e), -1,
	       "refused every time: an error, after a few tries");
	EQ_STR(e.msg, "request timed out", "... saying why");
	kill(srv, SIGKILL);
	waitpid(srv, &st, 0);
}

int main(void)
{
	char dir[] = "/tmp/perflog-control.XXXXXX", sock[PATH_MAX];

	if (!mkdtemp(dir)) {
		OK(0, "a scratch run directory");
		return done_testing();
	}
	test_gone(dir);
	test_refused(dir);
	snprintf(sock, sizeof(sock), "%s/%ld.sock", dir, (long)getpid());
	unlink(sock);
	rmdir(dir);
	return done_testing();
}
