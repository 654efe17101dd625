/*
 * settings.h - the counter-log settings file (perftest.pml.sample documents
 * every key):
 *
 *   # comment
 *   [log]
 *   interval  = 5          seconds, whole, >= 1
 *   directory = ./logs     where log sets are created
 *   name      =            log set name; empty = HOST-YYYYmmddTHHMMSS
 *   retention = 2d         span kept at full resolution (s/m/h/d/w)
 *   rrdcached =            unix:/path or host:port; empty = write directly
 *   flush     = 10s        write each RRD file at least this often (rows
 *                          are held in between; 0 = every sample)
 *   [run]
 *   output    = 1M         how much of a command's output perflog run keeps
 *                          in the log set: its last SIZE bytes (0 = none)
 *   server    = HOST[:DIR] a server perflog run marks over ssh (repeatable,
 *                          as --server; run/run_remote.h)
 *   ssh       = ssh -o BatchMode=yes -o ConnectTimeout=10
 *                          the ssh command line ($PERFLOG_SSH wins)
 *   [server]
 *   daemons   = sshd rsync the daemons whose client connections are each
 *                          a session of their own (conn_sessions.h)
 *   [counters]
 *   \Processor(*)\% Processor Time
 *   \LogicalDisk(*)\% Disk Time
 *   ...
 *
 * With no file, settings_default() gives the seed kit's set at 5 s under
 * ./logs. Every error names FILE:LINE.
 */
#ifndef PERFLOG_SETTINGS_H
#define PERFLOG_SETTINGS_H

#include <limits.h>
#include <stddef.h>

#include "../common/util.h"
#include "../counters/counters.h"

struct counter_sel {
	struct counter_path path;	/* instance "*" = every instance */
	int line;			/* line in the settings file, 0 = built in */
};

struct settings {
	unsigned interval;
	char directory[PATH_MAX];
	char name[256];
	unsigned long retention;
	char rrdcached[256];
	unsigned long flush;	/* seconds rows may be held before writing */
	unsigned long long output;	/* [run] output: bytes of output kept */
	char **servers;		/* [run] server, each HOST[:DIR], malloc'ed */
	size_t nservers;
	char ssh[1024];		/* [run] ssh, "" = the default */
	char daemons[256];	/* [server] daemons: a comma list of
				 * command names, "" = none */
	struct counter_sel *sel;
	size_t nsel;
	char source[PATH_MAX];	/* the file read, or "" for built-in */
};

/* The built-in default: the seed kit's counters, 5 s, ./logs, 2 days. */
int settings_default(struct settings *s);
/* Load a file over the defaults for [log] keys; [counters] replaces the
 * default counter set when present. */
int settings_load(const char *file, struct settings *s, struct perr *e);
/* Parse text (name used in messages as NAME:LINE). */
int settings_parse(const char *text, const char *name, struct settings *s,
		   struct perr *e);
/* Parse a [run] output size ("1M", "0"); at most 1 GiB. */
int settings_parse_output(const char *arg, unsigned long long *out,
			  struct perr *e);
/* Parse an interval argument ("5"); whole seconds >= 1, at most a day. */
int settings_parse_interval(const char *arg, unsigned *out, struct perr *e);
void settings_free(struct settings *s);

/* The default counter paths (the seed kit's perfmon set), NULL-terminated. */
extern const char *const settings_default_counters[];

#endif
