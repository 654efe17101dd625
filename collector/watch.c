/*
 * watch.c - the process trees a collector logs as Process(LABEL), for
 * `perflog run` (control requests "watch" and "unwatch", control.h).
 *
 * A tree's life in the log:
 *   watch     its baseline is read and a sample is taken at once in which
 *             the tree logs zeros: the part of the row before the command
 *             began holds no work of it, so the row integrates to exactly
 *             what the command did (a first row stored as the average over
 *             the whole step overstated it by the step / the part it ran)
 *   samples   rates_process over each interval
 *   unwatch   a sample is taken at once (its last figures), then zeros are
 *             logged until the end of the row it ended in, for the same
 *             reason; then the slot is free
 * A tree whose root is gone and whose client (the perflog run that asked,
 * by pid and start time) is gone too, is ended the same way: a run killed
 * with -9 frees its slot once its command has ended, and its session gets
 * an end marker from the collector.
 *
 * Labels are unique among the trees watched and the sessions open: a
 * second `perflog run -l job` gets job-2 (valid as an instance and as a
 * file name, which logset_file_name keeps as it is).
 *
 * Exit records (taskstats.h) are listened to while a tree is watched and
 * the host allows it (root); each is offered to the trees until one takes
 * it (process.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../process/process.h"
#include "../logs/markers.h"
#include "collector_int.h"

/* proctree_read, and the exit records it placed at last (their parent
 * now known: proctree_late) to the tree's wait-state sampler, as
 * on_exit_record hands those the tree took at once. */
static int read_tree(struct watch *w, struct proc_raw *out)
{
	const struct proctree_late *late;
	int rc = proctree_read(w->tree, out, NULL);

	watch_waits_late(w->ww, late, proctree_late(w->tree, &late));
	return rc;
}

static int label_taken(const struct collector *c, const char *label)
{
	for (int i = 0; i < c->nwatch; i++)
		if (!strcmp(c->watch[i].label, label))
			return 1;
	return sessions_is_open(c, label);
}

/* want, or want-2, want-3 ... (cut to fit) when taken. */
static void unique_label(const struct collector *c, const char *want,
			 char *out, size_t n)
{
	util_strlcpy(out, want, n);
	for (int k = 2; label_taken(c, out) && k < 10000; k++) {
		char suffix[16];
		int len = snprintf(suffix, sizeof(suffix), "-%d", k);
		int keep = (int)strlen(want);

		if (keep > (int)n - 1 - len)
			keep = (int)n - 1 - len;
		snprintf(out, n, "%.*s%s", keep, want, suffix);
	}
}

struct watch_args {
	pid_t pid;
	char *label;
	int shim;
	struct cgroup_set cg;
};

/* "PID<TAB>LABEL[<TAB>KEY=VALUE...]", label and values escaped as marker
 * fields. Keys: shim=1 (the root is perflog run's shim), cgroup.v2,
 * cgroup.cpu, cgroup.cpuacct (the command's groups); others are ignored.
 * Returns NULL or why not. */
static const char *parse_args(char *args, struct watch_args *a)
{
	char *field[16], *end;
	int n = 0;
	long pid;

	memset(a, 0, sizeof(*a));
	for (char *p = args; p && n < 16; n++) {
		char *tab = strchr(p, '\t');

		if (tab)
			*tab = '\0';
		field[n] = p;
		p = tab ? tab + 1 : NULL;
	}
	if (n < 2)
		return "watch: expected PID and LABEL";
	errno = 0;
	pid = strtol(field[0], &end, 10);
	a->label = markers_unescape(field[1]);
	if (*end || errno || pid <= 0 || pid > INT32_MAX || !a->label ||
	    !a->label[0] || strlen(a->label) >= SRC_NAME_MAX)
		return "watch: bad pid or label";
	a->pid = (pid_t)pid;
	for (int i = 2; i < n; i++) {
		char *v = strchr(field[i], '='), *u;
		char *dst = NULL;

		if (!v)
			continue;
		*v++ = '\0';
		if (!strcmp(field[i], "shim"))
			a->shim = !strcmp(v, "1");
		else if (!strcmp(field[i], "cgroup.v2"))
			dst = a->cg.v2;
		else if (!strcmp(field[i], "cgroup.cpu"))
			dst = a->cg.cpu;
		else if (!strcmp(field[i], "cgroup.cpuacct"))
			dst = a->cg.cpuacct;
		if (!dst)
			continue;
		u = markers_unescape(v);
		if (!u || u[0] != '/' || util_strlcpy(dst, u, PATH_MAX) < 0) {
			free(u);
			return "watch: bad cgroup path";
		}
		free(u);
	}
	return NULL;
}

/* Exit records need root, and mean nothing for a fixture /proc. */
static void open_exits(struct collector *c)
{
	struct perr pe;

	if (c->ts || c->ts_failed)
		return;
	if (strcmp(c->opt->proc_root, "/")) {
		c->ts_failed = 1;
		return;
	}
	c->ts = taskstats_open(&pe);
	if (!c->ts) {
		c->ts_failed = 1;
		fprintf(stderr, "perflog: %s: watched trees are counted from /proc alone (process.h says what that loses)\n",
			pe.msg);
	}
}

void watch_end(struct collector *c, struct watch *w)
{
	double step = c->set->interval;

	watch_waits_close(w->ww);	/* its sampler's thread, at once */
	w->ww = NULL;
	w->state = WATCH_ENDED;
	/* zeros until the end of the row the tree ended in */
	w->fill_until = ceil(c->last_update / step) * step;
}

int watch_add(struct collector *c, struct request *r,
	      const struct proctree_options *opt, const char *label,
	      int follow, struct loop_request *lr, struct perr *pe)
{
	struct proctree_options o = *opt;
	struct watch *w;

	if (c->nwatch == MAX_WATCH)
		watch_check(c);	/* a slot a dead run left */
	if (c->nwatch == MAX_WATCH)
		return perr_set(pe, "watch: too many process trees (%d)",
				MAX_WATCH);
	open_exits(c);
	o.root = c->opt->proc_root;
	o.exits = c->ts != NULL;
	w = &c->watch[c->nwatch];
	memset(w, 0, sizeof(*w));
	w->tree = proctree_open(&o, pe);
	if (!w->tree)
		return -1;
	if (c->ts && !c->starts)
		c->starts = proc_starts_new();
	proctree_share_starts(w->tree, c->starts);
	w->pid = o.pid;
	w->follow = follow;
	w->ww = watch_waits_open(c->opt->proc_root, w->tree,
				 o.shim ? o.pid : 0, c->set->interval, pe);
	if (!w->ww || !watch_waits_ok(w->ww))
		complain(&c->c_waits, util_monotonic(),
			 "wait states not sampled: %s", pe->msg);
	if (follow) {	/* the session's own name, begun by this mark */
		util_strlcpy(w->label, label, sizeof(w->label));
		watch_ended_drop(c, label);	/* an earlier one's */
	} else {
		unique_label(c, label, w->label, sizeof(w->label));
	}
	c->nwatch++;
	w->client = follow ? 0 : r->pid;
	w->client_start = follow ? 0 : proctree_start_time(c->opt->proc_root,
							   r->pid);
	w->have_prev = read_tree(w, &w->prev) == 0;
	w->state = WATCH_NEW;
	/* the zero row part before it began (see the top of the file): the
	 * loop takes that sample, then watch_finish answers */
	w->zero_now = 1;
	lr->want = WANT_SAMPLE;
	lr->finish = FINISH_WATCH;
	lr->r = *r;
	lr->pid = w->pid;
	util_strlcpy(lr->label, w->label, sizeof(lr->label));
	return 0;
}

void watch_request(struct collector *c, struct request *r, char *args,
		   struct loop_request *lr)
{
	struct watch_args a;
	const char *why = parse_args(args, &a);
	struct proctree_options o;
	struct perr pe;

	if (why) {
		server_reply(r, 0, "%s", why);
		free(a.label);
		return;
	}
	memset(&o, 0, sizeof(o));
	o.pid = a.pid;
	o.shim = a.shim;
	o.cgroup = &a.cg;
	if (watch_add(c, r, &o, a.label, 0, lr, &pe) < 0)
		server_reply(r, 0, "%s", pe.msg);
	free(a.label);
}

/* The tree an "unwatch" or "waits" names: "PID" (perflog run's), or
 * "label=LABEL" (a tree `perflog mark --watch` asked for). */
static struct watch *find_watch(struct collector *c, const char *args)
{
	int by_label = !strncmp(args, "label=", 6);
	long pid = by_label ? 0 : strtol(args, NULL, 10);

	for (int i = 0; i < c->nwatch; i++) {
		struct watch *w = &c->watch[i];

		if (w->state == WATCH_ENDED)
			continue;
		if (by_label ? w->follow && !strcmp(w->label, args + 6)
			     : w->pid == pid && !w->follow)
			return w;
	}
	return NULL;
}

void watch_unwatch(struct collector *c, struct request *r, const char *args,
		   struct loop_request *lr)
{
	struct watch *w = find_watch(c, args);

	if (!w && !strncmp(args, "label=", 6) && watch_ended_drop(c, args + 6)) {
		server_reply(r, 1, "%s", "");	/* it ended before: done */
		return;
	}
	if (!w) {
		server_reply(r, 0, "unwatch: %.200s is not watched", args);
		return;
	}
	/* its last figures first: the loop samples, then watch_finish
	 * ends it */
	lr->want = WANT_SAMPLE;
	lr->finish = FINISH_UNWATCH;
	lr->r = *r;
	lr->pid = w->pid;
	util_strlcpy(lr->label, w->label, sizeof(lr->label));
}

/* The watch lr is about, found again after the loop's sample: not by
 * its slot, which that sample may have given to another tree (a tree
 * followed by name has pid 0; its label, the session's, is unique). */
static struct watch *find_again(struct collector *c,
				const struct loop_request *lr)
{
	for (int i = 0; i < c->nwatch; i++)
		if (c->watch[i].pid == lr->pid &&
		    c->watch[i].state != WATCH_ENDED &&
		    !strcmp(c->watch[i].label, lr->label))
			return &c->watch[i];
	return NULL;
}

/* FINISH_WAITS: the totals, with the sample just taken */
static void waits_answer(struct collector *c, struct watch *w,
			 struct request *r)
{
	char fields[2048];
	struct perr pe;

	if (watch_waits_finish(w->ww, logset_writer_dir(c->w), w->label,
			       fields, sizeof(fields), &pe) < 0)
		complain(&c->c_waits, util_monotonic(),
			 "wait states of %s: %s", w->label, pe.msg);
	server_reply(r, 1, "%s", fields);
}

void watch_finish(struct collector *c, struct loop_request *lr)
{
	struct watch *w = find_again(c, lr);

	if (!w) {	/* cannot be: only watch_check ends a tree */
		server_reply(&lr->r, 0, "watch: %s went away", lr->label);
		return;
	}
	if (lr->finish == FINISH_WAITS) {
		waits_answer(c, w, &lr->r);
	} else if (lr->finish == FINISH_WATCH && w->follow) {
		w->zero_now = 0;
		server_reply(&lr->r, 1, "label=%s %s procs=%d", w->label,
			     proctree_method(w->tree), w->prev.nprocs);
	} else if (lr->finish == FINISH_WATCH) {
		w->zero_now = 0;
		server_reply(&lr->r, 1, "label=%s %s", w->label,
			     proctree_method(w->tree));
	} else {
		watch_end(c, w);
		server_reply(&lr->r, 1, "%s", "");
	}
}

void watch_waits_request(struct collector *c, struct request *r,
			 const char *args, struct loop_request *lr)
{
	struct watch *w = find_watch(c, args);
	const char *kept = w || strncmp(args, "label=", 6) ? NULL :
			   watch_ended_fields(c, args + 6);

	if (kept) {	/* the tree ended before its session: as it was */
		server_reply(r, 1, "%s", kept);
		return;
	}
	if (!w) {
		server_reply(r, 0, "waits: %.200s is not watched", args);
		return;
	}
	watch_waits_whole(w->ww);	/* its last read: every thread */
	lr->want = WANT_SAMPLE;
	lr->finish = FINISH_WAITS;
	lr->r = *r;
	lr->pid = w->pid;
	util_strlcpy(lr->label, w->label, sizeof(lr->label));
}

static void remove_watch(struct collector *c, int i)
{
	watch_waits_close(c->watch[i].ww);
	proctree_close(c->watch[i].tree);
	c->watch[i] = c->watch[--c->nwatch];
	if (!c->nwatch && c->ts) {	/* nothing to listen for */
		taskstats_close(c->ts);
		c->ts = NULL;
		proc_starts_free(c->starts);
		c->starts = NULL;
	}
}

/* One tree's part of a sample; returns 1 when its slot is to be freed. */
static int sample_one(struct collector *c, struct watch *w, double when)
{
	struct instance_values *iv = NULL;
	struct proc_raw now;

	if (w->state == WATCH_ENDED) {
		if (c->last_update >= w->fill_until)
			return 1;
		if ((iv = sample_add(&c->sample, OBJ_PROCESS, w->label)))
			rates_process_idle(iv);
		return when >= w->fill_until;
	}
	if (read_tree(w, &now) < 0) {
		/* no row, but the sampler read: its threads since the last
		 * sample and the records this read placed (a `mark
		 * --watch` root gone before a sample at -i 30: its end's
		 * waits file had no thread) */
		watch_waits_last(w->ww);
		w->root_gone = 1;
		w->have_prev = 0;
		w->state = WATCH_ACTIVE;
		return 0;
	}
	/* on the sample's clock: the rows are stamped with the time the
	 * counters were read, and a rate over the tree's own read times
	 * (a few ms later, varying) would integrate to more or less than
	 * what it did; what it does in between counts in the next row */
	now.mono = c->cur->mono;
	if (w->state == WATCH_NEW && w->zero_now) {
		if ((iv = sample_add(&c->sample, OBJ_PROCESS, w->label)))
			rates_process_idle(iv);
		watch_waits_baseline(w->ww, w->tree, now.mono);
	} else if (w->have_prev &&
		   (iv = sample_add(&c->sample, OBJ_PROCESS, w->label))) {
		/* cpus[0] is _Total */
		rates_process_carry(&w->prev, &now, c->cur->ncpus > 1 ?
				    c->cur->ncpus - 1 : 0);
		rates_process(&w->prev, &now, iv);
		watch_waits_sample(w->ww, w->tree, now.mono, &c->cgmemo, iv);
	}
	w->state = WATCH_ACTIVE;
	w->prev = now;
	w->have_prev = 1;
	return 0;
}

void watch_sample(struct collector *c, double when)
{
	watch_drain(c);
	for (int i = 0; i < c->nwatch;) {
		if (sample_one(c, &c->watch[i], when))
			remove_watch(c, i);
		else
			i++;
	}
}

static int client_gone(const struct collector *c, const struct watch *w)
{
	return !w->client || proctree_start_time(c->opt->proc_root,
						  w->client) != w->client_start;
}

void watch_check(struct collector *c)
{
	for (int i = 0; i < c->nwatch; i++) {
		struct watch *w = &c->watch[i];
		char text[128];

		if (w->state == WATCH_ENDED || proctree_alive(w->tree))
			continue;
		if (w->follow) {
			/* a tree `perflog mark --watch` asked for ended
			 * early: its instance ends, its session does not;
			 * its wait states wait for the session's end */
			watch_ended_keep(c, w);
			watch_end(c, w);
			continue;
		}
		if (!client_gone(c, w))
			continue;
		snprintf(text, sizeof(text),
			 "perflog run (pid %ld) went away; its command ended",
			 (long)w->client);
		sessions_end_marker(c, w->label, text);
		watch_end(c, w);
	}
	/* ended trees whose rows are done */
	for (int i = 0; i < c->nwatch;) {
		if (c->watch[i].state == WATCH_ENDED &&
		    c->last_update >= c->watch[i].fill_until)
			remove_watch(c, i);
		else
			i++;
	}
}

int watch_closing(struct collector *c)
{
	int n = 0;
	for (int i = 0; i < c->nwatch; i++) {
		struct watch *w = &c->watch[i];
		struct instance_values *iv;

		if (w->state != WATCH_ENDED || c->last_update >= w->fill_until)
			continue;
		if ((iv = sample_add(&c->sample, OBJ_PROCESS, w->label))) {
			rates_process_idle(iv);
			n++;
		}
	}
	return n;
}

/* An exit record goes to the first tree that takes it; every tree is
 * told of it first (a thread gone: its process's task list to be read). */
static void on_exit_record(void *arg, const struct taskstats_exit *x)
{
	struct collector *c = arg;

	for (int i = 0; i < c->nwatch; i++)
		if (c->watch[i].state != WATCH_ENDED)
			proctree_exit_seen(c->watch[i].tree, x);
	for (int i = 0; i < c->nwatch; i++)
		if (c->watch[i].state != WATCH_ENDED &&
		    proctree_exit(c->watch[i].tree, x)) {
			watch_waits_exit(c->watch[i].ww, x, c->drained);
			return;
		}
}

long watch_drain(struct collector *c)
{
	int lost = 0;
	long n;

	if (!c->ts)
		return 0;
	c->drained = util_monotonic();
	proc_starts_next(c->starts);
	if ((n = taskstats_drain(c->ts, on_exit_record, c, &lost)) < 0)
		complain(&c->c_exits, util_monotonic(),
			 "reading exit records: %s", strerror(errno));
	if (!lost)
		return n;
	for (int i = 0; i < c->nwatch; i++)
		proctree_exits_lost(c->watch[i].tree);
	complain(&c->c_exits, util_monotonic(),
		 "the kernel dropped exit records: a watched tree's I/O is unknown for this interval");
	return n;
}

int watch_fd(const struct collector *c)
{
	return c->ts ? taskstats_fd(c->ts) : -1;
}

int watch_active(const struct collector *c)
{
	int n = 0;

	for (int i = 0; i < c->nwatch; i++)
		n += c->watch[i].state != WATCH_ENDED;
	return n;
}

void watch_free_all(struct collector *c)
{
	while (c->nwatch)
		remove_watch(c, c->nwatch - 1);
	taskstats_close(c->ts);
	c->ts = NULL;
	proc_starts_free(c->starts);
	c->starts = NULL;
}
