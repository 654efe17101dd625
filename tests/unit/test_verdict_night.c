/*
 * test_verdict_night.c - a night's shared limit (verdict.h verdict_night,
 * issue 47) on graphs written by hand: two sessions on one disk, one of
 * three under its own quota beside two on the disk, sessions that do not
 * overlap (no shared limit), one that overlaps only part of the others
 * (its seconds counted only while they ran together), a session with no
 * root, a disk only one session used (its own, not shared), a
 * server's connections each on its peer's network path (one client's
 * shaped link its own, the disk shared) and two clients behind one
 * NAT'ed uplink (one address: one path, shared).
 */
#include "../../verdict/verdict.h"
#include "tap.h"

#define TOL 1e-6

/* A process of host h alone in its tree, with its seconds (the states
 * in enum vstate order). */
static int proc(struct vgraph *g, int h, pid_t pid, const char *tree,
		double alive, const double st[VS_N])
{
	int p = vgraph_proc(g, h, pid, tree, tree);
	if (p < 0)
		return -1;
	g->proc[p].alive[0] = alive;
	for (int s = 0; s < VS_N; s++)
		vgraph_sec(g, p, 0)[s] = st[s];
	return p;
}

/* Solve the roots and the night of sessions in[] (root k for in[k]). */
static int night(struct vgraph *g, const int *roots, size_t n,
		 struct vnight_in *in, struct vsolution *s, struct vnight *nt)
{
	for (size_t k = 0; k < n; k++)
		if (in[k].root >= 0)
			in[k].root = (int)k;
	if (verdict_solve(g, roots, n, s))
		return -1;
	return verdict_night(g, s, in, n, nt);
}

/* Two writers on one disk, 10 s and 6 s, the second from 2 s to 8 s:
 * the disk is shared, each one's seconds on it while both ran. */
static void test_two_on_disk(void)
{
	struct vgraph g;
	double len = 10;
	OK(!vgraph_init(&g, 1, &len), "two on disk: graph");
	int h = vgraph_host(&g, "srv");
	int d = vgraph_res(&g, VRES_DISK, h, -1, "vdb");
	int a = proc(&g, h, 100, "w1", 10, (double[VS_N]){ [VS_RUN] = 1, [VS_DISK] = 9 });
	int b = proc(&g, h, 101, "w2", 6, (double[VS_N]){ [VS_DISK] = 6 });
	g.proc[a].disk_res = g.proc[b].disk_res = d;
	struct vnight_in in[] = { { 0, 10, 0 }, { 2, 8, 0 } };
	struct vsolution s;
	struct vnight nt;
	OK(!night(&g, (int[]){ a, b }, 2, in, &s, &nt), "two on disk: solved");
	EQ_INT(nt.shared, d, "two on disk: the disk is shared");
	EQ_DBL(nt.overlapped, 6, TOL, "two on disk: 6 s together");
	EQ_DBL(nt.together, 6, TOL, "two on disk: both held it 6 s");
	/* w1's 9 s of 10 spread evenly: 5.4 s of the 6 together */
	EQ_DBL(nt.on[0], 5.4, TOL, "two on disk: w1 5.4 s on it");
	EQ_DBL(nt.on[1], 6, TOL, "two on disk: w2 6 s on it");
	OK(!nt.own[0] && !nt.own[1], "two on disk: neither on its own");
	EQ_INT(nt.v[0].kind, VERDICT_DISK, "two on disk: w1's verdict disk");
	EQ_DBL(nt.overlap[0], 6, TOL, "two on disk: w1 beside another 6 s");
	vnight_free(&nt);
	vsolution_free(&s);
	vgraph_free(&g);
}

/* Two writers on the disk and a burner under its own cgroup's quota,
 * all at once: the burner is held by its own quota and not counted; the
 * disk is shared by the other two. Its few seconds on the host's CPUs
 * (the share its quota did not throttle) make no shared CPU. */
static void test_own_quota(void)
{
	struct vgraph g;
	double len = 8;
	OK(!vgraph_init(&g, 1, &len), "own quota: graph");
	int h = vgraph_host(&g, "srv");
	int d = vgraph_res(&g, VRES_DISK, h, -1, "vdb");
	int cg = vgraph_cgroup(&g, h, "burn", 0.2, 0);
	g.cg[cg].throttled[0] = 0.9;
	int a = proc(&g, h, 100, "w1", 8, (double[VS_N]){ [VS_DISK] = 7.5, [VS_RUN] = 0.5 });
	int b = proc(&g, h, 101, "w2", 8, (double[VS_N]){ [VS_DISK] = 7, [VS_RUNQ] = 1 });
	int c = proc(&g, h, 102, "burn", 8, (double[VS_N]){ [VS_RUN] = 1.6, [VS_RUNQ] = 6.4 });
	g.proc[a].disk_res = g.proc[b].disk_res = d;
	g.proc[c].cgroup = cg;
	struct vnight_in in[] = { { 0, 8, 0 }, { 0, 8, 0 }, { 0, 8, 0 } };
	struct vsolution s;
	struct vnight nt;
	OK(!night(&g, (int[]){ a, b, c }, 3, in, &s, &nt), "own quota: solved");
	EQ_STR(nt.v[2].word->detail, "cpu-quota", "own quota: burn's verdict its quota");
	OK(nt.own[2], "own quota: burn held by its own");
	OK(!nt.own[0] && !nt.own[1], "own quota: the writers not on their own");
	EQ_INT(nt.shared, d, "own quota: the disk is shared");
	EQ_DBL(nt.on[0], 7.5, TOL, "own quota: w1 7.5 s on the disk");
	EQ_DBL(nt.on[1], 7, TOL, "own quota: w2 7 s on the disk");
	EQ_DBL(nt.on[2], 0, TOL, "own quota: burn not counted");
	vnight_free(&nt);
	vsolution_free(&s);
	vgraph_free(&g);
}

/* Sessions one after the other: no overlap, no shared limit, no one
 * "on its own" (there was no one beside it). */
static void test_apart(void)
{
	struct vgraph g;
	double len = 10;
	OK(!vgraph_init(&g, 1, &len), "apart: graph");
	int h = vgraph_host(&g, "srv");
	int a = proc(&g, h, 100, "w1", 4, (double[VS_N]){ [VS_DISK] = 4 });
	int b = proc(&g, h, 101, "w2", 5, (double[VS_N]){ [VS_DISK] = 5 });
	struct vnight_in in[] = { { 0, 4, 0 }, { 5, 10, 0 } };
	struct vsolution s;
	struct vnight nt;
	OK(!night(&g, (int[]){ a, b }, 2, in, &s, &nt), "apart: solved");
	EQ_INT(nt.shared, -1, "apart: no shared limit");
	EQ_DBL(nt.overlapped, 0, TOL, "apart: never together");
	OK(!nt.own[0] && !nt.own[1], "apart: no one on its own");
	vnight_free(&nt);
	vsolution_free(&s);
	vgraph_free(&g);
}

/* Two sessions together on two disks of their own, and a session with no
 * root (no tree's rows): each disk is its user's own, nothing is shared;
 * the rootless one has no verdict. */
static void test_own_disks(void)
{
	struct vgraph g;
	double len = 6;
	OK(!vgraph_init(&g, 1, &len), "own disks: graph");
	int h = vgraph_host(&g, "srv");
	int a = proc(&g, h, 100, "w1", 6, (double[VS_N]){ [VS_DISK] = 6 });
	int b = proc(&g, h, 101, "w2", 6, (double[VS_N]){ [VS_DISK] = 6 });
	g.proc[a].disk_res = vgraph_res(&g, VRES_DISK, h, -1, "vdb");
	g.proc[b].disk_res = vgraph_res(&g, VRES_DISK, h, -1, "vdc");
	struct vnight_in in[] = { { 0, 6, 0 }, { 0, 6, 0 }, { 1, 5, -1 } };
	struct vsolution s;
	struct vnight nt;
	OK(!verdict_solve(&g, (int[]){ a, b }, 2, &s), "own disks: solved");
	in[1].root = 1;
	OK(!verdict_night(&g, &s, in, 3, &nt), "own disks: the night");
	EQ_INT(nt.shared, -1, "own disks: nothing shared");
	OK(nt.own[0] && nt.own[1], "own disks: each on its own disk");
	EQ_INT(nt.v[2].res, -1, "own disks: no root, no verdict");
	OK(!nt.own[2], "own disks: no root, not on its own");
	EQ_DBL(nt.overlap[2], 4, TOL, "own disks: the rootless one beside the others 4 s");
	vnight_free(&nt);
	vsolution_free(&s);
	vgraph_free(&g);
}

/* Three sessions on the host's CPUs: the CPU is shared; one that used
 * the CPU under VERDICT_NIGHT_HELD of its time (it waited on pacing)
 * is no holder. */
static void test_cpu_held(void)
{
	struct vgraph g;
	double len = 10;
	OK(!vgraph_init(&g, 1, &len), "cpu: graph");
	int h = vgraph_host(&g, "srv");
	int a = proc(&g, h, 100, "z1", 10, (double[VS_N]){ [VS_RUN] = 5, [VS_RUNQ] = 5 });
	int b = proc(&g, h, 101, "z2", 10, (double[VS_N]){ [VS_RUN] = 6, [VS_RUNQ] = 4 });
	int c = proc(&g, h, 102, "p", 10, (double[VS_N]){ [VS_RUN] = 0.5, [VS_SLEEP] = 9.5 });
	struct vnight_in in[] = { { 0, 10, 0 }, { 0, 10, 0 }, { 0, 10, 0 } };
	struct vsolution s;
	struct vnight nt;
	OK(!night(&g, (int[]){ a, b, c }, 3, in, &s, &nt), "cpu: solved");
	EQ_INT(nt.shared, g.host[h].cpu, "cpu: the host's CPUs shared");
	EQ_DBL(nt.on[0], 10, TOL, "cpu: z1 10 s");
	EQ_DBL(nt.on[1], 10, TOL, "cpu: z2 10 s");
	EQ_DBL(nt.on[2], 0, TOL, "cpu: the paced one no holder");
	EQ_INT(nt.v[2].kind, VERDICT_NOTHING, "cpu: the paced one's verdict nothing");
	OK(!nt.own[2], "cpu: pacing is no resource of its own to say");
	vnight_free(&nt);
	vsolution_free(&s);
	vgraph_free(&g);
}

/* A wait of p on network path res, x seconds. */
static int net_wait(struct vgraph *g, int p, int res, double x)
{
	int e = vgraph_edge(g, p, -1, res, "net");
	if (e < 0)
		return -1;
	g->edge[e].sec[0] = x;
	return e;
}

/* A server's connections, each on the path to its own peer (the
 * interface and the client's address: vgraph_net): tar's client's link
 * shaped, its sshd on its path; two receivers on the server's disk,
 * each with a few seconds on its own path. tar is held back by its own
 * link and not counted; the disk is shared, the paths are not (on one
 * path for every client they were: the network, tar counted in it). */
static void test_own_link(void)
{
	struct vgraph g;
	double len = 8;
	OK(!vgraph_init(&g, 1, &len), "own link: graph");
	int h = vgraph_host(&g, "srv");
	int d = vgraph_res(&g, VRES_DISK, h, -1, "vda");
	int pt = vgraph_net(&g, h, -1, "eth0", "10.0.0.7");
	int p1 = vgraph_net(&g, h, -1, "eth0", "10.0.0.8");
	int p2 = vgraph_net(&g, h, -1, "eth0", "10.0.0.9");
	EQ_INT(vgraph_net(&g, h, -1, "eth0", "10.0.0.7"), pt, "own link: a path by its identity");
	OK(pt != p1 && p1 != p2 && pt != g.host[h].net,
	   "own link: a path a peer, not the interface's");
	int t = proc(&g, h, 100, "tar", 8, (double[VS_N]){ [VS_RUN] = 0.4 });
	int a = proc(&g, h, 101, "w1", 8, (double[VS_N]){ [VS_RUN] = 0.5, [VS_DISK] = 6 });
	int b = proc(&g, h, 102, "w2", 6, (double[VS_N]){ [VS_RUN] = 0.5, [VS_DISK] = 4.5 });
	g.proc[a].disk_res = g.proc[b].disk_res = d;
	OK(net_wait(&g, t, pt, 7.6) >= 0 && net_wait(&g, a, p1, 1.5) >= 0 &&
	   net_wait(&g, b, p2, 1) >= 0, "own link: the waits on the paths");
	struct vnight_in in[] = { { 0, 8, 0 }, { 0, 8, 0 }, { 1, 7, 0 } };
	struct vsolution s;
	struct vnight nt;
	OK(!night(&g, (int[]){ t, a, b }, 3, in, &s, &nt), "own link: solved");
	EQ_INT(nt.v[0].res, pt, "own link: tar held by its path");
	OK(nt.own[0], "own link: its own");
	EQ_INT(nt.shared, d, "own link: the server's disk is shared");
	EQ_DBL(nt.on[0], 0, TOL, "own link: tar not counted");
	EQ_DBL(nt.on[1], 4.5, TOL, "own link: w1's 6 s of 8 over the 6 s together");
	EQ_DBL(nt.on[2], 4.5, TOL, "own link: w2 4.5 s");
	vnight_free(&nt);
	vsolution_free(&s);
	vgraph_free(&g);
}

/* Two clients behind one NAT'ed uplink, shaped: one address, so one
 * path, both held on it: the network is shared. */
static void test_one_uplink(void)
{
	struct vgraph g;
	double len = 5;
	OK(!vgraph_init(&g, 1, &len), "one uplink: graph");
	int h = vgraph_host(&g, "srv");
	int up = vgraph_net(&g, h, -1, "eth0", "192.0.2.1");
	int a = proc(&g, h, 100, "c1", 5, (double[VS_N]){ [VS_RUN] = 0.5 });
	int b = proc(&g, h, 101, "c2", 5, (double[VS_N]){ [VS_RUN] = 1 });
	OK(net_wait(&g, a, up, 4.5) >= 0 && net_wait(&g, b, up, 4) >= 0,
	   "one uplink: the waits on the path");
	struct vnight_in in[] = { { 0, 5, 0 }, { 0, 5, 0 } };
	struct vsolution s;
	struct vnight nt;
	OK(!night(&g, (int[]){ a, b }, 2, in, &s, &nt), "one uplink: solved");
	EQ_INT(nt.shared, up, "one uplink: its path shared");
	OK(!nt.own[0] && !nt.own[1], "one uplink: no one on its own");
	EQ_DBL(nt.on[0] + nt.on[1], 8.5, TOL, "one uplink: 4.5 s and 4 s on it");
	vnight_free(&nt);
	vsolution_free(&s);
	vgraph_free(&g);
}

int main(void)
{
	test_two_on_disk();
	test_own_quota();
	test_apart();
	test_own_disks();
	test_cpu_held();
	test_own_link();
	test_one_uplink();
	return done_testing();
}
