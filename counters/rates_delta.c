/*
 * rates_delta.c - the delta rules every rate is built on (rates.h
 * rates_delta; rates_int.h): a counter's delta across a 32-bit wrap, a
 * device's deltas with resets and replacements made unknown, the share
 * clamp, and how an instance of cur is found in prev. Shared by rates.c
 * and rates_targets.c, below both.
 */
#include "rates.h"
#include "rates_int.h"

#include <math.h>
#include <string.h>

/* A genuine wrap of a 32-bit counter moves it by less than half its range
 * in one interval (2^31 ms of weighted disk time is 24 days; 2^31 bytes
 * in a second is 17 Gbit/s, past what a 32-bit kernel's counters can
 * measure at all). A larger "wrapped" delta is a counter that started
 * again from zero. */
#define WRAP_MAX ((uint64_t)1 << 31)

int rates_delta(uint64_t prev, uint64_t cur, int bits, uint64_t *delta)
{
	uint64_t d;

	if (prev == SRC_NA || cur == SRC_NA)
		return -1;
	if (cur >= prev) {
		*delta = cur - prev;
		return 0;
	}
	/* Backwards: a wrap only where the kernel keeps the counter in 32
	 * bits (or may: width unknown and both values fit), and only by a
	 * plausible amount; else the counter was reset (device replaced,
	 * driver reloaded). */
	if (bits == 64 || prev > UINT32_MAX || cur > UINT32_MAX)
		return -1;
	d = (UINT32_MAX - prev) + cur + 1;
	if (d >= WRAP_MAX)
		return -1;
	*delta = d;
	return 0;
}

/* The deltas of the n counters of one device (NAN for unknown ones).
 * A device that was replaced between the reads, or whose counters were
 * reset (a disk re-plugged or an LVM snapshot recreated under the same
 * name, a veth pair made again), must give no values for the interval,
 * never a delta across two devices: so every delta is NAN when
 * - the identities differ (major:minor, ifindex), or
 * - one counter went back where it cannot wrap (64 bits, or by more than
 *   a wrap moves it), or
 * - two or more went back in the same interval: independent counters
 *   (reads and read sectors, bytes and packets) do not wrap together, a
 *   reset takes them all back.
 * Returns 1 when the device was found reset. */
int rates_device_deltas(uint64_t pid, uint64_t cid, const uint64_t *p,
			const uint64_t *c, const int *bits, int n, double *d)
{
	int back = 0, reset = pid && cid && pid != cid;

	for (int i = 0; i < n; i++) {
		uint64_t x;

		d[i] = NAN;
		if (p[i] == SRC_NA || c[i] == SRC_NA)
			continue;
		if (c[i] < p[i])
			back++;
		if (rates_delta(p[i], c[i], bits[i], &x) < 0)
			reset = 1;
		else
			d[i] = (double)x;
	}
	if (reset || back >= 2) {
		for (int i = 0; i < n; i++)
			d[i] = NAN;
		return 1;
	}
	return 0;
}

double rates_clamp_pct(double v)
{
	if (isnan(v))
		return v;
	return v < 0.0 ? 0.0 : v > 100.0 ? 100.0 : v;
}

long rates_match(const void *arr, size_t n, size_t sz, const char *name,
		 size_t hint)
{
	const char *base = arr;

	if (hint < n && strcmp(base + hint * sz, name) == 0)
		return (long)hint;
	for (size_t i = 0; i < n; i++)
		if (strcmp(base + i * sz, name) == 0)
			return (long)i;
	return -1;
}
