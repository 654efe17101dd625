/*
 * cmd_workload.c - `perflog workload [--scale F] [--seconds N] [--target
 * DIR|HOST:DIR]`: the reference backup (workload.h) as the seed kit runs
 * it. perfcfg first: every set is created before any session. Then the
 * server side starts, a process of its own (procs.c), and perf: each set
 * is backed up by a client process of its own inside a session of its
 * own (perf.c) when a collector is running ($PERFLOG_LOGSET, or the only
 * one). Last the seed kit's SUMMARY table:
 *
 *   SUMMARY
 *   1MB of 1KB files : 27kb/sec
 *   10MB of 10KB files : 174kb/sec
 *   25MB of 100KB files: 406kb/sec
 *   50MB of 10MB files : 457kb/sec
 *
 * kb/sec there is KB of file data / elapsed seconds (the seed's figures
 * are exactly its dsmc runs' bytes transferred / elapsed processing
 * time). Each set's end marker carries workload.kb_per_sec=NNN.NN (a
 * contract with `perflog estimate --from`), workload.set, workload.files,
 * workload.bytes, workload.scale, workload.passes and client.* figures of
 * its dsmc-like summary (summary.h). The summaries themselves go where the
 * seed's perf.bat put them, a perfdata file (workload-perfdata.txt in the
 * log set, else stdout): on stdout, perflog run would take them for its
 * command's and check them against a tree that holds the server too.
 *
 * `perflog workload --receive DIR` is the server's side on another host,
 * run there through ssh for --target HOST:DIR: the stream on stdin, the
 * answers on stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <arpa/inet.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../commands.h"
#include "../common/rmtree.h"
#include "workload_int.h"

#define ME "perflog workload"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perflog workload [--scale F] [--seconds N] [--target DIR|HOST:DIR]\n"
		"       perflog workload --receive DIR\n"
		"  --scale F     multiply the file counts (at least one file a set);\n"
		"                default 1: 1024 x 1 KB, 1024 x 10 KB, 256 x 100 KB,\n"
		"                5 x 10 MB\n"
		"  --seconds N   back each set up again and again until N seconds have\n"
		"                passed (at least once whole); default 0: once\n"
		"  --target DIR  where the server writes (kept); default a temporary\n"
		"                directory under $TMPDIR or /tmp, removed afterwards\n"
		"  --target HOST:DIR  the server runs on HOST, through ssh ($PERFLOG_SSH,\n"
		"                default '" WORKLOAD_SSH "')\n"
		"  --remote-perflog PATH  perflog's name on HOST (default perflog)\n"
		"  --receive DIR the server's side: the stream on stdin (what ssh runs)\n"
		"Creates the sets, then backs each up by a client process of its own to\n"
		"a server process of its own, a session per set in the running\n"
		"collector's log set (if any); prints a line per set and the seed kit's\n"
		"SUMMARY table, the dsmc-like summaries to workload-perfdata.txt there.\n");
}

struct args {
	double scale, seconds;
	const char *target, *receive, *remote_perflog;
};

static int number(const char *opt, const char *arg, double lo, double hi,
		  double *v)
{
	char *end;
	errno = 0;
	*v = strtod(arg, &end);
	if (end == arg || *end || errno || !isfinite(*v) || *v <= lo || *v > hi) {
		fprintf(stderr, ME ": %s: '%s' is not a number in (%g, %g]\n",
			opt, arg, lo, hi);
		return 2;
	}
	return 0;
}

/* The command line: 0, -1 after --help, or the exit status with the
 * message printed. */
static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "scale", required_argument, NULL, 's' },
		{ "seconds", required_argument, NULL, 'S' },
		{ "target", required_argument, NULL, 't' },
		{ "receive", required_argument, NULL, 'r' },
		{ "remote-perflog", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc = 0;

	optind = 1;
	opterr = 0;
	while (rc == 0 &&
	       (c = util_getopt(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': rc = number("--scale", optarg, 0, 100, &a->scale); break;
		case 'S': rc = number("--seconds", optarg, 0, 3600, &a->seconds); break;
		case 't': a->target = optarg; break;
		case 'r': a->receive = optarg; break;
		case 'p': a->remote_perflog = optarg; break;
		case 'h': usage(stdout); return -1;
		default:
			return util_bad_option("workload", argv, optind, optopt);
		}
	}
	if (rc)
		return rc;
	if (optind < argc) {
		fprintf(stderr, ME ": unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	return 0;
}

/* The temporary directory (sources, and the target unless given; a
 * remote target is the receiver's to create). */
static int make_dirs(struct wl_run *w)
{
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char host[256];
	const char *dir;

	snprintf(w->base, sizeof(w->base), "%s/perflog-workload.XXXXXX", tmp);
	if (!mkdtemp(w->base)) {
		fprintf(stderr, ME ": unable to create a directory under '%s': %s\n",
			tmp, strerror(errno));
		return -1;
	}
	snprintf(w->src, sizeof(w->src), "%s/src", w->base);
	if (w->target)
		util_strlcpy(w->tgt, w->target, sizeof(w->tgt));
	else
		snprintf(w->tgt, sizeof(w->tgt), "%s/target", w->base);
	if (!workload_remote(w->tgt, host, sizeof(host), &dir) &&
	    util_mkdirs(w->tgt, 0755) < 0) {
		fprintf(stderr, ME ": unable to create '%s': %s\n", w->tgt,
			strerror(errno));
		rmtree(w->base);
		return -1;
	}
	return 0;
}

/* --receive DIR: the server's side, on stdin and stdout. */
static int receive(const char *dir)
{
	struct perr e;

	if (util_mkdirs(dir, 0755) < 0) {
		fprintf(stderr, ME ": unable to create '%s': %s\n", dir,
			strerror(errno));
		return 1;
	}
	if (util_write_full(1, WORKLOAD_HELLO, strlen(WORKLOAD_HELLO)) < 0 ||
	    workload_serve(0, 1, dir, &e) < 0) {
		fprintf(stderr, ME ": %s\n", e.msg);
		return 1;
	}
	return 0;
}

/* perfcfg: every set, before any session. 0 or 1. */
static int create_sets(struct wl_run *w)
{
	double t0 = util_monotonic();
	struct perr e;

	for (int i = 0; i < WORKLOAD_NSETS; i++)
		if (workload_create(w->src, &workload_sets[i],
				    workload_count(&workload_sets[i], w->scale),
				    &e) < 0) {
			fprintf(stderr, ME ": %s\n", e.msg);
			return 1;
		}
	printf(ME ": the sets created in %.1f s (perfcfg)\n", util_monotonic() - t0);
	fflush(stdout);
	return 0;
}

/* Where the dsmc-like summaries go: the log set's perfdata file, appended
 * to as the seed's perf.bat did, else stdout. */
static void open_perfdata(struct wl_run *w)
{
	w->perfdata = stdout;
	if (!w->marking)
		return;
	snprintf(w->perfdata_path, sizeof(w->perfdata_path),
		 "%s/workload-perfdata.txt", w->col.logset);
	FILE *f = fopen(w->perfdata_path, "ae");
	if (f)
		w->perfdata = f;
	else
		fprintf(stderr, ME ": '%s': %s (summaries on stdout)\n",
			w->perfdata_path, strerror(errno));
}

static int run_all(struct wl_run *w, const char *remote_perflog)
{
	double kbs[WORKLOAD_NSETS];
	struct perr e;
	int rc;

	if (workload_server_start(&w->srv, w->tgt, remote_perflog, &e) < 0) {
		fprintf(stderr, ME ": %s\n", e.msg);
		return 1;
	}
	if (w->srv.remote)
		printf(ME ": the server: %s through ssh, writing under %s\n",
		       w->srv.host, w->tgt);
	else
		printf(ME ": the server: pid %ld on 127.0.0.1:%u, writing under %s\n",
		       (long)w->srv.pid, (unsigned)ntohs(w->srv.addr.sin_port),
		       w->tgt);
	rc = create_sets(w);
	open_perfdata(w);
	if (w->perfdata != stdout)
		printf(ME ": dsmc-like summaries in %s\n", w->perfdata_path);
	fflush(stdout);
	for (int i = 0; i < WORKLOAD_NSETS && rc == 0; i++)
		rc = wl_run_set(w, i, kbs);
	if (w->perfdata != stdout)
		fclose(w->perfdata);
	if (workload_server_stop(&w->srv, &e) < 0) {
		fprintf(stderr, ME ": the server: %s\n", e.msg);
		rc = 1;
	}
	if (rc == 0) {
		printf("SUMMARY\n");
		for (int i = 0; i < WORKLOAD_NSETS; i++)
			printf("%-19s: %.0fkb/sec\n", workload_sets[i].title, kbs[i]);
	}
	return rc;
}

int cmd_workload(int argc, char **argv)
{
	struct args a = { .scale = 1, .remote_perflog = "perflog" };
	struct wl_run w = { .scale = 1 };
	struct perr e;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc < 0 ? 0 : rc;
	signal(SIGPIPE, SIG_IGN);	/* a server gone is an error, not death */
	if (a.receive)
		return receive(a.receive);
	w.scale = a.scale;
	w.seconds = a.seconds;
	w.target = a.target;
	/* markers only when a collector takes them */
	w.marking = control_find(NULL, &w.col, &e) == 0;
	if (!w.marking && getenv("PERFLOG_LOGSET"))
		fprintf(stderr, ME ": no session markers: %s\n", e.msg);
	if (make_dirs(&w) < 0)
		return 1;
	printf(ME ": scale %g", w.scale);
	if (w.seconds > 0)
		printf(", each set for at least %g s", w.seconds);
	printf(", files under %s%s\n", w.src,
	       w.marking ? "" : " (no collector: no markers)");
	fflush(stdout);
	rc = run_all(&w, a.remote_perflog);
	rmtree(w.base);	/* holds the target too unless --target was given */
	return rc;
}
