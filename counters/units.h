/*
 * units.h - a counter's value as every view prints it: the report's
 * figures, the viewer's legends and readouts, the PNGs' legends and axes
 * (units.c; pure). One format, so a manager reads "23.0 GiB" in the
 * report, the viewer and the chart alike:
 *
 *   bytes        powers of 1024: "512 B", "858.8 KiB/s", "23.0 GiB"
 *   percent      one decimal: "0.0%", "12.3%", "100.0%"
 *   seconds      milliseconds, as sar's await: "0.32 ms", "37.3 ms"
 *   bits/s       powers of 1000, as link speeds: "940 Mb/s", "1 Gb/s"
 *   per second   "28.0/s", "24.4 k/s"
 *   counts       "0.28", "12.5", "3.2 k"
 *
 * A number has one decimal, two below 1 (a 0.32 ms latency, a 0.28 queue
 * would read 0.3), none for whole bytes.
 */
#ifndef PERFLOG_UNITS_H
#define PERFLOG_UNITS_H

#include <stddef.h>

#include "catalog.h"

/* v in its unit, as above; "n/a" when NAN. Returns buf. */
char *units_fmt(char *buf, size_t n, double v, enum counter_unit u);

/* bytes in powers of 1024 with suffix after the unit ("/s"): "0 B/s",
 * "11.3 MiB/s"; "n/a" when NAN. */
char *units_fmt_bytes(char *buf, size_t n, double bytes, const char *suffix);

/* A rate of bytes as the report says every one of its own (issue 49:
 * one unit a quantity across it, so a column of rates compares by
 * eye): in MiB/s always, one decimal from 1 MiB/s, two significant
 * digits below ("0.30 MiB/s", "0.0086 MiB/s" is "0.009"), at most three
 * decimals: "<0.001 MiB/s" above 0 and under 1 KiB/s; "n/a" when NAN. */
char *units_fmt_rate(char *buf, size_t n, double bytes_per_sec);

/* bits per second in powers of 1000: "1 Gb/s", "2.5 Gb/s"; "n/a" when
 * NAN. */
char *units_fmt_bits(char *buf, size_t n, double bits_per_sec);

/* An axis in a unit a reader knows, for values up to max: the values
 * are divided by div and the axis says label. Bytes take the power of
 * 1024 of max ("MiB/s", div 1048576), seconds are milliseconds ("ms",
 * div 0.001), any other unit is itself (catalog_unit_label, div 1). */
struct units_axis {
	double div;
	char label[16];
};
void units_axis_of(enum counter_unit u, double max, struct units_axis *a);

#endif
