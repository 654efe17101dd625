/*
 * estimate_logset.c - rates for `perflog estimate --from LOGSET`: the
 * reference workload's four sessions and the KB/sec measured for each
 * (contract in estimate.h). Only the markers are read: the rates are
 * figures of the backup runs, not of the counters, so a log set copied
 * without its RRD files (or markers.tsv alone) still serves.
 */
#include "estimate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../logs/logset.h"
#include "../logs/markers.h"

const char *const estimate_session_names[ESTIMATE_NCLASS] = {
	"1m1k", "10m10k", "25m100k", "50m10m",
};

#define KB_PER_SEC_KEY "workload.kb_per_sec"

int estimate_rates_from_logset(const char *dir, struct estimate_rates *r,
			       struct perr *e)
{
	struct marker_list ml;
	struct session *ss = NULL;
	struct stat sb;
	char path[4096];
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, LOGSET_MARKERS);
	if (stat(dir, &sb) < 0)
		return perr_set(e, "cannot access log set '%s': %s", dir,
				strerror(errno));
	if (stat(path, &sb) < 0)
		return perr_set(e, "'%s' is not a log set: no %s", dir,
				LOGSET_MARKERS);
	memset(&ml, 0, sizeof(ml));
	if (markers_load(dir, &ml, e) < 0)
		return -1;
	long ns = markers_sessions(&ml, &ss);

	if (ns < 0) {
		markers_free(&ml);
		return perr_set(e, "log set '%s': out of memory", dir);
	}
	for (int c = 0; c < ESTIMATE_NCLASS && !rc; c++) {
		const struct session *found = NULL;
		int open_only = 0;

		/* the last complete run of the set counts */
		for (long i = 0; i < ns; i++) {
			if (strcmp(ss[i].name, estimate_session_names[c]))
				continue;
			if (ss[i].end)
				found = &ss[i];
			else
				open_only = 1;
		}
		if (!found) {
			rc = perr_set(e, "log set '%s': no %ssession '%s' (the reference workload's %s file set)",
				      dir, open_only ? "complete " : "",
				      estimate_session_names[c],
				      estimate_session_names[c]);
			break;
		}
		const char *v = marker_get(found->end, KB_PER_SEC_KEY);

		if (!v) {
			rc = perr_set(e, "log set '%s': session '%s' has no %s (%s:%d)",
				      dir, estimate_session_names[c],
				      KB_PER_SEC_KEY, LOGSET_MARKERS,
				      found->end->line);
			break;
		}
		struct perr pe;

		if (estimate_parse_rate(v, &r->milli_kbps[c], &pe) < 0)
			rc = perr_set(e, "log set '%s': session '%s' (%s:%d): %s",
				      dir, estimate_session_names[c],
				      LOGSET_MARKERS, found->end->line, pe.msg);
	}
	free(ss);
	markers_free(&ml);
	return rc;
}
