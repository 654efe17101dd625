/*
 * report_graph_int.h - what report_graph.c (the session's wait graph,
 * built and solved), report_verdict.c (the Bottleneck line from its
 * solution) and report_night.c (the night's graph of every session's
 * trees) share. Internal to report/.
 */
#ifndef PERFLOG_REPORT_GRAPH_INT_H
#define PERFLOG_REPORT_GRAPH_INT_H

#include <stddef.h>

#include "../verdict/verdict.h"

struct report_graph {
	struct vgraph g;
	struct vsolution s;
	struct verdict v;
	int root;
};

/* "CPU on vm", "disk vdb on srv", "network eth0 from vm to srv",
 * "nothing (not-seen) on vm" */
void report_graph_res_name(const struct vgraph *g, int r, char *buf,
			   size_t n);
/* The same as the JSON's kind, detail, host, far_host and name. */
struct json;
void report_graph_res_json(struct json *j, const struct vgraph *g, int r);
/* p's name: COMM, or COMM[PID] when another process of its host has
 * that command (as the stages table names them). */
void report_graph_proc_name(const struct vgraph *g, int p, char *buf,
			    size_t n);
struct report_session;

/* A tree of a session as the graph builder's input, with what it points
 * to: its rows (tot), or the one row and net edge of a tree known by its
 * logged counters only (one, net). in points into the struct: it must
 * not move once filled. */
struct report_graph_tree {
	struct verdict_tree_in in;
	struct waits_totals tot;
	struct waits_total one;
	struct waitedge_row net;
};
/* The host name of a stage tree's side of ss ("?" unknown). */
struct report_stages;
const char *report_graph_host(const struct report_stages *ss, int side);
/* Tree t of session s's stages as the builder's input (verdict_build):
 * the one place a stage tree becomes a tree of the model, for a session
 * (report_graph_of) and for a night (report_night.c). */
void report_graph_tree_in(const struct report_session *s, size_t t,
			  struct report_graph_tree *x);

/* The host side whose name is host (0: the report's own, i: --with i),
 * -1 unknown. */
int report_graph_side(const struct report_session *s, const char *host);
/* p's name as the stages table has it (a role: `1m1k client`, a tree's
 * label for a process whose command repeats on its host: job-server),
 * else report_graph_proc_name's. */
void report_graph_stage_name(const struct report_session *s,
			     const struct vgraph *g, int p, char *buf,
			     size_t n);
/* Seconds charged with process p (its own seconds spent for the root). */
double report_graph_charged(const struct vsolution *s, int p);

#endif
