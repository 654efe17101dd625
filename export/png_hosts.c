/*
 * png_hosts.c - other hosts' charts beside a reference set's
 * (png_export.h: png_export_hosts), for `export CLIENT --png OUTDIR
 * --with SERVER` and the HTML report of `report --with`: each server's
 * charts go to OUTDIR/HOST/, drawn over the client's time axis on the
 * client's clock (the shift of logs/align.h, applied by rrd_graph's
 * SHIFT), so the same minute sits at the same pixel column in both
 * hosts' charts of the same size.
 */
#include "png_export.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The host's folder name: file-safe, unique among hosts[0..i). */
static void sub_name(struct png_host *hosts, size_t i)
{
	const char *h = logset_meta(hosts[i].ls)->host;
	char base[64];
	size_t j = 0;

	for (; *h && j + 1 < sizeof(base); h++) {
		char c = *h;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
		base[j++] = ok ? c : '_';
	}
	base[j] = '\0';
	if (!j || !strcmp(base, ".") || !strcmp(base, ".."))
		snprintf(base, sizeof(base), "host");
	snprintf(hosts[i].sub, sizeof(hosts[i].sub), "%s", base);
	for (int k = 2;; k++) {
		size_t m = 0;
		while (m < i && strcmp(hosts[m].sub, hosts[i].sub))
			m++;
		if (m == i)
			return;
		snprintf(hosts[i].sub, sizeof(hosts[i].sub), "%s-%d", base, k);
	}
}

/* Whether ls holds a known value over [from, to] (its own clock): a
 * server logged at another time has none, and its charts would be empty
 * with -nan legends. 1, 0, or -1 when the fetch failed. */
static int has_rows(struct logset *ls, time_t from, time_t to)
{
	const struct logset_meta *m = logset_meta(ls);
	struct logset_series s;
	struct perr e;
	size_t *idx;
	int any = 0;

	if (!m->ncounters || !(idx = malloc(m->ncounters * sizeof(*idx))))
		return m->ncounters ? -1 : 0;
	for (size_t i = 0; i < m->ncounters; i++)
		idx[i] = i;
	int rc = logset_fetch(ls, idx, m->ncounters, from, to, "AVERAGE",
			      m->interval, &s, &e);
	free(idx);
	if (rc < 0)
		return -1;
	for (size_t i = 0; i < s.rows * s.ncols && !any; i++)
		any = !isnan(s.values[i]);
	logset_series_free(&s);
	return any;
}

int png_export_hosts(struct logset *ref, const struct marker_list *rml,
		     const struct png_export_options *o, const char *outdir,
		     struct png_host *hosts, size_t n, struct perr *e)
{
	time_t from, to;
	int drawn = 0;

	if (png_export_range(ref, rml, o, &from, &to, e) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct png_host *h = &hosts[i];
		struct png_export_options ho = *o;
		char dir[1200], note[96];
		struct perr he;

		sub_name(hosts, i);
		ho.from = from;
		ho.to = to;
		ho.fixed_span = 1;
		ho.shift = lround(h->shift.seconds);
		snprintf(note, sizeof(note), "clock %+ld s by %s", ho.shift,
			 align_source_note(&h->shift));
		ho.host_note = note;
		snprintf(dir, sizeof(dir), "%s/%s", outdir, h->sub);
		h->from = from - ho.shift;
		h->to = to - ho.shift;
		h->norows = has_rows(h->ls, h->from, h->to) == 0;
		if (h->norows) {
			h->ncharts = 0;
			h->error[0] = '\0';
			continue;
		}
		h->ncharts = png_export(h->ls, h->ml, dir, &ho, h->names, 16, &he);
		h->error[0] = '\0';
		if (h->ncharts < 0)
			util_strlcpy(h->error, he.msg, sizeof(h->error));
		else
			drawn++;
	}
	return drawn;
}
