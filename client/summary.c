/*
 * summary.c - find backup client summaries (dsmc, ADSM and Storage Protect
 * layouts) in captured output; see summary.h for the formats and the
 * marker keys.
 *
 * The scan is label-driven rather than line-driven: at every word start,
 * try the known labels (the longest that matches wins, so "Network data
 * transfer rate:" is never read as ADSM's "Data transfer rate:"); after a
 * match read the value on the same line. Everything that is not a label is
 * skipped, which is what makes the parser indifferent to progress lines,
 * joined lines and garbage. The input is bounded by len, never by a NUL.
 * The value after a label is read by summary_num.c (summary_num.h).
 */
#include "summary.h"
#include "summary_num.h"

#include <ctype.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct summary_field_def summary_fields[SUM_NFIELDS] = {
	{ SUM_OBJECTS_INSPECTED, "Total number of objects inspected", "objects_inspected", SUMU_COUNT },
	{ SUM_OBJECTS_BACKED_UP, "Total number of objects backed up", "objects_backed_up", SUMU_COUNT },
	{ SUM_OBJECTS_UPDATED, "Total number of objects updated", "objects_updated", SUMU_COUNT },
	{ SUM_OBJECTS_REBOUND, "Total number of objects rebound", "objects_rebound", SUMU_COUNT },
	{ SUM_OBJECTS_DELETED, "Total number of objects deleted", "objects_deleted", SUMU_COUNT },
	{ SUM_OBJECTS_EXPIRED, "Total number of objects expired", "objects_expired", SUMU_COUNT },
	{ SUM_OBJECTS_FAILED, "Total number of objects failed", "objects_failed", SUMU_COUNT },
	{ SUM_OBJECTS_ENCRYPTED, "Total number of objects encrypted", "objects_encrypted", SUMU_COUNT },
	{ SUM_OBJECTS_GREW, "Total number of objects grew", "objects_grew", SUMU_COUNT },
	{ SUM_RETRIES, "Total number of retries", "retries", SUMU_COUNT },
	{ SUM_SUBFILE_OBJECTS, "Total number of subfile objects", "subfile_objects", SUMU_COUNT },
	{ SUM_BYTES_INSPECTED, "Total number of bytes inspected", "bytes_inspected", SUMU_BYTES },
	{ SUM_BYTES_TRANSFERRED, "Total number of bytes transferred", "bytes_transferred", SUMU_BYTES },
	{ SUM_LANFREE_BYTES, "LanFree data bytes", "lanfree_bytes", SUMU_BYTES },
	{ SUM_SERVERFREE_BYTES, "Server-Free data bytes", "serverfree_bytes", SUMU_BYTES },
	{ SUM_TRANSFER_TIME, "Data transfer time", "transfer_time", SUMU_SECONDS },
	{ SUM_TRANSFER_RATE, "Data transfer rate", "transfer_rate", SUMU_KB_SEC },
	{ SUM_NETWORK_RATE, "Network data transfer rate", "network_rate", SUMU_KB_SEC },
	{ SUM_AGGREGATE_RATE, "Aggregate data transfer rate", "aggregate_rate", SUMU_KB_SEC },
	{ SUM_COMPRESSED_BY, "Objects compressed by", "compressed_by", SUMU_PERCENT },
	{ SUM_DEDUP_REDUCTION, "Deduplication reduction", "dedup_reduction", SUMU_PERCENT },
	{ SUM_REDUCTION_RATIO, "Total data reduction ratio", "reduction_ratio", SUMU_PERCENT },
	{ SUM_SUBFILE_REDUCED, "Subfile objects reduced by", "subfile_reduced", SUMU_PERCENT },
	{ SUM_ELAPSED, "Elapsed processing time", "elapsed", SUMU_HMS },
	{ SUM_AVERAGE_FILE_SIZE, "Average file size", "average_file_size", SUMU_BYTES },
};

/* Match label at s[0..n) case-insensitively, a run of blanks in the text
 * standing for each space of the label, then blanks and ':'. Returns the
 * length consumed (through the colon) or 0. */
static size_t match_one(const char *s, size_t n, const char *label)
{
	size_t i = 0;
	for (const char *l = label; *l; l++) {
		if (*l == ' ') {
			if (i >= n || !summary_blank(s[i]))
				return 0;
			while (i < n && summary_blank(s[i]))
				i++;
			continue;
		}
		if (i >= n || tolower((unsigned char)s[i]) !=
		    tolower((unsigned char)*l))
			return 0;
		i++;
	}
	while (i < n && summary_blank(s[i]))
		i++;
	if (i >= n || s[i] != ':')
		return 0;
	return i + 1;
}

static const struct summary_field_def *match_label(const char *s, size_t n,
						   size_t *used)
{
	const struct summary_field_def *best = NULL;
	size_t best_len = 0;
	for (int f = 0; f < SUM_NFIELDS; f++) {
		size_t u = match_one(s, n, summary_fields[f].label);
		if (u > best_len) {
			best_len = u;
			best = &summary_fields[f];
		}
	}
	*used = best_len;
	return best;
}

/* The decimal point of a whole summary, from the figures after its labels
 * that dsmc prints with decimals ("68,76 sec", "111.532,44 KB/sec", "7,31
 * GB"); 0 when none says, or both do. NUMBERFORMAT 1-6: 1,000.00 /
 * 1,000,00 / 1 000,00 / 1 000.00 / 1.000,00 / 1'000,00. */
static char summary_decimal(const char *text, size_t len)
{
	int seen[2] = { 0, 0 };

	for (size_t i = 0; i < len; i++) {
		size_t used, eol;

		if ((i > 0 && isalnum((unsigned char)text[i - 1])) ||
		    !isalpha((unsigned char)text[i]) ||
		    !match_label(text + i, len - i, &used))
			continue;
		i += used;
		for (eol = i; eol < len && text[eol] != '\n' && text[eol] != '\r';)
			eol++;
		summary_num_evidence(text + i, eol - i, seen);
	}
	if (seen[0] && !seen[1])
		return '.';
	if (seen[1] && !seen[0])
		return ',';
	return 0;
}

static int push(struct summary_list *l, const struct summary *s)
{
	if (util_grow(&l->s, &l->cap, l->n + 1, sizeof(*l->s)) < 0)
		return -1;
	l->s[l->n++] = *s;
	return 0;
}

long summary_parse(const char *text, size_t len, struct summary_list *out)
{
	struct summary cur;
	memset(&cur, 0, sizeof(cur));
	long found = 0;
	size_t i = 0;
	const char dec = summary_decimal(text, len);
	while (i < len) {
		if ((i > 0 && isalnum((unsigned char)text[i - 1])) ||
		    !isalpha((unsigned char)text[i])) {
			i++;
			continue;
		}
		size_t used;
		const struct summary_field_def *d =
			match_label(text + i, len - i, &used);
		if (!d) {
			i++;
			continue;
		}
		i += used;
		size_t eol = i;
		while (eol < len && text[eol] != '\n' && text[eol] != '\r')
			eol++;
		size_t start, vlen;
		double v;
		int r = summary_num_scan(text + i, eol - i, d->unit, dec, &start,
				   &vlen, &v);
		if (r == -1)
			continue;
		if (r == -2)	/* kept as printed, its number unreadable */
			v = NAN;
		if (cur.f[d->field].present) {	/* the next summary */
			if (push(out, &cur) < 0)
				return -1;
			found++;
			memset(&cur, 0, sizeof(cur));
		}
		struct summary_figure *fig = &cur.f[d->field];
		fig->present = 1;
		memcpy(fig->printed, text + i + start, vlen);
		fig->printed[vlen] = '\0';
		fig->value = v;
		cur.nfigures++;
		i += start + vlen;
	}
	if (cur.nfigures) {
		if (push(out, &cur) < 0)
			return -1;
		found++;
	}
	return found;
}

long summary_parse_file(const char *path, struct summary_list *out,
			struct perr *e)
{
	size_t len;
	char *text = util_load_file(path, &len, e);
	if (!text)
		return -1;
	long n = summary_parse(text, len, out);
	free(text);
	if (n < 0)
		perr_set(e, "out of memory parsing '%s'", path);
	return n;
}

void summary_list_free(struct summary_list *l)
{
	free(l->s);
	memset(l, 0, sizeof(*l));
}

static int add_extra(char ***x, size_t *n, size_t *cap, const char *fmt,
		     ...) __attribute__((format(printf, 4, 5)));

/* Append one formatted "key=value" (short: keys and printed figures are
 * bounded) to a growing array. */
static int add_extra(char ***x, size_t *n, size_t *cap, const char *fmt,
		     ...)
{
	char buf[256];
	va_list ap;

	if (util_grow(x, cap, *n + 1, sizeof(**x)) < 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!((*x)[*n] = strdup(buf)))
		return -1;
	(*n)++;
	return 0;
}

char **summary_extras(const struct summary_list *l, size_t *n)
{
	*n = 0;
	if (!l || l->n == 0)
		return NULL;
	char **x = NULL;
	size_t cap = 0;
	const struct summary *last = &l->s[l->n - 1];
	int bad = add_extra(&x, n, &cap, "client.summaries=%zu", l->n);
	for (int f = 0; f < SUM_NFIELDS && !bad; f++) {
		if (!last->f[f].present)
			continue;
		bad = add_extra(&x, n, &cap, "client.%s=%s",
				summary_fields[f].key, last->f[f].printed) ||
		      (isnan(last->f[f].value) ?
		       add_extra(&x, n, &cap, "client.%s.num=unreadable",
				 summary_fields[f].key) :
		       add_extra(&x, n, &cap, "client.%s.num=%.15g",
				 summary_fields[f].key, last->f[f].value));
	}
	for (size_t k = 0; l->n > 1 && k < l->n && !bad; k++)
		for (int f = 0; f < SUM_NFIELDS && !bad; f++)
			if (l->s[k].f[f].present)
				bad = add_extra(&x, n, &cap, "client.%zu.%s=%s",
						k + 1, summary_fields[f].key,
						l->s[k].f[f].printed);
	if (bad) {
		summary_extras_free(x, *n);
		*n = 0;
		return NULL;
	}
	return x;
}

void summary_extras_free(char **x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(x[i]);
	free(x);
}

/* "%.*f" with "," grouping the integer part's thousands, as dsmc does. */
static void group(char *buf, size_t n, double v, int decimals)
{
	char raw[64];
	snprintf(raw, sizeof(raw), "%.*f", decimals, v);
	const char *dot = strchr(raw, '.');
	size_t intlen = dot ? (size_t)(dot - raw) : strlen(raw);
	size_t k = 0;
	for (size_t i = 0; i < intlen && k + 2 < n; i++) {
		if (i > 0 && raw[0] != '-' && (intlen - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = raw[i];
	}
	buf[k] = '\0';
	if (dot)
		util_strlcpy(buf + k, dot, n - k);
}

void summary_set(struct summary *s, enum summary_field f, double value)
{
	if ((int)f < 0 || f >= SUM_NFIELDS || !isfinite(value))
		return;
	struct summary_figure *fig = &s->f[f];
	char num[32];	/* with a unit, fits printed[] */
	switch (summary_fields[f].unit) {
	case SUMU_COUNT:
		group(fig->printed, sizeof(fig->printed), value, 0);
		break;
	case SUMU_BYTES: {
		/* ADSM's choice, from the seed: the largest unit that
		 * leaves at least 10 of it ("1,035.0 KB", "10.0 MB",
		 * "99.6 KB"); plain bytes below 10 KB */
		static const char *const u[] = { "B", "KB", "MB", "GB", "TB",
						 "PB" };
		int k = 0;
		double x = value;
		while (k < 5 && x >= 10 * 1024) {
			x /= 1024;
			k++;
		}
		group(num, sizeof(num), x, k ? 1 : 0);
		if (k == 0 && f == SUM_AVERAGE_FILE_SIZE)
			util_strlcpy(fig->printed, num, sizeof(fig->printed));
		else
			snprintf(fig->printed, sizeof(fig->printed), "%s %s",
				 num, u[k]);
		break;
	}
	case SUMU_SECONDS:
		group(num, sizeof(num), value, 2);
		snprintf(fig->printed, sizeof(fig->printed), "%s sec", num);
		break;
	case SUMU_KB_SEC:
		group(num, sizeof(num), value, 2);
		snprintf(fig->printed, sizeof(fig->printed), "%s KB/sec", num);
		break;
	case SUMU_PERCENT:
		snprintf(fig->printed, sizeof(fig->printed), "%.2f%%", value);
		break;
	case SUMU_HMS: {
		unsigned long long t = value < 0 ? 0 : (unsigned long long)
			(value + 0.5);
		snprintf(fig->printed, sizeof(fig->printed), "%llu:%02llu:%02llu",
			 t / 3600, t / 60 % 60, t % 60);
		break;
	}
	}
	if (!fig->present)
		s->nfigures++;
	fig->present = 1;
	/* the number is what a reader of the printed text would get back */
	if (summary_parse_value(fig->printed, strlen(fig->printed),
				summary_fields[f].unit, &fig->value) < 0)
		fig->value = value;
}

static void print_line(FILE *out, const char *indent, const char *label,
		       const char *value)
{
	char l[64];
	snprintf(l, sizeof(l), "%s:", label);
	fprintf(out, "%s%-35s %16s\n", indent, l, value);
}

void summary_print(FILE *out, const struct summary *s)
{
	for (int f = 0; f < SUM_NFIELDS; f++)
		if (s->f[f].present)
			print_line(out, "", summary_fields[f].label,
				   s->f[f].printed);
}

int summary_print_session(FILE *out, const struct marker *end)
{
	if (!end)
		return 0;
	const char *ns = marker_get(end, "client.summaries");
	long nsum = ns ? strtol(ns, NULL, 10) : 1;
	if (nsum < 1 || nsum > 100000)
		nsum = 1;
	int lines = 0;
	char key[96];
	for (long k = nsum > 1 ? 1 : 0; k <= (nsum > 1 ? nsum : 0); k++) {
		int heading = 0;
		for (int f = 0; f < SUM_NFIELDS; f++) {
			if (k)
				snprintf(key, sizeof(key), "client.%ld.%s", k,
					 summary_fields[f].key);
			else
				snprintf(key, sizeof(key), "client.%s",
					 summary_fields[f].key);
			const char *v = marker_get(end, key);
			if (!v)
				continue;
			if (k && !heading) {
				fprintf(out, "    summary %ld of %ld\n", k, nsum);
				lines++;
				heading = 1;
			}
			print_line(out, "    ", summary_fields[f].label, v);
			lines++;
		}
	}
	return lines;
}
