/*
 * test_verdict_build.c - a session's graph from the rows of its trees'
 * files (verdict/build.c), the texts read by the files' own parsers as
 * the report reads them: rsync over ssh to a second host whose sshd is
 * watched (the client's net edge joined to sshd by its mirrored
 * addresses, the edges' seconds out of the processes' states, an idle
 * thread, a child by command, a peer not seen, a memory limit), solved:
 * the server's disk, in seconds; a server's connections, each on the
 * path to its own peer (test_paths_by_peer); a memory limit's running
 * (test_memory_running).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "verdictfix.h"

/* "WHAT CASE: PART" into name[96], for a check of a case of a table. */
static const char *named(char name[96], const char *what, const char *c,
			 const char *part)
{
	snprintf(name, 96, "%s %s: %s", what, c, part);
	return name;
}

static void test_rsync_over_ssh(void)
{
	struct parsed cl, sv;
	/* the client: sh runs rsync, rsync's sender and ssh wait on each
	 * other, ssh on its socket to the server; a helper thread of ssh
	 * parked all along; rsync's wait on an agent nobody watched */
	parse(&cl, WH
	      "9\tsh\t1\t8.000\t0.001\t0.000\t0.000\t0.000\t7.999\t0.000\t100\t0\t1\t9\n"
	      "10\trsync\t2\t8.000\t0.600\t0.000\t0.100\t0.000\t7.300\t0.000\t9000000\t1\t1\t10\n"
	      "11\tssh\t3\t8.000\t0.400\t0.000\t0.000\t1.000\t6.600\t0.000\t9000000\t1\t1\t11\n"
	      "12\tssh\t3\t8.000\t0.000\t0.000\t0.000\t0.000\t8.000\t0.000\t0\t0\t1\t11\n",
	      EH
	      "9\tsh\tin\tchild\t0\trsync\t-\t-\t7.999\t-\n"
	      "10\trsync\tout\tpipe\t11\tssh\t-\t-\t7.000\t-\n"
	      "10\trsync\tin\tunix\t77\tagent\t-\t-\t0.200\t-\n"
	      "11\tssh\tout\tnet\t0\teth0\t10.0.0.1:40000\t10.0.0.2:22\t1.000\t-\n"
	      "11\tssh\tin\tpipe\t10\trsync\t-\t-\t6.000\t-\n");
	/* the server: sshd of the connection and rsync fsync'ing on vdb */
	parse(&sv, WH
	      "19\tsshd\t1\t8.000\t0.300\t0.000\t0.000\t0.500\t7.200\t0.000\t9000000\t1\t1\t19\n"
	      "20\trsync\t2\t8.000\t0.400\t0.000\t7.300\t0.000\t0.300\t0.000\t9000000\t1\t1\t20\n",
	      EH
	      "19\tsshd\tin\tnet\t0\teth0\t10.0.0.2:22\t10.0.0.1:40000\t0.500\t-\n"
	      "19\tsshd\tout\tpipe\t20\trsync\t-\t-\t6.500\t-\n"
	      "20\trsync\tin\tpipe\t19\tsshd\t-\t-\t0.300\t-\n");
	struct verdict_tree_in in[2] = {
		{ .host = "vm", .label = "sync", .waits = &cl.w, .edges = cl.e,
		  .nedges = (size_t)cl.ne, .disk = "sda",
		  .cg = { .name = "sync.scope", .quota = NAN,
			  .memory_limit = 1, .memory_stall = 0.01 } },
		{ .host = "srv", .label = "sync", .waits = &sv.w, .edges = sv.e,
		  .nedges = (size_t)sv.ne, .disk = "vdb" },
	};
	struct vgraph g;
	OK(!verdict_build(&g, in, 2, NAN, 8.0), "rsync/ssh: built");
	int sh = find(&g, "vm", 9), rs = find(&g, "vm", 10);
	int ssh = find(&g, "vm", 11), agent = find(&g, "vm", 77);
	int sshd = find(&g, "srv", 19), srs = find(&g, "srv", 20);
	OK(sh >= 0 && rs >= 0 && ssh >= 0 && agent >= 0 && sshd >= 0 && srs >= 0,
	   "rsync/ssh: every process, the agent too");
	EQ_INT(verdict_tree_root(&g, "vm", "sync"), sh,
	       "rsync/ssh: the root is the tree's first process");
	EQ_DBL(g.proc[agent].alive[0], 0, TOL, "rsync/ssh: the agent has no seconds");
	const double *s_ssh = vgraph_sec(&g, ssh, 0);
	EQ_DBL(s_ssh[VS_NET], 0, TOL, "rsync/ssh: ssh's net wait is its edge's");
	EQ_DBL(s_ssh[VS_OTHER], 6.6 - 0.08 - 6.0, TOL,
	       "rsync/ssh: ssh's other less its memory stall and its pipe wait");
	EQ_DBL(s_ssh[VS_IDLE], 8, TOL, "rsync/ssh: the parked thread is idle");
	const double *s_rs = vgraph_sec(&g, rs, 0);
	EQ_DBL(s_rs[VS_MEMORY], 0.08, TOL, "rsync/ssh: 1% of 8 s stalled on memory");
	EQ_DBL(s_rs[VS_DISK], 0.02, TOL, "rsync/ssh: taken from its disk first");
	EQ_DBL(s_rs[VS_OTHER], 0.1, TOL, "rsync/ssh: its other less its two waits");
	EQ_DBL(vgraph_sec(&g, sh, 0)[VS_IDLE], 0, TOL,
	       "rsync/ssh: the shell's wait is its child edge");
	int net = -1, child = -1;
	for (size_t e = 0; e < g.nedge; e++) {
		if (g.edge[e].from == ssh && g.edge[e].res >= 0)
			net = (int)e;
		if (g.edge[e].from == sh)
			child = (int)e;
	}
	OK(net >= 0 && g.edge[net].to == sshd, "rsync/ssh: ssh's net edge reaches sshd");
	OK(net >= 0 && g.res[g.edge[net].res].far_host == g.proc[sshd].host &&
	   !strcmp(g.res[g.edge[net].res].name, "eth0"),
	   "rsync/ssh: through the path vm -> srv on eth0");
	OK(child >= 0 && g.edge[child].to == rs, "rsync/ssh: the child by its command");

	struct vsolution s;
	OK(!verdict_solve(&g, &sh, 1, &s), "rsync/ssh: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_STR(verdict_kind_word(v.kind), "disk", "rsync/ssh: disk");
	EQ_STR(g.host[v.host].name, "srv", "rsync/ssh: on srv");
	EQ_STR(g.res[v.res].name, "vdb", "rsync/ssh: vdb, the device of its files");
	EQ_INT(v.proc, srs, "rsync/ssh: the server's rsync");
	double total = 0;
	for (size_t k = 0; k < s.n; k++)
		total += s.c[k].sec;
	EQ_DBL(total, 8.0, 1e-3, "rsync/ssh: the session's 8 s, each once");
	OK(v.sec > 3.0 && v.sec < 8.0, "rsync/ssh: seconds, not a share of a life");
	vsolution_free(&s);
	vgraph_free(&g);
	unparse(&cl);
	unparse(&sv);
}

/* rsync over ssh with the server's sshd not watched: no row mirrors
 * ssh's; the report has one other host, so the edge reaches its tree's
 * root, the server's rsync. */
static void test_far_unwatched(void)
{
	struct parsed cl, sv;
	parse(&cl, WH
	      "11\tssh\t3\t8.000\t0.400\t0.000\t0.000\t7.600\t0.000\t0.000\t9000000\t1\t1\t11\n",
	      EH
	      "11\tssh\tout\tnet\t0\teth0\t10.0.0.1:40000\t10.0.0.2:22\t7.600\t-\n");
	parse(&sv, WH
	      "20\trsync\t2\t8.000\t0.400\t0.000\t7.300\t0.000\t0.300\t0.000\t9000000\t1\t1\t20\n",
	      EH
	      "20\trsync\tin\tpipe\t19\tsshd\t-\t-\t0.300\t-\n");
	struct verdict_tree_in in[2] = {
		{ .host = "vm", .label = "sync", .waits = &cl.w, .edges = cl.e,
		  .nedges = (size_t)cl.ne, .cg = { .quota = NAN } },
		{ .host = "srv", .label = "sync", .waits = &sv.w, .edges = sv.e,
		  .nedges = (size_t)sv.ne, .disk = "vdb", .cg = { .quota = NAN } },
	};
	struct vgraph g;
	OK(!verdict_build(&g, in, 2, NAN, 8.0), "unwatched sshd: built");
	int ssh = find(&g, "vm", 11), srs = find(&g, "srv", 20);
	int net = -1;
	for (size_t e = 0; e < g.nedge; e++)
		if (g.edge[e].from == ssh && g.edge[e].res >= 0)
			net = (int)e;
	OK(net >= 0 && g.edge[net].to == srs,
	   "unwatched sshd: ssh's net edge reaches the server's tree root");
	OK(net >= 0 && g.res[g.edge[net].res].far_host == g.proc[srs].host,
	   "unwatched sshd: through the path vm -> srv");
	struct vsolution s;
	OK(!verdict_solve(&g, &ssh, 1, &s), "unwatched sshd: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_STR(verdict_kind_word(v.kind), "disk", "unwatched sshd: the far disk");
	EQ_STR(g.res[v.res].name, "vdb", "unwatched sshd: vdb");
	EQ_DBL(v.sec, 7.6 * 7.3 / 8.0, TOL, "unwatched sshd: its share of ssh's wait");
	vsolution_free(&s);
	vgraph_free(&g);
	unparse(&cl);
	unparse(&sv);
}

/* A file of before issue 29 (no pid column): the tree is one process. */
static void test_old_file(void)
{
	struct parsed p;
	const char *w = "tid\tcomm\tstart\talive\tcpu\tcpu_wait\tdisk\tnet\tother\tsleep\tio_bytes\tworking\n"
			"5\tgzip\t1\t4.000\t3.500\t0.100\t0.000\t0.000\t0.400\t0.000\t9000000\t1\n"
			"6\ttar\t1\t4.000\t0.500\t0.000\t3.500\t0.000\t0.000\t0.000\t9000000\t1\n";
	parse(&p, w, EH);
	struct verdict_tree_in in = { .host = "h", .label = "backup",
				      .waits = &p.w, .cg = { .quota = NAN } };
	struct vgraph g;
	OK(!verdict_build(&g, &in, 1, NAN, 4.0), "old: built");
	EQ_INT(g.nproc, 1, "old: one process");
	int r = verdict_tree_root(&g, "h", "backup");
	EQ_DBL(vgraph_sec(&g, r, 0)[VS_RUN], 4.0, TOL, "old: its threads' CPU");
	struct vsolution s;
	OK(!verdict_solve(&g, &r, 1, &s), "old: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	/* 4 s poured over run 4, runq 0.1, disk 3.5 */
	EQ_DBL(v.sec, 4.0 * 4.1 / 7.6, TOL, "old: CPU by its seconds");
	EQ_INT(v.runner_res, g.host[0].disk, "old: the disk within the margin");
	vsolution_free(&s);
	vgraph_free(&g);
	unparse(&p);
}

/* A local rsync --fsync, its three processes started in one tick: the
 * root is the one no other waits on (the generator, 101), and the
 * receiver's disk holds the session (t5130's set). */
static void test_local_rsync(void)
{
	struct parsed p;
	parse(&p, WH
	      "100\trsync\t1\t60.000\t4.800\t0.600\t0.000\t0.000\t54.600\t0.000\t9000000\t1\t1\t100\n"
	      "101\trsync\t1\t60.000\t1.800\t0.000\t1.200\t0.000\t57.000\t0.000\t90000\t1\t1\t101\n"
	      "102\trsync\t1\t60.000\t3.000\t0.000\t54.600\t0.000\t2.400\t0.000\t9000000\t1\t1\t102\n",
	      EH
	      "100\trsync\tout\tunix\t102\trsync\t-\t-\t51.000\t0\n"
	      "101\trsync\tout\tunix\t100\trsync\t-\t-\t54.000\t0\n"
	      "102\trsync\tin\tunix\t100\trsync\t-\t-\t2.400\t0\n");
	struct verdict_tree_in in = { .host = "vm", .label = "job",
				      .waits = &p.w, .edges = p.e,
				      .nedges = (size_t)p.ne, .disk = "sdb",
				      .cg = { .quota = NAN } };
	struct vgraph g;
	OK(!verdict_build(&g, &in, 1, NAN, 60.0), "local rsync: built");
	int r = verdict_tree_root(&g, "vm", "job");
	EQ_INT(r, find(&g, "vm", 101), "local rsync: the root is the generator");
	struct vsolution s;
	OK(!verdict_solve(&g, &r, 1, &s), "local rsync: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_STR(verdict_kind_word(v.kind), "disk", "local rsync: disk");
	EQ_STR(g.res[v.res].name, "sdb", "local rsync: sdb");
	EQ_INT(v.proc, find(&g, "vm", 102), "local rsync: the receiver");
	EQ_DBL(v.sec, 48.0, 1e-3, "local rsync: 48 s of 60");
	vsolution_free(&s);
	vgraph_free(&g);
	unparse(&p);
}

/* A local peer (issue 46 item 2, waits/waitrelay.c): head (21) waited
 * 5 s on a pipe to python3 (30), a process outside the tree the sampler
 * read while head's edge named it, its row marked peer. It started long
 * before the command, and is no root; its seconds are its own (a CPU
 * 4.6 s), so the verdict is the CPU, python3's, not "not seen". The same
 * process watched by another tree of the host (a local server under
 * mark --watch) counts once, as that tree's, its peer row and edges
 * left out. */
static void test_local_peer(void)
{
	struct parsed p, o;
	parse(&p, WH
	      "20\tsh\t500\t5.000\t0.001\t0.000\t0.000\t0.000\t4.999\t0.000\t100\t0\t1\t20\n"
	      "21\thead\t501\t5.000\t0.050\t0.000\t0.000\t0.000\t4.950\t0.000\t9000000\t1\t1\t21\n"
	      "30\tpython3\t7\t4.800\t4.600\t0.100\t0.000\t0.000\t0.100\t0.000\t9000000\t1\t1\t30\tpeer\n",
	      EH
	      "20\tsh\tin\tchild\t0\thead\t-\t-\t4.999\t-\n"
	      "21\thead\tout\tpipe\t30\tpython3\t-\t-\t4.900\t-\n"
	      "30\tpython3\tin\tpipe\t21\thead\t-\t-\t0.100\t-\n");
	OK(p.w.n == 3 && p.w.t[2].peer && !p.w.t[1].peer,
	   "local peer: its row read as a peer's");
	struct verdict_tree_in in = { .host = "vm", .label = "feed",
				      .waits = &p.w, .edges = p.e,
				      .nedges = (size_t)p.ne,
				      .cg = { .name = "feed.scope", .quota = NAN,
					      .memory_limit = 1,
					      .memory_stall = 0.5 } };
	struct vgraph g;
	OK(!verdict_build(&g, &in, 1, NAN, 5.0), "local peer: built");
	int r = verdict_tree_root(&g, "vm", "feed"), py = find(&g, "vm", 30);
	EQ_INT(r, find(&g, "vm", 20), "local peer: the root is the command, "
	       "not the peer started before it");
	OK(py >= 0 && !g.proc[py].tree[0], "local peer: in no tree");
	OK(py >= 0 && g.proc[py].cgroup < 0, "local peer: in no cgroup of the tree's");
	EQ_DBL(py >= 0 ? vgraph_sec(&g, py, 0)[VS_RUN] : -1, 4.6, TOL,
	       "local peer: its seconds on a CPU");
	EQ_DBL(py >= 0 ? vgraph_sec(&g, py, 0)[VS_MEMORY] : -1, 0, TOL,
	       "local peer: the tree's memory stall is not its");
	struct vsolution s;
	OK(!verdict_solve(&g, &r, 1, &s), "local peer: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_STR(verdict_kind_word(v.kind), "CPU", "local peer: CPU");
	EQ_INT(v.proc, py, "local peer: python3's");
	vsolution_free(&s);
	vgraph_free(&g);

	/* python3 is another tree's own process (watched): once */
	parse(&o, WH
	      "30\tpython3\t7\t5.000\t4.600\t0.100\t0.000\t0.000\t0.300\t0.000\t9000000\t1\t1\t30\n",
	      EH);
	struct verdict_tree_in two[2] = { in, { .host = "vm", .label = "srv",
		.waits = &o.w, .cg = { .quota = NAN } } };
	OK(!verdict_build(&g, two, 2, NAN, 5.0), "watched peer: built");
	py = find(&g, "vm", 30);
	EQ_DBL(py >= 0 ? vgraph_sec(&g, py, 0)[VS_RUN] : -1, 4.6, TOL,
	       "watched peer: its CPU once");
	OK(py >= 0 && !strcmp(g.proc[py].tree, "srv"), "watched peer: the tree's that watches it");
	size_t from_py = 0;
	for (size_t e = 0; e < g.nedge; e++)
		from_py += g.edge[e].from == py;
	EQ_INT((int)from_py, 0, "watched peer: the peer's edges left out");
	vgraph_free(&g);
	unparse(&o);
	unparse(&p);
}

/* A shell's loop of gzips, one after another (t3500's gzip1, a real
 * run's rows cut to three gzips): its wait4 is one child row by command
 * (no pid). Each gzip takes the share of it its seconds alive give, not
 * the first gzip all of it: before, the first, alive 0.18 s, received
 * the shell's 2.75 s and the rest went to "not seen" (the verdict
 * 'nothing' on a CPU-bound loop). */
/* The same loop read through pipes ($(gzip ...) in a loop: a new pipe
 * and a new child each command), its reads' edge by command as its
 * wait4's is (waitthread.c): shared by their seconds alive alike. */
static void loop_of(const char *kind)
{
	char edges[256], name[96];
	snprintf(edges, sizeof edges, EH "1\tsh\tin\t%s\t0\tgzip\t-\t-\t2.500\t-\n", kind);
	struct parsed p;
	parse(&p, WH
	      "1\tsh\t1\t3.000\t0.030\t0.000\t0.000\t0.000\t2.970\t0.000\t4200\t1\t1\t1\n"
	      "2\tgzip\t2\t1.000\t0.300\t0.650\t0.000\t0.000\t0.050\t0.000\t2100224\t1\t1\t2\n"
	      "3\tgzip\t3\t1.000\t0.300\t0.650\t0.000\t0.000\t0.050\t0.000\t2100224\t1\t1\t3\n"
	      "4\tgzip\t4\t0.500\t0.150\t0.320\t0.000\t0.000\t0.030\t0.000\t2100224\t1\t1\t4\n",
	      edges);
	struct verdict_tree_in in = { .host = "vm", .label = "gzip1",
				      .waits = &p.w, .edges = p.e,
				      .nedges = (size_t)p.ne,
				      .cg = { .quota = NAN } };
	struct vgraph g;
	OK(!verdict_build(&g, &in, 1, NAN, 3.0), named(name, "loop", kind, "built"));
	int sh = find(&g, "vm", 1), n = 0;
	double to[5] = { 0 };
	for (size_t e = 0; e < g.nedge; e++)
		if (g.edge[e].from == sh && g.edge[e].to >= 0) {
			to[g.proc[g.edge[e].to].pid] += g.edge[e].sec[0];
			n++;
		}
	EQ_INT(n, 3, named(name, "loop", kind, "an edge to each gzip"));
	EQ_DBL(to[2], 1.0, TOL, named(name, "loop", kind, "gzip 2 alive 1 s of 2.5: 1 s of the wait"));
	EQ_DBL(to[4], 0.5, TOL, named(name, "loop", kind, "gzip 4 alive 0.5 s: 0.5 s"));
	int r = verdict_tree_root(&g, "vm", "gzip1");
	struct vsolution s;
	OK(!verdict_solve(&g, &r, 1, &s), named(name, "loop", kind, "solved"));
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_STR(verdict_kind_word(v.kind), "CPU", named(name, "loop", kind, "CPU"));
	EQ_STR(g.proc[v.proc].comm, "gzip", named(name, "loop", kind, "gzip"));
	EQ_INT(v.nprocs, 3, named(name, "loop", kind, "the three gzips as one command"));
	OK(v.proc_sec > 2.3, named(name, "loop", kind, "the gzips' seconds on the CPU, summed"));
	vsolution_free(&s);
	vgraph_free(&g);
	unparse(&p);
}

static void test_loop_of_children(void)
{
	loop_of("child");
	loop_of("pipe");
}

/* A root shell in `wait` whose wait4 no edge row records (t3500's gzipN:
 * two loops in subshells of its own command; a real run's rows, the
 * gzips cut to two): it did no work (idle), and its seconds went to
 * "not seen" though the log sees its children. They are waits on the
 * tree's processes no child row of the tree names (its own children,
 * the subshells), by their seconds alive. */
static void test_root_without_edge(void)
{
	struct parsed p;
	parse(&p, WH
	      "10\tsh\t1\t3.752\t0.008\t0.056\t0.000\t0.000\t3.689\t0.000\t3980\t0\t1\t10\n"
	      "11\tsh\t2\t3.608\t0.015\t0.542\t0.000\t0.000\t3.051\t0.000\t99\t0\t1\t11\n"
	      "12\tsh\t2\t3.724\t0.014\t0.382\t0.000\t0.000\t3.328\t0.000\t110\t0\t1\t12\n"
	      "20\tgzip\t3\t3.000\t1.000\t1.900\t0.000\t0.000\t0.100\t0.000\t2100224\t1\t1\t20\n"
	      "21\tgzip\t3\t3.000\t1.000\t1.900\t0.000\t0.000\t0.100\t0.000\t2100224\t1\t1\t21\n",
	      EH
	      "11\tsh\tin\tchild\t0\tgzip\t-\t-\t2.670\t-\n"
	      "12\tsh\tin\tchild\t0\tgzip\t-\t-\t2.363\t-\n");
	struct verdict_tree_in in = { .host = "vm", .label = "gzipN",
				      .waits = &p.w, .edges = p.e,
				      .nedges = (size_t)p.ne,
				      .cg = { .quota = NAN } };
	struct vgraph g;
	OK(!verdict_build(&g, &in, 1, NAN, 3.8), "root wait: built");
	int root = verdict_tree_root(&g, "vm", "gzipN");
	EQ_INT(root, find(&g, "vm", 10), "root wait: the first shell");
	double kids = 0, gz = 0;
	for (size_t e = 0; e < g.nedge; e++)
		if (g.edge[e].from == root && g.edge[e].to >= 0) {
			if (!strcmp(g.proc[g.edge[e].to].comm, "sh"))
				kids += g.edge[e].sec[0];
			else
				gz += g.edge[e].sec[0];
		}
	EQ_DBL(kids, 3.689, 1e-3, "root wait: its 3.7 s of idle are waits on its subshells");
	EQ_DBL(gz, 0, TOL, "root wait: not on the gzips its subshells wait on");
	struct vsolution s;
	OK(!verdict_solve(&g, &root, 1, &s), "root wait: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_STR(verdict_kind_word(v.kind), "CPU", "root wait: CPU, not 'not seen'");
	EQ_STR(g.proc[v.proc].comm, "gzip", "root wait: gzip");
	vsolution_free(&s);
	vgraph_free(&g);
	unparse(&p);
}

/* The disk a process waited on is the one its disk edges name, not the
 * host's busiest (the tree's .disk): dd writing to a throttled loop1
 * while another writer kept loop2 busier said "loop2 25% busy at 0 B/s"
 * (issue 46). A disk edge is no wait on a process: no process "loop1"
 * in the graph, nothing taken from dd's states. */
static void test_disk_edge(void)
{
	struct parsed p;
	parse(&p, WH
	      "49\tsh\t1\t10.000\t0.010\t0.000\t0.000\t0.000\t9.990\t0.000\t100\t0\t1\t49\n"
	      "50\tdd\t2\t10.000\t0.400\t0.000\t9.000\t0.000\t0.000\t0.600\t90000000\t1\t1\t50\n"
	      "51\tcat\t2\t10.000\t0.300\t0.000\t0.500\t0.000\t0.000\t9.200\t9000000\t1\t1\t51\n",
	      EH
	      "49\tsh\tin\tchild\t0\tdd\t-\t-\t9.990\t-\n"
	      "50\tdd\tout\tdisk\t0\tloop1\t-\t-\t8.000\t-\n"
	      "50\tdd\tin\tdisk\t0\tloop3\t-\t-\t0.500\t-\n"
	      "50\tdd\tout\tdisk\t0\tloop3\t-\t-\t0.400\t-\n"
	      "51\tcat\tin\tdisk\t0\tloop3\t-\t-\t0.500\t-\n");
	struct verdict_tree_in in = { .host = "vm", .label = "job",
				      .waits = &p.w, .edges = p.e,
				      .nedges = (size_t)p.ne, .disk = "loop2",
				      .cg = { .quota = NAN } };
	struct vgraph g;
	OK(!verdict_build(&g, &in, 1, NAN, 10.0), "disk edge: built");
	EQ_INT(g.nproc, 3, "disk edge: sh, dd and cat, no process for a disk");
	int dd = find(&g, "vm", 50), cat = find(&g, "vm", 51);
	OK(dd >= 0 && g.proc[dd].disk_res >= 0 &&
	   !strcmp(g.res[g.proc[dd].disk_res].name, "loop1"),
	   "disk edge: dd's disk is loop1, its edges' most (8 s of 8.9)");
	OK(cat >= 0 && g.proc[cat].disk_res >= 0 &&
	   !strcmp(g.res[g.proc[cat].disk_res].name, "loop3"),
	   "disk edge: cat's is loop3, its own");
	EQ_DBL(dd >= 0 ? vgraph_sec(&g, dd, 0)[VS_DISK] : -1, 9.0, TOL,
	       "disk edge: dd's disk seconds left as they are");
	int r = verdict_tree_root(&g, "vm", "job");
	struct vsolution s;
	OK(!verdict_solve(&g, &r, 1, &s), "disk edge: solved");
	struct verdict v;
	verdict_of(&g, &s, 0, &v);
	EQ_STR(verdict_kind_word(v.kind), "disk", "disk edge: disk");
	EQ_STR(g.res[v.res].name, "loop1", "disk edge: loop1, not the busiest loop2");
	EQ_INT(v.proc, dd, "disk edge: dd used it");
	vsolution_free(&s);
	vgraph_free(&g);
	unparse(&p);
}

/* A night at the server (issue 47, t3742): three connections to its
 * sshd, each a tree of its own, no perflog on the clients, no other
 * host. tar's client has its link shaped: its sshd waits on its socket
 * to 10.0.0.7; two clients behind one NAT'ed uplink (one address,
 * 10.0.0.9, two ports) wait on theirs and on the disk. Each connection's
 * path is its peer's (the interface and the remote address, no port):
 * tar's is its own, the two from one address share one; on main all
 * three were the interface's one path, tar "shared" with the others.
 * With the interface at its capacity (net_full), it is every
 * connection's one path again: the server's NIC is shared. */
static void test_paths_by_peer(void)
{
	struct parsed t, a, b;
	parse(&t, WH "10\tsshd\t1\t6.000\t0.300\t0.000\t0.000\t5.700\t0.000\t0.000\t2000000\t1\t1\t10\n",
	      EH "10\tsshd\tin\tnet\t0\teth0\t10.0.0.2:22\t10.0.0.7:40001\t5.700\t-\n");
	parse(&a, WH "20\tsshd\t1\t6.000\t0.500\t0.000\t2.000\t3.500\t0.000\t0.000\t2000000\t1\t1\t20\n",
	      EH "20\tsshd\tin\tnet\t0\teth0\t10.0.0.2:22\t10.0.0.9:40002\t3.500\t-\n");
	parse(&b, WH "30\tsshd\t1\t6.000\t0.500\t0.000\t1.500\t4.000\t0.000\t0.000\t2000000\t1\t1\t30\n",
	      EH "30\tsshd\tin\tnet\t0\teth0\t10.0.0.2:22\t10.0.0.9:40003\t4.000\t-\n");
	struct verdict_tree_in in[3] = {
		{ .host = "srv", .label = "sshd-tar", .waits = &t.w, .edges = t.e,
		  .nedges = (size_t)t.ne, .disk = "vda", .cg = { .quota = NAN } },
		{ .host = "srv", .label = "sshd-a", .waits = &a.w, .edges = a.e,
		  .nedges = (size_t)a.ne, .disk = "vda", .cg = { .quota = NAN } },
		{ .host = "srv", .label = "sshd-b", .waits = &b.w, .edges = b.e,
		  .nedges = (size_t)b.ne, .disk = "vda", .cg = { .quota = NAN } },
	};
	struct vgraph g;
	OK(!verdict_build(&g, in, 3, NAN, 6.0), "paths by peer: built");
	int root[3] = { find(&g, "srv", 10), find(&g, "srv", 20), find(&g, "srv", 30) };
	int path[3] = { -1, -1, -1 };
	for (size_t e = 0; e < g.nedge; e++)
		for (int k = 0; k < 3; k++)
			if (g.edge[e].from == root[k] && g.edge[e].res >= 0)
				path[k] = g.edge[e].res;
	OK(path[0] >= 0 && path[1] >= 0 && path[2] >= 0, "paths by peer: each waits on a path");
	OK(path[0] >= 0 && path[0] != path[1], "paths by peer: tar's path is not the others'");
	EQ_INT(path[1], path[2], "paths by peer: one address, one path (two ports)");
	OK(path[0] >= 0 && !strcmp(g.res[path[0]].peer, "10.0.0.7") &&
	   !strcmp(g.res[path[0]].name, "eth0") && g.res[path[0]].far_host < 0,
	   "paths by peer: tar's path through eth0 to 10.0.0.7, no far host");
	struct vsolution s;
	OK(!verdict_solve(&g, root, 3, &s), "paths by peer: solved");
	struct vnight_in night[3] = { { 0, 6, 0 }, { 0, 6, 1 }, { 0, 6, 2 } };
	struct vnight nt;
	OK(!verdict_night(&g, &s, night, 3, &nt), "paths by peer: the night");
	EQ_INT(nt.v[0].res, path[0], "paths by peer: tar held by its path");
	OK(nt.own[0], "paths by peer: its own");
	OK(!nt.own[1] && !nt.own[2], "paths by peer: the two behind one uplink not on their own");
	EQ_INT(nt.shared, path[1], "paths by peer: they share their uplink's path");
	EQ_DBL(nt.on[0], 0, TOL, "paths by peer: tar not counted in it");
	EQ_DBL(nt.on[1] + nt.on[2], 7.5, TOL, "paths by peer: the two's 3.5 s and 4 s");
	vnight_free(&nt);
	vsolution_free(&s);
	vgraph_free(&g);

	/* the server's eth0 ran at its capacity: every connection through
	 * it is on its one path, tar's too, shared */
	for (int k = 0; k < 3; k++)
		in[k].net_full = "eth0";
	OK(!verdict_build(&g, in, 3, NAN, 6.0), "full link: built");
	for (int k = 0; k < 3; k++)
		root[k] = find(&g, "srv", (pid_t)(10 * (k + 1)));
	for (size_t e = 0; e < g.nedge; e++)
		for (int k = 0; k < 3; k++)
			if (g.edge[e].from == root[k] && g.edge[e].res >= 0)
				path[k] = g.edge[e].res;
	OK(path[0] == path[1] && path[1] == path[2] && !g.res[path[0]].peer[0] &&
	   !strcmp(g.res[path[0]].name, "eth0"), "full link: one path, the interface's");
	OK(!verdict_solve(&g, root, 3, &s), "full link: solved");
	OK(!verdict_night(&g, &s, night, 3, &nt), "full link: the night");
	OK(!nt.own[0], "full link: tar not on its own");
	EQ_INT(nt.shared, path[0], "full link: the interface's path shared");
	EQ_DBL(nt.on[0], 5.7, TOL, "full link: tar's 5.7 s counted");
	vnight_free(&nt);
	vsolution_free(&s);
	vgraph_free(&g);
	unparse(&t);
	unparse(&a);
	unparse(&b);
}

/* A memory limit's running (t3510's memory case, from make check on a
 * fresh machine): loadgen touches pages of an index larger than its
 * group's limit; it waits on the disk 3.3 s (reading back what the limit
 * evicted) and runs 3.3 s, 97% of its CPU in the kernel (faulting those
 * pages in, reclaiming room for them). Its running is the memory's as
 * much as its refaults: memory, not a tie with the CPU that the CPU won.
 * Beside it the adversaries: a compressor in a limited group, its CPU
 * its own (5% kernel), stays CPU; a sender that never waits on the disk
 * moves none of its running; a share unknown (a tree no perflog run
 * ran) moves none either. */
static void test_memory_running(void)
{
	static const char *const waits[] = {
		WH "40\tloadgen\t1\t6.600\t3.300\t0.000\t3.300\t0.000\t0.000\t0.000\t9000000\t1\t1\t40\n",
		WH "41\tgzip\t1\t6.000\t5.000\t0.000\t1.000\t0.000\t0.000\t0.000\t9000000\t1\t1\t41\n",
		WH "42\tsend\t1\t6.000\t3.000\t0.000\t0.000\t3.000\t0.000\t0.000\t9000000\t1\t1\t42\n",
	};
	static const struct {
		int w;
		double kernel, memory, run;
		const char *word, *what;
	} c[] = {
		{ 0, 0.97, 3.3 + 3.3 * 0.97, 3.3 * 0.03, "memory", "loadgen" },
		{ 0, NAN, 3.3, 3.3, NULL, "loadgen, no rusage" },
		{ 1, 0.05, 1.0 + 5.0 * 0.05, 5.0 * 0.95, "CPU", "gzip" },
		{ 2, 0.9, 0, 3.0, "CPU", "a sender" },
	};
	for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
		struct parsed p;
		char name[96];
		parse(&p, waits[c[k].w], EH);
		struct verdict_tree_in in = {
			.host = "vm", .label = "idx", .waits = &p.w,
			.cg = { .name = "idx.scope", .quota = NAN,
				.memory_limit = 1, .memory_stall = 0.12 },
			.kernel_share = c[k].kernel };
		struct vgraph g;
		OK(!verdict_build(&g, &in, 1, NAN, 6.6), named(name, "memory running", c[k].what, "built"));
		int r = verdict_tree_root(&g, "vm", "idx");
		const double *sec = vgraph_sec(&g, r, 0);
		EQ_DBL(sec[VS_MEMORY], c[k].memory, TOL, named(name, "memory running", c[k].what, "the memory's seconds"));
		EQ_DBL(sec[VS_RUN], c[k].run, TOL, named(name, "memory running", c[k].what, "the CPU's"));
		struct vsolution s;
		struct verdict v;
		OK(!verdict_solve(&g, &r, 1, &s), named(name, "memory running", c[k].what, "solved"));
		verdict_of(&g, &s, 0, &v);
		if (c[k].word)	/* a tie's winner is no claim */
			EQ_STR(verdict_kind_word(v.kind), c[k].word, named(name, "memory running", c[k].what, c[k].word));
		vsolution_free(&s);
		vgraph_free(&g);
		unparse(&p);
	}
}

int main(void)
{
	test_rsync_over_ssh();
	test_far_unwatched();
	test_old_file();
	test_local_rsync();
	test_local_peer();
	test_disk_edge();
	test_loop_of_children();
	test_root_without_edge();
	test_paths_by_peer();
	test_memory_running();
	return done_testing();
}
