/*
 * test_verdict_solve.c - the solver on graphs written by hand (issue 46):
 * each case of the issue, a pipeline whose first stage exits early, a
 * pool of one busy thread among idle ones, a knot of two processes, two
 * hosts, a peer not seen, a quota, several roots, the depth bound. Each
 * case checks the seconds charged, not only the winner.
 */
#include "../../verdict/verdict.h"
#include "tap.h"

#define TOL 1e-6

/* A process of host h with its seconds in interval i (the states in
 * enum vstate order: run, runq, disk, net, memory, sleep, other, idle). */
static int proc(struct vgraph *g, int h, pid_t pid, const char *comm,
		size_t i, double alive, const double st[VS_N])
{
	int p = vgraph_proc(g, h, pid, comm, "t");
	if (p < 0)
		return -1;
	g->proc[p].alive[i] = alive;
	for (int s = 0; s < VS_N; s++)
		vgraph_sec(g, p, i)[s] = st[s];
	return p;
}

static void waits(struct vgraph *g, int from, int to, const char *kind,
		  size_t i, double sec)
{
	int e = vgraph_edge(g, from, to, -1, kind);
	if (e >= 0)
		g->edge[e].sec[i] += sec;
}

static int one(struct vgraph *g, double len)
{
	return vgraph_init(g, 1, &len);
}

/* Seconds of root 0 on res by process p. */
static double by(const struct vsolution *s, int res, int p)
{
	double x = 0;
	for (size_t k = 0; k < s->n; k++)
		if (s->c[k].root == 0 && s->c[k].res == res && s->c[k].proc == p)
			x += s->c[k].sec;
	return x;
}

static double total(const struct vsolution *s, size_t r)
{
	double x = 0;
	for (size_t k = 0; k < s->n; k++)
		if (s->c[k].root == (int)r)
			x += s->c[k].sec;
	return x;
}

/* A sender waits 5 s on a CPU-bound local receiver (not watched, its
 * states read), then md5sum runs 0.1 s: the receiver's CPU, not md5sum. */
static void test_md5sum_after(void)
{
	struct vgraph g;
	OK(!one(&g, 5.1), "md5sum: graph");
	int h = vgraph_host(&g, "cli");
	int sh = proc(&g, h, 10, "sh", 0, 5.1, (double[VS_N]){ 0 });
	int snd = proc(&g, h, 11, "sender", 0, 5.0,
		       (double[VS_N]){ [VS_RUN] = 0.2 });
	int rcv = proc(&g, h, 12, "receiver", 0, 5.0,
		       (double[VS_N]){ [VS_RUN] = 4.9, [VS_RUNQ] = 0.1 });
	int md5 = proc(&g, h, 13, "md5sum", 0, 0.1,
		       (double[VS_N]){ [VS_RUN] = 0.1 });
	waits(&g, sh, snd, "child", 0, 5.0);
	waits(&g, sh, md5, "child", 0, 0.1);
	waits(&g, snd, rcv, "unix", 0, 4.8);
	struct vsolution s;
	OK(!verdict_solve(&g, &sh, 1, &s), "md5sum: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_STR(verdict_kind_word(v.kind), "CPU", "md5sum: the word is CPU");
	EQ_STR(v.word->detail, "cpu", "md5sum: its detail");
	EQ_INT(v.proc, rcv, "md5sum: the receiver used the CPU, not md5sum");
	EQ_DBL(v.proc_sec, 4.8, TOL, "md5sum: the receiver's 4.8 s");
	EQ_DBL(by(&s, g.host[h].cpu, md5), 0.1, TOL, "md5sum: md5sum's 0.1 s");
	EQ_DBL(by(&s, g.host[h].cpu, snd), 0.2, TOL, "md5sum: the sender's 0.2 s");
	EQ_DBL(v.sec, 5.1, TOL, "md5sum: the CPU holds all 5.1 s");
	EQ_DBL(v.share, 1.0, TOL, "md5sum: all of the session");
	double q = 0;
	for (size_t k = 0; k < s.n; k++)
		if (s.c[k].proc == rcv)
			q += s.c[k].queued;
	EQ_DBL(q, 0.1 * 4.8 / 5.0, TOL, "md5sum: of which queued, its share");
	vsolution_free(&s);
	vgraph_free(&g);
}

/* tar cf - | zstd -19 -T1 | ssh: tar lived 0.07 s, zstd's one thread ran
 * 18.9 of 19.1 s beside three idle ones: CPU, zstd, its seconds. */
static void test_tar_zstd_ssh(void)
{
	struct vgraph g;
	OK(!one(&g, 19.1), "zstd: graph");
	int h = vgraph_host(&g, "cli");
	int sh = proc(&g, h, 20, "sh", 0, 19.1, (double[VS_N]){ 0 });
	int ssh = proc(&g, h, 21, "ssh", 0, 19.1,
		       (double[VS_N]){ [VS_RUN] = 0.2 });
	int zstd = proc(&g, h, 22, "zstd", 0, 19.1,
			(double[VS_N]){ [VS_RUN] = 18.9, [VS_OTHER] = 0.15,
					[VS_IDLE] = 3 * 19.1 });
	int tar = proc(&g, h, 23, "tar", 0, 0.07,
		       (double[VS_N]){ [VS_RUN] = 0.05, [VS_DISK] = 0.02 });
	waits(&g, sh, ssh, "child", 0, 19.1);
	waits(&g, ssh, zstd, "pipe", 0, 18.9);
	waits(&g, zstd, tar, "pipe", 0, 0.05);
	struct vsolution s;
	OK(!verdict_solve(&g, &sh, 1, &s), "zstd: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	double f = 18.9 / 18.95;
	EQ_STR(verdict_kind_word(v.kind), "CPU", "zstd: CPU");
	EQ_INT(v.proc, zstd, "zstd: zstd used it");
	EQ_DBL(v.proc_sec, 18.9 * f, TOL, "zstd: its 18.85 s, the idle threads not");
	EQ_DBL(by(&s, g.host[h].cpu, tar) + by(&s, g.host[h].disk, tar),
	       0.05 * f, TOL, "zstd: tar holds what zstd waited on it");
	OK(by(&s, g.host[h].cpu, tar) + by(&s, g.host[h].disk, tar) <= 0.07,
	   "zstd: tar holds at most its 0.07 s alive");
	EQ_DBL(by(&s, g.host[h].unseen, zstd), 0, TOL,
	       "zstd: no idle thread's wait charged");
	EQ_DBL(total(&s, 0), 19.1, TOL, "zstd: every second charged once");
	vsolution_free(&s);
	vgraph_free(&g);
}

/* (head -c 150M /dev/urandom | gzip -1; echo done) | cat: cat waits on
 * gzip (the writer), not the subshell that holds the pipe: gzip's CPU. */
static void test_subshell_gzip_cat(void)
{
	struct vgraph g;
	OK(!one(&g, 10), "gzip: graph");
	int h = vgraph_host(&g, "cli");
	int cat = proc(&g, h, 30, "cat", 0, 10,
		       (double[VS_N]){ [VS_RUN] = 0.3 });
	int sub = proc(&g, h, 31, "sh", 0, 10, (double[VS_N]){ 0 });
	int gz = proc(&g, h, 32, "gzip", 0, 10,
		      (double[VS_N]){ [VS_RUN] = 9.0, [VS_OTHER] = 0.2 });
	int head = proc(&g, h, 33, "head", 0, 10,
			(double[VS_N]){ [VS_RUN] = 0.8, [VS_IDLE] = 9.2 });
	waits(&g, cat, gz, "pipe", 0, 9.7);
	waits(&g, sub, gz, "child", 0, 10);
	waits(&g, gz, head, "pipe", 0, 0.8);
	struct vsolution s;
	OK(!verdict_solve(&g, &cat, 1, &s), "gzip: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_INT(v.proc, gz, "gzip: gzip's CPU");
	EQ_DBL(v.proc_sec, 9.7 * 9.0 / 9.8, TOL, "gzip: its seconds");
	EQ_DBL(by(&s, g.host[h].cpu, head), 9.7 * 0.8 / 9.8, TOL,
	       "gzip: head's share through gzip");
	EQ_DBL(by(&s, g.host[h].cpu, cat), 0.3, TOL, "gzip: cat's own 0.3 s");
	EQ_DBL(total(&s, 0), 10, TOL, "gzip: 10 s charged");
	vsolution_free(&s);
	vgraph_free(&g);
}

/* a | b | c, a reading a file for 1 s then gone: interval by interval,
 * a holds the first second only, b's CPU the rest. */
static void test_first_stage_exits(void)
{
	struct vgraph g;
	OK(!vgraph_init(&g, 2, (double[]){ 1, 9 }), "early: graph of 2 intervals");
	int h = vgraph_host(&g, "cli");
	int c = proc(&g, h, 42, "c", 0, 1, (double[VS_N]){ 0 });
	proc(&g, h, 42, "c", 1, 9, (double[VS_N]){ [VS_RUN] = 1 });
	int b = proc(&g, h, 41, "b", 0, 1, (double[VS_N]){ 0 });
	proc(&g, h, 41, "b", 1, 9, (double[VS_N]){ [VS_RUN] = 9 });
	int a = proc(&g, h, 40, "a", 0, 1,
		     (double[VS_N]){ [VS_RUN] = 0.2, [VS_DISK] = 0.8 });
	waits(&g, c, b, "pipe", 0, 1);
	waits(&g, c, b, "pipe", 1, 8);
	waits(&g, b, a, "pipe", 0, 1);
	struct vsolution s;
	OK(!verdict_solve(&g, &c, 1, &s), "early: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_INT(v.proc, b, "early: b's CPU");
	EQ_DBL(v.proc_sec, 8, TOL, "early: b's 8 s of the second interval");
	EQ_DBL(by(&s, g.host[h].disk, a), 0.8, TOL, "early: a's disk, first second");
	EQ_DBL(by(&s, g.host[h].cpu, a), 0.2, TOL, "early: a's CPU, first second");
	EQ_DBL(v.sec, 9.2, TOL, "early: the CPU's 9.2 s");
	EQ_DBL(s.followed[0], 10, TOL, "early: the root's 10 s followed");
	vsolution_free(&s);
	vgraph_free(&g);
}

/* A pool of eight threads, one busy: judged by its seconds. */
static void test_pool(void)
{
	struct vgraph g;
	OK(!one(&g, 10), "pool: graph");
	int h = vgraph_host(&g, "cli");
	int cl = proc(&g, h, 50, "client", 0, 10, (double[VS_N]){ 0 });
	int pool = proc(&g, h, 51, "pool", 0, 10,
			(double[VS_N]){ [VS_RUN] = 10, [VS_IDLE] = 70 });
	waits(&g, cl, pool, "unix", 0, 10);
	struct vsolution s;
	OK(!verdict_solve(&g, &cl, 1, &s), "pool: solved");
	EQ_DBL(by(&s, g.host[h].cpu, pool), 10, TOL, "pool: the busy thread's 10 s");
	EQ_DBL(verdict_res_seconds(&s, 0, g.host[h].unseen), 0, TOL,
	       "pool: the idle threads hold nothing");
	vsolution_free(&s);
	/* the pool as the root itself: its 10 s alive, not 80 thread-s */
	OK(!verdict_solve(&g, &pool, 1, &s), "pool root: solved");
	EQ_DBL(total(&s, 0), 10, TOL, "pool root: 10 s, its wall seconds");
	EQ_DBL(by(&s, g.host[h].cpu, pool), 10, TOL, "pool root: all CPU");
	vsolution_free(&s);
	vgraph_free(&g);
}

/* A and B wait on each other (a request and its reply) and B on C: one
 * knot, its members' own seconds charged together. */
static void test_knot(void)
{
	struct vgraph g;
	OK(!one(&g, 10), "knot: graph");
	int h = vgraph_host(&g, "cli");
	int a = proc(&g, h, 60, "a", 0, 10, (double[VS_N]){ [VS_RUN] = 4 });
	int b = proc(&g, h, 61, "b", 0, 10,
		     (double[VS_N]){ [VS_RUN] = 3, [VS_DISK] = 1 });
	int c = proc(&g, h, 62, "c", 0, 10, (double[VS_N]){ [VS_DISK] = 2,
							   [VS_IDLE] = 8 });
	waits(&g, a, b, "unix", 0, 6);
	waits(&g, b, a, "unix", 0, 4);
	waits(&g, b, c, "pipe", 0, 2);
	int knot[3];
	EQ_INT(verdict_knots(&g, 0, knot), 2, "knot: two knots");
	OK(knot[a] == knot[b] && knot[c] != knot[a], "knot: a and b are one");
	struct vsolution s;
	OK(!verdict_solve(&g, &a, 1, &s), "knot: solved");
	EQ_DBL(by(&s, g.host[h].cpu, a), 4, TOL, "knot: a's CPU");
	EQ_DBL(by(&s, g.host[h].cpu, b), 3, TOL, "knot: b's CPU");
	EQ_DBL(by(&s, g.host[h].disk, b), 1, TOL, "knot: b's disk");
	EQ_DBL(by(&s, g.host[h].disk, c), 2, TOL, "knot: c's disk, out of the knot");
	EQ_DBL(total(&s, 0), 10, TOL, "knot: 10 s, no second twice");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_STR(verdict_kind_word(v.kind), "CPU", "knot: CPU, 7 s");
	EQ_DBL(v.sec, 7, TOL, "knot: the CPU's 7 s");
	EQ_INT(v.proc, a, "knot: a used it most");
	vsolution_free(&s);
	vgraph_free(&g);
}

/* rsync's sender and ssh wait on each other at once (the sampler saw
 * each on the other's pipe): the knot waited as a whole, on what its
 * members waited on outside it (ssh's socket, their waits on nothing
 * known), in proportion; not 6 s of "not seen". */
static void test_knot_waits_out(void)
{
	struct vgraph g;
	OK(!one(&g, 8), "knot out: graph");
	int h = vgraph_host(&g, "cli");
	int path = vgraph_res(&g, VRES_NET, h, -1, "eth0");
	int rs = proc(&g, h, 64, "rsync", 0, 8,
		      (double[VS_N]){ [VS_RUN] = 0.6, [VS_OTHER] = 0.3 });
	int ssh = proc(&g, h, 65, "ssh", 0, 8,
		       (double[VS_N]){ [VS_RUN] = 0.4, [VS_OTHER] = 0.6 });
	waits(&g, rs, ssh, "pipe", 0, 7);
	waits(&g, ssh, rs, "pipe", 0, 6);
	int e = vgraph_edge(&g, ssh, -1, path, "net");
	g.edge[e].sec[0] = 1;
	struct vsolution s;
	OK(!verdict_solve(&g, &rs, 1, &s), "knot out: solved");
	EQ_DBL(verdict_res_seconds(&s, 0, path), 1 + 6 / 1.9, TOL,
	       "knot out: the path's 1 s and its share of the 6 s gap");
	EQ_DBL(verdict_res_seconds(&s, 0, g.host[h].unseen), 0.9 * 6 / 1.9, TOL,
	       "knot out: the rest of the gap, by their waits on nothing known");
	EQ_DBL(verdict_res_seconds(&s, 0, g.host[h].cpu), 1.0, TOL,
	       "knot out: their CPU, once");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_STR(verdict_kind_word(v.kind), "network", "knot out: network");
	EQ_INT(v.proc, ssh, "knot out: ssh used it");
	vsolution_free(&s);
	vgraph_free(&g);
}

/* Two hosts: the client's ssh waits on the network path; the far end's
 * receiver busy on its disk makes it the far disk, waiting on its socket
 * the network. */
static void two_hosts(double disk, double net, const char *word, double sec,
		      const char *name)
{
	struct vgraph g;
	OK(!one(&g, 20), name);
	int cli = vgraph_host(&g, "cli"), srv = vgraph_host(&g, "srv");
	int path = vgraph_res(&g, VRES_NET, cli, srv, "eth0");
	int ssh = proc(&g, cli, 70, "ssh", 0, 20, (double[VS_N]){ [VS_RUN] = 2 });
	int rcv = proc(&g, srv, 80, "rsync", 0, 20,
		       (double[VS_N]){ [VS_RUN] = 1, [VS_DISK] = disk,
				       [VS_NET] = net });
	g.proc[rcv].disk_res = vgraph_res(&g, VRES_DISK, srv, -1, "vdb");
	int e = vgraph_edge(&g, ssh, rcv, path, "net");
	g.edge[e].sec[0] = 18;
	/* and the receiver's own wait back on the client: not followed */
	int back = vgraph_res(&g, VRES_NET, srv, cli, "eth0");
	e = vgraph_edge(&g, rcv, ssh, back, "net");
	g.edge[e].sec[0] = 0.5;
	vgraph_sec(&g, rcv, 0)[VS_NET] -= 0.5;
	struct vsolution s;
	OK(!verdict_solve(&g, &ssh, 1, &s), "two hosts: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_STR(verdict_kind_word(v.kind), word, name);
	EQ_DBL(v.sec, sec, TOL, "two hosts: its seconds");
	EQ_INT(v.proc, rcv, "two hosts: the receiver's");
	double f = 18.0 / 20.0;
	EQ_DBL(by(&s, g.proc[rcv].disk_res, rcv), disk * f, TOL,
	       "two hosts: the far disk vdb");
	EQ_DBL(by(&s, path, rcv), net * f, TOL,
	       "two hosts: the far end's socket waits are the path's");
	EQ_DBL(total(&s, 0), 20, TOL, "two hosts: 20 s charged");
	vsolution_free(&s);
	vgraph_free(&g);
}

/* Two hosts, the server's sshd not watched: the receiver waits on it
 * 6 s (a peer of no seconds, reached through the network: the
 * connection's relay, so the path's) and lived 8 s of the client's 10 s
 * wait (the rest the path's too: the far end was not there). */
static void test_far_relay(void)
{
	struct vgraph g;
	OK(!one(&g, 10), "relay: graph");
	int cli = vgraph_host(&g, "cli"), srv = vgraph_host(&g, "srv");
	int path = vgraph_res(&g, VRES_NET, cli, srv, "eth0");
	int ssh = proc(&g, cli, 70, "ssh", 0, 10, (double[VS_N]){ 0 });
	int rcv = proc(&g, srv, 80, "rsync", 0, 8, (double[VS_N]){ [VS_DISK] = 2 });
	int sshd = vgraph_proc(&g, srv, 79, "sshd", NULL);
	int e = vgraph_edge(&g, ssh, rcv, path, "net");
	g.edge[e].sec[0] = 10;
	waits(&g, rcv, sshd, "pipe", 0, 6);
	struct vsolution s;
	OK(!verdict_solve(&g, &ssh, 1, &s), "relay: solved");
	EQ_DBL(verdict_res_seconds(&s, 0, path), 8, TOL,
	       "relay: the relay's 6 s and the 2 s the receiver was gone");
	EQ_DBL(verdict_res_seconds(&s, 0, g.host[srv].disk), 2, TOL,
	       "relay: the receiver's own disk");
	EQ_DBL(verdict_res_seconds(&s, 0, g.host[srv].unseen), 0, TOL,
	       "relay: nothing not seen");
	vsolution_free(&s);
	vgraph_free(&g);
}

/* A wait on a peer the log has no states of: not seen, with the peer. */
static void test_not_seen(void)
{
	struct vgraph g;
	OK(!one(&g, 10), "not seen: graph");
	int h = vgraph_host(&g, "cli");
	int cl = proc(&g, h, 90, "client", 0, 10, (double[VS_N]){ [VS_RUN] = 1 });
	int agent = vgraph_proc(&g, h, 91, "agent", NULL);
	waits(&g, cl, agent, "unix", 0, 9);
	struct vsolution s;
	OK(!verdict_solve(&g, &cl, 1, &s), "not seen: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_STR(verdict_kind_word(v.kind), "nothing", "not seen: nothing");
	EQ_STR(v.word->detail, "not-seen", "not seen: its detail");
	EQ_INT(v.proc, agent, "not seen: the peer named");
	EQ_DBL(v.sec, 9, TOL, "not seen: 9 s");
	EQ_INT(v.runner_res, -1, "not seen: CPU's 1 s is no runner-up");
	vsolution_free(&s);
	vgraph_free(&g);
}

/* A cgroup's quota throttling 55% of the interval: the quota's share, and
 * the host's CPUs within the margin named beside it. */
static void test_quota(void)
{
	struct vgraph g;
	OK(!one(&g, 10), "quota: graph");
	int h = vgraph_host(&g, "cli");
	int cg = vgraph_cgroup(&g, h, "backup.slice", 1.0, 0);
	g.cg[cg].throttled[0] = 0.55;
	int p = proc(&g, h, 95, "restic", 0, 10,
		     (double[VS_N]){ [VS_RUN] = 8, [VS_RUNQ] = 2 });
	g.proc[p].cgroup = cg;
	struct vsolution s;
	OK(!verdict_solve(&g, &p, 1, &s), "quota: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_STR(v.word->detail, "cpu-quota", "quota: the quota");
	EQ_DBL(v.sec, 5.5, TOL, "quota: 5.5 s");
	EQ_INT(v.runner_res, g.host[h].cpu, "quota: the host's CPUs beside it");
	EQ_DBL(v.runner_sec, 4.5, TOL, "quota: 4.5 s");
	vsolution_free(&s);
	/* no throttling: no quota charged */
	g.cg[cg].throttled[0] = 0;
	OK(!verdict_solve(&g, &p, 1, &s), "quota: solved unthrottled");
	EQ_DBL(verdict_res_seconds(&s, 0, g.cg[cg].quota_res), 0, TOL,
	       "quota: not throttled, not charged");
	vsolution_free(&s);
	vgraph_free(&g);
}

/* Two roots (a night): each root's charges apart, each adding up to its
 * own seconds. */
static void test_roots(void)
{
	struct vgraph g;
	OK(!one(&g, 10), "roots: graph");
	int h = vgraph_host(&g, "srv");
	int a = proc(&g, h, 100, "a", 0, 10, (double[VS_N]){ [VS_RUN] = 2 });
	int b = proc(&g, h, 101, "b", 0, 5, (double[VS_N]){ [VS_SLEEP] = 1 });
	int d = proc(&g, h, 102, "db", 0, 10, (double[VS_N]){ [VS_DISK] = 10 });
	waits(&g, a, d, "unix", 0, 8);
	waits(&g, b, d, "unix", 0, 4);
	struct vsolution s;
	OK(!verdict_solve(&g, (int[]){ a, b }, 2, &s), "roots: solved");
	EQ_DBL(total(&s, 0), 10, TOL, "roots: a's 10 s");
	EQ_DBL(total(&s, 1), 5, TOL, "roots: b's 5 s");
	EQ_DBL(verdict_res_seconds(&s, 1, g.host[h].disk), 4, TOL,
	       "roots: b's 4 s on the disk");
	EQ_DBL(verdict_res_seconds(&s, 1, g.host[h].pacing), 1, TOL,
	       "roots: b's own pacing");
	vsolution_free(&s);
	vgraph_free(&g);
}

/* Two waiters on one process (a diamond): it absorbs at most its own
 * seconds in all, not its seconds once per path to it. */
static void test_diamond(void)
{
	struct vgraph g;
	OK(!one(&g, 10), "diamond: graph");
	int h = vgraph_host(&g, "cli");
	int r = proc(&g, h, 300, "root", 0, 10, (double[VS_N]){ 0 });
	int a = proc(&g, h, 301, "a", 0, 10, (double[VS_N]){ [VS_IDLE] = 5 });
	int b = proc(&g, h, 302, "b", 0, 10, (double[VS_N]){ [VS_IDLE] = 5 });
	int p = proc(&g, h, 303, "p", 0, 10, (double[VS_N]){ [VS_RUN] = 5,
							   [VS_OTHER] = 5 });
	waits(&g, r, a, "pipe", 0, 5);
	waits(&g, r, b, "pipe", 0, 5);
	waits(&g, a, p, "unix", 0, 5);
	waits(&g, b, p, "unix", 0, 5);
	struct vsolution s;
	OK(!verdict_solve(&g, &r, 1, &s), "diamond: solved");
	EQ_DBL(by(&s, g.host[h].cpu, p), 5, TOL, "diamond: p's 5 s, once");
	EQ_DBL(by(&s, g.host[h].unseen, p), 5, TOL,
	       "diamond: the rest, p's waits on nothing known");
	EQ_DBL(total(&s, 0), 10, TOL, "diamond: 10 s");
	vsolution_free(&s);
	vgraph_free(&g);
}

/* A chain longer than VERDICT_DEPTH: the rest is not seen, every second
 * still charged once. */
static void test_depth(void)
{
	struct vgraph g;
	OK(!one(&g, 1), "depth: graph");
	int h = vgraph_host(&g, "cli");
	int prev = -1, first = -1;
	for (int k = 0; k < VERDICT_DEPTH + 8; k++) {
		int p = proc(&g, h, 200 + k, "link", 0, 1, (double[VS_N]){ 0 });
		if (prev >= 0)
			waits(&g, prev, p, "pipe", 0, 1);
		else
			first = p;
		prev = p;
	}
	vgraph_sec(&g, prev, 0)[VS_RUN] = 1;
	struct vsolution s;
	OK(!verdict_solve(&g, &first, 1, &s), "depth: solved");
	EQ_DBL(total(&s, 0), 1, TOL, "depth: 1 s charged");
	EQ_DBL(verdict_res_seconds(&s, 0, g.host[h].unseen), 1, TOL,
	       "depth: past the bound, not seen");
	vsolution_free(&s);
	vgraph_free(&g);
}

/* make demo under CPU contention: its server and two clients are all
 * "perflog" (4, 3 and 3 s of CPU): by comm one command of 3 processes
 * none of which holds half ("the stage perflog ... in 3 processes",
 * t5160 beside a load of 20); grouped by their stages' names, the
 * server alone. A shell's loop of gzips still groups by their one name. */
static void test_groups(void)
{
	struct vgraph g;
	OK(!one(&g, 10), "groups: graph");
	int h = vgraph_host(&g, "cli");
	int sh = proc(&g, h, 40, "sh", 0, 10, (double[VS_N]){ 0 });
	int srv = proc(&g, h, 41, "perflog", 0, 10,
		       (double[VS_N]){ [VS_RUN] = 1, [VS_RUNQ] = 3 });
	int c1 = proc(&g, h, 42, "perflog", 0, 10,
		      (double[VS_N]){ [VS_RUN] = 1, [VS_RUNQ] = 2 });
	int c2 = proc(&g, h, 43, "perflog", 0, 10,
		      (double[VS_N]){ [VS_RUN] = 1, [VS_RUNQ] = 2 });
	waits(&g, sh, srv, "child", 0, 4);
	waits(&g, sh, c1, "child", 0, 3);
	waits(&g, sh, c2, "child", 0, 3);
	struct vsolution s;
	OK(!verdict_solve(&g, &sh, 1, &s), "groups: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_INT(v.nprocs, 3, "groups: by comm, one command of 3 processes");
	snprintf(g.proc[srv].group, sizeof g.proc[srv].group, "server");
	snprintf(g.proc[c1].group, sizeof g.proc[c1].group, "1m1k client");
	snprintf(g.proc[c2].group, sizeof g.proc[c2].group, "10m10k client");
	verdict_of(&g, &s, 0, &v);
	EQ_INT(v.proc, srv, "groups: by stage, the server");
	EQ_INT(v.nprocs, 1, "groups: by stage, alone");
	EQ_DBL(v.proc_sec, 4, TOL, "groups: its 4 s");
	vsolution_free(&s);
	vgraph_free(&g);
}

static void test_words(void)
{
	EQ_STR(verdict_kind_word(verdict_word(VRES_CPU)->kind), "CPU", "words: cpu");
	EQ_STR(verdict_kind_word(verdict_word(VRES_QUOTA)->kind), "CPU", "words: quota");
	EQ_STR(verdict_kind_word(verdict_word(VRES_DISK)->kind), "disk", "words: disk");
	EQ_STR(verdict_kind_word(verdict_word(VRES_NET)->kind), "network", "words: net");
	EQ_STR(verdict_kind_word(verdict_word(VRES_MEMORY)->kind), "memory", "words: memory");
	EQ_STR(verdict_kind_word(verdict_word(VRES_PACING)->kind), "nothing", "words: paced");
	for (int t = 0; t < VRES_NTYPE; t++)
		OK(verdict_word((enum vres_type)t)->type == (enum vres_type)t &&
		   verdict_word((enum vres_type)t)->detail,
		   "words: a row for each resource");
}

int main(void)
{
	test_md5sum_after();
	test_tar_zstd_ssh();
	test_subshell_gzip_cat();
	test_first_stage_exits();
	test_pool();
	test_knot();
	test_knot_waits_out();
	two_hosts(15, 4, "disk", 13.5, "two hosts: the far disk");
	two_hosts(2, 17, "network", 15.3, "two hosts: the network");
	test_far_relay();
	test_not_seen();
	test_quota();
	test_roots();
	test_diamond();
	test_depth();
	test_groups();
	test_words();
	return done_testing();
}
