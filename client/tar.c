/*
 * tar.c - GNU tar --totals (stderr; fixtures from GNU tar 1.34):
 *
 *   tar: etree/secret: Cannot open: Permission denied
 *   Total bytes written: 3082240 (3.0MiB, 521MiB/s)      (creating)
 *   Total bytes read: 3082240 (3.0MiB, 244MiB/s)         (extracting, listing)
 *   tar: Exiting with failure status due to previous errors
 *
 * tar counts archive bytes (headers and padding included) and prints no
 * file count nor time. Normalised: creating, sent = bytes written (read
 * unknown: the files' bytes are not printed); extracting, read = bytes
 * read; rate = the rate printed (rounded by tar to 2-3 digits), duration
 * = bytes / rate (derived, as rounded); errors = "tar: " lines other than
 * "Removing leading ..." and "Exiting with failure status ...".
 */
#include "client.h"

#include <math.h>
#include <string.h>

enum { F_WRITTEN, F_READ, F_HUMAN, F_RATE };

const struct client_field_def tar_fields[] = {
	[F_WRITTEN] = { "bytes_written", "Total bytes written", CLU_BYTES },
	[F_READ] = { "bytes_read", "Total bytes read", CLU_BYTES },
	[F_HUMAN] = { "size", "Size", CLU_BYTES },
	[F_RATE] = { "bytes_per_sec", "Rate", CLU_BYTES_SEC },
	{ NULL, NULL, CLU_COUNT }
};

#define FD(i) (&tar_fields[i])

/* "3082240 (3.0MiB, 521MiB/s)" */
static int totals(struct client_summary *s, int which, const char *v, size_t n)
{
	double bytes, human, rate;
	size_t k = client_number(v, n, &bytes);
	if (!k || k + 2 > n || v[k] != ' ' || v[k + 1] != '(')
		return 0;
	client_add(s, FD(which), v, k, bytes);
	size_t i = k + 2, h = client_size(v + i, n - i, &human);
	if (!h || i + h + 2 > n || v[i + h] != ',' || v[i + h + 1] != ' ')
		return 1;
	client_add(s, FD(F_HUMAN), v + i, h, human);
	i += h + 2;
	size_t r = client_size(v + i, n - i, &rate);
	if (r && i + r + 2 <= n && v[i + r] == '/' && v[i + r + 1] == 's')
		client_add(s, FD(F_RATE), v + i, r + 2, rate);
	return 1;
}

long tar_parse(const char *text, size_t len, struct client_list *out)
{
	struct client_summary cur;
	long found = 0, errors = 0;
	size_t pos = 0, n, vn;
	const char *l, *v;

	while (client_next_line(text, len, &pos, &l, &n)) {
		if (n > 5 && !memcmp(l, "tar: ", 5)) {
			if (!client_find_str(l, n, "Removing leading") &&
			    !client_find_str(l, n, "Exiting with failure status"))
				errors++;
			continue;
		}
		int w = client_label(l, n, "Total bytes written", &v, &vn);
		if (!w && !client_label(l, n, "Total bytes read", &v, &vn))
			continue;
		client_summary_init(&cur);
		if (!totals(&cur, w ? F_WRITTEN : F_READ, v, vn))
			continue;
		cur.norm[w ? CLN_SENT : CLN_READ] = cur.f[0].value;
		const struct client_figure *r = client_get(&cur, FD(F_RATE));
		if (r)
			cur.norm[CLN_RATE] = r->value;
		cur.norm[CLN_ERRORS] = (double)errors;
		errors = 0;
		client_derive(&cur);
		if (client_push(out, &cur) < 0)
			return -1;
		found++;
	}
	return found;
}
