/*
 * select.h - which object instances and counters the settings ask for.
 *
 * Instances are decided once, when first seen, and remembered in a hash
 * table so that a sample of hundreds of disks and interfaces costs one
 * lookup each. A disk that has never done any I/O (unused loop, ram, zram
 * devices) is left out while it stays idle, unless the settings name it.
 */
#ifndef PERFLOG_SELECT_H
#define PERFLOG_SELECT_H

#include <stddef.h>

#include "../counters/counters.h"
#include "../sources/source.h"
#include "settings.h"

struct select_entry {
	enum counter_object object;
	char instance[SRC_NAME_MAX];
	int counters[CATALOG_MAX_PER_OBJECT];	/* counter_def.index */
	int ncounters;		/* 0: not logged */
	int named;		/* the settings name this instance itself */
	int added;		/* its RRD file exists */
	struct select_entry *next;	/* hash chain */
};

struct selector;

struct selector *select_new(const struct settings *s);
void select_free(struct selector *sel);

/* The entry for an instance (created on first sight). NULL when out of
 * memory. */
struct select_entry *select_get(struct selector *sel,
				enum counter_object obj, const char *instance);

/* Whether any selection names object obj at all. */
int select_wants_object(const struct selector *sel, enum counter_object obj);

#endif
