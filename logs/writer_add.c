/*
 * writer_add.c - logset_add_instance (logset.h): a file to be for a new
 * object instance, and its counters' entries in perflog.meta once the
 * worker has created it (writer_map_counters, writer.h).
 *
 * Nothing is written here: the file gets its create job at the next
 * sample (writer_grow.c), and the rows it is given meanwhile are held
 * from the row of the previous sample on, so its data starts where the
 * instance appeared.
 */
#include "writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_instance(enum counter_object obj, const char *instance,
			  const int *counter_index, size_t ncounters,
			  struct perr *e)
{
	if (ncounters == 0 || ncounters > CATALOG_MAX_PER_OBJECT)
		return perr_set(e, "%s(%s): %zu counters (want 1 to %d)",
				catalog_objects[obj].name, instance, ncounters,
				CATALOG_MAX_PER_OBJECT);
	if (strlen(instance) >= SRC_NAME_MAX)
		return perr_set(e, "instance name too long: '%s'", instance);
	if (catalog_objects[obj].has_instances && !*instance)
		return perr_set(e, "%s needs an instance",
				catalog_objects[obj].name);
	for (size_t i = 0; i < ncounters; i++) {
		if (!catalog_counter_at(obj, counter_index[i]))
			return perr_set(e, "%s has no counter %d",
					catalog_objects[obj].name,
					counter_index[i]);
		for (size_t j = 0; j < i; j++)
			if (counter_index[j] == counter_index[i])
				return perr_set(e, "counter %d given twice",
						counter_index[i]);
	}
	return 0;
}

int writer_map_counters(struct logset_writer *w, struct wfile *f)
{
	struct logset_counter *nc = realloc(w->meta.counters,
					    (w->meta.ncounters + f->n) *
					    sizeof(*nc));

	if (!nc)
		return -1;
	w->meta.counters = nc;
	for (size_t i = 0; i < f->n; i++) {
		const struct counter_def *d = catalog_counter_at(f->obj,
								 f->idx[i]);
		struct logset_counter *c = &nc[w->meta.ncounters++];

		memset(c, 0, sizeof(*c));
		c->def = d;
		catalog_format_path(c->path, sizeof(c->path), d, f->instance);
		util_strlcpy(c->instance, f->instance, sizeof(c->instance));
		util_strlcpy(c->file, f->name, sizeof(c->file));
		util_strlcpy(c->ds, d->ds, sizeof(c->ds));
	}
	w->meta_dirty = 1;
	return 0;
}

/* A new wfile at the end of w->files (not yet counted). */
static struct wfile *new_file(struct logset_writer *w, struct perr *e)
{
	struct wfile *f;

	if (w->nfiles == w->capfiles) {
		size_t cap = w->capfiles ? w->capfiles * 2 : 8;
		struct wfile *nf = realloc(w->files, cap * sizeof(*nf));

		if (!nf) {
			perr_set(e, "out of memory");
			return NULL;
		}
		w->files = nf;
		w->capfiles = cap;
	}
	f = &w->files[w->nfiles];
	memset(f, 0, sizeof(*f));
	return f;
}

static int add_instance(struct logset_writer *w, enum counter_object obj,
			const char *instance, const int *counter_index,
			size_t ncounters, int idle, struct perr *e)
{
	unsigned long step = w->meta.interval;
	size_t hold = HOLD_SECONDS / step;
	struct wfile *f;

	if (!instance)
		instance = "";
	if ((unsigned)obj >= OBJ_COUNT)
		return perr_set(e, "unknown object %d", (int)obj);
	for (size_t i = 0; i < w->nfiles; i++)
		if (w->files[i].obj == obj &&
		    !strcmp(w->files[i].instance, instance))
			return 0;
	if (check_instance(obj, instance, counter_index, ncounters, e) < 0 ||
	    !(f = new_file(w, e)))
		return -1;
	f->obj = obj;
	util_strlcpy(f->instance, instance, sizeof(f->instance));
	memcpy(f->idx, counter_index, ncounters * sizeof(int));
	f->n = ncounters;
	logset_file_name(f->name, sizeof(f->name), obj, instance);
	if (writer_file_path(w, f, e) < 0)
		return -1;
	/* two instances whose names differ only in characters that the file
	 * name replaces would share a file: refuse the second */
	for (size_t i = 0; i < w->nfiles; i++)
		if (!strcmp(w->files[i].name, f->name))
			return perr_set(e, "%s(%s) would share '%s' with %s(%s)",
					catalog_objects[obj].name, instance,
					f->name, catalog_objects[obj].name,
					w->files[i].instance);
	/* its data starts at the row holding the previous sample: the
	 * rows from then on are its own */
	f->born = w->last > 0 ? (time_t)(floor(w->last / step) * step) :
		  w->meta.start;
	f->state = WF_NEW;
	f->fresh = idle;
	if (hold < 2 * (size_t)w->batch + 8)
		hold = 2 * (size_t)w->batch + 8;
	if (rows_init(&f->rows, step, ncounters, (double)f->born, w->batch + 2,
		      hold) < 0)
		return perr_set(e, "out of memory");
	w->nfiles++;
	return 0;
}

int logset_add_instance(struct logset_writer *w, enum counter_object obj,
			const char *instance, const int *counter_index,
			size_t ncounters, struct perr *e)
{
	return add_instance(w, obj, instance, counter_index, ncounters, 0, e);
}

int logset_add_idle_instance(struct logset_writer *w,
			     enum counter_object obj, const char *instance,
			     const int *counter_index, size_t ncounters,
			     struct perr *e)
{
	return add_instance(w, obj, instance, counter_index, ncounters, 1, e);
}
