/*
 * watch_spec.c - "follow SESSION<TAB>SPEC": the collector logs a server's
 * side of a session, a daemon it did not start, as Process(SESSION), with
 * its wait states and cgroup counters, exactly as a perflog run command
 * (watch.c), until `perflog mark --end -s SESSION` ("unwatch
 * label=SESSION").
 *
 * SPEC, resolved here into a tree (process/process.h):
 *   PID            the tree under it, children that appear later included
 *   UNIT.service   the unit's cgroup (cgroup_unit: system.slice/UNIT)
 *   name=COMM      every process of that name, at the begin and started
 *                  later, and their children (a rootless tree: /proc is
 *                  scanned once a sample)
 * A PID that does not exist or a unit without a group cannot be watched:
 * the reply is an error the mark turns into a warning. A name that
 * matches nothing yet is watched all the same (procs=0 in the reply).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../logs/markers.h"
#include "collector_int.h"

/* Resolve spec into o (cg holds a unit's groups). NULL, or why not. */
static const char *resolve(const char *spec, struct proctree_options *o,
			   struct cgroup_set *cg, struct perr *pe)
{
	size_t len = strlen(spec);
	char *end;
	long pid;

	memset(o, 0, sizeof(*o));
	if (!strncmp(spec, "name=", 5)) {
		if (!spec[5] || strlen(spec + 5) > 15 || strchr(spec + 5, '/'))
			return "watch: name=COMM takes a process name of 1 to 15 bytes";
		o->comm = spec + 5;
		return NULL;
	}
	if (len > 8 && !strcmp(spec + len - 8, ".service")) {
		if (cgroup_unit(spec, cg, pe) < 0)
			return pe->msg;
		o->cgroup = cg;
		return NULL;
	}
	errno = 0;
	pid = strtol(spec, &end, 10);
	if (*spec && !*end && !errno && pid > 0 && pid <= INT32_MAX) {
		o->pid = (pid_t)pid;
		return NULL;
	}
	return "watch: SPEC is a PID, UNIT.service or name=COMM";
}

void watch_spec_request(struct collector *c, struct request *r, char *args,
			struct loop_request *lr)
{
	char *tab = strchr(args, '\t');
	char *session = NULL, *spec = NULL;
	struct proctree_options o;
	struct cgroup_set cg;
	const char *why = NULL;
	struct perr pe;

	if (tab) {
		*tab = '\0';
		session = markers_unescape(args);
		spec = markers_unescape(tab + 1);
	}
	if (!session || !spec || !session[0] ||
	    strlen(session) >= SRC_NAME_MAX)
		why = "follow: expected SESSION and SPEC";
	for (int i = 0; !why && i < c->nwatch; i++)
		if (c->watch[i].state != WATCH_ENDED &&
		    !strcmp(c->watch[i].label, session))
			why = "follow: that session's Process is watched already";
	if (!why)
		why = resolve(spec, &o, &cg, &pe);
	if (!why && watch_add(c, r, &o, session, 1, lr, &pe) < 0)
		why = pe.msg;
	if (why)
		server_reply(r, 0, "%s", why);
	free(session);
	free(spec);
}
