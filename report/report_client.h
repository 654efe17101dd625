/*
 * report_client.h - the backup client's own figures in `perflog report`:
 * one layout whatever the client (the normalised figures of client.h,
 * then the client's own as it printed them), checked against what was
 * logged over the session (the process tree's I/O, the interface's
 * bytes), the rows of `report A B` that compare two clients, and
 * NetBackup's buffer waits folded into the verdict.
 */
#ifndef PERFLOG_REPORT_CLIENT_H
#define PERFLOG_REPORT_CLIENT_H

#include <stdio.h>

#include "report.h"
#include "../client/client.h"

/* Share of the logged figure beyond which the client and the log
 * "disagree" (issue 15: a client reporting logical bytes while the disk
 * read half of them, a deduplicating client that sent a tenth). */
#define REPORT_CLIENT_AGREE 0.10

/* The normalised figures of a session's end marker (client_norm_of), and
 * for log sets written before the client table, dsmc's own keys. Returns
 * the client's name or NULL when the marker has no client figures. */
const char *report_client_norm(const struct marker *end, double v[CLN_COUNT],
			       unsigned *derived);

/* What the client's byte counts are checked against, over the session:
 * the session's Process instance (perflog run's label, else the only one;
 * NULL when none) and the bytes its tree read and wrote, and the bytes of
 * the busiest interface unless it is lo; NAN when not logged. */
struct report_client_logged {
	const char *process;
	double proc_read, proc_written, net_bytes;
	/* a local target's: what the session's trees on this host (its
	 * own, its local server's) wrote into files on a block device
	 * (Disk Write Bytes/sec), NAN else; their names */
	double proc_stored;
	char stored_by[160];
	/* with the session's edges (issue 29, report_stages.h): the
	 * interface its connections to another host used (else the busiest
	 * one, "" none); no such connection (a local repository or target:
	 * no interface checked); its processes passing the data to each
	 * other through pipes or local sockets (their bytes left out when
	 * known, else the tree's bytes not compared) */
	char net_if[64];
	int local_target, pipes, pipes_unknown;
	double pipe_bytes;
};
void report_client_logged(struct logset *ls, const struct report_session *s,
			  struct report_client_logged *out);

/* The edges' part of the above (report_client_paths.c). */
void report_client_paths(struct logset *ls, const struct report_session *s,
			 struct report_client_logged *out);
/* Bytes counted by counter id of instance inst over the session's rows
 * (sum of value x step), NAN when not logged. */
double report_client_bytes(struct logset *ls, const struct report_session *s,
			   int id, const char *inst);
/* The lines that say why a check is not made or what a surplus is. */
void report_client_notes(FILE *f, const double v[CLN_COUNT],
			 const struct report_client_logged *lg);

/* Print the session's client figures (nothing when it has none): the
 * normalised ones, the check against the logged ones (ls over the
 * session), the client's own. The default level (verbose 0): the
 * figures on one line, the checks that agree counted and only the
 * others whole, no notes, no quotes of the client's own lines. */
void report_client_print(FILE *f, struct logset *ls,
			 const struct report_session *s, int verbose);

/* "agree" or "disagree by more than 10%" for a client's byte count
 * against the logged one; *change gets (logged - client) / client. With
 * shared (a counter other traffic adds to: an interface), more than 10%
 * above the client's is REPORT_CLIENT_OTHERS, not a disagreement.
 * Exposed for tests. */
#define REPORT_CLIENT_OTHERS "carried other traffic too"
/* With shared REPORT_SHARED_OWN (a tree that reads back what it wrote,
 * report_client_reads_back), more than the client's is that. */
#define REPORT_CLIENT_OWN "more: its own temporary files, read back"
/* With shared REPORT_SHARED_STORE (what a client with a local target
 * wrote to storage, against what it says it stored): more is the other
 * files it writes beside (its index, cache, temporary files); next to
 * nothing (under REPORT_CLIENT_NO_STORE of the client's) is a target no
 * block device holds (tmpfs). */
#define REPORT_CLIENT_STORE_MORE "more: the other files it writes (index, cache, temporary files)"
#define REPORT_CLIENT_STORE_NONE "next to none: its target is on no block device (tmpfs)"
#define REPORT_CLIENT_NO_STORE 0.01
/* With REPORT_SHARED_PAGES (the surplus within a page a file: the kernel
 * counts the pages a write dirties, a 1 KiB file as 4 KiB), more is
 * that. */
#define REPORT_CLIENT_STORE_PAGES "more: whole pages counted, its files are small"
#define REPORT_CLIENT_PAGE 4096.0
enum { REPORT_SHARED_NO, REPORT_SHARED_IFACE, REPORT_SHARED_OWN,
       REPORT_SHARED_STORE, REPORT_SHARED_PAGES };
/* REPORT_SHARED_PAGES when what the trees stored exceeds what the client
 * sent by no more than a page of each of its files (and 10%), else
 * REPORT_SHARED_STORE. */
int report_client_store_shared(const double v[CLN_COUNT],
			       const struct report_client_logged *lg);
const char *report_client_agree(double client, double logged, int shared,
				double *change);
/* Whether the tree read more than the client counts while writing at
 * least half that surplus too: it reads back its own temporary files
 * (restic's packs) or its index. */
int report_client_reads_back(const double v[CLN_COUNT],
			     const struct report_client_logged *lg);

/* The rows of `report A B` for two sessions' clients, printed with row
 * (the comparison's own row printer: label, A, B, unit). */
void report_client_compare(FILE *f, const struct report_session *a,
			   const struct report_session *b,
			   void (*row)(FILE *, const char *, double, double,
				       const char *));

/* NetBackup's wait and delay counters of the session's end marker join
 * its verdict (as the Storage Protect instrumentation does): with no
 * local resource saturated they name the side that waited ("Bottleneck:
 * source ..." or "Bottleneck: storage ..."), else they are added as
 * evidence, "(agrees)" when they point the same way. */
void report_client_judge(const struct report_session *s,
			 struct report_verdict *v);

#endif
