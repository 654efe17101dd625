/*
 * restic.c - restic `backup` summaries, text and --json (restic 0.9 to
 * 0.17; fixtures from Debian 12's 0.14 in tests/fixtures/clients/real/).
 *
 * Text (stdout; errors on stderr before it):
 *   error: open etree/secret: permission denied
 *   Files:          30 new,     0 changed,     0 unmodified
 *   Dirs:            3 new,     0 changed,     0 unmodified
 *   Added to the repository: 2.920 MiB (1.007 MiB stored)   (0.14+;
 *                                        "Added to the repo: X" before)
 *   processed 30 files, 2.909 MiB in 0:00                   (M:SS, H:MM:SS)
 * --json: one message a line; {"message_type":"error",...} per error and
 * one {"message_type":"summary", "files_new":..., "data_added":...,
 * "data_added_packed":... (0.17+), "total_files_processed":...,
 * "total_bytes_processed":..., "total_duration":...}.
 *
 * A summary ends at its "processed" line (or JSON summary); errors counted
 * since the previous summary are its errors. Normalised: read =
 * processed bytes, sent = stored (data_added_packed), else added, files =
 * processed files, duration, errors; rate = read / duration.
 */
#include "client.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

enum {
	F_FILES_NEW, F_FILES_CHANGED, F_FILES_UNMOD, F_DIRS_NEW,
	F_DIRS_CHANGED, F_DIRS_UNMOD, F_DATA_BLOBS, F_TREE_BLOBS, F_ADDED,
	F_STORED, F_PFILES, F_PBYTES, F_DURATION
};

const struct client_field_def restic_fields[] = {
	[F_FILES_NEW] = { "files_new", "Files new", CLU_COUNT },
	[F_FILES_CHANGED] = { "files_changed", "Files changed", CLU_COUNT },
	[F_FILES_UNMOD] = { "files_unmodified", "Files unmodified", CLU_COUNT },
	[F_DIRS_NEW] = { "dirs_new", "Dirs new", CLU_COUNT },
	[F_DIRS_CHANGED] = { "dirs_changed", "Dirs changed", CLU_COUNT },
	[F_DIRS_UNMOD] = { "dirs_unmodified", "Dirs unmodified", CLU_COUNT },
	[F_DATA_BLOBS] = { "data_blobs", "Data blobs", CLU_COUNT },
	[F_TREE_BLOBS] = { "tree_blobs", "Tree blobs", CLU_COUNT },
	[F_ADDED] = { "data_added", "Added to the repository", CLU_BYTES },
	[F_STORED] = { "data_added_packed", "Added, stored", CLU_BYTES },
	[F_PFILES] = { "total_files_processed", "Processed files", CLU_COUNT },
	[F_PBYTES] = { "total_bytes_processed", "Processed bytes", CLU_BYTES },
	[F_DURATION] = { "total_duration", "Processed in", CLU_SECONDS },
	{ NULL, NULL, CLU_COUNT }
};

#define FD(i) (&restic_fields[i])

/* "M:SS" or "H:MM:SS" at p; its length, 0 when not one. */
static size_t clock_time(const char *p, size_t n, double *secs)
{
	double part[3] = { 0 };
	int np = 0;
	size_t i = 0;
	while (np < 3) {
		size_t j = i;
		double v = 0;
		while (j < n && j - i < 9 && isdigit((unsigned char)p[j]))
			v = v * 10 + (p[j++] - '0');
		if (j == i)
			return 0;
		part[np++] = v;
		i = j;
		if (i >= n || p[i] != ':')
			break;
		i++;
	}
	if (np < 2 || part[np - 1] >= 60 || (np == 3 && part[1] >= 60))
		return 0;
	*secs = np == 3 ? part[0] * 3600 + part[1] * 60 + part[2]
			: part[0] * 60 + part[1];
	return i;
}

/* "30 new,     0 changed,     0 unmodified" into three figures. */
static void counts3(struct client_summary *s, const char *v, size_t n, int first)
{
	static const char *const words[3] = { "new", "changed", "unmodified" };
	size_t i = 0;
	for (int k = 0; k < 3; k++) {
		while (i < n && (v[i] == ' ' || v[i] == ','))
			i++;
		double x;
		size_t l = client_number(v + i, n - i, &x);
		size_t w = strlen(words[k]);
		if (!l || i + l + 1 + w > n || v[i + l] != ' ' ||
		    memcmp(v + i + l + 1, words[k], w))
			return;
		client_add(s, FD(first + k), v + i, l, x);
		i += l + 1 + w;
	}
}

/* "processed 30 files, 2.909 MiB in 0:00" */
static int processed(struct client_summary *s, const char *l, size_t n)
{
	if (n < 10 || memcmp(l, "processed ", 10))
		return 0;
	size_t i = 10;
	double files, bytes, secs;
	size_t k = client_number(l + i, n - i, &files);
	if (!k || n - i - k < 8 || memcmp(l + i + k, " files, ", 8))
		return 0;
	size_t fi = i;
	i += k + 8;
	size_t b = client_size(l + i, n - i, &bytes);
	if (!b || n - i - b < 4 || memcmp(l + i + b, " in ", 4))
		return 0;
	size_t bi = i;
	i += b + 4;
	size_t t = clock_time(l + i, n - i, &secs);
	if (!t)
		return 0;
	client_add(s, FD(F_PFILES), l + fi, k, files);
	client_add(s, FD(F_PBYTES), l + bi, b, bytes);
	client_add(s, FD(F_DURATION), l + i, t, secs);
	return 1;
}

/* "2.920 MiB (1.007 MiB stored)" or "2.920 MiB" */
static void added(struct client_summary *s, const char *v, size_t n)
{
	double x;
	size_t k = client_size(v, n, &x);
	if (!k)
		return;
	client_add(s, FD(F_ADDED), v, k, x);
	size_t i = k;
	while (i < n && v[i] == ' ')
		i++;
	if (i < n && v[i] == '(') {
		i++;
		size_t m = client_size(v + i, n - i, &x);
		if (m && n - i - m >= 7 && !memcmp(v + i + m, " stored", 7))
			client_add(s, FD(F_STORED), v + i, m, x);
	}
}

static double num_of(const struct client_summary *s, int f)
{
	const struct client_figure *g = client_get(s, FD(f));
	return g ? g->value : NAN;
}

/* Normalise, push, start afresh. */
static int finish(struct client_list *out, struct client_summary *s,
		  long *errors, long *found)
{
	s->norm[CLN_READ] = num_of(s, F_PBYTES);
	s->norm[CLN_SENT] = num_of(s, F_STORED);
	if (isnan(s->norm[CLN_SENT]))
		s->norm[CLN_SENT] = num_of(s, F_ADDED);
	s->norm[CLN_FILES] = num_of(s, F_PFILES);
	s->norm[CLN_DURATION] = num_of(s, F_DURATION);
	s->norm[CLN_ERRORS] = (double)*errors;
	client_derive(s);
	*errors = 0;
	if (client_push(out, s) < 0)
		return -1;
	(*found)++;
	client_summary_init(s);
	return 0;
}

static const char *const json_keys[] = {
	[F_FILES_NEW] = "files_new", [F_FILES_CHANGED] = "files_changed",
	[F_FILES_UNMOD] = "files_unmodified", [F_DIRS_NEW] = "dirs_new",
	[F_DIRS_CHANGED] = "dirs_changed", [F_DIRS_UNMOD] = "dirs_unmodified",
	[F_DATA_BLOBS] = "data_blobs", [F_TREE_BLOBS] = "tree_blobs",
	[F_ADDED] = "data_added", [F_STORED] = "data_added_packed",
	[F_PFILES] = "total_files_processed",
	[F_PBYTES] = "total_bytes_processed", [F_DURATION] = "total_duration",
};

static int is_message(const char *l, size_t n, const char *type)
{
	char want[64];
	snprintf(want, sizeof(want), "\"message_type\":\"%s\"", type);
	return n && l[0] == '{' && client_find_str(l, n, want) != NULL;
}

long restic_parse(const char *text, size_t len, struct client_list *out)
{
	struct client_summary cur;
	long found = 0, errors = 0;
	size_t pos = 0, n;
	const char *l, *v;
	size_t vn;

	client_summary_init(&cur);
	while (client_next_line(text, len, &pos, &l, &n)) {
		if ((n > 7 && !memcmp(l, "error: ", 7)) ||
		    is_message(l, n, "error")) {
			errors++;
			continue;
		}
		if (is_message(l, n, "summary")) {
			client_summary_init(&cur);
			for (int f = 0; f <= F_DURATION; f++) {
				double x;
				if (client_json_num(l, n, json_keys[f], &v, &vn, &x))
					client_add(&cur, FD(f), v, vn, x);
			}
			if (client_get(&cur, FD(F_PBYTES)) &&
			    finish(out, &cur, &errors, &found) < 0)
				return -1;
			client_summary_init(&cur);
			continue;
		}
		if (client_label(l, n, "Files", &v, &vn)) {
			if (client_get(&cur, FD(F_FILES_NEW)))
				client_summary_init(&cur);	/* a summary cut short */
			counts3(&cur, v, vn, F_FILES_NEW);
		} else if (client_label(l, n, "Dirs", &v, &vn)) {
			counts3(&cur, v, vn, F_DIRS_NEW);
		} else if (client_label(l, n, "Added to the repository", &v, &vn) ||
			   client_label(l, n, "Added to the repo", &v, &vn)) {
			added(&cur, v, vn);
		} else if (processed(&cur, l, n)) {
			if (finish(out, &cur, &errors, &found) < 0)
				return -1;
		}
	}
	return found;
}
