/*
 * test_numfmt.c - numfmt_g17 (common/numfmt.h) against "%.17g": the
 * same text for the values a collector logs (rates, byte counts,
 * percentages, their small fractions; the 17th digit off by one in
 * about 1 of 1,000), and every text read back by strtod to the very
 * double it came from.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/numfmt.h"
#include "tap.h"

static int same_as_printf(double v, char *got, size_t n)
{
	char want[64];

	snprintf(want, sizeof(want), "%.17g", v);
	return numfmt_g17(got, n, v) == (int)strlen(want) &&
	       !strcmp(got, want);
}

/* a in units of the last place of b */
static double ulps(double a, double b)
{
	return a == b ? 0 : fabs(a - b) / (nextafter(fabs(b), INFINITY) - fabs(b));
}

static void fixed(void)
{
	static const double v[] = {
		0, 1, -1, 10, 100, 12345, 0.5, 0.25, 0.1, 0.3, 2.5e-3,
		1e-4, 1.5e-4, 99.999999999999986, 1234567.8901234567,
		3.1415926535897931, 1e16, 1e17 - 1, 99999999999999984.0,
		123456789012345.67, -0.001, 1e-5, 1e17, 1e300, 5e-324,
		4.9406564584124654e-10, 1700000000.5,
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++) {
		char name[96];

		snprintf(name, sizeof(name), "%.17g as printf writes it", v[i]);
		OK(same_as_printf(v[i], buf, sizeof(buf)), name);
	}
	EQ_INT(numfmt_g17(buf, 4, 12345.5), -1, "too long for the buffer: -1");
	EQ_INT(numfmt_g17(buf, 6, 12345), 5, "an integer that just fits");
	EQ_STR(buf, "12345", "and its text");
}

/* values of every magnitude a counter takes, random mantissas */
static void random_values(void)
{
	unsigned long differ = 0, far = 0, exact = 0, total = 0;
	char buf[64];
	uint64_t x = 88172645463325252ULL;

	for (int i = 0; i < 200000; i++) {
		double v, back;

		x ^= x << 13; x ^= x >> 7; x ^= x << 17;	/* xorshift64 */
		v = (double)(x >> 11) / 9007199254740992.0;	/* [0,1) */
		v *= pow(10, (double)(int)(x % 26) - 8);	/* 1e-8..1e17 */
		if (x & 1)
			v = -v;
		total++;
		if (!same_as_printf(v, buf, sizeof(buf)))
			differ++;
		back = strtod(buf, NULL);
		if (ulps(back, v) > 1)
			far++;
		exact += back == v;
	}
	printf("# %lu of %lu random values differ from printf's text, %lu read back exactly\n",
	       differ, total, exact);
	/* (the product's rounding moves the 17th digit by one in about 1
	 * value of 1,000: 264 of 200,000 here) */
	OK(differ * 100 <= total, "at most 1 in 100 differs from printf");
	EQ_INT(far, 0, "every text reads back within an ulp");
	OK(exact == total, "strtod reads every text back to its very double");
}

int main(void)
{
	fixed();
	random_values();
	return done_testing();
}
