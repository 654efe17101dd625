/*
 * report_names.h - the stages of a session named by what they are, not
 * COMM[PID] (report_names.c; issue 49).
 */
#ifndef PERFLOG_REPORT_NAMES_H
#define PERFLOG_REPORT_NAMES_H

#include "report.h"
#include "report_stages.h"

/* Rename the stages of ss (session s of the log set in dir, its markers
 * ml) that the table would call COMM[PID]: by the other watched trees
 * of the set that hold the process and the role their begin markers
 * give them, else by the session's command. Call it after
 * report_stages_of, before the verdict quotes the names. */
void report_names_of(struct report_stages *ss, const char *dir,
		     const struct marker_list *ml,
		     const struct report_session *s);

#endif
