/* pattern.c - see pattern.h. */
#define _GNU_SOURCE
#include "pattern.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "../common/suggest.h"

/* The pattern without a leading "\\HOST\" or "\". */
static const char *strip_prefix(const char *p)
{
	if (p[0] == '\\' && p[1] == '\\') {
		const char *s = strchr(p + 2, '\\');

		return s ? s + 1 : p;
	}
	return p[0] == '\\' ? p + 1 : p;
}

int pattern_match(const char *pattern, const char *path)
{
	/* backslash is a path separator here, never fnmatch's escape; '['
	 * is taken literally too (instance names may hold one) */
	char buf[512];
	size_t j = 0;

	for (const char *s = strip_prefix(pattern); *s && j + 4 < sizeof(buf); s++) {
		if (*s == '[' || *s == '?') {
			buf[j++] = '[';
			buf[j++] = *s;
			buf[j++] = ']';
		} else {
			buf[j++] = *s;
		}
	}
	buf[j] = '\0';
	return fnmatch(buf, path, FNM_NOESCAPE | FNM_CASEFOLD) == 0;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

long pattern_select(const struct logset_meta *m, const char *list,
		    size_t **out, struct perr *e)
{
	char *copy = strdup(list), *save = NULL;
	unsigned char *pick = calloc(m->ncounters ? m->ncounters : 1, 1);
	size_t *idx = malloc((m->ncounters ? m->ncounters : 1) * sizeof(*idx));
	long n = 0;

	*out = NULL;
	if (!copy || !pick || !idx) {
		perr_set(e, "out of memory");
		goto fail;
	}
	if (!*trim(copy)) {
		perr_set(e, "--counters: no counter named");
		goto fail;
	}
	/* in the order of the patterns, each pattern's in perflog.meta order */
	for (char *t = strtok_r(copy, ",+", &save); t; t = strtok_r(NULL, ",+", &save)) {
		char *p = trim(t);
		int any = 0;

		if (!*p) {
			perr_set(e, "--counters: empty pattern in '%.80s'", list);
			goto fail;
		}
		for (size_t i = 0; i < m->ncounters; i++) {
			if (!pattern_match(p, m->counters[i].path))
				continue;
			any = 1;
			if (!pick[i])
				idx[n++] = i;
			pick[i] = 1;
		}
		if (!any) {
			struct suggest s;

			suggest_init(&s, p);
			for (size_t i = 0; i < m->ncounters; i++)
				suggest_offer(&s, m->counters[i].path);
			if (suggest_best(&s))
				perr_set(e, "--counters: no counter of the log set matches '%.200s': did you mean '%.200s'?",
					 p, suggest_best(&s));
			else
				perr_set(e, "--counters: no counter of the log set matches '%.200s'", p);
			goto fail;
		}
	}
	free(copy);
	free(pick);
	*out = idx;
	return n;
fail:
	free(copy);
	free(pick);
	free(idx);
	return -1;
}
