/*
 * cmd_control.c - `perflog stop [DIR]` and `perflog status [--json]`.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../commands.h"
#include "../common/json.h"
#include "../logs/setdir.h"
#include "control.h"

/* The perflog runs logging through collector c ("PID:LABEL,..." from its
 * status reply) into buf; 0 when none (or it does not say). */
static int runs_of(const struct collector_info *c, char *buf, size_t n)
{
	char reply[PATH_MAX + 1400], *p;
	struct perr e;

	buf[0] = '\0';
	if (control_request(c, "status", reply, sizeof(reply), &e) < 0 ||
	    !(p = strstr(reply, " runs=")))
		return 0;
	p += 6;
	p[strcspn(p, " ")] = '\0';
	util_strlcpy(buf, p, n);
	return buf[0] != '\0';
}

int cmd_stop(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct collector_info c;
	struct perr e;
	char runs[1024];
	int force = 0, o;

	optind = 1;
	opterr = 0;
	while ((o = util_getopt(argc, argv, "+fh", longopts, NULL)) != -1) {
		if (o == 'f') {
			force = 1;
			continue;
		}
		if (o != 'h')
			return util_bad_option("stop", argv, optind, optopt);
		fputs("usage: perflog stop [--force] [DIR]\n"
		      "Stop the collector logging to the log set DIR (or the only one\n"
		      "running); returns once the log set is closed and complete.\n"
		      "Without DIR, one that a perflog run is logging through is not\n"
		      "stopped (its log would end before the command) unless --force.\n",
		      stdout);
		return 0;
	}
	if (argc - optind > 1) {
		fprintf(stderr, "perflog stop: unexpected argument '%s'\n",
			argv[optind + 1]);
		return 2;
	}
	if (control_find(optind < argc ? argv[optind] : NULL, &c, &e) < 0) {
		fprintf(stderr, "perflog stop: %s\n", e.msg);
		return 1;
	}
	/* a run's command still going: its log would end early, and the
	 * run could only find out at its end */
	if (runs_of(&c, runs, sizeof(runs))) {
		if (!force && optind >= argc) {
			fprintf(stderr, "perflog stop: perflog run (pid:label %s) is logging to '%s' through this collector: not stopped (its log would end before its command); name the log set or use --force\n",
				runs, c.logset);
			return 1;
		}
		fprintf(stderr, "perflog stop: warning: perflog run (pid:label %s) was logging through it: its log ends early\n",
			runs);
	}
	if (control_stop(&c, &e) < 0) {
		fprintf(stderr, "perflog stop: %s\n", e.msg);
		return 1;
	}
	printf("%s\n", c.logset);
	return 0;
}

/* Ask one collector for its samples and last sample's time; "?" when it
 * does not answer. Returns 1 when it answered. */
static int ask_status(const struct collector_info *c, char *samples,
		      size_t ns, char *last, size_t nl, char *cost, size_t nc)
{
	char reply[PATH_MAX + 1024], *p;
	struct perr e;

	snprintf(samples, ns, "?");
	snprintf(last, nl, "?");
	cost[0] = '\0';
	if (control_request(c, "status", reply, sizeof(reply), &e) < 0)
		return 0;
	if ((p = strstr(reply, " samples=")))
		sscanf(p + 9, "%31s", samples);
	if ((p = strstr(reply, " last=")))
		sscanf(p + 6, "%39s", last);
	if ((p = strstr(reply, " cost=")))
		snprintf(cost, nc, "%.*s", (int)strcspn(p + 6, " \n"), p + 6);
	return 1;
}

/* The collector's "samples:N,read:US,..." (collector/cost.c) as an
 * object of numbers, microseconds in all since it started; nothing from
 * a collector that does not say (an older one). */
static void cost_json(struct json *j, char *cost)
{
	char *save = NULL, *item;

	if (!*cost)
		return;
	json_object_begin(j, "cost_us");
	for (item = strtok_r(cost, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(item, ':'), *end;
		double v;

		if (!colon)
			continue;
		*colon = '\0';
		v = strtod(colon + 1, &end);
		json_num(j, item, end != colon + 1 && !*end ? v : NAN);
	}
	json_object_end(j);
}

/* --json: {"format": 1, "collectors": [{...}]}, schema in
 * man/perflog-status.1 */
static void status_json(const struct collector_info *list, long n)
{
	struct json j;

	json_init(&j, stdout);
	json_object_begin(&j, NULL);
	json_int(&j, "format", 1);
	json_array_begin(&j, "collectors");
	for (long i = 0; i < n; i++) {
		char samples[32], last[40], cost[512];
		int answered = ask_status(&list[i], samples, sizeof(samples),
					  last, sizeof(last), cost,
					  sizeof(cost));
		unsigned long long bytes;
		char *end;
		double v = strtod(samples, &end);

		json_object_begin(&j, NULL);
		json_int(&j, "pid", (long long)list[i].pid);
		json_str(&j, "logset", list[i].logset);
		json_int(&j, "interval", list[i].interval);
		json_bool(&j, "answered", answered);
		json_num(&j, "samples", answered && !*end && end != samples ? v : NAN);
		json_str(&j, "last_sample", answered && last[0] != '-' ? last : NULL);
		json_num(&j, "size_bytes", setdir_size(list[i].logset, &bytes, NULL) == 0
			 ? (double)bytes : NAN);
		json_str(&j, "runtime_dir", list[i].rundir);
		cost_json(&j, cost);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

int cmd_status(int argc, char **argv)
{
	struct collector_info *list;
	struct perr e;
	long n;
	int json = 0, o;
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};

	optind = 1;
	opterr = 0;
	while ((o = util_getopt(argc, argv, "+h", longopts, NULL)) != -1) {
		if (o == 'j') {
			json = 1;
			continue;
		}
		if (o != 'h')
			return util_bad_option("status", argv, optind, optopt);
		printf("usage: perflog status [--json]\n"
		       "List this user's running collectors: pid, interval, samples\n"
		       "written, last sample (UTC), the log set's size on disk and\n"
		       "the log set. For root, the collector of perflog.service\n"
		       "(/run/perflog) too.\n"
		       "  --json  the same as JSON, for scripts (schema: man perflog-status)\n");
		return 0;
	}
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
	if (json) {
		status_json(list, n);
		free(list);
		return fflush(stdout) ? 1 : 0;
	}
	if (n == 0) {
		printf("no collector is running\n");
		free(list);
		return 0;
	}
	printf("%-8s %-8s %-8s %-20s %-9s %s\n", "PID", "INTERVAL", "SAMPLES",
	       "LAST SAMPLE", "SIZE", "LOG SET");
	for (long i = 0; i < n; i++) {
		char samples[32], last[40], size[32] = "?", cost[512];
		unsigned long long bytes;

		ask_status(&list[i], samples, sizeof(samples), last, sizeof(last),
			   cost, sizeof(cost));
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
