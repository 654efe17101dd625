/*
 * psi.h - pressure stall information (Linux 4.20+, CONFIG_PSI, not booted
 * with psi=0). One format serves /proc/pressure/{cpu,io,memory} and a
 * cgroup v2 directory's cpu.pressure, io.pressure and memory.pressure
 * (Documentation/accounting/psi.rst):
 *
 *   some avg10=0.00 avg60=0.00 avg300=0.00 total=14863194
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=0
 *
 * Only total= is kept: the cumulative microseconds in which some (at least
 * one) or all non-idle tasks were stalled on the resource. rates.c turns
 * two readings into the share of the interval, as `sar -q PSI` does; the
 * kernel's avg10/60/300 are decaying averages that would smear a short
 * stall over minutes. The totals are u64 (never wrap); a total that goes
 * back (a cgroup removed and made again) is a reset: unknown.
 */
#ifndef PERFLOG_PSI_H
#define PERFLOG_PSI_H

#include <stddef.h>

#include "source.h"

/* Parse the text of a pressure file (len bytes, need not be terminated).
 * Fills out: present = 1 and some_us/full_us, SRC_NA for a line that is
 * missing or malformed (the cpu file had no "full" line before 5.13).
 * Returns 0, or -1 (present = 0) when there is no valid "some" line. */
int psi_parse(const char *buf, size_t len, struct psi_raw *out);

/* Read and parse one pressure file by path (for a cgroup's files; the
 * system-wide ones are read by procfs_read). Returns 0, or -1 with e set
 * ("unable to read 'PATH': ..." or "'PATH': no pressure figures") and
 * out->present = 0. A cgroup whose controller has pressure disabled
 * (cgroup.pressure = 0) fails to read with EOPNOTSUPP: also -1. */
int psi_read_file(const char *path, struct psi_raw *out, struct perr *e);

#endif
