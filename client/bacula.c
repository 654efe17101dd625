/*
 * bacula.c - the Bacula and Bareos director's end-of-job report, as
 * bconsole's `messages` (or the job's mail) shows it (fixtures: a real
 * Bacula 9.6.7 job on loopback; Bareos's layout from its documentation):
 *
 *   30-Nov 13:03 pl-dir JobId 1: Bacula pl-dir 9.6.7 (10Dec20):
 *     JobId:                  1
 *     Job:                    perflog-tree.2026-11-30_13.03.12_03
 *     Backup Level:           Full
 *     Elapsed time:           1 min 5 secs      ([N day(s)] [N hour(s)] [N min(s)] N sec(s))
 *     FD Files Written:       31
 *     SD Files Written:       31
 *     FD Bytes Written:       3,050,000 (3.050 MB)
 *     SD Bytes Written:       3,053,447 (3.053 MB)
 *     Rate:                   3050.0 KB/s       (KB = 1000 bytes)
 *     Software Compression:   65.2% 2.9:1       (or None)
 *     Comm Line Compression:  None
 *     Last Volume Bytes:      3,057,271 (3.057 MB)
 *     Non-fatal FD errors:    0
 *     SD Errors:              0
 *     FD termination status:  OK
 *     Bareos binary info:     ...               (Bareos only)
 *     Termination:            Backup OK -- with warnings
 *
 * A report is a Bareos one when its header names Bareos or it has a
 * "Bareos binary info:" line. It ends at "Termination:" and needs an FD
 * or SD Bytes Written line. Normalised: sent = FD Bytes Written (what
 * left the client), read = the same when Software Compression is None
 * (else unknown: the report prints no uncompressed size), files = FD
 * Files Written, duration = Elapsed time, rate = Rate, errors = Non-fatal
 * FD errors + SD Errors.
 */
#include "client.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

enum {
	F_JOBID, F_JOB, F_LEVEL, F_ELAPSED, F_FD_FILES, F_SD_FILES, F_FD_BYTES,
	F_SD_BYTES, F_RATE, F_SOFT_COMP, F_COMM_COMP, F_VOL_BYTES, F_FD_ERRORS,
	F_SD_ERRORS, F_FD_STATUS, F_SD_STATUS, F_TERMINATION
};

const struct client_field_def bacula_fields[] = {
	[F_JOBID] = { "jobid", "JobId", CLU_COUNT },
	[F_JOB] = { "job", "Job", CLU_TEXT },
	[F_LEVEL] = { "level", "Backup Level", CLU_TEXT },
	[F_ELAPSED] = { "elapsed", "Elapsed time", CLU_SECONDS },
	[F_FD_FILES] = { "fd_files", "FD Files Written", CLU_COUNT },
	[F_SD_FILES] = { "sd_files", "SD Files Written", CLU_COUNT },
	[F_FD_BYTES] = { "fd_bytes", "FD Bytes Written", CLU_BYTES },
	[F_SD_BYTES] = { "sd_bytes", "SD Bytes Written", CLU_BYTES },
	[F_RATE] = { "job_rate", "Rate", CLU_BYTES_SEC },
	[F_SOFT_COMP] = { "software_compression", "Software Compression", CLU_PERCENT },
	[F_COMM_COMP] = { "comm_compression", "Comm Line Compression", CLU_PERCENT },
	[F_VOL_BYTES] = { "last_volume_bytes", "Last Volume Bytes", CLU_BYTES },
	[F_FD_ERRORS] = { "fd_errors", "Non-fatal FD errors", CLU_COUNT },
	[F_SD_ERRORS] = { "sd_errors", "SD Errors", CLU_COUNT },
	[F_FD_STATUS] = { "fd_status", "FD termination status", CLU_TEXT },
	[F_SD_STATUS] = { "sd_status", "SD termination status", CLU_TEXT },
	[F_TERMINATION] = { "termination", "Termination", CLU_TEXT },
	{ NULL, NULL, CLU_COUNT }
};

#define FD(i) (&bacula_fields[i])

/* "1 day 2 hours 3 mins 4 secs" (Bacula's edit_utime) */
static int elapsed(const char *v, size_t n, double *secs)
{
	static const struct { const char *w; double f; } units[] = {
		{ "year", 31536000 }, { "month", 2592000 }, { "week", 604800 },
		{ "day", 86400 }, { "hour", 3600 }, { "min", 60 }, { "sec", 1 },
	};
	double t = 0;
	size_t i = 0;
	int any = 0;
	while (i < n) {
		double x;
		size_t k = client_number(v + i, n - i, &x);
		if (!k || i + k >= n || v[i + k] != ' ')
			return -1;
		i += k + 1;
		size_t w = i;
		while (w < n && isalpha((unsigned char)v[w]))
			w++;
		size_t u = 0, nu = sizeof(units) / sizeof(units[0]);
		for (; u < nu; u++) {
			size_t l = strlen(units[u].w);
			if ((w - i == l || (w - i == l + 1 && v[i + l] == 's')) &&
			    !memcmp(v + i, units[u].w, l))
				break;
		}
		if (u == nu)
			return -1;
		t += x * units[u].f;
		any = 1;
		i = w;
		while (i < n && v[i] == ' ')
			i++;
	}
	if (!any)
		return -1;
	*secs = t;
	return 0;
}

/* One "Label: value" line of the report into s. */
static void field(struct client_summary *s, int f, const char *v, size_t n)
{
	double x = 0;
	size_t k;
	switch (bacula_fields[f].unit) {
	case CLU_COUNT:
		if (client_number(v, n, &x) == n)
			client_add(s, FD(f), v, n, x);
		break;
	case CLU_BYTES:		/* "3,050,000 (3.050 MB)": the exact count */
		if ((k = client_number(v, n, &x)))
			client_add(s, FD(f), v, n, x);
		break;
	case CLU_SECONDS:
		if (elapsed(v, n, &x) == 0)
			client_add(s, FD(f), v, n, x);
		break;
	case CLU_BYTES_SEC:	/* "3050.0 KB/s" */
		if ((k = client_size(v, n, &x)) && k + 2 == n && v[k] == '/')
			client_add(s, FD(f), v, n, x);
		break;
	case CLU_PERCENT:	/* "65.2% 2.9:1" or "None" */
		if ((k = client_number(v, n, &x)) && k < n && v[k] == '%')
			client_add(s, FD(f), v, n, x);
		else if (n == 4 && !memcmp(v, "None", 4))
			client_add(s, FD(f), v, n, 0);
		break;
	default:
		client_add(s, FD(f), v, n, 0);
	}
}

static double num_of(const struct client_summary *s, int f)
{
	const struct client_figure *g = client_get(s, FD(f));
	return g ? g->value : NAN;
}

static int finish(struct client_list *out, struct client_summary *s)
{
	s->norm[CLN_SENT] = num_of(s, F_FD_BYTES);
	const struct client_figure *c = client_get(s, FD(F_SOFT_COMP));
	if (!c || c->value == 0)
		s->norm[CLN_READ] = s->norm[CLN_SENT];
	s->norm[CLN_FILES] = num_of(s, F_FD_FILES);
	s->norm[CLN_DURATION] = num_of(s, F_ELAPSED);
	s->norm[CLN_RATE] = num_of(s, F_RATE);
	double e = num_of(s, F_FD_ERRORS), e2 = num_of(s, F_SD_ERRORS);
	s->norm[CLN_ERRORS] = isnan(e) ? e2 : isnan(e2) ? e : e + e2;
	client_derive(s);
	return client_push(out, s);
}

static long parse(const char *text, size_t len, struct client_list *out,
		  int bareos)
{
	struct client_summary cur;
	long found = 0;
	int is_bareos = 0;
	size_t pos = 0, n, vn;
	const char *l, *v;

	client_summary_init(&cur);
	while (client_next_line(text, len, &pos, &l, &n)) {
		/* the header: "... JobId 1: Bacula pl-dir 9.6.7 (10Dec20):" */
		if (client_find_str(l, n, "JobId ") &&
		    (client_find_str(l, n, ": Bacula ") ||
		     client_find_str(l, n, ": Bareos "))) {
			client_summary_init(&cur);
			is_bareos = client_find_str(l, n, ": Bareos ") != NULL;
			continue;
		}
		if (client_label(l, n, "Bareos binary info", &v, &vn)) {
			is_bareos = 1;
			continue;
		}
		for (int f = 0; bacula_fields[f].key; f++) {
			if (!client_label(l, n, bacula_fields[f].label, &v, &vn))
				continue;
			if (f == F_JOBID && cur.nf) {
				client_summary_init(&cur);	/* a report cut short */
				is_bareos = 0;
			}
			field(&cur, f, v, vn);
			if (f != F_TERMINATION)
				break;
			if (is_bareos == bareos && (client_get(&cur, FD(F_FD_BYTES)) ||
						    client_get(&cur, FD(F_SD_BYTES)))) {
				if (finish(out, &cur) < 0)
					return -1;
				found++;
			}
			client_summary_init(&cur);
			is_bareos = 0;
			break;
		}
	}
	return found;
}

long bacula_parse(const char *text, size_t len, struct client_list *out)
{
	return parse(text, len, out, 0);
}

long bareos_parse(const char *text, size_t len, struct client_list *out)
{
	return parse(text, len, out, 1);
}
