/*
 * markers.c - markers.tsv: escaping, appending, parsing, sessions (see
 * markers.h for the format).
 *
 * Appending is the part that must never go wrong: several processes (the
 * collector, `perflog mark`, a backup script marking its own phases) may
 * append at once, and the collector may be killed or the disk full at any
 * moment. So one marker is one write() of the whole line on an O_APPEND
 * descriptor, under an exclusive flock (belt and braces: O_APPEND alone
 * keeps small writes whole on local file systems, the lock covers NFS and
 * the truncate below), then fdatasync. A short write (disk full) is undone
 * by truncating back to the size seen under the lock, so a reader never
 * meets half a line.
 *
 * Parsing is tolerant: a malformed line is skipped and counted, the first
 * one remembered as "FILE:LINE: why", because markers.tsv may have been
 * edited by hand or come from a newer perflog.
 *
 * Session pairing rule (markers_sessions): markers are taken in file order.
 * A begin opens session NAME unless NAME is already open, in which case
 * that repeated begin is ignored (the first begin stays open until an end:
 * sessions of one name never overlap). An end closes the open session of
 * its name; an end with no open session is ignored. What is still open at
 * the end of the file is an open session (end == NULL).
 */
#define _GNU_SOURCE
#include "markers.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "logset.h"
#include "setdir.h"

static const char *const kind_names[] = {
	[MARK_POINT] = "point",
	[MARK_BEGIN] = "begin",
	[MARK_END] = "end",
};

const char *marker_kind_name(enum marker_kind k)
{
	if ((unsigned)k > MARK_END)
		return "?";
	return kind_names[k];
}

/* ---- escaping ---- */

/* Escaped length of s (without NUL). */
static size_t escaped_len(const char *s)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == '\t' || *p == '\n' || *p == '\r')
			n += 2;
		else if (*p < 0x20 || *p == 0x7f)
			n += 4;
		else
			n++;
	}
	return n;
}

/* Escape s into out (room for escaped_len(s)); returns the end. */
static char *escape_into(char *out, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '\\': *out++ = '\\'; *out++ = '\\'; break;
		case '\t': *out++ = '\\'; *out++ = 't'; break;
		case '\n': *out++ = '\\'; *out++ = 'n'; break;
		case '\r': *out++ = '\\'; *out++ = 'r'; break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				*out++ = '\\';
				*out++ = 'x';
				*out++ = hex[*p >> 4];
				*out++ = hex[*p & 15];
			} else {
				*out++ = (char)*p;
			}
		}
	}
	return out;
}

char *markers_escape(const char *s)
{
	char *out;

	if (!s)
		s = "";
	out = malloc(escaped_len(s) + 1);
	if (!out)
		return NULL;
	*escape_into(out, s) = '\0';
	return out;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Unescape s[0..len) into a malloc'ed string. NULL on a malformed escape
 * (a lone trailing backslash, an unknown letter, a bad or NUL \x) with
 * errno EINVAL, or out of memory. */
static char *unescape_n(const char *s, size_t len)
{
	char *out = malloc(len + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '\\') {
			*o++ = s[i];
			continue;
		}
		if (++i >= len)
			goto bad;
		switch (s[i]) {
		case '\\': *o++ = '\\'; break;
		case 't': *o++ = '\t'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 'x': {
			int hi, lo;

			if (i + 2 >= len)
				goto bad;
			hi = hexval(s[i + 1]);
			lo = hexval(s[i + 2]);
			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
				goto bad;
			*o++ = (char)(hi << 4 | lo);
			i += 2;
			break;
		}
		default:
			goto bad;
		}
	}
	*o = '\0';
	return out;
bad:
	free(out);
	errno = EINVAL;
	return NULL;
}

char *markers_unescape(const char *s)
{
	return unescape_n(s, strlen(s));
}

/* ---- formatting and appending ---- */

char *markers_format(double when, enum marker_kind kind, const char *session,
		     const char *text, const char *const *extra,
		     size_t nextra)
{
	char stamp[40];
	time_t t;
	int ms;
	size_t len;
	char *line, *p;

	if (!session)
		session = "";
	if (!text)
		text = "";
	if (!(when >= 0) || when > 253402300799.0)	/* year 9999 */
		when = 0;
	{
		/* to the nearest ms: 12.345 is 12.3449999... in binary */
		long long total = llround(when * 1000.0);

		t = (time_t)(total / 1000);
		ms = (int)(total % 1000);
	}
	util_iso8601(stamp, sizeof(stamp), t, ms);
	len = strlen(stamp) + 1 + strlen(marker_kind_name(kind)) + 1 +
	      escaped_len(session) + 1 + escaped_len(text) + 1;
	for (size_t i = 0; i < nextra; i++)
		len += 1 + escaped_len(extra[i] ? extra[i] : "");
	line = malloc(len + 1);
	if (!line)
		return NULL;
	p = line + sprintf(line, "%s\t%s\t", stamp, marker_kind_name(kind));
	p = escape_into(p, session);
	*p++ = '\t';
	p = escape_into(p, text);
	for (size_t i = 0; i < nextra; i++) {
		*p++ = '\t';
		p = escape_into(p, extra[i] ? extra[i] : "");
	}
	*p++ = '\n';
	*p = '\0';
	return line;
}

int markers_append(const char *dir, enum marker_kind kind,
		   const char *session, const char *text,
		   const char *const *extra, size_t nextra, struct perr *e)
{
	return markers_append_at(dir, util_walltime(), kind, session, text,
				 extra, nextra, e);
}

int markers_append_at(const char *dir, double when, enum marker_kind kind,
		      const char *session, const char *text,
		      const char *const *extra, size_t nextra, struct perr *e)
{
	char *line;
	int rc;

	if ((unsigned)kind > MARK_END)
		return perr_set(e, "invalid marker kind %d", (int)kind);
	line = markers_format(when, kind, session, text, extra, nextra);
	if (!line)
		return perr_set(e, "out of memory");
	rc = markers_append_line(dir, line, e);
	free(line);
	return rc;
}

int markers_append_line(const char *dir, const char *line, struct perr *e)
{
	char path[4096];
	size_t len = strlen(line);
	struct stat st;
	ssize_t n;
	int fd, rc = -1;

	if (snprintf(path, sizeof(path), "%s/%s", dir, LOGSET_MARKERS) >=
	    (int)sizeof(path))
		return perr_set(e, "path too long: '%s'", dir);
	/* never through a symlink planted in the set (setdir.h) */
	fd = setdir_open_file(dir, LOGSET_MARKERS,
			      O_WRONLY | O_APPEND | O_CREAT, 0644, e);
	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			perr_set(e, "unable to lock '%s': %s", path,
				 strerror(errno));
			goto out;
		}
	}
	if (fstat(fd, &st) < 0) {
		perr_set(e, "unable to stat '%s': %s", path, strerror(errno));
		goto out;
	}
	do
		n = write(fd, line, len);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)len) {
		int err = n < 0 ? errno : ENOSPC;

		/* take back a partial line: we hold the lock, so nobody
		 * appended after it */
		if (n > 0 && ftruncate(fd, st.st_size) < 0)
			err = errno;
		errno = err;
		perr_set(e, "unable to write '%s': %s", path, strerror(err));
		goto out;
	}
	if (fdatasync(fd) < 0) {
		perr_set(e, "unable to sync '%s': %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	close(fd);	/* releases the lock */
	return rc;
}

/* ---- parsing ---- */

static void marker_clear(struct marker *m)
{
	free(m->session);
	free(m->text);
	for (size_t i = 0; i < m->nextra; i++) {
		free(m->extra[i].key);
		free(m->extra[i].value);
	}
	free(m->extra);
	memset(m, 0, sizeof(*m));
}

void markers_free(struct marker_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		marker_clear(&l->m[i]);
	free(l->m);
	l->m = NULL;
	l->n = l->cap = 0;
}

static void bad_line(struct marker_list *out, const char *name, int line,
		     const char *why)
{
	if (out->bad_lines++ == 0)
		perr_set(&out->first_bad, "%s:%d: %s", name, line, why);
}

/* Parse one line (without newline) into m. Returns NULL or why not. */
static const char *parse_line(const char *s, size_t len, struct marker *m)
{
	const char *field[4];
	size_t flen[4];
	const char *p = s, *end = s + len;
	char stamp[40];

	memset(m, 0, sizeof(*m));
	for (int i = 0; i < 4; i++) {
		const char *tab = memchr(p, '\t', (size_t)(end - p));

		if (i < 3 && !tab)
			return "expected TIME, KIND, SESSION and TEXT separated by tabs";
		field[i] = p;
		flen[i] = tab ? (size_t)(tab - p) : (size_t)(end - p);
		p = tab ? tab + 1 : end;
		if (i == 3 && !tab)
			p = NULL;
	}
	if (flen[0] >= sizeof(stamp))
		return "bad time";
	memcpy(stamp, field[0], flen[0]);
	stamp[flen[0]] = '\0';
	if (util_parse_iso8601(stamp, &m->t, &m->ms) < 0)
		return "bad time (want ISO 8601 UTC such as 2026-11-30T04:50:12.345Z)";
	if (flen[1] == 5 && !memcmp(field[1], "point", 5))
		m->kind = MARK_POINT;
	else if (flen[1] == 5 && !memcmp(field[1], "begin", 5))
		m->kind = MARK_BEGIN;
	else if (flen[1] == 3 && !memcmp(field[1], "end", 3))
		m->kind = MARK_END;
	else
		return "unknown kind (want begin, end or point)";
	m->session = unescape_n(field[2], flen[2]);
	if (!m->session)
		return errno == ENOMEM ? "out of memory" : "bad escape in session";
	m->text = unescape_n(field[3], flen[3]);
	if (!m->text)
		return errno == ENOMEM ? "out of memory" : "bad escape in text";
	/* KEY=VALUE extras; a field without '=' is kept with an empty value */
	while (p) {
		const char *tab = memchr(p, '\t', (size_t)(end - p));
		size_t fl = tab ? (size_t)(tab - p) : (size_t)(end - p);
		struct marker_extra *nx;
		char *kv, *eq;

		kv = unescape_n(p, fl);
		if (!kv)
			return errno == ENOMEM ? "out of memory" : "bad escape in extra field";
		nx = realloc(m->extra, (m->nextra + 1) * sizeof(*nx));
		if (!nx) {
			free(kv);
			return "out of memory";
		}
		m->extra = nx;
		eq = strchr(kv, '=');
		nx[m->nextra].key = kv;
		nx[m->nextra].value = strdup(eq ? eq + 1 : "");
		if (eq)
			*eq = '\0';
		if (!nx[m->nextra].value) {
			free(kv);
			return "out of memory";
		}
		m->nextra++;
		p = tab ? tab + 1 : NULL;
	}
	return NULL;
}

int markers_parse(const char *text, const char *name, struct marker_list *out)
{
	memset(out, 0, sizeof(*out));
	return markers_parse_more(text, name, out);
}

int markers_parse_more(const char *text, const char *name,
		       struct marker_list *out)
{
	int line = 0;
	const char *p = text;

	if (!name)
		name = LOGSET_MARKERS;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		struct marker m;
		const char *why;

		line++;
		if (len && p[len - 1] == '\r')	/* edited on Windows */
			len--;
		if (len == 0) {
			p = nl ? nl + 1 : p + strlen(p);
			continue;
		}
		why = parse_line(p, len, &m);
		if (why) {
			marker_clear(&m);
			bad_line(out, name, line, why);
		} else {
			if (out->n == out->cap) {
				size_t cap = out->cap ? out->cap * 2 : 16;
				struct marker *nm = realloc(out->m,
							    cap * sizeof(*nm));

				if (!nm) {
					marker_clear(&m);
					markers_free(out);
					return -1;
				}
				out->m = nm;
				out->cap = cap;
			}
			m.line = line;
			out->m[out->n++] = m;
		}
		p = nl ? nl + 1 : p + len;
	}
	return 0;
}

int markers_load(const char *dir, struct marker_list *out, struct perr *e)
{
	char path[4096];
	char *text;
	size_t len;
	int rc;

	memset(out, 0, sizeof(*out));
	if (snprintf(path, sizeof(path), "%s/%s", dir, LOGSET_MARKERS) >=
	    (int)sizeof(path))
		return perr_set(e, "path too long: '%s'", dir);
	{
		int dfd = setdir_open(dir, e), err;

		if (dfd < 0)
			return errno == ENOENT ? 0 : -1;
		text = setdir_read(dfd, LOGSET_MARKERS, &len);
		err = errno;
		close(dfd);
		errno = err;
	}
	if (!text) {
		if (errno == ENOENT)
			return 0;
		if (errno == ELOOP)
			return perr_set(e, "'%s' is a symbolic link (not followed)",
					path);
		return perr_set(e, "unable to read '%s': %s", path,
				strerror(errno));
	}
	/* a NUL byte (disk corruption) ends the text there: what follows is
	 * counted as nothing rather than misparsed */
	rc = markers_parse(text, path, out);
	free(text);
	if (rc < 0)
		return perr_set(e, "out of memory reading '%s'", path);
	for (size_t i = 0; i < out->n; i++) {
		struct perr fe;

		if (markers_read_figures(dir, &out->m[i], &fe) < 0)
			bad_line(out, path, out->m[i].line, fe.msg);
	}
	return 0;
}

/* ---- sessions ---- */

long markers_sessions(const struct marker_list *l, struct session **out)
{
	struct session *s = NULL;
	size_t n = 0;

	*out = NULL;
	if (l->n) {
		s = calloc(l->n, sizeof(*s));	/* at most one per begin */
		if (!s)
			return -1;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct marker *m = &l->m[i];
		size_t j;

		if (m->kind == MARK_POINT)
			continue;
		/* the open session of this name, if any (few sessions are
		 * open at once, so a backwards scan is cheap) */
		for (j = n; j-- > 0;)
			if (!s[j].end && !strcmp(s[j].name, m->session))
				break;
		if (m->kind == MARK_BEGIN) {
			if (j != (size_t)-1)
				continue;	/* repeated begin: ignored */
			s[n].name = m->session;
			s[n].begin = m;
			s[n].end = NULL;
			n++;
		} else if (j != (size_t)-1) {
			s[j].end = m;
		}
	}
	*out = s;
	return (long)n;
}

const struct marker *markers_open(const struct marker_list *l,
				  const char *name, char *names, size_t n)
{
	struct session *s = NULL;
	const struct marker *found = NULL;
	long ns = markers_sessions(l, &s);
	size_t len = 0;

	if (names && n)
		names[0] = '\0';
	for (long i = 0; i < ns; i++) {
		if (s[i].end)
			continue;
		if (!strcmp(s[i].name, name))
			found = s[i].begin;
		if (names && len < n) {
			int k = snprintf(names + len, n - len, "%s%s",
					 len ? ", " : "", s[i].name);

			len += k > 0 ? (size_t)k : 0;
		}
	}
	free(s);
	return found;
}

const char *marker_get(const struct marker *m, const char *key)
{
	for (size_t i = 0; i < m->nextra; i++)
		if (!strcmp(m->extra[i].key, key))
			return m->extra[i].value;
	return NULL;
}

double marker_num(const struct marker *m, const char *key)
{
	const char *v = m ? marker_get(m, key) : NULL;
	char *end;
	double d = v ? strtod(v, &end) : NAN;

	return v && end != v && !*end && isfinite(d) ? d : NAN;
}
