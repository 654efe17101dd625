/*
 * test_verdict_words.c - the verdict's words are defined once, in
 * verdict/words.c: the manual page (man/perflog-report.1) and the README
 * list exactly that table's words, the first words (verdict_kind_word)
 * and the details (verdict_word), between their "verdict-words" marks
 * (issue 46: the man page listed none, cpu, cpu-single, ... and the
 * README said "one of five" while the JSON said
 * wait-cpu-quota-or-affinity). Run from the top of the tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "../../verdict/verdict.h"

#define MAXW 64

struct words {
	char w[MAXW][32];
	size_t n;
};

static void add(struct words *ws, const char *w, size_t len)
{
	if (!len || len >= sizeof(ws->w[0]) || ws->n >= MAXW)
		return;
	for (size_t i = 0; i < ws->n; i++)
		if (strlen(ws->w[i]) == len && !strncmp(ws->w[i], w, len))
			return;
	memcpy(ws->w[ws->n], w, len);
	ws->w[ws->n++][len] = '\0';
}

static int has(const struct words *ws, const char *w)
{
	for (size_t i = 0; i < ws->n; i++)
		if (!strcmp(ws->w[i], w))
			return 1;
	return 0;
}

/* The table's words: the five first words and every detail. */
static void table(struct words *ws)
{
	memset(ws, 0, sizeof *ws);
	for (int k = 0; k < VERDICT_NKIND; k++) {
		const char *w = verdict_kind_word((enum verdict_kind)k);
		add(ws, w, strlen(w));
	}
	for (int t = 0; t < VRES_NTYPE; t++) {
		const char *d = verdict_word((enum vres_type)t)->detail;
		add(ws, d, strlen(d));
	}
}

/* The text between the line holding `begin` and the next holding `end`,
 * malloc'ed, or NULL. */
static char *between(const char *path, const char *begin, const char *end)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	size_t n = 0, cap = 1 << 16;
	char *out = malloc(cap);
	int in = 0, closed = 0;

	if (!f || !out) {
		if (f)
			fclose(f);
		free(out);
		return NULL;
	}
	out[0] = '\0';
	while (fgets(line, sizeof line, f)) {
		if (in && strstr(line, end)) {
			closed = 1;
			break;
		}
		if (in && n + strlen(line) + 1 < cap) {
			memcpy(out + n, line, strlen(line) + 1);
			n += strlen(line);
		}
		if (!in && strstr(line, begin))
			in = 1;
	}
	fclose(f);
	if (!closed) {
		free(out);
		return NULL;
	}
	return out;
}

/* roff: the word after .B or .BR on each line, \- read as - */
static void man_words(const char *text, struct words *ws)
{
	memset(ws, 0, sizeof *ws);
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (!strncmp(p, ".B ", 3) || !strncmp(p, ".BR ", 4)) {
			char w[32];
			size_t j = 0;
			const char *q = p + (p[2] == ' ' ? 3 : 4);
			for (; q < p + len && *q != ' ' && j + 1 < sizeof w; q++)
				if (!(q[0] == '\\' && q[1] == '-'))
					w[j++] = *q;
			add(ws, w, j);
		}
		p = nl ? nl + 1 : NULL;
	}
}

/* markdown: each `word` */
static void md_words(const char *text, struct words *ws)
{
	memset(ws, 0, sizeof *ws);
	for (const char *p = text; p && (p = strchr(p, '`'));) {
		const char *q = strchr(p + 1, '`');
		if (!q)
			break;
		add(ws, p + 1, (size_t)(q - p - 1));
		p = q + 1;
	}
}

static void same(const struct words *doc, const struct words *tab,
		 const char *what)
{
	int ok = doc->n == tab->n;
	for (size_t i = 0; i < tab->n; i++)
		if (!has(doc, tab->w[i])) {
			printf("# %s: lacks %s\n", what, tab->w[i]);
			ok = 0;
		}
	for (size_t i = 0; i < doc->n; i++)
		if (!has(tab, doc->w[i])) {
			printf("# %s: lists %s, no word of the table\n", what,
			       doc->w[i]);
			ok = 0;
		}
	char name[128];
	snprintf(name, sizeof name, "%s lists exactly the table's %zu words",
		 what, tab->n);
	OK(ok, name);
}

int main(void)
{
	struct words tab, doc;
	table(&tab);
	EQ_INT((long)tab.n, 9, "the table: 5 first words and 4 details more");
	char *man = between("man/perflog-report.1", "verdict-words", "end verdict-words");
	OK(man != NULL, "the manual page marks its list of the words");
	man_words(man, &doc);
	same(&doc, &tab, "man/perflog-report.1");
	free(man);
	char *md = between("README.md", "verdict-words", "end verdict-words");
	OK(md != NULL, "the README marks its list of the words");
	md_words(md, &doc);
	same(&doc, &tab, "README.md");
	free(md);
	return done_testing();
}
