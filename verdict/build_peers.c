/*
 * build_peers.c - which of a tree's rows are a local peer's (verdict.h
 * verdict_build; build.c and build_edges.c ask): a process outside the
 * watched trees that an edge named, read by the sampler while named
 * (waits/waitrelay.c, waits_total.peer), is no process of the tree that
 * read it, and one another tree watches counts once, as that tree's.
 */
#include "build_int.h"

int vbuild_peer_pid(const struct waits_totals *w, pid_t pid)
{
	for (size_t k = 0; w && pid > 0 && k < w->n; k++)
		if (w->t[k].pid == pid && w->t[k].peer)
			return 1;
	return 0;
}

int vbuild_watched(const struct verdict_tree_in *trees, size_t n,
		   const int *hosts, int host, pid_t pid)
{
	for (size_t k = 0; k < n; k++)
		for (size_t j = 0; hosts[k] == host && trees[k].waits &&
		     j < trees[k].waits->n; j++)
			if (trees[k].waits->t[j].pid == pid &&
			    !trees[k].waits->t[j].peer)
				return 1;
	return 0;
}
