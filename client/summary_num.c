/*
 * summary_num.c - the numbers of dsmc's summary (summary.h, "Numbers"):
 * "," "." and "'" separators, the unit words, H:MM:SS, and the evidence
 * of a summary's decimal point. summary.c finds the labels and calls
 * these for the value after each; summary_num.h is what it calls.
 */
#include "summary_num.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Every separator of s[0..n) groups three digits ("12.345", "1'024"). */
static int grouped(const char *s, size_t n)
{
	size_t run = 0, groups = 0;

	for (size_t i = 0; i < n; i++) {
		if (isdigit((unsigned char)s[i])) {
			run++;
			continue;
		}
		if (!run || (groups && run != 3))
			return 0;
		groups++;
		run = 0;
	}
	return run && (!groups || run == 3);
}

/* A number with "," "." (and "'" grouping) separators (see summary.h):
 * dec is the summary's decimal point when known (summary_decimal), 0
 * when not; a count has no decimals, so its separators group. */
static int parse_number(const char *s, size_t n, enum summary_unit unit,
			char dec_ch, double *out)
{
	if (n == 0 || n > 40)
		return -1;
	const char *last_dot = NULL, *last_comma = NULL;
	int digits = 0;
	for (size_t i = 0; i < n; i++) {
		if (isdigit((unsigned char)s[i]))
			digits++;
		else if (s[i] == '.')
			last_dot = s + i;
		else if (s[i] == ',')
			last_comma = s + i;
		else if (s[i] != '\'')
			return -1;
	}
	if (!digits)
		return -1;
	const char *dec = NULL;	/* the decimal point, if any */
	if (unit == SUMU_COUNT) {
		/* "objects inspected: 12.345" (NUMBERFORMAT 5) is 12345 */
		if (!grouped(s, n))
			return -1;
	} else if (dec_ch) {
		const char *d = dec_ch == ',' ? last_comma : last_dot;
		if (d && !grouped(s, (size_t)(d - s)))
			return -1;
		if (!d && !grouped(s, n))
			return -1;
		dec = d;
	} else if (last_dot && last_comma)
		dec = last_dot > last_comma ? last_dot : last_comma;
	else if (last_dot)
		dec = last_dot;
	else if (last_comma) {
		/* "1,024" groups thousands; "0,37" is a decimal comma */
		size_t after = (size_t)(s + n - last_comma - 1);
		dec = after == 3 ? NULL : last_comma;
	}
	char buf[48];
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (s + i == dec)
			buf[k++] = '.';
		else if (isdigit((unsigned char)s[i]))
			buf[k++] = s[i];
		else if (dec && s + i > dec)
			return -1;	/* a separator after the decimal point */
	}
	buf[k] = '\0';
	char *end;
	errno = 0;
	double v = strtod(buf, &end);
	if (*end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

static int parse_hms(const char *s, size_t n, double *out)
{
	if (n == 0 || n > 24)
		return -1;
	double part[3];
	int np = 0;
	size_t i = 0;
	while (i <= n) {
		size_t j = i;
		while (j < n && isdigit((unsigned char)s[j]))
			j++;
		if (j == i || j - i > 9 || np == 3)
			return -1;
		double v = 0;
		for (size_t k = i; k < j; k++)
			v = v * 10 + (s[k] - '0');
		part[np++] = v;
		if (j == n)
			break;
		if (s[j] != ':')
			return -1;
		i = j + 1;
	}
	if (np < 2)
		return -1;
	for (int k = 1; k < np; k++)
		if (part[k] >= 60)
			return -1;
	*out = np == 3 ? part[0] * 3600 + part[1] * 60 + part[2]
		       : part[0] * 60 + part[1];
	return 0;
}

/* Does u[0..n) equal word, ignoring case? */
static int word_is(const char *u, size_t n, const char *word)
{
	if (n != strlen(word))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (tolower((unsigned char)u[i]) != tolower((unsigned char)word[i]))
			return 0;
	return 1;
}

/* Multiplier of a unit word for a field's unit; 0 when not acceptable. */
static double unit_factor(const char *u, size_t n, enum summary_unit unit)
{
	static const char *const bytes[] = { "B", "KB", "MB", "GB", "TB",
					     "PB", "EB" };
	switch (unit) {
	case SUMU_BYTES:
		for (int i = 0; i < 7; i++)
			if (word_is(u, n, bytes[i]))
				return pow(1024.0, i);
		return word_is(u, n, "bytes") ? 1 : 0;
	case SUMU_SECONDS:
		return word_is(u, n, "sec") || word_is(u, n, "s") ? 1 : 0;
	case SUMU_KB_SEC:
		if (word_is(u, n, "KB/sec") || word_is(u, n, "KB/s"))
			return 1;
		if (word_is(u, n, "MB/sec") || word_is(u, n, "MB/s"))
			return 1024;
		if (word_is(u, n, "B/sec") || word_is(u, n, "B/s"))
			return 1.0 / 1024;
		return 0;
	case SUMU_PERCENT:
		return word_is(u, n, "%") ? 1 : 0;
	case SUMU_COUNT:
	case SUMU_HMS:
		break;
	}
	return 0;
}

/* Is u[0..n) a unit word of any field? (then it cannot be left aside
 * as the next sentence: a wrong unit makes the figure unreadable) */
static int any_unit(const char *u, size_t n)
{
	return unit_factor(u, n, SUMU_BYTES) != 0 ||
	       unit_factor(u, n, SUMU_SECONDS) != 0 ||
	       unit_factor(u, n, SUMU_KB_SEC) != 0 ||
	       unit_factor(u, n, SUMU_PERCENT) != 0;
}

static int parse_value(const char *s, size_t len, enum summary_unit unit,
		       char dec, double *out);

int summary_parse_value(const char *s, size_t len, enum summary_unit unit,
			double *out)
{
	return parse_value(s, len, unit, 0, out);
}

static int parse_value(const char *s, size_t len, enum summary_unit unit,
		       char dec, double *out)
{
	size_t i = 0;
	while (i < len && summary_blank(s[i]))
		i++;
	while (len > i && (summary_blank(s[len - 1]) || s[len - 1] == '\r' ||
			   s[len - 1] == '\n'))
		len--;
	if (unit == SUMU_HMS)
		return parse_hms(s + i, len - i, out);
	size_t j = i;
	while (j < len && (isdigit((unsigned char)s[j]) || s[j] == ',' ||
			   s[j] == '.' || s[j] == '\''))
		j++;
	double v;
	if (parse_number(s + i, j - i, unit, dec, &v) < 0)
		return -2;
	size_t k = j;
	while (k < len && summary_blank(s[k]))
		k++;
	if (k == len) {		/* unit missing: the field's own */
		*out = v;
		return 0;
	}
	if (unit == SUMU_COUNT)
		return -1;
	double f = unit_factor(s + k, len - k, unit);
	if (f == 0)
		return -1;
	*out = v * f;
	return isfinite(*out) ? 0 : -1;
}

/* Read the value after a label at s[0..n): its extent (start, length) on
 * this line, up to the end of the unit. Returns 0, -1 (no value), or -2:
 * a number that cannot be read for sure (its extent is set). */
int summary_num_scan(const char *s, size_t n, enum summary_unit unit,
		     char dec, size_t *start, size_t *vlen, double *v)
{
	size_t i = 0;
	while (i < n && summary_blank(s[i]))
		i++;
	size_t j = i;
	if (unit == SUMU_HMS) {
		while (j < n && (isdigit((unsigned char)s[j]) || s[j] == ':'))
			j++;
	} else {
		while (j < n && (isdigit((unsigned char)s[j]) ||
				 s[j] == ',' || s[j] == '.' || s[j] == '\''))
			j++;
		/* ADSM's "Average file size: 1,028 Elapsed": a sentence's
		 * full stop or comma right after is not part of the number */
		while (j > i && (s[j - 1] == '.' || s[j - 1] == ','))
			j--;
		/* the word after the number, if any: its unit */
		size_t k = j;
		while (k < n && summary_blank(s[k]))
			k++;
		size_t u = k;
		while (u < n && (isalpha((unsigned char)s[u]) ||
				 s[u] == '/' || s[u] == '%'))
			u++;
		if (unit != SUMU_COUNT && u > k &&
		    unit_factor(s + k, u - k, unit) != 0)
			j = u;
		else if (u > k && any_unit(s + k, u - k))
			return -1;	/* "Data transfer time: 5 GB", or a
					 * count with a unit */
	}
	if (j == i || j - i > SUMMARY_PRINTED_MAX)
		return -1;
	*start = i;
	*vlen = j - i;
	return parse_value(s + i, j - i, unit, dec, v);
}

/* Evidence of the decimal point in s[0..n): seen[0] for '.', seen[1] for
 * ',': a separator with one or two digits after it (the last of its
 * number) and none of its kind before it. */
void summary_num_evidence(const char *s, size_t n, int seen[2])
{
	for (size_t i = 1; i + 1 < n; i++) {
		char c = s[i];
		size_t k = i + 1, b = i - 1;

		if ((c != '.' && c != ',') || !isdigit((unsigned char)s[i - 1]))
			continue;
		while (k < n && isdigit((unsigned char)s[k]))
			k++;
		if (k - i - 1 < 1 || k - i - 1 > 2 ||
		    (k < n && (s[k] == '.' || s[k] == ',')))
			continue;
		while (b > 0 && isdigit((unsigned char)s[b - 1]))
			b--;
		if (b > 0 && s[b - 1] == c)
			continue;	/* "1.2.3" says nothing */
		seen[c == ',']++;
	}
}
