/*
 * collector.h - the collector: sample, compute, write, serve control
 * requests, on a fixed schedule, until told to stop.
 *
 *   schedule (monotonic deadline)
 *      -> source_read -> rates_compute (+ watched process trees)
 *      -> instance selection (settings) -> logset_write_sample
 *   between deadlines: ppoll on the control socket and signals
 */
#ifndef PERFLOG_COLLECTOR_H
#define PERFLOG_COLLECTOR_H

#include "../common/util.h"
#include "settings.h"

struct collector_options {
	const struct settings *settings;
	const char *proc_root;	/* "/" or a fake root ($PERFLOG_PROC_ROOT) */
	int notify_fd;		/* told "ok DIR\n" after the first sample, or
				 * "error MSG\n"; -1 = print DIR on stdout */
	long max_samples;	/* stop by itself after N samples; 0 = never
				 * (a run-once mode for tests, STYLE 8) */
};

/* Run until stopped (control "stop", SIGTERM, SIGINT, SIGHUP). Returns
 * the exit status: 0 after a clean stop, 1 when setting up failed (the
 * message went to notify_fd or stderr). */
int collector_run(const struct collector_options *opt);

#endif
