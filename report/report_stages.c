/*
 * report_stages.c - the stages of a session's data path (report_stages.h;
 * the rules in prose in report/README.md, "The stages of the data path").
 *
 * A stage is a process of a watched tree that worked: its working
 * threads' seconds summed from the tree's waits-LABEL.tsv rows of its
 * pid. Its busy share is what it spent on its own resources (running,
 * waiting for a CPU, the disk, the network to another host); a wait on a
 * pipe or a local socket is a wait on its neighbour, counted there. The
 * edges (edges-LABEL.tsv) say who fed whom: "out" from A to B, or "in"
 * at B waiting on A, is data A -> B; a client's `net` edge leads to the
 * --with server's stages. The stages are ordered along that flow.
 */
#include "report_stages.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

int report_stages_tree(struct report_stages *ss, int side, const char *label,
		       const struct report_waits *w)
{
	struct report_stage_tree *t;

	if (ss->ntrees >= REPORT_STAGE_TREES_MAX)
		return -1;
	t = &ss->trees[ss->ntrees];
	memset(t, 0, sizeof(*t));
	util_strlcpy(t->label, label, sizeof(t->label));
	t->side = side;
	if (w)
		t->w = *w;
	if (side + 1 > ss->nsides)
		ss->nsides = side + 1;
	return (int)ss->ntrees++;
}

/* The columns of a totals file, by header name (waitrates_format's, the
 * pid column of issue 29 last; older files have no pid, or no threads). */
enum { C_TID, C_COMM, C_ALIVE, C_CPU, C_CPUW, C_DISK, C_NET, C_OTHER,
	C_SLEEP, C_IO, C_WORKING, C_THREADS, C_PID, C_N };
static const char *const wcol[C_N] = { "tid", "comm", "alive", "cpu",
	"cpu_wait", "disk", "net", "other", "sleep", "io_bytes", "working",
	"threads", "pid" };

/* Split line (NUL-terminated, modified) at tabs into f[0..max). */
static int split_tabs(char *line, char **f, int max)
{
	int n = 0;

	for (char *p = line; p && n < max;) {
		char *t = strchr(p, '\t');
		f[n++] = p;
		if (t)
			*t = '\0';
		p = t ? t + 1 : NULL;
	}
	return n;
}

/* Each line of text into fn(line, arg); a line longer than 1 KiB is cut. */
#define LINE_MAX_ 1024
static int header_map(char *line, const char *const *names, int n, int *map)
{
	char *f[32];
	int nf = split_tabs(line, f, 32), found = 0;

	for (int c = 0; c < n; c++) {
		map[c] = -1;
		for (int k = 0; k < nf; k++)
			if (!strcmp(f[k], names[c])) {
				map[c] = k;
				found++;
			}
	}
	return found;
}

static struct report_stage *stage_of(struct report_stages *ss, int tree,
				     pid_t pid, const char *comm)
{
	/* comm NULL: the tree's one stage (a file without the pid column);
	 * pid 0 with a comm: the ended threads folded by that name */
	for (size_t i = 0; i < ss->n; i++)
		if (ss->st[i].tree == tree && ss->st[i].pid == pid &&
		    (pid || !comm || !strcmp(ss->st[i].comm, comm)))
			return &ss->st[i];
	if (ss->n >= REPORT_STAGES_MAX)
		return NULL;
	struct report_stage *s = &ss->st[ss->n++];
	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->tree = tree;
	s->side = ss->trees[tree].side;
	s->waits_stage = -1;
	util_strlcpy(s->comm, comm ? comm : "", sizeof(s->comm));
	return s;
}

long report_stages_add_waits(struct report_stages *ss, int tree,
			     const char *text, size_t len)
{
	int map[C_N], haspid;
	size_t first = ss->n;
	char line[LINE_MAX_];
	const char *p = text, *end = text + len;
	int head = 1;
	double best_cpu = -1;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = (size_t)((nl ? nl : end) - p);
		char *f[32];
		int nf;

		snprintf(line, sizeof(line), "%.*s", (int)ll, p);
		p += ll + 1;
		if (head) {
			head = 0;
			if (header_map(line, wcol, C_N, map) < C_THREADS - 1 ||
			    map[C_TID] < 0 || map[C_ALIVE] < 0)
				return -1;
			continue;
		}
		nf = split_tabs(line, f, 32);
		if (nf <= map[C_WORKING] || nf <= map[C_SLEEP])
			continue;
		struct waits_total t = { 0 };
		t.tid = (pid_t)atol(f[map[C_TID]]);
		util_strlcpy(t.comm, f[map[C_COMM]], sizeof(t.comm));
		t.alive = atof(f[map[C_ALIVE]]);
		for (int k = 0; k < WS_N; k++)
			t.sec[k] = atof(f[map[C_CPU + k]]);
		t.io_bytes = map[C_IO] >= 0 ? strtoull(f[map[C_IO]], NULL, 10) : 0;
		t.working = atoi(f[map[C_WORKING]]) != 0;
		t.threads = map[C_THREADS] >= 0 && map[C_THREADS] < nf ?
			(unsigned)atol(f[map[C_THREADS]]) : 1;
		if (!waitrates_working(&t) || !(t.alive > 0))
			continue;
		haspid = map[C_PID] >= 0 && map[C_PID] < nf;
		/* without the pid column the tree is one stage, named by the
		 * command that ran most */
		pid_t pid = haspid ? (pid_t)atol(f[map[C_PID]]) : 0;
		struct report_stage *s = stage_of(ss, tree, pid,
						  haspid ? t.comm : NULL);
		if (!s)
			continue;
		if (!haspid && t.sec[WS_CPU] > best_cpu) {
			best_cpu = t.sec[WS_CPU];
			util_strlcpy(s->comm, t.comm, sizeof(s->comm));
		}
		s->alive += t.alive;
		s->nthreads += t.threads ? t.threads : 1;
		for (int k = 0; k < WS_N; k++)
			s->sec[k] += t.sec[k];
	}
	return (long)(ss->n - first);
}

void report_stages_add_tree(struct report_stages *ss, int tree,
			    const double pct[WS_N], double seconds)
{
	struct report_stage *s;
	double sum = 0;

	for (int k = 0; k < WS_N; k++)
		sum += isnan(pct[k]) ? 0 : pct[k];
	if (!(sum > 0) || !(seconds > 0))
		return;
	s = stage_of(ss, tree, 0, NULL);
	if (!s)
		return;
	util_strlcpy(s->comm, ss->trees[tree].label, sizeof(s->comm));
	s->alive = seconds;
	s->nthreads = 1;
	for (int k = 0; k < WS_N; k++)
		s->sec[k] = isnan(pct[k]) ? 0 : seconds * pct[k] / sum;
}

enum { E_PID, E_COMM, E_DIR, E_KIND, E_PPID, E_PCOMM, E_LOCAL, E_REMOTE,
	E_SEC, E_BYTES, E_N };
static const char *const ecol[E_N] = { "pid", "comm", "dir", "kind",
	"peer_pid", "peer_comm", "local", "remote", "seconds", "bytes" };

long report_stages_add_edges(struct report_stages *ss, int tree,
			     const char *text, size_t len)
{
	int map[E_N], head = 1;
	int side = tree >= 0 && (size_t)tree < ss->ntrees ?
		ss->trees[tree].side : 0;
	char line[LINE_MAX_];
	const char *p = text, *end = text + len;
	long n = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = (size_t)((nl ? nl : end) - p);
		char *f[32];
		int nf, need = 0;

		snprintf(line, sizeof(line), "%.*s", (int)ll, p);
		p += ll + 1;
		if (head) {
			head = 0;
			if (header_map(line, ecol, E_N, map) < E_SEC + 1 ||
			    map[E_PID] < 0 || map[E_SEC] < 0)
				return -1;
			if (side >= 0 && side < 32)
				ss->edge_sides |= 1u << side;
			continue;
		}
		nf = split_tabs(line, f, 32);
		for (int c = 0; c < E_N; c++)
			if (map[c] > need)
				need = map[c];
		if (nf <= need && !(map[E_BYTES] == need && nf == need))
			continue;
		struct report_stage_edge e = { .side = side, .tree = tree };
		e.pid = (pid_t)atol(f[map[E_PID]]);
		util_strlcpy(e.comm, f[map[E_COMM]], sizeof(e.comm));
		e.out = !strcmp(f[map[E_DIR]], "out");
		util_strlcpy(e.kind, f[map[E_KIND]], sizeof(e.kind));
		e.peer_pid = (pid_t)atol(f[map[E_PPID]]);
		util_strlcpy(e.peer_comm, f[map[E_PCOMM]], sizeof(e.peer_comm));
		util_strlcpy(e.local, f[map[E_LOCAL]], sizeof(e.local));
		util_strlcpy(e.remote, f[map[E_REMOTE]], sizeof(e.remote));
		e.seconds = atof(f[map[E_SEC]]);
		e.bytes = map[E_BYTES] >= 0 && map[E_BYTES] < nf ?
			atof(f[map[E_BYTES]]) : 0;
		if (!(e.seconds >= 0) || e.pid <= 0)
			continue;
		if (ss->ne >= REPORT_STAGE_EDGES_MAX)
			break;
		if (!ss->e && !(ss->e = calloc(REPORT_STAGE_EDGES_MAX,
					       sizeof(*ss->e))))
			break;
		ss->e[ss->ne++] = e;
		n++;
	}
	if (side + 1 > ss->nsides)
		ss->nsides = side + 1;
	return n;
}

void report_stages_append(struct report_stages *ss,
			  const struct report_stages *from, int side)
{
	size_t tree0 = ss->ntrees;

	for (size_t t = 0; t < from->ntrees && ss->ntrees <
	     REPORT_STAGE_TREES_MAX; t++) {
		ss->trees[ss->ntrees] = from->trees[t];
		ss->trees[ss->ntrees++].side = side;
	}
	for (size_t i = 0; i < from->n && ss->n < REPORT_STAGES_MAX; i++) {
		if (tree0 + (size_t)from->st[i].tree >= ss->ntrees)
			continue;
		ss->st[ss->n] = from->st[i];
		ss->st[ss->n].side = side;
		ss->st[ss->n].tree += (int)tree0;
		ss->st[ss->n++].waits_stage = -1;
	}
	for (size_t i = 0; i < from->ne; i++) {
		if (ss->ne >= REPORT_STAGE_EDGES_MAX)
			break;
		if (!ss->e && !(ss->e = calloc(REPORT_STAGE_EDGES_MAX,
					       sizeof(*ss->e))))
			break;
		ss->e[ss->ne] = from->e[i];
		ss->e[ss->ne].tree += (int)tree0;
		ss->e[ss->ne++].side = side;
	}
	if (side < 4)
		util_strlcpy(ss->hosts[side], from->hosts[0], sizeof(ss->hosts[0]));
	if ((from->edge_sides & 1u) && side >= 0 && side < 32)
		ss->edge_sides |= 1u << side;
	if (side + 1 > ss->nsides)
		ss->nsides = side + 1;
}

void report_stages_free(struct report_stages *ss)
{
	free(ss->e);
	ss->e = NULL;
	ss->ne = 0;
}
