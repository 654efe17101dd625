/*
 * watch_ended.c - the wait-state totals of a `mark --watch` tree that
 * ended before its session (collector_int.h). The tree's slot is freed
 * once its last row is logged, its sampler with it; the session's end
 * comes when the tester says so, often after the client is gone (a PID
 * watch of a backup client that exits, then `perflog mark --end`). The
 * totals are written when the tree ends, and the fields they give the
 * end marker are kept here, a few by label, until the session asks.
 */
#include <string.h>

#include "collector_int.h"

static int find(const struct collector *c, const char *label)
{
	for (int i = 0; i < c->nended; i++)
		if (!strcmp(c->ended[i].label, label))
			return i;
	return -1;
}

int watch_ended_drop(struct collector *c, const char *label)
{
	int i = find(c, label);

	if (i < 0)
		return 0;
	memmove(&c->ended[i], &c->ended[i + 1],
		(size_t)(c->nended - i - 1) * sizeof(c->ended[0]));
	c->nended--;
	return 1;
}

void watch_ended_keep(struct collector *c, struct watch *w)
{
	struct ended_waits *k;
	struct perr pe;

	if (!w->ww)
		return;
	watch_ended_drop(c, w->label);
	if (c->nended == MAX_WATCH)	/* sessions never ended: the oldest */
		watch_ended_drop(c, c->ended[0].label);
	k = &c->ended[c->nended++];
	util_strlcpy(k->label, w->label, sizeof(k->label));
	watch_waits_last(w->ww);	/* its time since the last sample */
	if (watch_waits_finish(w->ww, logset_writer_dir(c->w), w->label,
			       k->fields, sizeof(k->fields), &pe) < 0)
		complain(&c->c_waits, util_monotonic(),
			 "wait states of %s: %s", w->label, pe.msg);
}

const char *watch_ended_fields(struct collector *c, const char *label)
{
	int i = find(c, label);

	return i < 0 ? NULL : c->ended[i].fields;
}
