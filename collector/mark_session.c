/*
 * mark_session.c - a marker with the tree its session watches (mark.h):
 * `perflog mark --begin -s S --watch SPEC` asks the collector to log SPEC
 * as Process(S) ("follow", collector/watch_spec.c) before the begin
 * marker, as perflog run asks for its command's tree before its own; the
 * end marker gets the tree's wait-state totals ("waits label=S") and the
 * tree is unwatched after it, which takes its last sample.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mark.h"

#define FIELDS_OWN 40	/* fields made here: the watch's, the waits' (36) */

struct fields {
	const char **v;
	char **own;	/* the ones made here, freed at the end */
	size_t n, nown;
};

static void add(struct fields *f, const char *fmt, const char *a,
		const char *b)
{
	char *s = NULL;

	if (asprintf(&s, fmt, a, b) < 0)
		return;
	f->own[f->nown++] = s;
	f->v[f->n++] = s;
}

/* "label=S cpu=M io=M procs=N": the method and the count. */
static void follow_fields(struct fields *f, const char *reply, char *warn,
			  size_t wn, const char *spec)
{
	const char *cpu = strstr(reply, " cpu="), *procs = strstr(reply, " procs=");
	char method[256];

	if (cpu) {
		snprintf(method, sizeof(method), "%.*s",
			 (int)((procs ? procs : cpu + strlen(cpu)) - cpu - 1),
			 cpu + 1);
		add(f, "accounting=%s%s", method, "");
	}
	if (procs) {
		add(f, "watch.procs=%s%s", procs + 7, "");
		if (atoi(procs + 7) == 0)
			snprintf(warn, wn, "watch %s: no process matches yet (watching for one)",
				 spec);
	}
}

/* Fields that do not fit one marker line (a server's client.cmd of a
 * tar with 3,500 paths: 84 KB) go whole to a figures file beside the
 * marker, which keeps the short ones and names the file, as perflog
 * run's own markers do (logs/markers.h); f then holds what the line
 * keeps. */
static void bound(struct fields *f, const char *dir, const char *session)
{
	const char **keep;
	size_t nk = 0;
	char name[128], *s = NULL;
	struct perr fe;

	if (markers_fit_line(f->v, f->n) || f->nown + 2 > FIELDS_OWN)
		return;
	keep = calloc(f->n + 2, sizeof(*keep));
	if (!keep)
		return;
	for (size_t i = 0; i < f->n && nk < MARKERS_INLINE_FIELDS - 2; i++)
		if (markers_inline_field(f->v[i]))
			keep[nk++] = f->v[i];
	if (markers_write_figures(dir, session, f->v, f->n, name,
				  sizeof(name), &fe) == 0) {
		if (asprintf(&s, "%s=%s", MARKERS_FIGURES_KEY, name) >= 0)
			keep[nk++] = f->own[f->nown++] = s;
	} else {
		if (asprintf(&s, "figures.lost=%zu", f->n - nk) >= 0)
			keep[nk++] = f->own[f->nown++] = s;
		if (asprintf(&s, "figures.error=%s", fe.msg) >= 0)
			keep[nk++] = f->own[f->nown++] = s;
	}
	free(f->v);
	f->v = keep;
	f->n = nk;
}

int mark_session(const struct collector_info *col, double when,
		 enum marker_kind kind,
		 const char *session, const char *text, const char *watch,
		 const char *const *extra, size_t nextra, char *warn,
		 size_t wn, struct perr *e)
{
	struct fields f = { 0 };
	char *es = markers_escape(session), *ew = NULL, *req = NULL;
	char reply[2048];
	struct perr we;
	int rc = -1, watched = 0;

	warn[0] = '\0';
	f.v = calloc(nextra + 40, sizeof(*f.v));
	f.own = calloc(FIELDS_OWN, sizeof(*f.own));
	if (!es || !f.v || !f.own) {
		perr_set(e, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nextra; i++)
		f.v[f.n++] = extra[i];
	if (kind == MARK_BEGIN && watch) {
		ew = markers_escape(watch);
		if (!ew || asprintf(&req, "follow %s\t%s", es, ew) < 0) {
			perr_set(e, "out of memory");
			goto out;
		}
		add(&f, "watch=%s%s", watch, "");
		if (control_request(col, req, reply, sizeof(reply), &we) == 0) {
			follow_fields(&f, reply, warn, wn, watch);
		} else {
			add(&f, "watch.error=%s%s", we.msg, "");
			snprintf(warn, wn, "watch %s: %s (not watched)", watch,
				 we.msg);
		}
	} else if (kind == MARK_END) {
		char *save = NULL;

		if (asprintf(&req, "waits label=%s", es) < 0) {
			perr_set(e, "out of memory");
			goto out;
		}
		watched = control_request(col, req, reply, sizeof(reply), &we) == 0;
		for (char *p = watched ? strtok_r(reply, "\t", &save) : NULL;
		     p && f.nown < 36; p = strtok_r(NULL, "\t", &save))
			if (strchr(p, '='))
				add(&f, "%s%s", p, "");
	}
	bound(&f, col->logset, session);
	rc = control_mark_to(col, when, kind, session, text, f.v, f.n, e);
	if (rc == 0 && e->msg[0]) {	/* held: markers.tsv is full */
		size_t k = strlen(warn);

		snprintf(warn + k, wn - k, "%s%s", k ? "; " : "", e->msg);
	}
	if (watched) {
		free(req);
		req = NULL;
		if (asprintf(&req, "unwatch label=%s", es) >= 0 &&
		    control_request(col, req, NULL, 0, &we) < 0 && rc == 0)
			snprintf(warn, wn, "unwatch %s: %s", session, we.msg);
	}
out:
	for (size_t i = 0; i < f.nown; i++)
		free(f.own[i]);
	free(f.own);
	free(f.v);
	free(es);
	free(ew);
	free(req);
	return rc;
}
