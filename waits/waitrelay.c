/*
 * waitrelay.c - the local peers of a watched set (waits_int.h
 * waits_relay_note, waits_relay_merge): a process outside the set whose
 * pipe, AF_UNIX socket or loopback connection a thread of the set waits
 * on is read too, its threads' states and edges, while an edge names it
 * (issue 46: an unwatched receiver burning a CPU, the sshd that relays a
 * server's rsync to the network, were vertices of no seconds, "not
 * seen", and downstream of a connection the path's). A peer's own edges
 * name peers in turn, so a relay's wait on its socket or its other pipe
 * is followed. Cost: a peer named by no edge is not read; one named is
 * read as a thread of the set, in the tick's cost and so under the rate
 * rule's budget.
 */
#include "waits_int.h"

#include <stdlib.h>
#include <string.h>

#include "waitset.h"

/* Whether process pid is of the set: its main thread is a live thread
 * of the set's (a peer's thread is not). */
static int member(const struct waits *w, pid_t pid)
{
	size_t k = waits_live_from(w, pid);

	return k < w->nlive && w->live[k].pub.tid == pid &&
	       !w->live[k].pub.peer;
}

/* The process edge id names as a local peer, or 0: the far end of a
 * pipe, an AF_UNIX socket or a loopback connection, outside the set. */
static pid_t peer_of(const struct waits *w, uint32_t id)
{
	const struct waitpeer_edge *x;

	if (id == WAITS_NO_EDGE || id >= w->nkeys)
		return 0;
	x = &w->keys[id];
	if (x->peer_pid <= 0 || x->kind == PEER_NET || x->kind == PEER_CHILD ||
	    x->kind == PEER_DISK || x->peer_pid == x->pid ||
	    x->peer_pid == w->exclude || member(w, x->peer_pid))
		return 0;
	return x->peer_pid;
}

/* pid named now: kept, or added while there is room. */
static void name(struct waits *w, pid_t pid, double now)
{
	size_t k = 0;

	while (k < w->npeers && w->peer_pid[k] < pid)
		k++;
	if (k < w->npeers && w->peer_pid[k] == pid) {
		w->peer_named[k] = now;
		return;
	}
	if (w->npeers >= WAITS_MAX_PEERS)
		return;
	memmove(w->peer_pid + k + 1, w->peer_pid + k,
		(w->npeers - k) * sizeof(*w->peer_pid));
	memmove(w->peer_named + k + 1, w->peer_named + k,
		(w->npeers - k) * sizeof(*w->peer_named));
	w->peer_pid[k] = pid;
	w->peer_named[k] = now;
	w->npeers++;
}

int waits_relay_note(struct waits *w, double now)
{
	size_t keep = 0;
	struct waitset *s;
	struct perr e;

	/* named: by a wait now (its current edges), or by an edge a live
	 * thread has waited on (its edge slots): a relay the receiver
	 * waits on now and then (the sshd of a server's dd, busy on a
	 * throttled disk between two waits on its pipe) is read all along,
	 * not only while waited on; read only then, the client's waits on
	 * the connection while it was not read found no seconds of it, and
	 * went to the path (t3710 sdisk: network 4.2 s, sshd alive 6.0 s of
	 * 8.9) */
	for (size_t i = 0; i < w->nlive; i++) {
		const struct wthread *th = &w->live[i];
		pid_t p;

		for (int k = 0; k < th->ntg; k++)
			if (!th->tg_disk[k] && (p = peer_of(w, th->tg[k])))
				name(w, p, now);
		for (int k = 0; k < WAITS_EDGES; k++)
			if (!th->pub.edge[k].disk && th->pub.edge[k].ticks > 0 &&
			    (p = peer_of(w, th->pub.edge[k].id)))
				name(w, p, now);
	}
	for (size_t k = 0; k < w->npeers; k++)
		if (now - w->peer_named[k] < PEER_KEEP_SEC) {
			w->peer_pid[keep] = w->peer_pid[k];
			w->peer_named[keep++] = w->peer_named[k];
		}
	w->npeers = keep;
	if (waitset_same_pids(w->peers, w->peer_pid, w->npeers) ||
	    (!w->peers && !w->npeers))
		return 0;
	s = NULL;
	if (w->npeers && !(s = waitset_pids(w->procfd, w->peer_pid, w->npeers,
					    &e)))
		return -1;
	waitset_free(w->peers);
	w->peers = s;
	return 0;
}

const pid_t *waits_relay_merge(struct waits *w, const pid_t *tids, size_t n,
			       size_t *out, const uint8_t **peer)
{
	const pid_t *p = NULL;
	size_t np = 0, i = 0, j = 0, k = 0;

	if (w->peers && !(p = waitset_list(w->peers, &np)))
		return NULL;
	if (util_grow(&w->tids, &w->captids, n + np + 1, sizeof(*w->tids)) < 0 ||
	    util_grow(&w->tid_peer, &w->captidp, n + np + 1,
		      sizeof(*w->tid_peer)) < 0)
		return NULL;
	while (i < n || j < np) {
		int mine = j == np || (i < n && tids[i] <= p[j]);

		if (mine && j < np && tids[i] == p[j])
			j++;	/* the set's */
		w->tids[k] = mine ? tids[i++] : p[j++];
		w->tid_peer[k++] = !mine;
	}
	*out = k;
	*peer = w->tid_peer;
	return w->tids;
}

void waits_relay_io_base(struct wthread *th)
{
	/* a peer's bytes count from its first read: sshd's since its start
	 * were no part of the session */
	if (!th->pub.peer || th->base[2] != WAITS_NA)
		return;
	th->base[2] = th->pub.rchar;
	th->base[3] = th->pub.wchar;
	th->base[4] = th->pub.read_bytes;
	th->base[5] = th->pub.write_bytes;
}

/* x less base b, both known, else unknown. */
static uint64_t since(uint64_t x, uint64_t b)
{
	return x == WAITS_NA || b == WAITS_NA ? WAITS_NA : x >= b ? x - b : 0;
}

struct waits_thread waits_export(const struct wthread *th)
{
	struct waits_thread t = th->pub;

	if (!t.peer)
		return t;
	t.cpu_ns = since(t.cpu_ns, th->base[0]);
	t.runq_ns = since(t.runq_ns, th->base[1]);
	t.rchar = since(t.rchar, th->base[2]);
	t.wchar = since(t.wchar, th->base[3]);
	t.read_bytes = since(t.read_bytes, th->base[4]);
	t.write_bytes = since(t.write_bytes, th->base[5]);
	t.blkio_ns = WAITS_NA;	/* (no base: the floor is not used) */
	return t;
}

void waits_relay_free(struct waits *w)
{
	waitset_free(w->peers);
	w->peers = NULL;
	free(w->tids);
	free(w->tid_peer);
	w->tids = NULL;
	w->tid_peer = NULL;
}
