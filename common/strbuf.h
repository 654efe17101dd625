/*
 * strbuf.h - the one growable byte buffer (after collectd's
 * src/utils/strbuf.h): text or bytes appended at the end, the buffer grown
 * as needed and always NUL-terminated, so a caller builds a whole text (a
 * metadata file, an argument vector element, a path) and checks once at
 * the end instead of after every append.
 *
 *   struct strbuf b = STRBUF_INIT;
 *   strbuf_printf(&b, "host\t%s\n", host);
 *   strbuf_puts(&b, "...");
 *   if (b.failed) ... out of memory (or over b.max) ...
 *   char *text = strbuf_detach(&b, &len);   (or strbuf_free(&b))
 *
 * A failed append leaves the contents as they were before it and sets the
 * sticky `failed` flag; every later append fails at once. An empty buffer
 * has p == NULL: use strbuf_str() to read it as a string.
 */
#ifndef PERFLOG_STRBUF_H
#define PERFLOG_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *p;	/* NULL until the first append, then NUL-terminated */
	size_t len;	/* bytes held, the terminating NUL not counted */
	size_t cap;	/* bytes allocated */
	size_t max;	/* 0: no limit; else len never exceeds max - 1 */
	int failed;	/* an append failed: out of memory or over max */
};

#define STRBUF_INIT { NULL, 0, 0, 0, 0 }

/* Make room for `more` bytes after len (plus the NUL); the room is at
 * p + len, cap - len - 1 bytes long. Returns 0, or -1 (failed set) when
 * memory runs out or len + more would pass max. */
int strbuf_reserve(struct strbuf *b, size_t more);

/* Append n bytes (which may hold NULs), a string, or printf output.
 * Each returns 0, or -1 with failed set and the contents unchanged. */
int strbuf_add(struct strbuf *b, const void *data, size_t n);
int strbuf_puts(struct strbuf *b, const char *s);
int strbuf_printf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int strbuf_vprintf(struct strbuf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Cut the contents back to len bytes (no-op when already shorter). */
void strbuf_truncate(struct strbuf *b, size_t len);

/* The contents as a string: "" for an empty buffer. */
const char *strbuf_str(const struct strbuf *b);

/* Hand the contents over (the caller frees them; an empty buffer gives a
 * malloc'ed ""), *len their length when len is not NULL, and reset b to
 * empty. NULL when the buffer failed (its contents are freed then) or
 * memory runs out. */
char *strbuf_detach(struct strbuf *b, size_t *len);

/* Free the contents and reset b to empty (max is kept). */
void strbuf_free(struct strbuf *b);

#endif
