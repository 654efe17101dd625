/*
 * perflog.c - the thin main: find the subcommand and hand it the rest of
 * the command line. Everything else lives with its module (commands.h).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common/suggest.h"
#include "common/util.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "start", cmd_start, "start logging; prints the log set's path" },
	{ "stop", cmd_stop, "stop a collector; the log set is closed and complete" },
	{ "status", cmd_status, "list running collectors" },
	{ "counters", cmd_counters, "list counters and instances; validate a settings file" },
	{ "export", cmd_export, "export a log set as CSV or PNG charts" },
	{ "mark", cmd_mark, "add a marker to a running collector's log set" },
	{ "run", cmd_run, "log around a command: start, mark, run, mark, stop" },
	{ "workload", cmd_workload, "the reference backup (the seed kit's file sets)" },
	{ "report", cmd_report, "per-session summary and bottleneck verdict; compare; HTML" },
	{ "estimate", cmd_estimate, "backup time from a file-size distribution (timest)" },
	{ "view", cmd_view, "browse log sets in the terminal (several side by side)" },
	{ "import", cmd_import, "nmon files and perfmon CSV of other hosts as log sets" },
	{ "receive", cmd_receive, "take other hosts' log sets written through rrdcached over TCP" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: perflog COMMAND [ARGS]   (perflog help COMMAND, perflog COMMAND --help)\n\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
}

static const struct command *find(const char *name)
{
	struct suggest s;

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	suggest_init(&s, name);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		suggest_offer(&s, commands[i].name);
	if (suggest_best(&s))
		fprintf(stderr, "perflog: unknown command '%s': did you mean '%s'? (see perflog --help)\n",
			name, suggest_best(&s));
	else
		fprintf(stderr, "perflog: unknown command '%s' (see perflog --help)\n",
			name);
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command *c;

	/* a reader that goes away (perflog export --csv - | head) must not
	 * kill us mid-write; writes then fail with EPIPE and are reported */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "help") && argc > 2) {
		/* perflog help CMD: the command's own usage, as CMD --help */
		char *help[] = { argv[2], (char *)"--help", NULL };

		if (!(c = find(argv[2])))
			return 2;
		return c->run(2, help);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("perflog %s\n", PERFLOG_VERSION);
		return 0;
	}
	if (!(c = find(argv[1])))
		return 2;
	return c->run(argc - 1, argv + 1);
}
