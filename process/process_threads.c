/*
 * process_threads.c - the "taskstats" books (process_books.h): one entry a
 * thread of every member, read at each read of the tree; the entries,
 * their merge and the exit records are process_books.c's. What a read
 * does for a thread is look_at's (its schedstat first); a process's
 * threads are those of its task directory, or of the last read when they
 * cannot have changed (list_unchanged).
 */
#define _GNU_SOURCE
#include "process_books.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one read does for a thread (look_at). */
enum look {
	LOOK_IDLE,	/* not run since its entry was read: its figures stand */
	LOOK_RAN,	/* ran: its CPU time from its schedstat, its io read */
	LOOK_WHOLE,	/* new, or no schedstat to tell: stat and io read */
};

/* Every thread's schedstat is read (one small file): its run time is the
 * thread's CPU time in nanoseconds (the sum that stat's utime + stime
 * are scaled to, there in ticks), and its run time and count of slices
 * standing still since its entry was read say it has not run, so its
 * figures stand. Only a thread the books do not know yet has its stat
 * read (its start time names it; its state tells a zombie): 2,000
 * threads woken every 20 ms cost 4.4% of a CPU with a stat and an io a
 * thread each read (do_task_stat: 5 us a thread, schedstat 2, io 3). A
 * schedstat of zeros (a kernel without sched_info) or none is never taken
 * for "not run": ss[0] is 0 then. A count gone back is another task on
 * the id (its exit record lost or late): read whole. */
static enum look look_at(struct proctree *t, const struct pb_entry *old,
			 pid_t pid, pid_t tid, uint64_t ss[3])
{
	if (pbooks_read_sched(t, pid, tid, ss) < 0 || !ss[0] || !ss[2]) {
		ss[0] = ss[2] = 0;
		return LOOK_WHOLE;
	}
	if (!old || old->tgid != pid || !old->run_ns)
		return LOOK_WHOLE;
	if (ss[0] == old->run_ns && ss[2] == old->pcount)
		return LOOK_IDLE;
	if (ss[0] < old->run_ns || ss[2] < old->pcount)
		return LOOK_WHOLE;
	return LOOK_RAN;
}

/* Thread e's io into its entry, and the schedstat it was waiting with
 * as the baseline "has not run since" is told from (a failed read keeps
 * the old: the next read tries again). */
static void read_io(struct proctree *t, struct pb_entry *e)
{
	struct pidstat_io io;

	e->io_wait = e->io_now = 0;	/* not lent while unread */
	if (pbooks_read_io(t, e->tgid, e->id, &io) < 0)
		return;
	e->rchar = io.rchar;
	e->wchar = io.wchar;
	e->read_bytes = io.read_bytes;
	e->write_bytes = io.write_bytes;
	e->io_now = 1;
	e->run_ns = e->next_run;
	e->pcount = e->next_pcount;
}

/* Has process pid done no I/O since the last read? Its whole io (every
 * thread's, the dead threads' and the reaped children's: each only
 * grows) the same as at the last read, read before its threads' then:
 * no thread's io moved since, and each thread read or proved then is
 * still exact. The last read's whole is on the leader's entry of then
 * (old, NULL: none); this read's goes into *io, *have saying whether it
 * could be read. Read before this read's threads, so the next read's
 * proof holds too. */
static int whole_io_same(struct proctree *t, pid_t pid,
			 const struct pb_entry *old, struct pidstat_io *io,
			 int *have)
{
	*have = pbooks_read_io(t, pid, 0, io) == 0;
	return *have && old && old->grp_gen && old->grp_gen + 1 == t->gen &&
	       !memcmp(io, &old->grp, sizeof(*io));
}

/* The io of pid's threads that ran or are new (t->scan[first..]), after
 * the loop over them, unless the process's whole io stood still (same):
 * their io as read last (a pool of 2,000 threads that wake and do no
 * I/O: one read for the 2,000 it saves). */
static void read_ios(struct proctree *t, size_t first, int same)
{
	for (size_t i = first; i < t->nscan; i++) {
		struct pb_entry *e = &t->scan[i];

		if (!e->io_wait)
			continue;
		if (same && e->io_now) {
			e->run_ns = e->next_run;
			e->pcount = e->next_pcount;
			e->io_wait = 0;
		} else {
			read_io(t, e);
		}
	}
}

/* Thread tid of process pid (old: its entry, or NULL) into t->scan;
 * still: its process stood still for the books (scan_threads_of), a
 * known thread's figures stand unread. 0, or -1 out of memory. */
static int scan_thread(struct proctree *t, pid_t pid, pid_t ppid, pid_t tid,
		       const struct pb_entry *old, int still)
{
	struct pstat ts;
	struct pb_entry e;
	uint64_t ss[3];
	enum look look = still && old && old->tgid == pid ?
			 LOOK_IDLE : look_at(t, old, pid, tid, ss);

	if (look != LOOK_WHOLE) {
		e = *old;
		e.ppid = ppid;
		e.seen = t->gen;	/* idle: its io still lent */
		if (look == LOOK_RAN) {
			e.cpu_us = ss[0] / 1000;
			e.next_run = ss[0];
			e.next_pcount = ss[2];
			e.io_wait = 1;
		}
		return pbooks_push_scan(t, &e);
	}
	if (pbooks_read_stat(t, pid, tid, &ts) < 0)
		return 0;
	/* exited: its exit record holds its final figures (sent before it
	 * became a zombie), and a zombie stays listed until reaped */
	if (ts.state == 'Z' || ts.state == 'X' || ts.state == 'x' ||
	    pbooks_tomb_has(t, tid, ts.start))
		return 0;
	memset(&e, 0, sizeof(e));
	e.id = tid;
	e.tgid = pid;
	e.ppid = ppid;
	e.start = ts.start;
	e.cpu_us = ss[0] ? ss[0] / 1000 : pbooks_ticks_us(t, ts.own);
	e.seen = t->gen;
	if (old && old->start == e.start) {
		e.rchar = old->rchar;	/* kept if its io fails */
		e.wchar = old->wchar;
		e.read_bytes = old->read_bytes;
		e.write_bytes = old->write_bytes;
	}
	e.next_run = ss[0];
	e.next_pcount = ss[2];
	e.io_wait = 1;
	return pbooks_push_scan(t, &e);
}

void proctree_exit_seen(struct proctree *t, const struct taskstats_exit *x)
{
	struct pb_entry *lead;

	if (!t->exits)
		return;
	if (x->tgid <= 0)
		t->exit_untold = 1;
	else if ((lead = pbooks_find(t->ent, t->nent, x->tgid)))
		lead->thread_exit = 1;
}

/* May the threads of a process (lead: its leader's entry of the last
 * read, or NULL) be the ones of the last read, without its task
 * directory listed (a getdents of every thread: a seventh of the
 * collector's CPU for a pool of 2,000)? When its thread count is
 * the one its list was last taken or known at, in the last read, and
 * no exit record of one of its threads came since: a thread born and
 * none gone changes the count; one gone sends its record first (before
 * it leaves the count). Records lost or without their process: listed.
 * A thread born and one gone after the records were drained, before
 * this read: the record comes with the next drain, and the list is
 * taken then (the newborn's work counts from its start, a read late). */
#define LIST_MIN 8	/* fewer threads: listed (a small directory; the
			 * entries of the last read are looked for in all
			 * of the tree's, so for a process of many only) */
static int list_unchanged(const struct proctree *t,
			  const struct pb_entry *lead, long threads)
{
	return lead && threads >= LIST_MIN && !t->lost && !t->exit_untold &&
	       lead->listed == threads && lead->listed_gen + 1 == t->gen &&
	       !lead->thread_exit;
}

/* Read the threads of process pid (threads of them, its stat's count)
 * into t->scan: those of its task directory, or of the last read when
 * its list is unchanged. With two threads or more, its whole io first:
 * when it stood still and the tree's CPU time is its cgroup's, not the
 * books' (perflog run's command, a unit), the known threads are not read
 * at all (a schedstat each: half the collector's CPU with a pool of
 * 2,000 threads that wake and do no I/O); their figures stand, exact for
 * io, and their CPU time is not what the tree logs. */
static int scan_threads_of(struct proctree *t, pid_t pid, pid_t ppid,
			   long threads)
{
	char path[PATH_MAX + 32];
	const struct pb_entry *lead = pbooks_find(t->ent, t->nent, pid);
	struct pidstat_io whole;
	struct dirent *de;
	size_t first = t->nscan;
	DIR *d;
	int rc = 0, have = 0, same = 0, still;

	if (threads >= 2)
		same = whole_io_same(t, pid, lead, &whole, &have);
	still = same && t->cpu_elsewhere && !t->lost;
	if (list_unchanged(t, lead, threads)) {
		for (size_t i = 0; rc == 0 && i < t->nent; i++)
			if (t->ent[i].tgid == pid && t->ent[i].seen + 1 == t->gen)
				rc = scan_thread(t, pid, ppid, t->ent[i].id,
						 &t->ent[i], still);
	} else {
		snprintf(path, sizeof(path), "%s/proc/%d/task", t->root,
			 (int)pid);
		if (!(d = opendir(path)))
			return 0;
		while (rc == 0 && (de = readdir(d))) {
			long tid = strtol(de->d_name, NULL, 10);

			if (tid > 0)
				rc = scan_thread(t, pid, ppid, (pid_t)tid,
						 pbooks_find(t->ent, t->nent,
							     (pid_t)tid), still);
		}
		closedir(d);
	}
	if (rc == 0) {
		/* the leader's entry keeps the count its list is of and
		 * its process's whole io */
		for (size_t i = first; i < t->nscan; i++)
			if (t->scan[i].id == pid) {
				t->scan[i].listed = threads;
				t->scan[i].listed_gen = t->gen;
				t->scan[i].thread_exit = 0;
				t->scan[i].grp = whole;
				t->scan[i].grp_gen = have ? t->gen : 0;
			}
		read_ios(t, first, same);
	}
	return rc;
}

int pbooks_scan_threads(struct proctree *t, struct proc_raw *out)
{
	t->gen++;
	t->nscan = 0;
	for (size_t i = 0; i < t->nmem; i++) {
		pid_t pid = t->mem[i];
		struct pstat ps;

		if (pbooks_read_stat(t, pid, 0, &ps) < 0)
			continue;	/* gone since the listing */
		out->nprocs++;
		t->tree_threads += (size_t)ps.threads;
		if (!(t->shim && pid == t->pid))
			out->rss_bytes += ps.rss_pages * (double)t->pagesize;
		pbooks_known_set(t, pid, 0);
		if (scan_threads_of(t, pid, ps.ppid, ps.threads) < 0)
			return -1;
	}
	t->exit_untold = 0;
	if (t->pid)
		pbooks_known_set(t, t->pid, 0);
	if (t->nscan)
		qsort(t->scan, t->nscan, sizeof(*t->scan), pbooks_cmp_entry);
	if (pbooks_merge(t, 1) < 0)
		return -1;
	pbooks_pending_resolve(t);
	pbooks_sets_expire(t);
	t->last_read = util_walltime();
	procfds_sweep(t->fds);
	pbooks_totals(t, out);
	return 0;
}

int proctree_thread_io(const struct proctree *t, pid_t tid,
		       unsigned long long start, struct pidstat_io *io)
{
	const struct pb_entry *e = pbooks_find(t->ent, t->nent, tid);

	if (!e || !e->io_now || e->seen != t->gen || e->start != start)
		return -1;
	io->rchar = e->rchar;
	io->wchar = e->wchar;
	io->read_bytes = e->read_bytes;
	io->write_bytes = e->write_bytes;
	return 0;
}
