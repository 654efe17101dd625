/*
 * fill.h - for the tools and unit tests that write crafted log sets
 * through the real writer (mklogset, test_chartset): an object instance
 * with every counter of its object, and one value into a sample.
 */
#ifndef PERFLOG_TESTS_FILL_H
#define PERFLOG_TESTS_FILL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../counters/catalog.h"
#include "../../counters/rates.h"
#include "../../logs/logset.h"
#include "../../logs/markers.h"

/* Add instance inst of obj with all its counters; complains on stderr. */
static inline int fill_add_object(struct logset_writer *w,
				  enum counter_object obj, const char *inst)
{
	int idx[CATALOG_MAX_PER_OBJECT];
	int n = catalog_objects[obj].ncounters;
	struct perr e;

	for (int i = 0; i < n; i++)
		idx[i] = i;
	if (logset_add_instance(w, obj, inst, idx, (size_t)n, &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		return -1;
	}
	return 0;
}

/* Counter id of instance inst = v in sample s (the instance added to s
 * when it is not there yet). */
static inline void fill_value(struct sample *s, enum counter_object obj,
			      const char *inst, enum counter_id id, double v)
{
	struct instance_values *iv = sample_find(s, obj, inst);

	if (!iv)
		iv = sample_add(s, obj, inst);
	if (iv)
		iv->v[catalog_counters[id].index] = v;
}

/* Append one line markers_format made (freed here) to dir/markers.tsv,
 * as a collector appends it; 0 or -1 (NULL line included). */
static inline int fill_marker(const char *dir, char *line)
{
	char path[4096];
	FILE *f;
	int rc;

	if (!line)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, LOGSET_MARKERS);
	f = fopen(path, "a");
	rc = f && fputs(line, f) >= 0 ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	free(line);
	return rc;
}

/* A set's path as logset_create takes it: parent (of size n) and the
 * name, which points into dir. */
static inline const char *fill_split(const char *dir, char *parent, size_t n)
{
	char *slash;

	snprintf(parent, n, "%s", dir);
	slash = strrchr(parent, '/');
	if (!slash) {
		snprintf(parent, n, ".");
		return dir;
	}
	*slash = '\0';
	return dir + (slash - parent) + 1;
}

/* Append session name's begin (at begin) and end (at end, status 0)
 * markers to dir/markers.tsv, as perflog run writes them; 0 or -1 (said
 * on stderr, prog first). */
static inline int fill_session(const char *prog, const char *dir,
			       const char *name, double begin, double end)
{
	char *b = markers_format(begin, MARK_BEGIN, name, "crafted", NULL, 0);
	char dur[32];
	snprintf(dur, sizeof(dur), "duration=%.0f", end - begin);
	const char *x[] = { "status=0", dur };
	char *en = markers_format(end, MARK_END, name, "crafted", x, 2);
	char path[1100];
	snprintf(path, sizeof(path), "%s/markers.tsv", dir);
	FILE *f = fopen(path, "a");
	int bad = !f || !b || !en || fputs(b, f) < 0 || fputs(en, f) < 0;
	if (f && fclose(f))
		bad = 1;
	free(b);
	free(en);
	if (bad)
		fprintf(stderr, "%s: unable to write '%s'\n", prog, path);
	return bad ? -1 : 0;
}

/* A crafted log set under parent, named name, 1 s a sample from t0
 * (retention an hour): the writer, or NULL (said on stderr). */
static inline struct logset_writer *fill_create(const char *prog,
						const char *parent,
						const char *name, time_t t0)
{
	struct logset_options o = { 0 };
	struct logset_writer *w;
	struct perr e;

	o.parent = parent;
	o.name = name;
	o.interval = 1;
	o.retention = 3600;
	o.start = t0;
	if (logset_create(&o, &w, &e) < 0) {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		return NULL;
	}
	return w;
}

/* Close the set at end, add session's markers over [begin, end_s] and
 * print its directory; 0 or -1 (said on stderr). */
static inline int fill_finish(const char *prog, struct logset_writer *w,
			      time_t end, const char *session, double begin,
			      double end_s)
{
	char dir[1024];
	struct perr e;

	snprintf(dir, sizeof(dir), "%s", logset_writer_dir(w));
	if (logset_close_writer(w, end, &e) < 0) {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		return -1;
	}
	/* the session's markers, as perflog run writes them */
	if (fill_session(prog, dir, session, begin, end_s) < 0)
		return -1;
	printf("%s\n", dir);
	return 0;
}

#endif
