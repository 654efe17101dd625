/*
 * conn_sessions.c - a server's client connections as sessions
 * (conn_sessions.h). At each sample: the kernel's records of sockets
 * freed since the last one (waittcp_events_read), one dump of the
 * listening sockets and one of the rest (waittcp_dump_states), one read
 * of the daemons' processes and their fd tables (conn_procs.h); the
 * table (conntab.h) says which connections began and ended, and here
 * they become markers and watched trees.
 */
#define _GNU_SOURCE
#include "conn_sessions.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../logs/markers.h"
#include "collector_int.h"
#include "conn_procs.h"
#include "conntab.h"

#define MAX_FIELDS 64

struct conn_sessions {
	int events;			/* waittcp_events_open, or -1 */
	struct conntab tab;
	struct conntab_step step;
	struct conn_procs procs;
	struct waittcp *gone;		/* records since the last sample */
	size_t ngone, capgone;
	struct conn_seen *seen;
	size_t capseen;
	struct conn_port *ports;
	pid_t *listener;		/* ports[i]'s topmost holder */
	size_t nports, capports, caplistener;
	struct conn *ending;		/* ended, their trees' last figures
					 * taken by this sample first */
	size_t nending, capending;
	double boot_wall;		/* the collector's clock at boot */
	long hz;
	struct complaint c_conn;	/* reading the connections */
	struct complaint c_slots;	/* a session's tree not watched */
};

/* ---- markers ---- */

struct fields {
	char *v[MAX_FIELDS];
	size_t n;
};

static void add(struct fields *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add(struct fields *f, const char *fmt, ...)
{
	va_list ap;

	if (f->n == MAX_FIELDS)
		return;
	va_start(ap, fmt);
	if (vasprintf(&f->v[f->n], fmt, ap) >= 0)
		f->n++;
	va_end(ap);
}

/* "k=v<TAB>k=v" (watch_waits_finish's fields) one by one */
static void add_tabbed(struct fields *f, const char *s)
{
	while (s && *s) {
		size_t len = strcspn(s, "\t");

		if (len)
			add(f, "%.*s", (int)len, s);
		s += len + (s[len] == '\t');
	}
}

static void put(struct collector *c, double when, enum marker_kind kind,
		const char *label, const char *text, struct fields *f)
{
	char *line = markers_format(when, kind, label, text,
				    (const char *const *)f->v, f->n);
	struct perr pe;

	if (!line || markhold_append(&c->held, logset_writer_dir(c->w), line,
				     &pe) > 0)
		complain(&c->c_marks, util_monotonic(), "markers held (%zu): %s",
			 c->held.n, line ? pe.msg : "out of memory");
	free(line);
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i]);
	f->n = 0;
	if (kind == MARK_BEGIN)
		sessions_begin(c, label);
	else if (kind == MARK_END)
		sessions_end(c, label);
}

static void addr_text(const struct waittcp *t, int far, char *out, size_t n)
{
	if (!inet_ntop(t->family, far ? t->dst : t->src, out, (socklen_t)n))
		util_strlcpy(out, "?", n);
}

/* The peer's name from ROOT/etc/hosts, else its address. */
static void peer_name(const struct collector *c, const struct waittcp *t,
		      char *out, size_t n)
{
	if (conn_host_name(c->opt->proc_root, t->family, t->dst, out, n) < 0)
		addr_text(t, 1, out, n);
}

/* DAEMON-HOST-PORT, as an instance name and a file name take it: a byte
 * other than a letter, a digit, '.', '_' or '-' as '_'. */
static void make_label(const struct collector *c, const struct conn *x,
		       char *out, size_t n)
{
	char host[64];

	peer_name(c, &x->t, host, sizeof(host));
	snprintf(out, n, "%s-%.40s-%u", x->daemon[0] ? x->daemon : "conn",
		 host, x->t.dport);
	for (char *p = out; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && !strchr("._-", *p))
			*p = '_';
}

static void begin_marker(struct collector *c, const struct conn *x)
{
	struct fields f = { { 0 }, 0 };
	char addr[INET6_ADDRSTRLEN], local[INET6_ADDRSTRLEN], host[256];
	char text[512];

	addr_text(&x->t, 1, addr, sizeof(addr));
	addr_text(&x->t, 0, local, sizeof(local));
	peer_name(c, &x->t, host, sizeof(host));
	snprintf(text, sizeof(text), "connection from %s (%s port %u) to %s",
		 host, addr, x->t.dport, x->daemon);
	add(&f, "conn.peer=%s", addr);
	add(&f, "conn.peer_port=%u", x->t.dport);
	add(&f, "conn.host=%s", host);
	add(&f, "conn.local=%s", local);
	add(&f, "conn.local_port=%u", x->t.sport);
	add(&f, "conn.daemon=%s", x->daemon);
	if (x->between)
		add(&f, "conn.between=1");
	put(c, x->begin, MARK_BEGIN, x->label, text, &f);
}

/* The session of a client that ran `perflog run --server` here: open in
 * the set, its begin's peer= this connection's host name or address, and
 * begun before the connection ended. The peer's port is not in the
 * client's markers (its command's connections are its own), so the
 * address and the span decide; of several, the one begun last. */
static void client_session(struct collector *c, const struct conn *x,
			   struct fields *f)
{
	char addr[INET6_ADDRSTRLEN], host[256];
	struct marker_list l;
	struct perr pe;
	const char *best = NULL;
	double best_t = 0;

	if (!c->nopen)
		return;
	addr_text(&x->t, 1, addr, sizeof(addr));
	peer_name(c, &x->t, host, sizeof(host));
	memset(&l, 0, sizeof(l));
	if (markers_load(logset_writer_dir(c->w), &l, &pe) < 0)
		return;
	for (size_t i = 0; i < l.n; i++) {
		const struct marker *m = &l.m[i];
		double t = (double)m->t + m->ms / 1000.0;

		if (m->kind != MARK_BEGIN || !sessions_is_open(c, m->session) ||
		    !strcmp(m->session, x->label) || t > x->gone + 1)
			continue;
		for (size_t k = 0; k < m->nextra; k++)
			if (!strcmp(m->extra[k].key, "peer") &&
			    (!strcmp(m->extra[k].value, host) ||
			     !strcmp(m->extra[k].value, addr)) && t >= best_t) {
				best = m->session;
				best_t = t;
			}
	}
	if (best)
		add(f, "conn.client_session=%s", best);
	markers_free(&l);
}

static void end_marker(struct collector *c, const struct conn *x,
		       const char *waits, const char *why)
{
	struct fields f = { { 0 }, 0 };
	char addr[INET6_ADDRSTRLEN], host[256], text[512], cmds[256];
	const struct waittcp *t = &x->t;
	double share;
	const char *limit = waittcp_limit(t, &share);
	double end = x->gone ? x->gone : collector_clock();

	addr_text(t, 1, addr, sizeof(addr));
	peer_name(c, t, host, sizeof(host));
	snprintf(text, sizeof(text), "connection from %s (%s port %u) %s",
		 host, addr, t->dport, why);
	add(&f, "conn.peer=%s", addr);
	add(&f, "conn.peer_port=%u", t->dport);
	add(&f, "conn.host=%s", host);
	add(&f, "conn.daemon=%s", x->daemon);
	add(&f, "conn.duration=%.3f", end - x->begin);
	/* its own process, or none: the listener served it itself */
	if (x->root)
		add(&f, "conn.pid=%ld", (long)x->root);
	else if (!x->between)
		add(&f, "conn.tree=socket");
	conntab_cmds_text(x, cmds, sizeof(cmds));
	if (cmds[0])
		add(&f, "conn.cmds=%s", cmds);
	/* the kernel's figures: its record of the socket's end, or the
	 * last dump's (what came after it is not counted) */
	add(&f, "conn.figures=%s", x->final ? "final" : "last-sample");
	if (x->between)
		add(&f, "conn.between=1");
	if (t->have_info) {
		add(&f, "conn.bytes_in=%llu", (unsigned long long)t->bytes_received);
		add(&f, "conn.bytes_out=%llu", (unsigned long long)t->bytes_acked);
		add(&f, "tcp.rtt_ms=%.3f", t->rtt_ms);
		add(&f, "tcp.retrans=%u", t->total_retrans);
		add(&f, "tcp.delivery_rate=%llu",
		    (unsigned long long)t->delivery_rate);
	}
	if (t->have_limits) {
		add(&f, "tcp.busy_s=%.3f", (double)t->busy_us / 1e6);
		add(&f, "tcp.rwnd_limited_s=%.3f", (double)t->rwnd_limited_us / 1e6);
		add(&f, "tcp.sndbuf_limited_s=%.3f",
		    (double)t->sndbuf_limited_us / 1e6);
		if (limit) {
			add(&f, "tcp.limit=%s", limit);
			add(&f, "tcp.limit_share=%.2f", share);
		}
	}
	client_session(c, x, &f);
	add_tabbed(&f, waits);
	put(c, end, MARK_END, x->label, text, &f);
}

/* ---- the trees ---- */

static struct watch *tree_of(struct collector *c, const char *label)
{
	for (int i = 0; i < c->nwatch; i++)
		if (c->watch[i].follow && c->watch[i].state != WATCH_ENDED &&
		    !strcmp(c->watch[i].label, label))
			return &c->watch[i];
	return NULL;
}

static void watch_tree(struct collector *c, struct conn *x)
{
	struct proctree_options o;
	struct loop_request lr;
	struct request r;
	struct perr pe;

	if (!x->root)
		return;
	memset(&o, 0, sizeof(o));
	memset(&r, 0, sizeof(r));
	r.fd = -1;
	o.pid = x->root;
	/* its zero row is this sample's (watch.c), as a request's is */
	if (watch_add(c, &r, &o, x->label, 1, &lr, &pe) < 0) {
		complain(&c->conns->c_slots, util_monotonic(),
			 "session %s: its processes are not watched: %s",
			 x->label, pe.msg);
		x->tree = -1;
		return;
	}
	x->tree = 1;
	complain_release(&c->conns->c_slots,
			 "the sessions' processes are watched again");
}

/* The sessions' trees share one sampler's budget (WAITS_CPU_BUDGET,
 * waits.h): a night of 50 sessions costs what one watched tree may,
 * each tree ticking at its share over its own tick's cost (at 16 trees
 * of one process each, about 6 Hz instead of 50: bench/night.sh). */
static void share_budget(struct collector *c)
{
	struct watch *w[MAX_WATCH];
	size_t n = 0;

	for (size_t i = 0; i < c->conns->tab.n && n < MAX_WATCH; i++) {
		struct conn *x = &c->conns->tab.v[i];
		struct watch *t = x->tree > 0 ? tree_of(c, x->label) : NULL;

		if (t && t->ww)
			w[n++] = t;
	}
	for (size_t i = 0; i < n; i++)
		watch_waits_budget(w[i]->ww, WAITS_CPU_BUDGET / (double)n);
}

/* ---- one sample ---- */

static int open_state(struct collector *c)
{
	struct conn_sessions *s = calloc(1, sizeof(*s));
	struct timespec bt;

	if (!s)
		return -1;
	s->hz = sysconf(_SC_CLK_TCK);
	clock_gettime(CLOCK_BOOTTIME, &bt);
	s->boot_wall = collector_clock() - ((double)bt.tv_sec + bt.tv_nsec / 1e9);
	/* the sessions begin with the set, not before it */
	s->tab.last = (double)logset_writer_meta(c->w)->start;
	/* a fixture /proc has no kernel's records to go with it */
	if (strcmp(c->opt->proc_root, "/"))
		s->events = -1;
	else if ((s->events = waittcp_events_open()) < 0)
		fprintf(stderr, "perflog: the kernel's records of ended connections cannot be read (%s): a connection shorter than a sample is not seen, and the last sample's bytes are a session's last\n",
			strerror(errno));
	c->conns = s;
	return 0;
}

/* The served ports: the listening sockets the daemons hold. */
static void find_ports(struct conn_sessions *s, const struct waittcp *l,
		       long nl)
{
	s->nports = 0;
	for (long i = 0; i < nl; i++) {
		pid_t h = conn_procs_holder(&s->procs, l[i].inode);
		const struct conn_proc *p = conn_procs_find(&s->procs, h);
		size_t k;

		if (!h || !p)
			continue;
		for (k = 0; k < s->nports && s->ports[k].port != l[i].sport; k++)
			;
		if (k < s->nports ||
		    util_grow(&s->ports, &s->capports, s->nports + 1,
			      sizeof(*s->ports)) < 0 ||
		    util_grow(&s->listener, &s->caplistener, s->nports + 1,
			      sizeof(*s->listener)) < 0)
			continue;
		s->ports[s->nports].port = l[i].sport;
		util_strlcpy(s->ports[s->nports].daemon, p->comm,
			     sizeof(s->ports[0].daemon));
		s->listener[s->nports++] = h;
	}
}

/* The dump's listening rows moved to its front: how many. */
static long listening_first(struct waittcp *rows, long n)
{
	long k = 0;

	for (long i = 0; i < n; i++)
		if (rows[i].state == WAITTCP_LISTEN) {
			struct waittcp t = rows[k];

			rows[k++] = rows[i];
			rows[i] = t;
		}
	return k;
}

/* seen[i] of dump row t: served, its process, its commands. */
static void see(struct conn_sessions *s, const struct waittcp *t,
		struct conn_seen *x)
{
	pid_t h = conn_procs_holder(&s->procs, t->inode);
	size_t k;

	memset(x, 0, sizeof(*x));
	x->t = *t;
	for (k = 0; k < s->nports && s->ports[k].port != t->sport; k++)
		;
	if (!h || k == s->nports)
		return;
	x->served = 1;
	util_strlcpy(x->daemon, s->ports[k].daemon, sizeof(x->daemon));
	/* the listener holding it alone: the socket is the session
	 * (rest-server), or its process is yet to come (sshd's fork) */
	x->root = h == s->listener[k] ? 0 : h;
	const struct conn_proc *p = conn_procs_find(&s->procs, h);

	if (x->root && p)
		x->began = s->boot_wall + (double)p->start / (double)s->hz;
	if (x->root)	/* the listener's tree is not the session's */
		conn_procs_cmds(&s->procs, h, x->cmds, sizeof(x->cmds));
}

static void end_now(struct collector *c, const struct conn *x,
		    const char *why)
{
	const char *kept = x->tree > 0 ? watch_ended_fields(c, x->label) : NULL;
	char copy[2048] = "";

	if (kept)
		util_strlcpy(copy, kept, sizeof(copy));
	if (kept)
		watch_ended_drop(c, x->label);
	/* a connection that began and ended between two samples: no
	 * process of it was ever read, and its marker says so rather than
	 * naming no waits file (t3740's tar, 1.0 s beside a load) */
	if (!kept && x->between)
		util_strlcpy(copy, "waits.error=not sampled: the connection "
			     "began and ended between two samples", sizeof(copy));
	end_marker(c, x, copy, why);
}

void conn_sessions_sample(struct collector *c)
{
	struct conn_sessions *s;
	struct waittcp *rows = NULL;
	long nrows, nlisten;
	struct perr pe;
	int lost = 0;

	if (!c->set->daemons[0] || !c->w)
		return;
	if (!c->conns && open_state(c) < 0)
		return;
	s = c->conns;
	s->ngone = 0;
	if (s->events >= 0 &&
	    waittcp_events_read(s->events, &s->gone, &s->ngone, &s->capgone,
				&lost) < 0)
		complain(&s->c_conn, util_monotonic(),
			 "reading the kernel's records of ended connections: %s",
			 strerror(errno));
	if (lost)
		complain(&s->c_conn, util_monotonic(),
			 "the kernel dropped records of ended connections: their last bytes are the last sample's");
	/* one dump a sample: every state but closed, the listening
	 * sockets (the served ports) moved to its front */
	nrows = waittcp_dump_states(&rows, ~(1u << WAITTCP_CLOSE));
	if (nrows < 0 ||
	    conn_procs_read(c->opt->proc_root, c->set->daemons, &s->procs,
			    &pe) < 0) {
		complain(&s->c_conn, util_monotonic(),
			 "the server's connections cannot be read: %s",
			 nrows < 0 ? "sock_diag refused the dump" : pe.msg);
		goto out;
	}
	nlisten = listening_first(rows, nrows);
	find_ports(s, rows, nlisten);
	if (util_grow(&s->seen, &s->capseen, (size_t)(nrows - nlisten) + 1,
		      sizeof(*s->seen)) < 0)
		goto out;
	for (long i = nlisten; i < nrows; i++)
		see(s, &rows[i], &s->seen[i - nlisten]);
	if (conntab_update(&s->tab, s->seen, (size_t)(nrows - nlisten),
			   s->gone, s->ngone,
			   s->ports, s->nports, collector_clock(), &s->step) < 0)
		goto out;
	/* the ended first: a label freed before a new one may take it */
	for (size_t i = 0; i < s->step.nended; i++) {
		struct conn *x = &s->step.ended[i];
		struct watch *w = x->tree > 0 ? tree_of(c, x->label) : NULL;

		if (x->between) {	/* only the kernel's record saw it */
			make_label(c, x, x->label, sizeof(x->label));
			begin_marker(c, x);
		}
		if (w && w->ww) {	/* its last figures: this sample's */
			watch_waits_whole(w->ww);
			if (util_grow(&s->ending, &s->capending, s->nending + 1,
				      sizeof(*s->ending)) == 0) {
				s->ending[s->nending++] = *x;
				continue;
			}
		}
		end_now(c, x, "closed");
	}
	for (size_t i = 0; i < s->step.nbegun; i++) {
		struct conn *x = &s->tab.v[s->step.begun[i]];

		make_label(c, x, x->label, sizeof(x->label));
		begin_marker(c, x);
	}
	/* the new ones' trees, and those whose process a dump showed
	 * only now (first seen in the listener's hands) */
	for (size_t i = 0; i < s->tab.n; i++)
		if (s->tab.v[i].root && !s->tab.v[i].tree)
			watch_tree(c, &s->tab.v[i]);
	share_budget(c);
	complain_release(&s->c_conn, "the server's connections are read again");
out:
	free(rows);
}

void conn_sessions_after(struct collector *c)
{
	struct conn_sessions *s = c->conns;

	for (size_t i = 0; s && i < s->nending; i++) {
		struct conn *x = &s->ending[i];
		struct watch *w = tree_of(c, x->label);
		char fields[2048] = "";
		struct perr pe;

		if (w && w->ww &&
		    watch_waits_finish(w->ww, logset_writer_dir(c->w), w->label,
				       fields, sizeof(fields), &pe) < 0)
			complain(&c->c_waits, util_monotonic(),
				 "wait states of %s: %s", w->label, pe.msg);
		if (w)
			watch_end(c, w);
		if (w)
			end_marker(c, x, fields, "closed");
		else	/* its tree ended in this sample: its totals kept */
			end_now(c, x, "closed");
	}
	if (s)
		s->nending = 0;
}

void conn_sessions_close(struct collector *c, double stop)
{
	struct conn_sessions *s = c->conns;

	if (!s)
		return;
	conn_sessions_after(c);
	for (size_t i = 0; i < s->tab.n; i++) {
		struct conn *x = &s->tab.v[i];
		struct watch *w = x->tree > 0 ? tree_of(c, x->label) : NULL;
		char fields[2048] = "";
		struct perr pe;

		x->gone = stop;
		if (w && w->ww) {
			watch_waits_last(w->ww);
			if (watch_waits_finish(w->ww, logset_writer_dir(c->w),
					       w->label, fields, sizeof(fields),
					       &pe) < 0)
				complain(&c->c_waits, util_monotonic(),
					 "wait states of %s: %s", w->label,
					 pe.msg);
			end_marker(c, x, fields, "still open when the collector stopped");
		} else {
			end_now(c, x, "still open when the collector stopped");
		}
	}
	if (s->events >= 0)
		close(s->events);
	conntab_free(&s->tab);
	conntab_step_free(&s->step);
	conn_procs_free(&s->procs);
	free(s->gone);
	free(s->seen);
	free(s->ports);
	free(s->listener);
	free(s->ending);
	free(s);
	c->conns = NULL;
}
