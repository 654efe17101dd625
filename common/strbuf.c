/* strbuf.c - see strbuf.h. */
#include "strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int strbuf_reserve(struct strbuf *b, size_t more)
{
	size_t need, cap;
	char *p;

	if (b->failed)
		return -1;
	if (more > SIZE_MAX - b->len - 1 ||
	    (b->max && b->len + more + 1 > b->max)) {
		b->failed = 1;
		return -1;
	}
	need = b->len + more + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	if (b->max && cap > b->max)
		cap = b->max;
	p = realloc(b->p, cap);
	if (!p) {
		b->failed = 1;
		return -1;
	}
	if (!b->p)
		p[0] = '\0';
	b->p = p;
	b->cap = cap;
	return 0;
}

int strbuf_add(struct strbuf *b, const void *data, size_t n)
{
	if (strbuf_reserve(b, n) < 0)
		return -1;
	memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

int strbuf_puts(struct strbuf *b, const char *s)
{
	return strbuf_add(b, s, strlen(s));
}

int strbuf_vprintf(struct strbuf *b, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	if (b->failed)
		return -1;
	/* try in the room there is; grow once to the size it reported */
	va_copy(again, ap);
	n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0,
		      fmt, ap);
	if (n >= 0 && b->p && (size_t)n < b->cap - b->len) {
		b->len += (size_t)n;
		va_end(again);
		return 0;
	}
	if (n < 0 || strbuf_reserve(b, (size_t)n) < 0) {
		if (b->p)
			b->p[b->len] = '\0';
		b->failed = 1;
		va_end(again);
		return -1;
	}
	vsnprintf(b->p + b->len, b->cap - b->len, fmt, again);
	va_end(again);
	b->len += (size_t)n;
	return 0;
}

int strbuf_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = strbuf_vprintf(b, fmt, ap);
	va_end(ap);
	return rc;
}

void strbuf_truncate(struct strbuf *b, size_t len)
{
	if (b->p && len < b->len) {
		b->len = len;
		b->p[len] = '\0';
	}
}

const char *strbuf_str(const struct strbuf *b)
{
	return b->p ? b->p : "";
}

char *strbuf_detach(struct strbuf *b, size_t *len)
{
	char *p;

	if (b->failed) {
		strbuf_free(b);
		return NULL;
	}
	p = b->p ? b->p : strdup("");
	if (p && len)
		*len = b->len;
	b->p = NULL;
	b->len = b->cap = 0;
	return p;
}

void strbuf_free(struct strbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
	b->failed = 0;
}
