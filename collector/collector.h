/*
 * collector.h - the collector: sample, compute, write, serve control
 * requests, on a fixed schedule, until told to stop.
 *
 *   schedule (monotonic deadline), or a request that needs a sample now
 *      -> source_read -> rates_compute (+ watched process trees)
 *      -> instance selection (settings) -> logset_write_sample
 *   between deadlines: ppoll on the control socket, the exit records of
 *   watched trees (taskstats.h) and signals
 * At stop the last sample is taken then and the row it falls in closed
 * (collector.c, closing): nothing measured before the stop is dropped.
 */
#ifndef PERFLOG_COLLECTOR_H
#define PERFLOG_COLLECTOR_H

#include <sys/types.h>

#include "../common/util.h"
#include "settings.h"

struct collector_options {
	const struct settings *settings;
	const char *proc_root;	/* "/" or a fake root ($PERFLOG_PROC_ROOT) */
	int notify_fd;		/* told "ok DIR\n" once the set's files are
				 * made, the baseline read and the control
				 * socket answers (before the first sample),
				 * or "error MSG\n"; -1 = print DIR on stdout */
	long max_samples;	/* stop by itself after N samples; 0 = never
				 * (a run-once mode for tests, STYLE 8) */
	pid_t owner;		/* `--owner PID`: once it is gone (a perflog
				 * run killed), stop when no tree is watched */
};

/* Run until stopped (control "stop", SIGTERM, SIGINT, SIGHUP). Returns
 * the exit status: 0 after a clean stop, 1 when setting up failed (the
 * message went to notify_fd or stderr). */
int collector_run(const struct collector_options *opt);

#endif
