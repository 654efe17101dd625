/*
 * nmon.h - inside the nmon reader, shared by nmon.c (the file: lines,
 * ZZZZ times, passes) and nmon_map.c (a section's line to counters).
 */
#ifndef PERFLOG_IMPORT_NMON_H
#define PERFLOG_IMPORT_NMON_H

#include "import.h"

#define NMON_MAX_FIELDS 4096

/* A section's header: its fields as nmon wrote them (field i of a data
 * line is named by field i of its header: "CPU_ALL,CPU Total h,User%,..."
 * names "CPU_ALL,T0001,86.1,..."; "TOP,+PID,Time,%CPU" names
 * "TOP,0028184,T0002,24.93"). A header met again (CPU hotplug, nmon
 * restarting a section) replaces the one before for the lines after. */
struct nmon_header {
	char name[32];
	char **f;
	size_t nf;
};

/* One TOP line: a process's share in a snapshot. */
struct nmon_top {
	size_t snap, cmd;
	double cpu, rss;	/* %, bytes; NAN unknown */
};

struct nmon_cmd {
	char name[SRC_NAME_MAX];
	double total;		/* sum of %CPU over the file */
};

struct nmon_ctx {
	const char *name;	/* the file, for messages */
	int aix;		/* AIX nmon (topas_nmon): its columns differ */
	int vm_deltas;		/* Linux VM: per-interval counts, /dt later */
	struct nmon_header *hdr;
	size_t nhdr, caphdr;
	struct nmon_top *top;
	size_t ntop, captop;
	struct nmon_cmd *cmd;
	size_t ncmd, capcmd;
	unsigned long unnamed;	/* lines of sections with no header */
	int unnamed_line;
	unsigned long shifted;	/* device lines not as wide as their header */
	int shifted_line;
	char shifted_sec[32];
	size_t shifted_have, shifted_want;
	char began_time[16];	/* AAA time and date: when nmon began */
	char began_date[16];
};

/* A value of nmon's: NAN for empty, nan, INF, -1 and any negative
 * (nmon's "not available"); 0 with *v, or -1 when it is no number. */
int nmon_value(const char *s, double *v);

/* Map one data line (f[0..nf), f[1] the T number) of section h to the
 * counters of snapshot snap. 0, or -1 with e set (a bad number in a
 * column that is read: "FILE:LINE: ..."). */
int nmon_map_line(struct nmon_ctx *c, const struct nmon_header *h,
		  char **f, size_t nf, struct import_snap *snap, int line,
		  struct perr *e);

/* A TOP line into c->top (PID before the T number: f[1] PID, f[2] T). */
int nmon_map_top(struct nmon_ctx *c, const struct nmon_header *h, char **f,
		 size_t nf, size_t snap, int line, struct perr *e);

/* After every line: the _Totals of disks and interfaces, the VM counts
 * per second, and the busiest commands' Process instances. */
int nmon_map_finish(struct nmon_ctx *c, struct import_set *s,
		    struct perr *e);

#endif
