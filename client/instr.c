/*
 * instr.c - parse Storage Protect client instrumentation tables (instr.h).
 *
 * Line by line, a small state machine: a "Thread: N  Elapsed time X sec"
 * line is remembered; a "Section ... Actual ..." header opens a table; a
 * dashed rule follows it; rows run until the next rule or a blank line.
 * Each row is read from its end (three numbers), so section names may
 * hold spaces ("File I/O", "BeginTxn Verb"). Every line is copied into a
 * bounded buffer first: nothing reads past the text, whatever it holds.
 */
#include "instr.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LINE_MAX_LEN 512

static const struct {
	const char *name;
	enum instr_category cat;
} known[] = {
	{ "File I/O", INSTR_CAT_FILE_IO },
	{ "Data Verb", INSTR_CAT_NETWORK },
	{ "TCP Read", INSTR_CAT_NETWORK },
	{ "TCP Write", INSTR_CAT_NETWORK },
	{ "BeginTxn Verb", INSTR_CAT_SERVER },
	{ "EndTxn Verb", INSTR_CAT_SERVER },
	{ "Confirm Verb", INSTR_CAT_SERVER },
	{ "Transaction", INSTR_CAT_SERVER },
	{ "Compute", INSTR_CAT_CPU },
	{ "CRC", INSTR_CAT_CPU },
	{ "Compression", INSTR_CAT_CPU },
	{ "Encryption", INSTR_CAT_CPU },
	{ "Delta", INSTR_CAT_CPU },
	{ "Process Dirs", INSTR_CAT_DIRS },
	{ "Solve Tree", INSTR_CAT_DIRS },
};

enum instr_category instr_classify(const char *section)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcasecmp(section, known[i].name))
			return known[i].cat;
	return INSTR_CAT_OTHER;
}

const char *instr_category_name(enum instr_category c)
{
	switch (c) {
	case INSTR_CAT_FILE_IO: return "File I/O (reading client files)";
	case INSTR_CAT_NETWORK: return "Data Verb (sending to the server: network or server)";
	case INSTR_CAT_SERVER: return "transaction verbs (waiting on the server)";
	case INSTR_CAT_CPU: return "client CPU (compute, CRC, compression, encryption)";
	case INSTR_CAT_DIRS: return "directory walk (Process Dirs, Solve Tree)";
	case INSTR_CAT_OTHER: return "other";
	case INSTR_CAT_COUNT: break;
	}
	return "none";
}

/* A number as the report prints it: digits, optional thousands commas,
 * optional fraction. Returns 0 and sets *v, or -1. */
static int parse_number(const char *tok, double *v)
{
	char buf[64];
	size_t j = 0;

	for (const char *p = tok; *p; p++) {
		if (*p == ',')
			continue;
		if (j + 1 >= sizeof(buf))
			return -1;
		buf[j++] = *p;
	}
	buf[j] = '\0';
	if (!j || !(isdigit((unsigned char)buf[0]) || buf[0] == '.'))
		return -1;
	errno = 0;
	char *end;
	double d = strtod(buf, &end);
	if (errno || *end || !isfinite(d) || d < 0)
		return -1;
	*v = d;
	return 0;
}

static int is_rule(const char *s)
{
	size_t dashes = 0;

	for (; *s; s++) {
		if (*s == '-')
			dashes++;
		else if (!isspace((unsigned char)*s))
			return 0;
	}
	return dashes >= 5;
}

static int is_blank(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
}

/* "Section      Actual (sec) Average(msec)  Frequency used" */
static int is_header(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return !strncasecmp(s, "Section", 7) && strstr(s, "Actual");
}

/* "Thread: 2571  Elapsed time   746.666 sec": either part may be alone. */
static int parse_elapsed(const char *s, long *id, double *elapsed)
{
	const char *p = strstr(s, "Elapsed time");

	if (!p)
		return 0;
	const char *t = strstr(s, "Thread:");
	*id = -1;
	if (t && t < p) {
		char *end;
		errno = 0;
		long v = strtol(t + 7, &end, 10);
		if (!errno && end != t + 7 && v >= 0)
			*id = v;
	}
	p += strlen("Elapsed time");
	while (*p == ' ' || *p == '\t' || *p == ':')
		p++;
	char tok[64];
	size_t j = 0;
	while (*p && !isspace((unsigned char)*p) && j + 1 < sizeof(tok))
		tok[j++] = *p++;
	tok[j] = '\0';
	return parse_number(tok, elapsed) == 0;
}

/* Split a row into name and its three trailing numbers. */
static int parse_row(char *line, struct instr_section *s)
{
	char *tok[3];
	size_t len = strlen(line);

	while (len && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	for (int k = 2; k >= 0; k--) {
		while (len && !isspace((unsigned char)line[len - 1]))
			len--;
		tok[k] = line + len;
		if (!len)
			return -1;	/* no name before the numbers */
		line[len - 1] = '\0';
		len--;
		while (len && isspace((unsigned char)line[len - 1]))
			line[--len] = '\0';
	}
	if (parse_number(tok[0], &s->actual_s) ||
	    parse_number(tok[1], &s->average_ms) ||
	    parse_number(tok[2], &s->frequency))
		return -1;
	char *name = line;
	while (isspace((unsigned char)*name))
		name++;
	if (!*name)
		return -1;
	util_strlcpy(s->name, name, sizeof(s->name));
	s->cat = instr_classify(s->name);
	return 0;
}

static void finish_thread(struct instr_thread *t)
{
	if (t->elapsed_s > 0)
		return;
	double sum = 0;
	for (size_t i = 0; i < t->n; i++)
		sum += t->s[i].actual_s;
	t->elapsed_s = sum;
}

/* The parser's state between two lines. */
struct parser {
	enum { OUTSIDE, HEADER, ROWS } state;
	long pending_id;		/* from a "Thread: N Elapsed" line */
	double pending_elapsed;
	struct instr_thread *cur;	/* the table being read */
	struct instr_report *out;
};

/* Copy the line at *pos into line (bounded; NULs and CRs become spaces:
 * they can only confuse string functions) and move past its newline.
 * Returns 1 when the line did not fit. */
static int next_line(const char *text, size_t len, size_t *pos, char *line,
		     size_t n)
{
	size_t j = 0, start = *pos;

	while (*pos < len && text[*pos] != '\n') {
		if (j + 1 < n) {
			char c = text[*pos];
			line[j++] = (c == '\0' || c == '\r') ? ' ' : c;
		}
		(*pos)++;
	}
	line[j] = '\0';
	if (*pos < len)
		(*pos)++;	/* the newline */
	return *pos - start > n;
}

/* Outside a table: remember a thread's elapsed time, open a table at a
 * header. */
static void outside(struct parser *p, const char *line)
{
	long id;
	double el;

	if (parse_elapsed(line, &id, &el)) {
		p->pending_id = id;
		p->pending_elapsed = el;
	} else if (is_header(line) && p->out->n < INSTR_MAX_THREADS) {
		p->cur = &p->out->t[p->out->n++];
		memset(p->cur, 0, sizeof(*p->cur));
		p->cur->id = p->pending_id;
		p->cur->elapsed_s = p->pending_elapsed;
		p->pending_id = -1;
		p->pending_elapsed = 0;
		p->state = HEADER;
	}
}

/* Inside a table: the rule under the header, rows, and the rule or blank
 * line that ends it. 0, or -1 with e set for a row that is not one. */
static int in_table(struct parser *p, char *line, int truncated,
		    const char *name, int lineno, struct perr *e)
{
	struct instr_thread *cur = p->cur;

	if (is_rule(line)) {
		if (p->state == HEADER) {
			p->state = ROWS;
			return 0;
		}
		finish_thread(cur);
		p->state = OUTSIDE;
		return 0;
	}
	if (is_blank(line)) {
		if (p->state == ROWS || cur->n) {
			finish_thread(cur);
			p->state = OUTSIDE;
		}
		return 0;
	}
	/* a row, right after the header or among the rows */
	if (truncated)
		return perr_set(e, "%s:%d: instrumentation row too long", name,
				lineno);
	if (cur->n >= INSTR_MAX_SECTIONS)
		return perr_set(e, "%s:%d: more than %d instrumentation sections",
				name, lineno, INSTR_MAX_SECTIONS);
	if (parse_row(line, &cur->s[cur->n]))
		return perr_set(e, "%s:%d: instrumentation row is not "
				"'SECTION ACTUAL AVERAGE FREQUENCY'", name, lineno);
	cur->n++;
	p->state = ROWS;
	return 0;
}

int instr_parse(const char *text, size_t len, const char *name,
		struct instr_report *out, struct perr *e)
{
	struct parser p = { .state = OUTSIDE, .pending_id = -1, .out = out };
	size_t pos = 0;
	int lineno = 0;

	memset(out, 0, sizeof(*out));
	if (!name)
		name = "instrumentation";
	while (pos < len) {
		char line[LINE_MAX_LEN];
		int truncated = next_line(text, len, &pos, line, sizeof(line));

		lineno++;
		if (p.state == OUTSIDE)
			outside(&p, line);
		else if (in_table(&p, line, truncated, name, lineno, e) < 0)
			return -1;
	}
	if (p.state != OUTSIDE)
		finish_thread(p.cur);
	/* a header with no rows at all is not a report */
	size_t k = 0;
	for (size_t i = 0; i < out->n; i++)
		if (out->t[i].n)
			out->t[k++] = out->t[i];
	out->n = k;
	return (int)out->n;
}

int instr_parse_file(const char *path, struct instr_report *out,
		     struct perr *e)
{
	size_t len;
	char *text = util_load_file(path, &len, e);

	if (!text)
		return -1;
	int rc = instr_parse(text, len, path, out, e);
	free(text);
	return rc;
}

void instr_category_times(const struct instr_thread *t,
			  double out[INSTR_CAT_COUNT])
{
	for (int c = 0; c < INSTR_CAT_COUNT; c++)
		out[c] = 0;
	for (size_t i = 0; i < t->n; i++)
		out[t->s[i].cat] += t->s[i].actual_s;
}

const struct instr_thread *instr_main_thread(const struct instr_report *r)
{
	const struct instr_thread *best = NULL;
	double best_io = -1;

	for (size_t i = 0; i < r->n; i++) {
		double c[INSTR_CAT_COUNT];
		instr_category_times(&r->t[i], c);
		double io = c[INSTR_CAT_FILE_IO] + c[INSTR_CAT_NETWORK];
		if (!best || r->t[i].elapsed_s > best->elapsed_s ||
		    (r->t[i].elapsed_s == best->elapsed_s && io > best_io)) {
			best = &r->t[i];
			best_io = io;
		}
	}
	return best;
}

enum instr_category instr_dominant(const struct instr_thread *t,
				   double *share)
{
	double c[INSTR_CAT_COUNT];
	enum instr_category best = INSTR_CAT_COUNT;

	instr_category_times(t, c);
	for (int k = 0; k < INSTR_CAT_COUNT; k++)
		if (c[k] > 0 && (best == INSTR_CAT_COUNT || c[k] > c[best]))
			best = (enum instr_category)k;
	if (share)
		*share = best == INSTR_CAT_COUNT || t->elapsed_s <= 0 ? 0 :
			 c[best] / t->elapsed_s;
	return best;
}
