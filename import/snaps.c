/*
 * snaps.c - the snapshots an import parser emits (import.h): adding one,
 * local time in a zone, and the pass after parsing that decides the step
 * and keeps the times in order.
 *
 * Local time: nmon stamps its snapshots with the wall clock of the host,
 * without a zone, and a perfmon CSV with local time plus the bias its
 * header gives at the start of the log. A log that runs through the end
 * of summer time repeats an hour: the times go back. Where the zone says
 * the hour was there twice (import_local_time with prev), the second
 * reading is taken and nothing is lost; where it does not (a clock set
 * back by hand, a zone given wrongly), the rows keep the order of the
 * source, the first one back stamped a step after the one before and the
 * rest moved on by as much (their spacing kept), and a note says so:
 * an RRD file can never go back (DESIGN.md "Clock steps", the same rule
 * as the collector's).
 */
#define _GNU_SOURCE
#include "import.h"

#include "../logs/rows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

char *import_text(const char *text, size_t len, const char *name,
		  const char *what, struct perr *e)
{
	char *copy = malloc(len + 1);

	if (!copy) {
		perr_set(e, "%s: out of memory", name);
		return NULL;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	if (strlen(copy) != len) {
		perr_set(e, "%s: a NUL byte: not %s", name, what);
		free(copy);
		return NULL;
	}
	return copy;
}

struct import_snap *import_snap_add(struct import_set *s, double t, int line)
{
	struct import_snap *p;

	if (util_grow(&s->snap, &s->cap, s->n + 1, sizeof(*s->snap)) < 0)
		return NULL;
	p = &s->snap[s->n++];
	memset(p, 0, sizeof(*p));
	p->t = t;
	p->line = line;
	return p;
}

void import_set_free(struct import_set *s)
{
	struct import_set *next;

	if (!s)
		return;
	next = s->next;
	for (size_t i = 0; i < s->n; i++)
		sample_free(&s->snap[i].s);
	free(s->snap);
	strbuf_free(&s->notes);
	strbuf_free(&s->other);
	memset(s, 0, sizeof(*s));
	while (next) {
		struct import_set *n = next;

		next = n->next;
		n->next = NULL;
		import_set_free(n);
		free(n);
	}
}

/* ---- local time ---- */

int import_days_in_month(int year, int mon)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30,
				       31, 31, 30, 31, 30, 31 };
	int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	if (mon < 1 || mon > 12)
		return 0;
	return days[mon - 1] + (mon == 2 && leap);
}

/* TZ set to tz for the conversions below, and put back after. When a
 * parse has set it for all its rows already (import_zone_enter), nothing
 * changes: tzset reads a zone's file each time TZ changes, twice a row
 * otherwise (86,400 perfmon rows: 25 s instead of 1). */
void import_zone_enter(struct import_zone *z, const char *tz)
{
	const char *cur = getenv("TZ");

	memset(z, 0, sizeof(*z));
	if (!tz)
		return;
	z->had = cur != NULL;
	z->saved = cur ? strdup(cur) : NULL;
	if (cur && !strcmp(cur, tz)) {
		free(z->saved);
		z->saved = NULL;
		return;
	}
	z->changed = 1;
	setenv("TZ", tz, 1);
	tzset();
}

void import_zone_leave(struct import_zone *z)
{
	if (z->changed) {
		if (z->had && z->saved)
			setenv("TZ", z->saved, 1);
		else
			unsetenv("TZ");
		tzset();
	}
	free(z->saved);
	memset(z, 0, sizeof(*z));
}

/* mktime of the wall clock with the given isdst; *ok when the result
 * really shows that wall clock in the zone (a forced isdst that does
 * not apply at that date gives another hour). */
static time_t wall(const struct tm *want, int isdst, int *ok)
{
	struct tm tm = *want, back;
	time_t t;

	tm.tm_isdst = isdst;
	t = mktime(&tm);
	*ok = t != (time_t)-1 && localtime_r(&t, &back) &&
	      back.tm_hour == want->tm_hour && back.tm_min == want->tm_min &&
	      back.tm_mday == want->tm_mday;
	return t;
}

int import_local_time(const char *tz, int year, int mon, int mday,
		      int hour, int min, double sec, double prev,
		      double *out)
{
	struct import_zone z;
	struct tm tm;
	time_t a, b;
	int oka, okb;
	double isec = floor(sec), t;

	if (year < 1970 || year > 9999 || mon < 1 || mon > 12 || mday < 1 ||
	    mday > import_days_in_month(year, mon) || hour < 0 || hour > 23 || min < 0 || min > 59 ||
	    !(sec >= 0 && sec < 61))
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = year - 1900;
	tm.tm_mon = mon - 1;
	tm.tm_mday = mday;
	tm.tm_hour = hour;
	tm.tm_min = min;
	tm.tm_sec = (int)isec;
	import_zone_enter(&z, tz);
	a = wall(&tm, 0, &oka);
	b = wall(&tm, 1, &okb);
	import_zone_leave(&z);
	if (!oka && !okb) {
		/* a wall clock the zone skips (the start of summer time):
		 * mktime's normalised reading */
		if (a == (time_t)-1)
			return -1;
		t = (double)a;
	} else if (oka && okb && a != b) {
		/* there twice: the reading that runs on from prev */
		time_t lo = a < b ? a : b, hi = a < b ? b : a;

		t = (double)(prev > 0 && (double)lo + (sec - isec) <= prev ?
			     hi : lo);
	} else {
		t = (double)(oka ? a : b);
	}
	*out = t + (sec - isec);
	return 0;
}

const char *import_host_zone(char *buf, size_t n)
{
	const char *tz = getenv("TZ");
	char link[512];
	ssize_t len;

	if (tz && *tz) {
		util_strlcpy(buf, *tz == ':' ? tz + 1 : tz, n);
		return buf;
	}
	len = readlink("/etc/localtime", link, sizeof(link) - 1);
	if (len > 0) {
		const char *p;

		link[len] = '\0';
		p = strstr(link, "zoneinfo/");
		util_strlcpy(buf, p ? p + 9 : link, n);
		return buf;
	}
	util_strlcpy(buf, "UTC", n);	/* glibc's default without either */
	return buf;
}

/* ---- after parsing ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median spacing of the snapshots, whole seconds, >= 1. */
static unsigned median_step(const struct import_set *s)
{
	double *d, m;
	size_t k = 0;

	if (s->n < 2)
		return 0;
	d = malloc((s->n - 1) * sizeof(*d));
	if (!d)
		return 0;
	for (size_t i = 1; i < s->n; i++)
		if (s->snap[i].t > s->snap[i - 1].t)
			d[k++] = s->snap[i].t - s->snap[i - 1].t;
	if (!k) {
		free(d);
		return 1;
	}
	qsort(d, k, sizeof(*d), cmp_double);
	m = d[k / 2];
	free(d);
	m = floor(m + 0.5);
	return m < 1 ? 1 : m > 86400 ? 86400 : (unsigned)m;
}

/*
 * Whole-second stamps (nmon's: import_set.whole_seconds). nmon stamps
 * its snapshots in whole seconds, and a snapshot comes when
 * nmon has slept its interval and then read everything (with -t, every
 * process): on a busy host each comes a little late, and the stamps of
 * "-s 1" read 1, 1, 1, 2, 1 ... seconds apart while every snapshot
 * really covered 1.25 s. Taken as they are, a row would spread its rates
 * over one second too few or too many (a quarter of the bytes lost or
 * added). So a run of spacings that differ from the nominal step by at
 * most the stamps' second is taken as evenly spaced between its first
 * and its last stamp, which are exact to the second; a longer gap (nmon
 * stopped, the host suspended) ends a run and stays a gap.
 */
static void even_out(struct import_set *s)
{
	double step = s->step;
	size_t a = 0;

	for (size_t i = 1; i <= s->n; i++) {
		double d = i < s->n ? s->snap[i].t - s->snap[i - 1].t : -1;

		if (i < s->n && d >= step - 1 && d <= step + 1 && d > 0)
			continue;
		/* a run from a to i - 1 */
		if (i - 1 > a + 1) {
			double t0 = s->snap[a].t, t1 = s->snap[i - 1].t;

			for (size_t k = a + 1; k < i - 1; k++)
				s->snap[k].t = t0 + (t1 - t0) * (double)(k - a) /
					       (double)(i - 1 - a);
		}
		a = i;
	}
}

int import_has_value(const struct import_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct sample *smp = &s->snap[i].s;

		for (size_t k = 0; k < smp->n; k++) {
			const struct instance_values *iv = &smp->inst[k];

			for (int c = 0; c < catalog_objects[iv->object].ncounters; c++)
				if (!isnan(iv->v[c]))
					return 1;
		}
	}
	return 0;
}

int import_finish(struct import_set *s, const char *name, struct perr *e)
{
	double offset = 0;

	if (!s->n)
		return perr_set(e, "%s: no snapshot with a time in it", name);
	/* the writer makes a file a counter with a value: with none it
	 * has nothing to make (and said "out of memory") */
	if (!import_has_value(s))
		return perr_set(e, "%s: no value in a counter perflog has: nothing to import",
				name);
	if (!s->step)
		s->step = median_step(s);
	if (!s->step)
		s->step = 1;
	for (size_t i = 0; i < s->n; i++) {
		struct import_snap *p = &s->snap[i];
		double prev = i ? s->snap[i - 1].t : 0;

		p->t += offset;
		if (i && p->t < prev + 0.001) {
			/* the rest keep their spacing, moved on by as much */
			char t1[40], t2[40];
			double by = prev + s->step - p->t;

			strbuf_printf(&s->notes,
				      "%s:%d: time goes back from %s to %s (a clock set back, or the wrong zone?): rows kept in order, the rest moved on by %.0f s\n",
				      name, p->line,
				      util_iso8601(t1, sizeof(t1), (time_t)prev, -1),
				      util_iso8601(t2, sizeof(t2), (time_t)(p->t - offset), -1),
				      by + offset);
			offset += by;
			p->t += by;
		}
	}
	if (s->whole_seconds)
		even_out(s);
	for (size_t i = 0; i < s->n; i++)
		s->snap[i].from = i ? s->snap[i - 1].t : s->snap[i].t - s->step;
	/* nmon reads everything at its start and takes its first snapshot
	 * a step after its setup (its configuration dump, 4-6 s on a
	 * loaded host): the first snapshot's rates are over the time since
	 * it began, and spread over one step, the bytes of those seconds
	 * were lost (t3600's late nmon). A start more than a row's
	 * lateness before (rows.h) is not this run's, or would leave the
	 * span unknown: the step. */
	if (s->began > 0 && s->began < s->snap[0].from &&
	    s->snap[0].t - s->began <= s->step + ROWS_LATE_MAX)
		s->snap[0].from = s->began;
	return 0;
}
