/*
 * counters.h - the interface of counters/: the counter catalog (every
 * counter's path, unit and bounds: catalog.h), the chart sets that group
 * them (chartset.h), the rate arithmetic that turns raw readings into
 * an interval's values (rates.h) and the one format of a value in its
 * unit (units.h). Other folders include this header, not its parts;
 * counters/README.md defines every counter.
 */
#ifndef PERFLOG_COUNTERS_H
#define PERFLOG_COUNTERS_H

#include "catalog.h"
#include "chartset.h"
#include "rates.h"
#include "units.h"

#endif
