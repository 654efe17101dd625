/*
 * markhold.c - markers held while markers.tsv cannot be written
 * (markhold.h).
 */
#include "markhold.h"

#include <stdlib.h>
#include <string.h>

#include "../logs/markers.h"

int markhold_flush(struct markhold *h, const char *dir, struct perr *e)
{
	size_t k = 0;

	while (k < h->n && markers_append_line(dir, h->lines[k], e) == 0)
		free(h->lines[k++]);
	memmove(h->lines, h->lines + k, (h->n - k) * sizeof(*h->lines));
	h->n -= k;
	return h->n ? -1 : 0;
}

int markhold_append(struct markhold *h, const char *dir, const char *line,
		    struct perr *e)
{
	char *copy;

	if (markhold_flush(h, dir, e) == 0 &&
	    markers_append_line(dir, line, e) == 0)
		return 0;
	if (h->n == MARKHOLD_MAX) {
		free(h->lines[0]);
		memmove(h->lines, h->lines + 1, --h->n * sizeof(*h->lines));
		h->dropped++;
	}
	if (util_grow(&h->lines, &h->cap, h->n + 1, sizeof(*h->lines)) < 0)
		return perr_set(e, "out of memory");
	copy = strdup(line);
	if (!copy)
		return perr_set(e, "out of memory");
	h->lines[h->n++] = copy;
	return 1;
}

void markhold_free(struct markhold *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->lines[i]);
	free(h->lines);
	memset(h, 0, sizeof(*h));
}
