/*
 * run_int.h - what cmd_run.c (the run: signals, cgroup, the command, its
 * output, the end) shares with run_args.c (the command line, the
 * collector joined or started) and run_endmark.c (the end marker's
 * fields). Not an interface for other folders: commands.h's cmd_run is.
 * Calls run one way: cmd_run.c -> run_args.c, run_endmark.c.
 */
#ifndef PERFLOG_RUN_INT_H
#define PERFLOG_RUN_INT_H

#include <signal.h>
#include <sys/types.h>

#include "../client/client.h"
#include "../sources/source.h"
#include "../collector/control.h"
#include "run_marks.h"
#include "run_output.h"
#include "run_remote.h"
#include "run_shim.h"
#include "../collector/settings.h"

#define ME "perflog run"

/* processes left alive named in the end marker (left.procs) */
#define RUN_LEFT_MAX 32
/* signals relayed to the command (relayed[] in cmd_run.c) */
#define NRELAYED 4

/* One `perflog run`: its options, the collector, the command's state. */
struct run {
	const char *file, *dir, *interval;
	const char *client_arg;		/* --client, "none" included */
	const struct client_def *client;	/* what it names */
	unsigned long long output;
	char **cmd;
	char *cmdline;
	struct collector_info col;
	int started, watching;
	int discarded;		/* the set it started was removed: the
				 * command never ran (cmd_run.c release) */
	char label[SRC_NAME_MAX];
	char method[128], note[600];
	struct cgroup_set cg;
	long oom0;		/* the OOM killer's count in the command's
				 * memory cgroup before it (cgroup.h
				 * cgroup_oom_kills), -1 unknown */
	long ooms;		/* the kills there while it ran (finish) */
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

/* The command line into r (argc, argv as given to cmd_run; the settings
 * file -c names read for [run]): -1 to go on, else the exit status (0
 * after --help, 2 for a usage error, 1 for an unreadable settings file),
 * the error said on stderr. */
int run_parse_args(struct run *r, int argc, char **argv);

/* 1. Join the collector logging to -o DIR or under it, else start one
 * (r->started set), under a lock in the runtime directory so that runs
 * started together do not each start their own; none is started for a
 * command execvp would not find or could not run. 0, RUN_CANNOT_RUN
 * (that command: exit 127, nothing was made), or -1; each said on
 * stderr. */
#define RUN_CANNOT_RUN (-2)
int run_find_or_start(struct run *r);

/* The one line said for a command that could not be run (err: errno),
 * whether found so before the start or when exec failed. */
void run_cannot_run(const char *cmd, int err);

/* The runs' lock in the runtime directory, held while a run finds or
 * starts its collector and while one removes the set of a command that
 * never ran, so that no run joins a collector being discarded: its
 * descriptor, or -1 (no runtime directory: unlocked). */
int run_lock(void);
void run_unlock(int fd);

/* How many processes the OOM killer ended in the command's memory
 * cgroup since begin read its count (r->oom0): 0 when none or unknown. */
long run_oom_kills(const struct run *r);

/* The end marker's fields (listed at the top of cmd_run.c): the
 * command's status, duration, output, processes left, rusage and the
 * backup client's summary, appended to x. */
void run_end_extras(struct run *r, struct run_extras *x);

/* The wait-state totals (written by the collector beside the markers)
 * and its fields about them, appended to x. */
void run_waits_extras(struct run *r, struct run_extras *x);

#endif
