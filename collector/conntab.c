/*
 * conntab.c - the served connections from one step to the next
 * (conntab.h has the rules).
 */
#define _GNU_SOURCE
#include "conntab.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "../common/util.h"


int conntab_same(const struct waittcp *a, const struct waittcp *b)
{
	size_t len = a->family == AF_INET ? 4 : sizeof(a->src);

	return a->family == b->family && a->sport == b->sport &&
	       a->dport == b->dport && !memcmp(a->src, b->src, len) &&
	       !memcmp(a->dst, b->dst, len);
}

void conntab_count_cmds(struct conn *c, const char *cmds)
{
	for (const char *p = cmds; *p;) {
		size_t len = strcspn(p, ","), k;

		for (k = 0; k < c->ncmds; k++)
			if (strlen(c->cmds[k].name) == len &&
			    !memcmp(c->cmds[k].name, p, len))
				break;
		if (len && len < sizeof(c->cmds[0].name)) {
			if (k < c->ncmds) {
				c->cmds[k].samples++;
			} else if (c->ncmds < CONN_NCMDS) {
				memcpy(c->cmds[k].name, p, len);
				c->cmds[k].name[len] = '\0';
				c->cmds[k].samples = 1;
				c->ncmds++;
			}
		}
		p += len + (p[len] == ',');
	}
}

void conntab_cmds_text(const struct conn *c, char *out, size_t n)
{
	int done[CONN_NCMDS] = { 0 };

	out[0] = '\0';
	for (size_t round = 0; round < c->ncmds; round++) {
		size_t best = c->ncmds;

		for (size_t k = 0; k < c->ncmds; k++)
			if (!done[k] && (best == c->ncmds ||
					 c->cmds[k].samples > c->cmds[best].samples))
				best = k;
		done[best] = 1;
		util_list_add(out, n, c->cmds[best].name);
	}
}

static struct conn *find(struct conntab *tab, const struct waittcp *t)
{
	for (size_t i = 0; i < tab->n; i++)
		if (conntab_same(&tab->v[i].t, t))
			return &tab->v[i];
	return NULL;
}

static int recent(const struct conntab *tab, const struct waittcp *t)
{
	for (size_t i = 0; i < tab->nrecent; i++)
		if (conntab_same(&tab->recent[i].key, t))
			return 1;
	return 0;
}

static const struct conn_port *served_port(const struct conn_port *ports,
					   size_t nports, unsigned port)
{
	for (size_t i = 0; i < nports; i++)
		if (ports[i].port == port)
			return &ports[i];
	return NULL;
}

static int end_one(struct conntab *tab, const struct conn *c,
		   struct conntab_step *out, double now)
{
	if (util_grow(&out->ended, &out->capended, out->nended + 1,
		      sizeof(*out->ended)) < 0 ||
	    util_grow(&tab->recent, &tab->caprecent, tab->nrecent + 1,
		      sizeof(*tab->recent)) < 0)
		return -1;
	out->ended[out->nended++] = *c;
	tab->recent[tab->nrecent].key = c->t;
	tab->recent[tab->nrecent++].at = now;
	return 0;
}

/* The records of sockets freed since the last step: a known one's final
 * figures, or a served one that came and went. */
static int take_records(struct conntab *tab, const struct waittcp *gone,
			size_t ngone, const struct conn_port *ports,
			size_t nports, double now, struct conntab_step *out)
{
	for (size_t i = 0; i < ngone; i++) {
		const struct waittcp *g = &gone[i];
		struct conn *c = find(tab, g);
		const struct conn_port *p;

		if (c) {
			unsigned long inode = c->t.inode;

			c->t = *g;
			c->t.inode = inode;	/* the record's is 0 */
			c->final = 1;
			if (!c->gone)
				c->gone = now;
			continue;
		}
		/* a listener's own end (no far port), a connection of no
		 * served port, or one that ended and had its session */
		if (!g->dport || recent(tab, g) ||
		    !(p = served_port(ports, nports, g->sport)))
			continue;
		struct conn x;

		memset(&x, 0, sizeof(x));
		x.t = *g;
		util_strlcpy(x.daemon, p->daemon, sizeof(x.daemon));
		x.begin = tab->last < now ? tab->last : now;
		x.seen = x.gone = now;
		x.final = x.between = 1;
		if (end_one(tab, &x, out, now) < 0)
			return -1;
	}
	return 0;
}

int conntab_update(struct conntab *tab, const struct conn_seen *seen,
		   size_t nseen, const struct waittcp *gone, size_t ngone,
		   const struct conn_port *ports, size_t nports, double now,
		   struct conntab_step *out)
{
	out->nbegun = out->nended = 0;
	/* forget ends older than the longest an orphan lingers */
	for (size_t i = 0; i < tab->nrecent;)
		if (tab->recent[i].at < now - CONNTAB_RECENT_S)
			tab->recent[i] = tab->recent[--tab->nrecent];
		else
			i++;
	if (take_records(tab, gone, ngone, ports, nports, now, out) < 0)
		return -1;
	/* the known ones: followed where listed, ended where not */
	for (size_t i = 0; i < tab->n;) {
		struct conn *c = &tab->v[i];
		const struct conn_seen *s = NULL;

		for (size_t k = 0; k < nseen && !s; k++)
			if (seen[k].t.state != WAITTCP_TIME_WAIT &&
			    conntab_same(&seen[k].t, &c->t))
				s = &seen[k];
		if (s && !c->final) {
			unsigned long inode = c->t.inode;

			c->t = s->t;
			if (!c->t.inode)	/* let go by its process */
				c->t.inode = inode;
			c->seen = now;
			c->gone = 0;
			/* first seen while the listener held it alone (sshd
			 * between its accept and its fork): its own process
			 * now */
			if (s->served && s->root && !c->root)
				c->root = s->root;
			if (s->served && s->root && s->root == c->root)
				conntab_count_cmds(c, s->cmds);
			i++;
			continue;
		}
		/* missed: ended now when the kernel's record came, else
		 * held a step for it, stamped when first missed */
		if (!c->final && !c->gone) {
			c->gone = now;
			i++;
			continue;
		}
		if (end_one(tab, c, out, now) < 0)
			return -1;
		tab->v[i] = tab->v[--tab->n];
	}
	/* the new ones */
	for (size_t k = 0; k < nseen; k++) {
		const struct conn_seen *s = &seen[k];
		struct conn *c;

		if (!s->served || s->t.state == WAITTCP_TIME_WAIT ||
		    find(tab, &s->t) || recent(tab, &s->t))
			continue;
		if (util_grow(&tab->v, &tab->cap, tab->n + 1,
			      sizeof(*tab->v)) < 0 ||
		    util_grow(&out->begun, &out->capbegun, out->nbegun + 1,
			      sizeof(*out->begun)) < 0)
			return -1;
		c = &tab->v[tab->n];
		memset(c, 0, sizeof(*c));
		c->t = s->t;
		c->root = s->root;
		util_strlcpy(c->daemon, s->daemon, sizeof(c->daemon));
		conntab_count_cmds(c, s->cmds);
		/* its process's start when that is after the last look
		 * (the connection was not there then), else first seen */
		c->begin = s->began > tab->last && s->began <= now ? s->began
								   : now;
		c->seen = now;
		out->begun[out->nbegun++] = tab->n++;
	}
	tab->last = now;
	return 0;
}

void conntab_step_free(struct conntab_step *s)
{
	free(s->begun);
	free(s->ended);
	memset(s, 0, sizeof(*s));
}

void conntab_free(struct conntab *tab)
{
	free(tab->v);
	free(tab->recent);
	memset(tab, 0, sizeof(*tab));
}
