/* fuzz_clients.c - every backup client parser of the table
 * (client/client.h), each forced and detection across all, then the
 * marker keys of what was found and the NetBackup verdict on them: the
 * parsers take any bytes, NULs included. Seeds: tests/fuzz/corpus/clients/,
 * the fixtures of tests/fixtures/clients/. */
#include <stdlib.h>
#include <string.h>

#include "../../client/client.h"
#include "../../client/netbackup.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void keys(const struct client_list *l)
{
	size_t nx = 0;
	char **x = client_extras(l, &nx);
	if (!x)
		return;
	char *line = markers_format(1.0, MARK_END, "s", "exit 0",
				    (const char *const *)x, nx);
	struct marker_list ml;
	memset(&ml, 0, sizeof(ml));
	if (line && markers_parse(line, "fuzz", &ml) == 0 && ml.n) {
		double v[CLN_COUNT];
		unsigned d;
		struct netbackup_waits w;
		client_norm_of(&ml.m[0], v, &d);
		if (netbackup_waits_of(&ml.m[0], &w) == 0) {
			double lost;
			char clause[256];
			netbackup_judge(&w, 100, &lost, clause, sizeof(clause));
		}
	}
	markers_free(&ml);
	free(line);
	client_extras_free(x, nx);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct client_list l;

	for (size_t i = 0; i <= client_count; i++) {
		memset(&l, 0, sizeof(l));
		const struct client_def *forced = i < client_count ? &client_table[i] : NULL;
		if (client_detect((const char *)data, size, forced, NULL, &l) > 0)
			keys(&l);
		client_list_free(&l);
	}
	return 0;
}
