/*
 * nmon_map.c - an nmon section's data line to perflog counters (the
 * table is in counters/README.md "Imported counters"). Only exact
 * mappings: a column that means something else than the perflog counter
 * of the nearest name is left out (README says which and why).
 *
 *   CPU_ALL, CPUnnn   Processor(_Total), Processor(nnn - 1): User% ->
 *                     % User Time, Sys% -> % Privileged Time, Wait% ->
 *                     % IOWait Time, 100 - Idle% - Wait% -> % Processor
 *                     Time (steal counts as busy, as perflog's)
 *   DISKBUSY[n]       LogicalDisk(disk)\% Disk Time
 *   DISKREAD/WRITE[n] Disk Read/Write Bytes/sec (KB/s x 1024)
 *   MEM (Linux)       cached -> Memory\Cache Bytes (MB x 2^20)
 *   VM (Linux)        per-interval counts / the interval: pswpin,
 *                     pswpout -> Pages Input, Output, Pages/sec;
 *                     pgfault -> Page Faults/sec, pgmajfault -> Page
 *                     Reads/sec
 *   PAGE (AIX)        per second: faults -> Page Faults/sec, pgsin,
 *                     pgsout (paging space) -> Pages Input/Output/sec
 *   NET               NAME-read-KB/s, NAME-write-KB/s -> Network
 *                     Interface(NAME)\Bytes Received/Sent/sec, Total
 *   NETPACKET         NAME-read/s + NAME-write/s -> Packets/sec
 *   PROC              Runnable -> System\Processor Queue Length (Linux:
 *                     less nmon itself, as perflog's), pswitch ->
 *                     Context Switches/sec
 *   TOP               per command: %CPU summed -> Process(COMMAND)\%
 *                     Processor Time, ResSet (Linux) or ResText +
 *                     ResData (AIX), KB -> Working Set
 */
#include "nmon.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Processes kept as Process(COMMAND): the busiest by CPU over the file. */
#define NMON_TOP_COMMANDS 5

static struct instance_values *inst(struct import_snap *snap,
				    enum counter_object obj, const char *name)
{
	struct instance_values *iv = sample_find(&snap->s, obj, name);

	return iv ? iv : sample_add(&snap->s, obj, name);
}

int nmon_value(const char *s, double *v)
{
	char *end;
	double x;

	while (*s == ' ')
		s++;
	if (!*s || !strcasecmp(s, "nan") || !strcasecmp(s, "-nan") ||
	    !strncasecmp(s, "inf", 3) || !strncasecmp(s, "-inf", 4)) {
		*v = NAN;
		return 0;
	}
	errno = 0;
	x = strtod(s, &end);
	while (*end == ' ' || *end == '\r')
		end++;
	if (end == s || *end || errno == ERANGE)
		return -1;
	*v = (x < 0 || !isfinite(x)) ? NAN : x;
	return 0;
}

/* Column named col in h, or -1. */
static long column(const struct nmon_header *h, const char *col)
{
	for (size_t i = 2; i < h->nf; i++)
		if (!strcasecmp(h->f[i], col))
			return (long)i;
	return -1;
}

/* The value of field i: 0 (NAN when absent or unknown) or -1 with e. */
static int field(const struct nmon_ctx *c, char **f, size_t nf, long i,
		 int line, double *v, struct perr *e)
{
	*v = NAN;
	if (i < 0 || (size_t)i >= nf)
		return 0;
	if (nmon_value(f[i], v) < 0)
		return perr_set(e, "%s:%d: bad value '%.30s' in column %ld of %s",
				c->name, line, f[i], i + 1, f[0]);
	return 0;
}

static int named(const struct nmon_ctx *c, const struct nmon_header *h,
		 char **f, size_t nf, const char *col, int line, double *v,
		 struct perr *e)
{
	return field(c, f, nf, column(h, col), line, v, e);
}

static int map_cpu(struct nmon_ctx *c, const struct nmon_header *h, char **f,
		   size_t nf, struct import_snap *snap, const char *cpu,
		   int line, struct perr *e)
{
	struct instance_values *iv;
	double u, s, w, idle, busy;

	if (named(c, h, f, nf, "User%", line, &u, e) < 0 ||
	    named(c, h, f, nf, "Sys%", line, &s, e) < 0 ||
	    named(c, h, f, nf, "Wait%", line, &w, e) < 0 ||
	    named(c, h, f, nf, "Idle%", line, &idle, e) < 0)
		return -1;
	if (!(iv = inst(snap, OBJ_PROCESSOR, cpu)))
		return perr_set(e, "%s: out of memory", c->name);
	busy = 100.0 - idle - w;
	iv->v[catalog_counters[CTR_CPU_USER_TIME].index] = u;
	iv->v[catalog_counters[CTR_CPU_PRIVILEGED_TIME].index] = s;
	iv->v[catalog_counters[CTR_CPU_IOWAIT_TIME].index] = w;
	iv->v[catalog_counters[CTR_CPU_PROCESSOR_TIME].index] =
		isnan(busy) ? NAN : busy < 0 ? 0 : busy > 100 ? 100 : busy;
	return 0;
}

/* DISKBUSY, DISKBUSY1 ... -> the counter, or -1 for a section not read. */
static int disk_counter(const char *sec, double *scale)
{
	static const struct { const char *name; int id; double scale; } t[] = {
		{ "DISKBUSY", CTR_DISK_TIME, 1 },
		{ "DISKREAD", CTR_DISK_READ_BYTES, 1024 },
		{ "DISKWRITE", CTR_DISK_WRITE_BYTES, 1024 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		size_t n = strlen(t[i].name);
		const char *p = sec + n;

		if (strncmp(sec, t[i].name, n))
			continue;
		while (isdigit((unsigned char)*p))
			p++;
		if (*p)
			continue;
		*scale = t[i].scale;
		return t[i].id;
	}
	return -1;
}

static int map_disks(struct nmon_ctx *c, const struct nmon_header *h,
		     char **f, size_t nf, struct import_snap *snap, int id,
		     double scale, int line, struct perr *e)
{
	int idx = catalog_counters[id].index;

	for (size_t i = 2; i < h->nf && i < nf; i++) {
		struct instance_values *iv;
		double v;

		if (!h->f[i][0] || strlen(h->f[i]) >= SRC_NAME_MAX ||
		    strchr(h->f[i], '\\'))
			continue;
		if (field(c, f, nf, (long)i, line, &v, e) < 0)
			return -1;
		if (!(iv = inst(snap, OBJ_LOGICALDISK, h->f[i])))
			return perr_set(e, "%s: out of memory", c->name);
		iv->v[idx] = v * scale;
	}
	return 0;
}

/* NET and NETPACKET: NAME-read-KB/s ... NAME-write/s. */
static int map_net(struct nmon_ctx *c, const struct nmon_header *h, char **f,
		   size_t nf, struct import_snap *snap, int packets, int line,
		   struct perr *e)
{
	/* Linux nmon writes eth0-read/s, AIX en0-reads/s */
	static const char *const rds[] = { "-read-KB/s", "-read/s", "-reads/s" };
	static const char *const wrs[] = { "-write-KB/s", "-write/s", "-writes/s" };

	for (size_t i = 2; i < h->nf && i < nf; i++) {
		const char *col = h->f[i];
		size_t n = strlen(col);
		char name[SRC_NAME_MAX];
		struct instance_values *iv;
		int rx = -1;
		double v;

		for (int k = packets ? 1 : 0; k < (packets ? 3 : 1) && rx < 0; k++) {
			size_t rl = strlen(rds[k]), wl = strlen(wrs[k]);

			if (n > rl && !strcmp(col + n - rl, rds[k]))
				rx = 1, n -= rl;
			else if (n > wl && !strcmp(col + n - wl, wrs[k]))
				rx = 0, n -= wl;
		}
		if (rx < 0)
			continue;
		if (n >= sizeof(name))
			continue;
		memcpy(name, col, n);
		name[n] = '\0';
		if (strchr(name, '\\') || field(c, f, nf, (long)i, line, &v, e) < 0) {
			if (strchr(name, '\\'))
				continue;
			return -1;
		}
		if (!(iv = inst(snap, OBJ_NETWORK, name)))
			return perr_set(e, "%s: out of memory", c->name);
		if (packets) {
			/* read then write: the second completes the sum */
			double *p = &iv->v[catalog_counters[CTR_NET_PACKETS].index];

			*p = rx ? v : *p + v;
		} else {
			iv->v[catalog_counters[rx ? CTR_NET_BYTES_RECEIVED :
					       CTR_NET_BYTES_SENT].index] =
				v * 1024;
		}
	}
	return 0;
}

/* Memory's counter id from a column: VM (Linux, counts) or PAGE (AIX). */
static int memory(struct nmon_ctx *c, const struct nmon_header *h, char **f,
		  size_t nf, struct import_snap *snap, const char *const *cols,
		  const int *ids, size_t n, int line, struct perr *e)
{
	struct instance_values *iv = inst(snap, OBJ_MEMORY, "");
	double in = NAN, out = NAN;

	if (!iv)
		return perr_set(e, "%s: out of memory", c->name);
	for (size_t i = 0; i < n; i++) {
		double v;

		if (named(c, h, f, nf, cols[i], line, &v, e) < 0)
			return -1;
		if (ids[i] < 0)
			continue;
		iv->v[catalog_counters[ids[i]].index] = v;
		if (ids[i] == CTR_MEM_PAGES_INPUT)
			in = v;
		if (ids[i] == CTR_MEM_PAGES_OUTPUT)
			out = v;
	}
	iv->v[catalog_counters[CTR_MEM_PAGES].index] = in + out;
	return 0;
}

static int map_mem(struct nmon_ctx *c, const struct nmon_header *h, char **f,
		   size_t nf, struct import_snap *snap, int line,
		   struct perr *e)
{
	struct instance_values *iv;
	double v;

	if (column(h, "cached") < 0)
		return 0;	/* AIX's MEM: see the README */
	if (named(c, h, f, nf, "cached", line, &v, e) < 0)
		return -1;
	if (!(iv = inst(snap, OBJ_MEMORY, "")))
		return perr_set(e, "%s: out of memory", c->name);
	iv->v[catalog_counters[CTR_MEM_CACHE].index] = v * 1048576.0;
	return 0;
}

static int map_proc(struct nmon_ctx *c, const struct nmon_header *h,
		    char **f, size_t nf, struct import_snap *snap, int line,
		    struct perr *e)
{
	struct instance_values *iv = inst(snap, OBJ_SYSTEM, "");
	double run, sw;

	if (!iv)
		return perr_set(e, "%s: out of memory", c->name);
	if (named(c, h, f, nf, "Runnable", line, &run, e) < 0 ||
	    named(c, h, f, nf, "pswitch", line, &sw, e) < 0)
		return -1;
	/* Linux nmon counts procs_running, itself included, as perflog
	 * does before it subtracts itself; AIX's is the run queue's mean */
	if (!c->aix && !isnan(run))
		run = run >= 1 ? run - 1 : 0;
	iv->v[catalog_counters[CTR_SYS_QUEUE_LENGTH].index] = run;
	iv->v[catalog_counters[CTR_SYS_CONTEXT_SWITCHES].index] = sw;
	return 0;
}

int nmon_map_line(struct nmon_ctx *c, const struct nmon_header *h,
		  char **f, size_t nf, struct import_snap *snap, int line,
		  struct perr *e)
{
	const char *sec = f[0];
	double scale;
	int id;

	if (!strcmp(sec, "CPU_ALL"))
		return map_cpu(c, h, f, nf, snap, "_Total", line, e);
	if (!strncmp(sec, "CPU", 3) && isdigit((unsigned char)sec[3])) {
		char cpu[16];
		long n = strtol(sec + 3, NULL, 10);

		if (n < 1 || n > 100000)
			return 0;
		snprintf(cpu, sizeof(cpu), "%ld", n - 1);
		return map_cpu(c, h, f, nf, snap, cpu, line, e);
	}
	id = disk_counter(sec, &scale);
	if ((id >= 0 || !strcmp(sec, "NET") || !strcmp(sec, "NETPACKET")) &&
	    nf != h->nf) {
		/* a column per device, by position: a device that came or
		 * went without nmon writing a new header shifts every value
		 * after it, so none of the line can be placed */
		if (!c->shifted++) {
			c->shifted_line = line;
			util_strlcpy(c->shifted_sec, sec, sizeof(c->shifted_sec));
			c->shifted_have = nf;
			c->shifted_want = h->nf;
		}
		return 0;
	}
	if (id >= 0)
		return map_disks(c, h, f, nf, snap, id, scale, line, e);
	if (!strcmp(sec, "NET"))
		return map_net(c, h, f, nf, snap, 0, line, e);
	if (!strcmp(sec, "NETPACKET"))
		return map_net(c, h, f, nf, snap, 1, line, e);
	if (!strcmp(sec, "MEM"))
		return map_mem(c, h, f, nf, snap, line, e);
	if (!strcmp(sec, "PROC"))
		return map_proc(c, h, f, nf, snap, line, e);
	if (!strcmp(sec, "VM")) {
		static const char *const cols[] = { "pswpin", "pswpout",
						    "pgfault", "pgmajfault" };
		static const int ids[] = { CTR_MEM_PAGES_INPUT,
					   CTR_MEM_PAGES_OUTPUT,
					   CTR_MEM_PAGE_FAULTS,
					   CTR_MEM_PAGE_READS };

		c->vm_deltas = 1;
		return memory(c, h, f, nf, snap, cols, ids, 4, line, e);
	}
	if (!strcmp(sec, "PAGE") && column(h, "pgsin") >= 0) {
		static const char *const cols[] = { "faults", "pgsin",
						    "pgsout" };
		static const int ids[] = { CTR_MEM_PAGE_FAULTS,
					   CTR_MEM_PAGES_INPUT,
					   CTR_MEM_PAGES_OUTPUT };

		return memory(c, h, f, nf, snap, cols, ids, 3, line, e);
	}
	return 0;	/* a section perflog has no counter for */
}

/* ---- TOP ---- */

static long command_index(struct nmon_ctx *c, const char *name)
{
	for (size_t i = 0; i < c->ncmd; i++)
		if (!strcmp(c->cmd[i].name, name))
			return (long)i;
	if (util_grow(&c->cmd, &c->capcmd, c->ncmd + 1, sizeof(*c->cmd)) < 0)
		return -1;
	memset(&c->cmd[c->ncmd], 0, sizeof(*c->cmd));
	util_strlcpy(c->cmd[c->ncmd].name, name, sizeof(c->cmd->name));
	return (long)c->ncmd++;
}

int nmon_map_top(struct nmon_ctx *c, const struct nmon_header *h, char **f,
		 size_t nf, size_t snap, int line, struct perr *e)
{
	long ci = column(h, "Command"), cpu = column(h, "%CPU"), k;
	size_t extra = nf > h->nf ? nf - h->nf : 0;
	char name[SRC_NAME_MAX] = "";
	double v, a, b;
	struct nmon_top *t;

	if (ci < 0 || cpu < 0 || (size_t)ci >= nf)
		return 0;
	/* a command with commas in its name spans more fields */
	for (size_t i = (size_t)ci; i <= (size_t)ci + extra && i < nf; i++) {
		size_t l = strlen(name);

		snprintf(name + l, sizeof(name) - l, "%s%s", l ? "," : "",
			 f[i]);
	}
	for (char *p = name; *p; p++)
		if (*p == '\\' || (unsigned char)*p < ' ')
			*p = '_';
	if (!name[0])
		return 0;
	if (field(c, f, nf, cpu, line, &v, e) < 0)
		return -1;
	if (util_grow(&c->top, &c->captop, c->ntop + 1, sizeof(*c->top)) < 0 ||
	    (k = command_index(c, name)) < 0)
		return perr_set(e, "%s: out of memory", c->name);
	t = &c->top[c->ntop++];
	t->snap = snap;
	t->cmd = (size_t)k;
	t->cpu = v;
	/* fields after the command are shifted by its extra commas */
#define SHIFTED(col) ((col) < 0 ? -1 : (col) > ci ? (col) + (long)extra : (col))
	if (c->aix) {
		if (field(c, f, nf, SHIFTED(column(h, "ResText")), line, &a, e) < 0 ||
		    field(c, f, nf, SHIFTED(column(h, "ResData")), line, &b, e) < 0)
			return -1;
		t->rss = (a + b) * 1024;
	} else {
		if (field(c, f, nf, SHIFTED(column(h, "ResSet")), line, &a, e) < 0)
			return -1;
		t->rss = a * 1024;
	}
#undef SHIFTED
	if (!isnan(v))
		c->cmd[k].total += v;
	return 0;
}

/* ---- after the lines ---- */

static int has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* A partition of a disk listed too (sda1 of sda, nvme0n1p1 of nvme0n1),
 * or a virtual or stacked device: not in LogicalDisk(_Total), as
 * perflog's own _Total leaves them out (sources/procfs_disk.c). */
static int disk_in_total(const struct sample *s, const char *name)
{
	static const char *const virt[] = { "dm-", "md", "loop", "ram",
					    "zram" };

	for (size_t i = 0; i < sizeof(virt) / sizeof(virt[0]); i++)
		if (has_prefix(name, virt[i]))
			return 0;
	for (size_t i = 0; i < s->n; i++) {
		const char *d = s->inst[i].instance;
		size_t n = strlen(d);
		const char *p = name + n;

		if (s->inst[i].object != OBJ_LOGICALDISK || !strcmp(d, name) ||
		    strncmp(name, d, n))
			continue;
		if (*p == 'p')
			p++;
		if (isdigit((unsigned char)*p))
			return 0;
	}
	return 1;
}

/* LogicalDisk(_Total) and Network Interface(_Total) of one snapshot. */
static int totals(struct import_snap *snap)
{
	const int dsum[] = { CTR_DISK_READ_BYTES, CTR_DISK_WRITE_BYTES };
	const int nsum[] = { CTR_NET_BYTES_RECEIVED, CTR_NET_BYTES_SENT,
			     CTR_NET_PACKETS };
	double d[2] = { 0, 0 }, n[3] = { 0, 0, 0 }, busy = 0;
	size_t disks = 0, nets = 0, count = snap->s.n;
	struct instance_values *iv;

	for (size_t i = 0; i < count; i++) {
		struct instance_values *x = &snap->s.inst[i];

		if (x->object == OBJ_NETWORK) {
			double *rx = &x->v[catalog_counters[CTR_NET_BYTES_RECEIVED].index];
			double *tx = &x->v[catalog_counters[CTR_NET_BYTES_SENT].index];

			x->v[catalog_counters[CTR_NET_BYTES_TOTAL].index] = *rx + *tx;
			if (has_prefix(x->instance, "lo"))
				continue;
			nets++;
			for (int k = 0; k < 3; k++)
				n[k] += x->v[catalog_counters[nsum[k]].index];
		} else if (x->object == OBJ_LOGICALDISK &&
			   disk_in_total(&snap->s, x->instance)) {
			disks++;
			for (int k = 0; k < 2; k++)
				d[k] += x->v[catalog_counters[dsum[k]].index];
			busy += x->v[catalog_counters[CTR_DISK_TIME].index];
		}
	}
	if (disks) {
		if (!(iv = inst(snap, OBJ_LOGICALDISK, "_Total")))
			return -1;
		for (int k = 0; k < 2; k++)
			iv->v[catalog_counters[dsum[k]].index] = d[k];
		iv->v[catalog_counters[CTR_DISK_TIME].index] = busy / (double)disks;
	}
	if (nets) {
		if (!(iv = inst(snap, OBJ_NETWORK, "_Total")))
			return -1;
		for (int k = 0; k < 3; k++)
			iv->v[catalog_counters[nsum[k]].index] = n[k];
		iv->v[catalog_counters[CTR_NET_BYTES_TOTAL].index] = n[0] + n[1];
	}
	return 0;
}

static int cmp_cmd(const void *a, const void *b)
{
	const struct nmon_cmd *x = *(const struct nmon_cmd *const *)a;
	const struct nmon_cmd *y = *(const struct nmon_cmd *const *)b;

	return x->total > y->total ? -1 : x->total < y->total;
}

/* The busiest commands as Process(COMMAND): a snapshot with TOP lines
 * where the command has none gets 0 % (nmon lists the processes that
 * used the CPU); one without any TOP line (the first) stays unknown. */
static int processes(struct nmon_ctx *c, struct import_set *s,
		     struct perr *e)
{
	const struct nmon_cmd **order;
	unsigned char *has = calloc(s->n ? s->n : 1, 1);
	size_t keep = c->ncmd < NMON_TOP_COMMANDS ? c->ncmd : NMON_TOP_COMMANDS;
	int pt = catalog_counters[CTR_PROC_PROCESSOR_TIME].index;
	int ws = catalog_counters[CTR_PROC_WORKING_SET].index;

	order = malloc((c->ncmd ? c->ncmd : 1) * sizeof(*order));
	if (!order || !has) {
		free(order);
		free(has);
		return perr_set(e, "%s: out of memory", c->name);
	}
	for (size_t i = 0; i < c->ncmd; i++)
		order[i] = &c->cmd[i];
	qsort(order, c->ncmd, sizeof(*order), cmp_cmd);
	for (size_t i = 0; i < c->ntop; i++)
		if (c->top[i].snap < s->n)
			has[c->top[i].snap] = 1;
	for (size_t k = 0; k < keep; k++) {
		const char *name = order[k]->name;
		size_t ci = (size_t)(order[k] - c->cmd);

		if (!(order[k]->total > 0))
			break;
		for (size_t i = 0; i < s->n; i++) {
			struct instance_values *iv;

			if (!has[i])
				continue;
			if (!(iv = inst(&s->snap[i], OBJ_PROCESS, name)))
				goto oom;
			iv->v[pt] = 0;
		}
		for (size_t i = 0; i < c->ntop; i++) {
			const struct nmon_top *t = &c->top[i];
			struct instance_values *iv;

			if (t->cmd != ci || t->snap >= s->n)
				continue;
			if (!(iv = inst(&s->snap[t->snap], OBJ_PROCESS, name)))
				goto oom;
			iv->v[pt] += isnan(t->cpu) ? 0 : t->cpu;
			iv->v[ws] = isnan(iv->v[ws]) ? t->rss : iv->v[ws] + t->rss;
		}
	}
	free(order);
	free(has);
	return 0;
oom:
	free(order);
	free(has);
	return perr_set(e, "%s: out of memory", c->name);
}

int nmon_map_finish(struct nmon_ctx *c, struct import_set *s,
		    struct perr *e)
{
	if (c->shifted)
		strbuf_printf(&s->notes,
			      "%s:%d: %s has %zu fields, its header %zu (a device came or went and nmon wrote no new header): %lu such lines left unknown\n",
			      c->name, c->shifted_line, c->shifted_sec,
			      c->shifted_have, c->shifted_want, c->shifted);
	static const int counts[] = { CTR_MEM_PAGES, CTR_MEM_PAGES_INPUT,
				      CTR_MEM_PAGES_OUTPUT, CTR_MEM_PAGE_FAULTS,
				      CTR_MEM_PAGE_READS };

	for (size_t i = 0; i < s->n; i++) {
		struct import_snap *p = &s->snap[i];
		struct instance_values *m;

		if (totals(p) < 0)
			return perr_set(e, "%s: out of memory", c->name);
		m = sample_find(&p->s, OBJ_MEMORY, "");
		if (c->vm_deltas && m && p->t > p->from)
			for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
				m->v[catalog_counters[counts[k]].index] /=
					p->t - p->from;
	}
	return processes(c, s, e);
}
