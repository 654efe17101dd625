/*
 * procread.c - the Process object's reads of one member's /proc files
 * (stat, io, schedstat, status), for process.c and the books alike
 * (process_books.h).
 *
 * /proc/PID/stat is parsed from the LAST ')' since comm may contain spaces
 * and parentheses ("a) b (c").
 */
#define _GNU_SOURCE
#include "process_books.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parse one /proc/PID/stat (or task/TID/stat) text. 0, or -1 when
 * malformed. */
int pbooks_parse_stat(const char *text, struct pstat *p)
{
	const char *close_paren = strrchr(text, ')');
	char *end;
	long long pid, f[22];
	const char *s;

	if (!close_paren)
		return -1;
	errno = 0;
	pid = strtoll(text, &end, 10);
	if (end == text || errno || pid <= 0 || pid > INT_MAX)
		return -1;
	/* fields after ')': [0] state (field 3), [1] ppid, ... [11] utime
	 * (field 14), [12] stime, [13] cutime, [14] cstime, [17]
	 * num_threads (field 20), [19] starttime (field 22), [21] rss in
	 * pages (field 24) */
	s = close_paren + 1;
	for (int i = 0; i < 22; i++) {
		while (*s == ' ')
			s++;
		if (!*s || *s == '\n')
			return -1;
		if (i == 0) {	/* state: one letter */
			p->state = *s;
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
	{
		const char *open_paren = strchr(text, '(');
		size_t len = open_paren && open_paren < close_paren
			     ? (size_t)(close_paren - open_paren - 1) : 0;

		if (len >= sizeof(p->comm))
			len = sizeof(p->comm) - 1;
		memcpy(p->comm, open_paren ? open_paren + 1 : "", len);
		p->comm[len] = '\0';
	}
	/* cutime/cstime are %ld: never < 0, but garbage may say so */
	p->own = (f[11] > 0 ? (unsigned long long)f[11] : 0) +
		 (f[12] > 0 ? (unsigned long long)f[12] : 0);
	p->children = (f[13] > 0 ? (unsigned long long)f[13] : 0) +
		      (f[14] > 0 ? (unsigned long long)f[14] : 0);
	p->start = f[19] > 0 ? (unsigned long long)f[19] : 0;
	p->rss_pages = f[21] > 0 ? (double)f[21] : 0;
	p->threads = f[17] > 0 ? (long)f[17] : 0;
	return 0;
}

void pbooks_path(const struct proctree *t, char *buf, size_t n,
		      pid_t pid, pid_t tid, const char *file)
{
	procfds_path(buf, n, t->root, pid, tid, file);
}

/* stat of a process (tid 0) or of one of its threads; 0 or -1. */
int pbooks_read_stat(const struct proctree *t, pid_t pid, pid_t tid,
		     struct pstat *p)
{
	char buf[1024];

	if (procfds_read(t->fds, t->root, pid, tid, PF_STAT, buf, sizeof(buf)) < 0 ||
	    pbooks_parse_stat(buf, p) < 0 || p->pid != (tid ? tid : pid))
		return -1;
	return 0;
}

/* rchar and wchar of a process (whole: its threads, dead threads and
 * reaped children) or of one thread (its own), and read_bytes and
 * write_bytes (storage; 0 when the kernel has no line for them); 0 found
 * rchar and wchar, -1 else. */
int pbooks_read_io(const struct proctree *t, pid_t pid, pid_t tid,
		   struct pidstat_io *io)
{
	char buf[1024];
	unsigned both = PIDSTAT_IO_RCHAR | PIDSTAT_IO_WCHAR;

	io->read_bytes = io->write_bytes = 0;
	if (procfds_read(t->fds, t->root, pid, tid, PF_IO, buf, sizeof(buf)) < 0)
		return -1;
	return (pidstat_parse_io(buf, io) & both) == both ? 0 : -1;
}

/* schedstat of a process or thread (pidstat_parse_schedstat); 0 or -1. */
int pbooks_read_sched(const struct proctree *t, pid_t pid, pid_t tid,
		      uint64_t v[3])
{
	char buf[128];

	if (procfds_read(t->fds, t->root, pid, tid, PF_SCHED, buf, sizeof(buf)) < 0)
		return -1;
	return pidstat_parse_schedstat(buf, v);
}

/* Does the process ignore SIGCHLD (so its children are auto-reaped)? */
int pbooks_ignores_sigchld(const struct proctree *t, pid_t pid)
{
	char path[PATH_MAX + 64], buf[4096];
	const char *p;

	pbooks_path(t, path, sizeof(path), pid, 0, "status");
	if (util_read_small(path, buf, sizeof(buf)) < 0)
		return 0;
	p = strstr(buf, "\nSigIgn:");
	if (!p)
		return 0;
	return (strtoull(p + 8, NULL, 16) >> (SIGCHLD - 1)) & 1;
}
