/*
 * cmd_start.c - `perflog start [-c FILE] [-o DIR] [-i SECONDS] [-f]`.
 *
 * Without -f the collector daemonizes (fork, setsid, fork) and the command
 * returns once the log set's files are made, the baseline is read and the
 * collector answers, printing the log set's path, without waiting for the
 * first sample (up to an interval away): the daemon reports "ok DIR" or
 * "error MSG" through a pipe. Once
 * the log set exists the daemon's stderr (its complaints: disk full, late
 * samples) goes to DIR/collector.log.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../commands.h"
#include "collector.h"
#include "control.h"
#include "settings.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perflog start [-c FILE] [-o DIR] [-i SECONDS] [-f] [--owner PID]\n"
		"  -c FILE     settings file (see perftest.pml.sample); default: the\n"
		"              seed kit's counter set every 5 s\n"
		"  -o DIR      create the log set under DIR (default ./logs)\n"
		"  -i SECONDS  sampling interval, whole seconds >= 1\n"
		"  -f          stay in the foreground (systemd, tests); stop with\n"
		"              Ctrl-C, SIGTERM or perflog stop\n"
		"  --owner PID stop once process PID is gone and no tree is watched\n"
		"              (perflog run, for the collector it starts)\n"
		"Prints the log set's path once the set exists and the collector\n"
		"answers, before its first sample.\n");
}

/* Shared by start and run: parse -c/-o/-i into settings. Returns 0, or the
 * exit status on error (message printed). */
static int load_settings(const char *file, const char *dir,
			 const char *interval, struct settings *s)
{
	struct perr e;

	if (settings_default(s) < 0) {
		fprintf(stderr, "perflog start: out of memory\n");
		return 1;
	}
	if (file && settings_load(file, s, &e) < 0) {
		fprintf(stderr, "perflog start: %s\n", e.msg);
		return 1;
	}
	if (dir && util_strlcpy(s->directory, dir, sizeof(s->directory)) < 0) {
		fprintf(stderr, "perflog start: -o: path too long\n");
		return 2;
	}
	if (interval && settings_parse_interval(interval, &s->interval, &e) < 0) {
		fprintf(stderr, "perflog start: -i: %s\n", e.msg);
		return 2;
	}
	return 0;
}

/* Another collector already logging under dir (a second `start -o DIR`
 * on one directory): the line that says which into warn ("" none),
 * printed once the start succeeded; both then log, each to its own
 * set, and `stop` without DIR no longer knows which to stop. */
static void warn_running_under(const char *dir, char *warn, size_t nw)
{
	struct collector_info *list;
	struct perr e;
	char real[PATH_MAX];
	long n;

	warn[0] = '\0';
	if (!realpath(dir, real) || (n = control_list(&list, &e)) < 0)
		return;
	for (long i = 0; i < n; i++) {
		char *slash = strrchr(list[i].logset, '/');

		if (!slash || (size_t)(slash - list[i].logset) != strlen(real) ||
		    strncmp(list[i].logset, real, strlen(real)))
			continue;
		snprintf(warn, nw, "perflog start: warning: collector %ld is already logging under '%s' (to %s): this starts a second one beside it\n",
			 (long)list[i].pid, dir, list[i].logset);
		break;
	}
	free(list);
}

static int run_daemon(struct collector_options *opt)
{
	int pfd[2];
	pid_t pid;
	char buf[8192];
	size_t got = 0;

	if (pipe2(pfd, O_CLOEXEC) < 0) {
		fprintf(stderr, "perflog start: pipe: %s\n", strerror(errno));
		return 1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "perflog start: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		int null;

		close(pfd[0]);
		setsid();
		pid = fork();
		if (pid != 0)
			_exit(pid < 0 ? 1 : 0);
		/* the daemon: no terminal, no inherited stdio */
		if (chdir("/") < 0) {
			/* paths are absolute from here on; cwd is moot */
		}
		null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
			if (null > 2)
				close(null);
		}
		opt->notify_fd = pfd[1];
		_exit(collector_run(opt));
	}
	close(pfd[1]);
	waitpid(pid, NULL, 0);
	for (;;) {
		ssize_t n = read(pfd[0], buf + got, sizeof(buf) - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
		if (memchr(buf, '\n', got))
			break;
	}
	close(pfd[0]);
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (!strncmp(buf, "ok ", 3)) {
		printf("%s\n", buf + 3);
		return 0;
	}
	fprintf(stderr, "perflog start: %s\n",
		!strncmp(buf, "error ", 6) ? buf + 6
					   : "the collector died while starting");
	return 1;
}

int cmd_start(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "samples", required_argument, NULL, 'n' },
		{ "owner", required_argument, NULL, 'W' },
		{ NULL, 0, NULL, 0 },
	};
	const char *file = NULL, *dir = NULL, *interval = NULL;
	int foreground = 0, c, r;
	long owner = 0;
	long samples = 0;
	struct settings s;
	struct collector_options opt;
	char abs_dir[PATH_MAX], warn[PATH_MAX * 2 + 160] = "";

	optind = 1;
	opterr = 0;
	while ((c = util_getopt(argc, argv, "+c:o:i:fh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': file = optarg; break;
		case 'o': dir = optarg; break;
		case 'i': interval = optarg; break;
		case 'f': foreground = 1; break;
		case 'n': samples = strtol(optarg, NULL, 10); break;
		case 'W': owner = strtol(optarg, NULL, 10); break;
		case 'h': usage(stdout); return 0;
		default: return util_bad_option("start", argv, optind, optopt);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "perflog start: unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}
	r = load_settings(file, dir, interval, &s);
	if (r) {
		settings_free(&s);
		return r;
	}
	/* the daemon changes to /: make the log directory absolute first */
	if (s.directory[0] != '/') {
		char cwd[PATH_MAX];

		if (!getcwd(cwd, sizeof(cwd)) ||
		    snprintf(abs_dir, sizeof(abs_dir), "%s/%s", cwd,
			     s.directory) >= (int)sizeof(abs_dir)) {
			fprintf(stderr, "perflog start: log directory '%s': path too long\n",
				s.directory);
			settings_free(&s);
			return 1;
		}
		util_strlcpy(s.directory, abs_dir, sizeof(s.directory));
	}
	if (owner <= 0)	/* perflog run joins one instead, under a lock */
		warn_running_under(s.directory, warn, sizeof(warn));
	memset(&opt, 0, sizeof(opt));
	opt.settings = &s;
	opt.proc_root = getenv("PERFLOG_PROC_ROOT") ? getenv("PERFLOG_PROC_ROOT") : "/";
	opt.notify_fd = -1;
	opt.max_samples = samples;
	opt.owner = owner > 0 ? (pid_t)owner : 0;
	if (foreground)	/* it runs until stopped: say it first */
		fputs(warn, stderr);
	r = foreground ? collector_run(&opt) : run_daemon(&opt);
	if (!foreground && r == 0)
		fputs(warn, stderr);
	settings_free(&s);
	return r;
}
