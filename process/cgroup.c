/*
 * cgroup.c - the command's own control group (see cgroup.h).
 *
 * Placing a group: /proc/self/cgroup says which group we are in per
 * hierarchy ("0::/a/b" for v2, "4:cpu,cpuacct:/a" for v1), relative to the
 * hierarchy's root; /proc/self/mountinfo says where each hierarchy is
 * mounted and from which of its directories (field 4, "/" unless a
 * container mounted a subtree). The group's directory is the mount point
 * plus our path below the mount's root.
 */
#define _GNU_SOURCE
#include "cgroup.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cgroup_any(const struct cgroup_set *g)
{
	return g && (g->v2[0] || g->cpu[0] || g->cpuacct[0]);
}

const char *cgroup_kind(const struct cgroup_set *g)
{
	if (!g)
		return "";
	if (g->v2[0])
		return "v2";
	return g->cpu[0] || g->cpuacct[0] ? "v1" : "";
}

/* ---- parsing ---- */

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unoctal(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* Is word one of the comma-separated tokens of list? */
static int has_token(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && !strncmp(p, word, n))
			return 1;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

/* Copy the next line of *p into buf (cut lines are skipped whole); 1 when
 * a line was copied, 0 at the end. */
static int next_line(const char **p, char *buf, size_t n)
{
	while (*p && **p) {
		const char *nl = strchr(*p, '\n');
		size_t len = nl ? (size_t)(nl - *p) : strlen(*p);
		int fits = len < n;

		if (fits) {
			memcpy(buf, *p, len);
			buf[len] = '\0';
		}
		*p = nl ? nl + 1 : NULL;
		if (fits)
			return 1;
	}
	return 0;
}

struct mount {
	char root[PATH_MAX], dir[PATH_MAX];
};

/* The first mount of the hierarchy: cgroup2 (ctrl NULL) or the v1 one
 * whose super options hold ctrl. Returns 0 or -1. */
static int find_mount(const char *mountinfo, const char *ctrl,
		      struct mount *m)
{
	const char *p = mountinfo;
	char line[4 * PATH_MAX];

	while (next_line(&p, line, sizeof(line))) {
		char *f[16], *save = NULL;
		int n = 0, dash = -1;

		for (char *t = strtok_r(line, " ", &save); t && n < 16;
		     t = strtok_r(NULL, " ", &save)) {
			if (!strcmp(t, "-") && dash < 0)
				dash = n;
			f[n++] = t;
		}
		if (dash < 5 || n < dash + 4)
			continue;
		if (ctrl ? strcmp(f[dash + 1], "cgroup") ||
			       !has_token(f[dash + 3], ctrl)
			 : strcmp(f[dash + 1], "cgroup2"))
			continue;
		unoctal(f[3]);
		unoctal(f[4]);
		if (f[3][0] != '/' || f[4][0] != '/')
			continue;	/* not a mountinfo line after all */
		if (util_strlcpy(m->root, f[3], sizeof(m->root)) < 0 ||
		    util_strlcpy(m->dir, f[4], sizeof(m->dir)) < 0)
			continue;
		return 0;
	}
	return -1;
}

/* Our group's path in the hierarchy: v2 (ctrl NULL, the "0::" line) or
 * the v1 line whose controller list holds ctrl. */
static int find_path(const char *cgroup, const char *ctrl, char *out,
		     size_t n)
{
	const char *p = cgroup;
	char line[PATH_MAX + 256];

	while (next_line(&p, line, sizeof(line))) {
		char *c1, *c2;

		c1 = strchr(line, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c1 = *c2 = '\0';
		if (ctrl ? !has_token(c1 + 1, ctrl)
			 : strcmp(line, "0") || c1[1] != '\0')
			continue;
		return util_strlcpy(out, c2 + 1, n);
	}
	return -1;
}

/* dir = mount point + path below the mount's root, or -1 when our group
 * is outside what the mount shows. */
static int place(const char *mountinfo, const char *cgroup, const char *ctrl,
		 char *dir, size_t n)
{
	struct mount m;
	char path[PATH_MAX];
	size_t rl;
	const char *rest;

	dir[0] = '\0';
	if (find_mount(mountinfo, ctrl, &m) < 0 ||
	    find_path(cgroup, ctrl, path, sizeof(path)) < 0 || path[0] != '/')
		return -1;
	rl = strlen(m.root);
	if (!strcmp(m.root, "/"))
		rest = path;
	else if (!strncmp(path, m.root, rl) && (path[rl] == '/' || !path[rl]))
		rest = path + rl;
	else
		return -1;
	if (!strcmp(rest, "/"))
		rest = "";
	if (snprintf(dir, n, "%s%s", m.dir, rest) >= (int)n) {
		dir[0] = '\0';
		return -1;
	}
	return 0;
}

int cgroup_place(const char *mountinfo, const char *cgroup,
		 const char *ctrl, char *dir, size_t n)
{
	return place(mountinfo, cgroup, ctrl, dir, n);
}

int cgroup_parse(const char *mountinfo, const char *cgroup,
		 struct cgroup_set *out)
{
	memset(out, 0, sizeof(*out));
	place(mountinfo, cgroup, NULL, out->v2, sizeof(out->v2));
	place(mountinfo, cgroup, "cpu", out->cpu, sizeof(out->cpu));
	place(mountinfo, cgroup, "cpuacct", out->cpuacct,
	      sizeof(out->cpuacct));
	return cgroup_any(out) ? 0 : -1;
}

int cgroup_self(struct cgroup_set *out, struct perr *e)
{
	char *mi = util_read_file("/proc/self/mountinfo", NULL);
	char *cg = util_read_file("/proc/self/cgroup", NULL);
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!mi || !cg)
		perr_set(e, "unable to read /proc/self/%s: %s",
			 mi ? "cgroup" : "mountinfo", strerror(errno));
	else if ((rc = cgroup_parse(mi, cg, out)) < 0)
		perr_set(e, "no cgroup hierarchy is mounted");
	free(mi);
	free(cg);
	return rc;
}

int cgroup_of(const char *root, pid_t pid, struct cgroup_set *out)
{
	char path[PATH_MAX + 32];
	char *mi, *cg;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!root || !strcmp(root, "/"))
		root = "";
	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", root);
	mi = util_read_file(path, NULL);
	snprintf(path, sizeof(path), "%s/proc/%d/cgroup", root, (int)pid);
	cg = util_read_file(path, NULL);
	if (mi && cg)
		rc = cgroup_parse(mi, cg, out);
	free(mi);
	free(cg);
	return rc;
}

int cgroup_unit(const char *unit, struct cgroup_set *out, struct perr *e)
{
	size_t len = strlen(unit);
	char *mi, *cg, *fake, *q;
	char *const dirs[] = { out->v2, out->cpu, out->cpuacct };
	int rc;

	memset(out, 0, sizeof(*out));
	if (len < 9 || len > 200 || strcmp(unit + len - 8, ".service") ||
	    unit[strspn(unit, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:_.@-\\")])
		return perr_set(e, "'%s' is not a systemd service name (NAME.service)",
				unit);
	mi = util_read_file("/proc/self/mountinfo", NULL);
	cg = util_read_file("/proc/self/cgroup", NULL);
	fake = cg ? malloc(strlen(cg) * 2 + 64 * (len + 16)) : NULL;
	if (!mi || !cg || !fake) {
		free(mi);
		free(cg);
		free(fake);
		return perr_set(e, "unable to read /proc/self/%s: %s",
				mi ? "cgroup" : "mountinfo", strerror(errno));
	}
	/* our own lines with the unit's path: "ID:CONTROLLERS:PATH" */
	q = fake;
	for (char *line = cg, *nl; line && *line; line = nl) {
		char *colon = strchr(line, ':');
		char *colon2 = colon ? strchr(colon + 1, ':') : NULL;

		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		if (!colon2)
			continue;
		q += sprintf(q, "%.*s:/system.slice/%s\n", (int)(colon2 - line),
			     line, unit);
	}
	*q = '\0';
	rc = cgroup_parse(mi, fake, out);
	free(mi);
	free(cg);
	free(fake);
	if (rc < 0)
		return perr_set(e, "no cgroup hierarchy is mounted");
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char path[PATH_MAX + 16];

		snprintf(path, sizeof(path), "%s/cgroup.procs", dirs[i]);
		if (dirs[i][0] && access(path, F_OK) < 0)
			dirs[i][0] = '\0';
	}
	if (!cgroup_any(out))
		return perr_set(e, "%s has no cgroup under system.slice (is it running?)",
				unit);
	return 0;
}

/* ---- creating, joining, removing ---- */

/* The distinct directories of a set, NULL-terminated (cpu and cpuacct are
 * one directory when co-mounted). */
static int dirs_of(struct cgroup_set *g, char **out)
{
	int n = 0;

	if (g->v2[0])
		out[n++] = g->v2;
	if (g->cpu[0])
		out[n++] = g->cpu;
	if (g->cpuacct[0] && strcmp(g->cpuacct, g->cpu))
		out[n++] = g->cpuacct;
	out[n] = NULL;
	return n;
}

int cgroup_create(const struct cgroup_set *base, const char *name,
		  struct cgroup_set *out, struct perr *e)
{
	const char *from[3] = { base->v2, base->cpu, base->cpuacct };
	char *to[3] = { out->v2, out->cpu, out->cpuacct };
	int made = 0, failed = 0;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < 3; i++) {
		if (!from[i][0])
			continue;
		if (i == 2 && !strcmp(base->cpuacct, base->cpu) && out->cpu[0]) {
			strcpy(out->cpuacct, out->cpu);	/* co-mounted */
			continue;
		}
		if (snprintf(to[i], PATH_MAX, "%s/%s", from[i], name) >= PATH_MAX) {
			to[i][0] = '\0';
			continue;
		}
		/* EEXIST: the group of a killed perflog run that had our
		 * pid; it is ours now */
		if (mkdir(to[i], 0755) < 0 && errno != EEXIST) {
			if (!failed++)
				perr_set(e, "unable to create cgroup '%s': %s",
					 to[i], strerror(errno));
			to[i][0] = '\0';
			continue;
		}
		made++;
	}
	if (!made && !failed)
		perr_set(e, "no cgroup hierarchy to create '%s' in", name);
	return made ? 0 : -1;
}

static int write_pid(const char *dir, pid_t pid)
{
	char path[PATH_MAX + 16], buf[32];
	int fd, n, ok;

	if (snprintf(path, sizeof(path), "%s/cgroup.procs", dir) >=
	    (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)pid);
	ok = write(fd, buf, (size_t)n) == n;
	if (close(fd) < 0)
		ok = 0;
	return ok ? 0 : -1;
}

int cgroup_join(struct cgroup_set *g, pid_t pid, struct perr *e)
{
	char *d[4];
	int joined = 0;

	dirs_of(g, d);
	for (int i = 0; d[i]; i++) {
		if (write_pid(d[i], pid) == 0) {
			joined++;
			continue;
		}
		if (!joined)
			perr_set(e, "unable to move pid %ld into '%s': %s",
				 (long)pid, d[i], strerror(errno));
		rmdir(d[i]);
		if (d[i] == g->cpu && !strcmp(g->cpu, g->cpuacct))
			g->cpuacct[0] = '\0';
		d[i][0] = '\0';
	}
	return joined ? 0 : -1;
}

int cgroup_cpu_usage(const struct cgroup_set *g, uint64_t *usec)
{
	char path[PATH_MAX + 32], buf[1024];

	if (g->v2[0]) {
		snprintf(path, sizeof(path), "%s/cpu.stat", g->v2);
		if (util_read_small(path, buf, sizeof(buf)) > 0) {
			char *p = strstr(buf, "usage_usec ");

			if (p && (p == buf || p[-1] == '\n')) {
				*usec = strtoull(p + 11, NULL, 10);
				return 2;
			}
		}
	}
	if (g->cpuacct[0]) {
		snprintf(path, sizeof(path), "%s/cpuacct.usage", g->cpuacct);
		if (util_read_small(path, buf, sizeof(buf)) > 0 &&
		    isdigit((unsigned char)buf[0])) {
			*usec = strtoull(buf, NULL, 10) / 1000;
			return 1;
		}
	}
	return -1;
}

/* The pids listed in DIR/cgroup.procs, malloc'ed; count or -1. */
static long read_procs(const char *dir, pid_t **out)
{
	char path[PATH_MAX + 16];
	char *text;
	long n = 0, cap = 0;
	pid_t *v = NULL;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	text = util_read_file(path, NULL);
	if (!text)
		return -1;
	for (char *p = text; *p;) {
		char *end;
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid > 0) {
			if (n == cap) {
				pid_t *nv = realloc(v, (size_t)(cap ? 2 * cap : 64) *
							     sizeof(*v));

				if (!nv) {
					free(v);
					free(text);
					return -1;
				}
				v = nv;
				cap = cap ? 2 * cap : 64;
			}
			v[n++] = (pid_t)pid;
		}
		p = end;
		while (*p == '\n' || *p == ' ')
			p++;
	}
	free(text);
	*out = v;
	return n;
}

long cgroup_procs(const struct cgroup_set *g, pid_t **pids)
{
	const char *dir = g->v2[0] ? g->v2 : g->cpuacct[0] ? g->cpuacct : g->cpu;

	*pids = NULL;
	if (!dir[0])
		return -1;
	return read_procs(dir, pids);
}

/* Move what is left in dir to its parent, then remove dir. */
static int remove_one(const char *dir)
{
	char parent[PATH_MAX];
	char *slash;

	util_strlcpy(parent, dir, sizeof(parent));
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return -1;
	*slash = '\0';
	for (int tries = 0; tries < 50; tries++) {
		pid_t *left;
		long n = read_procs(dir, &left);

		for (long i = 0; i < n; i++)
			write_pid(parent, left[i]);
		free(left);
		if (rmdir(dir) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -1;
		usleep(20000);	/* an exiting task is still counted */
	}
	return -1;
}

int cgroup_remove(struct cgroup_set *g, struct perr *e)
{
	char *d[4];
	int rc = 0;

	dirs_of(g, d);
	for (int i = 0; d[i]; i++) {
		if (remove_one(d[i]) < 0 && rc == 0)
			rc = perr_set(e, "unable to remove cgroup '%s': %s",
				      d[i], strerror(errno));
	}
	memset(g, 0, sizeof(*g));
	return rc;
}

int cgroup_clean_stale(const struct cgroup_set *base)
{
	const char *from[3] = { base->v2, base->cpu, base->cpuacct };
	size_t plen = strlen(CGROUP_PREFIX);
	int removed = 0;

	for (int i = 0; i < 3; i++) {
		DIR *d;
		struct dirent *de;

		if (!from[i][0] || (i == 2 && !strcmp(from[2], from[1])))
			continue;
		d = opendir(from[i]);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			char path[PATH_MAX + 300], *end;
			long pid;

			if (strncmp(de->d_name, CGROUP_PREFIX, plen))
				continue;
			errno = 0;
			pid = strtol(de->d_name + plen, &end, 10);
			if (*end || errno || pid <= 0 ||
			    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
				continue;	/* its perflog run is alive */
			snprintf(path, sizeof(path), "%s/%s", from[i],
				 de->d_name);
			if (rmdir(path) == 0)	/* EBUSY: it holds a task */
				removed++;
		}
		closedir(d);
	}
	return removed;
}
