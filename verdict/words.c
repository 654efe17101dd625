/*
 * words.c - the verdict's words, defined once: the report's line, its
 * JSON's verdict.kind and verdict.detail, the man page and the README
 * take them from this table.
 */
#include <string.h>

#include "verdict.h"

static const struct verdict_word words[VRES_NTYPE] = {
	[VRES_CPU] = { VRES_CPU, VERDICT_CPU, "cpu",
		       "ran on the host's CPUs, or waited for one" },
	[VRES_QUOTA] = { VRES_QUOTA, VERDICT_CPU, "cpu-quota",
			 "ran under its cgroup's CPU quota, throttled" },
	[VRES_DISK] = { VRES_DISK, VERDICT_DISK, "disk",
			"was blocked on the disk" },
	[VRES_NET] = { VRES_NET, VERDICT_NETWORK, "network",
		       "was blocked on the network" },
	[VRES_MEMORY] = { VRES_MEMORY, VERDICT_MEMORY, "memory",
			  "stalled on its cgroup's memory limit" },
	[VRES_PACING] = { VRES_PACING, VERDICT_NOTHING, "paced",
			  "slept by its own choice" },
	[VRES_UNSEEN] = { VRES_UNSEEN, VERDICT_NOTHING, "not-seen",
			  "waited on what the log does not see" },
};

static const char *const kinds[VERDICT_NKIND] = {
	[VERDICT_NOTHING] = "nothing",
	[VERDICT_CPU] = "CPU",
	[VERDICT_DISK] = "disk",
	[VERDICT_NETWORK] = "network",
	[VERDICT_MEMORY] = "memory",
};

/* The words' colours, one table for every page and screen: the HTML
 * page's word and lanes, the viewer's lanes (their nearest terminal
 * colour). */
static const char *const colours[VERDICT_NKIND] = {
	[VERDICT_NOTHING] = "#616161",
	[VERDICT_CPU] = "#c62828",
	[VERDICT_DISK] = "#ef6c00",
	[VERDICT_NETWORK] = "#1565c0",
	[VERDICT_MEMORY] = "#6a1b9a",
};

const char *verdict_kind_colour(enum verdict_kind k)
{
	return k < VERDICT_NKIND ? colours[k] : colours[VERDICT_NOTHING];
}

const char *verdict_word_colour(const char *word)
{
	for (int k = 0; k < VERDICT_NKIND; k++)
		if (word && !strcmp(word, kinds[k]))
			return colours[k];
	return colours[VERDICT_NOTHING];
}

const struct verdict_word *verdict_word(enum vres_type t)
{
	return t < VRES_NTYPE ? &words[t] : &words[VRES_UNSEEN];
}

const char *verdict_kind_word(enum verdict_kind k)
{
	return k < VERDICT_NKIND ? kinds[k] : kinds[VERDICT_NOTHING];
}
