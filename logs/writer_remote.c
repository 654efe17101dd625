/*
 * writer_remote.c - the log set through rrdcached over TCP, from another
 * host (README "Many hosts: rrdcached", DESIGN.md "Where users outgrow
 * one machine").
 *
 * A daemon reached over TCP takes only names relative to its base
 * directory (-b; librrd's client refuses absolute ones), and it carries
 * RRD files only: no command of its protocol writes perflog.meta or
 * appends a marker. So the set's parent directory ([log] directory, -o)
 * is the daemon's base directory as mounted on this host (NFS, SMB,
 * sshfs), the convention of librrd's own RRDCACHED_STRIPPATH: the
 * collector makes the set's directory there and writes its small files
 * into it as it always does (perflog.meta, markers.tsv, .lock,
 * collector.log, the waits and edges files), and the RRD files are
 * created (rrdc_create_r2, grow.c) and updated (rrdc_update) through the
 * daemon as "SET/FILE.rrd". Why a mount rather than the files kept here
 * and copied at the end (over ssh, as perflog run --server marks): the
 * set is whole on the daemon's host while it is written, for perflog
 * view, and after a kill -9 of the collector, when no end would have
 * copied anything; and small appends and renames are what a network file
 * system does well, where the RRD files' rewrite every sample is what it
 * does badly and what the daemon is for.
 *
 * At the start the collector makes a small RRD file in the set's new
 * directory and asks the daemon for its last update: a daemon that cannot
 * read it under "SET/" is not behind the directory given here, and the
 * start fails saying so before any file is split between two hosts (a
 * daemon started with -R would otherwise make a directory of its own and
 * fill it with RRD files no perflog.meta maps). (librrd 1.7.2 does not
 * export rrdc_list, which would have asked for the directory itself.)
 *
 * A daemon host that stops answering (a link down, a host powered off:
 * no refusal, no reset) would stall the sampler: librrd's client has no
 * timeout, its connect waits out the kernel's SYN retries (minutes) and
 * a request its reply for good. So a connection is first tried here,
 * non-blocking, for 1 s (REMOTE_REACH_MS), and after a failed try none is
 * made for REMOTE_RETRY seconds (the rows are held as for any outage);
 * once librrd is connected its socket (found by its peer's address) gets
 * SO_RCVTIMEO and SO_SNDTIMEO of REMOTE_REQUEST_S, so a request left
 * without an answer fails and librrd drops the connection. An outage
 * then costs the sampler one request's bound once and a 1 s try every
 * REMOTE_RETRY seconds (t6120: the link down for 8 s).
 *
 * Files are created at their final size (layout_max_span) and never
 * grown. Growing here (grow.c: rrd_resize reads the file whole and a
 * copy is renamed over it) would do it through the mount: every doubling
 * would copy the file over the network and read what the daemon wrote
 * through this host's cache of another host's file, the RRD traffic over
 * a network file system that the daemon is there to avoid. The daemon
 * itself can rename nothing; its create from a source file (CREATE -r, a
 * larger file built from the old one) fills rows that were unknown from
 * the coarser archives (librrd 1.7.2: a one-second row logged unknown
 * came back as its minute's average); and fetching the rows back to
 * replay them into a larger file cannot rebuild the consolidations older
 * than retention. So the daemon's disk pays at the start what a local set
 * pays after a year (layout.h; README "Many hosts: rrdcached" has the
 * sizes).
 */
#define _GNU_SOURCE
#include "writer.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <rrd.h>
#include <rrd_client.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

/* librrd's default port */
#define REMOTE_PORT "42217"
/* a connection must be answered within, in ms (writer.h; the message
 * says 1 s) */
#define REMOTE_REACH_MS 1000
/* seconds before a new try after one that failed */
#define REMOTE_RETRY 10.0
/* seconds a request may take before it fails */
#define REMOTE_REQUEST_S 5

/* The set's directory name (w->dir is absolute). */
static const char *set_name(const struct logset_writer *w)
{
	return strrchr(w->dir, '/') + 1;
}

/* The probe: made here, read there (above). */
#define PROBE ".rrdcached-probe.rrd"

/* Whether the daemon reads the probe under "SET/": 0, or -1 with e set. */
static int daemon_sees_set(struct logset_writer *w, struct perr *e)
{
	const char *probe_args[] = { "DS:x:GAUGE:2:U:U",
				     "RRA:AVERAGE:0.5:1:2" };
	time_t stamp = w->meta.start - 1, seen;
	char here[64], there[NAME_MAX + 32];
	const char *why;

	/* librrd takes a path: the set's directory through its descriptor */
	snprintf(here, sizeof(here), "/proc/self/fd/%d/" PROBE, w->dfd);
	snprintf(there, sizeof(there), "%s/" PROBE, set_name(w));
	rrd_clear_error();
	if (rrd_create_r2(here, 1, stamp, 1, NULL, NULL, 2, probe_args) != 0) {
		why = rrd_get_error();
		return perr_set(e, "unable to create '%s/%s': %s", w->dir, PROBE,
				why && *why ? why : "librrd gave no reason");
	}
	rrd_clear_error();
	seen = rrdc_last(there);
	why = rrd_get_error();
	(void)unlinkat(w->dfd, PROBE, 0);
	if (seen == stamp)
		return 0;
	return perr_set(e, "rrdcached at '%s' does not see the log set's directory: it cannot read '%s' (%s); over TCP the log directory ('%.*s') must be the daemon's -b directory, mounted here",
			w->cached, there, why && *why ? why : "another file",
			(int)(set_name(w) - 1 - w->dir), w->dir);
}

/* HOST:PORT, [V6]:PORT or HOST (librrd's default port) into host and
 * port. */
static void split_address(const char *addr, char *host, size_t nhost,
			  char *port, size_t nport)
{
	const char *colon;
	size_t n;

	snprintf(port, nport, "%s", REMOTE_PORT);
	if (addr[0] == '[' && strchr(addr, ']')) {
		const char *end = strchr(addr, ']');

		n = (size_t)(end - addr - 1);
		snprintf(host, nhost, "%.*s", (int)n, addr + 1);
		if (end[1] == ':')
			snprintf(port, nport, "%s", end + 2);
		return;
	}
	colon = strchr(addr, ':');
	if (colon && !strchr(colon + 1, ':')) {
		snprintf(host, nhost, "%.*s", (int)(colon - addr), addr);
		snprintf(port, nport, "%s", colon + 1);
	} else {
		snprintf(host, nhost, "%s", addr);
	}
}

/* A connection to addr within REMOTE_REACH_MS (non-blocking connect and
 * poll): 0 with the address reached in w->conn, or -1 with why. */
static int try_reach(struct logset_writer *w, char *why, size_t nwhy)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	char host[256], port[32];
	int rc, err = ETIMEDOUT;

	split_address(w->cached, host, sizeof(host), port, sizeof(port));
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc != 0) {
		snprintf(why, nwhy, "rrdcached at '%s' is unreachable: %s",
			 w->cached, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK |
				SOCK_CLOEXEC, 0);
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		socklen_t len = sizeof(err);

		if (fd < 0)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			err = 0;
		else if (errno != EINPROGRESS)
			err = errno;
		else if (poll(&p, 1, REMOTE_REACH_MS) == 1 &&
			 getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0)
			;	/* err is the connect's outcome */
		else
			err = ETIMEDOUT;
		close(fd);
		if (err == 0) {
			cachedconn_set_peer(&w->conn, ai->ai_addr,
					    ai->ai_addrlen);
			break;
		}
	}
	freeaddrinfo(res);
	if (err == 0)
		return 0;
	/* the same text at every try until it works: complained once */
	snprintf(why, nwhy, "rrdcached at '%s' is unreachable: %s (rows are held and sent when it is back)",
		 w->cached, err == ETIMEDOUT ? "no answer within 1 s" :
		 strerror(err));
	return -1;
}

int writer_remote_reach(struct logset_writer *w, struct perr *e)
{
	double now = util_monotonic();

	/* librrd's client: "unix:PATH" or "/PATH" is a socket here */
	w->remote = w->cached[0] && w->cached[0] != '/' &&
		    strncmp(w->cached, "unix:", 5) != 0;
	if (!w->remote)
		return 0;
	if (now < w->remote_retry)
		return perr_set(e, "%s", w->remote_why);
	if (try_reach(w, w->remote_why, sizeof(w->remote_why)) == 0)
		return 0;
	w->remote_retry = now + REMOTE_RETRY;
	return perr_set(e, "%s", w->remote_why);
}

void writer_remote_bound(struct logset_writer *w)
{
	struct timeval tv = { .tv_sec = REMOTE_REQUEST_S };
	int fd;

	if (!w->remote || (fd = cachedconn_fd(&w->conn)) < 0)
		return;
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

int writer_remote_open(struct logset_writer *w, struct perr *e)
{
	if (!w->remote)
		return 0;
	if (daemon_sees_set(w, e) < 0)
		return -1;
	w->span = layout_max_span(&w->layout);
	w->grower.remote = set_name(w);
	return 0;
}

int writer_file_path(const struct logset_writer *w, struct wfile *f,
		     struct perr *e)
{
	const char *dir = w->remote ? set_name(w) : w->dir;

	if (snprintf(f->path, sizeof(f->path), "%s/%s", dir, f->name) >=
	    (int)sizeof(f->path))
		return perr_set(e, "path too long: '%s'", w->dir);
	return 0;
}
