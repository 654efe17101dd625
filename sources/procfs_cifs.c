/*
 * procfs_cifs.c - proc/fs/cifs/Stats for the Linux source: one cifs_raw
 * per SMB share (procfs_int.h; the counters in counters/README.md "CIFS
 * Share").
 *
 * The file (fs/smb/client/cifs_debug.c cifs_stats_proc_show, before 6.2
 * fs/cifs/; the per-share part from smb2ops.c smb2_print_stats or, for
 * SMB1, cifssmb.c cifs_print_stats) reads:
 *
 *   0 session 0 share reconnects                (the host's, atomic_t %d)
 *   ...
 *   1) \\server\share[\tDISCONNECTED ]
 *   SMBs: 214                                   (atomic_t %d)
 *   Bytes read: 502092  Bytes written: 31457286 (SMB2/3, %llu)
 *   Reads:  12 Bytes: 4096                      (SMB1 instead)
 *   Writes: 3 Bytes: 512
 *
 * perflog only reads it: writing anything to it resets every counter
 * (cifs_stats_proc_write), which rates.c would see as counters going
 * back, a reset. An atomic_t printed with %d shows negative past 2^31:
 * kept as its 32-bit pattern, so it wraps like a 32-bit counter. A share
 * mounted twice (multiuser, two sessions) is listed twice under one
 * name: its lines are added into one instance.
 */
#define _GNU_SOURCE
#include "procfs_int.h"

#include <string.h>

/* A %d of an atomic_t as its unsigned 32-bit pattern; 0 and *v, or -1. */
static int parse_i32(const char **s, uint64_t *v)
{
	const char *q = *s;
	int neg = 0;
	uint64_t x;

	while (procfs_blank(*q))
		q++;
	if (*q == '-') {
		neg = 1;
		q++;
	}
	if (procfs_parse_u64(&q, &x) != 1 || x > 2147483648ull ||
	    (!neg && x > 2147483647ull))
		return -1;
	*v = neg ? (uint64_t)(uint32_t)(0u - (uint32_t)x) : x;
	*s = q;
	return 0;
}

/* Add v into *dst (SRC_NA stays SRC_NA once a line was missing). */
static void add_to(uint64_t *dst, uint64_t v, int first)
{
	if (first)
		*dst = v;
	else if (*dst != SRC_NA)
		*dst += v;
}

/* The share's name after "N) ": the tree name as printed (%s), to the
 * tab of "\tDISCONNECTED " or the end of the line, so a name with a
 * space ("\\nas\Backup Share") is whole and not merged with another
 * of the same first word; trailing blanks are not part of it (Windows
 * drops them from a share's name). 0, or -1 when empty or too long. */
static int share_name(const char *q, char *name)
{
	size_t len;

	while (*q == ' ')
		q++;
	len = strcspn(q, "\t\n");
	while (len > 0 && procfs_blank(q[len - 1]))
		len--;
	if (len == 0 || len >= SRC_NAME_MAX)
		return -1;
	memcpy(name, q, len);
	name[len] = '\0';
	return 0;
}

/* "N) \\server\share": the share's entry (a new one, or the one of the
 * same name listed before); NULL when malformed. */
static struct cifs_raw *share_line(const char *q, struct raw_snapshot *s,
				   int *first, int *oom)
{
	char name[SRC_NAME_MAX];
	struct cifs_raw *c;

	while (*q >= '0' && *q <= '9')
		q++;
	if (*q != ')')
		return NULL;
	q++;
	if (share_name(q, name) < 0 || name[0] != '\\')
		return NULL;
	for (size_t i = 0; i < s->ncifs; i++)
		if (!strcmp(s->cifs[i].name, name)) {
			*first = 0;
			return &s->cifs[i];
		}
	c = snapshot_add_cifs(s);
	if (!c) {
		*oom = 1;
		return NULL;
	}
	memcpy(c->name, name, sizeof(c->name));
	*first = 1;
	return c;
}

int procfs_parse_cifs(char *buf, size_t len, struct raw_snapshot *s)
{
	char *cur = buf, *end = buf + len, *line;
	struct cifs_raw *c = NULL;
	uint64_t reconnects = SRC_NA;
	int first = 1, oom = 0;

	while ((line = procfs_next_line(&cur, end))) {
		const char *q = line;
		uint64_t a, b;

		if (*q >= '0' && *q <= '9' && strchr(q, ')')) {
			c = share_line(q, s, &first, &oom);
			if (oom)
				return -1;
			continue;
		}
		if (*q >= '0' && *q <= '9' && strstr(q, " share reconnects")) {
			if (parse_i32(&q, &a) == 0 && !strncmp(q, " session", 8)) {
				q += 8;
				if (parse_i32(&q, &b) == 0)
					reconnects = (a + b) & 0xffffffffu;
			}
			continue;
		}
		if (!c)
			continue;
		if (!strncmp(q, "SMBs:", 5)) {
			q += 5;
			/* a share listed twice: the sum of two 32-bit
			 * counters wraps as one */
			if (parse_i32(&q, &a) == 0) {
				add_to(&c->smbs, a, first);
				if (c->smbs != SRC_NA)
					c->smbs &= 0xffffffffu;
			}
		} else if (!strncmp(q, "Bytes read:", 11)) {
			q += 11;
			if (procfs_parse_u64(&q, &a) == 1 &&
			    (q = strstr(q, "Bytes written:")) != NULL) {
				q += 14;
				if (procfs_parse_u64(&q, &b) == 1) {
					add_to(&c->rd_bytes, a, first);
					add_to(&c->wr_bytes, b, first);
				}
			}
		} else if (!strncmp(q, "Reads:", 6) || !strncmp(q, "Writes:", 7)) {
			/* SMB1: "Reads:  N Bytes: M"; SMB2's "Reads: N total
			 * M failed" has no Bytes: and is skipped */
			int rd = q[0] == 'R';
			const char *bq = strstr(q, " Bytes:");

			if (bq) {
				bq += 7;
				if (procfs_parse_u64(&bq, &a) == 1)
					add_to(rd ? &c->rd_bytes : &c->wr_bytes,
					       a, first);
			}
		}
	}
	for (size_t i = 0; i < s->ncifs; i++)
		s->cifs[i].reconnects = reconnects;
	return 0;
}
