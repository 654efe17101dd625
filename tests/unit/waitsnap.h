/*
 * waitsnap.h - the unit tests' look-up of one thread in a wait-state read
 * (waits/waits.h struct waits_snap), shared by test_waits and
 * test_waitshare.
 */
#ifndef PERFLOG_TEST_WAITSNAP_H
#define PERFLOG_TEST_WAITSNAP_H

#include <stddef.h>
#include <sys/types.h>

#include "../../waits/waits.h"

/* The thread tid of read s, or NULL. */
static inline const struct waits_thread *snap_find(const struct waits_snap *s,
						   pid_t tid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->th[i].tid == tid)
			return &s->th[i];
	return NULL;
}

#endif
