/*
 * json.h - a small JSON writer for the machine-readable outputs
 * (`perflog status --json`, `perflog report --json`): RFC 8259 text,
 * indented two spaces a level, commas placed by the writer so callers only
 * say what comes next.
 *
 *   struct json j;
 *   json_init(&j, stdout);
 *   json_object_begin(&j, NULL);
 *   json_int(&j, "format", 1);
 *   json_array_begin(&j, "sessions");
 *   ...
 *   json_array_end(&j);
 *   json_object_end(&j);
 *   json_finish(&j);          (the final newline; ferror(f) tells the rest)
 *
 * Inside an object every value has a key; inside an array (and at the top)
 * the key is NULL. Numbers that are not finite (NAN: unknown) are written
 * as null, as are NULL strings. Strings are written as UTF-8: a byte
 * sequence that is not valid UTF-8 (markers and command lines may hold any
 * bytes) becomes U+FFFD, so the output is always valid JSON.
 */
#ifndef PERFLOG_JSON_H
#define PERFLOG_JSON_H

#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
	FILE *f;
	int depth;
	unsigned char used[JSON_MAX_DEPTH];	/* a value already written at
						 * this level: the next needs a
						 * comma */
};

void json_init(struct json *j, FILE *f);
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_str(struct json *j, const char *key, const char *s);
void json_num(struct json *j, const char *key, double v);
void json_int(struct json *j, const char *key, long long v);
void json_bool(struct json *j, const char *key, int v);
void json_null(struct json *j, const char *key);
void json_finish(struct json *j);

/* One JSON string, quoted and escaped, as above. */
void json_write_string(FILE *f, const char *s);

#endif
