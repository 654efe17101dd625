/* fuzz_markers.c - markers.tsv parsing, session pairing and the field
 * escapes (logs/markers.h). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "../../logs/markers.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	/* the parsers read a string: the input up to its first NUL */
	char *text = strndup((const char *)data, size);
	struct marker_list l;
	struct session *ss;
	char *esc, *back;

	if (!text)
		return 0;
	memset(&l, 0, sizeof(l));
	if (markers_parse(text, "markers.tsv", &l) == 0) {
		long n = markers_sessions(&l, &ss);

		if (n >= 0)
			free(ss);	/* allocated even with no session */
	}
	markers_free(&l);
	/* any string round-trips through escape and unescape */
	esc = markers_escape(text);
	back = esc ? markers_unescape(esc) : NULL;
	if (esc && back && strcmp(back, text))
		abort();
	free(esc);
	free(back);
	free(markers_unescape(text));	/* garbage escapes: NULL, no crash */
	free(text);
	return 0;
}
