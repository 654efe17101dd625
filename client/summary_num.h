/*
 * summary_num.h - what summary.c (the labels, the summaries) calls in
 * summary_num.c (the numbers after them). Not an interface for other
 * files: summary.h is, summary_parse_value included (defined in
 * summary_num.c).
 */
#ifndef PERFLOG_SUMMARY_NUM_H
#define PERFLOG_SUMMARY_NUM_H

#include <stddef.h>

#include "summary.h"

/* A blank between a label's words or around a value. */
static inline int summary_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Read the value after a label at s[0..n): its extent (start, length) on
 * this line, up to the end of the unit. Returns 0, -1 (no value), or -2:
 * a number that cannot be read for sure (its extent is set). dec is the
 * summary's decimal point, 0 when unknown. */
int summary_num_scan(const char *s, size_t n, enum summary_unit unit,
		     char dec, size_t *start, size_t *vlen, double *v);

/* Evidence of the decimal point in s[0..n): seen[0] for '.', seen[1] for
 * ',': a separator with one or two digits after it (the last of its
 * number) and none of its kind before it. */
void summary_num_evidence(const char *s, size_t n, int seen[2]);

#endif
