/*
 * run_marks.c - the markers of `perflog run` (run_marks.h).
 */
#define _GNU_SOURCE
#include "run_marks.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_MAX 1024

void run_extra_add(struct run_extras *x, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	if (x->n == x->cap) {
		size_t nc = x->cap ? 2 * x->cap : 32;
		char **nv = realloc(x->v, nc * sizeof(*nv));

		if (!nv)
			return;
		x->v = nv;
		x->cap = nc;
	}
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) >= 0)
		x->v[x->n++] = s;
	va_end(ap);
}

void run_extras_free(struct run_extras *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->v[i]);
	free(x->v);
	memset(x, 0, sizeof(*x));
}

char *run_cmdline(char **argv)
{
	size_t len = 1;
	char *s, *p;

	for (char **a = argv; *a; a++)
		len += 4 * strlen(*a) + 3;
	s = p = malloc(len);
	if (!s)
		return NULL;
	for (char **a = argv; *a; a++) {
		int plain = **a != '\0';

		if (a != argv)
			*p++ = ' ';
		for (const char *c = *a; *c; c++)
			if (!isalnum((unsigned char)*c) &&
			    !strchr("-_./=:,+@%", *c))
				plain = 0;
		if (plain) {
			p = stpcpy(p, *a);
			continue;
		}
		*p++ = '\'';
		for (const char *c = *a; *c; c++) {
			if (*c == '\'')
				p = stpcpy(p, "'\\''");
			else
				*p++ = *c;
		}
		*p++ = '\'';
	}
	*p = '\0';
	return s;
}

void run_label(char *out, size_t n, const char *src)
{
	const char *base = strrchr(src, '/');
	size_t k = 0;

	base = base && base[1] ? base + 1 : src;
	for (const char *p = base; *p && k + 1 < n && k < SRC_NAME_MAX - 8; p++) {
		unsigned char c = (unsigned char)*p;
		int okc = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '_' ||
			  c == '-';

		out[k++] = okc ? (char)c : '_';
	}
	out[k] = '\0';
	if (!k || !strcmp(out, ".") || !strcmp(out, ".."))
		util_strlcpy(out, "cmd", n);
}

char *run_marker_text(const char *s)
{
	char *t;

	if (strlen(s) <= TEXT_MAX)
		return strdup(s);
	if (asprintf(&t, "%.*s [...]", TEXT_MAX, s) < 0)
		return NULL;
	return t;
}

/* Through the collector, else straight into markers.tsv. */
static int write_marker(const struct collector_info *col, double when,
			enum marker_kind kind, const char *session,
			const char *text, const char *const *v, size_t n,
			struct perr *e)
{
	struct perr ce, fe;

	if (control_mark_at(col->logset, when, kind, session, text, v, n,
			    &ce) == 0)
		return 0;
	if (markers_append_at(col->logset, when > 0 ? when : util_walltime(),
			      kind, session, text, v, n, &fe) == 0)
		return 0;
	/* fe, not e: perr_set must not read the message it writes */
	return perr_set(e, "%s; and %s", ce.msg, fe.msg);
}

int run_mark(const struct collector_info *col, enum marker_kind kind,
	     const char *session, const char *text,
	     const struct run_extras *x, struct perr *e)
{
	return run_mark_at(col, 0, kind, session, text, x, e);
}

int run_mark_at(const struct collector_info *col, double when,
		enum marker_kind kind, const char *session, const char *text,
		const struct run_extras *x, struct perr *e)
{
	struct run_extras keep = { 0 };
	char name[128];
	struct perr fe;
	int rc;

	if (markers_fit_line((const char *const *)x->v, x->n))
		return write_marker(col, when, kind, session, text,
				    (const char *const *)x->v, x->n, e);
	for (size_t i = 0; i < x->n && keep.n < MARKERS_INLINE_FIELDS - 2; i++)
		if (markers_inline_field(x->v[i]))
			run_extra_add(&keep, "%s", x->v[i]);
	if (markers_write_figures(col->logset, session,
				  (const char *const *)x->v, x->n, name,
				  sizeof(name), &fe) == 0) {
		run_extra_add(&keep, "%s=%s", MARKERS_FIGURES_KEY, name);
	} else {
		/* say what could not be kept, and why */
		run_extra_add(&keep, "figures.lost=%zu", x->n - keep.n);
		run_extra_add(&keep, "figures.error=%s", fe.msg);
	}
	rc = write_marker(col, when, kind, session, text,
			  (const char *const *)keep.v, keep.n, e);
	run_extras_free(&keep);
	return rc;
}
