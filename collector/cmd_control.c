/*
 * cmd_control.c - `perflog stop [DIR]` and `perflog status`.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../commands.h"
#include "../logs/setdir.h"
#include "control.h"

/* The options of a command that has only --help: 1 to go on, else the
 * exit status (after the usage, or the one line for a bad option). */
static int help_only(int argc, char **argv, const char *cmd, const char *usage)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	optind = 1;
	opterr = 0;
	while ((o = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (o != 'h')
			return util_bad_option(cmd, argv, optind, optopt);
		fputs(usage, stdout);
		return 0;
	}
	return 1;
}

int cmd_stop(int argc, char **argv)
{
	struct collector_info c;
	struct perr e;
	int rc = help_only(argc, argv, "stop",
		"usage: perflog stop [DIR]\n"
		"Stop the collector logging to the log set DIR (or the only one\n"
		"running); returns once the log set is closed and complete.\n");

	if (rc != 1)
		return rc;
	if (argc - optind > 1) {
		fprintf(stderr, "perflog stop: unexpected argument '%s'\n",
			argv[optind + 1]);
		return 2;
	}
	if (control_find(optind < argc ? argv[optind] : NULL, &c, &e) < 0 ||
	    control_stop(&c, &e) < 0) {
		fprintf(stderr, "perflog stop: %s\n", e.msg);
		return 1;
	}
	printf("%s\n", c.logset);
	return 0;
}

int cmd_status(int argc, char **argv)
{
	struct collector_info *list;
	struct perr e;
	long n;
	int rc = help_only(argc, argv, "status",
		"usage: perflog status\n"
		"List this user's running collectors: pid, interval, samples\n"
		"written, last sample (UTC), the log set's size on disk and\n"
		"the log set.\n");

	if (rc != 1)
		return rc;
	if (optind < argc) {
		fprintf(stderr, "perflog status: unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}
	n = control_list(&list, &e);
	if (n < 0) {
		fprintf(stderr, "perflog status: %s\n", e.msg);
		return 1;
	}
	if (n == 0) {
		printf("no collector is running\n");
		free(list);
		return 0;
	}
	printf("%-8s %-8s %-8s %-20s %-9s %s\n", "PID", "INTERVAL", "SAMPLES",
	       "LAST SAMPLE", "SIZE", "LOG SET");
	for (long i = 0; i < n; i++) {
		char reply[PATH_MAX + 256], samples[32] = "?", last[40] = "?";
		char size[32] = "?";
		unsigned long long bytes;
		char *p;

		if (control_request(&list[i], "status", reply, sizeof(reply),
				    &e) == 0) {
			if ((p = strstr(reply, "samples=")))
				sscanf(p + 8, "%31s", samples);
			if ((p = strstr(reply, "last=")))
				sscanf(p + 5, "%39s", last);
		}
		/* the set grows with the run (logs/layout.h): say how much */
		if (setdir_size(list[i].logset, &bytes, NULL) == 0)
			snprintf(size, sizeof(size), "%.1fM",
				 (double)bytes / (1024.0 * 1024.0));
		printf("%-8ld %-8u %-8s %-20s %-9s %s\n", (long)list[i].pid,
		       list[i].interval, samples, last, size, list[i].logset);
	}
	free(list);
	return 0;
}
