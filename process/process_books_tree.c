/*
 * process_books_tree.c - the "tree" books: one entry a process, for a
 * tree read without taskstats (process.h says why; process_books.c keeps
 * the entries both kinds of books share, the exit records and the
 * "taskstats" books of one entry a thread). A process open before and
 * not listed now either is still there (the listing missed it: read it)
 * or vanished: reaped by a member, whose figures now hold it (the member
 * is read again), or by nobody (its last figures are final).
 */
#define _GNU_SOURCE
#include "process_books.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int read_proc(struct proctree *t, pid_t pid, struct pb_entry *e,
		     struct proc_raw *out)
{
	struct pstat ps;
	struct pidstat_io io;

	if (pbooks_read_stat(t, pid, 0, &ps) < 0)
		return -1;
	memset(e, 0, sizeof(*e));
	e->id = e->tgid = pid;
	e->ppid = ps.ppid;
	e->start = ps.start;
	e->cpu_us = pbooks_ticks_us(t, ps.own + ps.children);
	e->seen = t->gen;
	if (pbooks_read_io(t, pid, 0, &io) == 0) {
		e->rchar = io.rchar;	/* the process's: not a thread's */
		e->wchar = io.wchar;
		e->read_bytes = io.read_bytes;
		e->write_bytes = io.write_bytes;
	}
	if (out) {
		out->nprocs++;
		t->tree_threads += (size_t)ps.threads;
		if (!(t->shim && pid == t->pid))
			out->rss_bytes += ps.rss_pages * (double)t->pagesize;
	}
	return 0;
}

/* Is the task of entry e still there (same pid, same start)? */
static int still_there(const struct proctree *t, const struct pb_entry *e)
{
	struct pstat ps;

	return pbooks_read_stat(t, e->id, 0, &ps) == 0 && ps.start == e->start;
}

/* The nearest ancestor of a vanished process that was read now, through
 * the ppid links of the open entries; NULL when none. */
static struct pb_entry *live_ancestor(struct proctree *t, size_t had,
				      const struct pb_entry *e)
{
	pid_t p = e->ppid;

	for (int hops = 0; hops < 64 && p > 0; hops++) {
		struct pb_entry *a = pbooks_find(t->scan, had, p);
		struct pb_entry *o;

		if (a)
			return a;
		o = pbooks_find(t->ent, t->nent, p);
		if (!o)
			break;
		p = o->ppid;
	}
	return NULL;
}

/* A process that vanished was reaped: by a member, whose figures now hold
 * it (re-read it; mark = 1 asks for that), or by nobody (auto-reaped: its
 * last figures are all we will ever know). */
static void vanished(struct proctree *t, size_t had,
		     const struct pb_entry *e)
{
	struct pb_entry *a = live_ancestor(t, had, e);

	if (!a || (a->id == e->ppid && pbooks_ignores_sigchld(t, a->id)))
		pbooks_fold(t, e);
	else
		a->order = UINT_MAX;	/* re-read below */
}

static int scan_vanished(struct proctree *t, struct proc_raw *out)
{
	size_t had = t->nscan;

	/* read now, but gone before its parent was read: the parent may
	 * hold it already; re-reading the parent settles it */
	for (size_t i = 0; i < had; i++) {
		struct pb_entry *s = &t->scan[i];
		struct pb_entry *p = pbooks_find(t->scan, had, s->ppid);

		if (p && p->order != UINT_MAX && p->order > s->order &&
		    !still_there(t, s) && !pbooks_ignores_sigchld(t, p->id)) {
			p->order = UINT_MAX;
			s->seen = 0;	/* dropped below */
		}
	}
	/* open before, not read now */
	for (size_t i = 0; i < t->nent; i++) {
		struct pb_entry *o = &t->ent[i], e;

		if (pbooks_find(t->scan, had, o->id))
			continue;
		if (still_there(t, o)) {	/* the listing missed it */
			if (read_proc(t, o->id, &e, out) == 0 &&
			    pbooks_push_scan(t, &e) < 0)
				return -1;
			continue;
		}
		vanished(t, had, o);
	}
	for (size_t i = 0; i < had; i++) {
		struct pb_entry *s = &t->scan[i];

		if (s->order == UINT_MAX &&
		    read_proc(t, s->id, s, NULL) < 0)
			s->seen = 0;	/* gone meanwhile: next read */
	}
	/* drop what was dropped */
	{
		size_t n = 0;

		for (size_t i = 0; i < t->nscan; i++)
			if (t->scan[i].seen)
				t->scan[n++] = t->scan[i];
		t->nscan = n;
	}
	if (t->nscan)
		qsort(t->scan, t->nscan, sizeof(*t->scan), pbooks_cmp_entry);
	return 0;
}

int pbooks_scan_procs(struct proctree *t, struct proc_raw *out)
{
	t->gen++;
	t->nscan = 0;
	for (size_t i = 0; i < t->nmem; i++) {
		struct pb_entry e;

		if (read_proc(t, t->mem[i], &e, out) < 0)
			continue;
		e.order = (unsigned)i;
		if (pbooks_push_scan(t, &e) < 0)
			return -1;
	}
	if (t->nscan)
		qsort(t->scan, t->nscan, sizeof(*t->scan), pbooks_cmp_entry);
	if (scan_vanished(t, out) < 0 || pbooks_merge(t, 0) < 0)
		return -1;
	procfds_sweep(t->fds);
	pbooks_totals(t, out);
	return 0;
}
