/*
 * mirror.h - a log set's files other than its RRD files, copied as they
 * change to `perflog receive` on the host of an rrdcached reached over TCP
 * (README "Many hosts: rrdcached", writer_remote.c has the why).
 *
 * rrdcached carries RRD files only. Over TCP the collector keeps the set
 * in its own log directory as ever, the daemon creates and writes the RRD
 * files under its base directory as SET/FILE.rrd, and after every sample
 * (and at the close) the writer sends perflog receive, on the daemon's
 * host with the daemon's base directory, what changed in the set's other
 * files: perflog.meta, markers.tsv, .lock, collector.log, the journal,
 * the waits, edges and output files of perflog run, whoever wrote them.
 * A file that grew sends its new bytes, one replaced or rewritten is sent
 * whole, one removed is removed there. After a kill -9 of the collector
 * the daemon's host has the set as of the last sample, the journal
 * included, so readers there replay the rows the files lack.
 *
 * The wire, one request at a time, each answered "OK\n" or "ERR WHY\n"
 * (NAME is one path component, LEN and OFF decimal bytes):
 *
 *   SET NAME\n            the set: BASE/NAME, made if missing
 *   PUT NAME LEN\n DATA   NAME replaced whole (a temporary renamed over it)
 *   AT NAME OFF LEN\n DATA  DATA written at OFF (the file holds OFF bytes)
 *   DEL NAME\n            NAME removed
 *   GONE\n                the set's files (not the daemon's RRD files)
 *                         and, when empty, its directory removed: a
 *                         failed start
 *
 * No authentication: like rrdcached's TCP port, perflog receive's is for
 * a trusted network (it writes only single names under its -b
 * directory, never following a symlink).
 */
#ifndef PERFLOG_MIRROR_H
#define PERFLOG_MIRROR_H

#include <stdio.h>

#include "../common/util.h"

/* perflog receive's port: rrdcached's default one plus one */
#define MIRROR_PORT "42218"
/* the small RRD file a start sends to check that the daemon reads where
 * perflog receive writes (writer_remote.c) */
#define MIRROR_PROBE ".rrdcached-probe.rrd"
/* a request line's longest */
#define MIRROR_LINE 600
/* the largest file sent */
#define MIRROR_FILE_MAX (256L << 20)

struct mirror;

/* Connect to perflog receive at addr (HOST, HOST:PORT, [V6]:PORT;
 * MIRROR_PORT by default) for the set named set, whose directory here is
 * dfd (dir for messages), and make the set there. 0 with *out, or -1 with
 * e set. */
int mirror_open(const char *addr, const char *set, int dfd, const char *dir,
		struct mirror **out, struct perr *e);

/* Send what changed in the set's files but its RRD files since the last
 * call. After a failure nothing is tried for 10 s (the next call returns
 * the same message), and a new connection sends every file whole. 0, or
 * -1 with e set. */
int mirror_poll(struct mirror *m, struct perr *e);

/* While the connection is down after a failure: when the next try may be
 * made (monotonic); else 0. */
double mirror_retry(const struct mirror *m);

/* Send one file whole now (an RRD file too: the probe), or remove it
 * there. 0, or -1 with e set. */
int mirror_put(struct mirror *m, const char *name, struct perr *e);
int mirror_del(struct mirror *m, const char *name, struct perr *e);

/* Remove the set there (a start that failed), then close. */
void mirror_discard(struct mirror *m);
void mirror_close(struct mirror *m);

/* perflog receive's side: answer one connection's requests on fd (read
 * through in) under the directory basefd until it ends; log names what
 * was received, one line a set. */
void mirror_answer(int basefd, FILE *in, int fd, const char *peer,
		   FILE *log);

#endif
