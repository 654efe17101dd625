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
	return csv_export_form(ls, f, name, from, to, idx, ncols, CSV_ISO, e);
}


/* "11/30/2026 04:50:15.000": relog's time, here in UTC. */
static const char *pdh_time(char *buf, size_t n, time_t t)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	snprintf(buf, n, "%02d/%02d/%04d %02d:%02d:%02d.000", tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
		 tm.tm_sec);
	return buf;
}

int csv_export_form(struct logset *ls, FILE *f, const char *name,
		    time_t from, time_t to, const size_t *idx, size_t ncols,
		    enum csv_form form, struct perr *e)
{
	const struct logset_meta *m = logset_meta(ls);
	time_t step = (time_t)m->interval, first, last;
	int pdh = form == CSV_PDH;
	const char *eol = pdh ? "\r\n" : "\n";
	char t[40];

	/* header */
	if (pdh)
		pdh_field(f, "(PDH-CSV 4.0) (Coordinated Universal Time)(0)");
	else
		fputs("time", f);
	for (size_t i = 0; i < ncols; i++) {
		char col[300];

		snprintf(col, sizeof(col), "\\\\%s\\%s", m->host,
			 m->counters[idx[i]].path);
		putc(',', f);
		(pdh ? pdh_field : csv_field)(f, col);
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
				 "AVERAGE", (unsigned long)step, &s, e) < 0)
			return -1;
		for (size_t r = 0; r < s.rows; r++) {
			time_t rt = s.first + (time_t)(r * s.step);

			if (rt < first || rt > block_end)
				continue;
			if (pdh)
				pdh_field(f, pdh_time(t, sizeof(t), rt));
			else
				fputs(util_iso8601(t, sizeof(t), rt, -1), f);
			for (size_t c = 0; c < s.ncols; c++) {
				double v = s.values[r * s.ncols + c];

				putc(',', f);
				if (pdh && isnan(v))
					fputs("\" \"", f);	/* relog's no value */
				else if (pdh)
					fprintf(f, "\"%.15g\"", v);
				else if (!isnan(v))
					fprintf(f, "%.15g", v);
			}
			fputs(eol, f);
			next = rt + (time_t)s.step;
		}
		logset_series_free(&s);
		if (ferror(f))
			return write_error(f, name, e);
		/* no row came back (should not happen): move on anyway */
		first = next > first ? next : block_end + step;
	}
done:
	errno = 0;
	if (fflush(f) != 0 || ferror(f))
		return write_error(f, name, e);
	return 0;
}
