/*
 * mknight.c - a night at a backup server as a log set, made in seconds
 * rather than logged for a day (bench/nightreport.sh, issue 47 item 4):
 * SPAN at INTERVAL (a day at 1 s: 86,400 rows) of the objects a
 * collector on a two-CPU host writes by default (Processor _Total, 0, 1;
 * LogicalDisk _Total, vda; Network Interface _Total, eth0, lo; Memory,
 * System, TCP; Pressure cpu, io, memory), every counter of each with a
 * value that moves (a slow wave per counter, higher while more sessions
 * run), written through the real writer (logs/logset.h) and librrd,
 * stamped in the past so that it ends now; and SESSIONS sessions
 * s01..sNN that overlap as a night's backups do: one begins every
 * 0.8 x SPAN / SESSIONS, each lasting SPAN / 24 times 1 to 5 (a day: 1
 * to 5 hours, some 8 at once), each with its tree's Process(sNN)
 * object while it runs, marked as perflog run marks them (the end marker
 * naming waits-sNN.tsv).
 *
 *   mknight DIR [-s SPAN] [-i INTERVAL] [-n SESSIONS]
 *
 * Prints each session as "NAME BEGIN END" (seconds since the epoch) for
 * the script that writes the trees' waits, edges and rows files (they
 * are the collector's files of a real run, stretched over the session:
 * bench/nightwaits.awk).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../common/util.h"
#include "../../logs/logset.h"
#include "../../logs/markers.h"
#include "fill.h"

struct night {
	unsigned long span, interval, sessions;
	time_t start;
	double *begin, *end;	/* [sessions] */
};

static int die(const char *msg)
{
	fprintf(stderr, "mknight: %s\n", msg);
	return 1;
}

static const struct {
	enum counter_object obj;
	const char *inst;
} host_objects[] = {
	{ OBJ_PROCESSOR, "_Total" }, { OBJ_PROCESSOR, "0" },
	{ OBJ_PROCESSOR, "1" }, { OBJ_LOGICALDISK, "_Total" },
	{ OBJ_LOGICALDISK, "vda" }, { OBJ_NETWORK, "_Total" },
	{ OBJ_NETWORK, "eth0" }, { OBJ_NETWORK, "lo" },
	{ OBJ_MEMORY, "" }, { OBJ_SYSTEM, "" }, { OBJ_TCP, "" },
	{ OBJ_PRESSURE, "cpu" }, { OBJ_PRESSURE, "io" },
	{ OBJ_PRESSURE, "memory" },
};
#define NHOST (sizeof(host_objects) / sizeof(host_objects[0]))

static int parse(int argc, char **argv, struct night *k)
{
	int opt;

	while ((opt = getopt(argc, argv, "s:i:n:")) != -1) {
		if (opt == 's' || opt == 'i') {
			if (util_parse_duration(optarg, opt == 's' ? &k->span :
						&k->interval) < 0)
				return -1;
		} else if (opt == 'n') {
			k->sessions = strtoul(optarg, NULL, 10);
		} else {
			return -1;
		}
	}
	return optind + 1 == argc && k->interval && k->span >= 3600 &&
	       k->sessions && k->sessions < 1000 ? 0 : -1;
}

/* The sessions' spans: staggered begins, lengths of 1 to 5 24ths of
 * the span, each ending a minute before the set does at the latest. */
static void plan(struct night *k)
{
	double span = (double)k->span, n = (double)k->sessions;
	for (unsigned long i = 0; i < k->sessions; i++) {
		double b = (double)k->start + 0.8 * span * (double)i / n;
		double e = b + span / 24 * (double)(1 + i % 5);
		double last = (double)k->start + span - 60;
		k->begin[i] = b;
		k->end[i] = e < last ? e : last;
	}
}

/* A value of counter c (its index ci) at time t, as a share 0..1 of its
 * range: a slow wave of its own, raised by the sessions running. */
static double level(int ci, int inst, double t, double busy)
{
	double w = sin(t / (600.0 + 97.0 * ci + 31.0 * inst));
	double x = 0.15 + 0.1 * w + 0.6 * busy;
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

static void fill_instance(struct sample *s, enum counter_object obj,
			  const char *inst, int ii, double t, double busy)
{
	struct instance_values *iv = sample_find(s, obj, inst);

	if (!iv)
		iv = sample_add(s, obj, inst);
	if (!iv)
		return;
	for (int c = 0; c < catalog_objects[obj].ncounters; c++) {
		const struct counter_def *d = catalog_counter_at(obj, c);
		double x = level(c, ii, t, busy);
		if (!d)
			continue;
		if (!isnan(d->min) && !isnan(d->max))
			iv->v[c] = d->min + (d->max - d->min) * x;
		else
			iv->v[c] = 1e6 * x;
	}
}

/* The samples: t is the end of the interval a value covers. */
static int write_all(struct logset_writer *w, const struct night *k,
		     struct perr *e)
{
	struct sample s = { 0 };
	int rc = 0;

	for (time_t t = k->start + (time_t)k->interval;
	     rc == 0 && t <= k->start + (time_t)k->span;
	     t += (time_t)k->interval) {
		unsigned long running = 0;
		sample_reset(&s);
		for (unsigned long i = 0; i < k->sessions; i++) {
			char name[24];
			if ((double)t <= k->begin[i] || (double)t > k->end[i])
				continue;
			running++;
			snprintf(name, sizeof(name), "s%02lu", i + 1);
			fill_instance(&s, OBJ_PROCESS, name, (int)i, (double)t,
				      0.3);
		}
		double busy = running > 10 ? 1.0 : (double)running / 10;
		for (size_t o = 0; o < NHOST; o++)
			fill_instance(&s, host_objects[o].obj,
				      host_objects[o].inst, (int)o, (double)t,
				      busy);
		rc = logset_write_sample(w, (double)t, &s, e);
		/* as mkspike: a writer that outruns the clock waits for the
		 * worker that grows its files now and then */
		if (rc == 0 && (t - k->start) % 600 == 0)
			rc = logset_flush(w, e);
	}
	sample_free(&s);
	return rc;
}

/* The markers, in time order as a collector appends them. */
static int add_sessions(const char *dir, struct night *k)
{
	unsigned long n = k->sessions, nb = 0, ne = 0;

	while (nb < n || ne < n) {
		/* the next event: a begin (in order) or the earliest end */
		unsigned long first = n;
		for (unsigned long i = 0; i < nb; i++)
			if (k->end[i] >= 0 &&
			    (first == n || k->end[i] < k->end[first]))
				first = i;
		int begin = nb < n && (first == n || k->begin[nb] <= k->end[first]);
		unsigned long i = begin ? nb++ : first;
		char name[24], cmd[64], waits[48], dur[40];
		snprintf(name, sizeof(name), "s%02lu", i + 1);
		snprintf(cmd, sizeof(cmd), "cmd=sh -c 'backup %s'", name);
		if (begin) {
			if (fill_marker(dir, markers_format(k->begin[i], MARK_BEGIN,
							 name, "crafted",
							 NULL, 0)) < 0)
				return -1;
			continue;
		}
		snprintf(waits, sizeof(waits), "waits=waits-%s.tsv", name);
		snprintf(dur, sizeof(dur), "duration=%.3f",
			 k->end[i] - k->begin[i]);
		const char *x[] = { cmd, "status=0", dur, waits };
		if (fill_marker(dir, markers_format(k->end[i], MARK_END, name,
						 "exit 0", x, 4)) < 0)
			return -1;
		printf("%s %.3f %.3f\n", name, k->begin[i], k->end[i]);
		k->end[i] = -1;	/* written */
		ne++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct night k = { 86400, 1, 50, 0, NULL, NULL };
	char parent[4096];
	struct logset_writer *w;
	struct perr e;
	int bad = 0;

	if (parse(argc, argv, &k) < 0)
		return die("usage: mknight DIR [-s SPAN (1 h at least)] "
			   "[-i INTERVAL] [-n SESSIONS (1-999)]");
	const char *dir = argv[optind];
	const char *name = fill_split(dir, parent, sizeof(parent));
	time_t end = time(NULL);
	end -= end % (time_t)k.interval;
	k.start = end - (time_t)k.span;
	k.begin = calloc(k.sessions, sizeof *k.begin);
	k.end = calloc(k.sessions, sizeof *k.end);
	if (!k.begin || !k.end)
		return die("out of memory");
	plan(&k);
	struct logset_options o = { .parent = parent, .name = name,
				    .interval = (unsigned)k.interval,
				    .retention = k.span, .start = k.start,
				    .batch = 3600 };
	if (logset_create(&o, &w, &e) < 0)
		return die(e.msg);
	for (size_t i = 0; i < NHOST; i++)
		bad |= fill_add_object(w, host_objects[i].obj,
				       host_objects[i].inst);
	for (unsigned long i = 0; i < k.sessions; i++) {
		char sname[24];
		snprintf(sname, sizeof(sname), "s%02lu", i + 1);
		bad |= fill_add_object(w, OBJ_PROCESS, sname);
	}
	if (bad)
		return 1;
	if (write_all(w, &k, &e) < 0 ||
	    logset_close_writer(w, (double)end, &e) < 0)
		return die(e.msg);
	if (add_sessions(dir, &k) < 0)
		return die("unable to write markers.tsv");
	free(k.begin);
	free(k.end);
	return 0;
}
