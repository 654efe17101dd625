/*
 * waitrows.c - a watched tree's seconds interval by interval (waitrows.h):
 * the series kept while the session is logged, the file, its reader.
 */
#define _GNU_SOURCE
#include "waitrows.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "#perflog-rows"
#define PW (1 + WS_N)	/* a process's bin: alive, then the states */

static int64_t floor_div(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

void waitrows_init(struct waitrows *r, double step)
{
	memset(r, 0, sizeof(*r));
	r->step = step > 0 ? step : 1;
	r->sample = 1;
	r->fold_at = WAITROWS_PROCS;
}

void waitrows_clock(struct waitrows *r, double off)
{
	if (r && !r->clocked) {
		r->off = off;
		r->clocked = 1;
	}
}

/* Bin k of s (width w), the series grown to hold it; NULL on OOM. */
static double *bin(struct waitrows *r, struct waitrows_series *s, int64_t k,
		   size_t w)
{
	if (!s->n) {
		s->first = k;
	} else if (k < s->first) {	/* a late member's life before */
		size_t more = (size_t)(s->first - k);

		if (util_grow(&s->v, &s->cap, (s->n + more) * w, sizeof(*s->v)))
			return NULL;
		memmove(s->v + more * w, s->v, s->n * w * sizeof(*s->v));
		memset(s->v, 0, more * w * sizeof(*s->v));
		s->n += more;
		s->first = k;
	}
	if (k >= s->first + (int64_t)s->n) {
		size_t n = (size_t)(k - s->first) + 1;

		if (util_grow(&s->v, &s->cap, n * w, sizeof(*s->v)))
			return NULL;
		memset(s->v + s->n * w, 0, (n - s->n) * w * sizeof(*s->v));
		s->n = n;
	}
	if (!r->any || k < r->lo)
		r->lo = k;
	if (!r->any || k > r->hi)
		r->hi = k;
	r->any = 1;
	return s->v + (size_t)(k - s->first) * w;
}

/* Add x[0..nx) over wall span [a, b) to s's bins from column col, each
 * bin its share of the span. */
static void spread(struct waitrows *r, struct waitrows_series *s, size_t w,
		   size_t col, double a, double b, const double *x, size_t nx)
{
	if (r->failed || !(b > a))
		return;
	int64_t k0 = (int64_t)floor(a / r->step), k1 = (int64_t)floor(b / r->step);

	for (int64_t k = k0; k <= k1; k++) {
		double lo = (double)k * r->step, hi = lo + r->step;
		double f = ((b < hi ? b : hi) - (a > lo ? a : lo)) / (b - a);
		double *v;

		if (!(f > 0))
			continue;
		if (!(v = bin(r, s, k, w))) {
			r->failed = 1;
			return;
		}
		for (size_t j = 0; j < nx; j++)
			v[col + j] += f * x[j];
	}
}

static struct waitrows_proc *proc_of(struct waitrows *r, pid_t pid,
				     const char *comm)
{
	/* a pool's threads come one after another: the last one's first */
	if (r->last < r->np && pid && r->p[r->last].pid == pid)
		return &r->p[r->last];
	for (size_t i = r->np; i-- > 0;)	/* the newest first */
		if (r->p[i].pid == pid &&
		    (pid || !strncmp(r->p[i].comm, comm, sizeof(r->p[i].comm))))
			return &r->p[r->last = i];
	if (util_grow(&r->p, &r->capp, r->np + 1, sizeof(*r->p)))
		return NULL;
	r->last = r->np;
	struct waitrows_proc *p = &r->p[r->np++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	return p;
}

void waitrows_thread(struct waitrows *r, pid_t pid, const char *comm,
		     double t0, double t1, const double sec[WS_N])
{
	if (!r || r->failed)
		return;
	struct waitrows_proc *p = proc_of(r, pid, comm);
	double a = t0 + r->off, b = t1 + r->off;

	if (!p) {
		r->failed = 1;
		return;
	}
	waitrates_comm(p->comm, comm);	/* its latest name */
	if (p->sample != r->sample) {
		p->sample = r->sample;
		p->lo = a;
		p->hi = b;
	} else {
		p->lo = a < p->lo ? a : p->lo;
		p->hi = b > p->hi ? b : p->hi;
	}
	spread(r, &p->s, PW, 1, a, b, sec, WS_N);
}

void waitrows_edge(struct waitrows *r, uint32_t id, double t0, double t1,
		   double sec)
{
	if (!r || r->failed)
		return;
	if (id >= r->ne) {
		size_t old = r->ne;

		if (util_grow(&r->e, &r->cape, (size_t)id + 1, sizeof(*r->e))) {
			r->failed = 1;
			return;
		}
		memset(r->e + old, 0, ((size_t)id + 1 - old) * sizeof(*r->e));
		r->ne = (size_t)id + 1;
	}
	spread(r, &r->e[id], 1, 0, t0 + r->off, t1 + r->off, &sec, 1);
}

/* s with its bins two by two (the step doubled). */
static void halve(struct waitrows *r, struct waitrows_series *s, size_t w)
{
	if (!s->n)
		return;
	int64_t first = floor_div(s->first, 2);
	size_t n = (size_t)(floor_div(s->first + (int64_t)s->n - 1, 2) - first) + 1;
	double *v = calloc(n * w, sizeof(*v));

	if (!v) {
		r->failed = 1;
		return;
	}
	for (size_t i = 0; i < s->n; i++) {
		size_t j = (size_t)(floor_div(s->first + (int64_t)i, 2) - first);

		for (size_t c = 0; c < w; c++)
			v[j * w + c] += s->v[i * w + c];
	}
	free(s->v);
	s->v = v;
	s->first = first;
	s->cap = n * w;
	s->n = n;
}

/* Add b's bins into a's (a a folded row). */
static void merge_into(struct waitrows *r, struct waitrows_series *a,
		       const struct waitrows_series *b)
{
	for (size_t i = 0; i < b->n && !r->failed; i++) {
		double *v = bin(r, a, b->first + (int64_t)i, PW);

		if (!v) {
			r->failed = 1;
			return;
		}
		for (size_t c = 0; c < PW; c++)
			v[c] += b->v[i * PW + c];
	}
}

/* The processes not in this sample (ended) summed by name. */
static void fold(struct waitrows *r)
{
	size_t keep = 0;

	for (size_t i = 0; i < r->np && !r->failed; i++) {
		struct waitrows_proc *p = &r->p[i];

		if (!p->pid || p->sample == r->sample) {
			r->p[keep++] = *p;
			continue;
		}
		struct waitrows_proc *a = NULL;

		for (size_t j = 0; j < keep && !a; j++)
			if (!r->p[j].pid && !strcmp(r->p[j].comm, p->comm))
				a = &r->p[j];
		if (!a) {	/* p becomes its name's row */
			p->pid = 0;
			r->p[keep++] = *p;
			continue;
		}
		merge_into(r, &a->s, &p->s);
		free(p->s.v);
	}
	if (r->failed)
		return;
	r->np = keep;
	r->fold_at = 2 * keep > WAITROWS_PROCS ? 2 * keep : WAITROWS_PROCS;
}

void waitrows_next(struct waitrows *r)
{
	if (!r || r->failed)
		return;
	for (size_t i = 0; i < r->np; i++) {
		struct waitrows_proc *p = &r->p[i];
		double span = p->hi - p->lo;

		if (p->sample == r->sample)
			spread(r, &p->s, PW, 0, p->lo, p->hi, &span, 1);
	}
	while (r->any && r->hi - r->lo + 1 > WAITROWS_BINS && !r->failed) {
		r->step *= 2;
		r->lo = floor_div(r->lo, 2);
		r->hi = floor_div(r->hi, 2);
		for (size_t i = 0; i < r->np; i++)
			halve(r, &r->p[i].s, PW);
		for (size_t i = 0; i < r->ne; i++)
			halve(r, &r->e[i], 1);
	}
	if (r->np > r->fold_at)
		fold(r);
	r->sample++;
}

/* Bin k of s (width w), or NULL outside it. */
static const double *at(const struct waitrows_series *s, int64_t k, size_t w)
{
	if (!s->n || k < s->first || k >= s->first + (int64_t)s->n)
		return NULL;
	return s->v + (size_t)(k - s->first) * w;
}

/* The name the p lines give pid, or NULL. */
static const char *name_of(const struct waitrows *r, pid_t pid)
{
	for (size_t i = r->np; pid > 0 && i-- > 0;)
		if (r->p[i].pid == pid)
			return r->p[i].comm;
	return NULL;
}

/* Bin k's e lines: the edges with seconds in it, summed into rows as
 * edges-LABEL.tsv's are. */
static int edge_lines(const struct waitrows *r, int64_t k,
		      const struct waitpeer_edge *keys, size_t nkeys,
		      struct strbuf *b, double *sec, struct waitpeer_edge *ks)
{
	size_t m = 0;
	struct waitedge_row *rows;
	char line[512];

	for (size_t id = 0; id < r->ne && id < nkeys; id++) {
		const double *v = at(&r->e[id], k, 1);

		if (v && *v > 0) {
			sec[m] = *v;
			ks[m++] = keys[id];
		}
	}
	if (!m)
		return 0;
	long n = waitedges_rows(sec, m, ks, m, &rows);

	if (n < 0)
		return -1;
	for (long i = 0; i < n; i++) {
		struct waitpeer_edge *e = &rows[i].e;
		const char *c = name_of(r, e->pid);

		if (c)
			memcpy(e->comm, c, sizeof(e->comm));
		if (e->peer_pid > 0 && e->kind != PEER_NET &&
		    e->kind != PEER_CHILD && (c = name_of(r, e->peer_pid)))
			util_strlcpy(e->peer_comm, c, sizeof(e->peer_comm));
		if (waitedges_line(&rows[i], line, sizeof(line)) > 0)
			strbuf_printf(b, "e\t%.3f\t%s", (double)k * r->step, line);
	}
	free(rows);
	return 0;
}

int waitrows_format(const struct waitrows *r, const struct waitpeer_edge *keys,
		    size_t nkeys, struct strbuf *b)
{
	double *sec = malloc((nkeys ? nkeys : 1) * sizeof(*sec));
	struct waitpeer_edge *ks = malloc((nkeys ? nkeys : 1) * sizeof(*ks));
	int rc = 0;

	strbuf_printf(b, MAGIC "\t%d\tstep=%.3f\n", WAITROWS_VERSION, r->step);
	strbuf_puts(b, "#p\tstart\tpid\tcomm\talive\tcpu\tcpu_wait\tdisk\tnet"
		    "\tother\tsleep\n");
	strbuf_puts(b, "#e\tstart\tpid\tcomm\tdir\tkind\tpeer_pid\tpeer_comm"
		    "\tlocal\tremote\tseconds\tbytes\n");
	if (!sec || !ks || r->failed) {
		free(sec);
		free(ks);
		b->failed = 1;
		return -1;
	}
	for (int64_t k = r->lo; r->any && k <= r->hi && rc == 0; k++) {
		for (size_t i = 0; i < r->np; i++) {
			const double *v = at(&r->p[i].s, k, PW);
			char comm[16];

			if (!v || !(v[0] > 0))
				continue;
			waitrates_comm(comm, r->p[i].comm);
			/* the span of a sample reaching back (a late
			 * member) can pass the bin's length: at most it */
			strbuf_printf(b, "p\t%.3f\t%d\t%s\t%.3f", (double)k * r->step,
				      (int)r->p[i].pid, comm[0] ? comm : "-",
				      v[0] < r->step ? v[0] : r->step);
			for (int s = 0; s < WS_N; s++)
				strbuf_printf(b, "\t%.3f", v[1 + s]);
			strbuf_puts(b, "\n");
		}
		rc = edge_lines(r, k, keys, nkeys, b, sec, ks);
	}
	free(sec);
	free(ks);
	return rc || b->failed ? -1 : 0;
}

void waitrows_free(struct waitrows *r)
{
	for (size_t i = 0; i < r->np; i++)
		free(r->p[i].s.v);
	for (size_t i = 0; i < r->ne; i++)
		free(r->e[i].v);
	free(r->p);
	free(r->e);
	r->p = NULL;
	r->e = NULL;
	r->np = r->ne = r->capp = r->cape = 0;
}

int waitrows_name(const char *waits_name, char *out, size_t n)
{
	size_t l = strlen(waits_name);

	if (strncmp(waits_name, "waits-", 6) || l < 10 ||
	    strcmp(waits_name + l - 4, ".tsv") ||
	    (size_t)snprintf(out, n, "%.*s.rows.tsv", (int)(l - 4),
			     waits_name) >= n)
		return -1;
	return 0;
}

/* ---- reading ------------------------------------------------------- */

/* The length of the field at p: up to its tab or the line's end. The
 * text is read within [p, end) only: a file is read whole into a buffer
 * of its size, with no NUL after it (fuzz_waits: a strcspn ran past a
 * last line's end into the heap). */
static size_t field_len(const char *p, const char *end)
{
	const char *t = p < end ? memchr(p, '\t', (size_t)(end - p)) : NULL;

	return t ? (size_t)(t - p) : p < end ? (size_t)(end - p) : 0;
}

/* A number field ending at a tab (or the line's end when last): the
 * position after it, or NULL. */
static const char *num(const char *p, const char *end, double *x, int last)
{
	char buf[40], *e;
	size_t l = field_len(p, end);

	/* (not last: a tab ends it, so p + l is within the line) */
	if (!l || l >= sizeof(buf) || (last ? p + l != end : p + l == end))
		return NULL;
	memcpy(buf, p, l);
	buf[l] = '\0';
	*x = strtod(buf, &e);
	if (*e || !isfinite(*x))
		return NULL;
	return p + l + 1;
}

static int parse_p(const char *p, const char *end, struct waitrows_prow *w)
{
	double pid;
	size_t l;

	memset(w, 0, sizeof(*w));
	if (!(p = num(p, end, &w->start, 0)) || !(p = num(p, end, &pid, 0)) ||
	    pid < 0 || pid != floor(pid) || pid > 4194304)
		return -1;
	l = field_len(p, end);
	if (p + l >= end || !l || l >= sizeof(w->comm))
		return -1;
	memcpy(w->comm, p, l);
	if (!strcmp(w->comm, "-"))
		w->comm[0] = '\0';
	p += l + 1;
	w->pid = (pid_t)pid;
	if (!(p = num(p, end, &w->alive, 0)) || w->alive < 0)
		return -1;
	for (int s = 0; s < WS_N; s++)
		if (!(p = num(p, end, &w->sec[s], s == WS_N - 1)) ||
		    w->sec[s] < 0)
			return -1;
	return 0;
}

static int parse_e(const char *p, const char *end, struct waitrows_erow *w)
{
	memset(w, 0, sizeof(*w));
	if (!(p = num(p, end, &w->start, 0)))
		return -1;
	return waitedges_parse_row(p, (size_t)(end - p), &w->r);
}

void waitrows_file_free(struct waitrows_file *f)
{
	free(f->p);
	free(f->e);
	memset(f, 0, sizeof(*f));
}

long waitrows_parse(const char *text, size_t len, const char *name,
		    struct waitrows_file *f, struct perr *e)
{
	const char *p = text, *end = text + len;
	size_t capp = 0, cape = 0, ml = strlen(MAGIC);
	long line = 0, n = 0;
	char *tail;

	memset(f, 0, sizeof(*f));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		line++;
		if (!nl) {	/* the writer did not finish this line */
			f->cut = 1;
			break;
		}
		if (line == 1) {
			long v;

			if ((size_t)(le - p) <= ml || memcmp(p, MAGIC "\t", ml + 1))
				goto bad;
			errno = 0;
			v = strtol(p + ml + 1, &tail, 10);
			if (errno || v < 1 || tail >= le || *tail != '\t')
				goto bad;
			if (v > WAITROWS_VERSION) {
				waitrows_file_free(f);
				return perr_set(e, "%s:1: rows of version %ld, "
						"newer than this perflog reads "
						"(%d)", name, v,
						WAITROWS_VERSION);
			}
			f->version = (int)v;
			if (strncmp(tail + 1, "step=", 5))
				goto bad;
			f->step = strtod(tail + 6, &tail);
			if (tail != le || !(f->step > 0) || !isfinite(f->step))
				goto bad;
		} else if (*p == '#') {
			/* the column headers */
		} else if (le - p > 2 && p[0] == 'p' && p[1] == '\t') {
			if (util_grow(&f->p, &capp, f->np + 1, sizeof(*f->p)))
				goto oom;
			if (parse_p(p + 2, le, &f->p[f->np]))
				goto bad;
			f->np++;
			n++;
		} else if (le - p > 2 && p[0] == 'e' && p[1] == '\t') {
			if (util_grow(&f->e, &cape, f->ne + 1, sizeof(*f->e)))
				goto oom;
			if (parse_e(p + 2, le, &f->e[f->ne]))
				goto bad;
			f->ne++;
			n++;
		} else {
			goto bad;
		}
		p = nl + 1;
	}
	if (!f->version) {
		waitrows_file_free(f);
		return perr_set(e, "%s: no rows header (cut before its first "
				"line)", name);
	}
	return n;
bad:
	waitrows_file_free(f);
	return perr_set(e, "%s:%ld: not a line of the rows file (version %d)",
			name, line, WAITROWS_VERSION);
oom:
	waitrows_file_free(f);
	return perr_set(e, "%s: out of memory", name);
}
