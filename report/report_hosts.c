/*
 * report_hosts.c - the verdict across hosts (report_hosts.h; the rules in
 * prose with their reasons in report/README.md "The verdict across
 * hosts").
 *
 * A backup is a pipeline: the client reads its disk, works on the data
 * with its CPU, sends it over the network, and the server's receiver
 * takes it onto the server's disks with the server's CPU. Each host has
 * already been judged alone (report_judge: its figures and, where a
 * process was watched, its wait states). Along the path:
 *   1. the client's own verdict names a resource of its host (disk, CPU,
 *      memory): that resource, "on CLIENT";
 *   2. the client paced itself (slept by its own choice): nothing;
 *   3. a link full at either end (the network rule on either host's
 *      busiest interface), or retransmissions at REPORT_HOSTS_RETRANS a
 *      second at either end while the client waited on its socket: the
 *      network between them, both ends named;
 *   4. a server's own verdict names a resource of its host: that
 *      resource "on SERVER", the client's socket wait its evidence (the
 *      client waiting on its socket while the server's receiver waits on
 *      its disk is the server's disk);
 *   5. the client or a server's receiver waited on its socket and no host
 *      shows why: the network between them (a shaper or the path);
 *   6. else nothing, with each host's figures.
 * The client's socket wait alone is never the verdict's reason: it is the
 * network's or the server's, and only the server's side tells which.
 * (Sessions with watched trees have the wait graph's verdict instead:
 * report_verdict.c.)
 */
#include "report_hosts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/util.h"

enum side_class { SIDE_NOTHING, SIDE_LOCAL, SIDE_NET, SIDE_PACED };

/* What a host's own verdict says of the path. For the client, the
 * NetBackup storage verdict (the storage unit takes the data slowly) is
 * downstream, the server's. */
static enum side_class classify(const struct report_verdict *v, int client)
{
	enum report_kind k = v->kind;
	const char *w = report_kind_word(k);

	/* the wait graph's pacing: the client's own choice */
	if (v->detail && !strcmp(v->detail, "paced"))
		return SIDE_PACED;
	if (client && k == REPORT_STORAGE)
		return SIDE_NET;
	if (!strcmp(w, "network"))
		return SIDE_NET;
	if (!strcmp(w, "nothing"))
		return SIDE_NOTHING;
	return SIDE_LOCAL;
}

double report_hosts_wait_share(const struct report_waits *w, int st)
{
	const double *p;

	if (!w || !w->have)
		return NAN;
	/* the figure of the side's wait-state table, "working" column
	 * (all threads' without totals): one figure for the table and the
	 * verdict (it said 97%, of the states other than "other", where
	 * the table said 65%) */
	p = report_waits_shares(w);
	return st == WS_CPU ? p[WS_CPU] + p[WS_CPU_WAIT] : p[st];
}

static int link_full(const struct report_figures *f)
{
	return f->net_share.n && f->net_share.p95 >= REPORT_NET_P95 &&
	       f->net_share.avg >= REPORT_NET_AVG;
}

static int lossy(const struct report_figures *f)
{
	return f->retrans.n && f->retrans.avg >= REPORT_HOSTS_RETRANS;
}

/* "Bottleneck: LABEL: REST": the label ("disk", "CPU quota") and the
 * rest of a one-host line. */
static void split_line(const char *line, char *label, size_t ln,
		       const char **rest)
{
	const char *p = strncmp(line, "Bottleneck: ", 12) ? line : line + 12;
	const char *colon = strstr(p, ": ");
	size_t len = colon ? (size_t)(colon - p) : strlen(p);

	snprintf(label, ln, "%.*s", (int)len, p);
	*rest = colon ? colon + 2 : "";
}

void report_hosts_receiver(const char *in, char *out, size_t n)
{
	static const char *const from[2] = { "the client's ", "the client " };
	static const char *const to[2] = { "the receiver's ", "the receiver " };
	size_t len = 0;

	out[0] = '\0';
	while (*in && len + 1 < n) {
		int hit = -1;
		for (int k = 0; k < 2 && hit < 0; k++)
			if (!strncmp(in, from[k], strlen(from[k])))
				hit = k;
		if (hit >= 0) {
			len += (size_t)snprintf(out + len, n - len, "%s", to[hit]);
			in += strlen(from[hit]);
		} else {
			out[len++] = *in++;
			out[len] = '\0';
		}
	}
	if (len >= n)
		out[n - 1] = '\0';
}

/* "the client waited on its socket 91%", or what the client's side
 * shows without wait states. */
static void client_clause(const struct report_host_side *c, char *buf,
			  size_t n)
{
	double net = report_hosts_wait_share(c->w, WS_NET);

	if (!isnan(net))
		snprintf(buf, n, "the client waited on its socket %.0f%%", net);
	else
		snprintf(buf, n, "the client's own verdict: %s",
			 report_kind_word(c->v->kind));
}

/* "tsmsrv's eth0 21.2 MiB/s, 2% of 10 Gb/s, 3 retransmissions/s" */
static void net_clause(const struct report_host_side *s, char *buf, size_t n)
{
	const struct report_figures *f = s->f;
	char b[32], bw[32];
	size_t len;

	if (!f->net[0] || !f->net_bytes.n) {
		snprintf(buf, n, "%s's interfaces not logged", s->host);
		return;
	}
	len = (size_t)snprintf(buf, n, "%s's %s %s", s->host, f->net,
			       report_fmt_bytes(b, sizeof(b), f->net_bytes.avg, "/s"));
	if (f->net_share.n && len < n)
		len += (size_t)snprintf(buf + len, n - len, ", %.0f%% of %s (p95 %.0f%%)",
					f->net_share.avg,
					report_fmt_bits(bw, sizeof(bw), f->net_bandwidth),
					f->net_share.p95);
	if (f->retrans.n && len < n)
		snprintf(buf + len, n - len, ", %.0f retransmissions/s",
			 f->retrans.avg);
}

/* Rule 1 and 2: the client's own verdict, its host named. */
static void client_local(const struct report_host_side *c,
			 const struct report_host_side *s, size_t n,
			 struct report_verdict *out)
{
	char label[96], others[256];
	const char *rest;

	split_line(c->v->line, label, sizeof(label), &rest);
	snprintf(out->line, sizeof(out->line), "Bottleneck: %s on %s: %s",
		 label, c->host, rest);
	for (size_t i = 0; i < n; i++) {
		report_others(s[i].f, REPORT_NONE, others, sizeof(others));
		report_line_add(out, "; %s: %s", s[i].host,
				others[0] ? others : "no figures");
	}
}

/* Rule 4: a server's own verdict, its host named, the client's side as
 * evidence. */
static void server_local(const struct report_host_side *c,
			 const struct report_host_side *s,
			 struct report_verdict *out)
{
	char label[96], rest[640], cl[128];
	const char *r;

	split_line(s->v->line, label, sizeof(label), &r);
	report_hosts_receiver(r, rest, sizeof(rest));
	client_clause(c, cl, sizeof(cl));
	snprintf(out->line, sizeof(out->line), "Bottleneck: %s on %s: ", label,
		 s->host);
	report_line_add(out, "%s; while %s", rest, cl);
	report_hosts_receiver(s->v->hint, out->hint, sizeof(out->hint));
}

/* Rules 3 and 5: the network between the client and server s. */
static void network(const struct report_host_side *c,
		    const struct report_host_side *s, int full, int loss,
		    struct report_verdict *out)
{
	char cl[128], cn[256], sn[256];
	double rnet = report_hosts_wait_share(s->w, WS_NET);

	client_clause(c, cl, sizeof(cl));
	net_clause(c, cn, sizeof(cn));
	net_clause(s, sn, sizeof(sn));
	snprintf(out->line, sizeof(out->line),
		 "Bottleneck: network between %s and %s: %s", c->host, s->host, cl);
	if (!isnan(rnet)) {
		const double *p = report_waits_shares(s->w);
		report_line_add(out, ", %s's receiver on its socket %.0f%%",
				s->host, rnet);
		/* a receiver fed through a pipe (ssh's) waits on another
		 * process, not on a socket: say so, or 0% reads as idle */
		if (rnet < 50 && !isnan(p[WS_OTHER]) && p[WS_OTHER] >= 50)
			report_line_add(out, " (on another process or a pipe %.0f%%, such as sshd's)",
					p[WS_OTHER]);
	}
	else if (!s->w || !s->w->have)
		report_line_add(out, " (%s's receiver not watched)", s->host);
	report_line_add(out, "; %s; %s", cn, sn);
	if (full)
		snprintf(out->hint, sizeof(out->hint), "the link is full at %s",
			 link_full(c->f) && link_full(s->f) ? "both ends" :
			 link_full(c->f) ? c->host : s->host);
	else if (loss)
		snprintf(out->hint, sizeof(out->hint),
			 "segments are being retransmitted: a lossy path between %s and %s",
			 c->host, s->host);
	else
		snprintf(out->hint, sizeof(out->hint),
			 "neither link is full and neither host's disk or CPU "
			 "held the data: a shaper or the path between them");
}

/* Rule 6: nothing on any host. */
static void nothing(const struct report_host_side *c,
		    const struct report_host_side *s, size_t n,
		    struct report_verdict *out)
{
	char others[256];

	report_others(c->f, REPORT_NONE, others, sizeof(others));
	snprintf(out->line, sizeof(out->line),
		 "Bottleneck: nothing near saturation on any host: %s: %s",
		 c->host, others[0] ? others : "no figures");
	for (size_t i = 0; i < n; i++) {
		report_others(s[i].f, REPORT_NONE, others, sizeof(others));
		report_line_add(out, "; %s: %s", s[i].host,
				others[0] ? others : "no figures");
	}
}

void report_hosts_judge(const struct report_host_side *client,
			const struct report_host_side *servers, size_t n,
			struct report_verdict *out, char *host, size_t hostn,
			char *peer, size_t peern)
{
	enum side_class cc = classify(client->v, 1);
	int client_net = cc == SIDE_NET ||
		report_waits_dominant(client->w) == WS_NET;

	memset(out, 0, sizeof(*out));
	host[0] = peer[0] = '\0';
	if (cc == SIDE_LOCAL || cc == SIDE_PACED) {
		if (cc == SIDE_PACED) {
			*out = *client->v;
		} else {
			client_local(client, servers, n, out);
			util_strlcpy(out->hint, client->v->hint, sizeof(out->hint));
			util_strlcpy(host, client->host, hostn);
		}
		out->kind = client->v->kind;
		return;
	}
	/* 3: a full link or a lossy path at either end */
	for (size_t i = 0; i < n; i++) {
		int full = link_full(client->f) || link_full(servers[i].f);
		int loss = client_net && (lossy(client->f) || lossy(servers[i].f));
		if (full || loss) {
			network(client, &servers[i], full, loss, out);
			out->kind = REPORT_NETWORK;
			util_strlcpy(peer, servers[i].host, peern);
			return;
		}
	}
	/* 4: a server's own resource */
	for (size_t i = 0; i < n; i++)
		if (classify(servers[i].v, 0) == SIDE_LOCAL) {
			server_local(client, &servers[i], out);
			out->kind = servers[i].v->kind;
			util_strlcpy(host, servers[i].host, hostn);
			return;
		}
	/* 5: someone waited on the network and no host shows why */
	for (size_t i = 0; i < n; i++)
		if (client_net || classify(servers[i].v, 0) == SIDE_NET) {
			network(client, &servers[i], 0, 0, out);
			enum report_kind k = client_net ? client->v->kind :
					     servers[i].v->kind;
			out->kind = !strcmp(report_kind_word(k), "network") ?
				    k : REPORT_NETWORK;
			util_strlcpy(peer, servers[i].host, peern);
			return;
		}
	nothing(client, servers, n, out);
	out->kind = REPORT_NONE;
}
