/*
 * run_shim.c - the shim that starts, waits for and reaps the command of
 * `perflog run` (run_shim.h says why it exists).
 *
 * The shim blocks SIGCHLD and waits on a signalfd and its control pipe,
 * so it sleeps until a child ends or perflog run speaks: it costs the
 * command's tree nothing measurable.
 */
#define _GNU_SOURCE
#include "run_shim.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../process/process.h"

enum { SHIM_PID, SHIM_EXIT, SHIM_RUSAGE };

struct shim_msg {
	int type;
	int value;		/* pid, or wait status */
	int err;		/* SHIM_PID: errno of a failed exec */
	double t;		/* monotonic */
	struct rusage ru;
};

static void put(int fd, int type, int value, int err, const struct rusage *ru)
{
	struct shim_msg m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	m.value = value;
	m.err = err;
	m.t = util_monotonic();
	if (ru)
		m.ru = *ru;
	if (write(fd, &m, sizeof(m)) != (ssize_t)sizeof(m)) {
		/* perflog run is gone: nobody to tell */
	}
}

static int get(int fd, struct shim_msg *m)
{
	ssize_t n;

	do
		n = read(fd, m, sizeof(*m));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(*m) ? 0 : -1;
}

/* In the command, before exec: what perflog run was started with. */
static void exec_command(char **argv, int out, int err, const char *logset,
			 const int *sigs, const struct sigaction *orig,
			 size_t nsigs, int errfd)
{
	sigset_t none;
	int e;

	for (size_t i = 0; i < nsigs; i++)
		sigaction(sigs[i], &orig[i], NULL);
	/* perflog ignores SIGPIPE (perflog.c), and an ignored signal
	 * survives exec: the command gets the default, so a job it leaves
	 * behind writing to our pipes ends when we stop reading them
	 * (RUN_DRAIN, cmd_run.c) instead of writing into nothing for ever */
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	dup2(out, 1);
	dup2(err, 2);
	setenv("PERFLOG_LOGSET", logset, 1);
	execvp(argv[0], argv);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Start the command; tell perflog run its pid (and whether exec failed). */
static pid_t start_command(char **argv, int out, int err, const char *logset,
			   const int *sigs, const struct sigaction *orig,
			   size_t nsigs, int rep)
{
	int px[2], e = 0;
	pid_t pid;
	ssize_t n;

	if (pipe2(px, O_CLOEXEC) < 0) {
		put(rep, SHIM_PID, -1, errno, NULL);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close(px[0]);
		exec_command(argv, out, err, logset, sigs, orig, nsigs, px[1]);
	}
	close(px[1]);
	close(out);
	close(err);
	if (pid < 0) {
		put(rep, SHIM_PID, -1, errno, NULL);
		close(px[0]);
		return -1;
	}
	do	/* EOF: exec closed it, the command runs */
		n = read(px[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(px[0]);
	put(rep, SHIM_PID, (int)pid, n == (ssize_t)sizeof(e) ? e : 0, NULL);
	return pid;
}

static void shim_main(char **argv, int ctl, int rep, int out, int err,
		      const char *logset, const int *sigs,
		      const struct sigaction *orig, size_t nsigs)
{
	sigset_t chld;
	int sfd, ctl_open = 1, done = 0;
	pid_t cmd;
	char b = 0;

	prctl(PR_SET_NAME, "perflog-shim");
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	for (size_t i = 0; i < nsigs; i++)
		signal(sigs[i], SIG_IGN);	/* relayed to the command */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (read(ctl, &b, 1) != 1 || b != 'g')
		_exit(0);
	cmd = start_command(argv, out, err, logset, sigs, orig, nsigs, rep);
	for (;;) {
		struct pollfd p[2] = { { .fd = sfd, .events = POLLIN },
				       { .fd = ctl, .events = POLLIN } };
		struct signalfd_siginfo si;
		struct rusage ru;
		pid_t w;
		int st;

		while ((w = waitpid(-1, &st, WNOHANG)) > 0)
			if (w == cmd) {
				done = 1;
				put(rep, SHIM_EXIT, st, 0, NULL);
			}
		if (cmd < 0 && !done) {
			done = 1;
			put(rep, SHIM_EXIT, 127 << 8, 0, NULL);
		}
		if (done && !ctl_open)
			_exit(0);	/* perflog run is gone */
		if (poll(p, ctl_open ? 2 : 1, sfd < 0 ? 100 : -1) < 0 &&
		    errno != EINTR)
			_exit(1);
		while (sfd >= 0 && read(sfd, &si, sizeof(si)) > 0)
			;
		if (!ctl_open || !p[1].revents)
			continue;
		if (read(ctl, &b, 1) != 1) {
			ctl_open = 0;	/* perflog run died: see the
					 * command out */
		} else if (b == 'r') {
			getrusage(RUSAGE_CHILDREN, &ru);
			put(rep, SHIM_RUSAGE, 0, 0, &ru);
		} else if (b == 'q') {
			_exit(0);
		}
	}
}

int shim_start(struct shim *s, char **argv, int out, int err,
	       const int *close_fds, size_t nclose, const char *logset,
	       const int *sigs, const struct sigaction *orig, size_t nsigs,
	       struct perr *e)
{
	int ctl[2], rep[2];

	memset(s, 0, sizeof(*s));
	s->ctl = s->rep = -1;
	if (pipe2(ctl, O_CLOEXEC) < 0)
		return perr_set(e, "pipe: %s", strerror(errno));
	if (pipe2(rep, O_CLOEXEC) < 0) {
		close(ctl[0]);
		close(ctl[1]);
		return perr_set(e, "pipe: %s", strerror(errno));
	}
	fflush(NULL);
	s->pid = fork();
	if (s->pid < 0) {
		perr_set(e, "fork: %s", strerror(errno));
		close(ctl[0]), close(ctl[1]), close(rep[0]), close(rep[1]);
		return -1;
	}
	if (s->pid == 0) {
		close(ctl[1]);
		close(rep[0]);
		for (size_t i = 0; i < nclose; i++)
			close(close_fds[i]);
		shim_main(argv, ctl[0], rep[1], out, err, logset, sigs, orig,
			  nsigs);
		_exit(0);
	}
	close(ctl[0]);
	close(rep[1]);
	s->ctl = ctl[1];
	s->rep = rep[0];
	return 0;
}

int shim_go(struct shim *s)
{
	struct shim_msg m;

	s->t0 = util_monotonic();
	if (write(s->ctl, "g", 1) != 1 || get(s->rep, &m) < 0 ||
	    m.type != SHIM_PID)
		return -1;
	s->cmd = m.value > 0 ? (pid_t)m.value : 0;
	s->exec_errno = m.err;
	return 0;
}

int shim_fd(const struct shim *s)
{
	return s->rep;
}

int shim_read(struct shim *s)
{
	struct shim_msg m;

	if (get(s->rep, &m) < 0)
		return -1;
	if (m.type == SHIM_EXIT) {
		s->status = m.value;
		s->exited = 1;
		s->t1 = m.t;
	}
	return s->exited;
}

int shim_rusage(struct shim *s)
{
	struct shim_msg m;

	if (s->pid <= 0 || write(s->ctl, "r", 1) != 1)
		return -1;
	while (get(s->rep, &m) == 0) {
		if (m.type == SHIM_EXIT && !s->exited) {
			s->status = m.value;
			s->exited = 1;
			s->t1 = m.t;
		} else if (m.type == SHIM_RUSAGE) {
			s->ru = m.ru;
			return 0;
		}
	}
	return -1;
}

void shim_finish(struct shim *s)
{
	if (s->pid <= 0)
		return;
	if (write(s->ctl, "q", 1) != 1) {
		/* it is gone already */
	}
	close(s->ctl);
	close(s->rep);
	s->ctl = s->rep = -1;
	while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
		;
	s->pid = 0;
}

/* One /proc/PID/stat, parsed; -1 when the process is gone. */
static int read_stat(pid_t pid, struct pidstat *ps)
{
	char path[64], buf[1024];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return pidstat_parse(buf, ps);
}

static int by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct pidstat *)a)->pid;
	pid_t y = ((const struct pidstat *)b)->pid;

	return (x > y) - (x < y);
}

long shim_left(const struct shim *s, pid_t *pid, char (*comm)[16],
	       size_t max)
{
	struct pidstat *all = NULL;
	size_t n = 0, cap = 0;
	long found = 0;
	struct dirent *d;
	DIR *dir;

	if (s->pid <= 0 || !(dir = opendir("/proc")))
		return 0;
	while ((d = readdir(dir))) {
		struct pidstat ps;
		char *end;
		long p = strtol(d->d_name, &end, 10);

		if (p <= 0 || *end || read_stat((pid_t)p, &ps) < 0 ||
		    ps.state == 'Z')
			continue;
		if (n == cap) {
			size_t nc = cap ? 2 * cap : 512;
			struct pidstat *v = realloc(all, nc * sizeof(*v));

			if (!v)
				break;
			all = v;
			cap = nc;
		}
		all[n++] = ps;
	}
	closedir(dir);
	qsort(all, n, sizeof(*all), by_pid);
	/* a descendant: its parents lead to the shim (a chain is at most
	 * as long as the table) */
	for (size_t i = 0; i < n; i++) {
		pid_t up = all[i].ppid;
		size_t hops = 0;

		if (all[i].pid == s->pid)
			continue;
		while (up > 1 && up != s->pid && hops++ < n) {
			struct pidstat key = { .pid = up };
			const struct pidstat *k = bsearch(&key, all, n,
							  sizeof(*all), by_pid);

			up = k ? k->ppid : 0;
		}
		if (up != s->pid)
			continue;
		if ((size_t)found < max) {
			pid[found] = all[i].pid;
			memcpy(comm[found], all[i].comm, sizeof(comm[0]));
		}
		found++;
	}
	free(all);
	return found;
}
