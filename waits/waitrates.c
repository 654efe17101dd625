/*
 * waitrates.c - the wait counters of an interval (waitrates.h).
 */
#include "waitrates.h"
#include "waitrows.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const state_names[WS_N] = {
	"cpu", "cpu_wait", "disk", "net", "other", "sleep",
};

const char *waitrates_name(enum waits_state s)
{
	return (int)s >= 0 && s < WS_N ? state_names[s] : "?";
}

/* The blocked classes, in waits_state order from WS_DISK. */
static const enum wait_class blocked_class[4] = {
	WAIT_DISK, WAIT_NET, WAIT_OTHER, WAIT_SLEEP,
};

/* For a thread no tick ever caught blocked: whether enough ticks saw it
 * running to say its unaccounted time was CPU taken from it. */
static int run_seen(const struct waits_thread *th)
{
	return th->ticks[WAIT_RUN] >= WAITRATES_RUN_SEEN;
}

static uint64_t delta(uint64_t a, uint64_t b)
{
	return b != WAITS_NA && a != WAITS_NA && b > a ? b - a : 0;
}

/* Shares of the four blocked classes from tick counts; 0 when none. */
static double shares(const uint64_t *base, const uint64_t *ticks,
		     double share[4])
{
	double n = 0;

	for (int k = 0; k < 4; k++) {
		uint64_t c = blocked_class[k];

		share[k] = (double)(ticks[c] - (base ? base[c] : 0));
		n += share[k];
	}
	for (int k = 0; k < 4 && n > 0; k++)
		share[k] /= n;
	return n;
}

double waitrates_thread(const struct waits_thread *prev,
			const struct waits_thread *cur, double t0,
			int delayacct, double sec[WS_N])
{
	static const struct waits_thread born;	/* every counter at 0 */
	double elapsed = cur->t - t0, cpu, rq, blocked, share[4], rest;

	if (!prev)
		prev = &born;
	memset(sec, 0, WS_N * sizeof(sec[0]));
	if (!(elapsed > 0))
		return -1;
	cpu = (double)delta(prev->cpu_ns, cur->cpu_ns) / 1e9;
	rq = (double)delta(prev->runq_ns, cur->runq_ns) / 1e9;
	if (cpu + rq > elapsed) {
		double f = elapsed / (cpu + rq);

		cpu *= f;
		rq *= f;
	}
	blocked = elapsed - cpu - rq;
	sec[WS_CPU] = cpu;
	sec[WS_CPU_WAIT] = rq;
	if (shares(prev->ticks, cur->ticks, share) == 0 &&
	    shares(NULL, cur->ticks, share) == 0) {
		if (run_seen(cur)) {
			/* seen running at every tick of its life: the rest
			 * is time its CPU was taken (steal, interrupts) */
			sec[WS_CPU_WAIT] += blocked;
			return elapsed;
		}
		share[0] = share[1] = share[3] = 0;
		share[2] = 1;	/* never seen blocked: other */
	}
	sec[WS_DISK] = share[0] * blocked;
	if (delayacct && cur->blkio_ns != WAITS_NA &&
	    prev->blkio_ns != WAITS_NA) {
		double io = (double)delta(prev->blkio_ns, cur->blkio_ns) / 1e9;

		if (io > sec[WS_DISK])
			sec[WS_DISK] = io < blocked ? io : blocked;
	}
	rest = share[1] + share[2] + share[3];
	for (int k = 1; k < 4; k++)
		sec[WS_DISK + k] = rest > 0 ?
			(blocked - sec[WS_DISK]) * share[k] / rest :
			k == 2 ? blocked - sec[WS_DISK] : 0;
	return elapsed;
}

static int cmp_key(pid_t tid, uint64_t start, pid_t t2, uint64_t s2)
{
	if (tid != t2)
		return (tid > t2) - (tid < t2);
	return (start > s2) - (start < s2);
}

/* Binary search of (tid, start) in a snap; NULL when absent. */
static const struct waits_thread *find(const struct waits_snap *s, pid_t tid,
				       uint64_t start)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_key(s->th[mid].tid, s->th[mid].start, tid, start);

		if (c == 0)
			return &s->th[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The total of (tid, start), inserted in order when new; NULL on OOM. */
static struct waits_total *total_of(struct waits_totals *tot,
				    const struct waits_thread *th)
{
	size_t lo = 0, hi = tot->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_key(tot->t[mid].tid, tot->t[mid].start, th->tid,
				th->start);

		if (c == 0)
			return &tot->t[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (tot->n == tot->cap) {
		size_t cap = tot->cap ? tot->cap * 2 : 64;
		struct waits_total *t = realloc(tot->t, cap * sizeof(*t));

		if (!t)
			return NULL;
		tot->t = t;
		tot->cap = cap;
	}
	memmove(&tot->t[lo + 1], &tot->t[lo], (tot->n - lo) * sizeof(*tot->t));
	tot->n++;
	memset(&tot->t[lo], 0, sizeof(tot->t[lo]));
	tot->t[lo].tid = th->tid;
	tot->t[lo].start = th->start;
	memcpy(tot->t[lo].comm, th->comm, sizeof(th->comm));
	tot->t[lo].pid = th->pid;
	tot->t[lo].peer = th->peer;
	return &tot->t[lo];
}

/* The ticks thread p (NULL: born since) had on edge id. */
static double edge_ticks(const struct waits_thread *p, uint32_t id)
{
	for (int k = 0; p && k < WAITS_EDGES; k++)
		if (p->edge[k].id == id)
			return p->edge[k].ticks;
	return 0;
}

/* The interval's net + other seconds of thread c shared among its
 * edges by their ticks; late: seconds held from from to to (reads on a far
 * end found only now, held()) given a class net or other here, shared
 * alike and placed in the rows where they were held. Without them a
 * client's waits on a server's connection accepted since the last look
 * at the fd tables were other on no edge for a second or two (make
 * demo's 3 s sets: "not seen", issue 46). */
static int add_edges(struct waits_totals *tot, const struct waits_thread *p,
		     const struct waits_thread *c, double t0,
		     const double sec[WS_N], double late, double from,
		     double to)
{
	/* a disk's edges share the disk seconds by the disk ticks, the
	 * others the net and other seconds by theirs */
	double on[2] = {
		(double)(c->ticks[WAIT_NET] + c->ticks[WAIT_OTHER]) -
		(p ? (double)(p->ticks[WAIT_NET] + p->ticks[WAIT_OTHER]) : 0),
		(double)c->ticks[WAIT_DISK] -
		(p ? (double)p->ticks[WAIT_DISK] : 0) };
	double blocked[2] = { sec[WS_NET] + sec[WS_OTHER], sec[WS_DISK] };
	double held[2] = { late, 0 };

	for (int k = 0; k < WAITS_EDGES; k++) {
		uint32_t id = c->edge[k].id;
		int dk = c->edge[k].disk != 0;
		double d, share, blk = blocked[dk], late_k = held[dk];

		if (id == WAITS_NO_EDGE || !(on[dk] > 0) || !(blk + late_k > 0))
			continue;
		d = c->edge[k].ticks - edge_ticks(p, id);
		if (!(d > 0))
			continue;	/* (a slot given to a new edge since) */
		share = d / on[dk] < 1 ? d / on[dk] : 1;
		if (id >= tot->nedge) {
			size_t old = tot->nedge;

			if (util_grow(&tot->edge_sec, &tot->capedge, (size_t)id + 1,
				      sizeof(*tot->edge_sec)) < 0)
				return -1;
			memset(tot->edge_sec + old, 0,
			       ((size_t)id + 1 - old) * sizeof(*tot->edge_sec));
			tot->nedge = (size_t)id + 1;
		}
		tot->edge_sec[id] += share * (blk + late_k);
		waitrows_edge(tot->rows, id, t0, c->t, share * blk);
		/* where they were held, not the span until their far end
		 * was found: stage 1 of t7750, held at its start, then
		 * computing 4 s before its pipe's far end was known, had
		 * its held 0.5 s spread over those 4 s, on the pipe while
		 * it ran (0.117 s a second) */
		if (late_k > 0 && from < t0)
			waitrows_edge(tot->rows, id, from,
				      to > from && to < t0 ? to : t0,
				      share * late_k);
		else if (late_k > 0)
			waitrows_edge(tot->rows, id, t0, c->t, share * late_k);
	}
	return 0;
}

/* The row's reads and spread from the thread's counts so far (the
 * counts are cumulative, so each interval's figures replace the last). */
static void turn_spread(struct waits_total *t, const struct waits_thread *c)
{
	double b = 0;

	t->reads = c->reads;
	t->stood = c->ticks[WAIT_DISK] + c->ticks[WAIT_NET] +
		c->ticks[WAIT_OTHER] + c->ticks[WAIT_SLEEP];
	for (int k = 0; k < 4; k++)
		t->stood += c->held_as[k];
	for (int k = WS_DISK; k <= WS_SLEEP; k++)
		b += t->sec[k];
	/* b^2 / n for n reads of equal weight; b^2 / n_eff for unequal
	 * ones (Kish: n_eff = (sum w)^2 / sum w^2, the ticks stood for
	 * squared over the weights squared) */
	t->spread = t->stood ? b * b * (double)c->weight2 /
		((double)t->stood * (double)t->stood) : 0;
}

/* Blocked time no tick has caught yet is other by default
 * (waitrates_thread); the totals hold it apart until the thread's first
 * blocked ticks say where it went (an O_DSYNC writer's first second with
 * the sampler at 3 Hz was "other" in its totals), then split it again
 * at each read by the thread's shares of its life so far. Split once,
 * by its first blocked ticks, a pool born at once and read in turns at
 * 1-2 Hz had a second or two of each thread decided by one read
 * (tests/unit/test_waitsplit.c "first reads"). */
static void unseen(struct waits_total *t, const struct waits_thread *c,
		   double other)
{
	double share[4];
	int blocked_seen = shares(NULL, c->ticks, share) > 0;

	if (!blocked_seen && run_seen(c)) {
		/* running at every tick, enough of them: what was held
		 * apart is CPU taken from it (waitrates_thread) */
		t->sec[WS_OTHER] -= t->unseen;
		t->sec[WS_CPU_WAIT] += t->unseen;
		t->unseen = 0;
	} else if (!blocked_seen) {
		t->unseen += other;
	} else if (t->unseen > 0) {
		if (t->unseen_at[0] + t->unseen_at[1] + t->unseen_at[2] +
		    t->unseen_at[3] <= 0) {
			/* first seen blocked: out of other */
			t->unseen = t->unseen < t->sec[WS_OTHER] ?
				t->unseen : t->sec[WS_OTHER];
			t->sec[WS_OTHER] -= t->unseen;
		}
		for (int k = 0; k < 4; k++) {
			t->sec[WS_DISK + k] += t->unseen * share[k] -
				t->unseen_at[k];
			t->unseen_at[k] = t->unseen * share[k];
		}
	}
}

/* Reads held for a socket's far end (waits.h held) stood for time the
 * interval's counted reads would otherwise take: their share of the
 * interval's ticks, of its blocked time past the disk's, goes in other
 * and is held (t->held); held ticks given a class since (held_as) move
 * their share of what is held there. Split by its counted reads alone,
 * a held poll's time went with the sleep read after it, and the poll's
 * ticks, counted later, landed in an interval its own poll already gave
 * wholly to other: loadgen mixed 300 was logged 6-7 points less other
 * than it polled in one run of ten. in[] is the interval's seconds,
 * out[] what the totals take, *late the held seconds given net or
 * other (their edges', add_edges). Returns the seconds newly held. */
static double held(struct waits_total *t, const struct waits_thread *p,
		   const struct waits_thread *c, double t0,
		   const double in[WS_N], double out[WS_N], double *late)
{
	uint64_t ph = p ? p->held : 0, counted = 0, moved = 0;
	uint64_t open = waits_held_open(c);
	uint64_t d[4];
	double f, carve = 0, was;

	memcpy(out, in, WS_N * sizeof(in[0]));
	for (int k = WAIT_NET; k <= WAIT_SLEEP; k++)
		counted += delta(p ? p->ticks[k] : 0, c->ticks[k]);
	if (c->held > ph) {
		f = (double)(c->held - ph) / (double)(counted + c->held - ph);
		for (int k = WS_NET; k <= WS_SLEEP; k++) {
			carve += f * in[k];
			out[k] -= f * in[k];
		}
		out[WS_OTHER] += carve;
	}
	/* the held ticks given a class in the interval */
	for (int k = 0; k < 4; k++) {
		d[k] = delta(p ? p->held_as[k] : 0, c->held_as[k]);
		moved += d[k];
	}
	*late = 0;
	if (carve > 0 && !(t->held > 0))
		t->held_from = t0;
	if (carve > 0)
		t->held_to = c->t;
	was = t->held += carve;
	if (!moved || !(was > 0))
		return carve;
	for (int k = 0; k < 4; k++) {
		double m = was * (double)d[k] / (double)(open + moved);

		if (!d[k])
			continue;
		if (WS_DISK + k != WS_OTHER) {	/* (other: already there) */
			m = m < out[WS_OTHER] + t->sec[WS_OTHER] ?
				m : out[WS_OTHER] + t->sec[WS_OTHER];
			out[WS_OTHER] -= m;
			out[WS_DISK + k] += m;
		}
		if (WS_DISK + k == WS_NET || WS_DISK + k == WS_OTHER)
			*late += m;
		t->held -= m;
	}
	if (t->held < 0)
		t->held = 0;
	return carve;
}

static int add_total(struct waits_totals *tot, const struct waits_thread *p,
		     const struct waits_thread *c, double t0, double elapsed,
		     const double in[WS_N])
{
	struct waits_total *t = total_of(tot, c);
	double sec[WS_N], kept, late, from;

	if (!t)
		return -1;
	kept = held(t, p, c, t0, in, sec, &late);
	from = t->held_from;
	if (add_edges(tot, p, c, t0, in, late, from, t->held_to) < 0)
		return -1;
	/* the interval's own split, by process: what the totals move
	 * later (held, unseen) is their correction, not this interval's */
	waitrows_thread(tot->rows, c->pid, c->comm, t0, c->t, in);
	/* the latest name: a thread that exec'ed is its new program's */
	memcpy(t->comm, c->comm, sizeof(c->comm));
	t->ended |= !c->alive;
	t->alive += elapsed;
	for (int k = 0; k < WS_N; k++)
		t->sec[k] += sec[k];
	/* (held time is not unseen: its class comes from its own reads) */
	unseen(t, c, sec[WS_OTHER] - kept);
	turn_spread(t, c);
	if (p && p->rchar != WAITS_NA && p->wchar != WAITS_NA)
		t->io_bytes += delta(p->rchar, c->rchar) + delta(p->wchar, c->wchar);
	else if (!p && c->rchar != WAITS_NA && c->wchar != WAITS_NA)
		t->io_bytes += c->rchar + c->wchar;
	return 0;
}

/* The folded row of name comm and working verdict w, made if need be. */
static struct waits_total *agg_of(struct waits_totals *tot, const char *comm,
				  int w)
{
	for (size_t i = 0; i < tot->nagg; i++)
		if (tot->agg[i].working == w &&
		    !strncmp(tot->agg[i].comm, comm, sizeof(tot->agg[i].comm)))
			return &tot->agg[i];
	if (util_grow(&tot->agg, &tot->capagg, tot->nagg + 1,
		      sizeof(*tot->agg)) < 0)
		return NULL;
	memset(&tot->agg[tot->nagg], 0, sizeof(*tot->agg));
	memcpy(tot->agg[tot->nagg].comm, comm, sizeof(tot->agg[0].comm));
	tot->agg[tot->nagg].working = w;
	return &tot->agg[tot->nagg++];
}

static void fold_into(struct waits_total *a, const struct waits_total *t)
{
	a->alive += t->alive;
	for (int k = 0; k < WS_N; k++)
		a->sec[k] += t->sec[k];
	a->io_bytes += t->io_bytes;
	a->reads += t->reads;
	a->stood += t->stood;
	a->spread += t->spread;
	a->threads += (unsigned)waitrates_nthreads(t);
	a->ended = 1;
}

/* The ended threads into their name's row (see WAITRATES_FOLD_AT). */
static int fold(struct waits_totals *tot)
{
	size_t keep = 0;

	for (size_t i = 0; i < tot->n; i++) {
		struct waits_total *t = &tot->t[i], *a;

		if (!t->ended || t->peer) {	/* (a peer's: at most
						 * WAITS_MAX_PEERS processes') */
			tot->t[keep++] = *t;
			continue;
		}
		if (!(a = agg_of(tot, t->comm, waitrates_working(t))))
			return -1;
		fold_into(a, t);
		tot->folded++;
	}
	tot->n = keep;
	tot->fold_at = 2 * keep > WAITRATES_FOLD_AT ? 2 * keep : WAITRATES_FOLD_AT;
	return 0;
}

int waitrates_compute(const struct waits_snap *prev,
		      const struct waits_snap *cur, struct waits_values *out,
		      struct waits_totals *tot)
{
	double dt = cur->t - prev->t, alive = 0, sec[WS_N], sum[WS_N] = { 0 };
	double blocked_ticks = 0, guessed = 0;
	int delayacct = prev->delayacct == 1 && cur->delayacct == 1, counted = 0;
	double since = tot ? tot->since : 0;
	double from = since > 0 && since < prev->t ? since : prev->t;

	memset(out, 0, sizeof(*out));
	for (int k = 0; k < WS_N; k++)
		out->pct[k] = NAN;
	out->guessed = NAN;
	if (!(dt > 0))
		return -1;
	for (size_t i = 0; i < cur->n; i++) {
		const struct waits_thread *c = &cur->th[i];
		const struct waits_thread *p = find(prev, c->tid, c->start);
		double t0 = from, e, part = 1;

		/* without a baseline: born in the interval, or first read
		 * late but born since the session's first read (the start
		 * is read in 10 ms ticks), counts from its birth, else skip:
		 * it lived before the watch */
		if (!p && c->born < from - 0.02)
			continue;
		if (p)
			t0 = p->t;
		else if (c->born > t0)
			t0 = c->born;
		e = waitrates_thread(p, c, t0, delayacct, sec);
		if (e < 0)
			continue;
		/* a late member's row gets the part of it since prev (the
		 * rows before are written); its total, all of it */
		if (!p && t0 < prev->t)
			part = dt / e;
		if (c->peer) {
			/* a local peer: in the totals and their rows, a
			 * stage of the graph, no part of the tree's
			 * Process counters */
			if (tot && add_total(tot, p, c, t0, e, sec) < 0)
				return -1;
			continue;
		}
		counted++;
		alive += part * e;
		for (int k = 0; k < WS_N; k++)
			sum[k] += part * sec[k];
		for (int k = 0; k < 4; k++) {
			enum wait_class b = blocked_class[k];

			blocked_ticks += (double)(c->ticks[b] - (p ? p->ticks[b] : 0));
		}
		guessed += (double)(c->guessed - (p ? p->guessed : 0));
		out->hidden |= c->hidden > (p ? p->hidden : 0);
		if (tot && add_total(tot, p, c, t0, e, sec) < 0)
			return -1;
	}
	if (tot)
		waitrows_next(tot->rows);
	if (tot && tot->n >= (tot->fold_at ? tot->fold_at : WAITRATES_FOLD_AT) &&
	    fold(tot) < 0)
		return -1;
	out->exact_disk = delayacct;
	out->blocked_ticks = blocked_ticks;
	out->guessed_ticks = guessed;
	out->threads = alive / dt;
	if (blocked_ticks > 0)
		out->guessed = 100.0 * guessed / blocked_ticks;
	if (counted)
		for (int k = 0; k < WS_N; k++)
			out->pct[k] = 100.0 * sum[k] / dt;
	return 0;
}

void waitrates_fill(const struct waits_values *v, struct instance_values *iv)
{
	static const struct {
		enum counter_id id;
		enum waits_state s;
	} map[] = {
		{ CTR_PROC_CPU_WAIT, WS_CPU_WAIT }, { CTR_PROC_DISK_WAIT, WS_DISK },
		{ CTR_PROC_NET_WAIT, WS_NET }, { CTR_PROC_OTHER_WAIT, WS_OTHER },
		{ CTR_PROC_SLEEP, WS_SLEEP },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		iv->v[catalog_counters[map[i].id].index] = v->pct[map[i].s];
}

void waitrates_totals_free(struct waits_totals *tot)
{
	free(tot->t);
	tot->t = NULL;
	free(tot->agg);
	tot->agg = NULL;
	free(tot->edge_sec);
	tot->edge_sec = NULL;
	tot->nedge = tot->capedge = 0;
	tot->nagg = tot->capagg = 0;
	tot->n = tot->cap = 0;
}
