/*
 * suggest.c - see suggest.h. The distance is the optimal string
 * alignment one (Levenshtein plus the swap of two neighbours, the most
 * common slip: "reprot"), over three rows of the table, for names of a
 * few hundred characters at most (a counter path).
 */
#include "suggest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NAME_MAX_LEN 512	/* longer names are compared cut there */

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

size_t suggest_distance(const char *a, const char *b)
{
	size_t n = strnlen(a, NAME_MAX_LEN), m = strnlen(b, NAME_MAX_LEN);
	size_t row[3][NAME_MAX_LEN + 1];
	size_t *two = row[0], *prev = row[1], *cur = row[2];

	for (size_t j = 0; j <= m; j++)
		prev[j] = j;
	for (size_t i = 1; i <= n; i++) {
		int ca = tolower((unsigned char)a[i - 1]);

		cur[0] = i;
		for (size_t j = 1; j <= m; j++) {
			int cb = tolower((unsigned char)b[j - 1]);

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
				      prev[j - 1] + (ca != cb));
			if (i > 1 && j > 1 &&
			    ca == tolower((unsigned char)b[j - 2]) &&
			    cb == tolower((unsigned char)a[i - 2]) &&
			    two[j - 2] + 1 < cur[j])
				cur[j] = two[j - 2] + 1;
		}
		size_t *t = two;

		two = prev;
		prev = cur;
		cur = t;
	}
	return prev[m];
}

void suggest_init(struct suggest *s, const char *word)
{
	s->word = word;
	s->best = NULL;
	s->dist = (size_t)-1;
}

void suggest_offer(struct suggest *s, const char *name)
{
	size_t len = strlen(s->word), d, room = len / 3 ? len / 3 : 1;

	if (!*name || !strcmp(name, s->word))
		return;
	d = suggest_distance(s->word, name);
	/* a beginning of the name ("--htm", "--sess") is as near as one slip */
	if (len >= 2 && !strncasecmp(name, s->word, len) && d > 1)
		d = 1;
	if (d <= room && d < s->dist) {
		s->best = name;
		s->dist = d;
	}
}

const char *suggest_best(const struct suggest *s)
{
	return s->best;
}
