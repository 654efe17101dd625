/*
 * mkwaveset.c - make a log set with stamps in the past, for the viewer's
 * tests and benchmark, through the real writer (logs/logset.h) and the
 * real marker format (logs/markers.h).
 *
 *   mkwaveset DIR [-s SPAN] [-i INTERVAL] [-d DISKS] [-n IFACES] [-c CPUS]
 *            [-r RETENTION] [-m OFFSET:TEXT]... [-S NAME:BEGIN:END]...
 *            [-H HOST]
 *
 * SPAN, INTERVAL, RETENTION, OFFSET, BEGIN, END are seconds (durations as
 * util_parse_duration reads them: 90, 5m, 7d); offsets count from the
 * set's start. The set ends at the current time, rounded down to the
 * interval. Values are deterministic functions of the stamp (waves and
 * steps), so a test can tell them apart; they are checked against the CSV
 * export, never predicted here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../common/util.h"
#include "../../counters/catalog.h"
#include "../../counters/rates.h"
#include "../../logs/logset.h"
#include "../../logs/markers.h"

static int die(const char *msg)
{
	fprintf(stderr, "mklogset: %s\n", msg);
	return 1;
}

static double wave(time_t t, double period, double phase)
{
	return 0.5 + 0.5 * sin(2 * M_PI * ((double)t / period + phase));
}

static void fill(struct sample *s, time_t t, int cpus, int disks, int ifaces)
{
	struct instance_values *v;
	char name[32];
	for (int c = -1; c < cpus; c++) {
		if (c < 0)
			snprintf(name, sizeof(name), "_Total");
		else
			snprintf(name, sizeof(name), "%d", c);
		v = sample_add(s, OBJ_PROCESSOR, name);
		double tot = 10 + 80 * wave(t, 600, c * 0.1);
		v->v[0] = tot;
		v->v[1] = tot * 0.6;
		v->v[2] = tot * 0.3;
		v->v[3] = (t / 60) % 2 ? 8.0 : 1.0;
	}
	for (int d = 0; d < disks; d++) {
		snprintf(name, sizeof(name), "sd%c", 'a' + d);
		v = sample_add(s, OBJ_LOGICALDISK, name);
		double busy = d == 0 ? 95 * wave(t, 900, 0) : 20 * wave(t, 300, 0.3);
		v->v[0] = busy;
		v->v[1] = busy * 1e6;
		v->v[2] = busy * 0.5e6;
		v->v[3] = busy * 4;
		v->v[4] = busy * 2;
		v->v[5] = 0.004 + busy / 10000;
		v->v[6] = busy / 25;
	}
	v = sample_add(s, OBJ_MEMORY, "");
	v->v[0] = 2e9 + 1e9 * wave(t, 3600, 0);
	v->v[1] = 1e9 + 5e8 * wave(t, 3600, 0.5);
	v->v[2] = (t / 120) % 5 == 0 ? 300 : 0;
	v->v[3] = 1000 + 500 * wave(t, 60, 0);
	v->v[4] = v->v[2] / 2;
	v->v[5] = v->v[2] / 2;
	v->v[6] = 10;
	for (int n = 0; n < ifaces; n++) {
		snprintf(name, sizeof(name), "eth%d", n);
		v = sample_add(s, OBJ_NETWORK, name);
		double bytes = (n == 0 ? 80e6 : 5e6) * wave(t, 1200, 0.2);
		v->v[0] = bytes;
		v->v[1] = bytes * 0.1;
		v->v[2] = bytes * 0.9;
		v->v[3] = bytes / 1400;
		v->v[4] = 1e9;
	}
	v = sample_add(s, OBJ_SYSTEM, "");
	v->v[0] = 2;
	v->v[1] = 5000;
}

static int add_all(struct logset_writer *w, int cpus, int disks, int ifaces,
		   struct perr *e)
{
	int idx[CATALOG_MAX_PER_OBJECT];
	char name[32];
	for (int i = 0; i < CATALOG_MAX_PER_OBJECT; i++)
		idx[i] = i;
	for (int c = -1; c < cpus; c++) {
		snprintf(name, sizeof(name), c < 0 ? "_Total" : "%d", c);
		if (logset_add_instance(w, OBJ_PROCESSOR, name, idx,
					(size_t)catalog_objects[OBJ_PROCESSOR].ncounters, e) < 0)
			return -1;
	}
	for (int d = 0; d < disks; d++) {
		snprintf(name, sizeof(name), "sd%c", 'a' + d);
		if (logset_add_instance(w, OBJ_LOGICALDISK, name, idx,
					(size_t)catalog_objects[OBJ_LOGICALDISK].ncounters, e) < 0)
			return -1;
	}
	if (logset_add_instance(w, OBJ_MEMORY, "", idx,
				(size_t)catalog_objects[OBJ_MEMORY].ncounters, e) < 0)
		return -1;
	for (int n = 0; n < ifaces; n++) {
		snprintf(name, sizeof(name), "eth%d", n);
		if (logset_add_instance(w, OBJ_NETWORK, name, idx,
					(size_t)catalog_objects[OBJ_NETWORK].ncounters, e) < 0)
			return -1;
	}
	return logset_add_instance(w, OBJ_SYSTEM, "", idx,
				   (size_t)catalog_objects[OBJ_SYSTEM].ncounters, e);
}

static int append_marker(const char *dir, double when, enum marker_kind k,
			 const char *session, const char *text)
{
	char path[4096];
	char *line = markers_format(when, k, session, text, NULL, 0);
	if (!line)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, LOGSET_MARKERS);
	FILE *f = fopen(path, "a");
	int rc = f && fputs(line, f) >= 0 ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	free(line);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned long span = 3600, interval = 1, retention = 2 * 86400;
	int disks = 2, ifaces = 1, cpus = 1, opt;
	const char *host = NULL;
	char *marks[64], *sessions[64];
	int nmarks = 0, nsessions = 0;
	while ((opt = getopt(argc, argv, "s:i:d:n:c:r:m:S:H:")) != -1) {
		switch (opt) {
		case 's':
			if (util_parse_duration(optarg, &span) < 0 || !span)
				return die("bad -s");
			break;
		case 'i':
			if (util_parse_duration(optarg, &interval) < 0 || !interval)
				return die("bad -i");
			break;
		case 'r':
			if (util_parse_duration(optarg, &retention) < 0)
				return die("bad -r");
			break;
		case 'd': disks = atoi(optarg); break;
		case 'n': ifaces = atoi(optarg); break;
		case 'c': cpus = atoi(optarg); break;
		case 'H': host = optarg; break;
		case 'm':
			if (nmarks < 64)
				marks[nmarks++] = optarg;
			break;
		case 'S':
			if (nsessions < 64)
				sessions[nsessions++] = optarg;
			break;
		default:
			return die("usage: mklogset DIR [-s SPAN] [-i INTERVAL] ...");
		}
	}
	if (optind + 1 != argc)
		return die("usage: mklogset DIR [-s SPAN] [-i INTERVAL] ...");
	char *dir = argv[optind], parent[4096], *slash;
	util_strlcpy(parent, dir, sizeof(parent));
	slash = strrchr(parent, '/');
	const char *name = dir;
	if (slash) {
		*slash = '\0';
		name = slash + 1;
	} else {
		strcpy(parent, ".");
	}
	time_t end = time(NULL);
	end -= end % (time_t)interval;
	time_t start = end - (time_t)span;
	struct logset_options o = { .parent = parent, .name = name,
				    .interval = (unsigned)interval,
				    .retention = retention, .start = start };
	struct logset_writer *w;
	struct perr e;
	if (logset_create(&o, &w, &e) < 0 ||
	    add_all(w, cpus, disks, ifaces, &e) < 0)
		return die(e.msg);
	struct sample s = { 0 };
	for (time_t t = start + (time_t)interval; t <= end; t += (time_t)interval) {
		sample_reset(&s);
		fill(&s, t, cpus, disks, ifaces);
		if (logset_write_sample(w, t, &s, &e) < 0)
			return die(e.msg);
		/* faster than the clock: let the worker grow the files (see
		 * mkspike.c), or rows held past HOLD_SECONDS are dropped */
		if ((t - start) % 600 == 0 && logset_flush(w, &e) < 0)
			return die(e.msg);
	}
	sample_free(&s);
	if (logset_close_writer(w, end, &e) < 0)
		return die(e.msg);
	if (host) {
		/* the writer stamps this machine's name; tests of several
		 * sets want distinct hosts: rewrite the metadata's host */
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, LOGSET_META);
		struct logset_meta m;
		char *text = util_read_file(path, NULL);
		if (!text || logset_meta_parse(text, path, &m, &e) < 0)
			return die("unable to re-read the metadata");
		util_strlcpy(m.host, host, sizeof(m.host));
		char *out = logset_meta_format(&m);
		if (!out || util_write_atomic(path, out, strlen(out), &e) < 0)
			return die("unable to rewrite the metadata");
		free(out);
		free(text);
		logset_meta_free(&m);
	}
	for (int i = 0; i < nmarks; i++) {
		char *colon = strchr(marks[i], ':');
		unsigned long off;
		if (!colon)
			return die("-m wants OFFSET:TEXT");
		*colon = '\0';
		if (util_parse_duration(marks[i], &off) < 0)
			return die("bad -m offset");
		if (append_marker(dir, (double)(start + (time_t)off), MARK_POINT,
				  "", colon + 1) < 0)
			return die("unable to write markers");
	}
	for (int i = 0; i < nsessions; i++) {
		char *a = strchr(sessions[i], ':'), *b = a ? strchr(a + 1, ':') : NULL;
		unsigned long oa, ob;
		if (!a || !b)
			return die("-S wants NAME:BEGIN:END");
		*a = *b = '\0';
		if (util_parse_duration(a + 1, &oa) < 0 ||
		    util_parse_duration(b + 1, &ob) < 0)
			return die("bad -S offsets");
		if (append_marker(dir, (double)(start + (time_t)oa), MARK_BEGIN,
				  sessions[i], "backup begins") < 0 ||
		    append_marker(dir, (double)(start + (time_t)ob), MARK_END,
				  sessions[i], "backup ends") < 0)
			return die("unable to write markers");
	}
	printf("%s\n", dir);
	return 0;
}
