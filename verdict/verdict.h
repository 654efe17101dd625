/*
 * verdict.h - the interface of verdict/: a session's wait graph and its
 * solution, where the seconds of the session's root went (issue 46,
 * DESIGN.md "The verdict"; verdict/README.md has the model).
 *
 *   graph.c    the graph: hosts, processes with their seconds in each
 *              state, resources, wait edges in seconds, interval by
 *              interval (vgraph_*); a tree's root (verdict_tree_root)
 *   solve.c    follows each second of a root through its waits to the
 *              resources that held it (verdict_solve), and the verdict
 *              of a root (verdict_of)
 *   knots.c    the knots of an interval: Tarjan's strongly connected
 *              components of the process-to-process waits
 *   build.c    a graph from the parsed files of a session's trees
 *              (waits and edges rows, hosts, cgroups, disks): data in,
 *              no paths (verdict_build); its waits in build_edges.c,
 *              where its seconds fall in build_weights.c (build_int.h)
 *   words.c    the verdict's words, one table (verdict_word)
 *
 * Pure: no printing, no file I/O, no clock. Every figure is seconds; a
 * percentage is only ever a share of the session.
 */
#ifndef PERFLOG_VERDICT_H
#define PERFLOG_VERDICT_H

#include <stddef.h>
#include <sys/types.h>

#include "../waits/waitstates.h"

/* ---- the words ---------------------------------------------------- */

/* The verdict's first word (scripts read it): one of five. */
enum verdict_kind {
	VERDICT_NOTHING,
	VERDICT_CPU,
	VERDICT_DISK,
	VERDICT_NETWORK,
	VERDICT_MEMORY,
	VERDICT_NKIND
};

/* The resources a second can be charged to. */
enum vres_type {
	VRES_CPU,	/* a host's CPUs: ran, or waited to run */
	VRES_QUOTA,	/* a cgroup's CPU quota, when it throttled */
	VRES_DISK,	/* a disk device (by name; "" unknown) */
	VRES_NET,	/* the network path from a host (to another, with
			 * the interface), to one peer address */
	VRES_MEMORY,	/* a cgroup's memory limit */
	VRES_PACING,	/* a process's own pacing: asleep by choice */
	VRES_UNSEEN,	/* what the log does not see: a peer with no
			 * states, a wait on nobody found */
	VRES_NTYPE
};

/* One row of the table the report, the man page and the README take
 * their words from: a resource's first word (its kind) and its detail. */
struct verdict_word {
	enum vres_type type;
	enum verdict_kind kind;	/* its word: verdict_kind_word */
	const char *detail;	/* "cpu", "cpu-quota", "disk", "network",
				 * "memory", "paced", "not-seen" */
	const char *means;	/* a phrase: "ran on the host's CPUs" */
};

const struct verdict_word *verdict_word(enum vres_type t);
/* "CPU", "disk", "network", "memory", "nothing" */
const char *verdict_kind_word(enum verdict_kind k);
/* The colour of a first word ("#RRGGBB"), one table for the HTML page,
 * its lanes and the viewer's lanes; a word not of the five: nothing's. */
const char *verdict_kind_colour(enum verdict_kind k);
const char *verdict_word_colour(const char *word);

/* ---- the graph ---------------------------------------------------- */

/* A process's own seconds, by what it did (a thread's seconds: a process
 * of four threads has up to four seconds a second). */
enum vstate {
	VS_RUN,		/* on a CPU */
	VS_RUNQ,	/* runnable, waiting for a CPU */
	VS_DISK,	/* blocked on the disk */
	VS_NET,		/* blocked on the network, no edge known */
	VS_MEMORY,	/* stalled on its cgroup's memory limit */
	VS_SLEEP,	/* asleep by choice, in a thread that moved data */
	VS_OTHER,	/* blocked on something no edge names (not seen) */
	VS_IDLE,	/* threads that did no work: parked pools, helpers;
			 * never charged but for what nothing else covers */
	VS_N
};

/* A host, with the resources every host has (added with it). */
struct vg_host {
	char name[64];
	int cpu, disk, net, pacing, unseen;	/* its CPUs, its disk and
						 * network when the device or
						 * path is unknown, pacing,
						 * not seen */
};

struct vg_res {
	enum vres_type type;
	int host;		/* its host */
	int far_host;		/* VRES_NET: the other end's, -1 unknown */
	char name[64];		/* device, interface, cgroup; "" unknown */
	/* VRES_NET: the far end's address, the connection's remote
	 * address without its port (waitedges_remote_host), "" unknown.
	 * A path is its peer's: the server's connections from four
	 * clients are four paths, so one client's shaped link is its own
	 * resource, not the others' (t3742); two connections from one
	 * address (one host, or clients behind one NAT'ed uplink) are
	 * one path. */
	char peer[48];
};

struct vg_cgroup {
	int host;
	char name[128];
	int quota_res;		/* VRES_QUOTA resource, -1 none */
	int memory_res;		/* VRES_MEMORY resource, -1 no limit */
	double *throttled;	/* [nint]: share 0..1 of its CPU time the
				 * quota held (throttled periods) */
};

struct vg_proc {
	int host;
	pid_t pid;		/* 0: a tree known as one, or a peer by name */
	char comm[16];
	/* the command the verdict groups it with (verdict_cmd_user): its
	 * comm, unless the caller names its stage otherwise (make demo's
	 * server and clients are all "perflog": one command of 6
	 * processes to the comm, three stages to the report) */
	char group[48];
	char tree[128];		/* the watched tree's label, "" a peer */
	unsigned long long start;	/* its main thread's start, or 0 */
	int cgroup;		/* -1 none */
	int disk_res;		/* the disk its files are on, -1 unknown */
	double *alive;		/* [nint]: wall seconds alive */
	double *sec;		/* [nint * VS_N]: its threads' seconds */
};

/* One wait: process `from` waited `sec[i]` seconds of interval i on
 * process `to` (a pipe, a socket, wait4), or on the network path `res`
 * (then `to` is the far end's process when known, else -1). */
struct vg_edge {
	int from, to, res;
	char kind[8];		/* pipe unix tcp udp child net */
	double *sec;		/* [nint] */
};

struct vgraph {
	size_t nint;		/* intervals; session totals are one */
	double *len;		/* [nint]: each interval's seconds */
	struct vg_host *host;
	size_t nhost, caphost;
	struct vg_res *res;
	size_t nres, capres;
	struct vg_cgroup *cg;
	size_t ncg, capcg;
	struct vg_proc *proc;
	size_t nproc, capproc;
	struct vg_edge *edge;
	size_t nedge, capedge;
};

/* An empty graph of nint intervals of len[i] seconds: 0, -1 out of
 * memory. */
int vgraph_init(struct vgraph *g, size_t nint, const double *len);
void vgraph_free(struct vgraph *g);
/* The session's seconds: the intervals' sum. */
double vgraph_seconds(const struct vgraph *g);

/* Each of these finds the vertex with the same identity or adds it: its
 * index, or -1 out of memory. */
int vgraph_host(struct vgraph *g, const char *name);
/* A resource by (type, host, far_host, name); far_host -1 but for
 * VRES_NET; a network path of no peer (""). */
int vgraph_res(struct vgraph *g, enum vres_type type, int host, int far_host,
	       const char *name);
/* The network path from host (to far_host, -1 unknown) through
 * interface iface to the peer address peer ("" or NULL: of no peer),
 * by all four. */
int vgraph_net(struct vgraph *g, int host, int far_host, const char *iface,
	       const char *peer);
/* A cgroup of host by name; quota > 0 (CPUs) gives it a VRES_QUOTA
 * resource, memory_limit a VRES_MEMORY one. */
int vgraph_cgroup(struct vgraph *g, int host, const char *name, double quota,
		  int memory_limit);
/* A process by (host, pid), or (host, comm) when pid is 0; comm and tree
 * are set when it is added (tree may be NULL: a peer). */
int vgraph_proc(struct vgraph *g, int host, pid_t pid, const char *comm,
		const char *tree);
/* The process (host, pid) or (host, comm) if the graph has it, else -1. */
int vgraph_find_proc(const struct vgraph *g, int host, pid_t pid,
		     const char *comm);
/* An edge by (from, to, res, kind). */
int vgraph_edge(struct vgraph *g, int from, int to, int res,
		const char *kind);

/* A process's seconds in interval i: state s, and alive. */
static inline double *vgraph_sec(const struct vgraph *g, int p, size_t i)
{
	return g->proc[p].sec + i * VS_N;
}
/* A process's seconds over the session: alive returned, each state in
 * sec (may be NULL). */
double vgraph_proc_total(const struct vgraph *g, int p, double sec[VS_N]);
/* An edge's seconds over the session. */
double vgraph_edge_total(const struct vgraph *g, int e);

/* ---- the solver ----------------------------------------------------- */

/* A runner-up resource within this factor of the verdict's seconds is
 * named beside it: which of the two held the session is not clear. */
#define VERDICT_MARGIN 1.25
/* A cgroup stalled on memory (Pressure some) this share of the session
 * or more: its threads' disk waits are reading back what its limit
 * evicted (t3510's memory case: the kernel counted 12% stalled while its
 * thread waited on the disk 73%, every read a page the limit had
 * evicted); under it, only the stalled share is the memory's (a
 * disk-bound client stalls on memory ~0%). */
#define VERDICT_MEMSTALL 0.05
/* Waits are followed at most this deep; a longer chain's rest is not
 * seen. */
#define VERDICT_DEPTH 32

/* Seconds of a root charged to a resource, because process `proc` spent
 * them on it (ran, waited for it). */
struct vcharge {
	int root;		/* index in the solution's roots */
	int res, proc;
	double sec;
	double queued;		/* of sec: runnable, waiting for a CPU */
};

struct vsolution {
	int *roots;		/* process of each root */
	size_t nroots;
	double *followed;	/* [nroots]: the root's seconds followed */
	struct vcharge *c;	/* sorted by root, then seconds (most
				 * first) */
	size_t n, cap;
};

/* Follow each second each root was alive through its waits (roots
 * separate: each root's charges add up to its own seconds). 0, -1 out of
 * memory. */
int verdict_solve(const struct vgraph *g, const int *roots, size_t nroots,
		  struct vsolution *s);
void vsolution_free(struct vsolution *s);

/* Seconds charged to resource res for root r (all processes). */
double verdict_res_seconds(const struct vsolution *s, size_t r, int res);
/* The process whose own seconds on res were charged most for root r
 * (-1 none), and those seconds in *sec (may be NULL). */
int verdict_res_user(const struct vsolution *s, size_t r, int res,
		     double *sec);

/* The command (on its host) whose processes' own seconds on res were
 * charged most for root r (a shell's loop of gzips, each alive a moment,
 * is one command): its process charged most (-1 none), the command's
 * seconds in *sec and its processes charged in *nprocs (either may be
 * NULL); when that process holds half the command's seconds or more,
 * it alone (its seconds, *nprocs 1). */
int verdict_cmd_user(const struct vgraph *g, const struct vsolution *s,
		     size_t r, int res, double *sec, int *nprocs);

struct verdict {
	enum verdict_kind kind;	/* the first word */
	const struct verdict_word *word;	/* kind and detail */
	int res;		/* the resource, -1: nothing charged */
	int host;		/* its host */
	int proc;		/* the process of the command that used it
				 * most (verdict_cmd_user), -1 */
	int nprocs;		/* that command's processes charged */
	double sec;		/* seconds charged to it */
	double proc_sec;	/* of those, the command's */
	double share;		/* sec, as a share 0..1 of the session */
	int runner_res;		/* a resource within VERDICT_MARGIN, -1 */
	int runner_proc;
	double runner_sec;
};

/* The verdict of root r: the resource holding the most of its seconds
 * (a resource of no kind, pacing or not seen, is the verdict only when
 * nothing else holds more: then the word is "nothing"). */
void verdict_of(const struct vgraph *g, const struct vsolution *s, size_t r,
		struct verdict *v);

/* ---- the knots ------------------------------------------------------ */

/* The knot of each process in interval i (knot[p], numbered from 0; a
 * process in no cycle is a knot of one): Tarjan's strongly connected
 * components over the process-to-process edges with seconds in i. The
 * knots' count, or -1 out of memory. */
long verdict_knots(const struct vgraph *g, size_t i, int *knot);

/* ---- the builder ---------------------------------------------------- */

/* A cgroup's figures over the session, as the report has them. */
struct verdict_cgroup_in {
	const char *name;	/* NULL: the tree has no cgroup of its own */
	double quota;		/* CPUs; 0 or NAN: none */
	double throttled;	/* share 0..1 of the session throttled */
	int memory_limit;	/* a limit of its own */
	double memory_stall;	/* share 0..1 of the session stalled on
				 * memory (Pressure some) */
};

/* One watched tree of one host, parsed (waitrates_parse,
 * waitedges_parse, waitrows_parse). */
struct verdict_tree_in {
	const char *host;	/* the host's name */
	const char *label;	/* Process(LABEL) */
	const struct waits_totals *waits;
	const struct waitedge_row *edges;
	size_t nedges;
	/* the same seconds interval by interval (waits-LABEL.rows.tsv),
	 * NULL: none (a set of before them): its seconds spread over the
	 * session evenly */
	const struct waitrows_file *rows;
	double shift;		/* seconds added to the rows' times to put
				 * them on the report's clock (a --with
				 * host's offset; 0 the report's own) */
	const char *disk;	/* the device its files are on, NULL unknown */
	/* an interface of its host that ran at its capacity over the
	 * session (the report's "the link is full"), NULL none: a net
	 * edge through it is on the interface's one path, not its peer's
	 * (the server's NIC full is every client's limit, shared) */
	const char *net_full;
	struct verdict_cgroup_in cg;
	/* share 0..1 of the tree's CPU time spent in the kernel (its
	 * command's rusage: stime over utime + stime); 0 or NAN unknown.
	 * In a group its memory limit held, a thread that waited on the
	 * disk ran that share of its running faulting pages back in and
	 * reclaiming: the memory's, not the CPU's */
	double kernel_share;
};

/* The graph of a session of `seconds` from `begin` (wall seconds on the
 * report's clock) from its trees. Intervals: when a tree has rows and
 * begin is known, the session cut at the multiples of the finest
 * rows' step (every host and tree on the same spans; at most
 * VERDICT_INTERVALS of them, the step doubled until so), else one. Each
 * tree's totals stay its amounts (the rows add up to them but for the
 * totals' later corrections); the rows say when: a process's seconds
 * in each state, its wall seconds alive and each edge's seconds are
 * spread over the intervals as its rows' (redistributed by overlap,
 * bins of another step or host's clock too); a process no row names
 * (past the rows' bound: its name's summed row) as its name's, else as
 * its tree's alive; a state its rows never had as its alive; a tree of
 * no rows evenly. Processes are each tree's pids; a peer an
 * edge names that no tree has is a process of no seconds (not seen); a
 * net edge whose mirror (addresses swapped) is a net edge of another
 * host's tree joins the two processes through the path between the
 * hosts, to its remote address (through net_full: the interface's
 * path, of no peer); one no row mirrors (the far end, an sshd, not watched) reaches
 * the first tree's root of the other host when there is exactly one.
 * 0, -1 out of memory (g then freed). */
int verdict_build(struct vgraph *g, const struct verdict_tree_in *trees,
		  size_t n, double begin, double seconds);
/* Intervals of a graph at most (a night of 10 hours at 128 s). */
#define VERDICT_INTERVALS 512
/* The process a tree's seconds start from: of its processes alive, the
 * one whose main thread started first (the command, or the client a mark
 * session watches); of those started together, one no process of the
 * tree waits on (the command waits on its stages), then the lowest pid;
 * -1 when the tree has no process alive in g. */
int verdict_tree_root(const struct vgraph *g, const char *host,
		      const char *label);

/* ---- a night: overlapping sessions, the limit they shared ----------- */

/* A session held a resource when the solver charged it at least this
 * share of the session's seconds: below it, a session that only touched
 * the host's CPUs between its waits does not make them shared. */
#define VERDICT_NIGHT_HELD 0.10

/* One session of a night: its span on the night's clock (seconds) and
 * the index of its root in the solution (verdict_solve's roots), -1
 * when it has none (no tree's rows: it is ranked, never charged). */
struct vnight_in {
	double begin, end;
	int root;
};

/* The night (verdict_night): each session's verdict, whether the
 * resource that held it was its own, and the shared limit. Seconds on a
 * resource "while they overlapped" spread each root's charges evenly
 * over its span (the trees' files are session totals). */
struct vnight {
	size_t n;
	struct verdict *v;	/* [n]: each root's verdict (res -1: none) */
	int *own;		/* [n]: its verdict's resource no other
				 * session held while they overlapped (its
				 * own link, quota, host): said, and not
				 * counted in the shared limit */
	double *overlap;	/* [n]: its seconds beside another session */
	int shared;		/* the resource two sessions or more held
				 * while they overlapped, the most seconds;
				 * -1 none */
	double *on;		/* [n]: each session's seconds on it while
				 * another holder ran too (0: not a holder) */
	double together;	/* wall seconds two holders or more ran */
	double overlapped;	/* wall seconds two sessions or more ran */
};

/* The night of n sessions over graph g solved as s (one root a session
 * with a root): the verdicts, own resources and the shared limit. The
 * shared limit is a resource (a host's CPUs, a cgroup's quota, a disk,
 * a network path, a memory limit; never pacing or not seen) that two
 * sessions or more each held (VERDICT_NIGHT_HELD) in a span where both
 * ran, sessions held by their own resource left out; ranked by the
 * seconds the holders spent on it there. 0, -1 out of memory. */
int verdict_night(const struct vgraph *g, const struct vsolution *s,
		  const struct vnight_in *in, size_t n, struct vnight *out);
void vnight_free(struct vnight *nt);

#endif
