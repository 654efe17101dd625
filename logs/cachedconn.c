/*
 * cachedconn.c - librrd's socket to rrdcached, found by its peer and
 * checked after an answer (cachedconn.h says why).
 */
#define _GNU_SOURCE
#include "cachedconn.h"

#include <dirent.h>
#include <poll.h>
#include <rrd.h>
#include <rrd_client.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>

void cachedconn_init(struct cachedconn *c, const char *addr)
{
	struct sockaddr_un *un = (struct sockaddr_un *)&c->peer;
	const char *path = NULL;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (!addr)
		return;
	if (strncmp(addr, "unix:", 5) == 0)
		path = addr + 5;
	else if (addr[0] == '/')
		path = addr;
	if (!path || strlen(path) >= sizeof(un->sun_path))
		return;
	un->sun_family = AF_UNIX;
	strcpy(un->sun_path, path);
	c->peerlen = sizeof(*un);
}

void cachedconn_set_peer(struct cachedconn *c, const struct sockaddr *sa,
			 socklen_t len)
{
	if (len > sizeof(c->peer))
		return;
	memset(&c->peer, 0, sizeof(c->peer));
	memcpy(&c->peer, sa, len);
	c->peerlen = len;
	c->fd = -1;
}

/* fd is a socket connected to the daemon. */
static int is_daemon(const struct cachedconn *c, int fd)
{
	struct sockaddr_storage peer;
	socklen_t len = sizeof(peer);

	if (getpeername(fd, (struct sockaddr *)&peer, &len) < 0 ||
	    peer.ss_family != c->peer.ss_family)
		return 0;
	if (peer.ss_family == AF_UNIX)	/* the name it listens on */
		return strcmp(((struct sockaddr_un *)&peer)->sun_path,
			      ((const struct sockaddr_un *)&c->peer)->sun_path) == 0;
	return len == c->peerlen && memcmp(&peer, &c->peer, len) == 0;
}

int cachedconn_fd(struct cachedconn *c)
{
	DIR *d;
	struct dirent *de;

	if (!c->peerlen)
		return -1;
	if (c->fd >= 0 && is_daemon(c, c->fd))
		return c->fd;
	/* (re)connected: librrd's client opens a new socket for each
	 * connection, its own reconnects included; every open descriptor
	 * is looked at, at most once a connection */
	c->fd = -1;
	d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	while (c->fd < 0 && (de = readdir(d))) {
		char *end;
		long fd = strtol(de->d_name, &end, 10);

		if (*end == '\0' && end != de->d_name && fd != dirfd(d) &&
		    is_daemon(c, (int)fd))
			c->fd = (int)fd;
	}
	closedir(d);
	return c->fd;
}

int cachedconn_broken(struct cachedconn *c)
{
	/* (librrd takes a format it does not promise to leave alone) */
	static char why[] = "rrdcached closed the connection without answering";
	struct pollfd p = { .events = POLLIN | POLLRDHUP };
	int n;

	if (!c->peerlen)
		return 0;
	/* (none found: librrd closed it, and said so; or /proc is not
	 * there to look: nothing to check) */
	p.fd = cachedconn_fd(c);
	if (p.fd < 0)
		return 0;
	n = poll(&p, 1, 0);
	if (n == 0)
		return 0;
	rrdc_disconnect();
	/* librrd's error, as its own failures leave one */
	rrd_set_error(why);
	c->fd = -1;
	return 1;
}
