/*
 * workload.h - the reference backup of `perflog workload`, after the 1997
 * ADSM kit's perfcfg/perf (seeds/adsm-perf-testing.txt sections 2 and 7):
 * four standard file sets, created first (perfcfg), then each "backed up"
 * (perf) by a client process that reads its files and sends them to a
 * server process of its own, over loopback TCP or through ssh to another
 * host, which writes them to a target directory with fsync. The two sides
 * are separate processes so that each is logged as its own Process
 * instance, and the client's I/O is the client's alone. Anyone can run it on two systems
 * and compare; the KB/sec it reports per set are what `perflog estimate`
 * takes as its rates.
 *
 *   set      files     size   (perfcfg's subdirectories)
 *   1m1k      1024     1 KB
 *   10m10k    1024    10 KB
 *   25m100k    256   100 KB
 *   50m10m       5    10 MB
 *
 * File content comes from a xorshift PRNG (seeded per file): not all
 * zeros, not compressible, so compression or deduplication on the way can
 * not flatter the result.
 */
#ifndef PERFLOG_WORKLOAD_H
#define PERFLOG_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <sys/types.h>

#include "../common/util.h"

struct workload_set {
	const char *name;	/* "1m1k": directory and session name */
	const char *title;	/* "1MB of 1KB files", as the seed's table */
	size_t count;		/* files at scale 1 */
	size_t size;		/* bytes per file */
};

#define WORKLOAD_NSETS 4
extern const struct workload_set workload_sets[WORKLOAD_NSETS];

/* Files in a set at a scale: ceil(count * scale), at least 1. */
size_t workload_count(const struct workload_set *set, double scale);

/* Create set's files under dir/NAME (created), flushed to disk and dropped
 * from the page cache so the backup reads them from the disk, as a real
 * backup of cold files would. 0 or -1 with e set. */
int workload_create(const char *dir, const struct workload_set *set,
		    size_t nfiles, struct perr *e);

struct workload_result {
	size_t files;		/* files sent (every pass) */
	size_t passes_files;	/* files in the set: files / this = passes */
	uint64_t data_bytes;	/* file content sent */
	uint64_t wire_bytes;	/* everything sent: content and headers */
	double transfer_time;	/* seconds spent in write() to the server */
	double elapsed;		/* seconds: first read to the receiver's
				 * last fsync acknowledged */
	double kb_per_sec;	/* data KB (1024) / elapsed: the seed's
				 * SUMMARY figure */
};

/* ---- the wire (wire.c) ----
 * A stream carries sets one after the other, all integers big-endian:
 *   set:    u32 name length (> 0), name; then its files
 *   file:   u32 name length (> 0), u64 size, name bytes, size bytes
 *   end of set: u32 0; the receiver answers with one u64, the content
 *           bytes of the set it wrote and fsynced (the directory too)
 *   end of stream: u32 0 where a set would begin, or end of file
 * A receiver reached through a command (ssh) first writes
 * WORKLOAD_HELLO, so that a failed connection is told at once. */
#define WORKLOAD_HELLO "perflog workload receiver 1\n"

/* Receive sets from in into target/SET/, acknowledging on out, until the
 * end of the stream. 0, or -1 with e set. */
int workload_serve(int in, int out, const char *target, struct perr *e);

/* The client's side of one set: send src/NAME's files (sorted, each read
 * once from the disk: its pages are dropped after reading) on out and
 * read the acknowledgement from in. With seconds > 0 the set is sent
 * again and again (a selective backup run repeatedly) until that long
 * has passed, stopping at the first file after it; at least once whole.
 * 0 or -1 with e set. */
int workload_send(int out, int in, const char *src,
		  const struct workload_set *set, double seconds,
		  struct workload_result *r, struct perr *e);

/* ---- the two sides as processes (procs.c) ---- */
struct workload_server {
	pid_t pid;		/* the local receiver, or ssh */
	int remote;		/* through ssh: out/in are its pipes */
	int out, in;		/* remote: the stream to the receiver */
	int stop;		/* local: closing it ends the receiver */
	struct sockaddr_in addr;	/* local: where it listens */
	char host[256];		/* remote: HOST as given */
};

/* Start the server side: a process of its own (so its I/O is not the
 * client's) listening on loopback and writing under target, or, for
 * HOST:DIR, `perflog workload --receive DIR` on HOST through ssh
 * ($PERFLOG_SSH, default WORKLOAD_SSH) with remote_perflog as the
 * command's name there. 0 or -1 with e set. */
#define WORKLOAD_SSH "ssh -o BatchMode=yes -o ConnectTimeout=10"
int workload_server_start(struct workload_server *s, const char *target,
			  const char *remote_perflog, struct perr *e);

/* Stop it and reap it: 0, or -1 with e set when it failed. */
int workload_server_stop(struct workload_server *s, struct perr *e);

/* A connection to the server for one set: a socket (fds equal) or the
 * ssh pipes (not to be closed). 0 or -1 with e set. */
int workload_connect(const struct workload_server *s, int *out, int *in,
		     struct perr *e);

/* Split "HOST:DIR" (a colon before any slash, as scp and rsync do): 1
 * with host set, 0 for a local directory. */
int workload_remote(const char *target, char *host, size_t n,
		    const char **dir);

#endif
