/* json.c - see json.h. */
#include "json.h"

#include <math.h>
#include <string.h>

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when it is not one
 * (overlong forms, surrogates and code points above U+10FFFF included). */
static int utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	int n;
	unsigned cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void json_write_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	putc('"', f);
	while (*s) {
		int n = utf8_len(s);

		if (n == 0) {
			fputs("\\ufffd", f);
			s++;
			continue;
		}
		if (n > 1) {
			fwrite(s, 1, (size_t)n, f);
			s += n;
			continue;
		}
		switch (*s) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*s < 0x20 || *s == 0x7f)
				fprintf(f, "\\u%04x", *s);
			else
				putc(*s, f);
		}
		s++;
	}
	putc('"', f);
}

/* Comma, new line and indentation before a value, then its key. */
static void lead(struct json *j, const char *key)
{
	if (j->depth > 0) {
		if (j->used[j->depth])
			putc(',', j->f);
		putc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	j->used[j->depth] = 1;
	if (key) {
		json_write_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_(struct json *j, const char *key, char c)
{
	lead(j, key);
	putc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->used[j->depth] = 0;
}

static void close_(struct json *j, char c)
{
	int had = j->used[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had) {
		putc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	putc(c, j->f);
}

void json_object_begin(struct json *j, const char *key) { open_(j, key, '{'); }
void json_object_end(struct json *j) { close_(j, '}'); }
void json_array_begin(struct json *j, const char *key) { open_(j, key, '['); }
void json_array_end(struct json *j) { close_(j, ']'); }

void json_str(struct json *j, const char *key, const char *s)
{
	lead(j, key);
	if (s)
		json_write_string(j->f, s);
	else
		fputs("null", j->f);
}

void json_num(struct json *j, const char *key, double v)
{
	lead(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.15g", v);
	else
		fputs("null", j->f);
}

void json_int(struct json *j, const char *key, long long v)
{
	lead(j, key);
	fprintf(j->f, "%lld", v);
}

void json_bool(struct json *j, const char *key, int v)
{
	lead(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	lead(j, key);
	fputs("null", j->f);
}

void json_finish(struct json *j)
{
	putc('\n', j->f);
}
