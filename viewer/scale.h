/*
 * scale.h - numbers for the viewer: values in their unit at a legend's
 * width, y axis labels and scales with 1-2-5 ticks (powers of 1024 for
 * bytes), time tick steps. Pure functions.
 */
#ifndef PERFLOG_VIEWER_SCALE_H
#define PERFLOG_VIEWER_SCALE_H

#include <stddef.h>

#include "../counters/counters.h"

/* Format v in its unit for a legend or readout, at most 9 characters:
 * "12.3%", "1.50MB/s", "512KB", "3.2k/s", "0.012s", "940Mb/s", "-" for NAN.
 * Bytes use powers of 1024 (KB, MB, GB, TB). The unit is
 * catalog_unit_label's, as in the pane titles. */
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
