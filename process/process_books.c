/*
 * process_books.c - the Process object's per-task books (process.h says
 * what the two kinds of books count and why; process_books.h has the
 * state): the entries both kinds keep and the exit records (the
 * "taskstats" books of one entry a thread are process_threads.c's, the
 * "tree" books of one entry a process process_books_tree.c's).
 *
 * Each read builds t->scan (this read's tasks, sorted by id) and merges it
 * into the open entries t->ent:
 *   read now and open    same task (same start time): its new figures
 *                        (never below the old: they are cumulative)
 *   read now only        a new task: all its figures are the tree's work
 *   open only            "taskstats" books: its exit record will close it
 *                        (usually already has, see proctree_exit); after
 *                        GRACE reads without one its last figures are
 *                        taken as final (a lost record). "tree" books:
 *                        decided before the merge (scan_vanished).
 *   same id, new start   the pid was reused: the old one's last figures
 *                        are final
 *
 * Exit records (proctree_exit) close an open entry, or are counted
 * whole for a task the tree never saw alive when its process or parent is
 * known to be the tree's (t->known: processes alive at the last read, or
 * dead, with the time of death from their own record, so a pid reused by
 * a stranger after the member died is not taken for it). A record that
 * cannot be placed yet waits in t->pend: a short-lived child's record
 * comes before its short-lived parent's, the parent placing both. A
 * waiting record, once placed, also closes an open entry of its task
 * (pbooks_pending_resolve).
 */
#define _GNU_SOURCE
#include "process_books.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GRACE 2		/* reads an entry may go unseen, see above */
#define KNOWN_KEEP 3	/* reads a dead process stays known */
#define PEND_KEEP 2	/* reads a record waits to be placed */
#define PEND_MAX 65536	/* records waiting at most (a host's exits) */
#define TOMB_KEEP 3	/* reads a counted task is not opened again */

#define MAX(a, b) ((a) > (b) ? (a) : (b))

uint64_t pbooks_ticks_us(const struct proctree *t, unsigned long long ticks)
{
	return (uint64_t)(ticks * 1000000ULL / (unsigned long long)t->hz);
}

void pbooks_init(struct proctree *t)
{
	char path[PATH_MAX + 16];
	char *text, *p;

	snprintf(path, sizeof(path), "%s/proc/stat", t->root);
	text = util_read_file(path, NULL);
	p = text ? strstr(text, "\nbtime ") : NULL;
	t->boot_wall = p ? strtod(p + 7, NULL) : 0;
	free(text);
	t->fds = procfds_new();	/* NULL: each file opened per read */
}

void pbooks_free(struct proctree *t)
{
	free(t->ent);
	free(t->scan);
	free(t->spare);
	pidmap_free(&t->known);
	pidmap_free(&t->tomb);
	pidmap_free(&t->stranger);
	free(t->pend);
	free(t->late);
	procfds_free(t->fds);
	t->fds = NULL;
}

int pbooks_cmp_entry(const void *a, const void *b)
{
	pid_t x = ((const struct pb_entry *)a)->id;
	pid_t y = ((const struct pb_entry *)b)->id;

	return (x > y) - (x < y);
}

struct pb_entry *pbooks_find(struct pb_entry *v, size_t n, pid_t id)
{
	struct pb_entry key = { .id = id };

	return n ? bsearch(&key, v, n, sizeof(*v), pbooks_cmp_entry) : NULL;
}

void pbooks_fold(struct proctree *t, const struct pb_entry *e)
{
	t->ex_cpu += e->cpu_us;
	t->ex_rd += e->rchar;
	t->ex_wr += e->wchar;
	t->ex_drd += e->read_bytes;
	t->ex_dwr += e->write_bytes;
}

int pbooks_push_scan(struct proctree *t, const struct pb_entry *e)
{
	if (util_grow(&t->scan, &t->capscan, t->nscan + 1, sizeof(*t->scan)) < 0)
		return -1;
	t->scan[t->nscan++] = *e;
	return 0;
}

/* see the top of the file for the rules */
int pbooks_merge(struct proctree *t, int grace)
{
	struct pb_entry *res;
	size_t n = 0, i = 0, j = 0, cap;

	if (util_grow(&t->spare, &t->capspare, t->nent + t->nscan + 1,
		      sizeof(*t->spare)) < 0)
		return -1;
	res = t->spare;
	while (i < t->nent || j < t->nscan) {
		struct pb_entry *o = i < t->nent ? &t->ent[i] : NULL;
		struct pb_entry *s = j < t->nscan ? &t->scan[j] : NULL;

		if (s && n && res[n - 1].id == s->id) {
			j++;	/* listed twice in one read */
			continue;
		}
		if (o && (!s || o->id < s->id)) {
			if (grace && t->gen - o->seen < GRACE)
				res[n++] = *o;
			else if (grace)
				pbooks_fold(t, o);
			i++;
		} else if (!o || s->id < o->id) {
			res[n++] = *s;
			j++;
		} else {
			res[n] = *s;
			if (o->start == s->start) {
				res[n].cpu_us = MAX(o->cpu_us, s->cpu_us);
				res[n].rchar = MAX(o->rchar, s->rchar);
				res[n].wchar = MAX(o->wchar, s->wchar);
				res[n].read_bytes = MAX(o->read_bytes, s->read_bytes);
				res[n].write_bytes = MAX(o->write_bytes, s->write_bytes);
			} else {
				pbooks_fold(t, o);	/* pid reused */
			}
			n++;
			i++;
			j++;
		}
	}
	/* the old entries' array is the next merge's output */
	cap = t->capspare;
	t->spare = t->ent;
	t->capspare = t->capent;
	t->ent = res;
	t->nent = n;
	t->capent = cap;
	return 0;
}

void pbooks_totals(struct proctree *t, struct proc_raw *out)
{
	out->cpu_us = t->ex_cpu;
	out->read_bytes = t->ex_rd;
	out->write_bytes = t->ex_wr;
	out->disk_read = t->ex_drd;
	out->disk_write = t->ex_dwr;
	for (size_t i = 0; i < t->nent; i++) {
		out->cpu_us += t->ent[i].cpu_us;
		out->read_bytes += t->ent[i].rchar;
		out->write_bytes += t->ent[i].wchar;
		out->disk_read += t->ent[i].read_bytes;
		out->disk_write += t->ent[i].write_bytes;
	}
	out->io_lost = t->lost;
	t->lost = 0;
}

/* ---- known processes ---- */

/* Insert or refresh pid; died 0 = alive now. */
void pbooks_known_set(struct proctree *t, pid_t pid, double died)
{
	struct pidmap_entry *k = pidmap_put(&t->known, pid);

	if (!k)
		return;
	if (died > 0 || !k->when)
		k->when = died;
	k->gen = t->gen;
}

/* Was pid the tree's when a task born at wall time born had it as its
 * process or parent? */
static int known_ok(struct proctree *t, pid_t pid, double born)
{
	struct pidmap_entry *k = pidmap_get(&t->known, pid);

	return k && (!k->when || !born || born <= k->when + 1);
}

/* Once a read: the sets forget what is older than they keep it. */
void pbooks_sets_expire(struct proctree *t)
{
	if (t->gen > KNOWN_KEEP)
		pidmap_expire(&t->known, t->gen - KNOWN_KEEP);
	if (t->gen > TOMB_KEEP)
		pidmap_expire(&t->tomb, t->gen - TOMB_KEEP);
	pidmap_expire(&t->stranger, t->gen);
}

/* ---- exit records ---- */

static int is_member(struct proctree *t, const struct taskstats_exit *x)
{
	/* a name= tree's: one of that name that lived between two reads */
	if (t->comm[0] && !strcmp(x->comm, t->comm))
		return 1;
	return known_ok(t, x->tgid, x->btime) || known_ok(t, x->ppid, x->btime);
}

/* Is pid a process alive before the last read and not of the tree? Its
 * threads' and children's records can never be placed then: dropped at
 * once, they cost a look-up, not a place in the waiting list and a try
 * at every read (an unrelated process making 10,000 threads a second cost
 * a collector watching `sleep` 20% of a CPU). The answer is kept for the
 * read; a pid that cannot be told (gone, or young) is asked again at the
 * next. */
static int stranger(struct proctree *t, pid_t pid)
{
	struct pidmap_entry *s;
	unsigned long long start;
	double began;

	if (pid <= 0 || !t->boot_wall || !t->last_read)
		return 0;
	if ((s = pidmap_get(&t->stranger, pid)) && s->gen == t->gen)
		return s->when > 0;
	if (!(s = pidmap_put(&t->stranger, pid)))
		return 0;
	s->gen = t->gen;
	s->when = 0;
	if (pbooks_start_of(t, pid, &start) == 0) {
		began = t->boot_wall + (double)start / (double)t->hz;
		/* a second of slack: start times are in ticks, the read's
		 * clock is the wall's */
		s->when = began < t->last_read - 1 &&
			  !pidmap_get(&t->known, pid);
	}
	return s->when > 0;
}

static void tomb_add(struct proctree *t, const struct taskstats_exit *x)
{
	/* a tid reused within the reads a tomb is kept: the task before is
	 * gone for good, only the new one can still be found */
	struct pidmap_entry *e = pidmap_put(&t->tomb, x->tid);

	if (!e)
		return;
	e->when = x->btime;
	e->gen = t->gen;
}

/* Was the task tid, started at start (ticks since boot), counted whole
 * by its exit record already? */
int pbooks_tomb_has(const struct proctree *t, pid_t tid,
		    unsigned long long start)
{
	const struct pidmap_entry *e = pidmap_get(&t->tomb, tid);
	double began = t->boot_wall + (double)start / (double)t->hz;

	return e && (!e->when || !t->boot_wall ||
		     (began - e->when < 2.5 && e->when - began < 2.5));
}

/* A record of a task the tree never saw alive: all its work counts. */
static void count_record(struct proctree *t, const struct taskstats_exit *x)
{
	pid_t proc = x->tgid ? x->tgid : x->tid;

	t->ex_cpu += x->cpu_us;
	t->ex_rd += x->rchar;
	t->ex_wr += x->wchar;
	t->ex_drd += x->read_bytes;
	t->ex_dwr += x->write_bytes;
	pbooks_known_set(t, proc, proc == x->tid ? x->btime + x->etime : 0);
	tomb_add(t, x);
}

/* Is the open entry e the task of record x (not an earlier holder of
 * its pid)? Start times agree within the seconds the record has. */
static int same_task(const struct proctree *t, const struct pb_entry *e,
		     const struct taskstats_exit *x)
{
	double began;

	if (!x->btime || !t->boot_wall)
		return 1;
	began = t->boot_wall + (double)e->start / (double)t->hz;
	return began - x->btime < 2.5 && x->btime - began < 2.5;
}

/* Record x closes its task's open entry, if the books have one: 1. Its
 * final figures replace the entry's (the kernel rounds the record's
 * bytes down to KiB: never below what was already read). */
static int close_entry(struct proctree *t, const struct taskstats_exit *x)
{
	struct pb_entry *e = pbooks_find(t->ent, t->nent, x->tid);

	if (!e || !same_task(t, e, x))
		return 0;
	t->ex_cpu += MAX(e->cpu_us, x->cpu_us);
	t->ex_rd += MAX(e->rchar, x->rchar);
	t->ex_wr += MAX(e->wchar, x->wchar);
	t->ex_drd += MAX(e->read_bytes, x->read_bytes);
	t->ex_dwr += MAX(e->write_bytes, x->write_bytes);
	if (e->id == e->tgid)
		pbooks_known_set(t, e->tgid, x->btime + x->etime);
	tomb_add(t, x);
	memmove(e, e + 1, (size_t)(t->ent + t->nent - e - 1) * sizeof(*e));
	t->nent--;
	return 1;
}

static void pending_add(struct proctree *t, const struct taskstats_exit *x)
{
	if (t->npend >= PEND_MAX ||
	    util_grow(&t->pend, &t->cappend, t->npend + 1, sizeof(*t->pend)) < 0)
		return;
	t->pend[t->npend].r.x = *x;
	t->pend[t->npend].r.at = util_monotonic();
	t->pend[t->npend++].gen = t->gen;
}

/* Record r, placed, owed to the tree's other readers (proctree_late;
 * out of memory: counted here all the same). */
static void late_add(struct proctree *t, const struct proctree_late *r)
{
	if (util_grow(&t->late, &t->caplate, t->nlate + 1,
		      sizeof(*t->late)) == 0)
		t->late[t->nlate++] = *r;
}

size_t proctree_late(const struct proctree *t,
		     const struct proctree_late **v)
{
	*v = t->late;
	return t->nlate;
}

/* Place waiting records until nothing more can be; forget old ones. A
 * record placed now may be of a task this read listed and opened: it
 * sends its record before it leaves /proc, so a child of a parent born
 * since the last read can be read alive, late in its exit, after its
 * record came and waited (the parent unknown then). The record closes
 * that entry: counted whole besides, the task's work was counted twice
 * (the one path found to a whole child counted twice, as t3110 once
 * logged a short-lived child's 1 MB twice; not reproduced live). */
void pbooks_pending_resolve(struct proctree *t)
{
	int changed = 1;
	size_t n;

	while (changed) {
		changed = 0;
		n = 0;
		for (size_t i = 0; i < t->npend; i++) {
			if (is_member(t, &t->pend[i].r.x)) {
				if (!close_entry(t, &t->pend[i].r.x))
					count_record(t, &t->pend[i].r.x);
				late_add(t, &t->pend[i].r);
				changed = 1;
			} else {
				t->pend[n++] = t->pend[i];
			}
		}
		t->npend = n;
	}
	n = 0;
	for (size_t i = 0; i < t->npend; i++)
		if (t->pend[i].gen + PEND_KEEP >= t->gen)
			t->pend[n++] = t->pend[i];
	t->npend = n;
}

int proctree_exit(struct proctree *t, const struct taskstats_exit *x)
{
	double root_born;

	if (!t->exits || x->tid <= 0)
		return 0;
	if (close_entry(t, x))
		return 1;
	/* every member was born after the root */
	root_born = t->boot_wall + (double)t->start / (double)t->hz;
	if (x->btime && t->boot_wall && x->btime + 2 < root_born)
		return 0;
	if (is_member(t, x)) {
		count_record(t, x);
		return 1;
	}
	/* a process's own record: its parent says; a thread's: its process
	 * and that one's parent */
	if (stranger(t, x->ppid) && (x->tgid == x->tid || x->tgid <= 0 ||
				     stranger(t, x->tgid)))
		return 0;
	pending_add(t, x);
	return 0;
}

void proctree_exits_lost(struct proctree *t)
{
	t->lost = 1;
}
