/*
 * numfmt.c - a double as decimal text without the printf family (see
 * numfmt.h for why and how exact).
 */
#include "numfmt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define DIGITS 17
/* 10^k for k = 0..27 is exact in long double's 64-bit mantissa (5^27 <
 * 2^64), so the only rounding is the product's */
#define MAXPOW 27

static const uint64_t E16 = 10000000000000000ULL;	/* 10^(DIGITS-1) */
static const uint64_t E17 = 100000000000000000ULL;	/* 10^DIGITS */

static long double pow10l_exact(int k)
{
	long double p = 1;

	while (k-- > 0)
		p *= 10;
	return p;
}

/* the digits of m, most significant first, into d; returns the count */
static int digits_of(uint64_t m, char *d)
{
	char tmp[24];
	int k = 0, n = 0;

	do {
		tmp[k++] = (char)('0' + m % 10);
		m /= 10;
	} while (m);
	while (k)
		d[n++] = tmp[--k];
	return n;
}

static int put(char *buf, size_t n, const char *s, size_t len)
{
	if (len + 1 > n)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return (int)len;
}

static int fallback(char *buf, size_t n, double v)
{
	int k = snprintf(buf, n, "%.17g", v);

	return k < 0 || (size_t)k >= n ? -1 : k;
}

int numfmt_g17(char *buf, size_t n, double v)
{
	char out[48], d[24];
	double a = fabs(v);
	size_t len = 0;
	uint64_t m = 0;
	int e, nd, point;

	if (a < 1e17 && a == floor(a)) {	/* an integer, as "%.17g" */
		if (v < 0)
			out[len++] = '-';
		len += (size_t)digits_of((uint64_t)a, out + len);
		return put(buf, n, out, len);
	}
	if (!(a >= 1e-5 && a < 1e17))	/* "%.17g"'s fixed notation */
		return fallback(buf, n, v);
	/* e: the decimal exponent of a's leading digit; log10 can be off by
	 * one at a power of ten, which the scaled value shows and mends */
	e = (int)floor(log10(a));
	for (int tries = 0; tries < 3; tries++) {
		int k = DIGITS - 1 - e;

		if (k < 0 || k > MAXPOW)
			return fallback(buf, n, v);
		/* rintl: to nearest, ties to even, as printf rounds */
		m = (uint64_t)rintl((long double)a * pow10l_exact(k));
		if (m >= E17)
			e++;
		else if (m < E16)
			e--;
		else
			break;
	}
	if (m < E16 || m >= E17)
		return fallback(buf, n, v);
	nd = digits_of(m, d);	/* DIGITS of them */
	while (nd > 1 && d[nd - 1] == '0')
		nd--;
	if (v < 0)
		out[len++] = '-';
	point = e + 1;		/* digits before the decimal point */
	if (point <= 0) {	/* 0.000ddd: "%.17g" goes to e-notation
				 * below 1e-4, as here */
		if (e < -4)
			return fallback(buf, n, v);
		out[len++] = '0';
		out[len++] = '.';
		for (int z = 0; z < -point; z++)
			out[len++] = '0';
		memcpy(out + len, d, (size_t)nd);
		len += (size_t)nd;
	} else if (point >= nd) {	/* an integer part only */
		memcpy(out + len, d, (size_t)nd);
		len += (size_t)nd;
		for (int z = nd; z < point; z++)
			out[len++] = '0';
	} else {
		memcpy(out + len, d, (size_t)point);
		len += (size_t)point;
		out[len++] = '.';
		memcpy(out + len, d + point, (size_t)(nd - point));
		len += (size_t)(nd - point);
	}
	return put(buf, n, out, len);
}
