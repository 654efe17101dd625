/*
 * report_client_paths.c - the client's figures checked against the right
 * evidence (issue 29, report_client.h), from the session's edges
 * (edges-LABEL.tsv, report_stages.h):
 *   - the interface its connections to another host used (the `net`
 *     edges' interface), not the busiest of the host (another program's
 *     veth);
 *   - no such connection while edges were recorded: a local repository
 *     or target, checked against no interface (borg to a local
 *     repository was "eth0 carried 70213 bytes: disagree");
 *   - processes of its tree passing the data to each other (pipes,
 *     socketpairs, loopback): the tree's read and write bytes count it
 *     twice (local rsync "read and wrote +100%"): those bytes left out
 *     when the edges carry them, else the tree's figure not compared;
 *   - a tree that read more than the client counts while it wrote that
 *     much too: it reads back its own temporary files (restic's packs);
 *   - a local target: the bytes the session's trees on this host wrote
 *     into files on a block device (Disk Write Bytes/sec: the client's
 *     tree, and its local server's), against what the client stored.
 * Old sets (no edges file) keep the checks of before.
 */
#include "report_client.h"

#include <math.h>
#include <string.h>

#include "../counters/counters.h"

/* Whether pid is a process of the session's own tree (tree 0, side 0):
 * a stage of it, or a process its edges file names as a waiter (a
 * process that ended at once, tar filling ssh's buffers in 0.1 s, is no
 * stage, but its pipe to ssh still carried the data). */
static int own(const struct report_stages *ss, pid_t pid)
{
	if (pid <= 0)
		return 0;
	for (size_t i = 0; i < ss->n; i++)
		if (ss->st[i].side == 0 && ss->st[i].tree == 0 &&
		    ss->st[i].pid == pid)
			return 1;
	/* a local peer's edges are in the tree's file (waits/waitrelay.c):
	 * the server the client's socket leads to is not the client's, and
	 * its pipe to the client no data passed within the tree (make
	 * demo's check went unsaid: t3210) */
	for (size_t i = 0; i < ss->ne; i++)
		if (ss->e[i].side == 0 && ss->e[i].tree == 0 &&
		    ss->e[i].pid == pid && !ss->e[i].peer)
			return 1;
	return 0;
}

/* A local target's storage bytes: what the session's trees on this host
 * wrote into files on a block device, the client's and those it passes
 * the data to (the demo's SET-server, a watched local rest-server),
 * their names in out->stored_by. */
static void stored(struct logset *ls, const struct report_session *s,
		   struct report_client_logged *out)
{
	const struct report_stages *ss = s->stages;
	size_t len = 0;

	out->stored_by[0] = '\0';
	for (size_t t = 0; ls && t < ss->ntrees; t++) {
		double b;
		if (ss->trees[t].side != 0 ||
		    isnan(b = report_client_bytes(ls, s, CTR_PROC_DISK_WRITE,
						  ss->trees[t].label)))
			continue;
		out->proc_stored = (isnan(out->proc_stored) ? 0 :
				    out->proc_stored) + b;
		len += (size_t)snprintf(out->stored_by + len,
					len < sizeof(out->stored_by) ?
					sizeof(out->stored_by) - len : 0,
					"%s%s", len ? ", " : "",
					ss->trees[t].label);
	}
}

void report_client_paths(struct logset *ls, const struct report_session *s,
			 struct report_client_logged *out)
{
	const struct report_stages *ss = s->stages;
	double best = -1;

	util_strlcpy(out->net_if, s->fig.net, sizeof(out->net_if));
	out->local_target = out->pipes = out->pipes_unknown = 0;
	out->proc_stored = NAN;
	out->stored_by[0] = '\0';
	out->pipe_bytes = 0;
	if (!ss || !(ss->edge_sides & 1u))
		return;		/* an old set: the checks of before */
	for (size_t i = 0; i < ss->ne; i++) {
		const struct report_stage_edge *e = &ss->e[i];
		if (e->side != 0 || e->tree != 0)
			continue;
		if (!strcmp(e->kind, "net")) {
			if (e->seconds > best) {
				best = e->seconds;
				util_strlcpy(out->net_if, e->peer_comm,
					     sizeof(out->net_if));
			}
		} else if (strcmp(e->kind, "child") && !e->peer &&
			   e->peer_pid != e->pid && own(ss, e->peer_pid)) {
			/* another process of the tree; a process's own pipe
			 * (Go's runtime wakes its poller through one: restic)
			 * passes no data */
			out->pipes = 1;
			out->pipe_bytes += e->bytes;
			out->pipes_unknown |= !(e->bytes > 0);
		}
	}
	if (best < 0) {
		/* recorded edges, none to another host */
		out->local_target = 1;
		out->net_bytes = NAN;
		out->net_if[0] = '\0';
		stored(ls, s, out);
	} else if (strcmp(out->net_if, "-")) {
		out->net_bytes = report_client_bytes(ls, s, CTR_NET_BYTES_TOTAL,
						     out->net_if);
	}
	if (out->pipes && out->pipes_unknown) {
		out->proc_read = out->proc_written = NAN;
	} else if (out->pipes) {
		/* each byte passed on was written by one and read by another */
		out->proc_read -= out->pipe_bytes / 2;
		out->proc_written -= out->pipe_bytes / 2;
	}
}

int report_client_reads_back(const double v[CLN_COUNT],
			     const struct report_client_logged *lg)
{
	double read = v[CLN_READ], more = lg->proc_read - read;

	return !isnan(more) && read > 0 && more > REPORT_CLIENT_AGREE * read &&
	       !isnan(lg->proc_written) && lg->proc_written >= 0.5 * more;
}

int report_client_store_shared(const double v[CLN_COUNT],
			       const struct report_client_logged *lg)
{
	double sent = v[CLN_SENT], files = v[CLN_FILES];
	double more = lg->proc_stored - sent;

	return !isnan(more) && more > 0 && files > 0 &&
	       more <= REPORT_CLIENT_AGREE * sent + files * REPORT_CLIENT_PAGE ?
	       REPORT_SHARED_PAGES : REPORT_SHARED_STORE;
}

void report_client_notes(FILE *f, const double v[CLN_COUNT],
			 const struct report_client_logged *lg)
{
	double read = v[CLN_READ], more;

	if (lg->local_target && !isnan(v[CLN_SENT]))
		fprintf(f, "    client sent %.0f bytes to no other host (a local repository or target): no interface checked\n",
			v[CLN_SENT]);
	if (lg->pipes && lg->pipes_unknown)
		fprintf(f, "    the process tree's bytes count what its processes pass each other through pipes and local sockets: not checked against the client's\n");
	else if (lg->pipes)
		fprintf(f, "    (%.0f bytes its processes passed each other through pipes and local sockets left out)\n",
			lg->pipe_bytes / 2);
	more = lg->proc_read - read;
	if (report_client_reads_back(v, lg))
		fprintf(f, "    the tree read %.0f bytes more than the client counts and wrote %.0f: a client reading back its own temporary files (restic's packs) or its index\n",
			more, lg->proc_written);
}
