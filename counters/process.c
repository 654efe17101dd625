/*
 * process.c - the Process object: a command's whole process tree as one
 * instance (see process.h for what is summed and why).
 *
 * One sample = one scan of ROOT/proc: every numeric entry's stat is read
 * into a table (pid, ppid, ticks, start time, rss); the tree is the root
 * plus every entry whose ppid chain reaches it; then /proc/PID/io is read
 * for the tree's members only. Processes vanish between readdir and read
 * all the time: a missing file just drops that process from this scan
 * (its work is already in its parent's cutime/cstime and io once reaped,
 * or will be at the next scan).
 *
 * The root is identified by pid AND start time (stat field 22), so a pid
 * reused by an unrelated process after the root exits is not mistaken for
 * it. /proc/PID/stat is parsed from the LAST ')' since comm may contain
 * spaces and parentheses ("a) b (c").
 */
#define _GNU_SOURCE
#include "process.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"

struct proctree {
	char root[PATH_MAX];	/* "" for "/", else the prefix without a trailing / */
	pid_t pid;
	unsigned long long start;	/* root's start time, clock ticks */
	long pagesize;
};

struct pstat {
	pid_t pid, ppid;
	unsigned long long ticks, start;
	double rss;
	int state;		/* 0 unknown, 1 in tree, 2 not, 3 visiting */
};

/* Read a small file into buf (NUL-terminated). Returns bytes or -1. */
static ssize_t read_small(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t got = 0;
	while (got + 1 < n) {
		ssize_t r = read(fd, buf + got, n - 1 - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	return (ssize_t)got;
}

/* Parse one /proc/PID/stat text. Returns 0, or -1 when malformed. */
static int parse_stat(const char *text, struct pstat *p)
{
	const char *close_paren = strrchr(text, ')');
	if (!close_paren)
		return -1;
	char *end;
	errno = 0;
	long long pid = strtoll(text, &end, 10);
	if (end == text || errno || pid <= 0 || pid > INT_MAX)
		return -1;
	/* fields after ')': [0] state (field 3), [1] ppid, ... [11] utime
	 * (field 14), [12] stime, [13] cutime, [14] cstime, [19] starttime
	 * (field 22), [21] rss in pages (field 24) */
	long long f[22];
	const char *s = close_paren + 1;
	for (int i = 0; i < 22; i++) {
		while (*s == ' ')
			s++;
		if (!*s || *s == '\n')
			return -1;
		if (i == 0) {	/* state: one letter */
			while (*s && *s != ' ')
				s++;
			f[0] = 0;
			continue;
		}
		errno = 0;
		f[i] = strtoll(s, &end, 10);
		if (end == s || errno || (*end != ' ' && *end != '\n' && *end))
			return -1;
		s = end;
	}
	if (f[1] < 0 || f[1] > INT_MAX)
		return -1;
	p->pid = (pid_t)pid;
	p->ppid = (pid_t)f[1];
	unsigned long long t = 0;
	for (int i = 11; i <= 14; i++)	/* cutime/cstime are %ld: never < 0 */
		if (f[i] > 0)
			t += (unsigned long long)f[i];
	p->ticks = t;
	p->start = f[19] > 0 ? (unsigned long long)f[19] : 0;
	p->rss = f[21] > 0 ? (double)f[21] : 0;
	p->state = 0;
	return 0;
}

static void proc_path(char *buf, size_t n, const struct proctree *t,
		      pid_t pid, const char *file)
{
	snprintf(buf, n, "%s/proc/%d/%s", t->root, (int)pid, file);
}

static int read_pstat(const struct proctree *t, pid_t pid, struct pstat *p)
{
	char path[PATH_MAX + 64], buf[4096];
	proc_path(path, sizeof(path), t, pid, "stat");
	if (read_small(path, buf, sizeof(buf)) < 0)
		return -1;
	if (parse_stat(buf, p) < 0 || p->pid != pid)
		return -1;
	return 0;
}

/* rchar and wchar of /proc/PID/io; 0 found both, -1 otherwise. */
static int read_io(const struct proctree *t, pid_t pid, uint64_t *rd,
		   uint64_t *wr)
{
	char path[PATH_MAX + 64], buf[1024];
	proc_path(path, sizeof(path), t, pid, "io");
	if (read_small(path, buf, sizeof(buf)) < 0)
		return -1;
	int have = 0;
	for (char *line = buf; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		uint64_t *dst = NULL;
		const char *v = NULL;
		if (!strncmp(line, "rchar:", 6))
			dst = rd, v = line + 6;
		else if (!strncmp(line, "wchar:", 6))
			dst = wr, v = line + 6;
		if (dst) {
			char *end;
			errno = 0;
			unsigned long long x = strtoull(v, &end, 10);
			if (end != v && !errno && !strchr(v, '-')) {
				*dst = x;
				have |= dst == rd ? 1 : 2;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	return have == 3 ? 0 : -1;
}

struct proctree *proctree_open(const char *root, pid_t pid, struct perr *e)
{
	if (pid <= 0) {
		perr_set(e, "invalid pid %d", (int)pid);
		return NULL;
	}
	struct proctree *t = calloc(1, sizeof(*t));
	if (!t) {
		perr_set(e, "out of memory");
		return NULL;
	}
	if (!root || !*root)
		root = "/";
	size_t len = strlen(root);
	while (len > 0 && root[len - 1] == '/')
		len--;
	if (len >= sizeof(t->root)) {
		free(t);
		perr_set(e, "root path too long");
		return NULL;
	}
	memcpy(t->root, root, len);
	t->root[len] = '\0';
	t->pid = pid;
	t->pagesize = sysconf(_SC_PAGESIZE);
	if (t->pagesize <= 0)
		t->pagesize = 4096;
	struct pstat p;
	if (read_pstat(t, pid, &p) < 0) {
		perr_set(e, "no process %d under '%s/proc'", (int)pid,
			 t->root);
		free(t);
		return NULL;
	}
	t->start = p.start;
	return t;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = ((const struct pstat *)a)->pid;
	pid_t y = ((const struct pstat *)b)->pid;
	return (x > y) - (x < y);
}

static struct pstat *find(struct pstat *v, size_t n, pid_t pid)
{
	struct pstat key = { .pid = pid };
	return bsearch(&key, v, n, sizeof(*v), cmp_pid);
}

/* Is p in the tree? Walks the ppid chain marking "visiting", then marks
 * the walked chain with the verdict (memoised for the rest of the scan). A
 * cycle (possible only in a garbage fixture) ends as "not in the tree". */
static int in_tree(struct pstat *v, size_t n, struct pstat *p, pid_t root)
{
	int verdict = 2;
	for (struct pstat *q = p; q;) {
		if (q->pid == root) {
			verdict = 1;
			break;
		}
		if (q->state == 1 || q->state == 2) {
			verdict = q->state;
			break;
		}
		if (q->state == 3)	/* cycle */
			break;
		q->state = 3;
		q = q->ppid > 0 ? find(v, n, q->ppid) : NULL;
	}
	for (struct pstat *q = p; q && q->state == 3;) {
		q->state = verdict;
		q = q->ppid > 0 ? find(v, n, q->ppid) : NULL;
	}
	if (p->pid == root)
		p->state = 1;
	return p->state == 1;
}

int proctree_read(struct proctree *t, struct proc_raw *out, struct perr *e)
{
	memset(out, 0, sizeof(*out));
	out->mono = util_monotonic();
	char dirpath[PATH_MAX + 8];
	snprintf(dirpath, sizeof(dirpath), "%s/proc", t->root);
	DIR *d = opendir(dirpath);
	if (!d)
		return perr_set(e, "unable to open '%s': %s", dirpath,
				strerror(errno));
	struct pstat *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	int oom = 0;
	while ((de = readdir(d))) {
		const char *name = de->d_name;
		if (!isdigit((unsigned char)name[0]))
			continue;
		char *end;
		errno = 0;
		long pid = strtol(name, &end, 10);
		if (*end || errno || pid <= 0 || pid > INT_MAX)
			continue;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 256;
			struct pstat *nv = realloc(v, nc * sizeof(*v));
			if (!nv) {
				oom = 1;
				break;
			}
			v = nv;
			cap = nc;
		}
		if (read_pstat(t, (pid_t)pid, &v[n]) == 0)
			n++;	/* else it vanished or is garbage: skip */
	}
	closedir(d);
	if (oom) {
		free(v);
		return perr_set(e, "out of memory");
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_pid);
	struct pstat *root = n ? find(v, n, t->pid) : NULL;
	if (!root || root->start != t->start) {
		free(v);
		return perr_set(e, "process %d has exited", (int)t->pid);
	}
	for (size_t i = 0; i < n; i++) {
		if (!in_tree(v, n, &v[i], t->pid))
			continue;
		out->nprocs++;
		out->cpu_ticks += v[i].ticks;
		out->rss_bytes += v[i].rss * (double)t->pagesize;
		uint64_t rd, wr;
		if (read_io(t, v[i].pid, &rd, &wr) == 0) {
			out->read_bytes += rd;
			out->write_bytes += wr;
		}
	}
	free(v);
	return 0;
}

void proctree_close(struct proctree *t)
{
	free(t);
}

/* Index of a Process counter within its object: catalog.h keeps the table
 * in enum order, so a Process counter's index is its offset from the
 * first Process counter (no table lookup needed on the hot path). */
#define PROC_INDEX(id) ((int)(id) - (int)CTR_PROC_PROCESSOR_TIME)

void proctree_rates(const struct proc_raw *prev, const struct proc_raw *cur,
		    struct instance_values *out)
{
	out->object = OBJ_PROCESS;
	double cpu = NAN, rd = NAN, wr = NAN, ws = NAN;
	if (cur && cur->nprocs > 0)
		ws = cur->rss_bytes;
	if (prev && cur && prev->nprocs > 0 && cur->nprocs > 0) {
		double dt = cur->mono - prev->mono;
		long hz = sysconf(_SC_CLK_TCK);
		if (hz <= 0)
			hz = 100;
		if (dt > 0) {
			/* sums only grow while the tree's work stays inside
			 * it; a drop means work left the tree (an orphan
			 * adopted outside, a reused pid): unknown */
			if (cur->cpu_ticks >= prev->cpu_ticks)
				cpu = 100.0 * (double)(cur->cpu_ticks -
						       prev->cpu_ticks) /
				      ((double)hz * dt);
			if (cur->read_bytes >= prev->read_bytes)
				rd = (double)(cur->read_bytes -
					      prev->read_bytes) / dt;
			if (cur->write_bytes >= prev->write_bytes)
				wr = (double)(cur->write_bytes -
					      prev->write_bytes) / dt;
		}
	}
	out->v[PROC_INDEX(CTR_PROC_PROCESSOR_TIME)] = cpu;
	out->v[PROC_INDEX(CTR_PROC_IO_READ)] = rd;
	out->v[PROC_INDEX(CTR_PROC_IO_WRITE)] = wr;
	out->v[PROC_INDEX(CTR_PROC_WORKING_SET)] = ws;
}
