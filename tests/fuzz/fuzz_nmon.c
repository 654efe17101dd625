/* fuzz_nmon.c - perflog import's nmon reader (import/import.h): never a
 * crash; a failure is one line; what parses has snapshots whose times go
 * strictly forward, each covering (from, t], and a step of 1 s or more
 * (what the log set writer needs). */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../import/import.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct import_set s;
	struct perr e;

	/* the zone fixed: the reader's local time, without a file per run */
	setenv("TZ", "UTC", 1);
	e.msg[0] = '\0';
	if (import_nmon((const char *)data, size, "fuzz.nmon", "UTC", &s, &e) != 0) {
		if (!e.msg[0] || strchr(e.msg, '\n'))
			abort();
		return 0;
	}
	if (!s.n || s.step < 1)
		abort();
	for (size_t i = 0; i < s.n; i++) {
		if (!(s.snap[i].from < s.snap[i].t))
			abort();
		if (i && !(s.snap[i].t >= s.snap[i - 1].t + 0.001))
			abort();
	}
	import_set_free(&s);
	return 0;
}
