/*
 * waitedges.h - edges-LABEL.tsv: the seconds each process of a watched
 * tree waited on another process (or on the network), written beside
 * waits-LABEL.tsv by the same writer (issue 29, /work contract 2).
 *
 *   pid comm dir kind peer_pid peer_comm local remote seconds bytes
 *
 * One row per (pid, dir, kind, peer_pid) (peer_comm too when peer_pid
 * is 0) and, for kind net, remote host: several sockets to one peer are
 * summed (the row's local and remote are its busiest socket's). A
 * process has one name in every row, the last it was seen under: a
 * shell that exec'ed gzip is gzip (the sampler adds its edges again
 * under the new name, waits_renamed). dir: in (waited for input: the
 * peer is upstream) or out (waited to output: the peer is downstream).
 * kind: pipe, unix, tcp, udp (a local process), net (another host: then
 * peer_pid 0 and peer_comm the interface), child (wait4/waitid on its
 * children: peer_pid 0, peer_comm their command; of several children
 * the one its call names, else those at work, waitthread.c child_wait),
 * disk (blocked on the disk in a call on a file: peer_pid 0, peer_comm
 * the disk the file is on, waitpeer_disk; its seconds are the thread's
 * disk seconds, not net or other: no wait on a process, issue 46).
 * peer_pid 0 and peer_comm "-"
 * when not found; local and remote "-" but for tcp, udp and net. A row of
 * 0.000 seconds is a pipe the processes' fd tables showed joining them,
 * none of its waits caught (a writer done at once). bytes: "-", not
 * measured: the kernel counts no bytes of a pipe or an AF_UNIX socket,
 * and a process's rchar/wchar do not say through which descriptor
 * (the files of issue 29's first stop wrote 0 for it: read as "-"). comm and
 * peer_comm are written as the waits file writes a comm (waitrates_comm:
 * a tab or a newline as '?'). The file's name is the waits file's with its
 * leading "waits-" replaced by "edges-" (waitedges_name); no file means
 * no edges known (a log set of before issue 29).
 */
#ifndef PERFLOG_WAITEDGES_H
#define PERFLOG_WAITEDGES_H

#include <stddef.h>
#include <stdint.h>

#include "waitpeer.h"

struct waitedge_row {
	struct waitpeer_edge e;
	double seconds;
	double bytes;	/* NAN: not measured */
};

/* "edges-X" for "waits-X" into out: 0, or -1 when name is not a waits
 * file's or out is too small. */
int waitedges_name(const char *waits_name, char *out, size_t n);

/* The rows of sec[id] over keys[id] (sec past nsec read as 0), summed
 * as above, sorted by pid then seconds (most first), into *rows
 * (malloc'ed): their count, or -1 when out of memory. An id of no
 * seconds is kept when it names a process at the far end (a link the fd
 * tables showed, waits_int.h waits_links_scan: "0.000" seconds), else
 * skipped. */
long waitedges_rows(const double *sec, size_t nsec,
		    const struct waitpeer_edge *keys, size_t nkeys,
		    struct waitedge_row **rows);

/* The file's text (header line first) of n rows; the length, cut at a
 * line when len is too small (then the return is >= len, as snprintf). */
size_t waitedges_format(const struct waitedge_row *rows, size_t n, char *buf,
			size_t len);

/* Leave out of tot the seconds its threads waited on another process of
 * the same tree (rows of kind pipe, unix, tcp, udp whose peer is a
 * process of tot, and every row of kind child): taken from the waiting
 * process's threads' other seconds, and from their alive seconds, shared
 * by their other seconds. What is left is each thread's own time, so a
 * tree's split says what its processes waited on outside it: a shell
 * waiting on its gzips, or rsync's sender on its receiver, is a stage
 * waiting on a stage, not an "other" of the tree (issue 29). */
struct waits_totals;
void waitedges_leave_out(struct waits_totals *tot,
			 const struct waitedge_row *rows, size_t n);

/* The interface a row of kind (its name: "net", "tcp" ...) to peer_comm
 * went through: a net row's interface (peer_comm; NULL when not found),
 * lo for tcp and udp (a process of this host: loopback or one of its
 * own addresses, which Linux routes through lo), NULL for the others (a
 * pipe or an AF_UNIX socket is no interface's). */
const char *waitedges_iface(const char *kind, const char *peer_comm);
/* The interfaces of n rows, comma-separated into buf (each once, those
 * that fit): their count. */
size_t waitedges_ifaces(const struct waitedge_row *rows, size_t n,
			char *buf, size_t len);

/* The remote host of a net row (its remote "ADDR:PORT" or
 * "[ADDR6]:PORT" without the port and brackets) into out[n]: the peer
 * whose rows are one (waitedges_same_row), the verdict's path to it
 * (verdict/ vgraph_net); "" when the row has no remote. */
void waitedges_remote_host(const struct waitpeer_edge *e, char *out, size_t n);

/* Rows a and b are one row of the file (the identity above: pid, dir,
 * kind, peer_pid or, when 0, peer_comm, and a net row's remote host). */
int waitedges_same_row(const struct waitpeer_edge *a,
		       const struct waitpeer_edge *b);
/* One row as a line of the file (its newline too), as snprintf into
 * line[n]; waitedges_parse_row reads it back (without the newline):
 * 0, or -1 when it is not one. The rows file (waitrows.h) writes its
 * edges with these. */
int waitedges_line(const struct waitedge_row *row, char *line, size_t n);
int waitedges_parse_row(const char *line, size_t len, struct waitedge_row *r);

/* Read back waitedges_format's text into *rows (malloc'ed; lines that do
 * not parse are skipped and counted in *bad, the first one's number, the
 * header's 1, in *first_bad, 0 when none; either may be NULL): the rows
 * read, or -1 when the header is not the format's or out of memory. */
long waitedges_parse(const char *text, size_t len, struct waitedge_row **rows,
		     size_t *bad, size_t *first_bad);

#endif
