/* fuzz_meta.c - perflog.meta parsing (logs/logset.h); what parses must
 * format and parse again to the same text. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "../../logs/logset.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	/* the parsers read a string: the input up to its first NUL */
	char *text = strndup((const char *)data, size);
	struct logset_meta m, m2;
	struct perr e;

	if (!text)
		return 0;
	memset(&m, 0, sizeof(m));
	if (logset_meta_parse(text, "perflog.meta", &m, &e) == 0) {
		char *out = logset_meta_format(&m);

		memset(&m2, 0, sizeof(m2));
		if (out && logset_meta_parse(out, "again", &m2, &e) < 0)
			abort();	/* we wrote something we cannot read */
		if (out) {
			char *out2 = logset_meta_format(&m2);

			if (out2 && strcmp(out, out2))
				abort();
			free(out2);
		}
		logset_meta_free(&m2);
		free(out);
	} else if (!e.msg[0] || strchr(e.msg, '\n')) {
		abort();
	}
	logset_meta_free(&m);
	free(text);
	return 0;
}
