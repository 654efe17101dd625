/* fuzz_perfmon.c - perflog import's perfmon CSV reader (import/import.h): never a
 * crash, and what fuzz_import.h checks. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct import_set s;
	struct perr e;

	/* the zone fixed: the local time of the reader, one tzset */
	setenv("TZ", "UTC", 1);
	e.msg[0] = '\0';
	fuzz_import_check(import_perfmon((const char *)data, size, "fuzz.csv", NULL, &s, &e), &s, &e);
	return 0;
}
