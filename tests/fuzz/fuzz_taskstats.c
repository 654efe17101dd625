/* fuzz_taskstats.c - the parser of taskstats exit-record datagrams
 * (process/taskstats.h): whatever the bytes, no read outside them. The
 * input is copied to an 8-byte aligned buffer, as recv gives it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../process/taskstats.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void count(void *arg, const struct taskstats_exit *x)
{
	long *n = arg;

	if (x->tid <= 0)	/* the parser passes on real tasks only */
		abort();
	(*n)++;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	uint64_t *buf = malloc(size / 8 + 1 ? (size / 8 + 1) * 8 : 8);
	long n = 0;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (taskstats_parse(buf, size, count, &n) != n)
		abort();
	free(buf);
	return 0;
}
