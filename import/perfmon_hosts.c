/*
 * perfmon_hosts.c - the sets of a perfmon CSV of several hosts once its
 * rows are read (perfmon_int.h): a set a host with a value in a counter
 * perflog has. A host without one (a server perfmon could not reach, its
 * cells blank all through; one logged for an application's counters
 * only) has nothing the writer can make a file of: its columns perflog
 * has no counter for go to the first set's imported-other.csv, where
 * their paths name it, and a note says so.
 */
#define _GNU_SOURCE
#include "perfmon_int.h"

#include <stdlib.h>
#include <string.h>

/* a's contents and b's swapped, but for their place in the chain and
 * the notes, which are the file's (in the first set) */
static void swap_sets(struct import_set *a, struct import_set *b)
{
	struct import_set t = *a;
	struct import_set *an = a->next, *bn = b->next;
	struct strbuf anotes = a->notes, bnotes = b->notes;

	*a = *b;
	*b = t;
	a->next = an;
	b->next = bn;
	a->notes = anotes;
	b->notes = bnotes;
}

/* from's columns after into's, line by line (both are the file's header
 * then a line a row, each "TIME,CELLS\n": the same rows), from emptied.
 * 0, or -1 when out of memory. */
static int join_other(struct strbuf *into, struct strbuf *from)
{
	struct strbuf j = STRBUF_INIT;
	const char *a = strbuf_str(into), *b = strbuf_str(from);

	if (!from->len)
		return 0;
	if (!into->len) {
		*into = *from;
		*from = (struct strbuf)STRBUF_INIT;
		return 0;
	}
	while (*a && *b) {
		const char *ae = strchr(a, '\n'), *be = strchr(b, '\n');
		const char *bc;

		if (!ae || !be)
			break;
		bc = memchr(b, ',', (size_t)(be - b));
		strbuf_add(&j, a, (size_t)(ae - a));
		if (bc)
			strbuf_add(&j, bc, (size_t)(be - bc));
		strbuf_puts(&j, "\n");
		a = ae + 1;
		b = be + 1;
	}
	if (j.failed) {
		strbuf_free(&j);
		return -1;
	}
	strbuf_free(into);
	strbuf_free(from);
	*into = j;
	return 0;
}

/* s has no set of its own: a note, its other columns to lost. */
static int drop(struct import_set *out, struct import_set *s,
		struct strbuf *lost, const char *to, const char *name,
		struct perr *e)
{
	strbuf_printf(&out->notes,
		      "%s:1: %s has no value in a counter perflog has: no log set of its own%s%s%s\n",
		      name, s->host,
		      s->other.len ? ", its other columns kept in " : "",
		      s->other.len ? to : "",
		      s->other.len ? "'s imported-other.csv" : "");
	if (join_other(lost, &s->other) < 0)
		return perr_set(e, "%s: out of memory", name);
	return 0;
}

int perfmon_hosts_settle(struct import_set *out, const char *name,
			 struct perr *e)
{
	struct import_set *keep = NULL, *prev = out, *s;
	struct strbuf lost = STRBUF_INIT;	/* the dropped hosts' columns */
	char to[sizeof(out->host)];
	size_t nkept = 0;
	int rc = -1;

	for (s = out; s && !keep; s = s->next)
		if (import_has_value(s))
			keep = s;
	if (!keep)	/* nothing to import: import_finish says so */
		return 0;
	util_strlcpy(to, keep->host, sizeof(to));
	/* in the file's order; the first set stays the caller's */
	if (keep != out && drop(out, out, &lost, to, name, e) < 0)
		goto out;
	while ((s = prev->next)) {
		if (s == keep || import_has_value(s)) {
			nkept++;
			prev = s;
			continue;
		}
		if (drop(out, s, &lost, to, name, e) < 0)
			goto out;
		prev->next = s->next;
		s->next = NULL;
		import_set_free(s);
		free(s);
	}
	if (keep == out) {
		nkept++;
	} else {
		/* the keeper's contents first, its place (now the first
		 * host's, nothing left in it) gone */
		swap_sets(out, keep);
		for (prev = out; prev->next != keep; prev = prev->next)
			;
		prev->next = keep->next;
		keep->next = NULL;
		import_set_free(keep);
		free(keep);
	}
	if (join_other(&out->other, &lost) < 0) {
		perr_set(e, "%s: out of memory", name);
		goto out;
	}
	if (nkept > 1) {
		strbuf_printf(&out->notes, "%s:1: counters of %zu hosts (",
			      name, nkept);
		for (s = out; s; s = s->next)
			strbuf_printf(&out->notes, "%s%s", s == out ? "" : ", ",
				      s->host);
		strbuf_puts(&out->notes, "): one log set each\n");
	}
	rc = 0;
out:
	strbuf_free(&lost);
	return rc;
}
