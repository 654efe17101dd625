/*
 * cgroup_oom.c - the OOM killer's count over a process's memory domains
 * (cgroup.h cgroup_oom_kills): perflog run reads it before and after
 * its command, so that a command its memory cgroup's limit killed is
 * said to be (issue 50 item 8: "exit status 137" was all it said). The
 * kernel's own count, no kernel log.
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

long cgroup_oom_kills(const char *root)
{
	char path[PATH_MAX + 64], dir[PATH_MAX], mount[PATH_MAX];
	char *mi, *cg;
	long sum = -1, v;

	if (!root || !strcmp(root, "/"))
		root = "";
	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", root);
	mi = util_read_file(path, NULL);
	snprintf(path, sizeof(path), "%s/proc/self/cgroup", root);
	cg = util_read_file(path, NULL);
	if (mi && cg && cgroup_place(mi, cg, NULL, dir, sizeof(dir)) == 0) {
		snprintf(path, sizeof(path), "%s%s/memory.events", root, dir);
		if ((v = keyed(path, "oom_kill")) >= 0)
			sum = v;
	}
	/* v1: each group up to the hierarchy's mount point (the group
	 * placed at "/" is the mount point itself) */
	if (mi && cg && cgroup_place(mi, cg, "memory", dir, sizeof(dir)) == 0) {
		size_t ml = cgroup_place(mi, "1:memory:/\n", "memory", mount,
					 sizeof(mount)) == 0 ? strlen(mount) : 0;
		for (;;) {
			snprintf(path, sizeof(path), "%s%s/memory.oom_control", root, dir);
			if ((v = keyed(path, "oom_kill")) >= 0)
				sum = (sum < 0 ? 0 : sum) + v;
			char *slash = strrchr(dir, '/');
			if (strlen(dir) <= ml || !slash || slash == dir)
				break;
			*slash = '\0';
		}
	}
	free(mi);
	free(cg);
	return sum;
}
