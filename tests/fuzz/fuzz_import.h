/*
 * fuzz_import.h - shared by fuzz_nmon and fuzz_perfmon: what every
 * import reader must give (import/import.h). A failure is one line; what
 * parses has snapshots whose times go strictly forward, each covering
 * (from, t], a step of 1 s or more and a known value somewhere: what
 * the log set writer needs (each host's set of a perfmon CSV of several,
 * with the same rows).
 * Aborts otherwise; frees the set.
 */
#ifndef PERFLOG_FUZZ_IMPORT_H
#define PERFLOG_FUZZ_IMPORT_H

#include <stdlib.h>
#include <string.h>

#include "../../import/import.h"

static inline void fuzz_import_check(int rc, struct import_set *s,
				     const struct perr *e)
{
	if (rc != 0) {
		if (!e->msg[0] || strchr(e->msg, '\n'))
			abort();
		return;
	}
	/* a perfmon CSV of several hosts: each host's set (import.h) */
	for (const struct import_set *h = s; h; h = h->next) {
		if (!h->n || h->step < 1 || h->n != s->n ||
		    !import_has_value(h))
			abort();
		for (size_t i = 0; i < h->n; i++) {
			if (!(h->snap[i].from < h->snap[i].t))
				abort();
			if (i && !(h->snap[i].t >= h->snap[i - 1].t + 0.001))
				abort();
		}
	}
	import_set_free(s);
}

#endif
