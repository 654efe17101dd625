/*
 * cmd_run.c - `perflog run [-c FILE] [-o DIR] [-i SECONDS] [-l LABEL]
 * [--client NAME] -- CMD [ARG...]`: log around one command (a backup, usually).
 *
 *   1. join the collector logging to -o DIR when DIR is a running log set,
 *      else start one (`perflog start -c -o -i`, run as /proc/self/exe so
 *      the very same binary answers) and read the log set path it prints
 *   2. become a child subreaper (after the collector daemonized, so the
 *      daemon is not ours) and ask the collector to "watch" our own pid:
 *      Process(LABEL) is this process and every descendant, and orphans
 *      come back to us so their work is still counted when reaped
 *   3. begin marker (session LABEL, text = the command line)
 *   4. fork+exec CMD: stdin inherited; stdout and stderr through two pipes
 *      that a poll loop copies both to our own stdout/stderr and to
 *      LOGSET/output-LABEL.log (appended). The command therefore sees
 *      pipes, not a terminal, even when run from one: programs that buffer
 *      fully on a pipe show their output in chunks (no pty is used, which
 *      keeps stdin, job control and Ctrl-C simple). Order is kept within
 *      each stream, and between them as far as the reads interleave.
 *   5. signals: SIGTERM, and SIGINT/SIGQUIT sent with kill(2) to us, are
 *      relayed to the command; SIGINT/SIGQUIT from the terminal (si_code
 *      SI_KERNEL) are not, since the command, in our process group, got
 *      them already. Either way this process does not die of them: the
 *      books must be closed. (A kill -INT to the whole process group
 *      reaches the command twice: once directly, once relayed.)
 *   6. on the command's exit: wait4 (rusage), reap adopted orphans, find a
 *      backup client's summary in the captured output (client.h: the client
 *      --client names, else CMD's, else any known), "sync"
 *      (one more sample, so the last interval is logged), end marker with
 *      the figures below, "unwatch", stop the collector if we started it,
 *      and exit with the command's status: its exit code, 128+N for a
 *      signal N, 127 when it could not be run.
 *
 * End marker extras (markers.tsv, after TEXT; documented in README.md):
 *   cmd=COMMAND LINE  status=N  signal=N (when killed)  duration=S.mmm
 *   output=output-LABEL.log
 *   rusage.utime=S.mmm rusage.stime=S.mmm rusage.maxrss_kb=N
 *   rusage.minflt=N rusage.majflt=N rusage.inblock=N rusage.oublock=N
 *   rusage.nvcsw=N rusage.nivcsw=N   (the command and reaped descendants)
 *   client=NAME, client.*  the backup client's summary, see client.h
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../collector/control.h"
#include "../commands.h"
#include "../counters/source.h"
#include "../client/client.h"

#define ME "perflog run"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perflog run [-c FILE] [-o DIR] [-i SECONDS] [-l LABEL] [--client NAME] -- CMD [ARG...]\n"
		"  -c FILE     settings file for the collector started here\n"
		"  -o DIR      a running log set to join, or the directory under which\n"
		"              a new log set is created (default ./logs)\n"
		"  -i SECONDS  sampling interval of the collector started here\n"
		"  -l LABEL    session name and Process instance (default: CMD's name)\n"
		"  --client NAME  read this backup client's summary from the output\n"
		"              (default: the client CMD names, else any known; none: no client)\n"
		"Runs CMD between a begin and an end marker, keeps a copy of its output\n"
		"in the log set (output-LABEL.log), logs its process tree as\n"
		"Process(LABEL), and exits with CMD's status (127: cannot run it,\n"
		"128+N: killed by signal N). CMD gets PERFLOG_LOGSET to mark its own\n"
		"phases (perflog mark).\n"
		"Known backup clients (their end-of-run figures go to the end marker):\n");
	for (size_t i = 0; i < client_count; i++)
		fprintf(f, "  %-10s %s\n", client_table[i].name, client_table[i].output);
}

/* ---- signals: the handler records, the loop relays (STYLE 7) ---- */

static volatile sig_atomic_t g_pending[NSIG];

static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	/* from the terminal: the command (same process group) has it too */
	if ((sig == SIGINT || sig == SIGQUIT) && si && si->si_code == SI_KERNEL)
		return;
	g_pending[sig] = 1;
}

static const int relayed[] = { SIGINT, SIGTERM, SIGQUIT, SIGHUP };
#define NRELAYED (sizeof(relayed) / sizeof(relayed[0]))

/* ---- the collector ---- */

/* Run `perflog start` and read the log set path it prints. */
static int start_collector(const char *file, const char *dir,
			   const char *interval, char *logset, size_t n)
{
	const char *args[10];
	int k = 0, pfd[2];
	args[k++] = "perflog";
	args[k++] = "start";
	if (file)
		args[k++] = "-c", args[k++] = file;
	if (dir)
		args[k++] = "-o", args[k++] = dir;
	if (interval)
		args[k++] = "-i", args[k++] = interval;
	args[k] = NULL;
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		fprintf(stderr, ME ": pipe: %s\n", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, ME ": fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		dup2(pfd[1], 1);
		execv("/proc/self/exe", (char *const *)args);
		fprintf(stderr, ME ": cannot run /proc/self/exe: %s\n",
			strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	size_t got = 0;
	char buf[PATH_MAX + 64];
	for (;;) {
		ssize_t r = read(pfd[0], buf + got, sizeof(buf) - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
		if (got == sizeof(buf) - 1)
			break;
	}
	close(pfd[0]);
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return -1;	/* perflog start said why, in one line */
	if (!buf[0]) {
		fprintf(stderr, ME ": perflog start printed no log set\n");
		return -1;
	}
	return util_strlcpy(logset, buf, n);
}

/* ---- small helpers ---- */

/* A label safe as a file name part and an instance name. */
static void make_label(char *out, size_t n, const char *src)
{
	const char *base = strrchr(src, '/');
	base = base && base[1] ? base + 1 : src;
	size_t k = 0;
	for (const char *p = base; *p && k + 1 < n && k < SRC_NAME_MAX - 1; p++) {
		unsigned char c = (unsigned char)*p;
		int okc = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '_' ||
			  c == '-' || c == '+';
		out[k++] = okc ? (char)c : '_';
	}
	out[k] = '\0';
	if (!k || !strcmp(out, ".") || !strcmp(out, ".."))
		util_strlcpy(out, "cmd", n);
}

/* The command line as a shell would read it back (single quotes where
 * needed). malloc'ed. */
static char *join_cmdline(char **argv)
{
	size_t len = 1;
	for (char **a = argv; *a; a++)
		len += 4 * strlen(*a) + 3;
	char *s = malloc(len), *p = s;
	if (!s)
		return NULL;
	for (char **a = argv; *a; a++) {
		if (a != argv)
			*p++ = ' ';
		int plain = **a != '\0';
		for (const char *c = *a; *c; c++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789-_./=:,+@%", *c))
				plain = 0;
		if (plain) {
			p = stpcpy(p, *a);
			continue;
		}
		*p++ = '\'';
		for (const char *c = *a; *c; c++) {
			if (*c == '\'')
				p = stpcpy(p, "'\\''");
			else
				*p++ = *c;
		}
		*p++ = '\'';
	}
	*p = '\0';
	return s;
}

static void write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;	/* a closed stdout must not stop the run */
		buf += w;
		n -= (size_t)w;
	}
}

/*
 * What the client parsers see: the output's lines they need
 * (client_line_wanted), each cut at 4 KiB, up to 16 MiB in all. A verbose
 * backup prints a line per file; this keeps memory bounded while keeping
 * every summary of a multi-run script.
 */
struct capture {
	char *keep;
	size_t nkeep, capkeep;
	char line[4096];
	size_t nline;
};

#define CAPTURE_MAX (16u << 20)

static void capture_line_end(struct capture *c)
{
	if (client_line_wanted(c->line, c->nline) &&
	    c->nkeep + c->nline + 1 <= CAPTURE_MAX) {
		if (c->nkeep + c->nline + 1 > c->capkeep) {
			size_t nc = c->capkeep ? c->capkeep : 65536;
			while (nc < c->nkeep + c->nline + 1)
				nc *= 2;
			char *nk = realloc(c->keep, nc);
			if (!nk)
				goto out;
			c->keep = nk;
			c->capkeep = nc;
		}
		memcpy(c->keep + c->nkeep, c->line, c->nline);
		c->nkeep += c->nline;
		c->keep[c->nkeep++] = '\n';
	}
out:
	c->nline = 0;
}

static void capture_feed(struct capture *c, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			capture_line_end(c);
			continue;
		}
		if (c->nline < sizeof(c->line))
			c->line[c->nline++] = buf[i];
	}
}

/* ---- extras ---- */

struct extras {
	char **v;
	size_t n, cap;
};

static void extra_add(struct extras *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void extra_add(struct extras *x, const char *fmt, ...)
{
	if (x->n == x->cap) {
		size_t nc = x->cap ? 2 * x->cap : 32;
		char **nv = realloc(x->v, nc * sizeof(*nv));
		if (!nv)
			return;
		x->v = nv;
		x->cap = nc;
	}
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) >= 0)
		x->v[x->n++] = s;
	va_end(ap);
}

static void rusage_add(struct rusage *sum, const struct rusage *r)
{
	timeradd(&sum->ru_utime, &r->ru_utime, &sum->ru_utime);
	timeradd(&sum->ru_stime, &r->ru_stime, &sum->ru_stime);
	if (r->ru_maxrss > sum->ru_maxrss)
		sum->ru_maxrss = r->ru_maxrss;
	sum->ru_minflt += r->ru_minflt;
	sum->ru_majflt += r->ru_majflt;
	sum->ru_inblock += r->ru_inblock;
	sum->ru_oublock += r->ru_oublock;
	sum->ru_nvcsw += r->ru_nvcsw;
	sum->ru_nivcsw += r->ru_nivcsw;
}

/* Reap every child that has exited (adopted orphans); with block, wait
 * for all of them. */
static void reap_orphans(pid_t except, struct rusage *sum, int block)
{
	for (;;) {
		int st;
		struct rusage ru;
		pid_t p = wait4(-1, &st, block ? 0 : WNOHANG, &ru);
		if (p < 0 && errno == EINTR)
			continue;
		if (p <= 0)
			return;
		if (p != except)
			rusage_add(sum, &ru);
	}
}

/* ---- the command ---- */

struct child {
	pid_t pid;
	int out, err;		/* read ends, -1 once at EOF */
	int exec_errno;		/* errno of a failed exec, else 0 */
	int status;		/* wait status once reaped */
	int reaped;
	struct rusage ru;
	double t0, t1;		/* monotonic start, end */
};

static int spawn(struct child *c, char **argv, const char *logset,
		 const struct sigaction *orig)
{
	int po[2], pe[2], px[2];
	if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0 ||
	    pipe2(px, O_CLOEXEC) < 0) {
		fprintf(stderr, ME ": pipe: %s\n", strerror(errno));
		return -1;
	}
	fflush(NULL);
	c->t0 = util_monotonic();
	c->pid = fork();
	if (c->pid < 0) {
		fprintf(stderr, ME ": fork: %s\n", strerror(errno));
		return -1;
	}
	if (c->pid == 0) {
		/* the dispositions and mask we were started with */
		for (size_t i = 0; i < NRELAYED; i++)
			sigaction(relayed[i], &orig[i], NULL);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		setenv("PERFLOG_LOGSET", logset, 1);
		execvp(argv[0], argv);
		int err = errno;
		if (write(px[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	close(px[1]);
	c->out = po[0];
	c->err = pe[0];
	int err;
	ssize_t r;
	while ((r = read(px[0], &err, sizeof(err))) < 0 && errno == EINTR)
		;
	c->exec_errno = r == (ssize_t)sizeof(err) ? err : 0;
	close(px[0]);
	return 0;
}

/* Copy the command's output until it exits and its pipes close (or stay
 * idle for 2 s after its exit: a daemon it left behind may hold them). */
static void pump(struct child *c, int logfd, struct capture *cap,
		 struct rusage *orphans)
{
	char buf[65536];
	double idle_since = 0;
	while (c->out >= 0 || c->err >= 0 || !c->reaped) {
		for (size_t i = 0; i < NRELAYED; i++)
			if (g_pending[relayed[i]]) {
				g_pending[relayed[i]] = 0;
				if (!c->reaped)
					kill(c->pid, relayed[i]);
			}
		struct pollfd p[2];
		int np = 0;
		if (c->out >= 0)
			p[np++] = (struct pollfd){ .fd = c->out, .events = POLLIN };
		if (c->err >= 0)
			p[np++] = (struct pollfd){ .fd = c->err, .events = POLLIN };
		int r = np ? poll(p, (nfds_t)np, 100) : (usleep(100000), 0);
		if (r > 0) {
			idle_since = 0;
			for (int i = 0; i < np; i++) {
				if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				ssize_t n = read(p[i].fd, buf, sizeof(buf));
				if (n < 0 && errno == EINTR)
					continue;
				int *fdp = p[i].fd == c->out ? &c->out : &c->err;
				if (n <= 0) {
					close(*fdp);
					*fdp = -1;
					continue;
				}
				write_all(fdp == &c->out ? 1 : 2, buf, (size_t)n);
				if (logfd >= 0)
					write_all(logfd, buf, (size_t)n);
				capture_feed(cap, buf, (size_t)n);
			}
		}
		if (!c->reaped) {
			int st;
			pid_t w = wait4(c->pid, &st, WNOHANG, &c->ru);
			if (w == c->pid) {
				c->reaped = 1;
				c->status = st;
				c->t1 = util_monotonic();
			}
		}
		if (c->reaped) {
			reap_orphans(c->pid, orphans, 0);
			double now = util_monotonic();
			if (r == 0 && !idle_since)
				idle_since = now;
			if (idle_since && now - idle_since > 2.0)
				break;
		}
	}
	if (c->out >= 0)
		close(c->out);
	if (c->err >= 0)
		close(c->err);
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "client", required_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	const char *file = NULL, *dir = NULL, *interval = NULL, *label_arg = NULL;
	const char *client_arg = NULL;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+c:o:i:l:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': file = optarg; break;
		case 'o': dir = optarg; break;
		case 'i': interval = optarg; break;
		case 'l': label_arg = optarg; break;
		case 'C': client_arg = optarg; break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, ME ": bad option '%s' (see perflog run --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, ME ": CMD missing (perflog run [OPTIONS] -- CMD [ARG...])\n");
		return 2;
	}
	char **cmd = argv + optind;
	const struct client_def *forced = client_find(client_arg);
	if (client_arg && !forced && strcmp(client_arg, "none")) {
		fprintf(stderr, ME ": unknown client '%s' (see perflog run --help)\n",
			client_arg);
		return 2;
	}
	char label[SRC_NAME_MAX];
	make_label(label, sizeof(label), label_arg ? label_arg : cmd[0]);

	/* 1. join or start a collector */
	struct perr e;
	struct collector_info col;
	int started = 0;
	if (dir && control_find(dir, &col, &e) == 0) {
		if (file || interval)
			fprintf(stderr, ME ": joining the collector logging to '%s'; -c and -i ignored\n",
				col.logset);
	} else {
		char logset[PATH_MAX];
		if (start_collector(file, dir, interval, logset, sizeof(logset)) < 0)
			return 1;
		started = 1;
		if (control_find(logset, &col, &e) < 0) {
			fprintf(stderr, ME ": %s\n", e.msg);
			return 1;
		}
	}

	/* 2. subreaper, signals, watch */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		fprintf(stderr, ME ": cannot become a subreaper (%s); orphans' work may be lost\n",
			strerror(errno));
	struct sigaction orig[NRELAYED];
	for (size_t i = 0; i < NRELAYED; i++) {
		sigaction(relayed[i], NULL, &orig[i]);
		/* ignored when we started (a background job of a script):
		 * stay so, as a shell would, and so will the command */
		if (orig[i].sa_handler == SIG_IGN && relayed[i] != SIGTERM)
			continue;
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_signal;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		sigaction(relayed[i], &sa, NULL);
	}
	char req[128];
	snprintf(req, sizeof(req), "watch %ld\t%s", (long)getpid(), label);
	int watching = control_request(&col, req, NULL, 0, &e) == 0;
	if (!watching)
		fprintf(stderr, ME ": Process(%s) not logged: %s\n", label, e.msg);

	/* 3. begin marker */
	char *cmdline = join_cmdline(cmd);
	if (!cmdline) {
		fprintf(stderr, ME ": out of memory\n");
		return 1;
	}
	if (control_mark(col.logset, MARK_BEGIN, label, cmdline, NULL, 0, &e) < 0)
		fprintf(stderr, ME ": begin marker: %s\n", e.msg);

	/* 4. the command, its output teed into the log set */
	char outname[SRC_NAME_MAX + 16], outpath[PATH_MAX + 96];
	snprintf(outname, sizeof(outname), "output-%s.log", label);
	snprintf(outpath, sizeof(outpath), "%s/%s", col.logset, outname);
	int logfd = open(outpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (logfd < 0)
		fprintf(stderr, ME ": unable to open '%s': %s (output not kept)\n",
			outpath, strerror(errno));
	struct child ch;
	memset(&ch, 0, sizeof(ch));
	ch.out = ch.err = -1;
	struct capture cap;
	memset(&cap, 0, sizeof(cap));
	struct rusage orphans;
	memset(&orphans, 0, sizeof(orphans));
	int status;
	if (spawn(&ch, cmd, col.logset, orig) < 0) {
		status = 127;
	} else {
		pump(&ch, logfd, &cap, &orphans);
		if (!ch.reaped) {	/* gave up on the pipes first: cannot be */
			while (wait4(ch.pid, &ch.status, 0, &ch.ru) < 0 &&
			       errno == EINTR)
				;
			ch.t1 = util_monotonic();
		}
		reap_orphans(ch.pid, &orphans, 0);
		if (ch.exec_errno) {
			fprintf(stderr, ME ": cannot run '%s': %s\n", cmd[0],
				strerror(ch.exec_errno));
			status = 127;
		} else if (WIFSIGNALED(ch.status)) {
			status = 128 + WTERMSIG(ch.status);
		} else {
			status = WEXITSTATUS(ch.status);
		}
	}
	capture_line_end(&cap);
	if (logfd >= 0)
		close(logfd);

	/* 6. close the books */
	struct client_list sums;
	memset(&sums, 0, sizeof(sums));
	long nsum = 0;
	if (cap.nkeep && !(client_arg && !forced))
		nsum = client_detect(cap.keep, cap.nkeep, forced,
				     client_by_command(cmd), &sums);
	free(cap.keep);
	if (forced && nsum == 0)
		fprintf(stderr, ME ": no %s summary in the output\n", forced->name);
	size_t nclient = 0;
	char **client = client_extras(&sums, &nclient);
	client_list_free(&sums);

	if (watching && control_request(&col, "sync", NULL, 0, &e) < 0)
		fprintf(stderr, ME ": sync: %s\n", e.msg);

	struct rusage ru = ch.ru;
	rusage_add(&ru, &orphans);
	struct extras x = { 0 };
	extra_add(&x, "cmd=%s", cmdline);
	extra_add(&x, "status=%d", status);
	if (!ch.exec_errno && ch.reaped && WIFSIGNALED(ch.status))
		extra_add(&x, "signal=%d", WTERMSIG(ch.status));
	extra_add(&x, "duration=%.3f", ch.t1 > ch.t0 ? ch.t1 - ch.t0 : 0.0);
	if (logfd >= 0)
		extra_add(&x, "output=%s", outname);
	extra_add(&x, "rusage.utime=%.3f",
		  ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6);
	extra_add(&x, "rusage.stime=%.3f",
		  ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	extra_add(&x, "rusage.maxrss_kb=%ld", ru.ru_maxrss);
	extra_add(&x, "rusage.minflt=%ld", ru.ru_minflt);
	extra_add(&x, "rusage.majflt=%ld", ru.ru_majflt);
	extra_add(&x, "rusage.inblock=%ld", ru.ru_inblock);
	extra_add(&x, "rusage.oublock=%ld", ru.ru_oublock);
	extra_add(&x, "rusage.nvcsw=%ld", ru.ru_nvcsw);
	extra_add(&x, "rusage.nivcsw=%ld", ru.ru_nivcsw);
	for (size_t i = 0; i < nclient; i++)
		extra_add(&x, "%s", client[i]);
	client_extras_free(client, nclient);

	char text[64];
	if (status == 127 && (ch.exec_errno || ch.pid <= 0))
		snprintf(text, sizeof(text), "cannot run");
	else if (status > 128 && ch.reaped && WIFSIGNALED(ch.status))
		snprintf(text, sizeof(text), "killed by signal %d",
			 WTERMSIG(ch.status));
	else
		snprintf(text, sizeof(text), "exit %d", status);
	if (control_mark(col.logset, MARK_END, label, text,
			 (const char *const *)x.v, x.n, &e) < 0)
		fprintf(stderr, ME ": end marker: %s\n", e.msg);
	for (size_t i = 0; i < x.n; i++)
		free(x.v[i]);
	free(x.v);
	free(cmdline);

	if (watching) {
		snprintf(req, sizeof(req), "unwatch %ld", (long)getpid());
		if (control_request(&col, req, NULL, 0, &e) < 0)
			fprintf(stderr, ME ": unwatch: %s\n", e.msg);
	}
	if (started && control_stop(&col, &e) < 0)
		fprintf(stderr, ME ": stopping the collector: %s\n", e.msg);
	return status;
}
