/*
 * report_stages.h - the stages of a session's data path (issue 29): each
 * process of a watched tree that worked is a stage, with its own wait
 * split (waits-LABEL.tsv rows of its pid); the edges the collector
 * recorded (edges-LABEL.tsv: "this process waited N s on that one")
 * order them along the data; they are the wait graph's evidence
 * (report/README.md, "The stages of the data path").
 *
 *   report_stages_add_waits   a tree's waits-LABEL.tsv rows -> stages
 *   report_stages_add_tree    a tree known only by its Process counters
 *   report_stages_add_edges   an edges-LABEL.tsv -> edges
 *   report_stages_order       shares, the data's order, "waits on"
 *   report_stages_print       the "Stages (data path):" table
 *
 * Pure but for report_stages_of.c (the files of a log set) and
 * report_stages_print.c (text and JSON).
 */
#ifndef PERFLOG_REPORT_STAGES_H
#define PERFLOG_REPORT_STAGES_H

#include <stdio.h>
#include <sys/types.h>

#include "report_rules.h"

#define REPORT_STAGES_MAX 64
#define REPORT_STAGE_EDGES_MAX 512
#define REPORT_STAGE_TREES_MAX 16

/* One watched tree of a host side: its label (Process(LABEL)) and its
 * tree-wide wait states and cgroup counters (report_waits_of). */
struct report_stage_tree {
	char label[128];
	int side;			/* 0: the report's host, i: --with i */
	struct report_waits w;
	/* the rows of its files as parsed, for the session's wait graph
	 * (report_graph.c): malloc'ed, owned by the stages (appending
	 * copies them), NULL when none was read */
	struct waits_total *rows;
	size_t nrows;
	struct waitedge_row *edges;
	size_t nedges;
	/* its waits-LABEL.rows.tsv (the seconds interval by interval),
	 * empty when none; shift: seconds onto the report's clock (a
	 * --with host's offset) */
	struct waitrows_file intervals;
	double shift;
};

/* One row of edges-LABEL.tsv (contract: pid comm dir kind peer_pid
 * peer_comm local remote seconds bytes). */
struct report_stage_edge {
	int side, tree;			/* host side, the tree whose edges
					 * file holds it */
	pid_t pid, peer_pid;
	char comm[16], peer_comm[64];
	int out;			/* 1: dir out (peer downstream) */
	char kind[8];			/* pipe unix tcp udp net */
	char local[64], remote[64];
	double seconds, bytes;
	int peer;			/* the waiter is a local peer the tree's
					 * sampler read (waits_total.peer): no
					 * process of the tree */
};

struct report_stage {
	char name[48];		/* COMM, or COMM[PID] when COMM repeats on
				 * its host */
	char comm[16];
	pid_t pid;		/* 0: a tree known only by its counters */
	int side, tree;		/* host side, index in trees */
	double alive, sec[WS_N];	/* its working threads' seconds */
	size_t nthreads;	/* working threads summed */
	double pct[WS_N];	/* shares of alive, percent */
	double busy;		/* run + cpu wait + disk + net, percent */
	int head;		/* fed by no stage (upstream: a file, the
				 * network, an unwatched process) */
	int waits_stage;	/* the stage it waited on most, or -1 */
	char waits_on[80];	/* the table's "waits on" */
};

struct report_stages {
	struct report_stage st[REPORT_STAGES_MAX];
	size_t n;
	struct report_stage_edge *e;	/* malloc'ed */
	size_t ne;
	struct report_stage_tree trees[REPORT_STAGE_TREES_MAX];
	size_t ntrees;
	char hosts[4][64];		/* side -> host name */
	char disks[4][32];		/* side -> its busiest disk, "" unknown
					 * (report_stages_order's); side 0:
					 * the disk its processes waited on
					 * when their disk edges name one
					 * (report_stages_redo) */
	int nsides;
	unsigned edge_sides;	/* bit i: an edges file of side i was read
				 * (none: an old set, nothing known) */
	double seconds;		/* the session's: the table's shares */
	int linked;		/* an edge joins two stages */
};

/* A tree's slot (its label, side, tree-wide waits copied); -1 when full. */
int report_stages_tree(struct report_stages *ss, int side, const char *label,
		       const struct report_waits *w);
/* The rows of a tree's waits-LABEL.tsv, as waitrates_parse read them:
 * a stage per pid (a file without the pid column, of before issue 29:
 * the tree is one stage). The stages added. */
long report_stages_add_waits(struct report_stages *ss, int tree,
			     const struct waits_totals *tot);
/* Keep the parsed rows of tree's files (report_stage_tree.rows, .edges):
 * tot's rows and *edges are taken (tot->t and *edges set to NULL). */
void report_stages_keep(struct report_stages *ss, int tree,
			struct waits_totals *tot, struct waitedge_row **edges,
			size_t nedges);
/* Keep tree's parsed rows file (report_stage_tree.intervals): f's
 * arrays are taken (f emptied). */
void report_stages_keep_rows(struct report_stages *ss, int tree,
			     struct waitrows_file *f);
/* A tree known only by its logged Process counters: one stage of the
 * shares pct (percent of its threads' time) over seconds. */
void report_stages_add_tree(struct report_stages *ss, int tree,
			    const double pct[WS_N], double seconds);
/* The rows of tree's edges-LABEL.tsv, as waitedges_parse read them,
 * its waits file's totals tot beside (NULL: none; a waiter tot marks
 * peer is no process of the tree); the edges added. */
long report_stages_add_edges(struct report_stages *ss, int tree,
			     const struct waitedge_row *rows, size_t n,
			     const struct waits_totals *tot);
/* Append the stages, trees and edges of from as side `side` (--with). */
void report_stages_append(struct report_stages *ss,
			  const struct report_stages *from, int side);
/* Shares, names, the data's order (st[] reordered), "waits on"; disks[]
 * and nets[] the busiest disk and interface of each side (for "disk
 * vdb"), NULL or "" when unknown. */
void report_stages_order(struct report_stages *ss, const char *const *disks,
			 const char *const *nets);
/* The "Stages (data path):" table (nothing with fewer than 2 stages). */
void report_stages_print(FILE *f, const struct report_stages *ss);
/* "stages": [...] and "stages_decide" in the session's JSON object. */
struct json;
void report_stages_json(struct json *j, const struct report_stages *ss);

void report_stages_free(struct report_stages *ss);

#endif
