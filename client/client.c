/*
 * client.c - the table of backup clients, detection, the marker keys of
 * their figures, and the small readers every parser shares (client.h).
 *
 * Data flow: captured output -> client_detect (the command's client
 * first, then each in table order) -> NAME_parse -> client_list ->
 * client_extras -> the end marker; the report reads the marker back with
 * client_norm_of and client_print_own.
 */
#include "client.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>


const char *const client_norm_keys[CLN_COUNT] = {
	"read", "sent", "files", "duration", "rate", "errors",
};

const struct client_def client_table[] = {
	{ "dsmc", "dsmc dsmcad dsmadmc", "\"Total number of bytes transferred:\" ... (ADSM and Storage Protect)",
	  NULL, dsmc_parse },
	{ "restic", "restic", "\"Added to the repository:\", \"processed N files\"; --json: \"message_type\":\"summary\"",
	  restic_fields, restic_parse },
	{ "borg", "borg borgbackup", "--stats: \"This archive:\" sizes; --json: \"archive\" \"stats\"",
	  borg_fields, borg_parse },
	{ "rsync", "rsync", "--stats: \"Total bytes sent:\", \"sent N bytes ... bytes/sec\"",
	  rsync_fields, rsync_parse },
	{ "tar", "tar gtar", "--totals: \"Total bytes written:\" (or read)",
	  tar_fields, tar_parse },
	{ "bacula", "bconsole bacula-dir", "the director's job report: \"FD Bytes Written:\", \"Termination:\"",
	  bacula_fields, bacula_parse },
	{ "bareos", "bareos-dir", "the director's job report with \"Bareos binary info:\" or a Bareos header",
	  bacula_fields, bareos_parse },
	{ "netbackup", "bpbackup bpbkar bptm", "bptm/bpbkar \"waited for full|empty buffer N times, delayed M times\"",
	  netbackup_fields, netbackup_parse },
};
const size_t client_count = sizeof(client_table) / sizeof(client_table[0]);

const struct client_def *client_find(const char *name)
{
	for (size_t i = 0; name && i < client_count; i++)
		if (!strcmp(client_table[i].name, name))
			return &client_table[i];
	return NULL;
}

/* Is word (a base name) one of the space-separated names in list? */
static int in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; *p;) {
		size_t k = strcspn(p, " ");
		if (k == n && !strncmp(p, word, n))
			return 1;
		p += k;
		while (*p == ' ')
			p++;
	}
	return n == 0;
}

static const char *base_name(const char *s)
{
	const char *b = strrchr(s, '/');
	return b ? b + 1 : s;
}

const struct client_def *client_by_command(char *const argv[])
{
	/* wrappers and the options of theirs that take a value */
	static const char wrappers[] = "env nice ionice sudo doas time nohup chrt taskset stdbuf";
	static const char valued[] = "-n -c -u -g -p -C -o -e -i";
	int after_wrapper = 0;

	for (size_t i = 0; argv && argv[i]; i++) {
		const char *a = argv[i], *b = base_name(a);
		if (!*a)
			return NULL;
		if (in_list(wrappers, b)) {
			after_wrapper = 1;
			continue;
		}
		if (after_wrapper && a[0] == '-') {
			if (in_list(valued, a) && argv[i + 1])
				i++;
			continue;
		}
		if (after_wrapper && strchr(a, '=') && !strchr(a, '/'))
			continue;	/* env VAR=value */
		if (after_wrapper && isdigit((unsigned char)a[0]))
			continue;	/* chrt 10, taskset 0x3 */
		for (size_t k = 0; k < client_count; k++)
			if (in_list(client_table[k].commands, b))
				return &client_table[k];
		return NULL;
	}
	return NULL;
}

static long try_one(const struct client_def *d, const char *text, size_t len,
		    struct client_list *out)
{
	long n = d->parse(text, len, out);
	if (n > 0)
		out->def = d;
	return n;
}

long client_detect(const char *text, size_t len, const struct client_def *forced,
		   const struct client_def *hint, struct client_list *out)
{
	if (forced)
		return try_one(forced, text, len, out);
	if (hint) {
		long n = try_one(hint, text, len, out);
		if (n != 0)
			return n;
	}
	for (size_t i = 0; i < client_count; i++) {
		if (&client_table[i] == hint)
			continue;
		long n = try_one(&client_table[i], text, len, out);
		if (n != 0)
			return n;
	}
	return 0;
}

void client_list_free(struct client_list *l)
{
	free(l->s);
	summary_list_free(&l->dsmc);
	memset(l, 0, sizeof(*l));
}

int client_line_wanted(const char *line, size_t n)
{
	if (memchr(line, ':', n) || memchr(line, '{', n) || memchr(line, '}', n))
		return 1;
	/* rsync: "sent 3,052,705 bytes  received 625 bytes  6,106,660.00 bytes/sec" */
	return n > 5 && !memcmp(line, "sent ", 5);
}

/* ---- building summaries ---- */

void client_summary_init(struct client_summary *s)
{
	memset(s, 0, sizeof(*s));
	for (int k = 0; k < CLN_COUNT; k++)
		s->norm[k] = NAN;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

void client_add(struct client_summary *s, const struct client_field_def *def,
		const char *p, size_t n, double value)
{
	if (s->nf >= CLIENT_MAX_FIGURES || client_get(s, def) ||
	    (!isfinite(value) && !isnan(value)))
		return;
	while (n && is_blank(*p))
		p++, n--;
	while (n && is_blank(p[n - 1]))
		n--;
	struct client_figure *f = &s->f[s->nf++];
	f->def = def;
	f->value = value;
	if (n > CLIENT_PRINTED_MAX) {
		memcpy(f->printed, p, CLIENT_PRINTED_MAX - 3);
		memcpy(f->printed + CLIENT_PRINTED_MAX - 3, "...", 4);
		return;
	}
	memcpy(f->printed, p, n);
	f->printed[n] = '\0';
	/* a NUL or control byte inside would end or break the marker field's
	 * meaning: show it as '?' */
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)f->printed[i] < 0x20)
			f->printed[i] = '?';
}

const struct client_figure *client_get(const struct client_summary *s,
				       const struct client_field_def *def)
{
	for (size_t i = 0; i < s->nf; i++)
		if (s->f[i].def == def)
			return &s->f[i];
	return NULL;
}

void client_derive(struct client_summary *s)
{
	double bytes = !isnan(s->norm[CLN_READ]) ? s->norm[CLN_READ] : s->norm[CLN_SENT];
	if (isnan(s->norm[CLN_RATE]) && !isnan(bytes) &&
	    s->norm[CLN_DURATION] > 0) {
		s->norm[CLN_RATE] = bytes / s->norm[CLN_DURATION];
		s->derived |= 1u << CLN_RATE;
	}
	if (isnan(s->norm[CLN_DURATION]) && !isnan(bytes) && s->norm[CLN_RATE] > 0) {
		s->norm[CLN_DURATION] = bytes / s->norm[CLN_RATE];
		s->derived |= 1u << CLN_DURATION;
	}
}

int client_push(struct client_list *l, const struct client_summary *s)
{
	if (util_grow(&l->s, &l->cap, l->n + 1, sizeof(*l->s)) < 0)
		return -1;
	l->s[l->n++] = *s;
	return 0;
}

/* ---- reading ---- */

int client_next_line(const char *text, size_t len, size_t *pos,
		     const char **line, size_t *n)
{
	if (*pos >= len)
		return 0;
	const char *p = text + *pos;
	const char *nl = memchr(p, '\n', len - *pos);
	size_t k = nl ? (size_t)(nl - p) : len - *pos;
	*pos += k + (nl != NULL);
	if (k && p[k - 1] == '\r')
		k--;
	*line = p;
	*n = k;
	return 1;
}

int client_label(const char *line, size_t n, const char *label,
		 const char **v, size_t *vn)
{
	size_t i = 0, l = strlen(label);
	while (i < n && is_blank(line[i]))
		i++;
	if (n - i < l || memcmp(line + i, label, l))
		return 0;
	i += l;
	while (i < n && is_blank(line[i]))
		i++;
	if (i >= n || line[i] != ':')
		return 0;
	i++;
	while (i < n && is_blank(line[i]))
		i++;
	*v = line + i;
	*vn = n - i;
	return 1;
}

size_t client_number(const char *p, size_t n, double *v)
{
	return client_number_dec(p, n, '.', v);
}

size_t client_number_dec(const char *p, size_t n, char dec, double *v)
{
	const char group = dec == ',' ? '.' : ',';
	char buf[48];
	size_t i = 0, k = 0;
	int dot = 0, digits = 0;

	while (i < n && i < 40) {
		char c = p[i];
		if (isdigit((unsigned char)c)) {
			buf[k++] = c;
			digits++;
		} else if (c == group && !dot && digits && i + 3 < n &&
			   isdigit((unsigned char)p[i + 1]) &&
			   isdigit((unsigned char)p[i + 2]) &&
			   isdigit((unsigned char)p[i + 3]) &&
			   (i + 4 >= n || !isdigit((unsigned char)p[i + 4]))) {
			/* a thousands group: ',' and exactly three digits */
		} else if (c == dec && !dot && digits && i + 1 < n &&
			   isdigit((unsigned char)p[i + 1])) {
			buf[k++] = '.';
			dot = 1;
		} else {
			break;
		}
		i++;
	}
	if (!digits || i >= 40)
		return 0;
	buf[k] = '\0';
	char *end;
	*v = strtod(buf, &end);
	return isfinite(*v) ? i : 0;
}

size_t client_size(const char *p, size_t n, double *v)
{
	return client_size_dec(p, n, '.', v);
}

size_t client_size_dec(const char *p, size_t n, char dec, double *v)
{
	static const struct { const char *u; double f; } units[] = {
		{ "B", 1 }, { "bytes", 1 },
		{ "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
		{ "TiB", 1099511627776.0 }, { "PiB", 1125899906842624.0 },
		{ "kB", 1e3 }, { "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 },
		{ "TB", 1e12 }, { "PB", 1e15 },
		{ "K", 1e3 }, { "M", 1e6 }, { "G", 1e9 }, { "T", 1e12 }, { "P", 1e15 },
	};
	double x;
	size_t i = client_number_dec(p, n, dec, &x);
	if (!i)
		return 0;
	size_t j = i;
	while (j < n && is_blank(p[j]))
		j++;
	size_t u = j;
	while (u < n && isalpha((unsigned char)p[u]))
		u++;
	for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++)
		if (u - j == strlen(units[k].u) && !memcmp(p + j, units[k].u, u - j)) {
			*v = x * units[k].f;
			/* rsync -h: "3.05M bytes" */
			if (units[k].f > 1 && u - j == 1) {
				size_t b = u;
				while (b < n && is_blank(p[b]))
					b++;
				if (n - b >= 5 && !memcmp(p + b, "bytes", 5))
					u = b + 5;
			}
			return u;
		}
	return 0;
}

const char *client_find_str(const char *p, size_t n, const char *s)
{
	size_t l = strlen(s);
	if (!l || l > n)
		return NULL;
	for (const char *q = p; (q = memchr(q, s[0], (size_t)(p + n - q)));
	     q++) {
		if ((size_t)(p + n - q) < l)
			return NULL;
		if (!memcmp(q, s, l))
			return q;
	}
	return NULL;
}

int client_json_num(const char *p, size_t n, const char *key,
		    const char **v, size_t *vn, double *value)
{
	char q[64];
	int ql = snprintf(q, sizeof(q), "\"%s\"", key);
	const char *end = p + n;

	if (ql <= 0 || (size_t)ql >= sizeof(q))
		return 0;
	for (const char *k = p; (k = client_find_str(k, (size_t)(end - k), q));
	     k += ql) {
		const char *c = k + ql;
		while (c < end && (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r'))
			c++;
		if (c >= end || *c != ':')
			continue;
		c++;
		while (c < end && (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r'))
			c++;
		const char *d = c;
		while (d < end && d - c < 40 &&
		       (isdigit((unsigned char)*d) || *d == '-' || *d == '+' ||
			*d == '.' || *d == 'e' || *d == 'E'))
			d++;
		if (d == c || d - c >= 40)
			return 0;
		char buf[48];
		memcpy(buf, c, (size_t)(d - c));
		buf[d - c] = '\0';
		char *e;
		double x = strtod(buf, &e);
		if (*e || !isfinite(x))
			return 0;
		*v = c;
		*vn = (size_t)(d - c);
		*value = x;
		return 1;
	}
	return 0;
}

/* ---- the marker keys ---- */

struct xs {
	char **v;
	size_t n, cap;
	int bad;
};

static void xs_add(struct xs *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void xs_add(struct xs *x, const char *fmt, ...)
{
	if (x->bad)
		return;
	if (x->n == x->cap) {
		size_t nc = x->cap ? x->cap * 2 : 32;
		char **nv = realloc(x->v, nc * sizeof(*nv));
		if (!nv) {
			x->bad = 1;
			return;
		}
		x->v = nv;
		x->cap = nc;
	}
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!(x->v[x->n] = strdup(buf)))
		x->bad = 1;
	else
		x->n++;
}

static void norm_extras(struct xs *x, const struct client_summary *s)
{
	char derived[64] = "";
	for (int k = 0; k < CLN_COUNT; k++) {
		double v = s->norm[k];
		if (isnan(v))
			continue;
		if (k == CLN_DURATION)
			xs_add(x, "client.%s=%.3f", client_norm_keys[k], v);
		else
			xs_add(x, "client.%s=%.0f", client_norm_keys[k], v);
		if (s->derived & (1u << k)) {
			size_t l = strlen(derived);
			snprintf(derived + l, sizeof(derived) - l, "%s%s",
				 l ? "," : "", client_norm_keys[k]);
		}
	}
	if (derived[0])
		xs_add(x, "client.derived=%s", derived);
}

/* The session's normalised figures: with one summary its own; with
 * several (a script that backs up one set after another, the seed kit's
 * four file sets) their sums, each over the summaries that printed it,
 * and the rate of the sums (the last summary alone would give one set's
 * files and a rate from a sub-second elapsed time). */
static void session_norm(const struct client_list *l,
			 struct client_summary *out)
{
	static const int summed[] = { CLN_READ, CLN_SENT, CLN_FILES,
				      CLN_DURATION, CLN_ERRORS };

	if (l->n == 1) {
		*out = l->s[0];
		return;
	}
	client_summary_init(out);
	for (size_t i = 0; i < sizeof(summed) / sizeof(summed[0]); i++) {
		int k = summed[i];

		for (size_t j = 0; j < l->n; j++) {
			double v = l->s[j].norm[k];

			if (isnan(v))
				continue;
			out->norm[k] = isnan(out->norm[k]) ? v : out->norm[k] + v;
			out->derived |= l->s[j].derived & (1u << k);
		}
	}
	client_derive(out);
}

char **client_extras(const struct client_list *l, size_t *n)
{
	struct xs x = { 0 };
	struct client_summary norm;
	*n = 0;
	if (!l || !l->n || !l->def)
		return NULL;
	const struct client_summary *last = &l->s[l->n - 1];
	xs_add(&x, "client=%s", l->def->name);
	session_norm(l, &norm);
	norm_extras(&x, &norm);
	if (!l->def->fields) {	/* dsmc: its own keys, summary.h */
		size_t m = 0;
		char **own = summary_extras(&l->dsmc, &m);
		for (size_t i = 0; i < m; i++)
			xs_add(&x, "%s", own[i]);
		summary_extras_free(own, m);
	} else {
		xs_add(&x, "client.summaries=%zu", l->n);
		for (size_t i = 0; i < last->nf; i++) {
			const struct client_figure *f = &last->f[i];
			xs_add(&x, "client.%s=%s", f->def->key, f->printed);
			if (f->def->unit != CLU_TEXT && isnan(f->value))
				xs_add(&x, "client.%s.num=unreadable",
				       f->def->key);
			else if (f->def->unit != CLU_TEXT)
				xs_add(&x, "client.%s.num=%.15g", f->def->key,
				       f->value);
		}
		for (size_t k = 0; l->n > 1 && k < l->n; k++)
			for (size_t i = 0; i < l->s[k].nf; i++)
				xs_add(&x, "client.%zu.%s=%s", k + 1,
				       l->s[k].f[i].def->key, l->s[k].f[i].printed);
	}
	if (x.bad) {
		client_extras_free(x.v, x.n);
		return NULL;
	}
	*n = x.n;
	return x.v;
}

void client_extras_free(char **x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(x[i]);
	free(x);
}

const char *client_norm_of(const struct marker *end, double out[CLN_COUNT],
			   unsigned *derived)
{
	char key[64];
	for (int k = 0; k < CLN_COUNT; k++)
		out[k] = NAN;
	if (derived)
		*derived = 0;
	if (!end)
		return NULL;
	const char *name = marker_get(end, "client");
	for (int k = 0; k < CLN_COUNT; k++) {
		snprintf(key, sizeof(key), "client.%s", client_norm_keys[k]);
		double d = marker_num(end, key);
		if (!isnan(d))
			out[k] = d;
	}
	const char *d = marker_get(end, "client.derived");
	for (int k = 0; d && derived && k < CLN_COUNT; k++) {
		size_t l = strlen(client_norm_keys[k]);
		for (const char *p = d; (p = strstr(p, client_norm_keys[k])); p += l)
			if ((p == d || p[-1] == ',') && (p[l] == ',' || !p[l]))
				*derived |= 1u << k;
	}
	return name;
}

int client_print_own(FILE *out, const struct marker *end)
{
	const char *name = end ? marker_get(end, "client") : NULL;
	const struct client_def *d = client_find(name);
	if (!end)
		return 0;
	if (!d || !d->fields)	/* dsmc, or a log set from before the table */
		return summary_print_session(out, end);
	int lines = 0;
	char key[96], lbl[64];
	for (size_t i = 0; d->fields[i].key; i++) {
		snprintf(key, sizeof(key), "client.%s", d->fields[i].key);
		const char *v = marker_get(end, key);
		if (!v)
			continue;
		snprintf(lbl, sizeof(lbl), "%s:", d->fields[i].label);
		fprintf(out, "    %-35s %16s\n", lbl, v);
		lines++;
	}
	return lines;
}
