/* fuzz_summary.c - backup client summaries (client/summary.h): the
 * parser takes any bytes, NULs included. */
#include <stdlib.h>
#include <string.h>

#include "../../client/summary.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct summary_list l;
	size_t nx = 0;
	char **x;

	memset(&l, 0, sizeof(l));
	if (summary_parse((const char *)data, size, &l) >= 0) {
		x = summary_extras(&l, &nx);
		if (x)
			summary_extras_free(x, nx);
	}
	summary_list_free(&l);
	return 0;
}
