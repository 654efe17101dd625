/*
 * meta.c - perflog.meta, the log set's metadata (format in logset.h), and
 * the RRD file naming rule.
 *
 * Example (tabs between key and value):
 *
 *   # perflog log set metadata; see logs/logset.h
 *   format	1
 *   version	0.1.0
 *   host	backup01
 *   os	Linux 6.1.0-18-amd64 x86_64
 *   source	nmon tsmsrv_261130_0450.nmon, local time read as Europe/Berlin
 *   start	2026-11-30T04:50:10Z
 *   stop	2026-11-30T05:20:10Z
 *   interval	5
 *   retention	172800
 *   counter	Processor(_Total)\% Processor Time	Processor-_Total.rrd	processor_time
 *
 * Parsing rules: "format" must be the first line that is not blank or a
 * comment, so a newer format is refused before anything in it can be
 * misread; unknown keys are ignored (a newer perflog of the same format may
 * add some); a repeated key other than "counter" is an error; "host",
 * "start" and "interval" are required. Every error is one line
 * "NAME:LINE: why". The parser must survive garbage (it is fuzzed).
 */
#define _GNU_SOURCE
#include "logset.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/strbuf.h"

char *logset_file_name(char *buf, size_t n, enum counter_object obj,
		       const char *instance)
{
	const char *stem = (unsigned)obj < OBJ_COUNT ?
		catalog_objects[obj].file : "unknown";
	size_t len;

	if (instance && *instance)
		snprintf(buf, n, "%s-%s.rrd", stem, instance);
	else
		snprintf(buf, n, "%s.rrd", stem);
	/* the instance is whatever the kernel calls a device: keep file
	 * names portable and free of '/' */
	len = strlen(buf);
	for (size_t i = 0; i < len; i++) {
		char c = buf[i];

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == '-'))
			buf[i] = '_';
	}
	return buf;
}

void logset_meta_free(struct logset_meta *m)
{
	if (!m)
		return;
	free(m->counters);
	m->counters = NULL;
	m->ncounters = 0;
}

/* ---- formatting ---- */

char *logset_meta_format(const struct logset_meta *m)
{
	struct strbuf b = STRBUF_INIT;
	char t[40];

	strbuf_printf(&b, "# perflog log set metadata; see logs/logset.h\n");
	strbuf_printf(&b, "format\t%d\n", m->format ? m->format : LOGSET_FORMAT);
	strbuf_printf(&b, "version\t%s\n", m->version);
	strbuf_printf(&b, "host\t%s\n", m->host);
	strbuf_printf(&b, "os\t%s\n", m->os);
	if (m->source[0])
		strbuf_printf(&b, "source\t%s\n", m->source);
	strbuf_printf(&b, "start\t%s\n", util_iso8601(t, sizeof(t), m->start, -1));
	if (m->stop)
		strbuf_printf(&b, "stop\t%s\n",
			      util_iso8601(t, sizeof(t), m->stop, -1));
	strbuf_printf(&b, "interval\t%u\n", m->interval);
	strbuf_printf(&b, "retention\t%lu\n", m->retention);
	for (size_t i = 0; i < m->ncounters; i++)
		strbuf_printf(&b, "counter\t%s\t%s\t%s\n", m->counters[i].path,
			      m->counters[i].file, m->counters[i].ds);
	return strbuf_detach(&b, NULL);
}

/* ---- parsing ---- */

/* A value fit for the file: printable, no tab. */
static int clean_value(const char *v)
{
	for (const unsigned char *p = (const unsigned char *)v; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

static int parse_ulong(const char *v, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long x;

	if (*v < '0' || *v > '9')
		return -1;
	errno = 0;
	x = strtoul(v, &end, 10);
	if (errno || *end || x > max)
		return -1;
	*out = x;
	return 0;
}

static int valid_file(const char *f)
{
	size_t n = strlen(f);

	if (n < 5 || strcmp(f + n - 4, ".rrd") || f[0] == '.')
		return 0;
	for (const char *p = f; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' ||
		      *p == '-'))
			return 0;
	return 1;
}

static int valid_ds(const char *d)
{
	size_t n = strlen(d);

	if (n < 1 || n > 19)
		return 0;
	for (const char *p = d; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return 1;
}

/* The log set a metadata file belongs to, for the format message. */
static void set_name(const char *name, char *buf, size_t n)
{
	size_t len = strlen(name), ml = strlen("/" LOGSET_META);

	util_strlcpy(buf, name, n);
	if (len > ml && !strcmp(name + len - ml, "/" LOGSET_META) &&
	    len - ml < n)
		buf[len - ml] = '\0';
}

static int parse_counter(char *v, const char *name, int line,
			 struct logset_meta *m, struct perr *e)
{
	char *f1 = strchr(v, '\t'), *f2;
	struct counter_path cp;
	struct perr ce;
	struct logset_counter *c, *nc;

	if (!f1 || !(f2 = strchr(f1 + 1, '\t')) || strchr(f2 + 1, '\t'))
		return perr_set(e, "%s:%d: counter line wants PATH<TAB>FILE<TAB>DS",
				name, line);
	*f1++ = '\0';
	*f2++ = '\0';
	if (catalog_parse_path(v, &cp, &ce) < 0)
		return perr_set(e, "%s:%d: %s", name, line, ce.msg);
	if (!strcmp(cp.instance, "*"))
		return perr_set(e, "%s:%d: counter '%s' has a wildcard instance",
				name, line, v);
	if (!valid_file(f1))
		return perr_set(e, "%s:%d: bad RRD file name '%s'", name, line,
				f1);
	if (!valid_ds(f2))
		return perr_set(e, "%s:%d: bad data source name '%s'", name,
				line, f2);
	for (size_t i = 0; i < m->ncounters; i++)
		if (!strcasecmp(m->counters[i].path, v))
			return perr_set(e, "%s:%d: counter '%s' listed twice",
					name, line, v);
	nc = realloc(m->counters, (m->ncounters + 1) * sizeof(*nc));
	if (!nc)
		return perr_set(e, "%s:%d: out of memory", name, line);
	m->counters = nc;
	c = &nc[m->ncounters];
	memset(c, 0, sizeof(*c));
	c->def = cp.def;
	if (util_strlcpy(c->path, v, sizeof(c->path)) < 0 ||
	    util_strlcpy(c->instance, cp.instance, sizeof(c->instance)) < 0 ||
	    util_strlcpy(c->file, f1, sizeof(c->file)) < 0 ||
	    util_strlcpy(c->ds, f2, sizeof(c->ds)) < 0)
		return perr_set(e, "%s:%d: counter line too long", name, line);
	m->ncounters++;
	return 0;
}

enum { K_FORMAT, K_VERSION, K_HOST, K_OS, K_SOURCE, K_START, K_STOP,
       K_INTERVAL, K_RETENTION, K_NKEYS };
static const char *const keys[K_NKEYS] = {
	"format", "version", "host", "os", "source", "start", "stop",
	"interval", "retention",
};

static int parse_line(char *key, char *v, const char *name, int line,
		      int *seen, struct logset_meta *m, struct perr *e)
{
	unsigned long x;
	int k;

	if (!strcmp(key, "counter"))
		return parse_counter(v, name, line, m, e);
	for (k = 0; k < K_NKEYS; k++)
		if (!strcmp(key, keys[k]))
			break;
	if (k == K_NKEYS)
		return 0;	/* unknown key: from a newer perflog, ignored */
	if (seen[k])
		return perr_set(e, "%s:%d: '%s' given twice", name, line, key);
	seen[k] = line;
	if (!clean_value(v))
		return perr_set(e, "%s:%d: control character in '%s'", name,
				line, key);
	switch (k) {
	case K_VERSION:
		if (util_strlcpy(m->version, v, sizeof(m->version)) < 0)
			return perr_set(e, "%s:%d: version too long", name, line);
		break;
	case K_HOST:
		if (!*v)
			return perr_set(e, "%s:%d: empty host", name, line);
		if (util_strlcpy(m->host, v, sizeof(m->host)) < 0)
			return perr_set(e, "%s:%d: host too long", name, line);
		break;
	case K_OS:
		if (util_strlcpy(m->os, v, sizeof(m->os)) < 0)
			return perr_set(e, "%s:%d: os too long", name, line);
		break;
	case K_SOURCE:
		if (util_strlcpy(m->source, v, sizeof(m->source)) < 0)
			return perr_set(e, "%s:%d: source too long", name, line);
		break;
	case K_START:
	case K_STOP: {
		time_t t;

		if (util_parse_iso8601(v, &t, NULL) < 0)
			return perr_set(e, "%s:%d: bad %s time '%s' (want ISO 8601 UTC such as 2026-11-30T04:50:10Z)",
					name, line, key, v);
		if (k == K_START)
			m->start = t;
		else
			m->stop = t;
		break;
	}
	case K_INTERVAL:
		if (parse_ulong(v, 86400, &x) < 0 || x == 0)
			return perr_set(e, "%s:%d: bad interval '%s' (want whole seconds, 1 to 86400)",
					name, line, v);
		m->interval = (unsigned)x;
		break;
	case K_RETENTION:
		if (parse_ulong(v, 100UL * 365 * 86400, &x) < 0)
			return perr_set(e, "%s:%d: bad retention '%s' (want seconds)",
					name, line, v);
		m->retention = x;
		break;
	}
	return 0;
}

int logset_meta_parse(const char *text, const char *name,
		      struct logset_meta *m, struct perr *e)
{
	int seen[K_NKEYS] = { 0 };
	int line = 0, have_format = 0, rc = -1;
	char *copy, *p;

	memset(m, 0, sizeof(*m));
	if (!name)
		name = LOGSET_META;
	copy = strdup(text);
	if (!copy)
		return perr_set(e, "%s: out of memory", name);
	p = copy;
	while (*p) {
		char *nl = strchr(p, '\n'), *tab;

		line++;
		if (nl)
			*nl = '\0';
		if (nl && nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		if (*p == '\0' || *p == '#')
			goto next;
		tab = strchr(p, '\t');
		if (!tab) {
			perr_set(e, "%s:%d: expected KEY<TAB>VALUE", name, line);
			goto out;
		}
		*tab = '\0';
		if (!have_format) {
			unsigned long f;

			if (strcmp(p, "format")) {
				perr_set(e, "%s:%d: expected 'format' first, not '%.40s'",
					 name, line, p);
				goto out;
			}
			if (parse_ulong(tab + 1, INT_MAX, &f) < 0 || f == 0) {
				perr_set(e, "%s:%d: bad format '%.40s'", name,
					 line, tab + 1);
				goto out;
			}
			if (f > LOGSET_FORMAT) {
				char set[512];

				set_name(name, set, sizeof(set));
				perr_set(e, "log set '%s' has format %lu; this perflog reads up to %d",
					 set, f, LOGSET_FORMAT);
				goto out;
			}
			m->format = (int)f;
			seen[K_FORMAT] = line;
			have_format = 1;
			goto next;
		}
		if (parse_line(p, tab + 1, name, line, seen, m, e) < 0)
			goto out;
next:
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!have_format) {
		perr_set(e, "%s: no 'format' line (not a perflog log set?)", name);
		goto out;
	}
	if (!seen[K_HOST] || !seen[K_START] || !seen[K_INTERVAL]) {
		perr_set(e, "%s: missing '%s'", name,
			 !seen[K_HOST] ? "host" : !seen[K_START] ? "start" : "interval");
		goto out;
	}
	if (m->stop && m->stop < m->start) {
		perr_set(e, "%s:%d: stop is before start", name, seen[K_STOP]);
		goto out;
	}
	rc = 0;
out:
	free(copy);
	if (rc < 0)
		logset_meta_free(m);
	return rc;
}
