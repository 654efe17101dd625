/*
 * waitpeer_parse.c - the pure half of waitpeer.h: link texts, the lines
 * of /proc/net/{tcp,udp}{,6}, fib_trie, if_inet6 and route, and sock_diag
 * replies. No I/O; the unit tests feed them crafted texts and buffers.
 */
#define _GNU_SOURCE
#include "waitpeer.h"

#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/unix_diag.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[PEER_NKIND] = {
	[PEER_NONE] = "-", [PEER_PIPE] = "pipe", [PEER_UNIX] = "unix",
	[PEER_TCP] = "tcp", [PEER_UDP] = "udp", [PEER_NET] = "net",
	[PEER_CHILD] = "child", [PEER_DISK] = "disk",
};

const char *waitpeer_kind_name(enum peer_kind k)
{
	return (int)k >= 0 && k < PEER_NKIND ? kind_names[k] : "-";
}

enum peer_kind waitpeer_kind_of(const char *name)
{
	for (int k = 0; k < PEER_NKIND; k++)
		if (!strcmp(name, kind_names[k]))
			return (enum peer_kind)k;
	return PEER_NKIND;
}

int waitpeer_link(const char *link, unsigned long *ino)
{
	const char *p;
	char *end;
	int k;

	if (!strncmp(link, "pipe:[", 6)) {
		p = link + 6;
		k = 'p';
	} else if (!strncmp(link, "socket:[", 8)) {
		p = link + 8;
		k = 's';
	} else {
		return 0;
	}
	*ino = strtoul(p, &end, 10);
	return end != p && *end == ']' ? k : 0;
}

/* The kernel prints each 32-bit word of an address with %08X of its
 * value in host order: the word's bytes in memory are the address's. */
static int hex_words(const char *s, size_t words, uint8_t *out)
{
	for (size_t w = 0; w < words; w++) {
		char part[9], *end;
		uint32_t v;

		memcpy(part, s + 8 * w, 8);
		part[8] = '\0';
		v = (uint32_t)strtoul(part, &end, 16);
		if (end != part + 8)
			return -1;
		memcpy(out + 4 * w, &v, 4);
	}
	return 0;
}

/* "HEX:PORT" into a 16-byte address (v4 mapped) and a port; the end. */
static const char *addr_port(const char *s, int v6, uint8_t addr[16],
			     unsigned *port)
{
	size_t len = v6 ? 32 : 8;
	char *end;

	while (*s == ' ')
		s++;
	if (strlen(s) < len + 2 || s[len] != ':')
		return NULL;
	memset(addr, 0, 16);
	if (v6) {
		if (hex_words(s, 4, addr) < 0)
			return NULL;
	} else {
		addr[10] = addr[11] = 0xff;
		if (hex_words(s, 1, addr + 12) < 0)
			return NULL;
	}
	*port = (unsigned)strtoul(s + len + 1, &end, 16);
	if (end == s + len + 1 || *port > 65535)
		return NULL;
	return end;
}

int waitpeer_inet_line(const char *line, int v6, struct waitpeer_inet *out)
{
	const char *p = line;
	char *end;
	unsigned long f;

	memset(out, 0, sizeof(*out));
	out->v6 = v6;
	while (*p == ' ')
		p++;
	strtoul(p, &end, 10);	/* "sl" */
	if (end == p || *end != ':')
		return -1;
	p = addr_port(end + 1, v6, out->laddr, &out->lport);
	if (!p || !(p = addr_port(p, v6, out->raddr, &out->rport)))
		return -1;
	out->state = (unsigned)strtoul(p, &end, 16);
	if (end == p)
		return -1;
	p = end;
	/* tx:rx, tr:when, retrnsmt, uid, timeout, then the inode */
	for (int k = 0; k < 6; k++) {
		while (*p == ' ')
			p++;
		if (k < 2)
			p += strcspn(p, " ");
		else {
			f = strtoul(p, &end, k == 2 ? 16 : 10);
			if (end == p)
				return -1;
			p = end;
			if (k == 5)
				out->ino = f;
		}
	}
	return 0;
}

int waitpeer_loopback(const uint8_t a[16])
{
	static const uint8_t one[16] = { [15] = 1 };
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (!memcmp(a, one, 16))
		return 1;
	return !memcmp(a, mapped, 12) && a[12] == 127;
}

void waitpeer_format(const uint8_t a[16], unsigned port, char *out, size_t n)
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };
	char text[INET6_ADDRSTRLEN];

	if (!memcmp(a, mapped, 12)) {
		inet_ntop(AF_INET, a + 12, text, sizeof(text));
		snprintf(out, n, "%s:%u", text, port);
	} else {
		inet_ntop(AF_INET6, a, text, sizeof(text));
		snprintf(out, n, "[%s]:%u", text, port);
	}
}

static int unspecified(const uint8_t a[16])
{
	static const uint8_t zero[16], mapped[16] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(a, zero, 16) || !memcmp(a, mapped, 16);
}

int waitpeer_is_mirror(const struct waitpeer_inet *m,
		       const struct waitpeer_inet *s, int udp)
{
	if (m == s || m->lport != s->rport)
		return 0;
	if (!memcmp(m->laddr, s->raddr, 16) && m->rport == s->lport &&
	    !memcmp(m->raddr, s->laddr, 16))
		return 2;
	/* UDP: a receiver bound to the address (or to any) that never
	 * connected takes the datagrams too */
	return udp && m->rport == 0 && unspecified(m->raddr) &&
	       (!memcmp(m->laddr, s->raddr, 16) || unspecified(m->laddr));
}

long waitpeer_mirror(const struct waitpeer_inet *tab, size_t n,
		     const struct waitpeer_inet *s, int udp)
{
	long bound = -1;

	for (size_t i = 0; i < n; i++) {
		int k = waitpeer_is_mirror(&tab[i], s, udp);

		if (k == 2)
			return (long)i;
		if (k == 1 && bound < 0)
			bound = (long)i;
	}
	return bound;
}

size_t waitpeer_fib_local(const char *text, uint32_t *out, size_t max)
{
	struct in_addr last = { 0 };
	int have = 0;
	size_t n = 0;

	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *leaf = memmem(p, len, "|-- ", 4);

		if (leaf) {
			char a[INET_ADDRSTRLEN] = "";
			size_t l = len - (size_t)(leaf + 4 - p);

			if (l < sizeof(a)) {
				memcpy(a, leaf + 4, l);
				a[l] = '\0';
			}
			have = inet_pton(AF_INET, a, &last) == 1;
		} else if (have && memmem(p, len, "/32 host LOCAL", 14)) {
			int dup = 0;

			for (size_t i = 0; i < n; i++)
				dup |= out[i] == last.s_addr;
			if (!dup && n < max)
				out[n++] = last.s_addr;
		}
		p = nl ? nl + 1 : NULL;
	}
	return n;
}

int waitpeer_inet6_local(const char *text, const uint8_t addr[16],
			 char *name, size_t n)
{
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		uint8_t a[16];
		char ifname[32];
		int ok = 1;

		for (int i = 0; i < 16 && ok; i++) {
			unsigned b;

			ok = sscanf(p + 2 * i, "%2x", &b) == 1;
			a[i] = (uint8_t)b;
		}
		if (ok && !memcmp(a, addr, 16) &&
		    sscanf(p + 32, "%*x %*x %*x %*x %31s", ifname) == 1) {
			if (name)
				snprintf(name, n, "%s", ifname);
			return 1;
		}
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

int waitpeer_route(const char *text, uint32_t addr, char *name, size_t n)
{
	int best = -1;

	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		char ifname[32];
		unsigned dest, gw, flags, mask;

		if (sscanf(p, "%31s %x %x %x %*d %*d %*d %x", ifname, &dest, &gw,
			   &flags, &mask) == 5 && (flags & 1) &&
		    (addr & mask) == dest) {
			int bits = __builtin_popcount(mask);

			if (bits > best) {
				best = bits;
				snprintf(name, n, "%s", ifname);
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	return best >= 0 ? 0 : -1;
}

int waitpeer_unix_diag(const void *buf, size_t len, struct waitpeer_pair *out,
		       size_t *n, size_t max)
{
	const struct nlmsghdr *h = buf;
	size_t left = len;

	for (; NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
		const struct unix_diag_msg *m = NLMSG_DATA(h);
		const struct rtattr *a;
		size_t alen;

		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR)
			return -1;
		if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)))
			return -1;
		a = (const struct rtattr *)((const char *)m +
					    NLMSG_ALIGN(sizeof(*m)));
		alen = h->nlmsg_len - NLMSG_LENGTH(NLMSG_ALIGN(sizeof(*m)));
		for (; RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
			if (a->rta_type != UNIX_DIAG_PEER ||
			    RTA_PAYLOAD(a) < sizeof(uint32_t))
				continue;
			if (*n < max) {
				uint32_t peer;

				memcpy(&peer, RTA_DATA(a), sizeof(peer));
				out[*n].ino = m->udiag_ino;
				out[*n].peer = peer;
				(*n)++;
			}
		}
	}
	return 0;
}
