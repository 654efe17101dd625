/*
 * cachedconn.h - whether an answer librrd's client handed back came from
 * rrdcached (cachedconn.c).
 *
 * librrd's client (1.7.2, and upstream since) keeps recv's -1 in a size_t
 * (rrd_client.c, recvline): when the daemon resets the connection instead
 * of answering (it was going away with the request unread: a restart, a
 * stop), the client hands back the previous answer still in its buffer,
 * and an update the daemon never read is reported done; its rows were lost
 * without a word (t6110: three rows, about one run in five beside load).
 * So after each answer that says done, the writer asks here whether
 * librrd's socket is still open and quiet. A reset, an end, or a byte the
 * daemon sent unasked means the answer cannot be trusted: librrd is
 * disconnected and the request counts as failed, so its rows stay held,
 * and the daemon is asked what it has before they are sent again (nothing
 * is written twice).
 */
#ifndef PERFLOG_CACHEDCONN_H
#define PERFLOG_CACHEDCONN_H

#include <sys/socket.h>

struct cachedconn {
	struct sockaddr_storage peer;	/* the daemon's address */
	socklen_t peerlen;		/* 0: not known yet, nothing checked */
	int fd;				/* librrd's socket as last found, -1 */
};

/* The daemon at addr, librrd's form: "unix:PATH" or "/PATH" is a local
 * socket; any other (a TCP address) is known once reached
 * (cachedconn_set_peer). */
void cachedconn_init(struct cachedconn *c, const char *addr);

/* The daemon's TCP address, as connected to. */
void cachedconn_set_peer(struct cachedconn *c, const struct sockaddr *sa,
			 socklen_t len);

/* librrd's socket to the daemon (librrd keeps it to itself: the
 * descriptor whose peer is the daemon), or -1 when none is open. */
int cachedconn_fd(struct cachedconn *c);

/* After an answer that said done: 1 when it cannot be trusted (librrd's
 * socket to the daemon was reset or ended, or holds bytes no request
 * asked for), and then librrd is disconnected; 0 when the connection is
 * open and quiet, or cannot be looked at (the daemon's address not known,
 * no socket of librrd's found). On 1 librrd's error (rrd_get_error) says
 * why. */
int cachedconn_broken(struct cachedconn *c);

#endif
