/*
 * settings.c - the counter-log settings file, see settings.h.
 *
 * The seed kit logged whole perfmon objects (Processor, Logical disk,
 * Memory, Network Interface) and charted a few of their counters, so the
 * built-in default logs every counter of those objects plus System, and
 * Pressure and TCP, which see limits no utilization shows (DESIGN's
 * required set), and where backups land (NFS mounts, SMB shares, tape
 * drives, FC ports: nothing is logged for those a host has none of); a
 * settings file may name single counters or a whole
 * object with "\*".
 */
#define _GNU_SOURCE
#include "settings.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const settings_default_counters[] = {
	"\\Processor(*)\\*",
	"\\LogicalDisk(*)\\*",
	"\\Memory\\*",
	"\\Network Interface(*)\\*",
	"\\System\\*",
	"\\Pressure(*)\\*",
	"\\TCP\\*",
	/* where backups land: logged when present (counters/README.md) */
	"\\NFS Client(*)\\*",
	"\\CIFS Share(*)\\*",
	"\\Tape(*)\\*",
	"\\FC Port(*)\\*",
	NULL,
};

static int add_sel(struct settings *s, const struct counter_path *p, int line)
{
	struct counter_sel *n = realloc(s->sel, (s->nsel + 1) * sizeof(*n));

	if (!n)
		return -1;
	s->sel = n;
	s->sel[s->nsel].path = *p;
	s->sel[s->nsel].line = line;
	s->nsel++;
	return 0;
}

/* A counter line: one path, or "Object(Instance)\*" for every counter of
 * the object (perfmon's own notation for logging a whole object). */
static int add_counter_line(struct settings *s, const char *text,
			    const char *where, int line, struct perr *e)
{
	size_t len = strlen(text);
	struct perr pe;

	if (len >= 2 && text[len - 1] == '*' && text[len - 2] == '\\') {
		/* whole object: parse it with its first counter's name, then
		 * add every counter of the object */
		char buf[512];
		struct counter_path p;
		const struct counter_def *first = NULL;
		const char *open = strchr(text, '(');
		char objname[128];
		const char *start = text;
		const struct object_def *od;
		size_t olen;

		while (*start == '\\')
			start++;
		/* a "\\HOST\" prefix: skip to the object part */
		if (text[0] == '\\' && text[1] == '\\') {
			const char *slash = strchr(text + 2, '\\');

			if (!slash)
				return perr_set(e, "%s:%d: malformed counter path '%s'",
						where, line, text);
			start = slash + 1;
		}
		olen = (open && open < text + len - 2 ? (size_t)(open - start)
						      : (size_t)(text + len - 2 - start));
		if (olen == 0 || olen >= sizeof(objname))
			return perr_set(e, "%s:%d: malformed counter path '%s'",
					where, line, text);
		memcpy(objname, start, olen);
		objname[olen] = '\0';
		od = catalog_find_object(objname);
		if (!od)
			return perr_set(e, "%s:%d: unknown object '%s'", where,
					line, objname);
		first = catalog_counter_at(od->object, 0);
		if (!first || len - 1 + strlen(first->name) >= sizeof(buf))
			return perr_set(e, "%s:%d: malformed counter path '%s'",
					where, line, text);
		memcpy(buf, text, len - 1);
		strcpy(buf + len - 1, first->name);
		if (catalog_parse_path(buf, &p, &pe) < 0)
			return perr_set(e, "%s:%d: %s", where, line, pe.msg);
		for (int i = 0; i < od->ncounters; i++) {
			p.def = catalog_counter_at(od->object, i);
			if (add_sel(s, &p, line) < 0)
				return perr_set(e, "out of memory");
		}
		return 0;
	} else {
		struct counter_path p;

		if (catalog_parse_path(text, &p, &pe) < 0)
			return perr_set(e, "%s:%d: %s", where, line, pe.msg);
		if (add_sel(s, &p, line) < 0)
			return perr_set(e, "out of memory");
	}
	return 0;
}

int settings_parse_interval(const char *arg, unsigned *out, struct perr *e)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end != '\0' || errno)
		return perr_set(e, "interval '%s' is not a whole number of seconds",
				arg);
	if (v < 1)
		return perr_set(e, "interval '%s' must be at least 1 second",
				arg);
	if (v > 86400)
		return perr_set(e, "interval '%s' is longer than a day", arg);
	*out = (unsigned)v;
	return 0;
}

int settings_parse_output(const char *arg, unsigned long long *out,
			  struct perr *e)
{
	unsigned long long v;

	if (util_parse_size(arg, &v) < 0 || v > (1ULL << 30))
		return perr_set(e, "output '%s' is not a size between 0 and 1G (e.g. 1M, 64K, 0)",
				arg);
	*out = v;
	return 0;
}

int settings_default(struct settings *s)
{
	memset(s, 0, sizeof(*s));
	s->interval = 5;
	strcpy(s->directory, "./logs");
	s->retention = 2 * 86400;
	s->flush = 60;
	s->output = 1ULL << 20;
	for (int i = 0; settings_default_counters[i]; i++)
		if (add_counter_line(s, settings_default_counters[i],
				     "built-in", 0, NULL) < 0)
			return -1;
	return 0;
}

static char *trim(char *p)
{
	char *end;

	while (isspace((unsigned char)*p))
		p++;
	end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return p;
}

static int set_run_key(struct settings *s, const char *key, const char *val,
		       const char *where, int line, struct perr *e)
{
	struct perr pe;

	if (!strcasecmp(key, "ssh")) {
		if (!*val || util_strlcpy(s->ssh, val, sizeof(s->ssh)) < 0)
			return perr_set(e, "%s:%d: ssh is empty or too long",
					where, line);
		return 0;
	}
	if (!strcasecmp(key, "server")) {
		char **nv;

		/* repeatable: one server a line */
		if (!*val || *val == ':' || *val == '-' ||
		    strlen(val) >= PATH_MAX || s->nservers >= 16)
			return perr_set(e, "%s:%d: server '%s': expected HOST[:DIR] (at most 16)",
					where, line, val);
		nv = realloc(s->servers, (s->nservers + 1) * sizeof(*nv));
		if (!nv || !(nv[s->nservers] = strdup(val))) {
			if (nv)
				s->servers = nv;
			return perr_set(e, "%s:%d: out of memory", where, line);
		}
		s->servers = nv;
		s->nservers++;
		return 0;
	}
	if (strcasecmp(key, "output"))
		return perr_set(e, "%s:%d: unknown key '%s' in [run]", where,
				line, key);
	if (settings_parse_output(val, &s->output, &pe) < 0)
		return perr_set(e, "%s:%d: %s", where, line, pe.msg);
	return 0;
}

/* [server] daemons = sshd rsync ...: command names (1 to 15 bytes, as
 * /proc/PID/stat has them), blanks or commas between, into a comma
 * list. */
static int set_server_key(struct settings *s, const char *key,
			  const char *val, const char *where, int line,
			  struct perr *e)
{
	char buf[sizeof(s->daemons)];

	if (strcasecmp(key, "daemons"))
		return perr_set(e, "%s:%d: unknown key '%s' in [server]", where,
				line, key);
	if (util_strlcpy(buf, val, sizeof(buf)) < 0)
		return perr_set(e, "%s:%d: daemons: too long", where, line);
	s->daemons[0] = '\0';
	for (char *save = NULL, *w = strtok_r(buf, " \t,", &save); w;
	     w = strtok_r(NULL, " \t,", &save))
		if (strlen(w) > 15 || strchr(w, '/') ||
		    (!util_list_has(s->daemons, w) &&
		     !util_list_add(s->daemons, sizeof(s->daemons), w)))
			return perr_set(e, "%s:%d: daemons: '%s' is not a command name of 1 to 15 bytes (or the list is too long)",
					where, line, w);
	return 0;
}

static int set_log_key(struct settings *s, const char *key, const char *val,
		       const char *where, int line, struct perr *e)
{
	struct perr pe;

	if (!strcasecmp(key, "interval")) {
		if (settings_parse_interval(val, &s->interval, &pe) < 0)
			return perr_set(e, "%s:%d: %s", where, line, pe.msg);
	} else if (!strcasecmp(key, "directory")) {
		if (!*val || util_strlcpy(s->directory, val,
					  sizeof(s->directory)) < 0)
			return perr_set(e, "%s:%d: directory is empty or too long",
					where, line);
	} else if (!strcasecmp(key, "name")) {
		if (strchr(val, '/') || !strcmp(val, ".") || !strcmp(val, "..") ||
		    util_strlcpy(s->name, val, sizeof(s->name)) < 0)
			return perr_set(e, "%s:%d: name '%s' is not a plain file name",
					where, line, val);
	} else if (!strcasecmp(key, "retention")) {
		unsigned long r;

		if (util_parse_duration(val, &r) < 0 || r < 60 ||
		    r > 366UL * 86400)
			return perr_set(e, "%s:%d: retention '%s' is not a duration between 1m and 366d (e.g. 2d, 12h)",
					where, line, val);
		s->retention = r;
	} else if (!strcasecmp(key, "flush")) {
		unsigned long f;

		if (util_parse_duration(val, &f) < 0 || f > 3600)
			return perr_set(e, "%s:%d: flush '%s' is not a duration between 0 and 1h (e.g. 60s, 0)",
					where, line, val);
		s->flush = f;
	} else if (!strcasecmp(key, "rrdcached")) {
		if (util_strlcpy(s->rrdcached, val, sizeof(s->rrdcached)) < 0)
			return perr_set(e, "%s:%d: rrdcached address too long",
					where, line);
	} else {
		return perr_set(e, "%s:%d: unknown key '%s' in [log]", where,
				line, key);
	}
	return 0;
}

int settings_parse(const char *text, const char *name, struct settings *s,
		   struct perr *e)
{
	enum { NONE, LOG, COUNTERS, RUN, SERVER } section = NONE;
	int line = 0, had_counters = 0;
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char buf[1024], *l;

		line++;
		if (len >= sizeof(buf))
			return perr_set(e, "%s:%d: line too long", name, line);
		memcpy(buf, p, len);
		buf[len] = '\0';
		p += len + (nl ? 1 : 0);
		if (memchr(buf, '\0', len))
			return perr_set(e, "%s:%d: NUL byte in line", name, line);
		/* '#' starts a comment only at the start of a line or after
		 * white space: counter names contain no '#', but keep paths
		 * intact anyway */
		for (char *c = buf; *c; c++)
			if (*c == '#' && (c == buf || isspace((unsigned char)c[-1]))) {
				*c = '\0';
				break;
			}
		l = trim(buf);
		if (!*l)
			continue;
		if (*l == '[') {
			if (!strcasecmp(l, "[log]"))
				section = LOG;
			else if (!strcasecmp(l, "[run]"))
				section = RUN;
			else if (!strcasecmp(l, "[server]"))
				section = SERVER;
			else if (!strcasecmp(l, "[counters]")) {
				section = COUNTERS;
				if (!had_counters) {
					/* a [counters] section replaces the
					 * built-in set */
					free(s->sel);
					s->sel = NULL;
					s->nsel = 0;
					had_counters = 1;
				}
			} else
				return perr_set(e, "%s:%d: unknown section '%s' (expected [log], [counters], [run] or [server])",
						name, line, l);
			continue;
		}
		if (section == LOG || section == RUN || section == SERVER) {
			char *eq = strchr(l, '=');

			if (!eq)
				return perr_set(e, "%s:%d: expected 'key = value'",
						name, line);
			*eq = '\0';
			if ((section == LOG ? set_log_key : section == RUN ?
			     set_run_key : set_server_key)(
				    s, trim(l), trim(eq + 1), name, line, e) < 0)
				return -1;
		} else if (section == COUNTERS) {
			if (add_counter_line(s, l, name, line, e) < 0)
				return -1;
		} else {
			return perr_set(e, "%s:%d: text before any section ([log] or [counters])",
					name, line);
		}
	}
	if (had_counters && s->nsel == 0)
		return perr_set(e, "%s: the [counters] section names no counter",
				name);
	return 0;
}

int settings_load(const char *file, struct settings *s, struct perr *e)
{
	size_t len;
	char *text = util_read_file(file, &len);
	char *nul;
	int r;

	if (!text)
		return perr_set(e, "unable to read settings '%s': %s", file,
				strerror(errno));
	/* a NUL byte (a binary file, corruption) would silently end the
	 * text there: refuse it, naming its line */
	nul = memchr(text, '\0', len);
	if (nul) {
		int line = 1;

		for (const char *p = text; p < nul; p++)
			line += *p == '\n';
		free(text);
		return perr_set(e, "%s:%d: NUL byte (not a text file?)", file,
				line);
	}
	util_strlcpy(s->source, file, sizeof(s->source));
	r = settings_parse(text, file, s, e);
	free(text);
	return r;
}

void settings_free(struct settings *s)
{
	for (size_t i = 0; i < s->nservers; i++)
		free(s->servers[i]);
	free(s->servers);
	s->servers = NULL;
	s->nservers = 0;
	free(s->sel);
	s->sel = NULL;
	s->nsel = 0;
}
