/*
 * procstarts.c - the start times of the processes exit records name,
 * read once a drain for every tree (process.h proc_starts).
 */
#include "process_books.h"

#include <stdlib.h>

struct proc_starts {
	struct pidmap m;	/* when: the start in ticks, -1 gone */
	unsigned gen;		/* the drain */
};

struct proc_starts *proc_starts_new(void)
{
	struct proc_starts *s = calloc(1, sizeof(*s));

	if (s)
		s->gen = 1;
	return s;
}

void proc_starts_next(struct proc_starts *s)
{
	if (!s)
		return;
	s->gen++;
	pidmap_expire(&s->m, s->gen);	/* the last drain's are stale */
}

void proc_starts_free(struct proc_starts *s)
{
	if (!s)
		return;
	pidmap_free(&s->m);
	free(s);
}

void proctree_share_starts(struct proctree *t, struct proc_starts *s)
{
	t->starts = s;
}

int pbooks_start_of(struct proctree *t, pid_t pid, unsigned long long *start)
{
	struct pidmap_entry *e = t->starts ? pidmap_get(&t->starts->m, pid)
					   : NULL;
	struct pstat ps;
	int rc;

	if (e && e->gen == t->starts->gen) {
		*start = e->when >= 0 ? (unsigned long long)e->when : 0;
		return e->when >= 0 ? 0 : -1;
	}
	rc = pbooks_read_stat(t, pid, 0, &ps);
	if (t->starts && (e = pidmap_put(&t->starts->m, pid))) {
		e->gen = t->starts->gen;
		e->when = rc == 0 ? (double)ps.start : -1;
	}
	*start = rc == 0 ? ps.start : 0;
	return rc;
}
