/*
 * cgroup_oom.c - the OOM killer's count in the memory cgroup a command
 * runs in (cgroup.h cgroup_oom_kills): perflog run reads it before and
 * after its command, so that a command the OOM killer ended is said to
 * be (issue 50 item 8: "exit status 137" was all it said). The kernel's
 * own count, no kernel log.
 *
 * Where the kernel counts a kill: in the victim's own group, and (v2
 * only) in each group above it. v1 does not propagate: a process killed
 * in group L/R for L's limit is counted in R alone (seen on a 6.18
 * kernel's v1 memory hierarchy: R 1, L 0). So the groups above perflog
 * run's hold no kill of its command, only kills of processes that are
 * in them themselves, and are not read.
 */
#include "cgroup.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

/* "KEY N" of a flat-keyed file (memory.events, memory.oom_control), or
 * -1 when the file or the key is not there. */
static long keyed(const char *path, const char *key)
{
	char *text = util_read_file(path, NULL);
	long v = -1;
	size_t kl = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, kl) && p[kl] == ' ') {
			v = strtol(p + kl + 1, NULL, 10);
			break;
		}
	free(text);
	return v;
}

long cgroup_oom_kills(const char *root, const char *cmd_v2)
{
	char path[PATH_MAX + 64], dir[PATH_MAX];
	char *mi, *cg;
	long v = -1;

	if (!root || !strcmp(root, "/"))
		root = "";
	/* v2, the command's own group, where the memory controller is on
	 * there: its kills and those below it, nobody else's */
	if (cmd_v2 && *cmd_v2) {
		snprintf(path, sizeof(path), "%s%s/memory.events", root, cmd_v2);
		if ((v = keyed(path, "oom_kill")) >= 0)
			return v;
	}
	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", root);
	mi = util_read_file(path, NULL);
	snprintf(path, sizeof(path), "%s/proc/self/cgroup", root);
	cg = util_read_file(path, NULL);
	/* else this process's group, which holds the command's: v2's
	 * memory.events, or v1's memory.oom_control (perflog run makes no
	 * v1 memory group: the command is in its own) */
	if (mi && cg && cgroup_place(mi, cg, NULL, dir, sizeof(dir)) == 0) {
		snprintf(path, sizeof(path), "%s%s/memory.events", root, dir);
		v = keyed(path, "oom_kill");
	}
	if (v < 0 && mi && cg &&
	    cgroup_place(mi, cg, "memory", dir, sizeof(dir)) == 0) {
		snprintf(path, sizeof(path), "%s%s/memory.oom_control", root, dir);
		v = keyed(path, "oom_kill");
	}
	free(mi);
	free(cg);
	return v;
}
