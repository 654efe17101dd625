/*
 * test_report_hosts.c - the verdict across hosts (report/report_hosts.h)
 * where report.c calls it: a side with the client's wait states (its
 * one-host verdict the wait graph's) beside servers known by their
 * counters alone (both sides with wait states, the graph over both hosts
 * judges). One case per place along the data path: the server's disk, a
 * full link (both ends named), an idle unwatched server (the path), a
 * lossy path, the client's source disk, the client's CPU, the server's
 * CPU, nothing anywhere, the client's own pacing; two servers; the word
 * and the host of every line.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/report_hosts.h"
#include "report_fixture.h"
#include "tap.h"

/* Wait states: 90% in state st (running for WS_CPU), the rest spread. */
static void waits(struct report_waits *w, int st)
{
	memset(w, 0, sizeof(*w));
	w->have = w->from_totals = 1;
	strcpy(w->process, "job");
	for (int k = 0; k < WS_N; k++)
		w->work[k] = w->all[k] = k == st ? 90 : 2;
	w->work[WS_CPU_WAIT] = w->all[WS_CPU_WAIT] = st == WS_CPU_WAIT ? 90 : 0;
	w->nwork = w->nall = 1;
	w->cpus = w->work[WS_CPU] / 100;
	w->quota = w->guessed = NAN;
	struct report_stat *s[] = { &w->stall_cpu, &w->stall_io, &w->stall_mem,
		&w->throttled, &w->io_read, &w->io_write };
	for (size_t k = 0; k < sizeof(s) / sizeof(s[0]); k++)
		report_stat_of(NULL, 0, 1, s[k]);
}

struct host {
	struct report_figures f;
	struct report_waits w;
	struct report_verdict v;
	struct report_host_side side;
};

/* A host's own verdict and its side. Unwatched (no wait states), the
 * counters' (report_judge); watched, the one-host verdict the session's
 * wait graph gave its side (report_verdict.c): the word of its dominant
 * state, so that the across judge is tested where report.c calls it, a
 * side with wait states beside one without (both with them, the graph
 * over both hosts judges, test_verdict_solve). */
static void side(struct host *h, const char *name, int watched)
{
	report_judge(&h->f, NULL, &h->v);
	if (watched) {
		static const struct {
			enum report_kind k;
			const char *detail, *line;
		} g[WS_N] = {
			[WS_CPU] = { REPORT_CPU, "cpu", "Bottleneck: CPU: the stage job ran on a CPU 9.0 s of the session's 10.0 s (90%)" },
			[WS_DISK] = { REPORT_DISK, "disk", "Bottleneck: disk: the stage job waited on the disk sdb 9.0 s of the session's 10.0 s (90%)" },
			[WS_NET] = { REPORT_NETWORK, "network", "Bottleneck: network: the stage job waited on the network eth0 9.0 s of the session's 10.0 s (90%)" },
			[WS_SLEEP] = { REPORT_NONE, "paced", "Bottleneck: nothing: the stage job slept 90% of the time by its own choice (9.0 s of the session's 10.0 s)" },
		};
		int d = report_waits_dominant(&h->w);
		if (d >= 0 && g[d].line) {
			memset(&h->v, 0, sizeof(h->v));
			h->v.kind = g[d].k;
			h->v.detail = g[d].detail;
			snprintf(h->v.line, sizeof(h->v.line), "%s", g[d].line);
		}
	}
	h->side = (struct report_host_side){ name, &h->f,
					     watched ? &h->w : NULL, &h->v };
}

/* Judge client c against servers s[0..n): the word, the host named and
 * text the line must hold. */
static void check(struct host *c, struct host *s, size_t n, const char *word,
		  const char *host, const char *must, const char *name)
{
	struct report_host_side sv[4];
	struct report_verdict v;
	char h[64], peer[64], want[96];

	for (size_t i = 0; i < n; i++)
		sv[i] = s[i].side;
	report_hosts_judge(&c->side, sv, n, &v, h, sizeof(h), peer, sizeof(peer));
	snprintf(want, sizeof(want), "Bottleneck: %s", word);
	int ok = !strncmp(v.line, want, strlen(want)) &&
		 !strcmp(report_kind_word(v.kind), word) && !strcmp(h, host) &&
		 (!must || strstr(v.line, must));
	OK(ok, name);
	if (!ok)
		fprintf(stderr, "# got '%s' (kind %s, host '%s', peer '%s'), want word %s, host '%s', '%s'\n",
			v.line, report_kind_name(v.kind), h, peer, word, host,
			must ? must : "");
	printf("#   %s\n#   (%s)\n", v.line, v.hint);
}

int main(void)
{
	static struct host c, s[2];
	char out[64];

	/* the server's storage, its receiver not watched: the client waits
	 * on its socket, the server's system rule names its disk */
	idle(&c.f);
	waits(&c.w, WS_NET);
	side(&c, "cli", 1);
	idle(&s[0].f);
	stat_of(&s[0].f.disk_busy, 96, 1.5);
	stat_of(&s[0].f.disk_bytes, 40e6, 1e6);
	stat_of(&s[0].f.disk_xfers, 160, 5);
	s[0].f.disk_xfer_size = 250e3;
	side(&s[0], "tsmsrv", 0);
	check(&c, s, 1, "disk", "tsmsrv", "sdb", "server disk from its counters alone");
	check(&c, s, 1, "disk", "tsmsrv", "while the client waited on its socket 9",
	      "the client's socket wait beside the server's disk");

	/* a full link at the server's end: network, both ends named */
	idle(&s[0].f);
	stat_of(&s[0].f.net_share, 93, 2);
	stat_of(&s[0].f.net_bytes, 116e6, 1e6);
	side(&s[0], "tsmsrv", 0);
	check(&c, s, 1, "network", "", "network between cli and tsmsrv",
	      "a full link: network between both ends");

	/* the client waits on its socket, the server shows nothing and is
	 * not watched: the path, said so */
	idle(&s[0].f);
	side(&s[0], "tsmsrv", 0);
	check(&c, s, 1, "network", "", "receiver not watched",
	      "socket wait, idle unwatched server: network, the receiver unseen");

	/* retransmissions on the client's end */
	stat_of(&c.f.retrans, 400, 20);
	side(&c, "cli", 1);
	check(&c, s, 1, "network", "", "retransmissions/s",
	      "a lossy path is the network");
	stat_of(&c.f.retrans, 0, 0);

	/* the client's source disk: its own waits on the disk */
	idle(&c.f);
	stat_of(&c.f.disk_busy, 95, 2);
	waits(&c.w, WS_DISK);
	side(&c, "cli", 1);
	idle(&s[0].f);
	stat_of(&s[0].f.disk_busy, 90, 5);	/* busy too: the client is first */
	side(&s[0], "tsmsrv", 0);
	check(&c, s, 1, "disk", "cli", "disk on cli: the stage job waited on the disk",
	      "the client's source disk before the server's");
	OK(strstr(c.v.line, "tsmsrv") == NULL, "the client's own line names no server");

	/* the client's CPU: compressing on one CPU */
	idle(&c.f);
	stat_of(&c.f.cpu1, 99, 1);
	waits(&c.w, WS_CPU);
	side(&c, "cli", 1);
	idle(&s[0].f);
	side(&s[0], "tsmsrv", 0);
	check(&c, s, 1, "CPU", "cli", "; tsmsrv: CPU", "the client's CPU, the server's figures beside");

	/* the server's CPU: the client waits on its socket */
	idle(&c.f);
	waits(&c.w, WS_NET);
	side(&c, "cli", 1);
	idle(&s[0].f);
	stat_of(&s[0].f.cpu, 92, 3);
	stat_of(&s[0].f.cpu1, 97, 2);
	side(&s[0], "tsmsrv", 0);
	check(&c, s, 1, "CPU", "tsmsrv", "while the client waited on its socket",
	      "the server's CPU behind the client's socket wait");

	/* nothing anywhere, no waits */
	idle(&c.f);
	side(&c, "cli", 0);
	idle(&s[0].f);
	side(&s[0], "tsmsrv", 0);
	check(&c, s, 1, "nothing", "", "cli: CPU 3%", "nothing on any host");
	OK(strstr(c.v.line, "nothing") != NULL, "idle client alone: nothing");

	/* the client paced itself: nothing, whatever the server */
	waits(&c.w, WS_SLEEP);
	side(&c, "cli", 1);
	check(&c, s, 1, "nothing", "", "slept", "a paced client: nothing");

	/* two servers: the second one's disk */
	waits(&c.w, WS_NET);
	side(&c, "cli", 1);
	idle(&s[0].f);
	side(&s[0], "srv1", 0);
	idle(&s[1].f);
	stat_of(&s[1].f.disk_busy, 96, 1.5);
	side(&s[1], "srv2", 0);
	check(&c, s, 2, "disk", "srv2", NULL, "two servers: the one whose disk held it");

	report_hosts_receiver("the client's threads: the client ran", out, sizeof(out));
	EQ_STR(out, "the receiver's threads: the receiver ran", "receiver wording");
	report_hosts_receiver("the client waited on the disk 99% of the time", out, 12);
	EQ_INT(strlen(out), 11, "receiver wording cut at its size");
	/* the table's figure, not a share of the voting states (it said
	 * 97% where the table said 65%) */
	EQ_DBL(report_hosts_wait_share(&c.w, WS_NET), 90.0, 1e-9,
	       "the socket wait's share as the table prints it");
	EQ_DBL(report_hosts_wait_share(NULL, WS_NET), NAN, 0, "no waits: NAN");
	return done_testing();
}
