/*
 * test_json.c - the JSON writer (common/json.h): structure and commas,
 * escapes, invalid UTF-8, numbers that are not finite. Each output is also
 * checked to be valid JSON by the end-to-end suites (t9500), through
 * perl's JSON::PP.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../common/json.h"
#include "tap.h"

/* Run the writer into a memory buffer. */
static char *buf;
static size_t len;

static FILE *start(void)
{
	free(buf);
	buf = NULL;
	return open_memstream(&buf, &len);
}

static const char *str_of(const char *s)
{
	FILE *f = start();

	json_write_string(f, s);
	fclose(f);
	return buf;
}

int main(void)
{
	struct json j;
	FILE *f;

	EQ_STR(str_of("plain"), "\"plain\"", "a plain string");
	EQ_STR(str_of("a\"b\\c"), "\"a\\\"b\\\\c\"", "quote and backslash escaped");
	EQ_STR(str_of("t\tn\nr\r"), "\"t\\tn\\nr\\r\"", "tab, newline, return");
	EQ_STR(str_of("\x01\x1f\x7f"), "\"\\u0001\\u001f\\u007f\"", "other control bytes as \\u00XX");
	EQ_STR(str_of("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
	       "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"", "valid UTF-8 kept");
	EQ_STR(str_of("a\xff" "b"), "\"a\\ufffdb\"", "an invalid byte becomes U+FFFD");
	EQ_STR(str_of("\xc3"), "\"\\ufffd\"", "a truncated sequence becomes U+FFFD");
	EQ_STR(str_of("\xc0\xaf"), "\"\\ufffd\\ufffd\"", "an overlong form is refused");
	EQ_STR(str_of("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"", "a surrogate is refused");
	EQ_STR(str_of("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", "above U+10FFFF is refused");

	f = start();
	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_int(&j, "format", 1);
	json_str(&j, "name", "x");
	json_str(&j, "none", NULL);
	json_num(&j, "pi", 3.25);
	json_num(&j, "unknown", NAN);
	json_num(&j, "inf", INFINITY);
	json_bool(&j, "yes", 1);
	json_array_begin(&j, "list");
	json_int(&j, NULL, 1);
	json_object_begin(&j, NULL);
	json_null(&j, "k");
	json_object_end(&j);
	json_array_end(&j);
	json_array_begin(&j, "empty");
	json_array_end(&j);
	json_object_begin(&j, "nothing");
	json_object_end(&j);
	json_object_end(&j);
	json_finish(&j);
	fclose(f);
	EQ_STR(buf,
	       "{\n"
	       "  \"format\": 1,\n"
	       "  \"name\": \"x\",\n"
	       "  \"none\": null,\n"
	       "  \"pi\": 3.25,\n"
	       "  \"unknown\": null,\n"
	       "  \"inf\": null,\n"
	       "  \"yes\": true,\n"
	       "  \"list\": [\n"
	       "    1,\n"
	       "    {\n"
	       "      \"k\": null\n"
	       "    }\n"
	       "  ],\n"
	       "  \"empty\": [],\n"
	       "  \"nothing\": {}\n"
	       "}\n", "nesting, commas and indentation");

	f = start();
	json_init(&j, f);
	json_array_begin(&j, NULL);
	json_num(&j, NULL, 123456789012345.0);
	json_num(&j, NULL, 0.1);
	json_num(&j, NULL, -2.5e-7);
	json_array_end(&j);
	fclose(f);
	EQ_STR(buf, "[\n  123456789012345,\n  0.1,\n  -2.5e-07\n]",
	       "numbers with 15 significant digits, exponents as JSON has them");
	free(buf);
	return done_testing();
}
