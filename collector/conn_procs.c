/*
 * conn_procs.c - the watched daemons' processes and their sockets
 * (conn_procs.h).
 */
#define _GNU_SOURCE
#include "conn_procs.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../process/process.h"

#define MAX_DEPTH 64	/* a parent chain longer than this is a loop */

static int cmp_proc(const void *a, const void *b)
{
	return util_cmp_pid(&((const struct conn_proc *)a)->pid,
			    &((const struct conn_proc *)b)->pid);
}

static int cmp_hold(const void *a, const void *b)
{
	const struct conn_hold *x = a, *y = b;

	if (x->inode != y->inode)
		return x->inode < y->inode ? -1 : 1;
	return util_cmp_pid(&x->pid, &y->pid);
}

const struct conn_proc *conn_procs_find(const struct conn_procs *cp,
					pid_t pid)
{
	struct conn_proc key = { .pid = pid };

	return cp->n ? bsearch(&key, cp->p, cp->n, sizeof(key), cmp_proc)
		     : NULL;
}

/* Whether anc is p or an ancestor of p. */
static int under(const struct conn_procs *cp, const struct conn_proc *p,
		 pid_t anc)
{
	for (int d = 0; p && d < MAX_DEPTH; d++) {
		if (p->pid == anc)
			return 1;
		if (p->ppid <= 0 || p->ppid == p->pid)
			return 0;
		p = conn_procs_find(cp, p->ppid);
	}
	return 0;
}

static int read_procs(const char *root, struct conn_procs *cp,
		      struct perr *e)
{
	char path[PATH_MAX], text[1024];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/proc", root);
	if (!(dir = opendir(path)))
		return perr_set(e, "unable to list '%s'", path);
	while ((d = readdir(dir))) {
		struct pidstat ps;
		char *end;
		long pid = strtol(d->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "%s/proc/%ld/stat", root, pid);
		if (util_read_small(path, text, sizeof(text)) <= 0 ||
		    pidstat_parse(text, &ps) < 0)
			continue;	/* gone since the listing */
		if (util_grow(&cp->p, &cp->cap, cp->n + 1, sizeof(*cp->p)) < 0)
			break;
		struct conn_proc *p = &cp->p[cp->n++];

		memset(p, 0, sizeof(*p));
		p->pid = (pid_t)pid;
		p->ppid = ps.ppid;
		p->start = ps.starttime;
		util_strlcpy(p->comm, ps.comm, sizeof(p->comm));
	}
	closedir(dir);
	qsort(cp->p, cp->n, sizeof(*cp->p), cmp_proc);
	return 0;
}

static void mark_members(struct conn_procs *cp, const char *names)
{
	for (size_t i = 0; i < cp->n; i++) {
		const struct conn_proc *p = &cp->p[i];

		for (int d = 0; p && d < MAX_DEPTH; d++) {
			if (util_list_has(names, p->comm)) {
				cp->p[i].member = 1;
				break;
			}
			if (p->ppid <= 0 || p->ppid == p->pid)
				break;
			p = conn_procs_find(cp, p->ppid);
		}
	}
}

static void read_sockets(const char *root, struct conn_procs *cp)
{
	char path[PATH_MAX], link[64];

	for (size_t i = 0; i < cp->n; i++) {
		struct dirent *d;
		DIR *dir;

		if (!cp->p[i].member)
			continue;
		snprintf(path, sizeof(path), "%s/proc/%ld/fd", root,
			 (long)cp->p[i].pid);
		if (!(dir = opendir(path)))
			continue;
		while ((d = readdir(dir))) {
			ssize_t len;
			unsigned long inode;

			if (d->d_name[0] == '.')
				continue;
			len = readlinkat(dirfd(dir), d->d_name, link,
					 sizeof(link) - 1);
			if (len <= 0)
				continue;
			link[len] = '\0';
			if (sscanf(link, "socket:[%lu]", &inode) != 1 ||
			    util_grow(&cp->h, &cp->caph, cp->nh + 1,
				      sizeof(*cp->h)) < 0)
				continue;
			cp->h[cp->nh].inode = inode;
			cp->h[cp->nh++].pid = cp->p[i].pid;
		}
		closedir(dir);
	}
	qsort(cp->h, cp->nh, sizeof(*cp->h), cmp_hold);
}

int conn_procs_read(const char *root, const char *names,
		    struct conn_procs *cp, struct perr *e)
{
	cp->n = cp->nh = 0;
	if (read_procs(root, cp, e) < 0)
		return -1;
	mark_members(cp, names);
	read_sockets(root, cp);
	return 0;
}

static int holds(const struct conn_procs *cp, unsigned long inode, pid_t pid)
{
	struct conn_hold key = { .inode = inode, .pid = pid };

	return cp->nh && bsearch(&key, cp->h, cp->nh, sizeof(key), cmp_hold);
}

pid_t conn_procs_holder(const struct conn_procs *cp, unsigned long inode)
{
	for (size_t i = 0; inode && i < cp->nh; i++) {
		if (cp->h[i].inode != inode)
			continue;
		const struct conn_proc *p = conn_procs_find(cp, cp->h[i].pid);

		if (p && !holds(cp, inode, p->ppid))
			return p->pid;
	}
	return 0;
}

void conn_procs_cmds(const struct conn_procs *cp, pid_t pid, char *out,
		     size_t n)
{
	const struct conn_proc *top = conn_procs_find(cp, pid);

	out[0] = '\0';
	if (!top)
		return;
	util_list_add(out, n, top->comm);
	for (size_t i = 0; i < cp->n; i++)
		if (cp->p[i].member && cp->p[i].pid != pid &&
		    under(cp, &cp->p[i], pid))
			util_list_add(out, n, cp->p[i].comm);
}

void conn_procs_free(struct conn_procs *cp)
{
	free(cp->p);
	free(cp->h);
	memset(cp, 0, sizeof(*cp));
}
