/*
 * borg.c - BorgBackup `borg create --stats` and `borg create --json`
 * (borg 1.x; fixtures from Debian 12's 1.2.4).
 *
 * --stats (stderr), sizes decimal (kB, MB, GB: 1000-based):
 *   Archive name: errors
 *   Duration: 1 minutes 2.34 seconds       ([D days] [H hours] [M minutes] S.ss seconds)
 *   Number of files: 30
 *                          Original size      Compressed size    Deduplicated size
 *   This archive:                3.05 MB              1.06 MB              1.06 MB
 *   All archives:                9.15 MB              3.17 MB              1.06 MB
 *                          Unique chunks         Total chunks
 *   Chunk index:                      32                   32
 * --json (stdout): {"archive": {"duration": 0.007, ..., "stats":
 * {"compressed_size": N, "deduplicated_size": N, "nfiles": N,
 * "original_size": N}}, "cache": {...}, ...}, pretty-printed.
 * Warnings about files go to stderr either way: "PATH: [Errno 13]
 * Permission denied: 'PATH'", one a line; they are the errors.
 *
 * A text summary needs its "This archive:" row, a JSON one its
 * "original_size". Normalised: read = original size, sent = deduplicated
 * size (what the repository grew by), files, duration, errors; rate =
 * read / duration.
 */
#include "client.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

enum {
	F_NAME, F_DURATION, F_NFILES, F_ORIG, F_COMP, F_DEDUP, F_ALL_ORIG,
	F_ALL_COMP, F_ALL_DEDUP, F_UNIQUE_CHUNKS, F_TOTAL_CHUNKS
};

const struct client_field_def borg_fields[] = {
	[F_NAME] = { "archive", "Archive name", CLU_TEXT },
	[F_DURATION] = { "archive_duration", "Duration", CLU_SECONDS },
	[F_NFILES] = { "nfiles", "Number of files", CLU_COUNT },
	[F_ORIG] = { "original_size", "This archive: Original size", CLU_BYTES },
	[F_COMP] = { "compressed_size", "This archive: Compressed size", CLU_BYTES },
	[F_DEDUP] = { "deduplicated_size", "This archive: Deduplicated size", CLU_BYTES },
	[F_ALL_ORIG] = { "all_original_size", "All archives: Original size", CLU_BYTES },
	[F_ALL_COMP] = { "all_compressed_size", "All archives: Compressed size", CLU_BYTES },
	[F_ALL_DEDUP] = { "all_deduplicated_size", "All archives: Deduplicated size", CLU_BYTES },
	[F_UNIQUE_CHUNKS] = { "unique_chunks", "Chunk index: Unique chunks", CLU_COUNT },
	[F_TOTAL_CHUNKS] = { "total_chunks", "Chunk index: Total chunks", CLU_COUNT },
	{ NULL, NULL, CLU_COUNT }
};

#define FD(i) (&borg_fields[i])

/* "[D days ][H hours ][M minutes ]S.ss seconds" */
static int duration(const char *v, size_t n, double *secs)
{
	static const struct { const char *w; double f; } units[] = {
		{ "days", 86400 }, { "hours", 3600 }, { "minutes", 60 },
		{ "seconds", 1 },
	};
	double t = 0;
	size_t i = 0;
	int u = 0, any = 0;
	while (i < n) {
		double x;
		size_t k = client_number(v + i, n - i, &x);
		if (!k || i + k >= n || v[i + k] != ' ')
			return -1;
		i += k + 1;
		while (u < 4 && (n - i < strlen(units[u].w) ||
				 memcmp(v + i, units[u].w, strlen(units[u].w))))
			u++;
		if (u == 4)
			return -1;
		t += x * units[u].f;
		i += strlen(units[u].w);
		any = 1;
		if (u++ == 3)
			break;
		while (i < n && v[i] == ' ')
			i++;
	}
	if (!any || u < 4)
		return -1;
	*secs = t;
	return 0;
}

/* Three sizes or counts in columns after a row label. */
static void columns(struct client_summary *s, const char *v, size_t n,
		    int first, int count, int sizes)
{
	size_t i = 0;
	for (int k = 0; k < count; k++) {
		while (i < n && v[i] == ' ')
			i++;
		double x;
		size_t l = sizes ? client_size(v + i, n - i, &x)
				 : client_number(v + i, n - i, &x);
		if (!l)
			return;
		client_add(s, FD(first + k), v + i, l, x);
		i += l;
	}
}

static double num_of(const struct client_summary *s, int f)
{
	const struct client_figure *g = client_get(s, FD(f));
	return g ? g->value : NAN;
}

static int finish(struct client_list *out, struct client_summary *s,
		  long *errors, long *found)
{
	if (!client_get(s, FD(F_ORIG))) {
		client_summary_init(s);
		return 0;
	}
	s->norm[CLN_READ] = num_of(s, F_ORIG);
	s->norm[CLN_SENT] = num_of(s, F_DEDUP);
	s->norm[CLN_FILES] = num_of(s, F_NFILES);
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

/* The JSON document's archive object at p[0..n). */
static void json_archive(struct client_summary *s, const char *p, size_t n)
{
	static const struct { int f; const char *key; } keys[] = {
		{ F_DURATION, "duration" }, { F_NFILES, "nfiles" },
		{ F_ORIG, "original_size" }, { F_COMP, "compressed_size" },
		{ F_DEDUP, "deduplicated_size" },
	};
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *v;
		size_t vn;
		double x;
		if (client_json_num(p, n, keys[k].key, &v, &vn, &x))
			client_add(s, FD(keys[k].f), v, vn, x);
	}
}

static int json_open(const char *l, size_t n)
{
	const char *a = client_find_str(l, n, "\"archive\"");
	return a && memchr(a, '{', (size_t)(l + n - a)) != NULL;
}

long borg_parse(const char *text, size_t len, struct client_list *out)
{
	struct client_summary cur;
	long found = 0, errors = 0;
	size_t pos = 0, n, vn, json = 0;
	int in_json = 0;
	const char *l, *v;

	client_summary_init(&cur);
	for (;;) {
		size_t at = pos;
		int more = client_next_line(text, len, &pos, &l, &n);
		/* a JSON document ends at a '}' in column 0, at the next
		 * archive, or with the text */
		if (in_json && (!more || (n && l[0] == '}') || json_open(l, n))) {
			json_archive(&cur, text + json, at - json);
			in_json = 0;
			if (finish(out, &cur, &errors, &found) < 0)
				return -1;
		}
		if (!more)
			break;
		if (client_find_str(l, n, ": [Errno ")) {
			errors++;
		} else if (json_open(l, n)) {
			if (finish(out, &cur, &errors, &found) < 0)
				return -1;
			in_json = 1;
			json = at;
		} else if (in_json) {
			continue;
		} else if (client_label(l, n, "Archive name", &v, &vn)) {
			if (client_get(&cur, FD(F_NAME)) &&
			    finish(out, &cur, &errors, &found) < 0)
				return -1;
			client_summary_init(&cur);
			client_add(&cur, FD(F_NAME), v, vn, 0);
		} else if (client_label(l, n, "Duration", &v, &vn)) {
			double t;
			if (duration(v, vn, &t) == 0)
				client_add(&cur, FD(F_DURATION), v, vn, t);
		} else if (client_label(l, n, "Number of files", &v, &vn)) {
			double x;
			size_t k = client_number(v, vn, &x);
			if (k == vn)
				client_add(&cur, FD(F_NFILES), v, vn, x);
		} else if (client_label(l, n, "This archive", &v, &vn)) {
			columns(&cur, v, vn, F_ORIG, 3, 1);
		} else if (client_label(l, n, "All archives", &v, &vn)) {
			columns(&cur, v, vn, F_ALL_ORIG, 3, 1);
		} else if (client_label(l, n, "Chunk index", &v, &vn)) {
			columns(&cur, v, vn, F_UNIQUE_CHUNKS, 2, 0);
			if (finish(out, &cur, &errors, &found) < 0)
				return -1;
		}
	}
	if (finish(out, &cur, &errors, &found) < 0)
		return -1;
	return found;
}
