/*
 * csv.c - see csv.h. The set is fetched in blocks of at most BLOCK_ROWS
 * rows, so exporting two days at 1 s with a hundred counters needs a few MB,
 * not a whole day's matrix. A block may come back at a coarser step than
 * the interval when it lies beyond the full-resolution retention (librrd
 * picks the archive): its rows are written at that step.
 */
#define _GNU_SOURCE
#include "csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_ROWS 3600

/* A cell of the PDH form: always quoted, quotes doubled. */
static void pdh_field(FILE *f, const char *s)
{
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}

void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n"))
		fputs(s, f);
	else
		pdh_field(f, s);
}

static int write_error(FILE *f, const char *name, struct perr *e)
{
	int err = errno ? errno : EIO;

	(void)f;
	return perr_set(e, "unable to write '%s': %s", name, strerror(err));
}

int csv_export(struct logset *ls, FILE *f, const char *name, time_t from,
	       time_t to, struct perr *e)
{
	size_t n = logset_meta(ls)->ncounters;
	size_t *all = malloc((n ? n : 1) * sizeof(*all));
	int rc;

	if (!all)
		return perr_set(e, "out of memory");
	for (size_t i = 0; i < n; i++)
		all[i] = i;
	rc = csv_export_columns(ls, f, name, from, to, all, n, e);
	free(all);
	return rc;
}

int csv_export_columns(struct logset *ls, FILE *f, const char *name,
		       time_t from, time_t to, const size_t *idx,
		       size_t ncols, struct perr *e)
{
	return csv_export_form(ls, f, name, from, to, idx, ncols, CSV_PLAIN, e);
}


/* A row's time. Plain: "2026-11-30 04:50:15", which Excel and LibreOffice
 * read as a date (the ISO "2026-11-30T04:50:15Z" stayed text in Excel).
 * PDH: "11/30/2026 04:50:15.000", relog's. Both UTC. */
static const char *row_time(char *buf, size_t n, time_t t, int pdh)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	if (pdh)
		snprintf(buf, n, "%02d/%02d/%04d %02d:%02d:%02d.000",
			 tm.tm_mon + 1, tm.tm_mday, tm.tm_year + 1900,
			 tm.tm_hour, tm.tm_min, tm.tm_sec);
	else
		snprintf(buf, n, "%04d-%02d-%02d %02d:%02d:%02d",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			 tm.tm_hour, tm.tm_min, tm.tm_sec);
	return buf;
}

/* ---- the columns of the PDH form ----
 *
 * perflog's LogicalDisk is a block device, what Windows calls a
 * PhysicalDisk (its LogicalDisk is a volume), so the PDH form names it
 * so, and PAL's PhysicalDisk(*) thresholds read it. Windows' % Disk Time
 * is another figure (the queue length x 100); the busy share goes out as
 * % Idle Time, 100 less it, which import reads back as % Disk Time. The
 * counters PAL's QuickSystemOverview.xml reads that perflog has only as
 * parts are added after the first part: Memory\Available MBytes,
 * PhysicalDisk(*)\Disk Bytes/sec and Disk Transfers/sec (the sums of the
 * reads' and the writes'), when the selection has every part. */

enum pdh_op { PDH_AS_IS, PDH_IDLE, PDH_MBYTES, PDH_SUM };

struct pdh_col {
	size_t a, b;		/* positions in the fetched row */
	enum pdh_op op;
	char path[300];		/* after \\HOST\ */
};

/* Counters PAL reads that perflog keeps as parts: the part that places
 * the column (first), the other part (second, NULL: none), the name. */
static const struct pdh_derived {
	const char *object, *first, *second, *name;
	enum pdh_op op;
} derived[] = {
	{ "Memory", "Available Bytes", NULL, "Available MBytes", PDH_MBYTES },
	{ "LogicalDisk", "Disk Write Bytes/sec", "Disk Read Bytes/sec",
	  "Disk Bytes/sec", PDH_SUM },
	{ "LogicalDisk", "Disk Writes/sec", "Disk Reads/sec",
	  "Disk Transfers/sec", PDH_SUM },
};

/* path's object ("LogicalDisk" of "LogicalDisk(sdb)\% Disk Time") is obj */
static int object_is(const char *path, const char *obj)
{
	size_t n = strlen(obj);

	return !strncmp(path, obj, n) && (path[n] == '(' || path[n] == '\\');
}

/* The path as the PDH form writes it: LogicalDisk as PhysicalDisk, the
 * counter replaced by ctr when not NULL. */
static void pdh_path(char *out, size_t n, const char *path, const char *ctr)
{
	const char *last = strrchr(path, '\\');
	int len = last ? (int)(last - path) : (int)strlen(path);

	if (object_is(path, "LogicalDisk"))
		snprintf(out, n, "PhysicalDisk%.*s\\%s",
			 len - (int)strlen("LogicalDisk"),
			 path + strlen("LogicalDisk"),
			 ctr ? ctr : last ? last + 1 : "");
	else if (ctr)
		snprintf(out, n, "%.*s\\%s", len, path, ctr);
	else
		snprintf(out, n, "%s", path);
}

/* The position among paths[0..n) of the counter ctr of path's instance. */
static long sibling(const struct logset_meta *m, const size_t *idx, size_t n,
		    const char *path, const char *ctr)
{
	const char *last = strrchr(path, '\\');
	size_t len = last ? (size_t)(last - path) : 0;

	for (size_t i = 0; i < n; i++) {
		const char *p = m->counters[idx[i]].path;

		if (!strncmp(p, path, len) && p[len] == '\\' &&
		    !strcmp(p + len + 1, ctr))
			return (long)i;
	}
	return -1;
}

/* The columns: one a counter (renamed as above), each derived one after
 * its first part. *out is malloc'd; the count, or -1. */
static long pdh_columns(const struct logset_meta *m, const size_t *idx,
			size_t n, struct pdh_col **out)
{
	size_t cap = n + 1, k = 0;
	struct pdh_col *c = malloc(cap * sizeof(*c));

	if (!c)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *p = m->counters[idx[i]].path;
		const char *last = strrchr(p, '\\');
		const char *ctr = last ? last + 1 : p;
		int disk = object_is(p, "LogicalDisk");
		int busy = disk && !strcmp(ctr, "% Disk Time");

		if (util_grow(&c, &cap, k + 1 + sizeof(derived) /
			      sizeof(derived[0]), sizeof(*c)) < 0) {
			free(c);
			return -1;
		}
		c[k] = (struct pdh_col){ .a = i, .b = i,
					 .op = busy ? PDH_IDLE : PDH_AS_IS };
		pdh_path(c[k].path, sizeof(c[k].path), p,
			 busy ? "% Idle Time" : NULL);
		k++;
		for (size_t d = 0; d < sizeof(derived) / sizeof(derived[0]); d++) {
			const struct pdh_derived *x = &derived[d];
			long b = (long)i;

			if (!object_is(p, x->object) || strcmp(ctr, x->first) ||
			    (x->second &&
			     (b = sibling(m, idx, n, p, x->second)) < 0))
				continue;
			c[k] = (struct pdh_col){ .a = i, .b = (size_t)b,
						 .op = x->op };
			pdh_path(c[k].path, sizeof(c[k].path), p, x->name);
			k++;
		}
	}
	*out = c;
	return (long)k;
}

static double pdh_value(const struct pdh_col *c, const double *row)
{
	switch (c->op) {
	case PDH_IDLE:
		return row[c->a] > 100 ? 0 : 100 - row[c->a];
	case PDH_MBYTES:
		return row[c->a] / 1048576;
	case PDH_SUM:
		return row[c->a] + row[c->b];	/* NaN when either is */
	case PDH_AS_IS:
		break;
	}
	return row[c->a];
}

int csv_export_form(struct logset *ls, FILE *f, const char *name,
		    time_t from, time_t to, const size_t *idx, size_t ncols,
		    enum csv_form form, struct perr *e)
{
	const struct logset_meta *m = logset_meta(ls);
	time_t step = (time_t)m->interval, first, last;
	int pdh = form == CSV_PDH;
	const char *eol = pdh ? "\r\n" : "\n";
	struct pdh_col *pc = NULL;
	long npc = 0;
	char t[40];
	int rc = 0;

	/* header */
	if (pdh) {
		pdh_field(f, "(PDH-CSV 4.0) (Coordinated Universal Time)(0)");
		if ((npc = pdh_columns(m, idx, ncols, &pc)) < 0)
			return perr_set(e, "out of memory");
		for (long i = 0; i < npc; i++) {
			char col[400];

			snprintf(col, sizeof(col), "\\\\%s\\%s", m->host,
				 pc[i].path);
			putc(',', f);
			pdh_field(f, col);
		}
	} else {
		fputs("time", f);
		for (size_t i = 0; i < ncols; i++) {
			char col[300];

			snprintf(col, sizeof(col), "\\\\%s\\%s", m->host,
				 m->counters[idx[i]].path);
			putc(',', f);
			csv_field(f, col);
		}
	}
	fputs(eol, f);

	first = m->start + step;
	last = m->stop ? m->stop : logset_last(ls);
	if (from > first)
		first = from + (step - from % step) % step;
	if (to && to < last)
		last = to;
	last -= last % step;
	if (ncols == 0 || last < first)
		goto done;
	while (first <= last) {
		struct logset_series s;
		time_t block_end = first + step * (BLOCK_ROWS - 1);
		time_t next = 0;

		if (block_end > last)
			block_end = last;
		if (logset_fetch(ls, idx, ncols, first, block_end,
				 "AVERAGE", (unsigned long)step, &s, e) < 0) {
			rc = -1;
			goto out;
		}
		for (size_t r = 0; r < s.rows; r++) {
			time_t rt = s.first + (time_t)(r * s.step);
			const double *row = s.values + r * s.ncols;

			if (rt < first || rt > block_end)
				continue;
			if (pdh)
				pdh_field(f, row_time(t, sizeof(t), rt, 1));
			else
				fputs(row_time(t, sizeof(t), rt, 0), f);
			for (long c = 0; pdh && c < npc; c++) {
				double v = pdh_value(&pc[c], row);

				if (isnan(v))
					fputs(",\" \"", f);	/* relog's no value */
				else
					fprintf(f, ",\"%.15g\"", v);
			}
			for (size_t c = 0; !pdh && c < s.ncols; c++) {
				putc(',', f);
				if (!isnan(row[c]))
					fprintf(f, "%.15g", row[c]);
			}
			fputs(eol, f);
			next = rt + (time_t)s.step;
		}
		logset_series_free(&s);
		if (ferror(f)) {
			rc = write_error(f, name, e);
			goto out;
		}
		/* no row came back (should not happen): move on anyway */
		first = next > first ? next : block_end + step;
	}
done:
	errno = 0;
	if (fflush(f) != 0 || ferror(f))
		rc = write_error(f, name, e);
out:
	free(pc);
	return rc;
}
