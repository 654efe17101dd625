/*
 * perf.c - one set's backup as a session, as the seed's perf.bat runs one
 * dsmc per set (workload_int.h): a client process of its own, watched by
 * the collector as Process(SET), sends the set to the server, which is
 * watched as Process(SET-server) for the same span; the session's begin
 * and end markers, with the client's dsmc-like figures in the end one.
 *
 * The order is perflog run's (run/cmd_run.c): the child waits on a pipe
 * until it is watched and the begin marker is written; at its end it
 * hands its figures over and waits again until the parent has taken a
 * sample (sync), written the end marker and unwatched it, so its whole
 * work, and nothing else, is in its rows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../client/summary.h"
#include "workload_int.h"

#define ME "perflog workload"

/* What the client child hands over. */
struct outcome {
	int rc;
	struct workload_result r;
	char msg[256];
};

static void size_label(char *buf, size_t n, size_t bytes)
{
	if (bytes >= 1048576 && bytes % 1048576 == 0)
		snprintf(buf, n, "%zu MB", bytes / 1048576);
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(buf, n, "%zu KB", bytes / 1024);
	else
		snprintf(buf, n, "%zu B", bytes);
}

/* The client: wait for the go, send, report, wait to be let go. */
static void client(const struct wl_run *w, const struct workload_set *set,
		   int go, int res)
{
	struct outcome o = { 0 };
	struct perr e;
	char c;
	int out, in;

	if (read(go, &c, 1) != 1)
		_exit(1);
	if (workload_connect(&w->srv, &out, &in, &e) < 0 ||
	    workload_send(out, in, w->src, set, w->seconds, &o.r, &e) < 0) {
		o.rc = -1;
		util_strlcpy(o.msg, e.msg, sizeof(o.msg));
	}
	if (!w->srv.remote && out >= 0)
		close(out);
	util_write_full(res, &o, sizeof(o));
	while (read(go, &c, 1) > 0)
		;
	_exit(0);
}

/* The set's dsmc-like summary, ADSM's layout. */
static void set_summary(const struct workload_result *r, struct summary *s)
{
	memset(s, 0, sizeof(*s));
	summary_set(s, SUM_OBJECTS_INSPECTED, (double)r->files);
	summary_set(s, SUM_OBJECTS_BACKED_UP, (double)r->files);
	summary_set(s, SUM_OBJECTS_UPDATED, 0);
	summary_set(s, SUM_OBJECTS_REBOUND, 0);
	summary_set(s, SUM_OBJECTS_DELETED, 0);
	summary_set(s, SUM_OBJECTS_FAILED, 0);
	summary_set(s, SUM_BYTES_TRANSFERRED, (double)r->wire_bytes);
	summary_set(s, SUM_TRANSFER_TIME, r->transfer_time);
	summary_set(s, SUM_TRANSFER_RATE, r->transfer_time > 0
		    ? (double)r->wire_bytes / 1024 / r->transfer_time : 0);
	summary_set(s, SUM_AVERAGE_FILE_SIZE,
		    r->files ? (double)r->data_bytes / (double)r->files : 0);
	summary_set(s, SUM_ELAPSED, r->elapsed);
}

#define NX 80
struct extras {
	char s[NX][160];
	const char *p[NX];
	size_t n;
};

static void extra(struct extras *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void extra(struct extras *x, const char *fmt, ...)
{
	va_list ap;
	if (x->n >= NX)
		return;
	va_start(ap, fmt);
	vsnprintf(x->s[x->n], sizeof(x->s[x->n]), fmt, ap);
	va_end(ap);
	x->p[x->n] = x->s[x->n];
	x->n++;
}

/* The client's wait-state totals, as perflog run asks for its command's. */
static void waits_extras(const struct wl_run *w, pid_t pid, const char *prefix,
			 struct extras *x)
{
	char req[64], reply[2048], *save = NULL;
	struct perr e;

	snprintf(req, sizeof(req), "waits %ld", (long)pid);
	if (control_request(&w->col, req, reply, sizeof(reply), &e) < 0)
		return;
	for (char *f = strtok_r(reply, "\t", &save); f;
	     f = strtok_r(NULL, "\t", &save))
		if (strchr(f, '='))
			extra(x, "%s%s", prefix, f);
}

/* The end marker: workload.* and the summary's client.* fields. */
static void end_marker(const struct wl_run *w, const struct workload_set *set,
		       const struct outcome *o, struct summary *s,
		       const char *text, struct extras *x)
{
	struct summary_list l = { .s = s, .n = 1, .cap = 1 };
	size_t nx = 0;
	char **cx = summary_extras(&l, &nx);
	struct perr e;

	extra(x, "workload.set=%s", set->name);
	extra(x, "workload.files=%zu", o->r.files);
	extra(x, "workload.bytes=%llu", (unsigned long long)o->r.data_bytes);
	extra(x, "workload.kb_per_sec=%.2f", o->r.kb_per_sec);
	extra(x, "workload.scale=%.2f", (double)o->r.files / (double)set->count);
	extra(x, "workload.passes=%.2f", o->r.passes_files
	      ? (double)o->r.files / (double)o->r.passes_files : 0);
	for (size_t j = 0; j < nx; j++)
		extra(x, "%s", cx[j]);
	if (control_mark(w->col.logset, MARK_END, set->name, text, x->p, x->n,
			 &e) < 0)
		fprintf(stderr, ME ": end marker: %s\n", e.msg);
	summary_extras_free(cx, nx);
}

static int watch(const struct wl_run *w, pid_t pid, const char *want,
		 char *label, size_t n, char *method, size_t mn)
{
	struct perr e;
	if (control_watch(&w->col, pid, want, 0, NULL, label, n, method, mn,
			  &e) == 0)
		return 1;
	fprintf(stderr, ME ": Process(%s) not logged: %s\n", want, e.msg);
	return 0;
}

static void unwatch(const struct wl_run *w, pid_t pid)
{
	char req[64];
	struct perr e;
	snprintf(req, sizeof(req), "unwatch %ld", (long)pid);
	if (control_request(&w->col, req, NULL, 0, &e) < 0)
		fprintf(stderr, ME ": unwatch: %s\n", e.msg);
}

/* The markers and watches around the client's run. */
static void begin(const struct wl_run *w, const struct workload_set *set,
		  pid_t pid, const char *text, int *wc, int *ws)
{
	char label[256], slabel[300], method[128] = "", m2[128], want[300];
	struct extras x = { .n = 0 };
	struct perr e;

	*wc = watch(w, pid, set->name, label, sizeof(label), method,
		    sizeof(method));
	if (*wc)
		extra(&x, "workload.client=Process(%s)", label);
	if (*wc && method[0])
		extra(&x, "accounting=%s", method);
	snprintf(want, sizeof(want), "%s-server", set->name);
	*ws = !w->srv.remote && watch(w, w->srv.pid, want, slabel,
				      sizeof(slabel), m2, sizeof(m2));
	if (*ws)
		extra(&x, "workload.server=Process(%s)", slabel);
	else if (w->srv.remote)
		extra(&x, "workload.server=%s", w->target);
	if (control_mark(w->col.logset, MARK_BEGIN, set->name, text, x.p, x.n,
			 &e) < 0)
		fprintf(stderr, ME ": begin marker: %s\n", e.msg);
}

/* The set's line on stdout and its summary in the perfdata file. */
static void report(const struct wl_run *w, const struct workload_set *set,
		   const struct outcome *o, const char *text,
		   const struct summary *s)
{
	printf(ME ": set %s: %zu files (%.2f passes, scale %.2f of the seed's "
	       "%zu) in %.2f s: %.0f KB/sec\n", set->name, o->r.files,
	       o->r.passes_files ? (double)o->r.files / (double)o->r.passes_files : 0,
	       (double)o->r.files / (double)set->count, set->count, o->r.elapsed,
	       o->r.kb_per_sec);
	fflush(stdout);
	fprintf(w->perfdata, ME ": set %s (%s)\n", set->name, text);
	summary_print(w->perfdata, s);
	fprintf(w->perfdata, "\n");
	fflush(w->perfdata);
}

int wl_run_set(struct wl_run *w, int i, double *kbs)
{
	const struct workload_set *set = &workload_sets[i];
	size_t n = workload_count(set, w->scale);
	struct outcome o = { .rc = -1 };
	struct summary s;
	struct extras x = { .n = 0 };
	char sz[32], text[200];
	int go[2], res[2], wc = 0, ws = 0;

	size_label(sz, sizeof(sz), set->size);
	snprintf(text, sizeof(text), "%s: %zu files of %s", set->title, n, sz);
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(res, O_CLOEXEC) < 0) {
		fprintf(stderr, ME ": pipe: %s\n", strerror(errno));
		return 1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(res[0]);
		client(w, set, go[0], res[1]);
	}
	close(go[0]);
	close(res[1]);
	if (pid < 0) {
		fprintf(stderr, ME ": fork: %s\n", strerror(errno));
		close(go[1]);
		close(res[0]);
		return 1;
	}
	if (w->marking)
		begin(w, set, pid, text, &wc, &ws);
	if (write(go[1], "g", 1) != 1 ||
	    read(res[0], &o, sizeof(o)) != (ssize_t)sizeof(o)) {
		o.rc = -1;
		snprintf(o.msg, sizeof(o.msg), "the client died");
	}
	if (o.rc < 0)
		fprintf(stderr, ME ": %s: %s\n", set->name, o.msg);
	set_summary(&o.r, &s);
	snprintf(text + strlen(text), sizeof(text) - strlen(text),
		 ", %zu sent (scale %.2f)", o.r.files,
		 (double)o.r.files / (double)set->count);
	if (w->marking) {
		struct perr e;
		if ((wc || ws) && control_request(&w->col, "sync", NULL, 0, &e) < 0)
			fprintf(stderr, ME ": sync: %s\n", e.msg);
		if (wc)
			waits_extras(w, pid, "", &x);
		/* the local server's totals and edges too (waits-SET-server.tsv,
		 * edges-SET-server.tsv), named in server.waits= and its cgroup's
		 * quota in server.cgroup.cpu_quota=: the receiver is a stage of
		 * the set's data path (issue 29) */
		if (ws)
			waits_extras(w, w->srv.pid, "server.", &x);
		end_marker(w, set, &o, &s, o.rc ? "failed" : text, &x);
		if (wc)
			unwatch(w, pid);
		if (ws)
			unwatch(w, w->srv.pid);
	}
	close(go[1]);
	close(res[0]);
	waitpid(pid, NULL, 0);
	report(w, set, &o, text, &s);
	kbs[i] = o.r.kb_per_sec;
	return o.rc ? 1 : 0;
}
