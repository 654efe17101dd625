/* scale.c - numbers, units and scales for the viewer (scale.h). */
#include "scale.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int unit_is_bytes(enum counter_unit u)
{
	return u == UNIT_BYTES || u == UNIT_BYTES_SEC;
}

/* Scale v down to a prefix: 1024 powers for bytes, 1000 otherwise. */
static double prefixed(double v, enum counter_unit u, const char **pfx)
{
	static const char *const p[] = { "", "K", "M", "G", "T", "P" };
	double base = unit_is_bytes(u) ? 1024.0 : 1000.0;
	int i = 0;
	while (fabs(v) >= base * 0.9995 && i < 5) {
		v /= base;
		i++;
	}
	*pfx = p[i];
	return v;
}

/* 3 significant digits, no more than needed; below a thousandth, 0
 * (an idle host's 5e-20% is rounding left in an average, and the
 * readout said "2e-04": never e-notation, issue 49). */
static void fmt_sig(char *buf, size_t n, double v)
{
	double a = fabs(v);
	if (a < 0.0005)
		snprintf(buf, n, "0");
	else if (a >= 99.95)
		snprintf(buf, n, "%.0f", v);
	else if (a >= 9.995)
		snprintf(buf, n, "%.1f", v);
	else if (a >= 0.9995)
		snprintf(buf, n, "%.2f", v);
	else
		snprintf(buf, n, "%.3f", v);
}

/* The least value the readout shows as more than zero in the unit
 * (units_fmt: 0.1%, 0.01 ms, a byte, 0.01 a second): a scale whose top
 * is below it is flat, not 1e-20 steps labelled in e-notation. */
static double resolution(enum counter_unit u)
{
	switch (u) {
	case UNIT_PERCENT: return 0.05;
	case UNIT_BYTES: case UNIT_BYTES_SEC: return 0.5;
	case UNIT_SECONDS: return 5e-6;
	default: return 0.005;
	}
}

/* The report's and the PNGs' format (counters/units.h): the viewer's
 * "avail 23.0GB" and "5e-04%" were not what the report printed. */
char *vl_fmt_value(char *buf, size_t n, double v, enum counter_unit u)
{
	if (isnan(v)) {
		snprintf(buf, n, "-");
		return buf;
	}
	return units_fmt(buf, n, v, u);
}

char *vl_fmt_axis(char *buf, size_t n, double v, enum counter_unit u)
{
	char num[32];
	const char *pfx = "";
	if (u == UNIT_PERCENT) {
		fmt_sig(num, sizeof(num), v);
		snprintf(buf, n, "%s%%", num);
		return buf;
	}
	if (u == UNIT_SECONDS && fabs(v) < 1 && v != 0) {
		fmt_sig(num, sizeof(num), v * 1000);
		snprintf(buf, n, "%sm", num);
		return buf;
	}
	v = prefixed(v, u, &pfx);
	/* axis values are tick values: short, exact where possible */
	if (v == floor(v) || fabs(v) >= 100)
		snprintf(num, sizeof(num), "%.0f", v);
	else if (fabs(v) >= 10)
		snprintf(num, sizeof(num), "%.0f", v);
	else
		snprintf(num, sizeof(num), "%.1f", v);
	snprintf(buf, n, "%s%s", num, pfx);
	return buf;
}

/* Smallest 1-2-5 multiple of a power of `base` (10, or 1024 above 1024
 * for bytes) that is >= x. */
static double nice_step(double x, int bytes)
{
	double mag = 1;
	if (bytes && x >= 1024) {
		while (x / mag >= 1024)
			mag *= 1024;
		/* within one 1024 power, steps 1 2 5 10 20 50 100 200 500 */
	}
	double y = x / mag;
	double p = pow(10, floor(log10(y)));
	double f = y / p;
	double m = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
	return m * p * mag;
}

struct vl_scale vl_nice_scale(double min, double max, int nticks,
			      enum counter_unit u)
{
	struct vl_scale s;
	if (nticks < 1)
		nticks = 1;
	if (isnan(max) || isinf(max))
		max = 0;
	if (isnan(min) || isinf(min) || min > 0)
		min = 0;
	if (max - min < resolution(u))
		max = min;	/* nothing the readout would show */
	if (max <= min) {
		/* flat or empty: a default range in the unit */
		max = min + (u == UNIT_PERCENT ? 10 :
			     unit_is_bytes(u) ? 1024 : 1);
	}
	s.step = nice_step((max - min) / nticks, unit_is_bytes(u));
	s.lo = min < 0 ? -s.step * ceil(-min / s.step) : 0;
	s.hi = s.step * ceil(max / s.step - 1e-9);
	if (s.hi <= s.lo)
		s.hi = s.lo + s.step;
	if (u == UNIT_PERCENT && s.hi > 100 && max <= 100) {
		s.hi = 100;
		if (s.step > 50)
			s.step = 50;
	}
	return s;
}

long vl_time_step(double span, int cols, int min_gap)
{
	static const long steps[] = {
		1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800,
		3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800,
		2592000, 31536000
	};
	if (cols < 1)
		cols = 1;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (span / steps[i] * min_gap <= cols)
			return steps[i];
	return steps[sizeof(steps) / sizeof(steps[0]) - 1];
}

