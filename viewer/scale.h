/*
 * scale.h - numbers for the viewer: values in their unit at a legend's
 * width, y axis labels and scales with 1-2-5 ticks (powers of 1024 for
 * bytes), time tick steps. Pure functions.
 */
#ifndef PERFLOG_VIEWER_SCALE_H
#define PERFLOG_VIEWER_SCALE_H

#include <stddef.h>

#include "../counters/counters.h"

/* Format v in its unit for a legend or readout, as the report and the
 * PNGs print it (units_fmt, counters/units.h): "12.3%", "1.5 MiB/s",
 * "512.0 KiB", "3.2 k/s", "12.0 ms", "940 Mb/s"; "-" for NAN. At most
 * 12 characters ("1023.9 KiB/s"). */
char *vl_fmt_value(char *buf, size_t n, double v, enum counter_unit u);
/* Same, at most 5 characters, without the unit's per-second suffix, for the
 * y axis ("100%", "1.5M", "512K", "20G", "0"). */
char *vl_fmt_axis(char *buf, size_t n, double v, enum counter_unit u);

/* A y scale: lo..hi with ticks every step. */
struct vl_scale {
	double lo, hi, step;
};

/* Nice scale from 0 (or from the data minimum when it is negative) to at
 * least max, with about nticks intervals and a 1-2-5 step (in 1024 powers
 * for bytes). Percent scales stop at 100 unless the data exceed it. A flat
 * or unknown series gets a usable default scale. */
struct vl_scale vl_nice_scale(double min, double max, int nticks,
			      enum counter_unit u);

/* Time tick step (seconds) for a span of `span` seconds over `cols` cells
 * so that labels are at least min_gap cells apart: 1, 2, 5, 10, 15, 30 s,
 * 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h, 1, 2, 7 d. */
long vl_time_step(double span, int cols, int min_gap);

#endif
