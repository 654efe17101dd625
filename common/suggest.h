/*
 * suggest.h - "did you mean": the nearest of some names to a word typed
 * wrong (a command, an option, a counter path, a session), for the one
 * line a bad argument gets. One rule for every caller:
 *
 *   struct suggest s;
 *   suggest_init(&s, word);
 *   for (each name) suggest_offer(&s, name);
 *   if (suggest_best(&s)) ... "did you mean '%s'?"
 *
 * Near is an edit distance (insert, delete, replace, swap of two
 * neighbours; case ignored) of at most a third of the word (at least 1),
 * or the word a beginning of the name at least 2 long; the nearest wins,
 * the first among equals.
 */
#ifndef PERFLOG_SUGGEST_H
#define PERFLOG_SUGGEST_H

#include <stddef.h>

struct suggest {
	const char *word;
	const char *best;	/* NULL: none near enough yet */
	size_t dist;
};

/* The edit distance of a and b (optimal string alignment), case ignored. */
size_t suggest_distance(const char *a, const char *b);

void suggest_init(struct suggest *s, const char *word);

/* Weigh one name (kept by pointer: it must live as long as s). */
void suggest_offer(struct suggest *s, const char *name);

/* The nearest name offered, or NULL when none was near. */
const char *suggest_best(const struct suggest *s);

#endif
