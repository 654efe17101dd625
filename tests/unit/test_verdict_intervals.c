/*
 * test_verdict_intervals.c - where a session's seconds fall in time
 * (verdict/build.c intervals, build_weights.c): the graph cut at the
 * rows' step, each process's and edge's seconds put in the intervals its
 * rows put them, bins of another step or clock redistributed by overlap,
 * and two hosts' rows aligned on the report's clock.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "verdictfix.h"

#define RH "#perflog-rows\t1\tstep=10.000\n" \
	"#p\tstart\tpid\tcomm\talive\tcpu\tcpu_wait\tdisk\tnet\tother\tsleep\n" \
	"#e\tstart\tpid\tcomm\tdir\tkind\tpeer_pid\tpeer_comm\tlocal\tremote\tseconds\tbytes\n"

/* Stage a waits on stage b through a pipe the first 10 s while b runs;
 * the next 10 s a reads and writes on its own (4 s CPU, 6 s disk) and b
 * writes on the disk. The totals mix b's halves: a's 10 s wait poured
 * over b's 10 s CPU and 10 s disk, 5 and 5, and the disk wins, 11 s to
 * 9. By interval a's wait is charged to what b did while a waited, its
 * CPU: CPU 14 s, disk 6. The rows' times on another clock (a --with
 * host 100 s ahead, shift -100) give the same intervals; a begin
 * unknown, one interval, as the totals. */
static void test_intervals(void)
{
	struct parsed p;
	parse(&p, WH
	      "20\ta\t1\t20.000\t4.000\t0.000\t6.000\t0.000\t10.000\t0.000\t9000000\t1\t1\t20\n"
	      "21\tb\t2\t20.000\t10.000\t0.000\t10.000\t0.000\t0.000\t0.000\t9000000\t1\t1\t21\n",
	      EH "20\ta\tin\tpipe\t21\tb\t-\t-\t10.000\t-\n");
	const char *rows[2] = {
		RH
		"p\t1000.000\t20\ta\t10.000\t0.000\t0.000\t0.000\t0.000\t10.000\t0.000\n"
		"p\t1000.000\t21\tb\t10.000\t10.000\t0.000\t0.000\t0.000\t0.000\t0.000\n"
		"e\t1000.000\t20\ta\tin\tpipe\t21\tb\t-\t-\t10.000\t-\n"
		"p\t1010.000\t20\ta\t10.000\t4.000\t0.000\t6.000\t0.000\t0.000\t0.000\n"
		"p\t1010.000\t21\tb\t10.000\t0.000\t0.000\t10.000\t0.000\t0.000\t0.000\n",
		RH
		"p\t1100.000\t20\ta\t10.000\t0.000\t0.000\t0.000\t0.000\t10.000\t0.000\n"
		"p\t1100.000\t21\tb\t10.000\t10.000\t0.000\t0.000\t0.000\t0.000\t0.000\n"
		"e\t1100.000\t20\ta\tin\tpipe\t21\tb\t-\t-\t10.000\t-\n"
		"p\t1110.000\t20\ta\t10.000\t4.000\t0.000\t6.000\t0.000\t0.000\t0.000\n"
		"p\t1110.000\t21\tb\t10.000\t0.000\t0.000\t10.000\t0.000\t0.000\t0.000\n",
	};
	for (int c = 0; c < 4; c++) {
		/* 0: the rows; 1: on a clock 100 s ahead; 2: no rows file
		 * (an older set); 3: begin unknown */
		struct waitrows_file f;
		struct perr e;
		const char *rt = rows[c == 1];
		OK(waitrows_parse(rt, strlen(rt), "rows", &f, &e) == 5,
		   "intervals: the rows parse");
		struct verdict_tree_in in = { .host = "h", .label = "job",
					      .waits = &p.w, .edges = p.e,
					      .nedges = (size_t)p.ne, .disk = "sdb",
					      .rows = c == 2 ? NULL : &f,
					      .shift = c == 1 ? -100 : 0,
					      .cg = { .quota = NAN } };
		struct vgraph g;
		OK(!verdict_build(&g, &in, 1, c == 3 ? NAN : 1000.0, 20.0),
		   "intervals: built");
		EQ_INT(g.nint, c < 2 ? 2 : 1, "intervals: how many");
		int a = find(&g, "h", 20), b = find(&g, "h", 21);
		int r = verdict_tree_root(&g, "h", "job");
		EQ_INT(r, a, "intervals: the root is a");
		double bs[VS_N];
		vgraph_proc_total(&g, b, bs);
		EQ_DBL(bs[VS_RUN], 10, TOL, "intervals: b's totals kept");
		EQ_DBL(bs[VS_DISK], 10, TOL, "intervals: b's disk kept");
		if (c < 2) {
			EQ_DBL(vgraph_sec(&g, b, 0)[VS_RUN], 10, TOL,
			       "intervals: b ran in the first");
			EQ_DBL(vgraph_sec(&g, b, 1)[VS_DISK], 10, TOL,
			       "intervals: b on the disk in the second");
			EQ_DBL(g.edge[0].sec[0], 10, TOL,
			       "intervals: a waited on b in the first");
			EQ_DBL(g.edge[0].sec[1], 0, TOL,
			       "intervals: not in the second");
			EQ_DBL(vgraph_sec(&g, a, 0)[VS_OTHER], 0, TOL,
			       "intervals: a's wait left its other");
			EQ_DBL(g.proc[a].alive[1], 10, TOL,
			       "intervals: a alive in the second");
		}
		struct vsolution s;
		OK(!verdict_solve(&g, &r, 1, &s), "intervals: solved");
		struct verdict v;
		verdict_of(&g, &s, 0, &v);
		int disk = vgraph_res(&g, VRES_DISK, 0, -1, "sdb");
		if (c < 2) {
			EQ_STR(verdict_kind_word(v.kind), "CPU",
			       "intervals: CPU, b's while a waited");
			EQ_DBL(v.sec, 14, 1e-6, "intervals: 14 s of CPU");
			EQ_DBL(verdict_res_seconds(&s, 0, disk), 6, 1e-6,
			       "intervals: a's own 6 s of disk");
		} else {
			EQ_STR(verdict_kind_word(v.kind), "disk",
			       "totals: disk, b's halves mixed");
			EQ_DBL(v.sec, 11, 1e-6, "totals: 11 s of disk");
		}
		vsolution_free(&s);
		vgraph_free(&g);
		waitrows_file_free(&f);
	}
	unparse(&p);
}

/* Two hosts' rows of different steps and clocks onto one set of
 * intervals: the finest step's, on the report's clock, each bin
 * redistributed by overlap. */
static void test_align(void)
{
	struct parsed c, sv;
	parse(&c, WH "30\tcl\t1\t8.000\t8.000\t0.000\t0.000\t0.000\t0.000\t0.000\t9000000\t1\t1\t30\n",
	      EH);
	parse(&sv, WH "40\tsv\t1\t8.000\t2.000\t0.000\t6.000\t0.000\t0.000\t0.000\t9000000\t1\t1\t40\n",
	      EH);
	const char *rc = "#perflog-rows\t1\tstep=4.000\n"
		"p\t2000.000\t30\tcl\t4.000\t4.000\t0.000\t0.000\t0.000\t0.000\t0.000\n"
		"p\t2004.000\t30\tcl\t4.000\t4.000\t0.000\t0.000\t0.000\t0.000\t0.000\n";
	/* the server: 1 s bins, its clock 0.5 s behind (shift +0.5): its
	 * disk all in the client's second half */
	const char *rs = "#perflog-rows\t1\tstep=1.000\n"
		"p\t1999.500\t40\tsv\t1.000\t1.000\t0.000\t0.000\t0.000\t0.000\t0.000\n"
		"p\t2000.500\t40\tsv\t1.000\t1.000\t0.000\t0.000\t0.000\t0.000\t0.000\n"
		"p\t2001.500\t40\tsv\t1.000\t0.000\t0.000\t0.000\t0.000\t0.000\t0.000\n"
		"p\t2002.500\t40\tsv\t1.000\t0.000\t0.000\t0.000\t0.000\t0.000\t0.000\n"
		"p\t2003.500\t40\tsv\t1.000\t0.000\t0.000\t1.500\t0.000\t0.000\t0.000\n"
		"p\t2004.500\t40\tsv\t1.000\t0.000\t0.000\t1.500\t0.000\t0.000\t0.000\n"
		"p\t2005.500\t40\tsv\t1.000\t0.000\t0.000\t1.500\t0.000\t0.000\t0.000\n"
		"p\t2006.500\t40\tsv\t1.000\t0.000\t0.000\t1.500\t0.000\t0.000\t0.000\n";
	struct waitrows_file fc, fs;
	struct perr e;
	OK(waitrows_parse(rc, strlen(rc), "c", &fc, &e) == 2 &&
	   waitrows_parse(rs, strlen(rs), "s", &fs, &e) == 8, "align: parsed");
	struct verdict_tree_in in[2] = {
		{ .host = "vm", .label = "job", .waits = &c.w, .rows = &fc,
		  .cg = { .quota = NAN } },
		{ .host = "srv", .label = "job", .waits = &sv.w, .rows = &fs,
		  .shift = 0.5, .cg = { .quota = NAN } },
	};
	struct vgraph g;
	OK(!verdict_build(&g, in, 2, 2000.0, 8.0), "align: built");
	EQ_INT(g.nint, 8, "align: the finest step's intervals");
	EQ_DBL(g.len[0], 1, TOL, "align: 1 s each");
	int s = find(&g, "srv", 40), cl = find(&g, "vm", 30);
	double first[VS_N] = { 0 }, second[VS_N] = { 0 };
	for (size_t i = 0; i < g.nint; i++)
		for (int k = 0; k < VS_N; k++)
			(i < 4 ? first : second)[k] += vgraph_sec(&g, s, i)[k];
	EQ_DBL(first[VS_RUN], 2, TOL, "align: the server's CPU in the first half");
	EQ_DBL(vgraph_sec(&g, s, 0)[VS_RUN], 1, TOL, "align: ... its first second on the client's");
	EQ_DBL(first[VS_DISK], 0, TOL, "align: no disk then");
	EQ_DBL(second[VS_DISK], 6, TOL, "align: its disk in the second half");
	EQ_DBL(vgraph_sec(&g, s, 4)[VS_DISK], 1.5, TOL, "align: 1.5 s a second");
	EQ_DBL(vgraph_sec(&g, cl, 5)[VS_RUN], 1, TOL,
	       "align: the client's 4 s bins spread over their seconds");
	vgraph_free(&g);
	waitrows_file_free(&fc);
	waitrows_file_free(&fs);
	unparse(&c);
	unparse(&sv);
}

int main(void)
{
	test_intervals();
	test_align();
	return done_testing();
}
