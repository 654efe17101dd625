/*
 * procfs_stat.c - the Linux source's whole-system files (procfs_int.h):
 * proc/stat (CPU ticks, context switches, run queue), proc/meminfo,
 * proc/vmstat and the Tcp lines of proc/net/snmp. Any line that does not
 * parse is skipped; a value the kernel does not print stays SRC_NA/NAN.
 */
#define _GNU_SOURCE
#include "procfs_int.h"

#include <string.h>

/* One "cpu" or "cpuN" line (q after "cpu"): 0 when handled or skipped, -1
 * when out of memory. cpus[0] is _Total even when the file does not start
 * with the "cpu" line. */
static int stat_cpu_line(const char *q, struct raw_snapshot *s,
			 int *have_total)
{
	uint64_t f[8];
	struct cpu_raw *c;
	int n, total = procfs_blank(*q);
	char name[SRC_NAME_MAX];
	size_t nlen = 0;

	if (!total) {
		while (q[nlen] >= '0' && q[nlen] <= '9')
			nlen++;
		if (nlen == 0 || nlen >= sizeof(name) ||
		    !procfs_blank(q[nlen]))
			return 0;
		memcpy(name, q, nlen);
		name[nlen] = '\0';
		q += nlen;
	}
	n = procfs_parse_fields(q, f, 8);
	if (n < 4)	/* user nice system idle at least */
		return 0;
	if (s->ncpus == 0) {
		c = snapshot_add_cpu(s);
		if (!c)
			return -1;
		strcpy(c->name, "_Total");
	}
	if (total) {
		if (*have_total)
			return 0;
		*have_total = 1;
		c = &s->cpus[0];
	} else {
		c = snapshot_add_cpu(s);
		if (!c)
			return -1;
		memcpy(c->name, name, nlen + 1);
	}
	c->user = f[0];
	c->nice = f[1];
	c->system = f[2];
	c->idle = f[3];
	if (n > 4)
		c->iowait = f[4];
	if (n > 5)
		c->irq = f[5];
	if (n > 6)
		c->softirq = f[6];
	if (n > 7)
		c->steal = f[7];
	return 0;
}

int procfs_parse_stat(char *buf, size_t len, struct raw_snapshot *s)
{
	char *cur = buf, *end = buf + len, *line;
	int have_total = 0;

	while ((line = procfs_next_line(&cur, end))) {
		const char *q;
		uint64_t v;

		if (line[0] == 'c' && line[1] == 'p' && line[2] == 'u') {
			if (stat_cpu_line(line + 3, s, &have_total) < 0)
				return -1;
		} else if (strncmp(line, "ctxt ", 5) == 0) {
			q = line + 5;
			if (procfs_parse_u64(&q, &v) == 1)
				s->sys.ctxt = v;
		} else if (strncmp(line, "procs_running ", 14) == 0) {
			q = line + 14;
			if (procfs_parse_u64(&q, &v) == 1)
				s->sys.procs_running = (double)v;
		}
	}
	return 0;
}

/* "  123 kB" (or a bare number) into bytes; -1 when malformed. */
static int meminfo_value(const char *q, double *out)
{
	uint64_t x = 0;
	const char *d;

	while (procfs_blank(*q))
		q++;
	for (d = q; *d >= '0' && *d <= '9'; d++) {
		if (x > UINT64_MAX / 10 - 1)
			return -1;
		x = x * 10 + (uint64_t)(*d - '0');
	}
	if (d == q || (*d && !procfs_blank(*d)))
		return -1;
	while (procfs_blank(*d))
		d++;
	if (strcmp(d, "kB") == 0)
		*out = (double)x * 1024.0;
	else if (*d == '\0')
		*out = (double)x;
	else
		return -1;
	return 0;
}

void procfs_parse_meminfo(char *buf, size_t len, struct raw_snapshot *s)
{
	char *cur = buf, *end = buf + len, *line;

	while ((line = procfs_next_line(&cur, end))) {
		double v;

		if (strncmp(line, "MemAvailable:", 13) == 0) {
			if (meminfo_value(line + 13, &v) == 0)
				s->mem.available = v;
		} else if (strncmp(line, "Cached:", 7) == 0) {
			if (meminfo_value(line + 7, &v) == 0)
				s->mem.cached = v;
		}
	}
}

int procfs_parse_vmstat(char *buf, size_t len, struct raw_snapshot *s)
{
	char *cur = buf, *end = buf + len, *line;
	int found = 0;

	/* four lines of some 190 are wanted: the rest is not walked once
	 * they are in (the order of the file is the kernel's) */
	while (found < PROCFS_VMSTAT_WANTED &&
	       (line = procfs_next_line(&cur, end))) {
		uint64_t *dst = NULL, v;
		const char *q;

		if (line[0] != 'p')
			continue;
		if (strncmp(line, "pswpin ", 7) == 0)
			dst = &s->mem.pswpin;
		else if (strncmp(line, "pswpout ", 8) == 0)
			dst = &s->mem.pswpout;
		else if (strncmp(line, "pgfault ", 8) == 0)
			dst = &s->mem.pgfault;
		else if (strncmp(line, "pgmajfault ", 11) == 0)
			dst = &s->mem.pgmajfault;
		if (!dst)
			continue;
		q = strchr(line, ' ');
		if (procfs_parse_u64(&q, &v) == 1)
			*dst = v;
		found++;
	}
	return found;
}

/* Walk the "Tcp:" header line (names) and value line together. Values are
 * matched by name, not position: the kernel has appended fields over the
 * years (InCsumErrors in 3.10). MaxConn is signed (-1): only the three
 * wanted values must parse. */
static void snmp_tcp(const char *names, const char *values,
		     struct raw_snapshot *s)
{
	for (;;) {
		char name[SRC_NAME_MAX], val[SRC_NAME_MAX];
		const char *vq = val;
		uint64_t *dst = NULL, v;

		if (procfs_parse_name(&names, name) < 0 ||
		    procfs_parse_name(&values, val) < 0)
			return;
		if (strcmp(name, "InSegs") == 0)
			dst = &s->tcp.in_segs;
		else if (strcmp(name, "OutSegs") == 0)
			dst = &s->tcp.out_segs;
		else if (strcmp(name, "RetransSegs") == 0)
			dst = &s->tcp.retrans_segs;
		if (dst && procfs_parse_u64(&vq, &v) == 1 && *vq == '\0')
			*dst = v;
	}
}

void procfs_parse_snmp(char *buf, size_t len, struct raw_snapshot *s)
{
	char *cur = buf, *end = buf + len, *line, *header = NULL;

	while ((line = procfs_next_line(&cur, end))) {
		if (strncmp(line, "Tcp:", 4) != 0) {
			header = NULL;
			continue;
		}
		if (!header) {
			header = line + 4;
			continue;
		}
		snmp_tcp(header, line + 4, s);
		return;
	}
}
