/*
 * waitactive.c - which of several processes does the work (waitactive.h).
 */
#define _GNU_SOURCE
#include "waitactive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "../common/util.h"
#include "../process/process.h"
#include "waitclass.h"

#ifndef P_PID
#define P_PID 1		/* <sys/wait.h>'s idtype_t, without its macros */
#endif

int waitactive_child_call(long nr)
{
	return nr == SYS_wait4 || nr == SYS_waitid
#ifdef SYS_waitpid
	       || nr == SYS_waitpid
#endif
		;
}

pid_t waitactive_parent(int procfd, pid_t pid)
{
	char rel[48], buf[512];
	struct pidstat ps;

	snprintf(rel, sizeof(rel), "%d/stat", (int)pid);
	if (pid <= 0 || util_read_text_at(procfd, rel, buf, sizeof(buf)) <= 0 ||
	    pidstat_parse(buf, &ps) < 0)
		return 0;
	return ps.ppid;
}

enum waitactive waitactive_of(int procfd, pid_t pid)
{
	char rel[48], buf[512];
	struct pidstat ps;
	enum wait_class c = WAIT_NCLASS;
	long nr;

	snprintf(rel, sizeof(rel), "%d/stat", (int)pid);
	if (util_read_text_at(procfd, rel, buf, sizeof(buf)) <= 0 ||
	    pidstat_parse(buf, &ps) < 0)
		return ACTIVE_UNKNOWN;
	if (ps.state == 'R' || ps.state == 'D')
		return ACTIVE_RUN;
	if (ps.state == 'Z' || ps.state == 'X')
		return ACTIVE_UNKNOWN;
	snprintf(rel, sizeof(rel), "%d/wchan", (int)pid);
	if (util_read_text_at(procfd, rel, buf, sizeof(buf)) > 0 &&
	    strcmp(buf, "0")) {
		if (waitclass_wchan_child(buf))
			return ACTIVE_PARENT;
		if (waitclass_wchan(buf, &c) == WCHAN_CLASS)
			return c == WAIT_SLEEP ? ACTIVE_IDLE : ACTIVE_BLOCKED;
	}
	/* the wait channel hidden or not one we know: the call says */
	snprintf(rel, sizeof(rel), "%d/syscall", (int)pid);
	if (util_read_text_at(procfd, rel, buf, sizeof(buf)) <= 0)
		return ACTIVE_BLOCKED;
	if (!strncmp(buf, "running", 7))
		return ACTIVE_RUN;
	nr = strtol(buf, NULL, 10);
	if (waitactive_child_call(nr))
		return ACTIVE_PARENT;
	{
		struct syscall_rule r = waitclass_syscall(nr);

		if (r.kind == SC_CLASS && r.cls == WAIT_SLEEP)
			return ACTIVE_IDLE;
	}
	return ACTIVE_BLOCKED;
}

pid_t waitactive_waited(const char *text)
{
	char *end;
	long nr = strtol(text, &end, 10);
	unsigned long long a0, a1;

	if (end == text || !waitactive_child_call(nr))
		return 0;
	a0 = strtoull(end, &end, 16);
	a1 = strtoull(end, NULL, 16);
	/* the arguments are the registers' 64 bits: wait4(-1) reads
	 * 0xffffffffffffffff, a pid_t once cut to 32 */
	if (nr == SYS_waitid)
		return a0 == P_PID && (pid_t)(int)a1 > 0 ? (pid_t)(int)a1 : 0;
	return (pid_t)(int)a0 > 0 ? (pid_t)(int)a0 : 0;
}

size_t waitactive_children(int procfd, pid_t pid, pid_t tid, pid_t *out,
			   size_t max)
{
	char rel[64], buf[512], *p = buf, *end;
	size_t n = 0;

	snprintf(rel, sizeof(rel), "%d/task/%d/children", (int)pid, (int)tid);
	if (util_read_text_at(procfd, rel, buf, sizeof(buf)) <= 0)
		return 0;
	for (long c; n < max && (c = strtol(p, &end, 10)) > 0; p = end)
		out[n++] = (pid_t)c;
	return n;
}
