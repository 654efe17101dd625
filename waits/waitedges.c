/*
 * waitedges.c - edges-LABEL.tsv (waitedges.h).
 */
#define _GNU_SOURCE
#include "waitedges.h"
#include "waitrates.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

#define HEADER "pid\tcomm\tdir\tkind\tpeer_pid\tpeer_comm\tlocal\tremote" \
	"\tseconds\tbytes\n"

int waitedges_name(const char *waits_name, char *out, size_t n)
{
	if (strncmp(waits_name, "waits-", 6) ||
	    (size_t)snprintf(out, n, "edges-%s", waits_name + 6) >= n)
		return -1;
	return 0;
}

/* The host part of "ADDR:PORT" or "[ADDR]:PORT" (length). */
static size_t host_len(const char *a)
{
	const char *c = strrchr(a, ':');

	return c ? (size_t)(c - a) : strlen(a);
}

void waitedges_remote_host(const struct waitpeer_edge *e, char *out, size_t n)
{
	const char *a = e->remote;
	size_t l = host_len(a);

	if (l >= 2 && a[0] == '[' && a[l - 1] == ']')
		a++, l -= 2;
	if (!n)
		return;
	if (l >= n)
		l = n - 1;
	memcpy(out, a, l);
	out[l] = '\0';
}

int waitedges_same_row(const struct waitpeer_edge *a,
		       const struct waitpeer_edge *b)
{
	/* a known peer is its pid whatever it was named when seen (a shell
	 * that exec'ed gzip); an unknown one, or an interface, its name */
	if (a->pid != b->pid || a->dir != b->dir || a->kind != b->kind ||
	    a->peer_pid != b->peer_pid ||
	    (!a->peer_pid && strcmp(a->peer_comm, b->peer_comm)))
		return 0;
	if (a->kind != PEER_NET)
		return 1;
	return host_len(a->remote) == host_len(b->remote) &&
	       !strncmp(a->remote, b->remote, host_len(a->remote));
}

static int cmp_row(const void *x, const void *y)
{
	const struct waitedge_row *a = x, *b = y;

	if (a->e.pid != b->e.pid)
		return (a->e.pid > b->e.pid) - (a->e.pid < b->e.pid);
	return (a->seconds < b->seconds) - (a->seconds > b->seconds);
}

/* The name the last id naming pid gave it (its comm as the waiter, its
 * peer_comm as a process at the far end), or NULL. */
static const char *last_name(const struct waitpeer_edge *keys, size_t nkeys,
			     pid_t pid)
{
	for (size_t id = nkeys; id-- > 0;) {
		const struct waitpeer_edge *k = &keys[id];

		if (k->pid == pid && k->comm[0])
			return k->comm;
		if (k->peer_pid == pid && k->kind != PEER_NET &&
		    k->kind != PEER_CHILD && k->peer_comm[0])
			return k->peer_comm;
	}
	return NULL;
}

/* One name for each process in every row: the last it was seen under
 * (ids grow with time). A process renamed by its exec (waits_renamed)
 * kept its shell's name in the rows whose ids were all older, or whose
 * far end was renamed before it: "sh out pipe gzip" for head. */
static void name_rows(struct waitedge_row *rows, size_t n,
		      const struct waitpeer_edge *keys, size_t nkeys)
{
	for (size_t r = 0; r < n; r++) {
		struct waitpeer_edge *e = &rows[r].e;
		const char *c = last_name(keys, nkeys, e->pid);

		if (c)
			memcpy(e->comm, c, sizeof(e->comm));
		if (e->peer_pid > 0 && e->kind != PEER_NET &&
		    e->kind != PEER_CHILD &&
		    (c = last_name(keys, nkeys, e->peer_pid)))
			memcpy(e->peer_comm, c, sizeof(e->peer_comm));
	}
}

long waitedges_rows(const double *sec, size_t nsec,
		    const struct waitpeer_edge *keys, size_t nkeys,
		    struct waitedge_row **rows)
{
	size_t n = 0, cap = 0;
	double *best = NULL;	/* the seconds of each row's shown socket */
	size_t capbest = 0;

	*rows = NULL;
	for (size_t id = 0; id < nkeys; id++) {
		size_t r;
		double s = id < nsec ? sec[id] : 0;

		/* an edge of no seconds is a link the fd tables showed
		 * (waitlinks.c), kept when its far process is known */
		if (!(s > 0) && (keys[id].kind == PEER_NET ||
				 keys[id].kind == PEER_NONE ||
				 keys[id].peer_pid <= 0))
			continue;
		for (r = 0; r < n && !waitedges_same_row(&(*rows)[r].e, &keys[id]); r++)
			;
		if (r == n) {
			if (util_grow(rows, &cap, n + 1, sizeof(**rows)) < 0 ||
			    util_grow(&best, &capbest, n + 1, sizeof(*best)) < 0) {
				free(*rows);
				free(best);
				*rows = NULL;
				return -1;
			}
			memset(&(*rows)[n], 0, sizeof(**rows));
			(*rows)[n].e = keys[id];
			(*rows)[n].bytes = NAN;	/* see waitedges.h */
			best[n++] = 0;
		}
		(*rows)[r].seconds += s;
		if (s > best[r]) {	/* the busiest socket's ends */
			best[r] = s;
			memcpy((*rows)[r].e.local, keys[id].local,
			       sizeof(keys[id].local));
			memcpy((*rows)[r].e.remote, keys[id].remote,
			       sizeof(keys[id].remote));
		}
		/* the names as last seen (ids grow with time) */
		memcpy((*rows)[r].e.comm, keys[id].comm, sizeof(keys[id].comm));
		memcpy((*rows)[r].e.peer_comm, keys[id].peer_comm,
		       sizeof(keys[id].peer_comm));
	}
	free(best);
	name_rows(*rows, n, keys, nkeys);
	if (n > 1)
		qsort(*rows, n, sizeof(**rows), cmp_row);
	return (long)n;
}

static const char *dash(const char *s)
{
	return s[0] ? s : "-";
}

int waitedges_line(const struct waitedge_row *row, char *line, size_t n)
{
	const struct waitpeer_edge *e = &row->e;
	char bytes[32] = "-", comm[16], peer_comm[16];

	/* the names as the waits file writes them: one field each, and
	 * the same in both files */
	waitrates_comm(comm, e->comm);
	waitrates_comm(peer_comm, e->peer_comm);
	if (!isnan(row->bytes))
		snprintf(bytes, sizeof(bytes), "%.0f", row->bytes);
	return snprintf(line, n, "%d\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%.3f\t%s\n",
			(int)e->pid, dash(comm), e->dir == PEER_OUT ? "out" : "in",
			waitpeer_kind_name(e->kind), (int)e->peer_pid,
			dash(peer_comm), dash(e->local), dash(e->remote),
			row->seconds, bytes);
}

size_t waitedges_format(const struct waitedge_row *rows, size_t n, char *buf,
			size_t len)
{
	size_t out = 0;
	int full = len == 0;
	char line[512];

	for (size_t i = 0; i <= n; i++) {
		int w = i == 0 ? snprintf(line, sizeof(line), "%s", HEADER) :
			waitedges_line(&rows[i - 1], line, sizeof(line));

		if (w < 0)
			continue;
		if (!full && out + (size_t)w < len) {
			memcpy(buf + out, line, (size_t)w + 1);
		} else if (!full) {
			buf[out] = '\0';
			full = 1;
		}
		out += (size_t)w;
	}
	return out;
}

/* A field up to the next tab (or the end) into out[n] ("-" -> ""). */
static const char *field(const char *p, char *out, size_t n)
{
	size_t l = strcspn(p, "\t");

	if (l >= n)
		return NULL;
	memcpy(out, p, l);
	out[l] = '\0';
	if (!strcmp(out, "-"))
		out[0] = '\0';
	return p[l] == '\t' ? p + l + 1 : p + l;
}

int waitedges_parse_row(const char *line, size_t len, struct waitedge_row *r)
{
	char buf[512], dir[8], kind[8], num[32], *end;
	const char *p = buf;
	long pid, peer;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	memset(r, 0, sizeof(*r));
	if (!(p = field(p, num, sizeof(num))) || (pid = strtol(num, &end, 10)) <= 0 ||
	    *end || !(p = field(p, r->e.comm, sizeof(r->e.comm))) ||
	    !(p = field(p, dir, sizeof(dir))) || !(p = field(p, kind, sizeof(kind))) ||
	    !(p = field(p, num, sizeof(num))))
		return -1;
	peer = strtol(num, &end, 10);
	if (*end || peer < 0 || (strcmp(dir, "in") && strcmp(dir, "out")))
		return -1;
	r->e.kind = waitpeer_kind_of(kind);
	if (r->e.kind == PEER_NKIND || r->e.kind == PEER_NONE ||
	    !(p = field(p, r->e.peer_comm, sizeof(r->e.peer_comm))) ||
	    !(p = field(p, r->e.local, sizeof(r->e.local))) ||
	    !(p = field(p, r->e.remote, sizeof(r->e.remote))) ||
	    !(p = field(p, num, sizeof(num))))
		return -1;
	r->seconds = strtod(num, &end);
	if (*end || !isfinite(r->seconds) || r->seconds < 0)
		return -1;
	/* "-": not measured; the first files wrote 0 for it */
	if (!strcmp(p, "-") || !strcmp(p, "0"))
		r->bytes = NAN;
	else if (*p && strspn(p, "0123456789") == strlen(p))
		r->bytes = strtod(p, NULL);
	else
		return -1;
	r->e.pid = (pid_t)pid;
	r->e.peer_pid = (pid_t)peer;
	r->e.dir = dir[0] == 'o' ? PEER_OUT : PEER_IN;
	return 0;
}

long waitedges_parse(const char *text, size_t len, struct waitedge_row **rows,
		     size_t *bad, size_t *first_bad)
{
	size_t hl = strlen(HEADER), n = 0, cap = 0, nbad = 0, line = 1;
	size_t first = 0;
	const char *p = text + hl, *end = text + len;

	*rows = NULL;
	if (len < hl || memcmp(text, HEADER, hl))
		return -1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = (size_t)((nl ? nl : end) - p);
		struct waitedge_row r;

		line++;
		if (ll && waitedges_parse_row(p, ll, &r) == 0) {
			if (util_grow(rows, &cap, n + 1, sizeof(**rows)) < 0) {
				free(*rows);
				*rows = NULL;
				return -1;
			}
			(*rows)[n++] = r;
		} else if (ll && !nbad++) {
			first = line;
		}
		p += ll + 1;
	}
	if (bad)
		*bad = nbad;
	if (first_bad)
		*first_bad = first;
	return (long)n;
}

/* Whether pid is the process of a thread of tot. */
static int in_tree(const struct waits_totals *tot, pid_t pid)
{
	for (size_t i = 0; pid > 0 && i < tot->n; i++)
		if (tot->t[i].pid == pid && !tot->t[i].peer)
			return 1;
	return 0;
}

void waitedges_leave_out(struct waits_totals *tot,
			 const struct waitedge_row *rows, size_t n)
{
	for (size_t r = 0; r < n; r++) {
		const struct waitedge_row *e = &rows[r];
		double other = 0, cut;

		if (!(e->seconds > 0) || e->e.pid <= 0 ||
		    (e->e.kind != PEER_CHILD &&
		     (e->e.kind == PEER_NET || e->e.kind == PEER_NONE ||
		      e->e.peer_pid == e->e.pid ||
		      !in_tree(tot, e->e.peer_pid))))
			continue;
		for (size_t i = 0; i < tot->n; i++)
			if (tot->t[i].pid == e->e.pid && tot->t[i].tid != 0)
				other += tot->t[i].sec[WS_OTHER];
		if (!(other > 0))
			continue;
		cut = e->seconds < other ? e->seconds : other;
		for (size_t i = 0; i < tot->n; i++) {
			struct waits_total *t = &tot->t[i];
			double part;

			if (t->pid != e->e.pid || t->tid == 0)
				continue;
			part = cut * t->sec[WS_OTHER] / other;
			t->sec[WS_OTHER] -= part;
			t->alive = t->alive > part ? t->alive - part : 0;
		}
	}
}

const char *waitedges_iface(const char *kind, const char *peer_comm)
{
	if (!strcmp(kind, "net"))
		return peer_comm && *peer_comm && strcmp(peer_comm, "-") &&
		       !strchr(peer_comm, ',') ? peer_comm : NULL;
	if (!strcmp(kind, "tcp") || !strcmp(kind, "udp"))
		return "lo";
	return NULL;
}

size_t waitedges_ifaces(const struct waitedge_row *rows, size_t n,
			char *buf, size_t len)
{
	size_t count = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *f = waitedges_iface(waitpeer_kind_name(rows[i].e.kind),
						rows[i].e.peer_comm);
		count += f && util_list_add(buf, len, f);
	}
	return count;
}
