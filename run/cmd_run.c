/*
 * cmd_run.c - `perflog run [-c FILE] [-o DIR] [-i SECONDS] [-l LABEL]
 * [--client NAME] [--output SIZE] [--server HOST[:DIR]]... [--server-watch
 * SPEC] -- CMD [ARG...]`: log around one command (a backup, usually); the
 * servers' log sets get the session too (run_remote.h).
 *
 *   1. join the collector logging to -o DIR or under it (the directory
 *      `perflog start -o DIR` was given), else start one (`perflog start
 *      --early`, run as /proc/self/exe so the very same binary answers);
 *      finding and starting are done under a lock, so runs started
 *      together share one collector
 *   2. a cgroup of the command's own, below perflog run's (cgroup.h), when
 *      the host allows it; the shim (run_shim.h) is forked and put in it
 *   3. "watch" the shim's tree: Process(LABEL), LABEL made unique by the
 *      collector (a second "job" at once is "job-2"); the session, the
 *      output file and the instance all take that label
 *   4. begin marker (session LABEL, text = the command line; extras: how
 *      the tree is counted, see below), then the command starts
 *   5. its stdout and stderr come through two pipes, copied to our own
 *      stdout/stderr and, bounded, into the log set (run_output.h). The
 *      command sees pipes, not a terminal (no pty: stdin, job control and
 *      Ctrl-C stay simple); order is kept within each stream
 *   6. signals: SIGTERM, SIGHUP, and SIGINT/SIGQUIT sent with kill(2) to
 *      us, are relayed to the command; SIGINT/SIGQUIT from the terminal
 *      (si_code SI_KERNEL) are not, since the command, in our process
 *      group, got them already. This process does not die of them: the
 *      books must be closed
 *   7. at the command's end: find the backup client's summary in what was
 *      kept (client/client.h: the client --client names, else CMD's, else
 *      any known), "sync" (a sample now), end marker, "unwatch",
 *      remove the cgroup, release the collector if we started it (it
 *      stops once no run that joined it is left), and exit with the
 *      command's status: its exit code, 128+N for signal N, 127 when it
 *      could not be run; 1 when the end marker could be written nowhere
 *      and the command itself succeeded
 *
 * Begin marker extras: accounting=cpu=METHOD io=METHOD (process.h),
 * cgroup=DIR (the command's group, v2 if any), accounting.note=WHY when
 * a fallback was taken.
 * End marker extras (markers.tsv, after TEXT; documented in README.md):
 *   cmd=COMMAND LINE  status=N  signal=N (when killed)  duration=S.mmm
 *   output=output-LABEL.log  output.bytes=N (all the output)
 *   output.cut=N (bytes not kept: the file holds the last --output bytes)
 *   output.after=N (bytes after the command's end, from processes it left)
 *   left=N left.procs=PID:NAME,... (its tree's processes still alive)
 *   summary.cut=N (bytes of summary lines the parser did not see)
 *   rusage.utime=S.mmm rusage.stime=S.mmm rusage.maxrss_kb=N
 *   rusage.minflt=N rusage.majflt=N rusage.inblock=N rusage.oublock=N
 *   rusage.nvcsw=N rusage.nivcsw=N   (the command and reaped descendants)
 *   client=NAME, client.*  the backup client's summary, see client.h
 *   waits=waits-LABEL.tsv waits.threads=N waits.working=N waits.hidden=0|1
 *   waits.guessed=PCT waits.exact_disk=0|1 waits.hz=N waits.cpu=S
 *   cgroup.cpu_quota=CPUS cgroup.quota_dir=DIR   the wait states and the
 *   quota (the collector's "waits" reply; counters/README.md)
 *   figures=FILE when the fields did not fit the line (run_marks.h)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../client/client.h"
#include "../commands.h"
#include "../sources/source.h"
#include "../collector/control.h"
#include "run_marks.h"
#include "run_output.h"
#include "run_remote.h"
#include "run_shim.h"
#include "../collector/settings.h"

#define ME "perflog run"

/* After the command's end its output is copied until the pipes close, or
 * nothing came for RUN_IDLE seconds, or RUN_DRAIN seconds have gone by
 * whatever comes: a background job the command left (`(while :; do echo
 * tick; sleep 1; done) &`) would otherwise keep the run going for ever. */
#define RUN_IDLE 2.0
#define RUN_DRAIN 5.0
/* processes left alive named in the end marker (left.procs) */
#define RUN_LEFT_MAX 32

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perflog run [-c FILE] [-o DIR] [-i SECONDS] [-l LABEL] [--client NAME]\n"
		"                   [--output SIZE] [--server HOST[:DIR]]... [--server-watch SPEC]\n"
		"                   -- CMD [ARG...]\n"
		"  -c FILE        settings file (the collector started here; [run] output)\n"
		"  -o DIR         the log set to join, or the directory a running\n"
		"                 collector logs under (perflog start -o DIR), else where\n"
		"                 a new log set is created (default ./logs)\n"
		"  -i SECONDS     sampling interval of the collector started here\n"
		"  -l LABEL       session name and Process instance (default: CMD's name;\n"
		"                 made unique, LABEL-2, while a run of that label is on)\n"
		"  --client NAME  read this backup client's summary from the output\n"
		"                 (default: the client CMD names, else any known; none: no client)\n"
		"  --output SIZE  keep the last SIZE bytes of CMD's output in the log set\n"
		"                 (default 1M, 0 = none; the settings' [run] output)\n"
		"  --server HOST[:DIR]  mark the session on HOST's collector too (logging\n"
		"                 under DIR), over ssh ($PERFLOG_SSH, [run] ssh); repeatable\n"
		"  --server-watch SPEC  the servers log SPEC as Process(LABEL) (perflog mark --watch)\n"
		"Runs CMD between a begin and an end marker, keeps the end of its output\n"
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

static void catch_signals(struct sigaction *orig)
{
	for (size_t i = 0; i < NRELAYED; i++) {
		struct sigaction sa;

		sigaction(relayed[i], NULL, &orig[i]);
		/* ignored when we started (a background job of a script):
		 * stay so, as a shell would, and so will the command */
		if (orig[i].sa_handler == SIG_IGN && relayed[i] != SIGTERM)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_signal;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		sigaction(relayed[i], &sa, NULL);
	}
}

/* ---- the run ---- */

struct run {
	const char *file, *dir, *interval;
	const char *client_arg;		/* --client, "none" included */
	const struct client_def *client;	/* what it names */
	unsigned long long output;
	char **cmd;
	char *cmdline;
	struct collector_info col;
	int started, watching;
	char label[SRC_NAME_MAX];
	char method[128], note[600];
	struct cgroup_set cg;
	struct shim shim;
	struct sigaction orig[NRELAYED];
	struct run_output out;
	char outname[SRC_NAME_MAX + 16];
	struct remotes rem;	/* --server (run_remote.h) */
	const char *server_watch;
	char ssh[1024];		/* [run] ssh */
	int status;
	double end_wall;		/* wall clock when the command ended */
	unsigned long long after;	/* bytes of output after its end */
	int cut;			/* the output was still coming */
	long nleft;			/* processes of its tree left alive */
	pid_t left[RUN_LEFT_MAX];
	char left_comm[RUN_LEFT_MAX][16];
};

static int parse_args(struct run *r, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'O' },
		{ "client", required_argument, NULL, 'C' },
		{ "server", required_argument, NULL, 'S' },
		{ "server-watch", required_argument, NULL, 'W' },
		{ NULL, 0, NULL, 0 },
	};
	const char *label = NULL, *output = NULL;
	struct settings s;
	struct perr e;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+c:o:i:l:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': r->file = optarg; break;
		case 'o': r->dir = optarg; break;
		case 'i': r->interval = optarg; break;
		case 'l': label = optarg; break;
		case 'O': output = optarg; break;
		case 'C': r->client_arg = optarg; break;
		case 'S':
			if (remotes_add(&r->rem, optarg, &e) < 0) {
				fprintf(stderr, ME ": %s\n", e.msg);
				return 2;
			}
			break;
		case 'W': r->server_watch = optarg; break;
		case 'h': usage(stdout); return 0;
		default: return util_bad_option("run", argv, optind, optopt);
		}
	}
	if (optind >= argc) {
		fprintf(stderr, ME ": CMD missing (perflog run [OPTIONS] -- CMD [ARG...])\n");
		return 2;
	}
	r->cmd = argv + optind;
	r->client = client_find(r->client_arg);
	if (r->client_arg && !r->client && strcmp(r->client_arg, "none")) {
		fprintf(stderr, ME ": unknown client '%s' (see perflog run --help)\n",
			r->client_arg);
		return 2;
	}
	run_label(r->label, sizeof(r->label), label ? label : r->cmd[0]);
	if (settings_default(&s) < 0 ||
	    (r->file && settings_load(r->file, &s, &e) < 0)) {
		fprintf(stderr, ME ": %s\n", r->file ? e.msg : "out of memory");
		settings_free(&s);
		return 1;
	}
	r->output = s.output;
	util_strlcpy(r->ssh, s.ssh, sizeof(r->ssh));
	for (size_t i = 0, cli = r->rem.n; i < s.nservers && !cli; i++)
		if (remotes_add(&r->rem, s.servers[i], &e) < 0)
			fprintf(stderr, ME ": %s: %s\n", r->file, e.msg);
	settings_free(&s);
	if (r->server_watch && !r->rem.n) {
		fprintf(stderr, ME ": --server-watch needs a --server\n");
		return 2;
	}
	if (output && settings_parse_output(output, &r->output, &e) < 0) {
		fprintf(stderr, ME ": --output: %s\n", e.msg);
		return 2;
	}
	return -1;	/* go on */
}

/* Run `perflog start --early` and read the log set path it prints. */
static int start_collector(const struct run *r, char *logset, size_t n)
{
	const char *args[14];
	char owner[32];
	int k = 0, pfd[2], st;
	char buf[PATH_MAX + 64];
	size_t got = 0;
	pid_t pid;

	args[k++] = "perflog";
	args[k++] = "start";
	args[k++] = "--early";
	snprintf(owner, sizeof(owner), "%ld", (long)getpid());
	args[k++] = "--owner", args[k++] = owner;
	if (r->file)
		args[k++] = "-c", args[k++] = r->file;
	if (r->dir)
		args[k++] = "-o", args[k++] = r->dir;
	if (r->interval)
		args[k++] = "-i", args[k++] = r->interval;
	args[k] = NULL;
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		fprintf(stderr, ME ": pipe: %s\n", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
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
	for (ssize_t rd; got < sizeof(buf) - 1; got += (size_t)rd) {
		rd = read(pfd[0], buf + got, sizeof(buf) - 1 - got);
		if (rd < 0 && errno == EINTR)
			rd = 0;
		else if (rd <= 0)
			break;
	}
	close(pfd[0]);
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
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

/* 1. Join or start, under a lock so that runs started together do not
 * each start their own collector. */
static int find_or_start(struct run *r)
{
	struct perr e;
	const char *rt = control_runtime_dir(&e);
	char lock[PATH_MAX], logset[PATH_MAX];
	int fd = -1, rc = 0;

	if (rt && snprintf(lock, sizeof(lock), "%s/run.lock", rt) < (int)sizeof(lock))
		fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	while (fd >= 0 && flock(fd, LOCK_EX) < 0 && errno == EINTR)
		;
	if (r->dir && control_find_under(r->dir, &r->col, &e) == 0) {
		if (r->file || r->interval)
			fprintf(stderr, ME ": joining the collector logging to '%s'; -c and -i ignored\n",
				r->col.logset);
	} else if (start_collector(r, logset, sizeof(logset)) < 0) {
		rc = -1;
	} else if (control_find(logset, &r->col, &e) < 0) {
		fprintf(stderr, ME ": %s\n", e.msg);
		rc = -1;
	} else {
		r->started = 1;
	}
	if (fd >= 0)
		close(fd);	/* releases the lock */
	return rc;
}

/* 2. The command's cgroup: below ours, stale ones of killed runs gone. */
static void make_cgroup(struct run *r)
{
	struct cgroup_set base;
	struct perr e;
	char name[64];

	snprintf(name, sizeof(name), CGROUP_PREFIX "%ld", (long)getpid());
	if (cgroup_self(&base, &e) < 0) {
		snprintf(r->note, sizeof(r->note), "no cgroup: %s", e.msg);
		return;
	}
	cgroup_clean_stale(&base);
	if (cgroup_create(&base, name, &r->cg, &e) < 0)
		snprintf(r->note, sizeof(r->note), "no cgroup: %s", e.msg);
}

/* 3-4. The shim, the watch, the begin marker, the command. */
static int begin(struct run *r, int po[2], int pe[2])
{
	int reads[2] = { po[0], pe[0] };
	struct run_extras x = { 0 };
	struct perr e;
	char *text;

	if (shim_start(&r->shim, r->cmd, po[1], pe[1], reads, 2,
		       r->col.logset, relayed, r->orig, NRELAYED, &e) < 0) {
		fprintf(stderr, ME ": %s\n", e.msg);
		return -1;
	}
	close(po[1]);
	close(pe[1]);
	if (cgroup_any(&r->cg) && cgroup_join(&r->cg, r->shim.pid, &e) < 0)
		snprintf(r->note, sizeof(r->note), "no cgroup: %s", e.msg);
	r->watching = control_watch(&r->col, r->shim.pid, r->label, 1, &r->cg,
				    r->label, sizeof(r->label), r->method,
				    sizeof(r->method), &e) == 0;
	if (!r->watching)
		fprintf(stderr, ME ": Process(%s) not logged: %s\n", r->label,
			e.msg);
	if (r->method[0])
		run_extra_add(&x, "accounting=%s", r->method);
	if (r->cg.v2[0] || r->cg.cpuacct[0])
		run_extra_add(&x, "cgroup=%s", r->cg.v2[0] ? r->cg.v2 : r->cg.cpuacct);
	if (r->note[0])
		run_extra_add(&x, "accounting.note=%s", r->note);
	text = run_marker_text(r->cmdline);
	remotes_setup(&r->rem, r->ssh, &r->col, r->server_watch);
	if (text)	/* the servers' begin comes first: theirs enclose ours */
		remotes_begin(&r->rem, r->label, text, r->cmdline, &x);
	if (!text || run_mark(&r->col, MARK_BEGIN, r->label, text, &x, &e) < 0)
		fprintf(stderr, ME ": begin marker: %s\n", text ? e.msg : "out of memory");
	free(text);
	run_extras_free(&x);
	if (run_output_open(&r->out, r->col.logset, r->label, r->outname,
			    sizeof(r->outname), r->output, &e) < 0) {
		fprintf(stderr, ME ": %s (output not kept)\n", e.msg);
		r->outname[0] = '\0';
	}
	return shim_go(&r->shim);
}

/* 5-6. Copy the output until the command has ended and its pipes closed,
 * or for a bounded time after its end (RUN_IDLE, RUN_DRAIN: processes it
 * left may hold the pipes); relay the signals that came. A signal after
 * the command's end stops the copying at once. */
static void pump(struct run *r, int out, int err)
{
	double idle_since = 0, ended = 0;
	unsigned long long at_end = 0;
	int shim_fd_open = 1, stop = 0;

	while (!stop && (out >= 0 || err >= 0 || !r->shim.exited)) {
		struct pollfd p[3];
		nfds_t np = 0;
		int ready;

		for (size_t i = 0; i < NRELAYED; i++)
			if (g_pending[relayed[i]]) {
				g_pending[relayed[i]] = 0;
				if (!r->shim.exited && r->shim.cmd > 0)
					kill(r->shim.cmd, relayed[i]);
				else if (r->shim.exited)
					stop = 1;
			}
		if (out >= 0)
			p[np++] = (struct pollfd){ .fd = out, .events = POLLIN };
		if (err >= 0)
			p[np++] = (struct pollfd){ .fd = err, .events = POLLIN };
		if (!r->shim.exited && shim_fd_open)
			p[np++] = (struct pollfd){ .fd = shim_fd(&r->shim),
						   .events = POLLIN };
		if (!np)
			break;	/* the shim died: nothing more will come */
		ready = poll(p, np, 100);
		for (nfds_t i = 0; ready > 0 && i < np; i++) {
			if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (p[i].fd == out)
				run_output_copy(&r->out, &out, 1);
			else if (p[i].fd == err)
				run_output_copy(&r->out, &err, 2);
			else if (shim_read(&r->shim) < 0)
				shim_fd_open = 0;
		}
		if (r->shim.exited && !ended) {
			ended = util_monotonic();
			at_end = r->out.total;
			r->end_wall = util_walltime() - (ended - r->shim.t1);
		}
		if (ready > 0)
			idle_since = 0;
		else if (r->shim.exited && !idle_since)
			idle_since = util_monotonic();
		if ((idle_since && util_monotonic() - idle_since > RUN_IDLE) ||
		    (ended && util_monotonic() - ended > RUN_DRAIN))
			break;
	}
	r->cut = out >= 0 || err >= 0;
	if (ended)
		r->after = r->out.total - at_end;
	/* who is left, before the pipes close: a job that writes to them
	 * dies of SIGPIPE at its next write, and would be missed */
	r->nleft = shim_left(&r->shim, r->left, r->left_comm, RUN_LEFT_MAX);
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	if (r->nleft) {
		char list[256] = "";

		for (long i = 0; i < r->nleft && i < 4; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s%ld %s", i ? ", " : "", (long)r->left[i],
				 r->left_comm[i]);
		fprintf(stderr, ME ": the command ended; %ld process(es) it left still run (%s%s)%s\n",
			r->nleft, list, r->nleft > 4 ? ", ..." : "",
			r->cut ? "; their output is no longer copied" : "");
	}
}

/* "1234:sh,1240:sleep": the processes left alive, for the end marker. */
static void left_extras(const struct run *r, struct run_extras *x)
{
	char procs[RUN_LEFT_MAX * 24] = "";
	size_t len = 0;

	if (!r->nleft)
		return;
	for (long i = 0; i < r->nleft && i < RUN_LEFT_MAX; i++) {
		int w = snprintf(procs + len, sizeof(procs) - len, "%s%ld:%s",
				 i ? "," : "", (long)r->left[i], r->left_comm[i]);

		if (w < 0 || (size_t)w >= sizeof(procs) - len)
			break;
		len += (size_t)w;
	}
	run_extra_add(x, "left=%ld", r->nleft);
	run_extra_add(x, "left.procs=%s", procs);
}

/* The end marker's fields (listed at the top of the file). */
static void end_extras(struct run *r, struct run_extras *x)
{
	const struct shim *s = &r->shim;
	const struct rusage *ru = &s->ru;
	struct client_list sums;
	size_t nclient = 0;
	char **client;
	long nsum = 0;

	run_extra_add(x, "cmd=%s", r->cmdline);
	run_extra_add(x, "status=%d", r->status);
	if (!s->exec_errno && s->exited && WIFSIGNALED(s->status))
		run_extra_add(x, "signal=%d", WTERMSIG(s->status));
	run_extra_add(x, "duration=%.3f", s->t1 > s->t0 ? s->t1 - s->t0 : 0.0);
	if (r->out.cap && r->outname[0]) {
		run_extra_add(x, "output=%s", r->outname);
		run_extra_add(x, "output.bytes=%llu", r->out.total);
	}
	if (run_output_cut(&r->out))
		run_extra_add(x, "output.cut=%llu", run_output_cut(&r->out));
	if (r->out.keep_cut)
		run_extra_add(x, "summary.cut=%llu", r->out.keep_cut);
	if (r->after)
		run_extra_add(x, "output.after=%llu", r->after);
	left_extras(r, x);
	run_extra_add(x, "rusage.utime=%.3f",
		      ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6);
	run_extra_add(x, "rusage.stime=%.3f",
		      ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6);
	run_extra_add(x, "rusage.maxrss_kb=%ld", ru->ru_maxrss);
	run_extra_add(x, "rusage.minflt=%ld", ru->ru_minflt);
	run_extra_add(x, "rusage.majflt=%ld", ru->ru_majflt);
	run_extra_add(x, "rusage.inblock=%ld", ru->ru_inblock);
	run_extra_add(x, "rusage.oublock=%ld", ru->ru_oublock);
	run_extra_add(x, "rusage.nvcsw=%ld", ru->ru_nvcsw);
	run_extra_add(x, "rusage.nivcsw=%ld", ru->ru_nivcsw);
	memset(&sums, 0, sizeof(sums));
	if (r->out.nkeep && !(r->client_arg && !r->client))
		nsum = client_detect(r->out.keep, r->out.nkeep, r->client,
				     client_by_command(r->cmd), &sums);
	if (r->client && nsum == 0)
		fprintf(stderr, ME ": no %s summary in the output\n",
			r->client->name);
	client = client_extras(&sums, &nclient);
	client_list_free(&sums);
	for (size_t i = 0; i < nclient; i++)
		run_extra_add(x, "%s", client[i]);
	client_extras_free(client, nclient);
}

/* The wait-state totals (written by the collector beside the markers)
 * and its fields about them: "waits PID" replies with them, tab-separated. */
static void waits_extras(struct run *r, struct run_extras *x)
{
	char req[64], reply[2048], *save = NULL;
	struct perr e;

	if (!r->watching)
		return;
	snprintf(req, sizeof(req), "waits %ld", (long)r->shim.pid);
	if (control_request(&r->col, req, reply, sizeof(reply), &e) < 0) {
		run_extra_add(x, "waits.error=%s", e.msg);
		return;
	}
	for (char *f = strtok_r(reply, "\t", &save); f;
	     f = strtok_r(NULL, "\t", &save))
		if (strchr(f, '='))
			run_extra_add(x, "%s", f);
}

/* 7. Close the books. Returns 0, or -1 when the end marker could be
 * written nowhere. */
static int finish(struct run *r)
{
	const struct shim *s = &r->shim;
	struct run_extras x = { 0 };
	struct perr e;
	char text[64], req[64];
	int rc = 0, deferred;

	if (shim_rusage(&r->shim) < 0)
		memset(&r->shim.ru, 0, sizeof(r->shim.ru));
	if (s->exec_errno) {
		fprintf(stderr, ME ": cannot run '%s': %s\n", r->cmd[0],
			strerror(s->exec_errno));
		r->status = 127;
	} else if (!s->exited) {
		r->status = 127;	/* the shim died: no status */
	} else {
		r->status = WIFSIGNALED(s->status) ? 128 + WTERMSIG(s->status)
						   : WEXITSTATUS(s->status);
	}
	run_output_close(&r->out);
	if (r->watching && control_request(&r->col, "sync", NULL, 0, &e) < 0)
		fprintf(stderr, ME ": sync: %s\n", e.msg);
	end_extras(r, &x);
	waits_extras(r, &x);
	if (r->status == 127 && (s->exec_errno || !s->exited))
		snprintf(text, sizeof(text), "cannot run");
	else if (s->exited && WIFSIGNALED(s->status))
		snprintf(text, sizeof(text), "killed by signal %d",
			 WTERMSIG(s->status));
	else
		snprintf(text, sizeof(text), "exit %d", r->status);
	remotes_end_open(&r->rem, &x);	/* the clocks again, then ours */
	if (run_mark_at(&r->col, r->end_wall, MARK_END, r->label, text, &x,
			&e) < 0) {
		fprintf(stderr, ME ": end marker: %s\n", e.msg);
		rc = -1;
	}
	run_extras_free(&x);
	remotes_end_mark(&r->rem, r->label, text, r->cmdline);
	snprintf(req, sizeof(req), "unwatch %ld", (long)r->shim.pid);
	if (r->watching && control_request(&r->col, req, NULL, 0, &e) < 0)
		fprintf(stderr, ME ": unwatch: %s\n", e.msg);
	shim_finish(&r->shim);
	if (cgroup_any(&r->cg) && cgroup_remove(&r->cg, &e) < 0)
		fprintf(stderr, ME ": %s\n", e.msg);
	if (r->started && control_release(&r->col, &deferred, &e) < 0)
		fprintf(stderr, ME ": stopping the collector: %s\n", e.msg);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run r;
	int po[2], pe[2], rc;

	memset(&r, 0, sizeof(r));
	rc = parse_args(&r, argc, argv);
	if (rc >= 0)
		return rc;
	r.cmdline = run_cmdline(r.cmd);
	if (!r.cmdline) {
		fprintf(stderr, ME ": out of memory\n");
		return 1;
	}
	if (find_or_start(&r) < 0) {
		free(r.cmdline);
		return 1;
	}
	catch_signals(r.orig);
	make_cgroup(&r);
	if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0) {
		fprintf(stderr, ME ": pipe: %s\n", strerror(errno));
		r.status = 1;
	} else if (begin(&r, po, pe) < 0) {
		r.status = 127;
		close(po[0]);
		close(pe[0]);
	} else {
		pump(&r, po[0], pe[0]);
	}
	if (finish(&r) < 0 && r.status == 0)
		r.status = 1;
	run_output_free(&r.out);
	free(r.cmdline);
	return r.status;
}
