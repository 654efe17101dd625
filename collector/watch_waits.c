/*
 * watch_waits.c - a watched tree's wait states and cgroup counters
 * (watch_waits.h).
 */
#define _GNU_SOURCE
#include "watch_waits.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../process/process.h"
#include "../waits/waitstates.h"
#include "../logs/markers.h"
#include "collector_int.h"

struct watch_waits {
	struct waitsampler *s;	/* NULL: the sampler could not start */
	char why[256];		/* ... and why */
	int by_pids;		/* no cgroup: the tree's processes */
	struct waits_snap a, b, *prev, *cur;
	int have_prev;
	struct waits_totals tot;
	struct waitrows rows;	/* tot's seconds interval by interval */
	double t0;		/* the baseline read's time */
	uint64_t ticks0;	/* and its tick count */
	double blocked, guessed;	/* blocked ticks of the session */
	int hidden, exact_disk, intervals;
	int stuck;		/* reads that found the sampler stuck */
	struct cgroup_set cg;
	int has_cg;
	/* a tree watched by PID or name= has no group of its own: its
	 * process's groups, for the quota and pressure only (the threads are
	 * still the tree's, not the group's: a daemon's group may hold
	 * other programs). Found at the first sample with a process, and
	 * found again when that process's /proc/PID/cgroup changes: a
	 * daemon moved into its group after it started (cgrulesengd, an
	 * admin's echo PID > cgroup.procs) is held by the new group's quota.
	 * qtext is the text it was found from, qpid the process. */
	struct cgroup_set qcg;
	int has_qcg;
	pid_t qpid;
	char qtext[1024];
	char proc_root[PATH_MAX];
	struct cgstat_raw ca, cb, *cprev, *ccur;
	struct cgstat_raw cbase;	/* the first read of the groups read
					 * now: the session's throttling is
					 * counted from it (the quota named) */
	int have_cprev;
	pid_t *pids;
	size_t pcap;
};

/* The directory whose thread list the sampler reads: v2 lists every
 * thread of the group in cgroup.threads, v1 in tasks. */
static const char *list_dir(const struct cgroup_set *g)
{
	if (g->v2[0])
		return g->v2;
	return g->cpuacct[0] ? g->cpuacct : g->cpu;
}

struct watch_waits *watch_waits_open(const char *proc_root,
				     struct proctree *tree, pid_t exclude,
				     double step, struct perr *e)
{
	struct watch_waits *ww = calloc(1, sizeof(*ww));
	const struct cgroup_set *g = proctree_cgroup(tree);
	struct waits *w;
	struct perr pe;

	if (!ww) {
		perr_set(e, "out of memory");
		return NULL;
	}
	ww->prev = &ww->a;
	ww->cur = &ww->b;
	ww->cprev = &ww->ca;
	ww->ccur = &ww->cb;
	ww->exact_disk = 1;
	waitrows_init(&ww->rows, step);
	ww->tot.rows = &ww->rows;
	util_strlcpy(ww->proc_root, proc_root, sizeof(ww->proc_root));
	if (g) {
		ww->cg = *g;
		ww->has_cg = 1;
	}
	w = waits_open(proc_root, &pe);
	if (w) {
		waits_exclude(w, exclude);
		waits_io_from(w, tree);	/* read just before each waits read */
		if (ww->has_cg && cgroup_any(&ww->cg) &&
		    waits_watch_cgroup(w, list_dir(&ww->cg), &pe) == 0)
			ww->by_pids = 0;
		else
			ww->by_pids = 1;
		ww->s = waitsampler_start(w, &pe);	/* owns w, even failing */
	}
	if (!ww->s) {
		util_strlcpy(ww->why, pe.msg, sizeof(ww->why));
		perr_set(e, "%s", pe.msg);
	}
	return ww;
}

int watch_waits_ok(const struct watch_waits *ww)
{
	return ww && ww->s;
}

/* A tree without a group of its own: its first process's groups, for
 * cgstat (the quota that holds it, issue 29 item 4). Its cgroup file is
 * read every sample (one small read: the mount table is read only when
 * the text changed); a new group starts a new base, since counters of
 * two groups make no delta. */
static void quota_group(struct watch_waits *ww, const pid_t *pids, size_t k)
{
	char path[PATH_MAX + 32], text[sizeof(ww->qtext)];
	long n;
	pid_t pid = k ? pids[0] : 0;

	if (ww->has_cg || pid <= 0)
		return;
	for (size_t i = 0; i < k; i++)	/* the same process while it lives */
		if (pids[i] == ww->qpid)
			pid = ww->qpid;
	snprintf(path, sizeof(path), "%s/proc/%d/cgroup",
		 strcmp(ww->proc_root, "/") ? ww->proc_root : "", (int)pid);
	n = util_read_small(path, text, sizeof(text));
	if (n < 0)
		return;		/* gone: the next process is asked next time */
	ww->qpid = pid;
	if (ww->qtext[0] && !strcmp(text, ww->qtext))
		return;
	if (ww->qtext[0])
		ww->have_cprev = 0;
	memcpy(ww->qtext, text, (size_t)n + 1);
	ww->has_qcg = cgroup_of(ww->proc_root, pid, &ww->qcg) == 0 &&
		      cgroup_any(&ww->qcg);
}

/* The groups cgstat reads: the tree's own, else its process's. */
static const struct cgroup_set *stat_group(const struct watch_waits *ww)
{
	return ww->has_cg ? &ww->cg : ww->has_qcg ? &ww->qcg : NULL;
}

/* Without a cgroup: the tree's processes as this sample's read found
 * them (the shim left out). */
static void refresh_pids(struct watch_waits *ww, struct proctree *tree)
{
	struct perr e;
	long n = proctree_procs(tree, &ww->pids, &ww->pcap);

	if (n < 0)
		return;
	waitsampler_watch_pids(ww->s, ww->pids, (size_t)n, &e);
	quota_group(ww, ww->pids, (size_t)n);
}

void watch_waits_baseline(struct watch_waits *ww, struct proctree *tree,
			  double mono)
{
	if (!ww)
		return;
	if (ww->s) {
		if (ww->by_pids)
			refresh_pids(ww, tree);
		/* its threads listed before the baseline's read (a read
		 * before the first tick had none: a process alive before
		 * the watch lost its first interval); within the bound */
		(void)waitsampler_tick_now(ww->s);
		ww->have_prev = waitsampler_read(ww->s, ww->prev) == 0;
		ww->t0 = ww->prev->t;
		ww->ticks0 = ww->prev->nticks;
		/* a process that joins the tree later is read first a
		 * sample after it joined (refresh_pids): born since this,
		 * all its life is the session's (waitrates.h) */
		if (ww->have_prev)
			ww->tot.since = ww->t0;
	}
	cgstat_read(stat_group(ww), mono, ww->cprev);
	ww->cbase = *ww->cprev;
	ww->have_cprev = 1;
}

void watch_waits_exit(struct watch_waits *ww, const struct taskstats_exit *x,
		      double at)
{
	if (ww)
		waitsampler_exit(ww->s, x, at);
}

void watch_waits_late(struct watch_waits *ww, const struct proctree_late *v,
		      size_t n)
{
	for (size_t i = 0; ww && i < n; i++)
		waitsampler_exit(ww->s, &v[i].x, v[i].at);
}

static void add_waits(struct watch_waits *ww, struct instance_values *iv)
{
	struct waits_values v;
	struct waits_snap *t;
	int r = waitsampler_read(ww->s, ww->cur);

	/* stuck in a tick (waitsampler.h): no wait counters in this row,
	 * the last complete read stays the base of the next */
	ww->stuck += r == 1;
	if (r != 0)
		return;
	/* the rows' bins on the clock of the set's rows and markers */
	waitrows_clock(&ww->rows, collector_clock() - util_monotonic());
	if (ww->have_prev &&
	    waitrates_compute(ww->prev, ww->cur, &v, &ww->tot) == 0) {
		waitrates_fill(&v, iv);
		ww->blocked += v.blocked_ticks;
		ww->guessed += v.guessed_ticks;
		ww->hidden |= v.hidden;
		ww->exact_disk &= v.exact_disk;
		ww->intervals++;
	}
	if (!ww->have_prev) {
		ww->t0 = ww->cur->t;
		ww->ticks0 = ww->cur->nticks;
		ww->tot.since = ww->t0;
	}
	t = ww->prev;
	ww->prev = ww->cur;
	ww->cur = t;
	ww->have_prev = 1;
}

/* The tree's group at the sample mono, read once for every tree in it. */
static void read_group(const struct watch_waits *ww, double mono,
		       struct cgstat_memo *memo, struct cgstat_raw *out)
{
	const struct cgroup_set *g = stat_group(ww);

	if (memo && g && memo->mono == mono && mono > 0 &&
	    !strcmp(memo->g.v2, g->v2) && !strcmp(memo->g.cpu, g->cpu) &&
	    !strcmp(memo->g.cpuacct, g->cpuacct)) {
		*out = memo->raw;
		return;
	}
	cgstat_read(g, mono, out);
	if (memo && g) {
		memo->g = *g;
		memo->mono = mono;
		memo->raw = *out;
	}
}

void watch_waits_sample(struct watch_waits *ww, struct proctree *tree,
			double mono, struct cgstat_memo *memo,
			struct instance_values *iv)
{
	struct cgstat_raw *t;

	if (!ww)
		return;
	if (ww->s) {
		if (ww->by_pids)
			refresh_pids(ww, tree);
		add_waits(ww, iv);
	}
	read_group(ww, mono, memo, ww->ccur);
	if (!cgstat_same_groups(&ww->cbase, ww->ccur))
		ww->cbase = *ww->ccur;	/* a new group (or quota): from now */
	if (ww->have_cprev)
		rates_cgroup(ww->cprev, ww->ccur, iv);
	t = ww->cprev;
	ww->cprev = ww->ccur;
	ww->ccur = t;
	ww->have_cprev = 1;
}

void watch_waits_last(struct watch_waits *ww)
{
	struct instance_values none;	/* no row: the tree's has ended */

	if (!ww || !ww->s)
		return;
	waitsampler_read_whole(ww->s);
	add_waits(ww, &none);
}

void watch_waits_whole(struct watch_waits *ww)
{
	if (ww && ww->s)
		waitsampler_read_whole(ww->s);
}

void watch_waits_budget(struct watch_waits *ww, double share)
{
	if (ww && ww->s)
		waitsampler_budget(ww->s, share);
}

/* The totals as waits-LABEL.tsv; its name to name. */
static int write_totals(struct watch_waits *ww, const char *dir,
			const char *label, char *name, size_t n,
			struct perr *e)
{
	size_t len = waitrates_format(&ww->tot, NULL, 0);
	char *buf = malloc(len + 1);
	int fd, rc;

	if (!buf)
		return perr_set(e, "out of memory");
	waitrates_format(&ww->tot, buf, len + 1);
	fd = markers_create_beside(dir, "waits", label, "tsv", name, n, e);
	if (fd < 0) {
		free(buf);
		return -1;
	}
	rc = util_write_full(fd, buf, len);
	if (rc < 0) {
		perr_set(e, "unable to write '%s/%s': %s", dir, name,
			 strerror(errno ? errno : ENOSPC));
		markers_remove_beside(dir, name);
	}
	close(fd);
	free(buf);
	return rc;
}

/* A file named after the waits file (edges-LABEL.tsv,
 * waits-LABEL.rows.tsv: readers find it by that name alone) of len
 * bytes of buf. */
static int write_beside(const char *dir, const char *name, const char *buf,
			size_t len, struct perr *e)
{
	int dfd, fd, rc;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = dfd < 0 ? -1 : openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC |
				   O_NOFOLLOW | O_CLOEXEC, 0644);
	rc = fd < 0 ? -1 : util_write_full(fd, buf, len);
	if (rc < 0)
		perr_set(e, "unable to write '%s/%s': %s", dir, name,
			 strerror(errno ? errno : ENOSPC));
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	return rc;
}

/* The edges as edges-LABEL.tsv, named after the waits file (wname,
 * waitedges.h). */
static int write_edges(struct watch_waits *ww, const char *dir,
		       const char *wname, struct perr *e)
{
	struct waitedge_row *rows;
	long n = waitedges_rows(ww->tot.edge_sec, ww->tot.nedge, ww->prev->keys,
				ww->prev->nkeys, &rows);
	char name[160], *buf;
	size_t len;
	int rc;

	if (n < 0 || waitedges_name(wname, name, sizeof(name)) < 0) {
		free(rows);
		return perr_set(e, "edges of %s: out of memory", wname);
	}
	len = waitedges_format(rows, (size_t)n, NULL, 0);
	buf = malloc(len + 1);
	if (!buf) {
		free(rows);
		return perr_set(e, "out of memory");
	}
	waitedges_format(rows, (size_t)n, buf, len + 1);
	free(rows);
	rc = write_beside(dir, name, buf, len, e);
	free(buf);
	return rc;
}

/* The rows as waits-LABEL.rows.tsv (waitrows.h), named after the waits
 * file; a failure costs the rows only (a reader then has the totals). */
static int write_rows(struct watch_waits *ww, const char *dir,
		      const char *wname, struct perr *e)
{
	struct strbuf b = STRBUF_INIT;
	char name[160];
	int rc;

	if (waitrows_name(wname, name, sizeof(name)) < 0)
		return perr_set(e, "rows of %s: name too long", wname);
	if (waitrows_format(&ww->rows, ww->prev->keys, ww->prev->nkeys, &b)) {
		strbuf_free(&b);
		return perr_set(e, "rows of %s: out of memory", wname);
	}
	rc = write_beside(dir, name, strbuf_str(&b), b.len, e);
	strbuf_free(&b);
	return rc;
}

int watch_waits_finish(struct watch_waits *ww, const char *dir,
		       const char *label, char *out, size_t n, struct perr *e)
{
	char name[128];
	size_t len = 0, working = 0, threads = 0;
	int rc = 0;
	double span;

	out[0] = '\0';
#define ADD(...) do { \
	if (len < n) \
		len += (size_t)snprintf(out + len, n - len, __VA_ARGS__); \
} while (0)
	if (ww && stat_group(ww)) {
		struct cgstat_raw q;

		cgstat_read(stat_group(ww), 0, &q);
		/* the group whose quota throttled over the session, not
		 * only the smallest (a parent's used up by a sibling) */
		cgstat_choose(&ww->cbase, &q);
		if (q.pick >= 0)
			ADD("cgroup.cpu_quota=%.3f\tcgroup.quota_dir=%s\t"
			    "cgroup.quota_group=%s\t",
			    q.quota_cpus, q.quota_dir, q.quota_group);
	}
	if (!ww || !ww->s) {
		ADD("waits.error=%s", ww ? ww->why : "not sampled");
		return perr_set(e, "%s", ww ? ww->why : "not sampled");
	}
	if (write_totals(ww, dir, label, name, sizeof(name), e) < 0) {
		ADD("waits.error=%s\t", e->msg);
		rc = -1;
	} else {
		ADD("waits=%s\t", name);
		/* beside it, same name but the prefix; a failure is said
		 * and costs only the edges (the report then has none) */
		if (write_edges(ww, dir, name, e) < 0) {
			ADD("waits.edges_error=%s\t", e->msg);
			rc = -1;
		}
		if (write_rows(ww, dir, name, e) < 0) {
			ADD("waits.rows_error=%s\t", e->msg);
			rc = -1;
		}
	}
	waitrates_count(&ww->tot, &threads, &working);
	span = ww->prev->t - ww->t0;
	ADD("waits.threads=%zu\twaits.working=%zu\twaits.hidden=%d\t",
	    threads, working, ww->hidden);
	/* ended threads summed by name (waitrates.h): how many, from when */
	if (ww->tot.folded)
		ADD("waits.folded=%zu\twaits.fold_at=%d\t", ww->tot.folded,
		    WAITRATES_FOLD_AT);
	if (ww->stuck)
		ADD("waits.stuck=%d\t", ww->stuck);
	if (ww->blocked > 0)
		ADD("waits.guessed=%.1f\t", 100.0 * ww->guessed / ww->blocked);
	/* a set read in turns (waits/waitshare.c): the share of its
	 * blocked ticks read, and how far the split may be off for that
	 * (waitrates_split_error); nothing when every tick was read */
	{
		double read, read_all;
		double err = waitrates_split_error(&ww->tot, 1, &read);
		double err_all = waitrates_split_error(&ww->tot, 0, &read_all);

		if (read_all < 100) {
			ADD("waits.read_share=%.1f\t", read_all);
			if (isfinite(err))
				ADD("waits.split_error=%.2f\t", err);
			if (isfinite(err_all))
				ADD("waits.split_error_all=%.2f\t", err_all);
		}
	}
	ADD("waits.exact_disk=%d\twaits.hz=%.1f\twaits.cpu=%.3f",
	    ww->intervals && ww->exact_disk,
	    span > 0 ? (double)(ww->prev->nticks - ww->ticks0) / span : 0.0,
	    ww->prev->cpu);
#undef ADD
	return rc;
}

void watch_waits_close(struct watch_waits *ww)
{
	if (!ww)
		return;
	waitsampler_stop(ww->s);
	waits_snap_free(&ww->a);
	waits_snap_free(&ww->b);
	waitrates_totals_free(&ww->tot);
	waitrows_free(&ww->rows);
	free(ww->pids);
	free(ww);
}
