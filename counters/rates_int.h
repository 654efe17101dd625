/*
 * rates_int.h - what rates.c shares with rates_targets.c. Not an
 * interface for other folders: rates.h (through counters.h) is.
 */
#ifndef PERFLOG_RATES_INT_H
#define PERFLOG_RATES_INT_H

#include <stddef.h>
#include <stdint.h>

/* The deltas of the n counters of one device into d (NAN for unknown
 * ones), every one NAN when the device was replaced (pid != cid, both
 * known) or reset (a counter back where it cannot wrap, or two back at
 * once); bits[i] is 32 or 64 (0: the kernel's word unknown). Returns 1
 * when the device was found reset (rates.c says why). */
int rates_device_deltas(uint64_t pid, uint64_t cid, const uint64_t *p,
			const uint64_t *c, const int *bits, int n, double *d);

/* v clamped to 0..100, NAN kept. */
double rates_clamp_pct(double v);

/* Index in arr (n elements of size sz whose first member is the name)
 * of the entry called name, trying position hint first (the kernel lists
 * devices in a stable order, so a sample of hundreds is linear); -1 when
 * absent. */
long rates_match(const void *arr, size_t n, size_t sz, const char *name,
		 size_t hint);

#endif
