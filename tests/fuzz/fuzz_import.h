/*
 * fuzz_import.h - shared by fuzz_nmon and fuzz_perfmon: what every
 * import reader must give (import/import.h). A failure is one line; what
 * parses has snapshots whose times go strictly forward, each covering
 * (from, t], and a step of 1 s or more: what the log set writer needs.
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
	if (!s->n || s->step < 1)
		abort();
	for (size_t i = 0; i < s->n; i++) {
		if (!(s->snap[i].from < s->snap[i].t))
			abort();
		if (i && !(s->snap[i].t >= s->snap[i - 1].t + 0.001))
			abort();
	}
	import_set_free(s);
}

#endif
