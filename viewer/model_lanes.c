/*
 * model_lanes.c - a session's verdict word for its lane (lanes.h): its
 * tree's waits and edges files (logs/treefiles.h, named by its end
 * marker's waits=) on the wait graph of verdict/, solved from the tree's
 * root: the first word the report's model gives it (without the
 * cgroup's figures: a quota's seconds are the host's CPUs here, the
 * same word).
 */
#include "lanes.h"

#include <math.h>
#include <stdlib.h>

#include "../logs/treefiles.h"
#include "../verdict/verdict.h"

void vm_session_word(const char *dir, const char *host,
		     const struct session *ss, char *word, size_t n)
{
	const char *file = ss->end ? marker_get(ss->end, "waits") : NULL;
	struct waits_totals tot = { 0 };
	struct waitedge_row *rows = NULL;
	struct perr e;

	if (n)
		word[0] = '\0';
	if (!file || treefiles_waits(dir, file, &tot, NULL, &e) <= 0) {
		waitrates_totals_free(&tot);
		return;
	}
	long ne = treefiles_edges(dir, file, &rows, NULL);
	double seconds = (double)(ss->end->t - ss->begin->t) +
			 (ss->end->ms - ss->begin->ms) / 1000.0;
	struct verdict_tree_in in = {
		.host = host, .label = ss->name, .waits = &tot,
		.edges = rows, .nedges = ne > 0 ? (size_t)ne : 0,
		.cg = { .quota = NAN },
	};
	struct vgraph g;
	/* one interval: the totals are enough for a word */
	if (seconds > 0 && verdict_build(&g, &in, 1, NAN, seconds) == 0) {
		int root = verdict_tree_root(&g, host, ss->name);
		struct vsolution s;
		if (root >= 0 && verdict_solve(&g, &root, 1, &s) == 0) {
			struct verdict v;
			verdict_of(&g, &s, 0, &v);
			util_strlcpy(word, verdict_kind_word(v.kind), n);
			vsolution_free(&s);
		}
		vgraph_free(&g);
	}
	free(rows);
	waitrates_totals_free(&tot);
}
