/*
 * process.c - the Process object: who is in the tree and what each member
 * has done (process.h says what is counted and why). The per-task books
 * (open entries, exit records, tasks recognised after their death) are in
 * process_books.c, their reads of threads in process_threads.c.
 *
 * One read: membership (cgroup.procs, or the children walk from the root,
 * or the ppid scan of all of /proc), then per member its stat (ppid, rss,
 * start) and either its threads' own figures ("taskstats" books) or its
 * whole-process figures ("tree" books). Processes vanish between listing
 * and reading all the time: a missing file drops that member from this
 * read, and the books decide what its work becomes.
 *
 * The per-member files are read by procread.c.
 */
#define _GNU_SOURCE
#include "process.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "process_books.h"

/* ---- membership ---- */

static int push_member(struct proctree *t, pid_t pid)
{
	if (t->nmem == t->capmem) {
		size_t nc = t->capmem ? 2 * t->capmem : 64;
		pid_t *nv = realloc(t->mem, nc * sizeof(*nv));

		if (!nv)
			return -1;
		t->mem = nv;
		t->capmem = nc;
	}
	t->mem[t->nmem++] = pid;
	return 0;
}

/* Append the pids of a "children" file (space separated). */
static int add_children(struct proctree *t, pid_t pid, pid_t tid)
{
	char path[PATH_MAX + 64], buf[4096];
	long n;

	pbooks_path(t, path, sizeof(path), pid, tid, "children");
	n = util_read_small(path, buf, sizeof(buf));
	if (n < 0)
		return errno == ENOENT ? -2 : 0;
	if ((size_t)n == sizeof(buf) - 1) {
		/* many children: the long way */
		char *big = util_read_file(path, NULL);
		int rc = 0;

		for (char *p = big, *end; p && *p; p = end) {
			long c = strtol(p, &end, 10);

			if (end == p)
				break;
			if (c > 0 && push_member(t, (pid_t)c) < 0)
				rc = -1;
		}
		free(big);
		return rc;
	}
	for (char *p = buf, *end; *p; p = end) {
		long c = strtol(p, &end, 10);

		if (end == p)
			break;
		if (c > 0 && push_member(t, (pid_t)c) < 0)
			return -1;
	}
	return 0;
}

/* Breadth first from the root through every thread's children file:
 * parents come before their children. -2 when the kernel has no
 * children files. */
static int walk_children(struct proctree *t)
{
	t->nmem = 0;
	if (push_member(t, t->pid) < 0)
		return -1;
	for (size_t i = 0; i < t->nmem; i++) {
		char path[PATH_MAX + 32];
		DIR *d;
		struct dirent *de;

		pbooks_path(t, path, sizeof(path), t->mem[i], 0, "task");
		d = opendir(path);
		if (!d && i == 0)
			return -2;	/* no task directories: a fixture */
		if (!d)
			continue;	/* gone since */
		while ((de = readdir(d))) {
			long tid = strtol(de->d_name, NULL, 10);
			int r;

			if (tid <= 0)
				continue;
			r = add_children(t, t->mem[i], (pid_t)tid);
			if (r == -2 && i == 0) {
				closedir(d);
				return -2;
			}
			if (r == -1) {
				closedir(d);
				return -1;
			}
		}
		closedir(d);
	}
	return 0;
}

static int cmp_pstat(const void *a, const void *b)
{
	pid_t x = ((const struct pstat *)a)->pid;
	pid_t y = ((const struct pstat *)b)->pid;

	return (x > y) - (x < y);
}

static struct pstat *find_pstat(struct pstat *v, size_t n, pid_t pid)
{
	struct pstat key = { .pid = pid };

	return bsearch(&key, v, n, sizeof(*v), cmp_pstat);
}

/* The ppid scan, for a name= tree, a tree of many threads (walk_dearer)
 * and kernels without children files (and fixtures): read every
 * /proc/PID/stat and keep those whose ppid chain reaches the root.
 * mark: 0 unknown, 1 in the tree, 2 not, 3 visiting (a ppid cycle, only
 * possible in a garbage fixture, ends as "not"). */
static int scan_ppids(struct proctree *t)
{
	char dirpath[PATH_MAX + 8];
	struct pstat *v;
	size_t n = 0;
	struct dirent *de;
	DIR *d;

	snprintf(dirpath, sizeof(dirpath), "%s/proc", t->root);
	d = opendir(dirpath);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0 || !isdigit((unsigned char)de->d_name[0]))
			continue;
		if (util_grow(&t->hostv, &t->caphost, n + 1,
			      sizeof(*t->hostv)) < 0) {
			closedir(d);
			return -1;
		}
		if (pbooks_read_stat(t, (pid_t)pid, 0, &t->hostv[n]) == 0)
			t->hostv[n++].mark = 0;
	}
	closedir(d);
	v = t->hostv;
	if (n)
		qsort(v, n, sizeof(*v), cmp_pstat);
	t->nmem = 0;
	for (size_t i = 0; i < n; i++) {
		int verdict = 2;
		struct pstat *q;

		for (q = &v[i]; q;) {
			if ((t->pid && q->pid == t->pid) ||
			    (t->comm[0] && !strcmp(q->comm, t->comm))) {
				verdict = 1;
				break;
			}
			if (q->mark == 1 || q->mark == 2) {
				verdict = q->mark;
				break;
			}
			if (q->mark == 3)
				break;
			q->mark = 3;
			q = q->ppid > 0 ? find_pstat(v, n, q->ppid) : NULL;
		}
		for (q = &v[i]; q && q->mark == 3;) {
			q->mark = verdict;
			q = q->ppid > 0 ? find_pstat(v, n, q->ppid) : NULL;
		}
		if ((t->pid && v[i].pid == t->pid) ||
		    (t->comm[0] && !strcmp(v[i].comm, t->comm)))
			v[i].mark = 1;
		if (v[i].mark == 1 && push_member(t, v[i].pid) < 0)
			return -1;
	}
	return 0;
}

/* The processes of the host: its /proc's numeric entries (one listing,
 * no file read). 0 when unreadable. */
static size_t count_procs(const struct proctree *t)
{
	char dirpath[PATH_MAX + 8];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	snprintf(dirpath, sizeof(dirpath), "%s/proc", t->root);
	if (!(d = opendir(dirpath)))
		return 0;
	while ((de = readdir(d)))
		n += isdigit((unsigned char)de->d_name[0]) != 0;
	closedir(d);
	return n;
}

/* Is the children walk dearer than the ppid scan? The walk opens a file
 * a thread of the tree, the scan a stat a process of the host, about
 * twice the cost (do_task_stat formats 52 fields): a watched server with
 * a pool of 2,000 threads had 2,000 children files read a sample, on a
 * host of 200 processes. Both find the same members (the real parent's
 * children); the walk stays for trees of fewer than WALK_MIN threads. */
#define WALK_MIN 64
static int walk_dearer(const struct proctree *t)
{
	size_t host;

	if (t->tree_threads < WALK_MIN)
		return 0;
	host = count_procs(t);
	return host && t->tree_threads > 2 * host;
}

/* Fill t->mem with the tree's processes now. */
static int list_members(struct proctree *t)
{
	if (t->has_cg) {
		pid_t *p;
		long n = cgroup_procs(&t->cg, &p);

		if (n >= 0) {
			int rc = 0;

			t->nmem = 0;
			for (long i = 0; i < n && rc == 0; i++)
				rc = push_member(t, p[i]);
			free(p);
			return rc;
		}
	}
	if (t->walk && t->pid && !walk_dearer(t)) {
		int r = walk_children(t);

		if (r != -2)
			return r;
		t->walk = 0;	/* no children files: never again */
	}
	return scan_ppids(t);
}

/* A zombie has ended: only its parent has not looked yet (an orphaned
 * shim waits for init, which may take its time). */
static int dead_state(char state)
{
	return state == 'Z' || state == 'X' || state == 'x';
}

int proctree_alive(const struct proctree *t)
{
	struct pstat p;

	if (!t->pid && t->comm[0])
		return 1;	/* its processes may come later */
	if (!t->pid) {
		const char *g = t->cg.v2[0] ? t->cg.v2 : t->cg.cpuacct;
		char path[PATH_MAX + 16];

		snprintf(path, sizeof(path), "%s/cgroup.procs", g);
		return access(path, F_OK) == 0;
	}
	return pbooks_read_stat(t, t->pid, 0, &p) == 0 && p.start == t->start &&
	       !dead_state(p.state);
}

/* Process pid's stat under root into *p: 0, or -1 when there is no such
 * process or its stat does not parse. */
static int stat_of(const char *root, pid_t pid, struct pstat *p)
{
	char path[PATH_MAX + 32], buf[1024];

	if (pid <= 0)
		return -1;
	snprintf(path, sizeof(path), "%s/proc/%d/stat",
		 root && strcmp(root, "/") ? root : "", (int)pid);
	if (util_read_small(path, buf, sizeof(buf)) < 0 ||
	    pbooks_parse_stat(buf, p) < 0 || p->pid != pid)
		return -1;
	return 0;
}

unsigned long long proctree_start_time(const char *root, pid_t pid)
{
	struct pstat p;

	if (stat_of(root, pid, &p) < 0 || dead_state(p.state))
		return 0;
	return p.start ? p.start : 1;
}

int proctree_ended(const char *root, pid_t pid)
{
	struct pstat p;

	/* (a leader that ended before its threads is Z while they run) */
	return stat_of(root, pid, &p) == 0 && dead_state(p.state) &&
	       p.threads <= 1;
}

/* ---- open, read, close ---- */

struct proctree *proctree_open(const struct proctree_options *o,
			       struct perr *e)
{
	const char *root = o->root && *o->root ? o->root : "/";
	struct proctree *t;
	size_t len = strlen(root);
	struct pstat p;

	if (o->pid < 0 || (o->pid == 0 && !(o->comm && *o->comm) &&
			   !(o->cgroup && cgroup_any(o->cgroup)))) {
		perr_set(e, "invalid pid %d", (int)o->pid);
		return NULL;
	}
	if (o->comm && strlen(o->comm) >= sizeof(t->comm)) {
		perr_set(e, "process name '%s' is longer than the kernel's 15 bytes",
			 o->comm);
		return NULL;
	}
	while (len > 0 && root[len - 1] == '/')
		len--;
	if (len >= PATH_MAX) {
		perr_set(e, "root path too long");
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		perr_set(e, "out of memory");
		return NULL;
	}
	memcpy(t->root, root, len);
	t->pid = o->pid;
	if (!t->pid && o->comm)
		util_strlcpy(t->comm, o->comm, sizeof(t->comm));
	t->shim = o->shim;
	t->exits = o->exits;
	t->walk = 1;
	if (o->cgroup && cgroup_any(o->cgroup)) {
		t->cg = *o->cgroup;
		t->has_cg = 1;
	}
	t->pagesize = sysconf(_SC_PAGESIZE);
	if (t->pagesize <= 0)
		t->pagesize = 4096;
	t->hz = sysconf(_SC_CLK_TCK);
	if (t->hz <= 0)
		t->hz = 100;
	if (t->pid && pbooks_read_stat(t, t->pid, 0, &p) < 0) {
		perr_set(e, "no process %d under '%s/proc'", (int)t->pid,
			 t->root);
		free(t);
		return NULL;
	}
	t->start = t->pid ? p.start : 0;
	pbooks_init(t);
	snprintf(t->method, sizeof(t->method), "cpu=%s io=%s",
		 !t->has_cg ? (t->exits ? "taskstats" : "tree")
		 : t->cg.v2[0] ? "cgroup-v2" : "cgroup-v1",
		 t->exits ? "taskstats" : "tree");
	return t;
}

int proctree_read(struct proctree *t, struct proc_raw *out, struct perr *e)
{
	uint64_t cg_cpu;
	int rc;

	memset(out, 0, sizeof(*out));
	out->mono = util_monotonic();
	t->nlate = 0;	/* the last read's are handed on */
	if (!proctree_alive(t)) {
		/* the records that waited for a parent the root's last
		 * moments made known (a child shell's record, then the
		 * root's exit) are placed all the same: proctree_late */
		if (t->exits)
			pbooks_pending_resolve(t);
		return t->pid ? perr_set(e, "process %d has exited", (int)t->pid)
			      : perr_set(e, "its cgroup is gone");
	}
	if (list_members(t) < 0)
		return perr_set(e, "unable to list process %d's tree: %s",
				(int)t->pid, strerror(errno));
	t->tree_threads = 0;	/* the books count them again */
	rc = t->exits ? pbooks_scan_threads(t, out) : pbooks_scan_procs(t, out);
	if (rc < 0)
		return perr_set(e, "out of memory");
	t->cpu_elsewhere = t->has_cg && cgroup_cpu_usage(&t->cg, &cg_cpu) > 0;
	if (t->cpu_elsewhere) {
		/* the group's own clock, monotonic whatever the books */
		out->cpu_us = cg_cpu;
	}
	out->mono = util_monotonic();
	out->rootless = !t->pid;
	return 0;
}

long proctree_procs(const struct proctree *t, pid_t **v, size_t *cap)
{
	size_t n = 0;

	if (util_grow(v, cap, t->nmem + 1, sizeof(**v)) < 0)
		return -1;
	for (size_t i = 0; i < t->nmem; i++)
		if (!(t->shim && t->mem[i] == t->pid))
			(*v)[n++] = t->mem[i];
	return (long)n;
}

const char *proctree_method(const struct proctree *t)
{
	return t->method;
}

pid_t proctree_root(const struct proctree *t)
{
	return t->pid;
}

const struct cgroup_set *proctree_cgroup(const struct proctree *t)
{
	return t->has_cg ? &t->cg : NULL;
}

void proctree_close(struct proctree *t)
{
	if (!t)
		return;
	pbooks_free(t);
	free(t->mem);
	free(t->hostv);
	free(t);
}
