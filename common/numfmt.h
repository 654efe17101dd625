/*
 * numfmt.h - a double as decimal text for librrd's update strings, without
 * the printf family.
 *
 * The collector formats every value of every row it writes ("%.17g" was
 * 0.3 us a value, a twentieth of the default set's CPU a sample: issue
 * 30). numfmt_g17 writes what "%.17g" would: an integer below 10^17 as
 * itself; otherwise 17 significant digits, rounded once (ties to even,
 * as printf) from the value times a power of ten in long double (64 bits
 * of mantissa: the product is off by up to 2^-64 of itself, so in about
 * 1 value of 1,000 the 17th digit is one off printf's), trailing zeros
 * of the fraction dropped. What "%.17g" writes in e-notation (below
 * 1e-4, from 1e17) goes to snprintf. 17 digits still name the double:
 * a correctly rounded reader (strtod) reads back the very value
 * (test_numfmt: 200,000 of 200,000), librrd's rrd_strtod within its own
 * rounding, as it did printf's text.
 */
#ifndef PERFLOG_NUMFMT_H
#define PERFLOG_NUMFMT_H

#include <stddef.h>

/* Writes v (finite) into buf of size n, NUL-terminated. Returns the
 * length, or -1 when it does not fit. */
int numfmt_g17(char *buf, size_t n, double v);

#endif
