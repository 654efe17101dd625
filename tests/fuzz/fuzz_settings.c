/* fuzz_settings.c - the settings file parser (collector/settings.h). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "../../collector/settings.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	/* the parsers read a string: the input up to its first NUL */
	char *text = strndup((const char *)data, size);
	struct settings s;
	struct perr e;

	if (!text)
		return 0;
	if (settings_default(&s) == 0) {
		if (settings_parse(text, "fuzz.pml", &s, &e) < 0 &&
		    (!e.msg[0] || strchr(e.msg, '\n')))
			abort();	/* an error is one line, never empty */
		settings_free(&s);
	}
	free(text);
	return 0;
}
