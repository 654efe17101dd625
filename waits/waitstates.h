/*
 * waitstates.h - the interface of waits/: what each thread of a watched
 * tree is doing, sampled on a thread of its own (waitsampler.h), which
 * threads (waitset.h), one tick's classification (waitclass.h,
 * waitprobe.h), the reads (waits.h) and the interval's Process wait
 * counters and per-thread totals (waitrates.h). Other folders include this
 * header, not its parts; waits/README.md has the data flow.
 */
#ifndef PERFLOG_WAITSTATES_H
#define PERFLOG_WAITSTATES_H

#include "waitclass.h"
#include "waitedges.h"
#include "waitpeer.h"
#include "waitprobe.h"
#include "waitrates.h"
#include "waitrows.h"
#include "waits.h"
#include "waitsampler.h"
#include "waitset.h"
#include "waittcp.h"

#endif
