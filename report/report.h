/*
 * report.h - `perflog report`: per session of a log set (or the whole log
 * when it has none) the times, the client's figures, per resource the
 * average, 95th percentile and peak, and the bottleneck verdict
 * (report_rules.h). Data: logs/logset.h (values), logs/markers.h
 * (sessions, end-marker extras), the client's instrumentation (instr.h)
 * from the session's output kept in the log set or a file given.
 *
 *   report_build   log set -> sessions with figures and verdicts
 *   report_print   the text report
 *   report_compare two reports side by side, with changes
 *   report_html    index.html + PNG charts per session
 */
#ifndef PERFLOG_REPORT_H
#define PERFLOG_REPORT_H

#include <stdio.h>
#include <time.h>

#include "../common/util.h"
#include "../logs/align.h"
#include "../logs/logset.h"
#include "../logs/markers.h"
#include "../client/instr.h"
#include "report_rules.h"
#include "report_stages.h"
#include "report_targets.h"
#include "../logs/treefiles.h"

struct report_session {
	char name[128];		/* session name, "whole log" without one */
	time_t begin, end;	/* the span judged (whole seconds) */
	double seconds;		/* its length: between its markers to the
				 * millisecond when it has both, else end -
				 * begin */
	int open;		/* begin without end */
	const struct marker *begin_m, *end_m;	/* NULL for the whole log */
	struct report_figures fig;
	struct report_waits waits;	/* the client's wait states */
	struct report_targets targets;	/* where backups land */
	int has_instr;
	char instr_src[600];	/* where the instrumentation came from */
	struct instr_report instr;
	struct report_verdict verdict;
	/* with --with (report_hosts_of.c): each server's side of the
	 * session, the client's own one-host verdict, and the host the
	 * verdict names ("" for the network or nothing; peer: the server
	 * the network verdict names) */
	struct report_peer *peers;	/* report.nwith of them, or NULL */
	struct report_verdict local;
	char verdict_host[64], verdict_peer[64];
	/* the process the wait graph's verdict names and its host ("":
	 * the counters' verdict, of no process) */
	char verdict_who[48], verdict_who_host[64];
	/* the stages of its data path (report_stages_of.c), malloc'ed or
	 * NULL; with --with, the servers' stages appended */
	struct report_stages *stages;
	/* the session's wait graph and where its seconds went
	 * (report_graph.c, verdict/verdict.h), malloc'ed or NULL (no
	 * tree's rows read) */
	struct report_graph *graph;
	char net_want[64];	/* the interface of its connections to
				 * another host (its `net` edges): its
				 * network figures are that one's */
	char disk_want[32];	/* the disk its processes waited on most
				 * (their `disk` edges): its disk figures
				 * are that one's (issue 46) */
};

/* One --with log set (a server's): open, its markers, its shift onto the
 * client's clock (logs/align.h). */
struct report_with {
	char dir[512];
	struct logset *ls;
	struct marker_list markers;
	struct align_shift shift;
};

/* A server's side of one client session: its own session of that name
 * (matched: 1; its span on its own clock), else the client's span
 * shifted onto its clock (matched: 0); its figures, its receiver's wait
 * states (Process(SESSION) when mark --watch logged one) and its own
 * one-host verdict, all in s. */
struct report_peer {
	int matched;
	int empty;	/* no row nor wait state of it covers the session (a
			 * set logged at another time): said and left out of
			 * the verdict across hosts */
	struct report_session s;
};

struct report {
	char dir[512];
	struct logset *ls;
	struct marker_list markers;
	struct report_session *s;
	size_t n;
	struct report_with *with;	/* --with sets, NULL without */
	size_t nwith;
	int verbose;	/* -v: the text report's fine print too, lines whole
			 * (report_print.c) */
	/* sessions that overlap (report_night.h), malloc'ed or NULL */
	struct report_night *night;
};

/* Open the log set, find its sessions and judge each. instr_file, when
 * not NULL, is a client output holding an instrumentation report that
 * applies to every session (otherwise each session's own output copy in
 * the log set is searched: end-marker extra "output=FILE", then
 * output-SESSION.log). Returns 0 or -1 with e set. */
int report_build(const char *dir, const char *instr_file,
		 struct report **out, struct perr *e);
void report_free(struct report *r);

/* Add the servers' sides (`report --with`, report_hosts_of.c): open
 * dirs[0..n), align each on r's clock (shifts[i] seconds, or NAN: the
 * offset the markers recorded), match each of r's sessions in each set,
 * judge each server's side alone, then replace every session's verdict
 * by the verdict across hosts (report_hosts.h), the client's own kept in
 * local. 0 or -1 with e set (a set that cannot be read). */
int report_add_hosts(struct report *r, char *const *dirs, size_t n,
		     const double *shifts, struct perr *e);
/* Free what report_add_hosts added (report_free calls it). */
void report_hosts_free(struct report *r);
/* The servers' sides of session s in the text report (before its
 * verdict): per server its span, clock shift, figures and receiver. */
void report_hosts_print(FILE *f, const struct report *r,
			const struct report_session *s);

/* The text report: the sessions at a glance (report_summary.h), then
 * each session: at the default level in about 25 lines of at most
 * REPORT_WIDTH columns, with r->verbose the fine print too, lines whole. */
#define REPORT_WIDTH 100
#define REPORT_STAGE_ROWS 4
void report_print(FILE *f, const struct report *r);
/* One session's part of it (the HTML page shows it under its verdict). */
void report_print_session(FILE *f, const struct report *r,
			  const struct report_session *s);

/* Two log sets' sessions side by side, matched by name, else by order,
 * with the change of each figure (absolute and %). */
void report_compare(FILE *f, const struct report *a, const struct report *b);

/* Pair A's sessions with B's: by name first, then the rest in order, each
 * B session used once. pair[i] is B's index for A's session i, or -1;
 * used[j] (zeroed by the caller, b->n bytes) is set for B's paired ones. */
void report_pair_sessions(const struct report *a, const struct report *b,
			  long *pair, char *used);

/* The report as JSON (report_json.c; schema in man/perflog-report.1), of
 * one log set, or of two compared with the pairing of their sessions. */
void report_json(FILE *f, const struct report *r);
void report_json_compare(FILE *f, const struct report *a,
			 const struct report *b);

/* OUTDIR/index.html: the text report and, per session, its charts (PNG
 * files in OUTDIR/session-N/, drawn with png_export over the session plus
 * a margin; the whole log without sessions). Plain static HTML with
 * relative links, only to files that exist. width/height 0: defaults. */
int report_html(const struct report *r, const char *outdir, int width,
		int height, struct perr *e);

/* The figures of one session of a log set filled from its values over
 * [from, to] (exposed for tests); mem_avail_ref is left NAN. 0 or -1 with
 * e set (a fetch failed). */
int report_figures_of(struct logset *ls, time_t from, time_t to,
		      struct report_figures *f, struct perr *e);
/* The same with the network figures of interface net and the disk
 * figures of disk when they are logged (the interface the session's
 * connections used, the disk its processes waited on), else the
 * busiest's (NULL or "": the busiest). */
int report_figures_used(struct logset *ls, time_t from, time_t to,
			const char *net, const char *disk,
			struct report_figures *f, struct perr *e);

/* The resource table and the wait states' table of the text report
 * (report_print.c), for a server's side too; who names the process
 * ("client", "receiver"). */
void report_print_resources(FILE *f, const struct report_figures *g,
			    int verbose);
/* The line before that table: how many rows it rests on, a warning under
 * REPORT_FEW_ROWS (suggesting -i 1), or that no row covers the span. */
void report_print_rows(FILE *f, const struct report_figures *g);
void report_print_waits(FILE *f, const struct report_waits *w,
			const char *who, int verbose);

/* A session's figures, its wait states and its own one-host verdict
 * (report.c): from its span and markers in ls (dir its directory), with
 * the instrumentation given (NULL: its own output copy when kept). */
int report_judge_session(struct logset *ls, const char *dir,
			 struct report_session *s,
			 const struct instr_report *given,
			 const char *given_file, time_t lend, struct perr *e);

/* The session's wait states (perflog run): the per-thread totals its end
 * marker names (waits=FILE in dir), else the logged Process counters of
 * its instance; the command's cgroup counters. w->have is 0 without. */
void report_waits_of(struct logset *ls, const char *dir,
		     const struct report_session *s, struct report_waits *w);

/* The session's wait graph from its stages' trees on every host
 * (report_graph.c): built and solved from the root, the first tree's
 * process started first; s->graph replaced (NULL when no tree's rows
 * were read). Printed after the stages table, in seconds and shares of
 * the session, and in --json as "graph", "charges" and "graph_verdict". */
void report_graph_of(struct report_session *s);
void report_graph_free(struct report_session *s);
void report_graph_print(FILE *f, const struct report_session *s);
struct json;
void report_graph_json(struct json *j, const struct report_session *s);
/* The verdict from the session's solved graph (report_verdict.c): its
 * line, evidence and remedy replace s->verdict, and name its host and
 * process, when the graph charged any of the root's seconds (across: and
 * the graph holds two hosts or more, a server's tree in it); 1 then, else
 * 0 and the counters' verdict stays (no watched process: report_rules.c;
 * across hosts, report_hosts.c). */
int report_graph_verdict(struct report_session *s, int across);

/* The stages of session s on its host (report_stages_of.c): its own
 * tree, the trees its end marker names (KEY.waits=FILE), the Process its
 * begin marker names as a server (KEY.server=Process(L)), and every
 * `mark --watch` session over it; each tree's waits-LABEL.tsv and
 * edges-LABEL.tsv in dir. Sets s->stages (NULL when out of memory). */
void report_stages_of(struct logset *ls, const char *dir,
		      const struct marker_list *ml, struct report_session *s);
/* The session's connections to another host used an interface (its
 * `net` edges') other than the busiest, or its processes waited on a
 * disk (its `disk` edges', the most seconds) other than the busiest,
 * logged here: s->net_want or s->disk_want set, 1 (the caller judges the
 * session again); else 0. */
int report_stages_redo(struct logset *ls, struct report_session *s);
/* The interfaces side's edges went through (waitedges_iface: a `net`
 * edge's, lo for a local tcp or udp one), comma-separated, into buf; how
 * many. */
size_t report_stages_ifaces(const struct report_stages *ss, int side,
			    char *buf, size_t n);
/* With --with: the servers' stages appended to the client's, ordered
 * across hosts (the wait graph is then built over all of them). */
void report_stages_across(struct report *r, struct report_session *s);

/* The log's largest Available Bytes over [from, to], the reference for
 * "memory low" (report_figures.mem_avail_ref); NAN when unknown. */
double report_mem_reference(struct logset *ls, time_t from, time_t to);

#endif
