/*
 * catalog_path.c - lookups in the counter catalog and counter paths
 * (catalog.h): "\\HOST\Object(Instance)\Counter" parsed and formatted.
 * The table itself is in catalog.c.
 */
#include "catalog.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

const struct counter_def *catalog_counter_at(enum counter_object obj,
					     int index)
{
	if ((int)obj < 0 || obj >= OBJ_COUNT || index < 0 ||
	    index >= catalog_objects[obj].ncounters)
		return NULL;
	int at = index;

	/* The table is in object order, each object's counters by index:
	 * the counter is the sum of the objects' counters before it on. The
	 * writer asks for each value of each file at every sample (a scan
	 * of the table each was 17,000 instructions a sample, callgrind):
	 * the scan stays for a table someone reorders. */
	for (int o = 0; o < (int)obj; o++)
		at += catalog_objects[o].ncounters;
	if (at < CTR_COUNT && catalog_counters[at].object == obj &&
	    catalog_counters[at].index == index)
		return &catalog_counters[at];
	for (int i = 0; i < CTR_COUNT; i++)
		if (catalog_counters[i].object == obj &&
		    catalog_counters[i].index == index)
			return &catalog_counters[i];
	return NULL;
}

/* Case-insensitive compare of a counted string with a C string. */
static int name_eq(const char *s, size_t len, const char *name)
{
	return strlen(name) == len && strncasecmp(s, name, len) == 0;
}

static const struct object_def *find_object_n(const char *s, size_t len)
{
	for (int i = 0; i < OBJ_COUNT; i++)
		if (name_eq(s, len, catalog_objects[i].name))
			return &catalog_objects[i];
	return NULL;
}

static const struct counter_def *find_counter_n(enum counter_object obj,
						const char *s, size_t len)
{
	for (int i = 0; i < CTR_COUNT; i++)
		if (catalog_counters[i].object == obj &&
		    name_eq(s, len, catalog_counters[i].name))
			return &catalog_counters[i];
	return NULL;
}

const struct object_def *catalog_find_object(const char *object)
{
	if (!object)
		return NULL;
	return find_object_n(object, strlen(object));
}

const struct counter_def *catalog_find(const char *object, const char *counter)
{
	const struct object_def *o = catalog_find_object(object);

	if (!o || !counter)
		return NULL;
	return find_counter_n(o->object, counter, strlen(counter));
}

/* Longest piece of user input quoted back in an error message. */
#define QUOTE_MAX 80

/* The optional "\\HOST\" or "\" prefix of text: host into out->host;
 * *rest after it. 0 or -1 with e set. */
static int parse_host(const char *text, struct counter_path *out,
		      const char **rest, struct perr *e)
{
	const char *p = text;

	if (p[0] == '\\' && p[1] == '\\') {
		const char *h = p + 2, *hend = strchr(h, '\\');

		if (!hend || hend == h)
			return perr_set(e, "malformed counter path '%.*s': "
					"expected \\\\HOST\\Object\\Counter",
					QUOTE_MAX, text);
		if ((size_t)(hend - h) >= sizeof(out->host))
			return perr_set(e, "host name too long in '%.*s'",
					QUOTE_MAX, text);
		for (const char *c = h; c < hend; c++)
			if (*c == '(' || *c == ')' || (unsigned char)*c < ' ')
				return perr_set(e, "malformed host name in "
						"'%.*s'", QUOTE_MAX, text);
		memcpy(out->host, h, (size_t)(hend - h));
		out->host[hend - h] = '\0';
		p = hend + 1;
	} else if (p[0] == '\\') {
		p++;
	}
	*rest = p;
	return 0;
}

/* The instance between open and end ("(...)" before the last backslash)
 * into out->instance. 0 or -1 with e set. */
static int parse_instance(const char *text, const struct object_def *obj,
			  const char *open, const char *end,
			  struct counter_path *out, struct perr *e)
{
	const char *inst = open + 1;
	size_t instlen;

	if (end[-1] != ')' || end - 1 < inst)
		return perr_set(e, "malformed counter path '%.*s': "
				"unbalanced parentheses", QUOTE_MAX, text);
	if (!obj->has_instances)
		return perr_set(e, "object '%s' has no instances", obj->name);
	instlen = (size_t)(end - 1 - inst);
	if (instlen == 0)
		return perr_set(e, "empty instance in '%.*s'", QUOTE_MAX, text);
	if (instlen >= sizeof(out->instance))
		return perr_set(e, "instance name too long in '%.*s'",
				QUOTE_MAX, text);
	/* a backslash is allowed: SMB shares are named \\server\share, as
	 * perfmon's own SMB Client Shares object names them; the counter
	 * name after the last backslash holds none */
	for (size_t i = 0; i < instlen; i++)
		if ((unsigned char)inst[i] < ' ')
			return perr_set(e, "malformed instance in '%.*s'",
					QUOTE_MAX, text);
	memcpy(out->instance, inst, instlen);
	out->instance[instlen] = '\0';
	return 0;
}

int catalog_parse_path(const char *text, struct counter_path *out,
		       struct perr *e)
{
	const char *p = text, *last_bs, *end, *open, *cname;
	const struct object_def *obj;
	size_t objlen, clen;

	if (!text || !out)
		return perr_set(e, "missing counter path");
	memset(out, 0, sizeof(*out));
	if (!*text)
		return perr_set(e, "empty counter path");
	if (parse_host(text, out, &p, e) < 0)
		return -1;

	/* Counter names hold no backslash: the last one ends the object part. */
	last_bs = strrchr(p, '\\');
	if (!last_bs || last_bs == p)
		return perr_set(e, "malformed counter path '%.*s': expected "
				"Object(Instance)\\Counter", QUOTE_MAX, text);
	if (!last_bs[1])
		return perr_set(e, "malformed counter path '%.*s': no counter "
				"name", QUOTE_MAX, text);

	end = last_bs;
	open = memchr(p, '(', (size_t)(end - p));
	objlen = (size_t)((open ? open : end) - p);
	if (objlen == 0)
		return perr_set(e, "malformed counter path '%.*s': no object "
				"name", QUOTE_MAX, text);
	if (memchr(p, '\\', objlen) || memchr(p, ')', objlen))
		return perr_set(e, "malformed counter path '%.*s'", QUOTE_MAX,
				text);
	obj = find_object_n(p, objlen);
	if (!obj)
		return perr_set(e, "unknown object '%.*s'",
				(int)(objlen > QUOTE_MAX ? QUOTE_MAX : objlen),
				p);
	if (open) {
		if (parse_instance(text, obj, open, end, out, e) < 0)
			return -1;
	} else if (obj->has_instances) {
		return perr_set(e, "object '%s' takes an instance, e.g. "
				"'%s(_Total)' or '%s(*)'", obj->name, obj->name,
				obj->name);
	}
	cname = last_bs + 1;
	clen = strlen(cname);
	out->def = find_counter_n(obj->object, cname, clen);
	if (!out->def)
		return perr_set(e, "unknown counter '%.*s' of object '%s'",
				(int)(clen > QUOTE_MAX ? QUOTE_MAX : clen),
				cname, obj->name);
	return 0;
}

char *catalog_format_path(char *buf, size_t n, const struct counter_def *def,
			  const char *instance)
{
	const struct object_def *o;

	if (!buf || n == 0)
		return buf;
	if (!def) {
		buf[0] = '\0';
		return buf;
	}
	o = &catalog_objects[def->object];
	if (o->has_instances)
		snprintf(buf, n, "%s(%s)\\%s", o->name,
			 instance ? instance : "", def->name);
	else
		snprintf(buf, n, "%s\\%s", o->name, def->name);
	return buf;
}

const char *catalog_unit_label(enum counter_unit u)
{
	switch (u) {
	case UNIT_PERCENT: return "%";
	case UNIT_BYTES_SEC: return "B/s";
	case UNIT_PER_SEC: return "/s";
	case UNIT_BYTES: return "B";
	case UNIT_SECONDS: return "s";
	case UNIT_BITS_SEC: return "bit/s";
	case UNIT_COUNT: return "";
	case UNIT_MILLISECONDS: return "ms";
	}
	return "";
}
