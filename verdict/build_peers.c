/*
 * build_peers.c - a local peer another tree watches (verdict.h
 * verdict_build; build.c and build_edges.c ask): a process outside the
 * watched trees that an edge named, read by the sampler while named
 * (waits/waitrelay.c, waits_total.peer; waitrates_peer_pid), is no
 * process of the tree that read it, and one another tree watches counts
 * once, as that tree's.
 */
#include "build_int.h"

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
