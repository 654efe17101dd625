/* units.c - values in their unit, one format for every view (units.h). */
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const bytes_units[] = { "B", "KiB", "MiB", "GiB", "TiB" };

/* one decimal, two below 1 */
static void num(char *buf, size_t n, double v)
{
	snprintf(buf, n, fabs(v) < 1 && v != 0 ? "%.2f" : "%.1f", v);
}

/* v scaled down by powers of 1000 while it reads 1000 or more: the
 * prefix ("", "k", "M", "G") */
static double prefixed(double v, const char **pfx)
{
	static const char *const p[] = { "", "k", "M", "G", "T" };
	int i = 0;

	while (fabs(v) >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	*pfx = p[i];
	return v;
}

char *units_fmt_bytes(char *buf, size_t n, double bytes, const char *suffix)
{
	int u = 0;

	if (isnan(bytes)) {
		snprintf(buf, n, "n/a");
		return buf;
	}
	while (fabs(bytes) >= 1024 && u < 4) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, n, u ? "%.1f %s%s" : "%.0f %s%s", bytes, bytes_units[u],
		 suffix ? suffix : "");
	return buf;
}

char *units_fmt_rate(char *buf, size_t n, double bytes_per_sec)
{
	double m = bytes_per_sec / 1048576;
	int dec;

	if (isnan(m)) {
		snprintf(buf, n, "n/a");
		return buf;
	}
	if (fabs(m) >= 1 || m == 0) {
		snprintf(buf, n, "%.1f MiB/s", m);
		return buf;
	}
	if (fabs(m) < 0.001) {
		snprintf(buf, n, "%s0.001 MiB/s", m > 0 ? "<" : ">-");
		return buf;
	}
	dec = 1 - (int)floor(log10(fabs(m)));
	snprintf(buf, n, "%.*f MiB/s", dec > 3 ? 3 : dec, m);
	return buf;
}

char *units_fmt_bits(char *buf, size_t n, double bits)
{
	static const char *const units[] = { "b/s", "Kb/s", "Mb/s", "Gb/s",
					      "Tb/s" };
	int u = 0;

	if (isnan(bits)) {
		snprintf(buf, n, "n/a");
		return buf;
	}
	while (fabs(bits) >= 1000 && u < 4) {
		bits /= 1000;
		u++;
	}
	snprintf(buf, n, bits == floor(bits) ? "%.0f %s" : "%.1f %s", bits,
		 units[u]);
	return buf;
}

char *units_fmt(char *buf, size_t n, double v, enum counter_unit u)
{
	char x[32];
	const char *pfx;

	if (isnan(v)) {
		snprintf(buf, n, "n/a");
		return buf;
	}
	switch (u) {
	case UNIT_PERCENT:
		snprintf(buf, n, "%.1f%%", v);
		break;
	case UNIT_BYTES:
		units_fmt_bytes(buf, n, v, "");
		break;
	case UNIT_BYTES_SEC:
		units_fmt_bytes(buf, n, v, "/s");
		break;
	case UNIT_SECONDS:
	case UNIT_MILLISECONDS:
		num(x, sizeof(x), u == UNIT_SECONDS ? v * 1000 : v);
		snprintf(buf, n, "%s ms", x);
		break;
	case UNIT_BITS_SEC:
		units_fmt_bits(buf, n, v);
		break;
	case UNIT_PER_SEC:
	case UNIT_COUNT:
		v = prefixed(v, &pfx);
		num(x, sizeof(x), v);
		snprintf(buf, n, "%s%s%s%s", x, *pfx ? " " : "", pfx,
			 u == UNIT_PER_SEC ? "/s" : "");
		break;
	default:
		num(buf, n, v);
	}
	return buf;
}

void units_axis_of(enum counter_unit u, double max, struct units_axis *a)
{
	a->div = 1;
	snprintf(a->label, sizeof(a->label), "%s", catalog_unit_label(u));
	if (u == UNIT_SECONDS) {
		a->div = 0.001;
		snprintf(a->label, sizeof(a->label), "ms");
	} else if (u == UNIT_BYTES || u == UNIT_BYTES_SEC) {
		int p = 0;
		while (!isnan(max) && fabs(max) >= 1024 * a->div && p < 4) {
			a->div *= 1024;
			p++;
		}
		snprintf(a->label, sizeof(a->label), "%s%s", bytes_units[p],
			 u == UNIT_BYTES_SEC ? "/s" : "");
	}
}
