/* fuzz_catalog.c - counter path parsing (counters/catalog.h): a parsed
 * path formats back to one that parses to the same counter. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "../../counters/catalog.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	/* the parsers read a string: the input up to its first NUL */
	char *text = strndup((const char *)data, size);
	struct counter_path p, q;
	struct perr e;

	if (!text)
		return 0;
	if (catalog_parse_path(text, &p, &e) == 0) {
		char buf[512];

		if (!p.def)
			abort();
		catalog_format_path(buf, sizeof(buf), p.def, p.instance);
		if (catalog_parse_path(buf, &q, &e) < 0 || q.def != p.def ||
		    strcmp(q.instance, p.instance))
			abort();
	}
	free(text);
	return 0;
}
