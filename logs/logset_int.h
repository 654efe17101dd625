/*
 * logset_int.h - a read log set's insides, shared by the files of logs/
 * that read it (logset_read.c opens it; settle.c writes its journal's
 * rows into its files from the same open, not a second). Not an
 * interface: other folders see struct logset through logset.h alone.
 */
#ifndef PERFLOG_LOGSET_INT_H
#define PERFLOG_LOGSET_INT_H

#include <limits.h>

#include "journal.h"
#include "logset.h"

struct logset {
	char dir[PATH_MAX];
	int dfd;
	struct logset_meta meta;
	struct journal *journal;	/* the rows the files lack (journal.h) */
	struct perr noted;		/* the journal's last note, said once */
};

#endif
