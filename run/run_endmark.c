/*
 * run_endmark.c - the fields of `perflog run`'s end marker from what the
 * run saw: the command's status and rusage, its output, the processes it
 * left, the backup client's summary (client/client.h), and the wait-state
 * totals the collector wrote (run_int.h; the keys are listed at the top
 * of cmd_run.c and in run/README.md).
 */
#define _GNU_SOURCE
#include "run_int.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

/* "1234:sh,1240:sleep": the processes left alive, for the end marker. */
static void left_extras(const struct run *r, struct run_extras *x)
{
	char procs[RUN_LEFT_MAX * 24] = "";
	size_t len = 0;

	if (!r->nleft)
		return;
	for (long i = 0; i < r->nleft && i < RUN_LEFT_MAX; i++) {
		int w = snprintf(procs + len, sizeof(procs) - len, "%s%ld:%s",
				 i ? "," : "", (long)r->left[i], r->left_comm[i]);

		if (w < 0 || (size_t)w >= sizeof(procs) - len)
			break;
		len += (size_t)w;
	}
	run_extra_add(x, "left=%ld", r->nleft);
	run_extra_add(x, "left.procs=%s", procs);
}

long run_oom_kills(const struct run *r)
{
	long now;

	if (r->oom0 < 0)
		return 0;
	now = cgroup_oom_kills(NULL, r->cg.v2);
	return now > r->oom0 ? now - r->oom0 : 0;
}

/* The end marker's fields (listed at the top of cmd_run.c). */
void run_end_extras(struct run *r, struct run_extras *x)
{
	const struct shim *s = &r->shim;
	const struct rusage *ru = &s->ru;
	struct client_list sums;
	size_t nclient = 0;
	char **client;
	long nsum = 0;

	run_extra_add(x, "cmd=%s", r->cmdline);
	run_extra_add(x, "status=%d", r->status);
	if (!s->exec_errno && s->exited && WIFSIGNALED(s->status))
		run_extra_add(x, "signal=%d", WTERMSIG(s->status));
	if (r->ooms)
		run_extra_add(x, "oom_kill=%ld", r->ooms);
	run_extra_add(x, "duration=%.3f", s->t1 > s->t0 ? s->t1 - s->t0 : 0.0);
	if (r->out.cap && r->outname[0]) {
		run_extra_add(x, "output=%s", r->outname);
		run_extra_add(x, "output.bytes=%llu", r->out.total);
	}
	if (run_output_cut(&r->out))
		run_extra_add(x, "output.cut=%llu", run_output_cut(&r->out));
	if (r->out.keep_cut)
		run_extra_add(x, "summary.cut=%llu", r->out.keep_cut);
	if (r->after)
		run_extra_add(x, "output.after=%llu", r->after);
	left_extras(r, x);
	run_extra_add(x, "rusage.utime=%.3f",
		      ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6);
	run_extra_add(x, "rusage.stime=%.3f",
		      ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6);
	run_extra_add(x, "rusage.maxrss_kb=%ld", ru->ru_maxrss);
	run_extra_add(x, "rusage.minflt=%ld", ru->ru_minflt);
	run_extra_add(x, "rusage.majflt=%ld", ru->ru_majflt);
	run_extra_add(x, "rusage.inblock=%ld", ru->ru_inblock);
	run_extra_add(x, "rusage.oublock=%ld", ru->ru_oublock);
	run_extra_add(x, "rusage.nvcsw=%ld", ru->ru_nvcsw);
	run_extra_add(x, "rusage.nivcsw=%ld", ru->ru_nivcsw);
	memset(&sums, 0, sizeof(sums));
	if (r->out.nkeep && !(r->client_arg && !r->client))
		nsum = client_detect(r->out.keep, r->out.nkeep, r->client,
				     client_by_command(r->cmd), &sums);
	if (r->client && nsum == 0)
		fprintf(stderr, ME ": no %s summary in the output\n",
			r->client->name);
	client = client_extras(&sums, &nclient);
	client_list_free(&sums);
	for (size_t i = 0; i < nclient; i++)
		run_extra_add(x, "%s", client[i]);
	client_extras_free(client, nclient);
}

/* The wait-state totals (written by the collector beside the markers)
 * and its fields about them: "waits PID" replies with them, tab-separated. */
void run_waits_extras(struct run *r, struct run_extras *x)
{
	char req[64], reply[2048], *save = NULL;
	struct perr e;

	if (!r->watching)
		return;
	snprintf(req, sizeof(req), "waits %ld", (long)r->shim.pid);
	if (control_request(&r->col, req, reply, sizeof(reply), &e) < 0) {
		run_extra_add(x, "waits.error=%s", e.msg);
		return;
	}
	for (char *f = strtok_r(reply, "\t", &save); f;
	     f = strtok_r(NULL, "\t", &save))
		if (strchr(f, '='))
			run_extra_add(x, "%s", f);
}
