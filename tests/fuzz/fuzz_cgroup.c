/* fuzz_cgroup.c - placing our cgroups from /proc/self/mountinfo and
 * /proc/self/cgroup text (process/cgroup.h, cgroup_parse). The input is
 * the two texts separated by a NUL byte. */
#include <stdlib.h>
#include <string.h>

#include "../../process/cgroup.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *text = malloc(size + 2);
	struct cgroup_set g;
	size_t cut;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = text[size + 1] = '\0';
	cut = strlen(text);	/* mountinfo ends at the first NUL */
	cgroup_parse(text, text + cut + (cut < size), &g);
	/* every path found is absolute and NUL-terminated in its field */
	if ((g.v2[0] && g.v2[0] != '/') || (g.cpu[0] && g.cpu[0] != '/') ||
	    (g.cpuacct[0] && g.cpuacct[0] != '/'))
		abort();
	free(text);
	return 0;
}
