/*
 * writer_remote.c - the log set through rrdcached over TCP, from another
 * host (README "Many hosts: rrdcached", DESIGN.md "Where users outgrow
 * one machine").
 *
 * A daemon reached over TCP takes only names relative to its base
 * directory (-b; librrd's client refuses absolute ones), and it carries
 * RRD files only: no command of its protocol writes perflog.meta or
 * appends a marker. So the collector keeps the set in its own log
 * directory as ever (perflog.meta, markers.tsv, .lock, collector.log, the
 * journal, the waits and edges files), the RRD files are created
 * (rrdc_create_r2, grow.c) and updated (rrdc_update) through the daemon
 * as "SET/FILE.rrd", and the other files go, as they change, to perflog
 * receive on the daemon's host, which writes them under the same base
 * directory (mirror.h): the hosts need share no file system. Why a
 * receiver that follows the files rather than a copy at the end (over
 * ssh, as perflog run --server marks): the set is whole on the daemon's
 * host while it is written, for perflog view, and after a kill -9 of the
 * collector, when no end would have copied anything (the journal it sent
 * holds the rows the daemon did not get). Why not a network file system
 * for them (the daemon's directory mounted here, as librrd's own
 * RRDCACHED_STRIPPATH has it): the file server then exports its
 * directory to every host, a setup perflog cannot check, where a port
 * beside the daemon's is one more line on one host.
 *
 * At the start the writer connects to perflog receive, which makes the
 * set's directory there, sends it a small RRD file made here, and asks
 * the daemon for its last update: a daemon that cannot read it under
 * "SET/" does not write where perflog receive does, and the start fails
 * saying so before any file is split between two directories (a daemon
 * started with -R would otherwise make a directory of its own and fill it
 * with RRD files no perflog.meta maps). (librrd 1.7.2 does not export
 * rrdc_list, which would have asked for the directory itself.)
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
 * REMOTE_RETRY seconds (t6120: the link down for 8 s). perflog receive
 * shares the daemon's host and so its outages: a failure of either holds
 * both until the next try (writer_remote_mirror).
 *
 * Files are created at their final size (layout_max_span) and never
 * grown. Growing here (grow.c: rrd_resize reads the file whole and a
 * copy is renamed over it) needs the file here, and the daemon
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
#include <fcntl.h>
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
/* seconds before a new try after one that failed */
#define REMOTE_RETRY 10.0
/* seconds a request may take before it fails */
#define REMOTE_REQUEST_S 5

/* The set's directory name (w->dir is absolute). */
static const char *set_name(const struct logset_writer *w)
{
	return strrchr(w->dir, '/') + 1;
}

/* The probe: made here, sent there, read by the daemon (above). */

/* Whether the daemon reads the probe under "SET/", where perflog
 * receive put it: 0, or -1 with e set. */
static int daemon_sees_set(struct logset_writer *w, struct perr *e)
{
	const char *probe_args[] = { "DS:x:GAUGE:2:U:U",
				     "RRA:AVERAGE:0.5:1:2" };
	time_t stamp = w->meta.start - 1, seen;
	char here[64], there[NAME_MAX + 32];
	const char *why;
	int sent;

	/* librrd takes a path: the set's directory through its descriptor */
	snprintf(here, sizeof(here), "/proc/self/fd/%d/" MIRROR_PROBE, w->dfd);
	snprintf(there, sizeof(there), "%s/" MIRROR_PROBE, set_name(w));
	rrd_clear_error();
	if (rrd_create_r2(here, 1, stamp, 1, NULL, NULL, 2, probe_args) != 0) {
		why = rrd_get_error();
		return perr_set(e, "unable to create '%s/%s': %s", w->dir, MIRROR_PROBE,
				why && *why ? why : "librrd gave no reason");
	}
	sent = mirror_put(w->mirror, MIRROR_PROBE, e);
	(void)unlinkat(w->dfd, MIRROR_PROBE, 0);
	if (sent < 0)
		return -1;
	rrd_clear_error();
	seen = rrdc_last(there);
	why = rrd_get_error();
	if (mirror_del(w->mirror, MIRROR_PROBE, e) < 0)
		return -1;
	if (seen == stamp)
		return 0;
	return perr_set(e, "rrdcached at '%s' does not see the log set's directory that perflog receive made: it cannot read '%s' (%s); run perflog receive on the daemon's host with -b the daemon's -b directory",
			w->cached, there, why && *why ? why : "another file");
}

/* HOST:PORT, [V6]:PORT or HOST (librrd's default port) into host and
 * port. */
static void split_address(const char *addr, char *host, size_t nhost,
			  char *port, size_t nport, const char *defport)
{
	const char *colon;
	size_t n;

	snprintf(port, nport, "%s", defport);
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

int writer_dial(const char *addr, const char *port, int ms,
		struct sockaddr_storage *peer, socklen_t *npeer, char *why,
		size_t nwhy)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	char host[256], pbuf[32];
	int rc, err = ETIMEDOUT, fd = -1;

	split_address(addr, host, sizeof(host), pbuf, sizeof(pbuf), port);
	rc = getaddrinfo(host, pbuf, &hints, &res);
	if (rc != 0) {
		snprintf(why, nwhy, "%s", gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		struct pollfd p = { .events = POLLOUT };
		socklen_t len = sizeof(err);

		fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK |
			    SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		p.fd = fd;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			err = 0;
		else if (errno != EINPROGRESS)
			err = errno;
		else if (poll(&p, 1, ms) == 1 &&
			 getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0)
			;	/* err is the connect's outcome */
		else
			err = ETIMEDOUT;
		if (err == 0) {
			if (peer && ai->ai_addrlen <= sizeof(*peer)) {
				memcpy(peer, ai->ai_addr, ai->ai_addrlen);
				*npeer = ai->ai_addrlen;
			}
			break;
		}
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd >= 0 && fcntl(fd, F_SETFL, 0) == 0)
		return fd;
	if (fd >= 0) {
		err = errno;
		close(fd);
	}
	snprintf(why, nwhy, "%s", err == ETIMEDOUT ?
		 "no answer within 1 s" : strerror(err));
	return -1;
}

void writer_bound_socket(int fd)
{
	struct timeval tv = { .tv_sec = REMOTE_REQUEST_S };

	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* A connection to the daemon within REMOTE_REACH_MS: 0 with the address
 * reached in w->conn, or -1 with why. */
static int try_reach(struct logset_writer *w, char *why, size_t nwhy)
{
	struct sockaddr_storage peer;
	socklen_t npeer = 0;
	char err[200];
	int fd = writer_dial(w->cached, REMOTE_PORT, REMOTE_REACH_MS, &peer,
			     &npeer, err, sizeof(err));

	if (fd >= 0) {
		close(fd);
		cachedconn_set_peer(&w->conn, (struct sockaddr *)&peer, npeer);
		return 0;
	}
	/* the same text at every try until it works: complained once */
	snprintf(why, nwhy, "rrdcached at '%s' is unreachable: %s (rows are held and sent when it is back)",
		 w->cached, err);
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
	int fd;

	if (w->remote && (fd = cachedconn_fd(&w->conn)) >= 0)
		writer_bound_socket(fd);
}

int writer_remote_open(struct logset_writer *w, struct perr *e)
{
	char host[256], port[32], mport[32], addr[300];
	char *end;
	long p;

	if (!w->remote)
		return 0;
	/* perflog receive: the daemon's host, at the daemon's port plus one
	 * (MIRROR_PORT beside the default), so a daemon moved off a port
	 * that is taken takes its receiver along; a service name, the
	 * default */
	split_address(w->cached, host, sizeof(host), port, sizeof(port),
		      REMOTE_PORT);
	p = strtol(port, &end, 10);
	if (*port && !*end && p >= 1 && p < 65535)
		snprintf(mport, sizeof(mport), "%ld", p + 1);
	else
		snprintf(mport, sizeof(mport), "%s", MIRROR_PORT);
	snprintf(addr, sizeof(addr), strchr(host, ':') ? "[%s]:%s" : "%s:%s",
		 host, mport);
	if (mirror_open(addr, set_name(w), w->dfd, w->dir, &w->mirror, e) < 0)
		return -1;
	if (daemon_sees_set(w, e) < 0)
		return -1;
	w->span = layout_max_span(&w->layout);
	w->grower.remote = set_name(w);
	return 0;
}

int writer_remote_mirror(struct logset_writer *w, struct perr *e)
{
	double now = util_monotonic(), retry;
	struct perr pe;

	if (now < w->remote_retry)
		return perr_set(e, "%s", w->remote_why);
	if (mirror_poll(w->mirror, &pe) == 0)
		return 0;
	retry = mirror_retry(w->mirror);
	if (retry > now) {
		w->remote_retry = retry;
		util_strlcpy(w->remote_why, pe.msg, sizeof(w->remote_why));
	}
	return perr_set(e, "%s", pe.msg);
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
