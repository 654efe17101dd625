/*
 * rsync.c - rsync --stats (rsync 3.x; fixtures from 3.2+ in
 * tests/fixtures/clients/real/):
 *
 *   rsync: [sender] send_files failed to open "/x/secret": Permission denied (13)
 *   Number of files: 34 (reg: 31, dir: 3)
 *   Number of regular files transferred: 31    (3.0: "Number of files transferred")
 *   Total file size: 3,050,007 bytes           (-h: "3.05M bytes", 1000-based)
 *   Total transferred file size: 3,050,007 bytes
 *   Literal data: 3,050,000 bytes
 *   Matched data: 0 bytes
 *   File list size: 0
 *   File list generation time: 0.001 seconds
 *   Total bytes sent: 3,052,604
 *   Total bytes received: 625
 *   sent 3,052,604 bytes  received 625 bytes  6,106,458.00 bytes/sec
 *   total size is 3,050,007  speedup is 1.00
 *   rsync error: some files/attrs were not transferred ... (code 23) ...
 *
 * Normalised: read = total transferred file size (the files rsync read
 * to send), sent = total bytes sent (on the wire or pipe, protocol
 * included), files = regular files transferred, rate = the "bytes/sec"
 * it printed ((sent + received) / elapsed), duration = (sent + received)
 * / rate (derived), errors = "rsync: ..." lines (the final "rsync error:"
 * line counts one when no such line came before it).
 *
 * Localised numbers: rsync groups thousands with ',' unless the locale's
 * decimal point is ',', then with '.' (de_DE, captured in
 * tests/fixtures/clients/real/rsync-stats-de.out):
 *   Total bytes sent: 3.002.616
 *   File list generation time: 0,001 seconds
 *   sent 3.002.616 bytes  received 608 bytes  6.006.448,00 bytes/sec
 *   total size is 3.000.081  speedup is 1,00
 * The times ("%.3f"), the rate and the speedup ("%.2f") always carry the
 * decimal point, so the whole output decides which of the two it is
 * (rsync_decimal); without any of them, a number that goes on after what
 * could be read ("3.002.896" read as 3.002) is kept as printed and
 * "unreadable", never as a wrong number.
 */
#include "client.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

enum {
	F_NFILES, F_CREATED, F_DELETED, F_TRANSFERRED, F_TOTAL_SIZE,
	F_TRANSFERRED_SIZE, F_LITERAL, F_MATCHED, F_FLIST_SIZE, F_FLIST_GEN,
	F_FLIST_XFER, F_SENT, F_RECEIVED, F_RATE
};

const struct client_field_def rsync_fields[] = {
	[F_NFILES] = { "number_of_files", "Number of files", CLU_COUNT },
	[F_CREATED] = { "created_files", "Number of created files", CLU_COUNT },
	[F_DELETED] = { "deleted_files", "Number of deleted files", CLU_COUNT },
	[F_TRANSFERRED] = { "files_transferred", "Number of regular files transferred", CLU_COUNT },
	[F_TOTAL_SIZE] = { "total_file_size", "Total file size", CLU_BYTES },
	[F_TRANSFERRED_SIZE] = { "transferred_file_size", "Total transferred file size", CLU_BYTES },
	[F_LITERAL] = { "literal_data", "Literal data", CLU_BYTES },
	[F_MATCHED] = { "matched_data", "Matched data", CLU_BYTES },
	[F_FLIST_SIZE] = { "file_list_size", "File list size", CLU_BYTES },
	[F_FLIST_GEN] = { "file_list_generation_time", "File list generation time", CLU_SECONDS },
	[F_FLIST_XFER] = { "file_list_transfer_time", "File list transfer time", CLU_SECONDS },
	[F_SENT] = { "bytes_sent", "Total bytes sent", CLU_BYTES },
	[F_RECEIVED] = { "bytes_received", "Total bytes received", CLU_BYTES },
	[F_RATE] = { "bytes_per_sec", "sent ... bytes/sec", CLU_BYTES_SEC },
	{ NULL, NULL, CLU_COUNT }
};

#define FD(i) (&rsync_fields[i])

static const struct { int f; const char *label; enum { NUM, SIZE, SECS } kind; } labels[] = {
	{ F_NFILES, "Number of files", NUM },
	{ F_CREATED, "Number of created files", NUM },
	{ F_DELETED, "Number of deleted files", NUM },
	{ F_TRANSFERRED, "Number of regular files transferred", NUM },
	{ F_TRANSFERRED, "Number of files transferred", NUM },
	{ F_TOTAL_SIZE, "Total file size", SIZE },
	{ F_TRANSFERRED_SIZE, "Total transferred file size", SIZE },
	{ F_LITERAL, "Literal data", SIZE },
	{ F_MATCHED, "Matched data", SIZE },
	{ F_FLIST_SIZE, "File list size", SIZE },
	{ F_FLIST_GEN, "File list generation time", SECS },
	{ F_FLIST_XFER, "File list transfer time", SECS },
	{ F_SENT, "Total bytes sent", SIZE },
	{ F_RECEIVED, "Total bytes received", SIZE },
};

/* A size with or without its unit ("625", "3.05M", "3,050,007 bytes"). */
static size_t size_or_number(const char *v, size_t n, char dec, double *x)
{
	size_t k = client_size_dec(v, n, dec, x);
	return k ? k : client_number_dec(v, n, dec, x);
}

/* The decimal point of the output: the character before the last three
 * digits of a time ("0,001 seconds") or the last two of the speedup or
 * the rate ("speedup is 1,00", "6.006.448,00 bytes/sec"); 0 when none
 * says. */
static char rsync_decimal(const char *text, size_t len)
{
	static const struct { const char *before; size_t decimals; } marks[] = {
		{ " seconds", 3 }, { " bytes/sec", 2 }, { "speedup is ", 0 },
	};
	for (size_t m = 0; m < sizeof(marks) / sizeof(marks[0]); m++) {
		const char *p = text, *end = text + len;
		size_t bl = strlen(marks[m].before);

		while ((p = client_find_str(p, (size_t)(end - p), marks[m].before))) {
			const char *d = NULL;

			if (marks[m].decimals) {	/* digits, then the mark */
				size_t k = marks[m].decimals;
				if (p - text > (long)k &&
				    (p[-(long)k - 1] == '.' || p[-(long)k - 1] == ','))
					d = p - k - 1;
			} else if (end - p > (long)bl + 3) {
				d = p + bl;
				while (d < end && isdigit((unsigned char)*d))
					d++;
				if (d == p + bl || d + 3 > end || !isdigit((unsigned char)d[1]) ||
				    !isdigit((unsigned char)d[2]))
					d = NULL;
			}
			if (d && (*d == '.' || *d == ',') && d > text &&
			    isdigit((unsigned char)d[-1]))
				return *d;
			p += bl;
		}
	}
	return 0;
}

/* What follows a number read with the decimal point unknown: more of it
 * ("3.002" of "3.002.896"), so it was not what was read. */
static int goes_on(const char *v, size_t n, size_t k)
{
	return k + 1 < n && (v[k] == '.' || v[k] == ',') &&
	       isdigit((unsigned char)v[k + 1]);
}

static double num_of(const struct client_summary *s, int f)
{
	const struct client_figure *g = client_get(s, FD(f));
	return g ? g->value : NAN;
}

static int finish(struct client_list *out, struct client_summary *s,
		  long *errors, long *found)
{
	if (!client_get(s, FD(F_SENT))) {
		client_summary_init(s);
		return 0;
	}
	s->norm[CLN_READ] = num_of(s, F_TRANSFERRED_SIZE);
	s->norm[CLN_SENT] = num_of(s, F_SENT);
	s->norm[CLN_FILES] = num_of(s, F_TRANSFERRED);
	s->norm[CLN_RATE] = num_of(s, F_RATE);
	double wire = num_of(s, F_SENT) + num_of(s, F_RECEIVED);
	if (s->norm[CLN_RATE] > 0 && !isnan(wire)) {
		s->norm[CLN_DURATION] = wire / s->norm[CLN_RATE];
		s->derived |= 1u << CLN_DURATION;
	}
	s->norm[CLN_ERRORS] = (double)*errors;
	*errors = 0;
	if (client_push(out, s) < 0)
		return -1;
	(*found)++;
	client_summary_init(s);
	return 0;
}

/* "sent 3,052,604 bytes  received 625 bytes  6,106,458.00 bytes/sec" */
static int sent_line(struct client_summary *s, const char *l, size_t n,
		     char dec)
{
	const char *r = client_find_str(l, n, " bytes/sec");
	if (n < 5 || memcmp(l, "sent ", 5) || !r)
		return 0;
	const char *b = r;
	while (b > l && b[-1] != ' ')
		b--;
	double x;
	size_t k = size_or_number(b, (size_t)(r - b), dec ? dec : '.', &x);
	if (k != (size_t)(r - b)) {
		if (dec || !goes_on(b, (size_t)(r - b), k))
			return 0;
		x = NAN;	/* "6.006.448,00" with no other clue */
	}
	client_add(s, FD(F_RATE), b, (size_t)(r - b) + 10, x);
	return 1;
}

long rsync_parse(const char *text, size_t len, struct client_list *out)
{
	struct client_summary cur;
	long found = 0, errors = 0;
	size_t pos = 0, n, vn;
	const char *l, *v;

	const char dec = rsync_decimal(text, len);

	client_summary_init(&cur);
	while (client_next_line(text, len, &pos, &l, &n)) {
		if (n > 7 && !memcmp(l, "rsync: ", 7)) {
			errors++;
			continue;
		}
		if (n > 13 && !memcmp(l, "rsync error: ", 13)) {
			/* after its summary: one error when none was told */
			if (found && out->s[out->n - 1].norm[CLN_ERRORS] == 0 &&
			    !cur.nf)
				out->s[out->n - 1].norm[CLN_ERRORS] = 1;
			else
				errors += !errors;
			continue;
		}
		if (sent_line(&cur, l, n, dec)) {
			if (finish(out, &cur, &errors, &found) < 0)
				return -1;
			continue;
		}
		for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
			if (!client_label(l, n, labels[i].label, &v, &vn))
				continue;
			double x;
			const char d = dec ? dec : '.';
			size_t k = labels[i].kind == SIZE ? size_or_number(v, vn, d, &x)
							  : client_number_dec(v, vn, d, &x);
			if (!k)
				break;
			if (!dec && goes_on(v, vn, k)) {
				/* unreadable: the whole number as printed */
				while (k < vn && (isdigit((unsigned char)v[k]) ||
						  v[k] == '.' || v[k] == ','))
					k++;
				x = NAN;
			}
			if (client_get(&cur, FD(labels[i].f)) &&
			    finish(out, &cur, &errors, &found) < 0)
				return -1;
			/* the seconds' word and the counts' "(reg: ...)" stay */
			client_add(&cur, FD(labels[i].f), v,
				   labels[i].kind == SIZE ? k : vn, x);
			break;
		}
	}
	if (finish(out, &cur, &errors, &found) < 0)
		return -1;
	return found;
}
