/*
 * waitpeer_inet.c - a TCP or UDP socket's far end (waitpeer.h): the
 * waiter's network namespace's /proc/PID/net/{tcp,tcp6,udp,udp6} (read
 * again at most once a WAITPEER_RESCAN_SEC, and only for a socket or a
 * mirror not in them), its own addresses (fib_trie, if_inet6) and routes
 * (route) for the interface toward another host. The tables of MAX_NS
 * namespaces are kept; a namespace past them takes the place of the
 * least recently used, whose sockets go with it (a host of many
 * containers: the eviction went by first read and left the evicted
 * namespace's sockets behind, so they grew with every namespace seen and
 * a socket of an evicted one whose mirror was among them was never read
 * again, its far end unknown for good).
 */
#define _GNU_SOURCE
#include "waitpeer_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/util.h"

/* A /proc file whole (malloc'ed, NUL-terminated), or NULL. */
static char *read_all(int procfd, const char *rel)
{
	int fd = openat(procfd, rel, O_RDONLY | O_CLOEXEC);
	size_t len = 0, cap = 0;
	char *buf = NULL;
	ssize_t r;

	if (fd < 0)
		return NULL;
	do {
		if (util_grow(&buf, &cap, len + 8192, 1) < 0) {
			free(buf);
			close(fd);
			return NULL;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r > 0)
			len += (size_t)r;
	} while (r > 0 || (r < 0 && errno == EINTR));
	close(fd);
	if (!buf)
		return NULL;
	buf[len] = '\0';
	return buf;
}

/* The network namespace of tgid ("net:[N]"), 0 when unreadable (a
 * fixture root without ns/). */
static unsigned long netns_of(int procfd, pid_t tgid)
{
	char rel[32], link[64];
	ssize_t n;

	snprintf(rel, sizeof(rel), "%d/ns/net", (int)tgid);
	n = readlinkat(procfd, rel, link, sizeof(link) - 1);
	if (n <= 5)
		return 0;
	link[n] = '\0';
	return strncmp(link, "net:[", 5) ? 0 : strtoul(link + 5, NULL, 10);
}

static struct nsinfo *ns_find(struct waitpeer *p, unsigned long ns)
{
	for (size_t i = 0; i < p->nns; i++)
		if (p->ns[i].ns == ns)
			return &p->ns[i];
	return NULL;
}

/* The sockets of namespace ns forgotten. */
static void drop_sockets(struct waitpeer *p, unsigned long ns)
{
	size_t keep = 0;

	for (size_t i = 0; i < p->ninet; i++)
		if (p->inet[i].ns != ns)
			p->inet[keep++] = p->inet[i];
	p->ninet = keep;
}

/* A slot for namespace ns, not kept yet: a free one, else the least
 * recently used one's, emptied. */
static struct nsinfo *ns_slot(struct waitpeer *p, unsigned long ns)
{
	struct nsinfo *n = &p->ns[p->nns];

	if (p->nns == MAX_NS) {
		n = &p->ns[0];
		for (size_t i = 1; i < p->nns; i++)
			if (p->ns[i].used < n->used)
				n = &p->ns[i];
		drop_sockets(p, n->ns);
		free(n->if6);
		free(n->route);
	} else {
		p->nns++;
	}
	memset(n, 0, sizeof(*n));
	n->ns = ns;
	return n;
}

/* Read the socket tables and own addresses of tgid's namespace ns. */
static struct nsinfo *read_ns(struct waitpeer *p, pid_t tgid,
			      unsigned long ns, double now)
{
	static const char *const tab[4] = { "tcp", "tcp6", "udp", "udp6" };
	struct nsinfo *n = ns_find(p, ns);
	char rel[64], *text;

	if (!n)
		n = ns_slot(p, ns);
	n->at = n->used = now;
	p->reads++;
	drop_sockets(p, ns);
	for (int t = 0; t < 4; t++) {
		snprintf(rel, sizeof(rel), "%d/net/%s", (int)tgid, tab[t]);
		if (!(text = read_all(p->procfd, rel)))
			continue;
		for (char *l = text; l && *l;) {
			char *nl = strchr(l, '\n');
			struct inet_ent e = { .ns = ns, .udp = t >= 2 };

			if (nl)
				*nl = '\0';
			if (waitpeer_inet_line(l, t & 1, &e.s) == 0 &&
			    util_grow(&p->inet, &p->capinet, p->ninet + 1,
				      sizeof(*p->inet)) == 0)
				p->inet[p->ninet++] = e;
			l = nl ? nl + 1 : NULL;
		}
		free(text);
	}
	snprintf(rel, sizeof(rel), "%d/net/fib_trie", (int)tgid);
	text = read_all(p->procfd, rel);
	n->nlocal4 = text ? waitpeer_fib_local(text, n->local4, MAX_LOCAL4) : 0;
	free(text);
	free(n->if6);
	free(n->route);
	snprintf(rel, sizeof(rel), "%d/net/if_inet6", (int)tgid);
	n->if6 = read_all(p->procfd, rel);
	snprintf(rel, sizeof(rel), "%d/net/route", (int)tgid);
	n->route = read_all(p->procfd, rel);
	return n;
}

static const struct inet_ent *inet_find(const struct waitpeer *p,
					unsigned long ns, unsigned long ino)
{
	for (size_t i = 0; i < p->ninet; i++)
		if (p->inet[i].ns == ns && p->inet[i].s.ino == ino)
			return &p->inet[i];
	return NULL;
}

static int own_address(const struct nsinfo *n, const uint8_t a[16])
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (!memcmp(a, mapped, 12)) {
		uint32_t v;

		memcpy(&v, a + 12, 4);
		for (size_t i = 0; i < n->nlocal4; i++)
			if (n->local4[i] == v)
				return 1;
		return 0;
	}
	return n->if6 && waitpeer_inet6_local(n->if6, a, NULL, 0);
}

/* The interface toward the remote (IPv4: the route's), or holding the
 * local address (IPv6); "" when unknown. */
static void interface(const struct nsinfo *n, const struct waitpeer_inet *s,
		      char name[16])
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

	name[0] = '\0';
	if (!memcmp(s->raddr, mapped, 12)) {
		uint32_t v;

		memcpy(&v, s->raddr + 12, 4);
		if (n->route && waitpeer_route(n->route, v, name, 16) < 0)
			name[0] = '\0';
	} else if (n->if6) {
		waitpeer_inet6_local(n->if6, s->laddr, name, 16);
	}
}

/* An inet socket's far end: 1 with e filled, 0 not an inet socket. */
/* The index of me's mirror in its namespace's table, or -1. */
static long mirror_of(const struct waitpeer *p, const struct inet_ent *me)
{
	long m = -1;

	for (size_t i = 0; i < p->ninet; i++) {
		int k = p->inet[i].ns == me->ns && p->inet[i].udp == me->udp ?
			waitpeer_is_mirror(&p->inet[i].s, &me->s, me->udp) : 0;

		if (k == 2)
			return (long)i;
		if (k == 1 && m < 0)
			m = (long)i;
	}
	return m;
}

/* An inet socket's far end: 1 with e filled, 0 not an inet socket. */
int waitpeer_inet_peer(struct waitpeer *p, pid_t tgid, unsigned long ino,
		       double now, struct waitpeer_edge *e, unsigned long *mirror)
{
	unsigned long ns = netns_of(p->procfd, tgid);
	struct nsinfo *n = ns_find(p, ns);
	const struct inet_ent *me = inet_find(p, ns, ino);
	long m = me ? mirror_of(p, me) : -1;

	/* read again (at most once a second) for a socket not in the
	 * table, or whose mirror is not, or has no inode yet (a connection
	 * the server had not accepted when the table was read) */
	if ((!me || m < 0 || !p->inet[m].s.ino) &&
	    (!n || now - n->at >= WAITPEER_RESCAN_SEC)) {
		n = read_ns(p, tgid, ns, now);
		me = inet_find(p, ns, ino);
		m = me ? mirror_of(p, me) : -1;
	}
	if (n)
		n->used = now;
	/* a listener (accept) or an unconnected datagram socket has no far
	 * end yet: not told */
	if (!me || !n || me->s.rport == 0)
		return 0;
	waitpeer_format(me->s.laddr, me->s.lport, e->local, sizeof(e->local));
	waitpeer_format(me->s.raddr, me->s.rport, e->remote, sizeof(e->remote));
	if (m >= 0 || waitpeer_loopback(me->s.raddr) ||
	    own_address(n, me->s.raddr)) {
		e->kind = me->udp ? PEER_UDP : PEER_TCP;
		if (m >= 0)
			*mirror = p->inet[m].s.ino;
		return 1;
	}
	e->kind = PEER_NET;
	interface(n, &me->s, e->peer_comm);
	return 1;
}
