/*
 * cmd_run.c - `perflog run [-c FILE] [-o DIR] [-i SECONDS] [-l LABEL]
 * [--client NAME] [--output SIZE] [--server HOST[:DIR]]... [--server-watch
 * SPEC] -- CMD [ARG...]`: log around one command (a backup, usually); the
 * servers' log sets get the session too (run_remote.h).
 *
 *   1. join the collector logging to -o DIR or under it (the directory
 *      `perflog start -o DIR` was given), else start one (`perflog start
 *      --owner PID`, run as /proc/self/exe so the very same binary answers);
 *      finding and starting are done under a lock, so runs started
 *      together share one collector; none is started for a command that
 *      cannot be run (not found in PATH, not executable): exit 127
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
 *      stops once no run that joined it is left; when the command could
 *      not be run, the set made only for it is removed), and exit with the
 *      command's status: its exit code, 128+N for signal N, 127 when it
 *      could not be run; 1 when the end marker could be written nowhere
 *      and the command itself succeeded
 *
 * Begin marker extras: accounting=cpu=METHOD io=METHOD (process.h),
 * cgroup=DIR (the command's group, v2 if any), accounting.note=WHY when
 * a fallback was taken.
 * End marker extras (markers.tsv, after TEXT; documented in README.md):
 *   cmd=COMMAND LINE  status=N  signal=N (when killed)  duration=S.mmm
 *   oom_kill=N (the OOM killer ended N processes in the command's memory
 *   cgroup while it ran: cgroup.h cgroup_oom_kills; the text says
 *   "killed by the OOM killer" when SIGKILL ended the command itself)
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
 *   waits.read_share=PCT waits.split_error=P waits.split_error_all=P
 *   cgroup.cpu_quota=CPUS cgroup.quota_dir=DIR cgroup.quota_group=/GROUP
 *   the wait states and the quota that held the tree (the one whose
 *   throttled time grew; the smallest when none did), where it is (the
 *   collector's "waits" reply; counters/README.md)
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

#include "../commands.h"
#include "../logs/logset.h"
#include "run_int.h"


/* After the command's end its output is copied until the pipes close, or
 * nothing came for RUN_IDLE seconds, or RUN_DRAIN seconds have gone by
 * whatever comes: a background job the command left (`(while :; do echo
 * tick; sleep 1; done) &`) would otherwise keep the run going for ever. */
#define RUN_IDLE 2.0
#define RUN_DRAIN 5.0

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
_Static_assert(sizeof(relayed) / sizeof(relayed[0]) == NRELAYED,
	       "NRELAYED (run_int.h) counts relayed[]");

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

/* ---- the run (struct run: run_int.h) ---- */

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

	r->oom0 = cgroup_oom_kills(NULL, r->cg.v2);
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

/* The collector this run started is released: it stops once no run
 * that joined it is left. When the command never ran (`perflog run --
 * nosuchcmd`), the set made only for it goes too, as a failed start's
 * does: under the runs' lock, so that none joins it meanwhile, and only
 * once it stopped holding nothing but this run's session
 * (logset_discard: a run that joined it, or a mark, keeps it). */
static void release(struct run *r)
{
	int never_ran = r->shim.exec_errno != 0, deferred = 0, lock = -1;
	struct perr e;

	if (never_ran)
		lock = run_lock();
	if (control_release(&r->col, &deferred, &e) < 0) {
		fprintf(stderr, ME ": stopping the collector: %s\n", e.msg);
	} else if (never_ran && !deferred && !control_alive(r->col.pid)) {
		int d = logset_discard(r->col.logset, r->label, &e);

		if (d < 0)
			fprintf(stderr, ME ": %s\n", e.msg);
		r->discarded = d > 0;
	}
	run_unlock(lock);
}

/* 7. Close the books. Returns 0, or -1 when the end marker could be
 * written nowhere. */
static int finish(struct run *r)
{
	const struct shim *s = &r->shim;
	struct run_extras x = { 0 };
	struct perr e;
	char text[64], req[64];
	int rc = 0, gone = 0;

	if (shim_rusage(&r->shim) < 0)
		memset(&r->shim.ru, 0, sizeof(r->shim.ru));
	if (s->exec_errno) {
		run_cannot_run(r->cmd[0], s->exec_errno);
		r->status = 127;
	} else if (!s->exited) {
		r->status = 127;	/* the shim died: no status */
	} else {
		r->status = WIFSIGNALED(s->status) ? 128 + WTERMSIG(s->status)
						   : WEXITSTATUS(s->status);
	}
	r->ooms = s->exec_errno ? 0 : run_oom_kills(r);
	run_output_close(&r->out);
	if (r->watching && control_request(&r->col, "sync", NULL, 0, &e) < 0) {
		if (control_gone(&r->col))
			gone = 1;	/* or going: a stop under way */
		else
			fprintf(stderr, ME ": sync: %s\n", e.msg);
	}
	if (gone) {
		/* said once, in words (not a failed sync, waits, unwatch
		 * and release each); the end marker goes straight into
		 * markers.tsv and says the log stopped before it */
		fprintf(stderr, ME ": the collector (pid %ld) stopped before the command ended (perflog stop?): the log of '%s' ends early; the end marker says so\n",
			(long)r->col.pid, r->col.logset);
		r->watching = 0;
		r->started = 0;
	}
	run_end_extras(r, &x);
	if (gone)
		run_extra_add(&x, "log.ended=early");
	run_waits_extras(r, &x);
	if (r->status == 127 && (s->exec_errno || !s->exited))
		snprintf(text, sizeof(text), "cannot run");
	else if (s->exited && WIFSIGNALED(s->status) &&
		 WTERMSIG(s->status) == SIGKILL && r->ooms)
		snprintf(text, sizeof(text), "killed by the OOM killer");
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
	if (r->started)
		release(r);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run r;
	int po[2], pe[2], rc, own;

	memset(&r, 0, sizeof(r));
	rc = run_parse_args(&r, argc, argv);
	if (rc >= 0)
		return rc;
	r.cmdline = run_cmdline(r.cmd);
	if (!r.cmdline) {
		fprintf(stderr, ME ": out of memory\n");
		return 1;
	}
	rc = run_find_or_start(&r);
	if (rc < 0) {
		free(r.cmdline);
		return rc == RUN_CANNOT_RUN ? 127 : 1;
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
	own = r.started;	/* finish clears it when the collector went */
	if (finish(&r) < 0 && r.status == 0)
		r.status = 1;
	/* where it went, as perflog start prints it (stdout is the
	 * command's), for the set this run started: one it joined was
	 * named by -o, or said when joined under -o DIR */
	if (own && !r.discarded)
		fprintf(stderr, ME ": log set %s\n", r.col.logset);
	run_output_free(&r.out);
	free(r.cmdline);
	return r.status;
}
