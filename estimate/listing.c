/*
 * listing.c - the two listing parsers of `perflog estimate --listing`; the
 * formats, and which lines are fatal, are in listing.h.
 *
 * A line is cut into blank-separated tokens (space and tab only: a
 * no-break space inside a size is part of the token) and recognised by
 * the shape of its tokens, not by column positions, since dir's columns
 * moved between DOS, NT 4.0, Windows 2000 and every locale.
 */
#define _GNU_SOURCE
#include "listing.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAXTOK 8

struct tok {
	const char *p;
	size_t n;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Split into at most MAXTOK tokens; rest[i] is where token i starts, so
 * "the rest of the line from token i" keeps its inner blanks. */
static size_t tokenize(const char *s, size_t len, struct tok *t)
{
	size_t n = 0, i = 0;

	while (n < MAXTOK) {
		while (i < len && is_blank(s[i]))
			i++;
		if (i >= len)
			break;
		t[n].p = s + i;
		while (i < len && !is_blank(s[i]))
			i++;
		t[n].n = (size_t)(s + i - t[n].p);
		n++;
	}
	return n;
}

/* The rest of the line from token i with trailing blanks dropped. */
static size_t rest_len(const char *s, size_t len, const struct tok *t)
{
	size_t end = len;

	while (end > (size_t)(t->p - s) && is_blank(s[end - 1]))
		end--;
	return end - (size_t)(t->p - s);
}

static size_t count_digits(const struct tok *t)
{
	size_t d = 0;

	for (size_t i = 0; i < t->n; i++)
		d += is_digit(t->p[i]);
	return d;
}

/* 08/13/97, 08/13/1997, 13.08.1997, 1997-08-13, 08-13-97 */
static int is_date(const struct tok *t)
{
	int seps = 0;

	if (!t->n || !is_digit(t->p[0]) || !is_digit(t->p[t->n - 1]))
		return 0;
	for (size_t i = 0; i < t->n; i++) {
		char c = t->p[i];

		if (c == '/' || c == '.' || c == '-') {
			if (is_digit(t->p[i - 1]) == 0)
				return 0;
			seps++;
		} else if (!is_digit(c))
			return 0;
	}
	return seps == 2 && count_digits(t) >= 4;
}

/* 10:15a, 10:15p, 10:15, 23:21, 10:15:07, 10.15; a/p/am/pm glued on */
static int is_time(const struct tok *t)
{
	size_t i = 0;
	int seps = 0;

	if (!t->n || !is_digit(t->p[0]))
		return 0;
	while (i < t->n && (is_digit(t->p[i]) || t->p[i] == ':' || t->p[i] == '.')) {
		if (!is_digit(t->p[i])) {
			if (!is_digit(t->p[i - 1]))
				return 0;
			seps++;
		}
		i++;
	}
	if (!is_digit(t->p[i - 1]) || seps < 1 || seps > 2)
		return 0;
	size_t letters = t->n - i;

	if (letters == 0)
		return 1;
	char a = t->p[i];

	if (letters > 2 || !(a == 'a' || a == 'A' || a == 'p' || a == 'P'))
		return 0;
	return letters == 1 || t->p[i + 1] == 'm' || t->p[i + 1] == 'M';
}

/* AM, PM, or a localised word for them: no digit, not a <TAG>. */
static int is_word(const struct tok *t)
{
	return t->n && t->p[0] != '<' && count_digits(t) == 0;
}

static int is_tag(const struct tok *t)
{
	return t->n >= 3 && t->p[0] == '<' && t->p[t->n - 1] == '>';
}

/* Length of a digit-group separator at p (0 if none): , . ' and the
 * no-break spaces of Latin-1 (A0), code page 850 (FF), UTF-8 U+00A0 and
 * U+202F. */
static size_t group_sep(const unsigned char *p, size_t left)
{
	if (*p == ',' || *p == '.' || *p == '\'' || *p == 0xa0 || *p == 0xff)
		return 1;
	if (left >= 2 && p[0] == 0xc2 && p[1] == 0xa0)
		return 2;
	if (left >= 3 && p[0] == 0xe2 && p[1] == 0x80 && p[2] == 0xaf)
		return 3;
	return 0;
}

/* A size with optional grouping: 0 ok, -1 not a size, -2 too large. */
static int parse_grouped(const struct tok *t, uint64_t *v)
{
	const unsigned char *p = (const unsigned char *)t->p;
	size_t i = 0;
	uint64_t x = 0;

	if (!t->n || !is_digit((char)p[0]) || !is_digit((char)p[t->n - 1]))
		return -1;
	while (i < t->n) {
		if (is_digit((char)p[i])) {
			unsigned dgt = (unsigned)(p[i] - '0');

			if (x > (UINT64_MAX - dgt) / 10)
				return -2;
			x = x * 10 + dgt;
			i++;
			continue;
		}
		size_t g = group_sep(p + i, t->n - i);

		if (!g || !is_digit((char)p[i - 1]))
			return -1;
		i += g;
	}
	*v = x;
	return 0;
}

/* PowerShell's Get-ChildItem mode column: d----- -a---- la--- ... */
static int is_mode(const struct tok *t)
{
	if (t->n < 5 || t->n > 6)
		return 0;
	for (size_t i = 0; i < t->n; i++)
		if (!memchr("-darhslx", t->p[i], 8))
			return 0;
	return 1;
}

/* A line of dashes and blanks (Get-ChildItem's rule under its header). */
static int only_rule(const char *l, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (l[i] != '-' && !is_blank(l[i]))
			return 0;
	return 1;
}

/* A short, printable excerpt of a line for messages. */
static void excerpt(char *buf, size_t n, const char *s, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 5 < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (o >= 48) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		buf[o++] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
	}
	buf[o] = '\0';
}

void listing_init(struct listing_state *s, const char *name)
{
	memset(s, 0, sizeof(*s));
	s->name = name;
}

static int add_file(struct listing_state *s, struct estimate_dist *d,
		    uint64_t size, struct perr *e)
{
	if (estimate_add(d, size) < 0)
		return perr_set(e, "%s:%lu: total size exceeds 2^64 bytes",
				s->name, s->line);
	s->files++;
	s->bytes += size;
	return 0;
}

static int size_path_line(struct listing_state *s, const char *l, size_t len,
			  struct estimate_dist *d, struct perr *e)
{
	char ex[64];
	size_t i = 0;
	uint64_t v = 0;

	while (i < len && is_digit(l[i])) {
		unsigned dgt = (unsigned)(l[i] - '0');

		if (v > (UINT64_MAX - dgt) / 10)
			return perr_set(e, "%s:%lu: size out of range (above 2^64-1)",
					s->name, s->line);
		v = v * 10 + dgt;
		i++;
	}
	if (i == 0 || i + 1 >= len || !is_blank(l[i]) || memchr(l, '\0', len)) {
		excerpt(ex, sizeof(ex), l, len);
		return perr_set(e, "%s:%lu: cannot parse '%s' (expected SIZE PATH, as find -printf '%%s %%p\\n' writes)",
				s->name, s->line, ex);
	}
	return add_file(s, d, v, e);
}

static void warn(struct listing_state *s, const char *l, size_t len)
{
	char ex[64];

	s->skipped++;
	if (s->nwarn >= LISTING_KEEP_WARNINGS)
		return;
	excerpt(ex, sizeof(ex), l, len);
	snprintf(s->warn[s->nwarn++], sizeof(s->warn[0]),
		 "%s:%lu: cannot parse '%s', skipped", s->name, s->line, ex);
}

/* A dir entry from its date token on: [word] time [word] SIZE|<TAG> name.
 * 1 = file (size in *v), 0 = not a file (a <TAG>), -1 = no entry,
 * -2 = size too large. */
static int dir_tail(const char *l, size_t len, const struct tok *t, size_t n,
		    size_t i, uint64_t *v)
{
	if (i < n && is_word(&t[i]))
		i++;
	if (i >= n || !is_time(&t[i]))
		return -1;
	i++;
	if (i < n && is_word(&t[i]))
		i++;
	if (i + 1 >= n)		/* a size and a name must follow */
		return -1;
	if (is_tag(&t[i]))
		return 0;
	int r = parse_grouped(&t[i], v);

	if (r < 0)
		return r == -2 ? -2 : -1;
	return rest_len(l, len, &t[i + 1]) ? 1 : -1;
}

/* DOS and Windows 95/98: NAME [EXT] SIZE|<DIR> DATE TIME [LONG NAME]. */
static int dos_entry(const struct tok *t, size_t n, uint64_t *v)
{
	for (size_t k = 1; k <= 2 && k + 2 < n; k++) {
		if (!is_date(&t[k + 1]))
			continue;
		if (!is_time(&t[k + 2]))
			return -1;
		if (is_tag(&t[k]))
			return 0;
		int r = parse_grouped(&t[k], v);

		return r == 0 ? 1 : r;
	}
	return -1;
}

static int dir_line(struct listing_state *s, const char *l, size_t len,
		    struct estimate_dist *d, struct perr *e)
{
	struct tok t[MAXTOK];
	uint64_t v = 0;
	int r;

	/* headers and summaries are indented in every version and language */
	if (is_blank(l[0]))
		return 0;
	if (memchr(l, '\0', len)) {
		warn(s, l, len);
		return 0;
	}
	size_t n = tokenize(l, len, t);

	if (is_date(&t[0]))
		r = dir_tail(l, len, t, n, 1, &v);
	else if (is_mode(&t[0]))
		r = t[0].p[0] == 'd' ? 0 : n > 1 && is_date(&t[1]) ?
			dir_tail(l, len, t, n, 2, &v) : -1;
	else if ((t[0].n == 4 && !memcmp(t[0].p, "Mode", 4)) ||
		 only_rule(l, len))
		r = 2;		/* Get-ChildItem's column header and rule */
	else if (len >= 18 && !strncasecmp(l, "Total files listed", 18))
		r = 2;		/* DOS puts this one summary at column 0 */
	else
		r = dos_entry(t, n, &v);
	if (r == -2)
		return perr_set(e, "%s:%lu: size out of range (above 2^64-1)",
				s->name, s->line);
	if (r < 0) {
		warn(s, l, len);
		return 0;
	}
	if (r == 2)
		return 0;
	if (r == 0) {
		s->dirs++;
		return 0;
	}
	return add_file(s, d, v, e);
}

int listing_line(struct listing_state *s, const char *line, size_t len,
		 struct estimate_dist *d, struct perr *e)
{
	s->line++;
	if (len && line[len - 1] == '\r')
		len--;
	if (s->line == 1 && len >= 3 && !memcmp(line, "\xef\xbb\xbf", 3)) {
		line += 3;	/* UTF-8 byte order mark */
		len -= 3;
	}
	size_t b = 0;

	while (b < len && is_blank(line[b]))
		b++;
	if (b == len)
		return 0;	/* blank */
	if (s->kind == LISTING_UNKNOWN) {
		size_t i = 0;

		while (i < len && is_digit(line[i]))
			i++;
		s->kind = i > 0 && i < len && is_blank(line[i]) ?
			LISTING_SIZE_PATH : LISTING_DIR;
	}
	if (s->kind == LISTING_SIZE_PATH)
		return size_path_line(s, line, len, d, e);
	return dir_line(s, line, len, d, e);
}

int listing_finish(struct listing_state *s, struct perr *e)
{
	if (s->files == 0 && s->dirs == 0 && s->skipped > 0)
		return perr_set(e, "%s: not a listing: no line is a file entry (%s)",
				s->name, s->warn[0]);
	return 0;
}

int listing_parse(const char *text, size_t len, const char *name,
		  struct listing_state *s, struct estimate_dist *d,
		  struct perr *e)
{
	size_t i = 0;

	listing_init(s, name);
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (text + i)) : len - i;

		if (listing_line(s, text + i, l, d, e) < 0)
			return -1;
		i += l + 1;
	}
	return listing_finish(s, e);
}

/* UTF-16 (PowerShell's `dir /s > FILE` writes it): refuse with the fix. */
static int utf16_bom(const unsigned char *p, size_t n)
{
	return n >= 2 && ((p[0] == 0xff && p[1] == 0xfe) ||
			  (p[0] == 0xfe && p[1] == 0xff));
}

int listing_read(const char *path, struct listing_state *s,
		 struct estimate_dist *d, struct perr *e)
{
	int is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	listing_init(s, is_stdin ? "(stdin)" : path);
	if (!f)
		return perr_set(e, "cannot open '%s': %s", path, strerror(errno));
	while ((n = getline(&buf, &cap, f)) >= 0) {
		size_t len = (size_t)n;

		if (len && buf[len - 1] == '\n')
			len--;
		if (s->line == 0 && utf16_bom((unsigned char *)buf, len)) {
			rc = perr_set(e, "%s: UTF-16 text (PowerShell redirection?): convert it with 'iconv -f UTF-16 -t UTF-8' or list with cmd /c \"dir /s > FILE\"",
				      s->name);
			break;
		}
		if (listing_line(s, buf, len, d, e) < 0) {
			rc = -1;
			break;
		}
	}
	if (!rc && ferror(f))
		rc = perr_set(e, "cannot read '%s': %s", s->name, strerror(errno));
	free(buf);
	if (!is_stdin)
		fclose(f);
	if (!rc)
		rc = listing_finish(s, e);
	return rc;
}
