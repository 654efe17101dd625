/*
 * run_args.c - `perflog run`'s command line (its usage, the options, the
 * settings' [run] section) and step 1 of the run: join the collector -o
 * names, else start one (run_int.h).
 */
#define _GNU_SOURCE
#include "run_int.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

int run_parse_args(struct run *r, int argc, char **argv)
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
	while ((c = util_getopt(argc, argv, "+c:o:i:l:h", longopts, NULL)) != -1) {
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

/* Run `perflog start --owner PID` and read the log set path it prints. */
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

int run_lock(void)
{
	struct perr e;
	const char *rt = control_runtime_dir(&e);
	char lock[PATH_MAX];
	int fd = -1;

	if (rt && snprintf(lock, sizeof(lock), "%s/run.lock", rt) < (int)sizeof(lock))
		fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	while (fd >= 0 && flock(fd, LOCK_EX) < 0 && errno == EINTR)
		;
	return fd;
}

void run_unlock(int fd)
{
	if (fd >= 0)
		close(fd);	/* releases the lock */
}

/* 0 when path is a regular file this process may execute, else the
 * errno exec would give (ENOENT, EACCES for a directory or a file
 * without x). */
static int executable(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return errno;
	if (!S_ISREG(st.st_mode) || access(path, X_OK) < 0)
		return EACCES;
	return 0;
}

/* Would execvp find name as a program to run: a name with a slash as
 * it is, else the first of that name in PATH (unset: glibc's
 * "/bin:/usr/bin"; an empty entry is the current directory)? 0, or
 * execvp's errno: ENOENT (none of that name), EACCES (found, but a
 * directory or not executable). A script without "#!" is run by sh, so
 * an executable file is enough. */
static int cmd_findable(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;
	char cand[PATH_MAX];
	int err = ENOENT;

	if (!*name)
		return ENOENT;
	if (strchr(name, '/'))
		return executable(name);
	for (p = path ? path : "/bin:/usr/bin"; ; p = end + 1) {
		size_t len;

		end = strchrnul(p, ':');
		len = (size_t)(end - p);
		if (snprintf(cand, sizeof(cand), "%.*s%s%s", (int)len, p,
			     len ? "/" : "", name) < (int)sizeof(cand)) {
			int e = executable(cand);

			if (!e)
				return 0;
			if (e == EACCES)
				err = EACCES;	/* as execvp: said if none runs */
		}
		if (!*end)
			return err;
	}
}

void run_cannot_run(const char *cmd, int err)
{
	fprintf(stderr, ME ": cannot run '%s': %s\n", cmd, strerror(err));
}

/* 1. Join or start, under a lock so that runs started together do not
 * each start their own collector. A command that cannot be run starts
 * none (issue 50: it made a set of nothing, removed again at best); a
 * collector that is joined gets its session, the end marker saying
 * "cannot run". */
int run_find_or_start(struct run *r)
{
	struct perr e;
	char logset[PATH_MAX];
	int fd = run_lock(), rc = 0, err;

	if (r->dir && control_find_under(r->dir, &r->col, &e) == 0) {
		if (r->file || r->interval)
			fprintf(stderr, ME ": joining the collector logging to '%s'; -c and -i ignored\n",
				r->col.logset);
	} else if ((err = cmd_findable(r->cmd[0]))) {
		run_cannot_run(r->cmd[0], err);
		rc = RUN_CANNOT_RUN;
	} else if (start_collector(r, logset, sizeof(logset)) < 0) {
		rc = -1;
	} else if (control_find(logset, &r->col, &e) < 0) {
		fprintf(stderr, ME ": %s\n", e.msg);
		rc = -1;
	} else {
		r->started = 1;
	}
	run_unlock(fd);
	return rc;
}
