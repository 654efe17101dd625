/*
 * test_cached_reset.c - rrdcached resets the connection with an update
 * unread (it was going away: a restart, a stop), and no row is lost.
 *
 * librrd's client hands back its previous answer when recv fails
 * (logs/cachedconn.h), so that update was reported done and its rows
 * dropped: t6110 lost three rows about one run in five beside load, and a
 * daemon back within a second would have lost them with no failure ever
 * said. Here a relay stands between the writer and a real rrdcached; at
 * the RESET_AT-th update of the writer's connection it closes that
 * connection with the request unread (the kernel resets it), and takes
 * the next connection through as before. Every row must be in the file
 * at the end, and the failure must have been seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../logs/logset.h"
#include "rrdcached.h"
#include "tap.h"

#define NSAMPLES 20
#define RESET_AT 8	/* the writer's update the relay does not pass */

static char scratch[] = "/tmp/perflog-cachedreset-XXXXXX";

static double mem_value(int i, int k)
{
	return (double)(i * 1000 + k) + 0.5;
}

static int listen_on(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(fd, 8) < 0)
		return -1;
	return fd;
}

static int connect_to(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		return -1;
	return fd;
}

/* Pass one connection both ways; with reset_at, close it unread at that
 * update. (librrd sends a request whole and waits for its answer, so a
 * peek sees one request at a time.) */
static void relay(int c, const char *daemon, int reset_at)
{
	int d = connect_to(daemon), updates = 0;
	char buf[8192];

	if (d < 0)
		_exit(1);
	for (;;) {
		struct pollfd p[2] = { { .fd = c, .events = POLLIN },
				       { .fd = d, .events = POLLIN } };
		ssize_t n;

		if (poll(p, 2, -1) < 0)
			_exit(1);
		if (p[0].revents) {
			n = recv(c, buf, sizeof(buf) - 1, MSG_PEEK);
			if (n <= 0)
				_exit(0);
			buf[n] = '\0';
			if (!strncasecmp(buf, "update ", 7) &&
			    ++updates == reset_at)
				_exit(0);	/* closed unread: a reset */
			n = read(c, buf, sizeof(buf));
			if (n <= 0 || write(d, buf, (size_t)n) != n)
				_exit(0);
		}
		if (p[1].revents) {
			n = read(d, buf, sizeof(buf));
			if (n <= 0 || write(c, buf, (size_t)n) != n)
				_exit(0);
		}
	}
}

/* The relay: the first connection (the writer's) is reset at RESET_AT;
 * the rest pass whole. */
static pid_t start_relay(const char *at, const char *daemon)
{
	int l = listen_on(at);
	pid_t pid;

	if (l < 0)
		return -1;
	pid = fork();
	if (pid != 0) {
		close(l);
		return pid;
	}
	signal(SIGCHLD, SIG_IGN);	/* no zombies of the relays */
	for (int n = 0;; n++) {
		int c = accept(l, NULL, NULL);

		if (c < 0)
			_exit(1);
		if (fork() == 0) {
			close(l);
			relay(c, daemon, n == 0 ? RESET_AT : 0);
		}
		close(c);
	}
}

static void check_rows(const char *dir, time_t start)
{
	struct logset *ls;
	struct logset_series s;
	struct perr e;
	size_t idx = 0;
	int missing = 0;

	if (logset_open(dir, &ls, &e) < 0 ||
	    logset_fetch(ls, &idx, 1, start + 1, start + NSAMPLES, "AVERAGE",
			 1, &s, &e) < 0) {
		OK(0, "the set reads back");
		printf("# %s\n", e.msg);
		return;
	}
	for (int i = 1; i <= NSAMPLES; i++) {
		size_t r = (size_t)(start + i - s.first);
		int k = logset_meta(ls)->counters[0].def->index;

		if (r >= s.rows || fabs(s.values[r] - mem_value(i, k)) > 1e-6) {
			if (missing++ < 5)
				printf("# row %d: got %g, want %g\n", i,
				       r < s.rows ? s.values[r] : NAN,
				       mem_value(i, k));
		}
	}
	EQ_INT(missing, 0, "every row is in the file, the one the daemon never read too");
	logset_series_free(&s);
	logset_close(ls);
}

int main(void)
{
	char base[512], dsock[600], daddr[640], rsock[600], raddr[640];
	char dir[700];
	struct logset_options opt = { .interval = 1, .retention = 3600 };
	struct logset_writer *w;
	struct instance_values inst[2];
	struct sample s = { .inst = inst, .cap = 2 };
	struct perr e;
	int mem[2] = { 0, 1 }, failed = 0;
	pid_t daemon, relay_pid;
	time_t start;

	unsetenv("RRDCACHED_ADDRESS");
	signal(SIGPIPE, SIG_IGN);	/* as perflog's main */
	if (!mkdtemp(scratch)) {
		OK(0, "mkdtemp");
		return done_testing();
	}
	snprintf(base, sizeof(base), "%s/cached", scratch);
	mkdir(base, 0755);
	snprintf(dsock, sizeof(dsock), "%s/daemon.sock", scratch);
	snprintf(daddr, sizeof(daddr), "unix:%s", dsock);
	snprintf(rsock, sizeof(rsock), "%s/relay.sock", scratch);
	snprintf(raddr, sizeof(raddr), "unix:%s", rsock);
	daemon = rrdcached_start(base, daddr, dsock);
	OK(daemon > 0, "rrdcached listening");
	relay_pid = daemon > 0 ? start_relay(rsock, dsock) : -1;
	OK(relay_pid > 0, "the relay listening");
	if (daemon <= 0 || relay_pid <= 0)
		goto out;

	/* a minute ago, aligned: nothing waits for the clock */
	start = time(NULL) - 60;
	opt.parent = base;
	opt.name = "reset";
	opt.rrdcached = raddr;
	opt.start = start;
	if (logset_create(&opt, &w, &e) < 0 ||
	    logset_add_instance(w, OBJ_MEMORY, "", mem, 2, &e) < 0 ||
	    logset_flush(w, &e) < 0) {
		OK(0, "a set through the relay");
		printf("# %s\n", e.msg);
		goto out;
	}
	for (int i = 1; i <= NSAMPLES; i++) {
		s.n = 1;
		inst[0].object = OBJ_MEMORY;
		inst[0].instance[0] = '\0';
		for (int k = 0; k < CATALOG_MAX_PER_OBJECT; k++)
			inst[0].v[k] = mem_value(i, k);
		if (logset_write_sample(w, (double)(start + i), &s, &e) < 0 &&
		    !failed++)
			printf("# sample %d: %s\n", i, e.msg);
	}
	OK(failed >= 1, "the update the daemon never read is a failure, said");
	OK(logset_close_writer(w, (double)(start + NSAMPLES + 1), &e) == 0,
	   "the set closes through the daemon");
	snprintf(dir, sizeof(dir), "%s/reset", base);
	check_rows(dir, start);
out:
	if (relay_pid > 0) {
		kill(relay_pid, SIGKILL);
		waitpid(relay_pid, NULL, 0);
	}
	if (daemon > 0) {
		kill(daemon, SIGTERM);
		waitpid(daemon, NULL, 0);
	}
	if (rmtree(scratch) != 0)
		printf("# unable to remove %s\n", scratch);
	return done_testing();
}
