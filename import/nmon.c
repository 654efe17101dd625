/*
 * nmon.c - an nmon file (AIX topas_nmon and Linux nmon) as snapshots
 * (import.h). The format, as nmon writes it and its analysers read it:
 *
 *   AAA,host,tsmsrv                      the header: host, OS, version
 *   BBBP,...                             configuration dumps (ignored)
 *   CPU_ALL,CPU Total tsmsrv,User%,...   a section's header: its columns
 *   ZZZZ,T0001,21:49:47,01-DEC-2026      snapshot T0001's local time
 *   CPU_ALL,T0001,86.1,13.9,0.0,0.0      a data line of snapshot T0001
 *   TOP,0028184,T0002,24.93,...          TOP: the PID comes first
 *
 * The T number, not the order of lines, ties a line to its snapshot:
 * "sort" (which nmon's own note recommends before a spreadsheet) puts
 * every ZZZZ line last. So pass 1 reads the ZZZZ lines (the snapshots
 * and their times, in T order), pass 2 the rest. Headers may come again
 * mid-file (CPUs added, the VM section's header after the first
 * snapshot): each applies to the lines after it. A section too wide for
 * one line continues in DISKBUSY1, DISKBUSY2 ... with headers of their
 * own (merged back by nmon_map.c). The last snapshot of a file whose
 * nmon was killed is cut short: it is dropped, with a note. Values:
 * empty, nan, INF and -1 are unknown.
 */
#define _GNU_SOURCE
#include "nmon.h"

#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* "T0001" -> 1; -1 when not a T number. */
static long tnum(const char *s)
{
	long n = 0;

	if (s[0] != 'T' || !isdigit((unsigned char)s[1]))
		return -1;
	for (s++; *s; s++) {
		if (!isdigit((unsigned char)*s) || n > 100000000)
			return -1;
		n = n * 10 + (*s - '0');
	}
	return n;
}

/* Split line in place at commas into f (at most NMON_MAX_FIELDS). */
static size_t split(char *line, char **f)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		char *c = strchr(p, ',');

		if (n == NMON_MAX_FIELDS - 1) {
			f[n++] = p;	/* the rest, commas and all */
			break;
		}
		f[n++] = p;
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	return n;
}

/* ---- pass 1: ZZZZ ---- */

struct zz {
	long t;
	int line;
	int y, mon, d, h, m;
	double sec;
};

static const char *const months[12] = {
	"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
	"JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
};

/* "ZZZZ,T0001,21:49:47,01-DEC-2026" (seconds may carry a fraction). */
static int parse_zz(const char *line, int lineno, const char *name,
		    struct zz *z, struct perr *e)
{
	char buf[128], mon[8];
	char *f[8];
	size_t nf;
	int h, m, d, y, k;
	double s;

	util_strlcpy(buf, line, sizeof(buf));
	buf[strcspn(buf, "\r")] = '\0';
	nf = 0;
	for (char *p = buf, *c; nf < 8; p = c + 1) {
		f[nf++] = p;
		c = strchr(p, ',');
		if (!c)
			break;
		*c = '\0';
	}
	if (nf < 4 || (z->t = tnum(f[1])) < 0)
		return perr_set(e, "%s:%d: ZZZZ line without a T number", name,
				lineno);
	if (sscanf(f[2], "%d:%d:%lf%n", &h, &m, &s, &k) != 3 || f[2][k] ||
	    h < 0 || h > 23 || m < 0 || m > 59 || !(s >= 0 && s < 61))
		return perr_set(e, "%s:%d: bad ZZZZ time '%.20s' (want HH:MM:SS)",
				name, lineno, f[2]);
	if (sscanf(f[3], "%d-%3[A-Za-z]-%d%n", &d, mon, &y, &k) != 3 ||
	    f[3][k] || d < 1 || d > 31 || y < 1970 || y > 9999)
		return perr_set(e, "%s:%d: bad ZZZZ date '%.20s' (want DD-MON-YYYY)",
				name, lineno, f[3]);
	z->mon = 0;
	for (int i = 0; i < 12; i++)
		if (!strcasecmp(mon, months[i]))
			z->mon = i + 1;
	if (!z->mon)
		return perr_set(e, "%s:%d: bad ZZZZ month '%s' (nmon writes JAN to DEC)",
				name, lineno, mon);
	/* mktime would take 31-NOV for 1-DEC, and import_finish would
	 * then move every snapshot after it on by a day */
	if (d > import_days_in_month(y, z->mon))
		return perr_set(e, "%s:%d: bad ZZZZ date '%.20s' (%s %d has %d days)",
				name, lineno, f[3], months[z->mon - 1], y,
				import_days_in_month(y, z->mon));
	z->line = lineno;
	z->y = y;
	z->d = d;
	z->h = h;
	z->m = m;
	z->sec = s;
	return 0;
}

static int cmp_zz(const void *a, const void *b)
{
	const struct zz *x = a, *y = b;

	return x->t < y->t ? -1 : x->t > y->t;
}

/* Naive seconds of a wall clock, to see it go back. */
static double naive(const struct zz *z)
{
	struct tm tm = { 0 };

	tm.tm_year = z->y - 1900;
	tm.tm_mon = z->mon - 1;
	tm.tm_mday = z->d;
	tm.tm_hour = z->h;
	tm.tm_min = z->m;
	return (double)timegm(&tm) + z->sec;
}

/* The snapshots of the ZZZZ lines, in T order, at their UTC times. */
static int pass_zz(char *text, const char *name, const char *tz,
		   struct import_set *s, long **tnums, struct perr *e)
{
	struct zz *z = NULL;
	struct import_zone env = { 0 };
	size_t nz = 0, cap = 0;
	int lineno = 0, rc = -1;
	char zone[128];

	for (char *p = text; *p;) {
		char *nl = strchr(p, '\n');

		lineno++;
		if (!strncmp(p, "ZZZZ,", 5)) {
			if (util_grow(&z, &cap, nz + 1, sizeof(*z)) < 0) {
				perr_set(e, "%s: out of memory", name);
				goto out;
			}
			if (nl)
				*nl = '\0';
			if (parse_zz(p, lineno, name, &z[nz], e) < 0) {
				if (nl)
					goto out;
				/* the file ends inside this ZZZZ line (nmon
				 * still writing, or killed): a snapshot cut
				 * short, dropped as its data lines would be */
				strbuf_printf(&s->notes,
					      "%s:%d: the last ZZZZ line is cut short ('%.30s'): its snapshot dropped\n",
					      name, lineno, p);
				break;
			}
			if (nl)
				*nl = '\n';
			nz++;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!nz) {
		perr_set(e, "%s: no ZZZZ line: not an nmon file, or one with no snapshot",
			 name);
		goto out;
	}
	qsort(z, nz, sizeof(*z), cmp_zz);
	*tnums = malloc(nz * sizeof(**tnums));
	if (!*tnums) {
		perr_set(e, "%s: out of memory", name);
		goto out;
	}
	if (!tz)
		tz = import_host_zone(zone, sizeof(zone));
	import_zone_enter(&env, tz);
	for (size_t i = 0; i < nz; i++) {
		double t, prev = i ? s->snap[i - 1].t : 0;

		if (i && z[i].t == z[i - 1].t) {
			perr_set(e, "%s:%d: snapshot T%04ld given twice (line %d too)",
				 name, z[i].line, z[i].t, z[i - 1].line);
			goto out;
		}
		if (import_local_time(tz, z[i].y, z[i].mon, z[i].d, z[i].h,
				      z[i].m, z[i].sec, prev, &t) < 0) {
			perr_set(e, "%s:%d: time not representable in zone '%s'",
				 name, z[i].line, tz);
			goto out;
		}
		if (i && naive(&z[i]) < naive(&z[i - 1]) && t > prev)
			strbuf_printf(&s->notes,
				      "%s:%d: local time goes back %.0f s, from %02d:%02d to %02d:%02d: the end of summer time in %s, read as the repeated hour\n",
				      name, z[i].line,
				      naive(&z[i - 1]) - naive(&z[i]),
				      z[i - 1].h, z[i - 1].m, z[i].h, z[i].m,
				      tz);
		if (!import_snap_add(s, t, z[i].line)) {
			perr_set(e, "%s: out of memory", name);
			goto out;
		}
		(*tnums)[i] = z[i].t;
	}
	rc = 0;
out:
	import_zone_leave(&env);
	free(z);
	return rc;
}

/* ---- pass 2: the sections ---- */

static long find_snap(const long *tnums, size_t n, long t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (tnums[mid] == t)
			return (long)mid;
		if (tnums[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static struct nmon_header *find_header(struct nmon_ctx *c, const char *sec)
{
	for (size_t i = 0; i < c->nhdr; i++)
		if (!strcmp(c->hdr[i].name, sec))
			return &c->hdr[i];
	return NULL;
}

static int set_header(struct nmon_ctx *c, char **f, size_t nf,
		      struct perr *e)
{
	struct nmon_header *h = find_header(c, f[0]);

	if (strlen(f[0]) >= sizeof(h->name))
		return 0;	/* no section of ours is named that long */
	if (!h) {
		if (util_grow(&c->hdr, &c->caphdr, c->nhdr + 1,
			      sizeof(*c->hdr)) < 0)
			return perr_set(e, "%s: out of memory", c->name);
		h = &c->hdr[c->nhdr++];
		memset(h, 0, sizeof(*h));
		util_strlcpy(h->name, f[0], sizeof(h->name));
	}
	free(h->f);
	h->f = malloc(nf * sizeof(*h->f));
	if (!h->f)
		return perr_set(e, "%s: out of memory", c->name);
	memcpy(h->f, f, nf * sizeof(*f));	/* pointers into the text */
	h->nf = nf;
	return 0;
}

/* The header and OS lines of AAA. */
static void aaa(struct nmon_ctx *c, struct import_set *s, char **f,
		size_t nf, char *version, size_t vn)
{
	if (nf < 3)
		return;
	if (!strcmp(f[1], "host") && *f[2])
		util_strlcpy(s->host, f[2], sizeof(s->host));
	else if (!strcmp(f[1], "OS") && nf >= 6)
		snprintf(s->os, sizeof(s->os), "%.20s %.60s %.20s", f[2], f[3],
			 f[5]);
	else if (!strcmp(f[1], "AIX")) {
		c->aix = 1;
		snprintf(s->os, sizeof(s->os), "AIX %.60s", f[2]);
	} else if (!strcmp(f[1], "progname") && strstr(f[2], "topas"))
		c->aix = 1;
	else if (!strcmp(f[1], "version"))
		util_strlcpy(version, f[2], vn);
	else if (!strcmp(f[1], "time"))
		util_strlcpy(c->began_time, f[2], sizeof(c->began_time));
	else if (!strcmp(f[1], "date"))
		util_strlcpy(c->began_date, f[2], sizeof(c->began_date));
	else if (!strcmp(f[1], "interval")) {
		/* nmon's own -s: on a host too busy for it the stamps come 2 s
		 * apart as often as 1 (each snapshot late), and their median
		 * said 2 for a run of -s 1 */
		char *end;
		long v = strtol(f[2], &end, 10);

		if (end != f[2] && !*end && v >= 1 && v <= 86400)
			s->step = (unsigned)v;
	}
}

static int pass_lines(struct nmon_ctx *c, char *text, size_t len,
		      struct import_set *s, const long *tnums,
		      unsigned *count, struct perr *e)
{
	char **f = malloc(NMON_MAX_FIELDS * sizeof(*f));
	char version[32] = "";
	int lineno = 0, rc = -1, cut = len && text[len - 1] != '\n';
	unsigned long orphans = 0;
	int orphan_line = 0;

	if (!f)
		return perr_set(e, "%s: out of memory", c->name);
	for (char *p = text; *p;) {
		char *nl = strchr(p, '\n');
		size_t nf;
		long t, k;

		lineno++;
		if (nl)
			*nl = '\0';
		if (nl && nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		if (!*p || !strncmp(p, "ZZZZ,", 5) || !strncmp(p, "BBB", 3))
			goto next;
		nf = split(p, f);
		if (!strcmp(f[0], "AAA")) {
			aaa(c, s, f, nf, version, sizeof(version));
			goto next;
		}
		if (nf < 2)
			goto next;
		if (!strcmp(f[0], "UARG"))
			goto next;	/* TOP has the command; UARG's has commas */
		t = tnum(f[1]);
		if (t < 0 && !strcmp(f[0], "TOP") && nf >= 3 &&
		    isdigit((unsigned char)f[1][0]))
			t = tnum(f[2]);
		if (t < 0) {
			if (set_header(c, f, nf, e) < 0)
				goto out;
			goto next;
		}
		k = find_snap(tnums, s->n, t);
		if (k < 0) {
			if (!orphans++)
				orphan_line = lineno;
			goto next;
		}
		if (cut && !nl) {
			/* the file ends in the middle of this line */
			count[k] = 0;
			goto next;
		}
		{
			const struct nmon_header *h = find_header(c, f[0]);

			if (!h) {
				if (!c->unnamed++)
					c->unnamed_line = lineno;
				goto next;
			}
			if (!strcmp(f[0], "TOP")) {
				if (nmon_map_top(c, h, f, nf, (size_t)k, lineno,
						 e) < 0)
					goto out;
				goto next;
			}
			if (count[k] != UINT_MAX)
				count[k]++;
			if (nmon_map_line(c, h, f, nf, &s->snap[k], lineno,
					  e) < 0)
				goto out;
		}
next:
		if (!nl)
			break;
		p = nl + 1;
	}
	if (orphans)
		strbuf_printf(&s->notes,
			      "%s:%d: %lu lines of snapshots without a ZZZZ line ignored\n",
			      c->name, orphan_line, orphans);
	if (c->unnamed)
		strbuf_printf(&s->notes,
			      "%s:%d: %lu lines of sections without a header ignored\n",
			      c->name, c->unnamed_line, c->unnamed);
	if (!s->host[0])
		util_strlcpy(s->host, "nmon", sizeof(s->host));
	if (version[0] && strlen(s->os) + strlen(version) + 10 < sizeof(s->os))
		snprintf(s->os + strlen(s->os), sizeof(s->os) - strlen(s->os),
			 "%s(nmon %s)", s->os[0] ? " " : "", version);
	rc = 0;
out:
	free(f);
	return rc;
}

/* When nmon began (AAA time and date, local time as the ZZZZ lines:
 * Linux's 16n writes 10:00.00, AIX's 10:00:00) into s->began, which its
 * first snapshot's rates are over (import_finish); left 0 when either is
 * missing or not a time. */
static void nmon_began(const struct nmon_ctx *c, const char *tz,
		       struct import_set *s)
{
	char line[64];
	struct zz z;
	struct perr e;
	double t;
	int n;

	if (!c->began_time[0] || !c->began_date[0])
		return;
	n = snprintf(line, sizeof(line), "ZZZZ,T0000,%s,%s", c->began_time,
		     c->began_date);
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	for (char *p = line + 11; *p && *p != ','; p++)
		if (*p == '.')
			*p = ':';
	if (parse_zz(line, 0, c->name, &z, &e) == 0 &&
	    import_local_time(tz, z.y, z.mon, z.d, z.h, z.m, z.sec, 0, &t) == 0)
		s->began = t;
}

/* A last snapshot with fewer sections than the one before it is what a
 * killed nmon leaves: dropped. */
static void drop_cut(struct import_set *s, const unsigned *count,
		     const char *name, const long *tnums)
{
	size_t n = s->n;

	if (n < 2 || count[n - 1] >= count[n - 2])
		return;
	strbuf_printf(&s->notes,
		      "%s:%d: the last snapshot (T%04ld) is incomplete (%u of %u sections): dropped\n",
		      name, s->snap[n - 1].line, tnums[n - 1], count[n - 1],
		      count[n - 2]);
	sample_free(&s->snap[n - 1].s);
	s->n--;
}

/* Columns a reader sees in the file and then misses in the report
 * (transfers/s, Memory available n/a): said once, with the reason
 * (counters/README.md "Imported counters", "Not mapped"). */
static void note_unmapped(struct nmon_ctx *c, struct import_set *s)
{
	const struct nmon_header *mem = find_header(c, "MEM");
	int free_col = 0;

	for (size_t i = 2; mem && i < mem->nf; i++)
		if (!strcasecmp(mem->f[i], "memfree") ||
		    !strncasecmp(mem->f[i], "Real free", 9))
			free_col = 1;
	if (find_header(c, "DISKXFER"))
		strbuf_printf(&s->notes,
			      "%s: DISKXFER not imported: nmon's transfers/s are reads and writes together, perflog logs Disk Reads/sec and Disk Writes/sec apart (the report's transfers/s stays n/a)\n",
			      c->name);
	if (free_col)
		strbuf_printf(&s->notes,
			      "%s: MEM free memory not imported: it leaves out the cache the system would give back, which Memory\\Available Bytes counts (the report's Memory available stays n/a)\n",
			      c->name);
}

int import_nmon(const char *text, size_t len, const char *name,
		const char *tz, struct import_set *out, struct perr *e)
{
	struct nmon_ctx c = { 0 };
	char *copy;
	long *tnums = NULL;
	unsigned *count = NULL;
	char zone[128];
	int rc = -1;

	memset(out, 0, sizeof(*out));
	c.name = name;
	copy = import_text(text, len, name, "an nmon file", e);
	if (!copy)
		return -1;
	if (pass_zz(copy, name, tz, out, &tnums, e) < 0)
		goto out;
	count = calloc(out->n, sizeof(*count));
	if (!count) {
		perr_set(e, "%s: out of memory", name);
		goto out;
	}
	if (pass_lines(&c, copy, len, out, tnums, count, e) < 0)
		goto out;
	drop_cut(out, count, name, tnums);
	note_unmapped(&c, out);
	nmon_began(&c, tz, out);
	out->whole_seconds = 1;
	if (import_finish(out, name, e) < 0 || nmon_map_finish(&c, out, e) < 0)
		goto out;
	snprintf(out->source, sizeof(out->source),
		 "nmon %.150s, local time read as %.60s", name,
		 tz ? tz : import_host_zone(zone, sizeof(zone)));
	rc = 0;
out:
	for (size_t i = 0; i < c.nhdr; i++)
		free(c.hdr[i].f);
	free(c.hdr);
	free(c.top);
	free(c.cmd);
	free(count);
	free(tnums);
	free(copy);
	if (rc < 0)
		import_set_free(out);
	return rc;
}
