/*
 * test_report_stages.c - the stages of a session's data path
 * (report/report_stages.h, issue 29) on crafted waits-LABEL.tsv and
 * edges-LABEL.tsv texts: a local rsync --fsync (three processes joined by
 * socketpairs: the receiver's disk is the verdict, the sender's wait on
 * it evidence; and its sender's waits recorded on the generator, which
 * did no work: a wait through it), an old totals file (no pid column: one stage, no
 * verdict of the stages), the demo's client and its watched local
 * server (two trees), rsync over ssh with the server's side (the server's
 * disk "on srv") and a paced client (no stage busy: the tree's verdict
 * stays).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "report_fixture.h"
#include "../../report/report_client.h"
#include "../../report/report_hosts.h"
#include "../../report/report_stages.h"

#define WH "tid\tcomm\tstart\talive\tcpu\tcpu_wait\tdisk\tnet\tother\tsleep\tio_bytes\tworking\tthreads\tpid\n"
#define EH "pid\tcomm\tdir\tkind\tpeer_pid\tpeer_comm\tlocal\tremote\tseconds\tbytes\n"

/* the texts go through the files' own parsers, as the report reads them */
static void waits_of(struct report_stages *ss, int tree, const char *t)
{
	struct waits_totals tot = { 0 };
	size_t bad = 0;

	if (waitrates_parse(t, strlen(t), &tot, &bad) < 0 || bad)
		printf("# a waits fixture did not parse (%zu bad rows)\n", bad);
	else
		report_stages_add_waits(ss, tree, &tot);
	waitrates_totals_free(&tot);
}

static void edges_of(struct report_stages *ss, int tree, const char *t)
{
	struct waitedge_row *rows = NULL;
	size_t bad = 0;
	long n = waitedges_parse(t, strlen(t), &rows, &bad, NULL);

	if (n < 0 || bad)
		printf("# an edges fixture did not parse\n");
	else
		report_stages_add_edges(ss, tree, rows, (size_t)n, NULL);
	free(rows);
}

static int index_of(const struct report_stages *ss, pid_t pid, int side)
{
	for (size_t i = 0; i < ss->n; i++)
		if (ss->st[i].pid == pid && ss->st[i].side == side)
			return (int)i;
	return -1;
}

static void show(const struct report_stages *ss, const struct report_verdict *v)
{
	char buf[4096] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	if (f) {
		report_stages_print(f, ss);
		fclose(f);
	}
	for (char *p = buf, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		printf("# %.*s\n", (int)(nl - p), p);
	}
	if (v)
		printf("#   %s\n", v->line);
}

/* local rsync -a --fsync: generator -> sender -> receiver, the receiver
 * fsync'ing each file */
static void local_rsync(void)
{
	struct report_stages ss = { 0 };
	struct report_figures f;
	const char *disks[1] = { "vdb" }, *nets[1] = { "eth0" };
	char buf[2048] = "";
	int t, snd, rcv, gen;

	idle(&f);
	util_strlcpy(f.disk, "vdb", sizeof(f.disk));
	stat_of(&f.disk_busy, 78, 5);
	util_strlcpy(ss.hosts[0], "vm", sizeof(ss.hosts[0]));
	t = report_stages_tree(&ss, 0, "rs", NULL);
	waits_of(&ss, t, WH
		 "100\trsync\t1\t10.000\t0.800\t0.100\t0.000\t0.000\t9.100\t0.000\t900000\t1\t1\t100\n"
		 "101\trsync\t1\t10.000\t0.300\t0.000\t0.200\t0.000\t9.500\t0.000\t90000\t1\t1\t101\n"
		 "102\trsync\t1\t10.000\t0.500\t0.000\t9.100\t0.000\t0.400\t0.000\t900000\t1\t1\t102\n"
		 "103\trsync\t1\t10.000\t0.000\t0.000\t0.000\t0.000\t0.000\t10.000\t0\t0\t1\t102\n");
	edges_of(&ss, 0, EH
		 "100\trsync\tout\tunix\t102\trsync\t-\t-\t8.500\t0\n"
		 "100\trsync\tin\tunix\t101\trsync\t-\t-\t0.600\t0\n"
		 "101\trsync\tout\tunix\t100\trsync\t-\t-\t0.400\t0\n"
		 "101\trsync\tout\tunix\t100\trsync\t-\t-\t9.000\t0\n"
		 "102\trsync\tin\tunix\t100\trsync\t-\t-\t0.400\t0\n");
	EQ_INT(ss.n, 3, "rsync: three stages (the idle thread of 102 left out)");
	report_stages_order(&ss, disks, nets);
	snd = index_of(&ss, 100, 0);
	rcv = index_of(&ss, 102, 0);
	gen = index_of(&ss, 101, 0);
	OK(ss.linked, "rsync: the edges join the stages");
	OK(snd >= 0 && rcv > snd, "rsync: the sender before the receiver");
	OK(gen >= 0 && gen < snd, "rsync: the generator feeds the sender");
	EQ_STR(ss.st[rcv].name, "rsync[102]", "rsync: a repeated command named with its pid");
	EQ_DBL(ss.st[rcv].busy, 96, 0.01, "rsync: the receiver busy 96% (run 5, disk 91)");
	EQ_DBL(ss.st[snd].busy, 9, 0.01, "rsync: the sender busy 9%");
	EQ_STR(ss.st[rcv].waits_on, "disk vdb", "rsync: the receiver waits on disk vdb");
	EQ_STR(ss.st[snd].waits_on, "rsync[102]", "rsync: the sender waits on the receiver");
	/* the line quotes the table's figures */
	show(&ss, NULL);
	{
		FILE *fp = fmemopen(buf, sizeof(buf), "w");
		report_stages_print(fp, &ss);
		fclose(fp);
	}
	OK(strstr(buf, "Stages (data path):") && strstr(buf, "rsync[102]") &&
	   strstr(buf, "disk vdb"), "rsync: the table");
	report_stages_free(&ss);
}

/* local rsync --fsync as make check saw it once: the generator (101)
 * did no work, so it is no stage, and the sender's waits were recorded
 * on it (its copy of the receiver's socket, held a moment after its
 * fork, or the receiver's word it passes on); the generator waited on
 * the receiver. No stage was linked and the verdict was the tree's ("the
 * client waited on the disk"): a wait on a process that is no stage is a
 * wait on the stage it waited on. */
static void relay_generator(void)
{
	struct report_stages ss = { 0 };
	struct report_figures f;
	const char *disks[1] = { "vda" };
	int t, snd, rcv;

	idle(&f);
	util_strlcpy(f.disk, "vda", sizeof(f.disk));
	util_strlcpy(ss.hosts[0], "vm", sizeof(ss.hosts[0]));
	t = report_stages_tree(&ss, 0, "fsync", NULL);
	waits_of(&ss, t, WH
		 "100\trsync\t1\t5.005\t0.019\t0.000\t0.000\t0.000\t4.953\t0.033\t2091880\t1\t1\t100\n"
		 "101\trsync\t1\t4.975\t0.010\t0.001\t0.000\t0.000\t4.948\t0.015\t26574\t0\t1\t101\n"
		 "102\trsync\t1\t4.960\t0.177\t0.001\t4.782\t0.000\t0.000\t0.000\t2051975\t1\t1\t102\n");
	edges_of(&ss, 0, EH
		 "100\trsync\tin\tunix\t101\trsync\t-\t-\t2.622\t-\n"
		 "100\trsync\tout\tunix\t101\trsync\t-\t-\t2.327\t-\n"
		 "101\trsync\tin\tunix\t102\trsync\t-\t-\t4.939\t-\n");
	EQ_INT(ss.n, 2, "relay: two stages (the generator did no work)");
	report_stages_order(&ss, disks, NULL);
	snd = index_of(&ss, 100, 0);
	rcv = index_of(&ss, 102, 0);
	OK(ss.linked, "relay: the waits on the generator link the sender to the receiver");
	OK(snd >= 0 && rcv > snd, "relay: the sender before the receiver (as read: no flow told)");
	EQ_STR(snd >= 0 ? ss.st[snd].waits_on : "", "rsync[102]",
	       "relay: the sender waits on the receiver");
	show(&ss, NULL);
	report_stages_free(&ss);
}

/* a totals file of before issue 29: no pid column, one tree, one stage */
static void old_file(void)
{
	struct report_stages ss = { 0 };
	int t = report_stages_tree(&ss, 0, "gz", NULL);

	waits_of(&ss, t, "tid\tcomm\tstart\talive\tcpu\tcpu_wait\tdisk\tnet\tother\tsleep\tio_bytes\tworking\tthreads\n"
		 "10\tsh\t1\t10.000\t0.100\t0.000\t0.000\t0.000\t9.900\t0.000\t70000\t1\t1\n"
		 "11\tgzip\t1\t10.000\t9.500\t0.100\t0.000\t0.000\t0.400\t0.000\t9000000\t1\t1\n");
	report_stages_order(&ss, NULL, NULL);
	EQ_INT(ss.n, 1, "old file: one stage");
	EQ_STR(ss.st[0].name, "gzip", "old file: named by the command that ran most");
	report_stages_free(&ss);
}

/* the demo: the client's socket to its watched local server, which
 * fsyncs each file */
static void demo(void)
{
	struct report_stages ss = { 0 };
	struct report_figures f;
	int c, s, tc, ts;

	idle(&f);
	util_strlcpy(ss.hosts[0], "vm", sizeof(ss.hosts[0]));
	tc = report_stages_tree(&ss, 0, "1m1k", NULL);
	ts = report_stages_tree(&ss, 0, "1m1k-server", NULL);
	waits_of(&ss, tc, WH
		 "200\tperflog\t1\t20.000\t2.000\t0.000\t0.000\t0.000\t18.000\t0.000\t1048576\t1\t1\t200\n");
	edges_of(&ss, 0, EH
		 "200\tperflog\tout\ttcp\t300\tperflog\t127.0.0.1:40000\t127.0.0.1:5001\t17.000\t0\n");
	waits_of(&ss, ts, WH
		 "300\tperflog\t1\t20.000\t3.000\t0.000\t15.000\t0.000\t2.000\t0.000\t1048576\t1\t1\t300\n");
	report_stages_order(&ss, NULL, NULL);
	c = index_of(&ss, 200, 0);
	s = index_of(&ss, 300, 0);
	OK(c == 0 && s == 1, "demo: the client, then its server");
	EQ_STR(ss.st[s].name, "1m1k-server", "demo: the server named by its tree");
	show(&ss, NULL);
	report_stages_free(&ss);
}

/* The demo's 50m10m set on one host: the client (pid 200) sending to
 * its server (300) over loopback TCP for `sent` seconds; each split is
 * "cpu cpu_wait disk net other" seconds of 10. */
static void demo_pair(struct report_stages *ss, const char *client,
		      const char *sent, const char *server,
		      const char *const *disks)
{
	char t[512];
	int tc, ts;

	util_strlcpy(ss->hosts[0], "vm", sizeof(ss->hosts[0]));
	tc = report_stages_tree(ss, 0, "50m10m", NULL);
	ts = report_stages_tree(ss, 0, "50m10m-server", NULL);
	snprintf(t, sizeof(t), WH "200\tperflog\t1\t10.000\t%s\t0.000\t1048576\t1\t1\t200\n", client);
	waits_of(ss, tc, t);
	snprintf(t, sizeof(t), EH "200\tperflog\tout\ttcp\t300\tperflog\t127.0.0.1:40000\t127.0.0.1:5001\t%s\t0\n", sent);
	edges_of(ss, tc, t);
	snprintf(t, sizeof(t), WH "300\tperflog\t1\t10.000\t%s\t0.000\t1048576\t1\t1\t300\n", server);
	waits_of(ss, ts, t);
	report_stages_order(ss, disks, NULL);
}

/* the demo's 50m10m set on a loaded host (t3520): the server stage 81%
 * busy, no state dominating its split (run 34, CPU wait 6, disk 41):
 * the stages decide on its own largest resource, the table's figures */
static void demo_mixed(void)
{
	struct report_stages ss = { 0 };
	struct report_figures f;
	const char *disks[1] = { "vda" };

	idle(&f);
	demo_pair(&ss, "3.800\t0.100\t1.900\t0.000\t4.200", "4.000",
		  "3.400\t0.600\t4.100\t0.000\t1.900", disks);
	EQ_STR(ss.st[1].waits_on, "disk vda", "mixed: the server stage waits on disk vda");
	show(&ss, NULL);
	report_stages_free(&ss);
}


/* the same set in a clean make check: the client running 43% and
 * reading 40% (no state dominates; CPU its largest), the server writing
 * 43%: one vda held both, the server's stage is the verdict's */
static void demo_disk_held(void)
{
	struct report_stages ss = { 0 };
	struct report_figures f;
	const char *disks[1] = { "vda" };

	idle(&f);
	demo_pair(&ss, "4.300\t0.000\t4.000\t0.000\t1.700", "1.500",
		  "2.900\t0.000\t4.300\t0.000\t2.800", disks);
	show(&ss, NULL);
	report_stages_free(&ss);

	/* and with the client's CPU dominant but under half its time
	 * (ran 41%, disk 27%, on the server 32%; the server on the disk
	 * 36%): the disk the two waited on 63% */
	memset(&ss, 0, sizeof(ss));
	demo_pair(&ss, "4.100\t0.000\t2.700\t0.000\t3.200", "3.000",
		  "2.900\t0.000\t3.600\t0.000\t3.500", disks);
	show(&ss, NULL);
	report_stages_free(&ss);

	/* a client held by its CPU most of its time decides alone */
	memset(&ss, 0, sizeof(ss));
	demo_pair(&ss, "8.000\t0.000\t1.000\t0.000\t1.000", "1.000",
		  "2.000\t0.000\t3.000\t0.000\t5.000", disks);
	report_stages_free(&ss);
}


/* rsync over ssh: the client's rsync and ssh; the server's rsync fed by
 * sshd (not watched), fsync'ing */
static void over_ssh(void)
{
	struct report_stages cl = { 0 }, sv = { 0 }, all = { 0 };
	struct report_figures f;
	const char *disks[2] = { "sda", "vdb" }, *nets[2] = { "eth0", "eth0" };
	int t, r;

	idle(&f);
	util_strlcpy(cl.hosts[0], "vm", sizeof(cl.hosts[0]));
	util_strlcpy(sv.hosts[0], "backupsrv", sizeof(sv.hosts[0]));
	t = report_stages_tree(&cl, 0, "sync", NULL);
	waits_of(&cl, t, WH
		 "10\trsync\t1\t8.000\t0.600\t0.000\t0.100\t0.000\t7.300\t0.000\t9000000\t1\t1\t10\n"
		 "11\tssh\t1\t8.000\t0.400\t0.000\t0.000\t1.000\t6.600\t0.000\t9000000\t1\t1\t11\n");
	edges_of(&cl, 0, EH
		 "10\trsync\tout\tpipe\t11\tssh\t-\t-\t7.000\t0\n"
		 "11\tssh\tout\tnet\t0\teth0\t10.0.0.1:40000\t10.0.0.2:22\t1.000\t0\n"
		 "11\tssh\tin\tpipe\t10\trsync\t-\t-\t6.000\t0\n");
	t = report_stages_tree(&sv, 0, "sync", NULL);
	waits_of(&sv, t, WH
		 "20\trsync\t1\t8.000\t0.400\t0.000\t7.300\t0.000\t0.300\t0.000\t9000000\t1\t1\t20\n");
	edges_of(&sv, 0, EH
		 "20\trsync\tin\tpipe\t19\tsshd\t-\t-\t0.300\t0\n");
	report_stages_append(&all, &cl, 0);
	report_stages_append(&all, &sv, 1);
	report_stages_order(&all, disks, nets);
	r = index_of(&all, 20, 1);
	EQ_INT(all.n, 3, "ssh: three stages on two hosts");
	OK(index_of(&all, 10, 0) == 0 && index_of(&all, 11, 0) == 1 && r == 2,
	   "ssh: rsync -> ssh -> the server's rsync");
	OK(all.linked, "ssh: the client's net edge leads to the server's receiver");
	/* a loop: each waits on the other most (the sender on the server's
	 * replies, ssh on its pipe and its socket at once), and ssh on its
	 * socket too: the pair waits on the network (it said "rsync") */
	EQ_STR(all.st[1].waits_on, "network eth0", "ssh: in a loop with rsync, ssh waits on the network");
	EQ_STR(all.st[0].waits_on, "ssh", "ssh: rsync waits on ssh");
	show(&all, NULL);
	report_stages_free(&cl);
	report_stages_free(&sv);
	report_stages_free(&all);
}

/* The edges of t3720's real runs (stop 44): each waits for input, the
 * sender on its ssh (the server's replies), ssh on its socket and its
 * pipe at once, and the server's receiver on sshd (not watched). The
 * order is still the data's: before, the server's rsync led the table,
 * and the server's cat sat between tar and ssh */
/* The stages of tree label on vm (its waits and edges files' rows,
 * cw and ce) and on srv (sw, se), ordered: 1 when the stages of pids
 * first and second (vm) and third (srv) come in that order. */
static int two_hosts_order(const char *label, const char *cw, const char *ce,
			   const char *sw, const char *se, pid_t first,
			   pid_t second, pid_t third)
{
	struct report_stages cl = { 0 }, sv = { 0 }, all = { 0 };
	const char *disks[2] = { "vda", "vda" }, *nets[2] = { "plv1a", "plv1b" };
	char w[1024], e[1024];
	int ok;

	util_strlcpy(cl.hosts[0], "vm", sizeof(cl.hosts[0]));
	util_strlcpy(sv.hosts[0], "srv", sizeof(sv.hosts[0]));
	snprintf(w, sizeof(w), WH "%s", cw);
	snprintf(e, sizeof(e), EH "%s", ce);
	waits_of(&cl, report_stages_tree(&cl, 0, label, NULL), w);
	edges_of(&cl, 0, e);
	snprintf(w, sizeof(w), WH "%s", sw);
	snprintf(e, sizeof(e), EH "%s", se);
	waits_of(&sv, report_stages_tree(&sv, 0, label, NULL), w);
	edges_of(&sv, 0, e);
	report_stages_append(&all, &cl, 0);
	report_stages_append(&all, &sv, 1);
	report_stages_order(&all, disks, nets);
	ok = index_of(&all, first, 0) == 0 && index_of(&all, second, 0) == 1 &&
	     index_of(&all, third, 1) == 2;
	show(&all, NULL);
	report_stages_free(&cl);
	report_stages_free(&sv);
	report_stages_free(&all);
	return ok;
}

/* The edges of t3720's real runs (stop 44): each waits for input, the
 * sender on its ssh (the server's replies), ssh on its socket and its
 * pipe at once, and the server's receiver on sshd (not watched). The
 * order is still the data's: before, the server's rsync led the table,
 * and the server's cat sat between tar and ssh */
static void over_ssh_waiting_in(void)
{
	OK(two_hosts_order("sfsync",
		"4743\trsync\t1\t7.100\t0.010\t0.000\t0.000\t0.000\t7.037\t0.053\t1500000\t1\t1\t4743\n"
		"4744\tssh\t1\t7.100\t0.070\t0.000\t0.000\t0.000\t7.000\t0.030\t3000000\t1\t1\t4744\n",
		"4743\trsync\tin\tunix\t4744\tssh\t-\t-\t7.037\t-\n"
		"4744\tssh\tin\tnet\t0\tplv1a\t169.254.38.1:45222\t169.254.38.2:22\t4.661\t-\n"
		"4744\tssh\tin\tunix\t4743\trsync\t-\t-\t2.331\t-\n",
		"339\trsync\t1\t7.000\t0.070\t0.070\t6.860\t0.000\t0.000\t0.000\t1500000\t1\t1\t339\n",
		"339\trsync\tin\tunix\t439\trsync\t-\t-\t6.801\t-\n",
		4743, 4744, 339),
	   "waiting in: rsync -> ssh -> the server's rsync");
	/* tar | ssh srv 'cat > f' */
	OK(two_hosts_order("tar",
		"8642\ttar\t1\t4.100\t0.080\t0.000\t0.000\t0.000\t4.020\t0.000\t2000000\t1\t1\t8642\n"
		"8643\tssh\t1\t4.100\t0.120\t0.000\t0.000\t3.980\t0.000\t0.000\t4000000\t1\t1\t8643\n",
		"8642\ttar\tout\tpipe\t8643\tssh\t-\t-\t0.249\t-\n"
		"8643\tssh\tin\tnet\t0\tplv1a\t169.254.38.1:55300\t169.254.38.2:22\t2.862\t-\n"
		"8643\tssh\tout\tnet\t0\tplv1a\t169.254.38.1:55300\t169.254.38.2:22\t1.389\t-\n"
		"8643\tssh\tin\tpipe\t8642\ttar\t-\t-\t0.000\t-\n",
		"400\tplcat\t1\t4.000\t0.010\t0.000\t0.000\t0.000\t3.990\t0.000\t2000000\t1\t1\t400\n",
		"400\tplcat\tin\tpipe\t399\tsshd\t-\t-\t3.990\t-\n",
		8642, 8643, 400),
	   "waiting in: tar -> ssh -> the server's cat");
}

/* ssh waiting on a compressing client that does not wait on it: ssh
 * waits on the client */
static void ssh_fed_slowly(void)
{
	struct report_stages ss = { 0 };
	const char *disks[1] = { "sda" }, *nets[1] = { "eth0" };
	int t, g;

	util_strlcpy(ss.hosts[0], "vm", sizeof(ss.hosts[0]));
	t = report_stages_tree(&ss, 0, "gz", NULL);
	waits_of(&ss, t, WH
		 "10\tgzip\t1\t8.000\t7.000\t0.200\t0.100\t0.000\t0.700\t0.000\t9000000\t1\t1\t10\n"
		 "11\tssh\t1\t8.000\t0.400\t0.000\t0.000\t0.800\t6.800\t0.000\t9000000\t1\t1\t11\n");
	edges_of(&ss, 0, EH
		 "10\tgzip\tout\tpipe\t11\tssh\t-\t-\t0.700\t0\n"
		 "11\tssh\tout\tnet\t0\teth0\t10.0.0.1:40000\t10.0.0.2:22\t0.800\t0\n"
		 "11\tssh\tin\tpipe\t10\tgzip\t-\t-\t6.800\t0\n");
	report_stages_order(&ss, disks, nets);
	g = index_of(&ss, 11, 0);
	EQ_STR(g >= 0 ? ss.st[g].waits_on : "", "gzip",
	       "fed slowly: ssh waits on gzip, which runs and waits on no one");
	report_stages_free(&ss);
}

/* tar | ssh over a shaped link, and a receiver under a 0.05 CPU quota,
 * the server's side joined by the net edge (t3720): the client's ssh
 * stage waits on the network; a server stage busy on its own resource
 * held the data (the quota, the stage named), else the network between
 * both hosts names the ssh stage */
static void across(void)
{
	struct report_stages cl = { 0 }, sv = { 0 }, all = { 0 };
	struct report_figures f;
	struct report_waits ws;
	int t;

	idle(&f);
	util_strlcpy(cl.hosts[0], "vm", sizeof(cl.hosts[0]));
	util_strlcpy(sv.hosts[0], "srv", sizeof(sv.hosts[0]));
	t = report_stages_tree(&cl, 0, "squota", NULL);
	waits_of(&cl, t, WH
		 "10\tsh\t1\t10.000\t0.300\t1.300\t0.000\t0.000\t8.400\t0.000\t9000000\t1\t1\t10\n"
		 "11\tssh\t1\t10.000\t0.200\t0.200\t0.000\t9.500\t0.100\t0.000\t9000000\t1\t1\t11\n");
	edges_of(&cl, 0, EH
		 "10\tsh\tout\tpipe\t11\tssh\t-\t-\t8.400\t0\n"
		 "11\tssh\tout\tnet\t0\teth0\t10.0.0.1:40000\t10.0.0.2:22\t9.500\t0\n");
	memset(&ws, 0, sizeof(ws));
	stat_of(&ws.throttled, 54, 2);
	ws.quota = 0.05;
	t = report_stages_tree(&sv, 0, "squota", &ws);
	waits_of(&sv, t, WH
		 "20\tplxz\t1\t10.000\t0.500\t9.400\t0.000\t0.000\t0.100\t0.000\t9000000\t1\t1\t20\n");
	edges_of(&sv, 0, EH "20\tplxz\tin\tpipe\t19\tsshd\t-\t-\t0.100\t0\n");
	report_stages_append(&all, &cl, 0);
	report_stages_append(&all, &sv, 1);
	report_stages_order(&all, NULL, NULL);
	show(&all, NULL);
	report_stages_free(&cl);
	report_stages_free(&sv);
	report_stages_free(&all);

	/* the server's receiver idle (fed by sshd, other 99%): no stage
	 * held the data; the network between both, the ssh stage named */
	memset(&sv, 0, sizeof(sv));
	memset(&all, 0, sizeof(all));
	util_strlcpy(sv.hosts[0], "srv", sizeof(sv.hosts[0]));
	t = report_stages_tree(&sv, 0, "tar", NULL);
	waits_of(&sv, t, WH
		 "20\tplcat\t1\t10.000\t0.060\t0.020\t0.000\t0.000\t9.920\t0.000\t9000000\t1\t1\t20\n");
	edges_of(&sv, 0, EH "20\tplcat\tin\tpipe\t19\tsshd\t-\t-\t9.900\t0\n");
	report_stages_append(&all, &cl, 0);
	report_stages_append(&all, &sv, 1);
	report_stages_order(&all, NULL, NULL);
	report_stages_free(&sv);
	report_stages_free(&all);

	report_stages_free(&cl);
}

/* rsync --bwlimit: the sender sleeps, the receiver waits on it */
static void paced(void)
{
	struct report_stages ss = { 0 };
	int t = report_stages_tree(&ss, 0, "bw", NULL);

	waits_of(&ss, t, WH
		 "100\trsync\t1\t10.000\t0.300\t0.000\t0.000\t0.000\t0.200\t9.500\t900000\t1\t1\t100\n"
		 "102\trsync\t1\t10.000\t0.200\t0.000\t0.300\t0.000\t9.500\t0.000\t900000\t1\t1\t102\n");
	edges_of(&ss, 0, EH "102\trsync\tin\tunix\t100\trsync\t-\t-\t9.500\t0\n");
	report_stages_order(&ss, NULL, NULL);
	OK(!strcmp(ss.st[0].waits_on, "sleep (its own)"), "paced: the sender sleeps by its own choice");
	report_stages_free(&ss);
	/* the generator's 4.8 s of "net" with no net edge while its host's
	 * edges were recorded (a real rsync --bwlimit): a wait on another
	 * process, not the network */
	memset(&ss, 0, sizeof(ss));
	t = report_stages_tree(&ss, 0, "bw", NULL);
	waits_of(&ss, t, WH
		 "17257\trsync\t1\t6.222\t0.201\t0.429\t0.090\t0.000\t1.222\t4.281\t47232572\t1\t1\t17257\n"
		 "17261\trsync\t1\t6.167\t0.096\t0.315\t0.000\t4.826\t0.930\t0.000\t188282\t1\t1\t17261\n");
	edges_of(&ss, 0, EH "17257\trsync\tin\tunix\t17261\trsync\t-\t-\t0.594\t0\n");
	waits_of(&ss, t, WH
		 "17265\trsync\t1\t6.076\t0.804\t0.980\t0.000\t0.000\t4.292\t0.000\t47183753\t1\t1\t17265\n");
	report_stages_order(&ss, NULL, NULL);
	EQ_DBL(ss.st[index_of(&ss, 17261, 0)].pct[WS_NET], 0, 1e-9,
	       "net seconds with no net edge counted as other");
	report_stages_free(&ss);
}

/* tar | xz > f, tar done in 0.1 s (xz's pipe took it all): tar is no
 * stage (no working thread), but its pipe edge still says the tree's
 * bytes count what it passed to xz (t3720's tar: "client sent 2 MB,
 * process tree wrote 4 MB: disagree") */
static void short_member(void)
{
	struct report_stages ss = { 0 };
	struct report_session s = { 0 };
	struct report_client_logged lg = { 0 };
	int t = report_stages_tree(&ss, 0, "tarxz", NULL);

	waits_of(&ss, t, WH
		 "30\ttar\t1\t0.100\t0.002\t0.000\t0.000\t0.000\t0.098\t0.000\t0\t0\t1\t30\n"
		 "31\txz\t1\t5.000\t4.900\t0.000\t0.000\t0.000\t0.100\t0.000\t2000000\t1\t1\t31\n");
	edges_of(&ss, t, EH "30\ttar\tout\tpipe\t31\txz\t-\t-\t0.098\t0\n");
	EQ_INT(ss.n, 1, "tar|xz: one stage (tar never worked)");
	s.stages = &ss;
	lg.proc_read = 2e6;
	lg.proc_written = 4e6;
	report_client_paths(NULL, &s, &lg);
	OK(lg.pipes && lg.pipes_unknown,
	   "tar|xz: the pipe of a member that is no stage is known");
	OK(isnan(lg.proc_written) && isnan(lg.proc_read),
	   "tar|xz: the tree's bytes are not compared (the pipe's not counted)");
	OK(lg.local_target, "tar|xz: no edge to another host: a local target");
	report_stages_free(&ss);
}

int main(void)
{
	short_member();
	local_rsync();
	relay_generator();
	old_file();
	demo();
	demo_mixed();
	demo_disk_held();
	over_ssh();
	over_ssh_waiting_in();
	ssh_fed_slowly();
	across();
	paced();
	return done_testing();
}
