/*
 * mkspike.c - a long log set with one short peak, for the MIN/MAX bands
 * (the viewer zoomed out, the PNGs of a long span): Processor(_Total)
 * at a flat BASE % for the whole SPAN but for WIDTH seconds at PEAK %,
 * starting AT seconds into the set, written through the real writer
 * (logs/logset.h) and librrd, stamped in the past so that it ends now.
 *
 *   mkspike DIR [-s SPAN] [-i INTERVAL] [-r RETENTION] [-a AT] [-w WIDTH]
 *           [-b BASE] [-p PEAK] [-m TEXT] [-H HOST]
 *
 * Defaults: a week at 1 s (604800 samples), 2 days at full resolution,
 * 5% with a 10 s peak to 100% three days in (beyond the full-resolution
 * archive, so only the MIN/AVERAGE/MAX consolidations hold it). -m puts a
 * point marker TEXT in the middle of the peak (the viewer's `n` jumps to
 * it). One object instance and batched updates (an update of 3600 rows
 * a file) keep a week at 1 s to seconds; the rows and archives are the
 * writer's own. Prints DIR. (A night of sessions over a long set is
 * mknight's.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../common/util.h"
#include "../../logs/logset.h"
#include "../../logs/markers.h"
#include "fill.h"

struct spike {
	unsigned long span, interval, retention, at, width;
	double base, peak;
	const char *mark, *host;
};

static int die(const char *msg)
{
	fprintf(stderr, "mkspike: %s\n", msg);
	return 1;
}

static int parse(int argc, char **argv, struct spike *k)
{
	int opt;

	while ((opt = getopt(argc, argv, "s:i:r:a:w:b:p:m:H:")) != -1) {
		unsigned long *d = opt == 's' ? &k->span : opt == 'i' ? &k->interval :
				   opt == 'r' ? &k->retention : opt == 'a' ? &k->at :
				   opt == 'w' ? &k->width : NULL;
		if (d) {
			if (util_parse_duration(optarg, d) < 0)
				return -1;
		} else if (opt == 'b') {
			k->base = atof(optarg);
		} else if (opt == 'p') {
			k->peak = atof(optarg);
		} else if (opt == 'm') {
			k->mark = optarg;
		} else if (opt == 'H') {
			k->host = optarg;
		} else {
			return -1;
		}
	}
	return optind + 1 == argc && k->span && k->interval &&
	       k->at + k->width <= k->span ? 0 : -1;
}

/* The samples: t is the end of the interval a value covers. */
static int write_all(struct logset_writer *w, const struct spike *k,
		     time_t start, struct perr *e)
{
	struct sample s = { 0 };
	time_t a = start + (time_t)k->at, b = a + (time_t)k->width;
	int rc = 0;

	for (time_t t = start + (time_t)k->interval;
	     rc == 0 && t <= start + (time_t)k->span; t += (time_t)k->interval) {
		double v = t > a && t <= b ? k->peak : k->base;
		sample_reset(&s);
		fill_value(&s, OBJ_PROCESSOR, "_Total", CTR_CPU_PROCESSOR_TIME, v);
		fill_value(&s, OBJ_PROCESSOR, "_Total", CTR_CPU_USER_TIME, v * 0.6);
		fill_value(&s, OBJ_PROCESSOR, "_Total", CTR_CPU_PRIVILEGED_TIME,
			   v * 0.4);
		fill_value(&s, OBJ_PROCESSOR, "_Total", CTR_CPU_IOWAIT_TIME, 0);
		rc = logset_write_sample(w, (double)t, &s, e);
		/* the writer grows its files on a worker, by the set's age,
		 * and holds a file's rows for at most HOLD_SECONDS while a
		 * step runs (logs/writer.h): a writer that outruns the clock
		 * must wait for the worker now and then, or rows are dropped */
		if (rc == 0 && (t - start) % 600 == 0)
			rc = logset_flush(w, e);
	}
	sample_free(&s);
	return rc;
}

/* The writer stamps this machine's name; a test wants a short one. */
static int set_host(const char *dir, const char *host)
{
	char path[4096];
	struct logset_meta m;
	struct perr e;
	char *text, *out;

	snprintf(path, sizeof(path), "%s/%s", dir, LOGSET_META);
	text = util_read_file(path, NULL);
	if (!text || logset_meta_parse(text, path, &m, &e) < 0) {
		free(text);
		return -1;
	}
	util_strlcpy(m.host, host, sizeof(m.host));
	out = logset_meta_format(&m);
	int rc = out && util_write_atomic(path, out, strlen(out), &e) == 0 ? 0 : -1;
	free(out);
	free(text);
	logset_meta_free(&m);
	return rc;
}

static int add_mark(const char *dir, double when, const char *text)
{
	return fill_marker(dir, markers_format(when, MARK_POINT, "", text, NULL, 0));
}

int main(int argc, char **argv)
{
	struct spike k = { 7 * 86400, 1, 2 * 86400, 3 * 86400, 10, 5, 100,
			   NULL, NULL };
	char parent[4096];
	struct logset_writer *w;
	struct perr e;

	if (parse(argc, argv, &k) < 0)
		return die("usage: mkspike DIR [-s SPAN] [-i INTERVAL] [-r RETENTION] "
			   "[-a AT] [-w WIDTH] [-b BASE] [-p PEAK] [-m TEXT] [-H HOST]");
	const char *dir = argv[optind];
	const char *name = fill_split(dir, parent, sizeof(parent));
	time_t end = time(NULL);
	end -= end % (time_t)k.interval;
	time_t start = end - (time_t)k.span;
	struct logset_options o = { .parent = parent, .name = name,
				    .interval = (unsigned)k.interval,
				    .retention = k.retention, .start = start,
				    .batch = 3600 };
	if (logset_create(&o, &w, &e) < 0)
		return die(e.msg);
	if (fill_add_object(w, OBJ_PROCESSOR, "_Total") < 0)
		return 1;
	if (write_all(w, &k, start, &e) < 0 ||
	    logset_close_writer(w, (double)end, &e) < 0)
		return die(e.msg);
	if (k.host && set_host(dir, k.host) < 0)
		return die("unable to rewrite the metadata's host");
	if (k.mark && add_mark(dir, (double)start + (double)k.at +
			       (double)k.width / 2, k.mark) < 0)
		return die("unable to write markers.tsv");
	printf("%s\n", dir);
	return 0;
}
