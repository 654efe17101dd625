/*
 * perfmon.c - a perfmon CSV (Windows relog -f csv, typeperf -f CSV, and
 * VMware's esxtop -b, which writes the same shape) as snapshots
 * (import.h):
 *
 *   "(PDH-CSV 4.0) (Eastern Daylight Time)(240)","\\SQL01\Memory\Pages/sec",...
 *   "09/08/2002 12:35:45.166","11.296813511113458",...
 *   "09/08/2002 12:36:00.167"," ",...            " " or "": no value
 *
 * The first column's header carries the zone: its name and its bias in
 * minutes, UTC = local + bias (Windows' TIME_ZONE_INFORMATION.Bias, as
 * at the start of the log). Each other column is a counter path,
 * \\HOST\Object(Instance)\Counter, mapped by perfmon_paths.c; a
 * column perflog has no counter for is kept as it is, in its host's
 * set's imported-other.csv. Cells are quoted, with "" for a quote.
 *
 * perflog's own plain CSV (`perflog export --csv`, logs/csv.h) is read
 * here too: its first header cell is "time", its times are UTC, as
 * "2026-11-30 04:50:15" (or "2026-11-30T04:50:15Z", the form before),
 * its cells quoted only when they must be.
 */
#define _GNU_SOURCE
#include "perfmon_int.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

enum import_format import_detect(const char *text, size_t len)
{
	size_t i = 0;

	if (len >= 4 && (!memcmp(text, "\x01\x00\x00\x00", 4) ||
			 !memcmp(text, "\x02\x00\x00\x00", 4) ||
			 !memcmp(text, "\x3c\x00\x00\x00", 4)))
		return IMPORT_BLG;	/* perfmon's binary log */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && (text[i] == '\r' || text[i] == '\n'))
		i++;
	if (len - i >= 13 && !memcmp(text + i, "\"(PDH-CSV 4.0", 13))
		return IMPORT_PERFMON;
	if (len - i >= 7 && !memcmp(text + i, "time,\\\\", 7))
		return IMPORT_PERFMON;	/* perflog export --csv */
	if (len - i >= 4 && !memcmp(text + i, "AAA,", 4))
		return IMPORT_NMON;
	if (len - i >= 5 && !memcmp(text + i, "ZZZZ,", 5))
		return IMPORT_NMON;	/* a sorted file without its AAA */
	for (size_t k = i; k < len && k < i + 4096; k++)
		if (text[k] == '\0')
			return IMPORT_BLG;
	if (len > i && memmem(text + i, len - i < 65536 ? len - i : 65536,
			      "\nZZZZ,T", 7))
		return IMPORT_NMON;
	return IMPORT_UNKNOWN;
}

/* ---- CSV ---- */

/* Split one line of quoted cells in place; cells unquoted. -1 when a
 * quote is not closed. */
static long cells(char *line, char ***out, size_t *cap)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		char *w = p, *start = p;

		if (util_grow(out, cap, n + 1, sizeof(**out)) < 0)
			return -2;
		if (*p == '"') {
			p++;
			for (;;) {
				if (!*p)
					return -1;
				if (*p == '"' && p[1] == '"') {
					*w++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*w++ = *p++;
				}
			}
			while (*p == ' ')
				p++;
			if (*p && *p != ',')
				return -1;
		} else {
			while (*p && *p != ',')
				w++, p++;
		}
		(*out)[n++] = start;
		if (!*p) {
			*w = '\0';
			break;
		}
		*w = '\0';
		p++;
	}
	return (long)n;
}

/* "(PDH-CSV 4.0) (Eastern Daylight Time)(240)": the zone and bias. */
static int header_zone(const char *h, char *zone, size_t zn, long *bias)
{
	const char *a = strstr(h, ") ("), *b, *c;
	char *end;

	if (!a)
		return -1;
	a += 3;
	b = strrchr(h, '(');
	if (!b || b < a || !(c = strchr(b, ')')))
		return -1;
	if ((size_t)(b - a) >= 1) {
		size_t n = (size_t)(b - a - 1);

		if (n >= zn)
			n = zn - 1;
		memcpy(zone, a, n);
		zone[n] = '\0';
	}
	errno = 0;
	*bias = strtol(b + 1, &end, 10);
	if (end != c || errno || *bias < -1440 || *bias > 1440)
		return -1;
	return 0;
}

struct pm {
	const char *name;
	struct column *col;
	size_t ncol;
	long bias;
	size_t unmapped;
	const char *tz;		/* the zone's rules, NULL: the bias alone */
	int given;		/* tz is --tz's */
	int plain;		/* perflog's own CSV: YYYY-MM-DD times */
	char zone[80];		/* the header's zone name */
	/* one set a host, in the order of their first columns: set[0] is
	 * the caller's, each chained to the next (import_set.next); a
	 * column that names no host is the first host's */
	struct import_set **set;
	char **hostname;	/* set[k]'s host as the paths spell it */
	struct import_snap **row;	/* this row's snapshot of each set */
	size_t nset;
};

/* "MM/DD/YYYY HH:MM:SS.mmm" local -> UTC: by the zone's rules (the
 * reading after prev of an hour there twice), else with the bias. A date
 * that is no day (02/31) is refused, not carried into March. *why says
 * what was wrong with it. */
static int row_time(const struct pm *pm, const char *s, double prev,
		    double *t, const char **why)
{
	int mo, d, y, h, mi, k = 0;
	double sec;
	struct tm tm = { 0 };

	char sep = ' ';

	*why = pm->plain ? "want YYYY-MM-DD HH:MM:SS" :
			   "want MM/DD/YYYY HH:MM:SS.mmm";
	if (pm->plain) {
		if (sscanf(s, "%d-%d-%d%c%d:%d:%lf%n", &y, &mo, &d, &sep, &h,
			   &mi, &sec, &k) != 7 || (sep != ' ' && sep != 'T'))
			return -1;
		if (sep == 'T' && s[k] == 'Z')	/* the ISO form before */
			k++;
	} else if (sscanf(s, "%d/%d/%d %d:%d:%lf%n", &mo, &d, &y, &h, &mi,
			  &sec, &k) != 6) {
		return -1;
	}
	if (s[k] || mo < 1 || mo > 12 || d < 1 || d > 31 ||
	    y < 1970 || y > 9999 || h < 0 || h > 23 || mi < 0 || mi > 59 ||
	    !(sec >= 0 && sec < 61))
		return -1;
	if (d > import_days_in_month(y, mo)) {
		*why = "no such day";
		return -1;
	}
	if (pm->tz) {
		*why = "not a time of the zone";
		return import_local_time(pm->tz, y, mo, d, h, mi, sec, prev, t);
	}
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	*t = (double)timegm(&tm) + sec + (double)pm->bias * 60;
	return 0;
}

/* At the first row: the zone's rules against the header's bias. They
 * disagree when the table (winzone.c) is wrong for this Windows, or the
 * zone database lacks the zone (glibc then reads UTC): the bias is
 * right at the start, so it is kept, with a note; --tz is kept as the
 * user's word, with the note. */
static void check_zone(struct pm *pm, const char *cell, double t,
		       int line, struct import_set *s)
{
	struct pm bias = *pm;
	const char *why;
	double tb;

	bias.tz = NULL;
	if (row_time(&bias, cell, 0, &tb, &why) < 0 || fabs(tb - t) < 1)
		return;
	strbuf_printf(&s->notes,
		      "%s:%d: zone %s is %+.0f min from UTC here, the header's '%s' bias says %+ld min: %s\n",
		      pm->name, line, pm->tz, (tb - t) / 60 - (double)pm->bias,
		      pm->zone, -pm->bias,
		      pm->given ? "read in --tz's zone as asked" :
		      "read with the bias (a DST change in the file is not placed)");
	if (!pm->given)
		pm->tz = NULL;
}

static void other_cell(struct strbuf *b, const char *v)
{
	strbuf_puts(b, ",\"");
	for (; *v; v++) {
		strbuf_add(b, v, 1);
		if (*v == '"')
			strbuf_add(b, v, 1);	/* a quote doubled */
	}
	strbuf_puts(b, "\"");
}

static int add_row(struct pm *pm, char **f, size_t nf, int line,
		   struct import_set *s, struct perr *e)
{
	const char *why;
	double t;
	char iso[40];

	if (row_time(pm, f[0], s->n ? s->snap[s->n - 1].t : 0, &t, &why) < 0)
		return perr_set(e, "%s:%d: bad time '%.30s' (%s)", pm->name,
				line, f[0], why);
	if (!s->n && pm->tz) {
		check_zone(pm, f[0], t, line, s);
		if (!pm->tz)	/* the bias, then */
			row_time(pm, f[0], 0, &t, &why);
	}
	if (nf != pm->ncol + 1)
		return perr_set(e, "%s:%d: %zu cells, the header has %zu",
				pm->name, line, nf, pm->ncol + 1);
	util_iso8601(iso, sizeof(iso), (time_t)t, (int)(fmod(t, 1) * 1000));
	for (size_t k = 0; k < pm->nset; k++) {
		if (!(pm->row[k] = import_snap_add(pm->set[k], t, line)))
			return perr_set(e, "%s: out of memory", pm->name);
		if (pm->set[k]->other.len)
			strbuf_puts(&pm->set[k]->other, iso);
	}
	for (size_t i = 0; i < pm->ncol; i++) {
		const struct column *c = &pm->col[i];
		const char *cell = f[i + 1];
		struct sample *smp = &pm->row[c->host]->s;
		struct instance_values *iv;
		double v;
		char *end;

		if (c->obj < 0) {
			other_cell(&pm->set[c->host]->other, cell);
			continue;
		}
		while (*cell == ' ')
			cell++;
		if (!*cell)
			continue;	/* " ": no value this row */
		errno = 0;
		v = strtod(cell, &end);
		if (end == cell || *end || errno == ERANGE)
			return perr_set(e, "%s:%d: bad value '%.30s' in column %zu",
					pm->name, line, f[i + 1], i + 2);
		if (!isfinite(v) || v < 0)
			v = NAN;	/* perfmon's -1 and the like: unknown */
		iv = sample_find(smp, (enum counter_object)c->obj, c->instance);
		if (!iv && !(iv = sample_add(smp, (enum counter_object)c->obj,
					     c->instance)))
			return perr_set(e, "%s: out of memory", pm->name);
		v *= c->scale;
		if (c->invert)
			v = v > 100 ? 0 : 100 - v;
		iv->v[catalog_counters[c->id].index] = v;
	}
	for (size_t k = 0; k < pm->nset; k++)
		if (pm->set[k]->other.len)
			strbuf_puts(&pm->set[k]->other, "\n");
	return 0;
}

/* The set of host h (its name as the paths spell it), a new one chained
 * after the last when h is new: the first is the caller's (set[0]).
 * Names that differ in case only are one host (Windows' names do not
 * tell case). The index, or -1 when out of memory. */
static long host_set(struct pm *pm, const char *h)
{
	struct import_set *s;

	for (size_t k = 0; k < pm->nset; k++)
		if (!strcasecmp(pm->hostname[k], h))
			return (long)k;
	if (!(pm->hostname[pm->nset] = strdup(h)))
		return -1;
	if (pm->nset) {
		if (!(s = calloc(1, sizeof(*s)))) {
			free(pm->hostname[pm->nset]);
			return -1;
		}
		pm->set[pm->nset - 1]->next = s;
		pm->set[pm->nset] = s;
	}
	util_strlcpy(pm->set[pm->nset]->host, h, sizeof(s->host));
	return (long)pm->nset++;
}

/* Two columns of one counter (Memory\Available Bytes and Available
 * MBytes, both in a relog file and in `export --pdh`): the one in the
 * counter's own unit is kept, the other goes to imported-other.csv with
 * the columns perflog has no counter for; between two alike, the first.
 * Columns of two hosts are two counters (a file of several hosts).
 * Quadratic in the mapped columns, which are few (a log's thousands of
 * Process(*) columns map to nothing). */
static void one_column_a_counter(struct pm *pm)
{
	for (size_t i = 0; i < pm->ncol; i++) {
		struct column *a = &pm->col[i];

		for (size_t j = i + 1; a->obj >= 0 && j < pm->ncol; j++) {
			struct column *b = &pm->col[j];
			int a_own = a->scale == 1 && !a->invert;
			int b_own = b->scale == 1 && !b->invert;

			if (b->host != a->host || b->obj != a->obj ||
			    b->id != a->id || strcmp(b->instance, a->instance))
				continue;
			if (b_own && !a_own) {
				a->obj = -1;
				break;
			}
			b->obj = -1;
		}
	}
}

/* The columns of the header: each mapped, and given to its host's set
 * (issue 50 item 3: a CSV perfmon logged several servers into is one
 * set a host, not the first host's name over the last one's values).
 * Each set's imported-other.csv starts with its own unmapped columns. */
static int columns(struct pm *pm, char **f, size_t nf, struct perr *e)
{
	int physical = 0;

	for (size_t i = 1; i < nf; i++)
		if (strstr(f[i], "\\PhysicalDisk("))
			physical = 1;
	for (size_t i = 1; i < nf; i++) {
		struct column *c = &pm->col[i - 1];
		char *copy = strdup(f[i]);
		const char *h;
		long k = -2;	/* -2: names no host */

		if (!copy)
			return perr_set(e, "%s: out of memory", pm->name);
		h = perfmon_map_column(copy, physical, pm->plain, c);
		if (h && *h)
			k = host_set(pm, h);
		free(copy);
		if (k == -1)
			return perr_set(e, "%s: out of memory", pm->name);
		c->host = k >= 0 ? (size_t)k : SIZE_MAX;
	}
	if (!pm->nset)
		pm->nset = 1;	/* no path names a host: set[0], unnamed */
	for (size_t i = 0; i < pm->ncol; i++)
		if (pm->col[i].host == SIZE_MAX)
			pm->col[i].host = 0;	/* the first host's */
	one_column_a_counter(pm);
	for (size_t k = 0; k < pm->nset; k++)
		strbuf_puts(&pm->set[k]->other, "time");
	for (size_t i = 0; i < pm->ncol; i++) {
		pm->unmapped += pm->col[i].obj < 0;
		if (pm->col[i].obj < 0)
			other_cell(&pm->set[pm->col[i].host]->other, f[i + 1]);
	}
	for (size_t k = 0; k < pm->nset; k++) {
		struct strbuf *o = &pm->set[k]->other;

		if (o->len == strlen("time"))
			strbuf_free(o);
		else
			strbuf_puts(o, "\n");
	}
	return 0;
}


static int header(struct pm *pm, char **f, size_t nf, struct import_set *s,
		  struct perr *e)
{
	char *zone = pm->zone;

	if (!strcmp(f[0], "time")) {
		pm->plain = 1;	/* perflog's own: UTC */
		util_strlcpy(pm->zone, "UTC", sizeof(pm->zone));
		pm->bias = 0;
	} else if (header_zone(f[0], pm->zone, sizeof(pm->zone),
			       &pm->bias) < 0) {
		return perr_set(e, "%s:1: bad header '%.60s' (want \"(PDH-CSV 4.0) (ZONE)(BIAS)\")",
				pm->name, f[0]);
	}
	pm->ncol = nf - 1;
	pm->col = calloc(nf, sizeof(*pm->col));
	pm->set = calloc(nf, sizeof(*pm->set));
	pm->hostname = calloc(nf, sizeof(*pm->hostname));
	pm->row = calloc(nf, sizeof(*pm->row));
	if (!pm->col || !pm->set || !pm->hostname || !pm->row)
		return perr_set(e, "%s: out of memory", pm->name);
	pm->set[0] = s;
	if (columns(pm, f, nf, e) < 0)
		return -1;
	if (pm->unmapped)
		strbuf_printf(&s->notes,
			      "%s:1: %zu of %zu counters have no perflog counter: kept as they are in imported-other.csv\n",
			      pm->name, pm->unmapped, pm->ncol);
	if (pm->plain) {
		snprintf(s->source, sizeof(s->source),
			 "perflog CSV %.150s, UTC%s%.40s", pm->name,
			 pm->tz ? " read in " : "", pm->tz ? pm->tz : "");
		return 0;
	}
	if (!pm->tz)
		pm->tz = import_windows_zone(zone);
	if (pm->tz)
		snprintf(s->source, sizeof(s->source),
			 "perfmon CSV %.100s, local time of %.40s (bias %ld min) read in %.40s",
			 pm->name, zone, pm->bias, pm->tz);
	else
		snprintf(s->source, sizeof(s->source),
			 "perfmon CSV %.150s, local time of %.60s (bias %ld min)",
			 pm->name, zone, pm->bias);
	if (!pm->tz)
		strbuf_printf(&s->notes,
			      "%s:1: zone '%s' is not one perflog knows: read with the header's bias (%ld min) all through, so local times after a DST change in the file cannot be placed (give --tz ZONE)\n",
			      pm->name, zone, pm->bias);
	return 0;
}

int import_perfmon(const char *text, size_t len, const char *name,
		   const char *tz, struct import_set *out, struct perr *e)
{
	struct pm pm = { 0 };
	struct import_zone zone = { 0 };
	char *copy, **f = NULL, *p;
	size_t cap = 0;
	int line = 0, rc = -1, have_header = 0;

	memset(out, 0, sizeof(*out));
	pm.name = name;
	pm.tz = tz;
	pm.given = tz != NULL;
	copy = import_text(text, len, name, "a perfmon CSV", e);
	if (!copy)
		return -1;
	p = copy;
	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (*p) {
		char *nl = strchr(p, '\n');
		long nf;

		line++;
		if (nl)
			*nl = '\0';
		if (nl && nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		if (!*p)
			goto next;
		nf = cells(p, &f, &cap);
		if (nf == -2) {
			perr_set(e, "%s: out of memory", name);
			goto out;
		}
		if (nf < 0) {
			if (!nl && have_header) {
				strbuf_printf(&out->notes,
					      "%s:%d: the last row is cut short: dropped\n",
					      name, line);
				break;
			}
			perr_set(e, "%s:%d: a quote is not closed", name, line);
			goto out;
		}
		if (!have_header) {
			if (header(&pm, f, (size_t)nf, out, e) < 0)
				goto out;
			have_header = 1;
			import_zone_enter(&zone, pm.tz);
		} else if ((size_t)nf < pm.ncol + 1 && !nl) {
			strbuf_printf(&out->notes,
				      "%s:%d: the last row is cut short: dropped\n",
				      name, line);
			break;
		} else if (add_row(&pm, f, (size_t)nf, line, out, e) < 0) {
			goto out;
		}
next:
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!have_header) {
		perr_set(e, "%s: empty", name);
		goto out;
	}
	if (!out->host[0])
		util_strlcpy(out->host, "perfmon", sizeof(out->host));
	/* pm.set is stale from here: a host with no value loses its set */
	if (perfmon_hosts_settle(out, name, e) < 0)
		goto out;
	for (struct import_set *s = out; s; s = s->next) {
		memcpy(s->source, out->source, sizeof(s->source));
		util_strlcpy(s->os, pm.plain ? "(perflog CSV)" :
			     "Windows (perfmon CSV)", sizeof(s->os));
		if (import_finish(s, name, e) < 0)
			goto out;
		if (s != out)	/* the same rows: the first set's notes say it */
			strbuf_free(&s->notes);
	}
	rc = 0;
out:
	import_zone_leave(&zone);
	for (size_t k = 0; k < pm.nset; k++)
		free(pm.hostname[k]);
	free(pm.hostname);
	free(pm.set);
	free(pm.row);
	free(pm.col);
	free(f);
	free(copy);
	if (rc < 0)
		import_set_free(out);
	return rc;
}
