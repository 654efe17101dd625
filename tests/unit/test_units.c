/*
 * test_units.c - the one format of a value in its unit (counters/units.h)
 * that the report, the viewer and the PNGs' legends share, and the axis
 * a PNG is drawn in: bytes in B/KiB/MiB/GiB, latency in ms (sar's
 * await), percent with one decimal (issue 32: "236.19m" B/s, "272.31u"
 * s, "5e-04%", "avail 23.0GB" against the report's GiB).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../counters/counters.h"
#include "../../report/report_stat.h"
#include "../../viewer/scale.h"
#include "tap.h"

/* The report's one unit of a rate (issue 49): MiB/s whatever the size */
static void test_rate(void)
{
	char b[32];

	EQ_STR(units_fmt_rate(b, sizeof(b), 419240632), "399.8 MiB/s", "400 MB/s");
	EQ_STR(units_fmt_rate(b, sizeof(b), 11.5 * 1048576), "11.5 MiB/s", "11.5");
	EQ_STR(units_fmt_rate(b, sizeof(b), 309340), "0.30 MiB/s",
	       "302 KiB/s in MiB/s, two digits");
	EQ_STR(units_fmt_rate(b, sizeof(b), 9000), "0.009 MiB/s", "three decimals at most");
	EQ_STR(units_fmt_rate(b, sizeof(b), 500), "<0.001 MiB/s", "500 B/s: under the last decimal");
	EQ_STR(units_fmt_rate(b, sizeof(b), 0), "0.0 MiB/s", "nothing");
	EQ_STR(units_fmt_rate(b, sizeof(b), NAN), "n/a", "unknown");
}

static void test_fmt(void)
{
	char b[32];

	EQ_STR(units_fmt(b, sizeof(b), 0.236, UNIT_BYTES_SEC), "0 B/s",
	       "a fraction of a byte per second is 0 B/s, not 236.19m");
	EQ_STR(units_fmt(b, sizeof(b), 11.5 * 1048576, UNIT_BYTES_SEC),
	       "11.5 MiB/s", "MiB/s");
	EQ_STR(units_fmt(b, sizeof(b), 24.7e9, UNIT_BYTES), "23.0 GiB", "GiB");
	EQ_STR(units_fmt(b, sizeof(b), 272.31e-6, UNIT_SECONDS), "0.27 ms",
	       "seconds as ms, not 272.31u");
	EQ_STR(units_fmt(b, sizeof(b), 0.03728, UNIT_SECONDS), "37.3 ms",
	       "37.3 ms");
	EQ_STR(units_fmt(b, sizeof(b), 5e-4, UNIT_PERCENT), "0.0%",
	       "a tiny percentage, not 5e-04%");
	EQ_STR(units_fmt(b, sizeof(b), 100, UNIT_PERCENT), "100.0%", "100.0%");
	EQ_STR(units_fmt(b, sizeof(b), 24403.6, UNIT_PER_SEC), "24.4 k/s", "k/s");
	EQ_STR(units_fmt(b, sizeof(b), 28, UNIT_PER_SEC), "28.0/s", "/s");
	EQ_STR(units_fmt(b, sizeof(b), 0.28, UNIT_COUNT), "0.28", "a queue");
	EQ_STR(units_fmt(b, sizeof(b), 940e6, UNIT_BITS_SEC), "940 Mb/s", "bits");
	EQ_STR(units_fmt(b, sizeof(b), 4.2, UNIT_MILLISECONDS), "4.2 ms", "ms");
	EQ_STR(units_fmt(b, sizeof(b), NAN, UNIT_BYTES), "n/a", "unknown");
}

/* the report, the viewer and the PNGs print a value alike */
static void test_shared(void)
{
	char r[32], v[32], u[32];
	const double bytes[] = { 0, 12, 4096, 858.8 * 1024, 24.7e9, 1.7e12 };

	for (size_t i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++) {
		report_fmt_bytes(r, sizeof(r), bytes[i], NULL);
		vl_fmt_value(v, sizeof(v), bytes[i], UNIT_BYTES);
		units_fmt(u, sizeof(u), bytes[i], UNIT_BYTES);
		OK(!strcmp(r, u) && !strcmp(v, u), "bytes: report, viewer, PNG alike");
		if (strcmp(r, u) || strcmp(v, u))
			printf("# report %s, viewer %s, units %s\n", r, v, u);
	}
}

static void test_axis(void)
{
	struct units_axis a;

	units_axis_of(UNIT_BYTES_SEC, 210e6, &a);
	EQ_STR(a.label, "MiB/s", "200 MB/s on a MiB/s axis");
	OK(a.div == 1048576, "divided by 2^20");
	units_axis_of(UNIT_BYTES, 24.8e9, &a);
	EQ_STR(a.label, "GiB", "memory in GiB");
	units_axis_of(UNIT_BYTES_SEC, 0.5, &a);
	EQ_STR(a.label, "B/s", "an idle interface in B/s");
	OK(a.div == 1, "not divided");
	units_axis_of(UNIT_BYTES_SEC, NAN, &a);
	EQ_STR(a.label, "B/s", "no value: B/s");
	units_axis_of(UNIT_SECONDS, 0.037, &a);
	EQ_STR(a.label, "ms", "latency in ms");
	OK(a.div == 0.001, "seconds times 1000");
	units_axis_of(UNIT_PERCENT, 1, &a);
	EQ_STR(a.label, "%", "percent as it is");
	OK(a.div == 1, "percent not scaled");
}

int main(void)
{
	test_rate();
	test_fmt();
	test_shared();
	test_axis();
	return done_testing();
}
