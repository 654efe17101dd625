/*
 * align.c - one log set on another's clock (align.h has the rule).
 *
 * Data: the begin/end markers' peer / offset / rtt fields (peer.N,
 * offset.N, rtt.N for a client's further servers); the sets' meta host.
 * Pure apart from reading what the caller loaded.
 */
#define _GNU_SOURCE
#include "align.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALIGN_MAX_SECS (10.0 * 365 * 86400)

/* The length of a host name up to its first '.' */
static size_t short_len(const char *h, size_t n)
{
	const char *dot = memchr(h, '.', n);
	return dot ? (size_t)(dot - h) : n;
}

int align_peer_is(const char *peer, const char *host)
{
	const char *at;
	size_t pn, hn;

	if (!peer || !host || !*host)
		return 0;
	at = strrchr(peer, '@');
	if (at)
		peer = at + 1;
	pn = strlen(peer);
	hn = strlen(host);
	if (!pn)
		return 0;
	if (pn == hn && !strncasecmp(peer, host, pn))
		return 1;
	pn = short_len(peer, pn);
	hn = short_len(host, hn);
	return pn == hn && !strncasecmp(peer, host, pn);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The offsets (and round trips) every marker of ml records against host:
 * "peer" with "offset", "peer.N" with "offset.N". Returns how many, at
 * most max. */
static size_t offsets_for(const struct marker_list *ml, const char *host,
			  double *off, double *rtt, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; ml && i < ml->n; i++) {
		const struct marker *m = &ml->m[i];
		for (size_t k = 0; k < m->nextra && n < max; k++) {
			const char *key = m->extra[k].key, *suffix;
			char okey[48], rkey[48];

			if (strncmp(key, "peer", 4))
				continue;
			suffix = key + 4;	/* "" or ".N" */
			if (*suffix && (*suffix != '.' || strchr(suffix + 1, '.')))
				continue;	/* peer.N.error and the like */
			if (!align_peer_is(m->extra[k].value, host))
				continue;
			snprintf(okey, sizeof(okey), "offset%s", suffix);
			snprintf(rkey, sizeof(rkey), "rtt%s", suffix);
			double o = marker_num(m, okey);
			if (isnan(o) || fabs(o) > ALIGN_MAX_SECS)
				continue;
			off[n] = o;
			rtt[n] = marker_num(m, rkey);
			n++;
		}
	}
	return n;
}

/* The median of the known round trips among rtt[0..n). */
static double known_median(double *rtt, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(rtt[i]))
			rtt[k++] = rtt[i];
	return median(rtt, k);
}

void align_shift_of(const struct logset_meta *cm, const struct marker_list *cml,
		    const struct logset_meta *xm, const struct marker_list *xml,
		    struct align_shift *out)
{
	size_t max = (cml ? cml->n : 0) + (xml ? xml->n : 0);
	double *off = calloc(max ? 4 * max : 1, sizeof(*off));
	double *rtt = calloc(max ? 4 * max : 1, sizeof(*rtt));
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	out->rtt = NAN;
	if (off && rtt) {
		/* four peers a marker at most are counted: a client marks a
		 * handful of servers */
		n = offsets_for(xml, cm->host, off, rtt, 4 * max);
		if (n) {
			out->source = ALIGN_OWN;
		} else if ((n = offsets_for(cml, xm->host, off, rtt, 4 * max))) {
			out->source = ALIGN_REF;
			for (size_t i = 0; i < n; i++)
				off[i] = -off[i];
		}
	}
	out->n = n;
	if (n) {
		out->seconds = median(off, n);
		out->rtt = known_median(rtt, n);
		snprintf(out->what, sizeof(out->what),
			 "%+.1f s from %s's markers (%zu offset%s recorded)",
			 out->seconds,
			 out->source == ALIGN_OWN ? xm->host : cm->host, n,
			 n == 1 ? "" : "s");
	} else {
		snprintf(out->what, sizeof(out->what),
			 "no recorded offset between %s and %s", xm->host,
			 cm->host);
	}
	free(off);
	free(rtt);
}

void align_manual(double seconds, struct align_shift *out)
{
	memset(out, 0, sizeof(*out));
	out->seconds = seconds;
	out->source = ALIGN_MANUAL;
	out->rtt = NAN;
	snprintf(out->what, sizeof(out->what), "%+.1f s given by --shift",
		 seconds);
}

void align_self(struct align_shift *out)
{
	memset(out, 0, sizeof(*out));
	out->source = ALIGN_SELF;
	out->rtt = NAN;
	snprintf(out->what, sizeof(out->what), "the reference clock");
}

int align_parse_shift(const char *arg, char **dir, double *secs)
{
	const char *eq = strrchr(arg, '=');
	char *end;
	double v;

	if (!eq || eq == arg || !eq[1])
		return -1;
	v = strtod(eq + 1, &end);
	if (*end || !isfinite(v) || fabs(v) > ALIGN_MAX_SECS)
		return -1;
	*dir = strndup(arg, (size_t)(eq - arg));
	if (!*dir)
		return -1;
	*secs = v;
	return 0;
}

int align_same_dir(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	while (la > 1 && a[la - 1] == '/')
		la--;
	while (lb > 1 && b[lb - 1] == '/')
		lb--;
	return la == lb && !strncmp(a, b, la);
}

const char *align_source_note(const struct align_shift *a)
{
	switch (a->source) {
	case ALIGN_OWN: return "its markers";
	case ALIGN_REF: return "the first set's markers";
	case ALIGN_MANUAL: return "--shift";
	case ALIGN_SELF: return "reference";
	default: return "no recorded offset";
	}
}

int align_shift_arg(const char *arg, char *const *dirs, size_t n,
		    size_t *idx, double *secs)
{
	char *dir;
	size_t i;

	if (align_parse_shift(arg, &dir, secs) < 0)
		return -1;
	for (i = 0; i < n && !align_same_dir(dirs[i], dir); i++)
		;
	free(dir);
	if (i == n)
		return -2;
	*idx = i;
	return 0;
}
