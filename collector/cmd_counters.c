/*
 * cmd_counters.c - `perflog counters [-c FILE]`: what this host offers
 * (objects, their instances, every counter with its unit and definition)
 * and, with -c, whether a settings file is valid and what it would log.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../commands.h"
#include "../counters/counters.h"
#include "../sources/source.h"
#include "settings.h"

/* The i-th instance of a backup target object (NFS Client, CIFS Share,
 * Tape, FC Port) in s, NULL past the last or for another object. */
static const char *target_name(const struct raw_snapshot *s,
			       enum counter_object obj, size_t i)
{
	switch (obj) {
	case OBJ_NFS:
		return i < s->nnfs ? s->nfs[i].name : NULL;
	case OBJ_CIFS:
		return i < s->ncifs ? s->cifs[i].name : NULL;
	case OBJ_TAPE:
		return i < s->ntapes ? s->tapes[i].name : NULL;
	case OBJ_FC:
		return i < s->nfcs ? s->fcs[i].name : NULL;
	default:
		return NULL;
	}
}

static int is_target(enum counter_object obj)
{
	return obj == OBJ_NFS || obj == OBJ_CIFS || obj == OBJ_TAPE ||
	       obj == OBJ_FC;
}

static void list_instances(const struct raw_snapshot *s,
			   enum counter_object obj, FILE *f)
{
	switch (obj) {
	case OBJ_PROCESSOR:
		for (size_t i = 0; i < s->ncpus; i++)
			fprintf(f, " %s", s->cpus[i].name);
		break;
	case OBJ_LOGICALDISK:
		fprintf(f, " _Total");
		for (size_t i = 0; i < s->ndisks; i++) {
			const struct disk_raw *d = &s->disks[i];
			int idle = (d->rd_ios == 0 || d->rd_ios == SRC_NA) &&
				   (d->wr_ios == 0 || d->wr_ios == SRC_NA);

			fprintf(f, " %s%s", d->name, idle ? "(idle)" : "");
		}
		break;
	case OBJ_NETWORK:
		/* the rule is in counters/README.md, "Network _Total" */
		fprintf(f, " _Total");
		for (size_t i = 0; i < s->nnets; i++)
			fprintf(f, " %s%s", s->nets[i].name,
				s->nets[i].in_total ? "" : "(not in _Total)");
		break;
	case OBJ_PRESSURE: {
		int any = 0;

		for (int r = 0; r < PSI_COUNT; r++)
			if (s->psi[r].present) {
				fprintf(f, " %s",
					source_psi_name((enum psi_resource)r));
				any = 1;
			}
		if (!any)
			fprintf(f, " (not available: no pressure stall information from this source; Linux 4.20+ has it unless booted with psi=0)");
		break;
	}
	case OBJ_PROCESS:
		fprintf(f, " (the command of perflog run)");
		break;
	case OBJ_NFS:
	case OBJ_CIFS:
	case OBJ_TAPE:
	case OBJ_FC: {
		static const char *const none[] = {
			[OBJ_NFS] = "no NFS mounts (proc/self/mountstats)",
			[OBJ_CIFS] = "no SMB shares (proc/fs/cifs/Stats)",
			[OBJ_TAPE] = "no tape drives (sys/class/scsi_tape)",
			[OBJ_FC] = "no FC ports (sys/class/fc_host)",
		};
		const char *n;
		size_t i;

		for (i = 0; (n = target_name(s, obj, i)); i++)
			fprintf(f, " %s", n);
		if (i == 0)
			fprintf(f, " (none now: %s; logged when they appear)",
				none[obj]);
		break;
	}
	default:
		fprintf(f, " (no instances)");
		break;
	}
}

/* A counter's path for each instance present now (--paths). */
static void print_instance_paths(const struct raw_snapshot *s,
				 const struct counter_def *d, FILE *f)
{
	char p[256];

	switch (d->object) {
	case OBJ_PROCESSOR:
		for (size_t k = 0; k < s->ncpus; k++)
			fprintf(f, "%s\n", catalog_format_path(p, sizeof(p), d,
							      s->cpus[k].name));
		break;
	case OBJ_LOGICALDISK:
		fprintf(f, "%s\n", catalog_format_path(p, sizeof(p), d, "_Total"));
		for (size_t k = 0; k < s->ndisks; k++)
			fprintf(f, "%s\n", catalog_format_path(p, sizeof(p), d,
							      s->disks[k].name));
		break;
	case OBJ_NETWORK:
		fprintf(f, "%s\n", catalog_format_path(p, sizeof(p), d, "_Total"));
		for (size_t k = 0; k < s->nnets; k++)
			fprintf(f, "%s\n", catalog_format_path(p, sizeof(p), d,
							      s->nets[k].name));
		break;
	case OBJ_PRESSURE:
		for (int r = 0; r < PSI_COUNT; r++)
			if (s->psi[r].present)
				fprintf(f, "%s\n", catalog_format_path(p, sizeof(p), d,
					source_psi_name((enum psi_resource)r)));
		break;
	default: {
		const char *n;

		for (size_t k = 0; (n = target_name(s, d->object, k)); k++)
			fprintf(f, "%s\n", catalog_format_path(p, sizeof(p), d, n));
		break;
	}
	}
}

/* --paths with -c: the paths the settings file selects, as written. */
static void print_selected_paths(const struct settings *s)
{
	for (size_t i = 0; i < s->nsel; i++) {
		char path[256];

		printf("%s\n", catalog_format_path(path, sizeof(path),
						   s->sel[i].path.def,
						   s->sel[i].path.instance));
	}
}

/* --paths: every counter path, one a line, for scripts and shell
 * completion: Object(*)\Counter, then one per instance present now
 * (idle disks included: a settings file may name them). */
static void print_paths(const struct raw_snapshot *s, FILE *f)
{
	for (int o = 0; o < OBJ_COUNT; o++) {
		const struct object_def *od = &catalog_objects[o];

		for (int i = 0; i < od->ncounters; i++) {
			const struct counter_def *d =
				catalog_counter_at(od->object, i);
			char path[256];

			catalog_format_path(path, sizeof(path), d,
					    od->has_instances ? "*" : "");
			fprintf(f, "%s\n", path);
			print_instance_paths(s, d, f);
		}
	}
}

static int matches(const struct raw_snapshot *s, enum counter_object obj,
		   const char *inst)
{
	if (!strcmp(inst, "*") || !strcmp(inst, "") ||
	    (obj != OBJ_PRESSURE && !is_target(obj) &&
	     !strcasecmp(inst, "_Total")))
		return 1;
	if (is_target(obj)) {
		const char *n;

		for (size_t i = 0; (n = target_name(s, obj, i)); i++)
			if (!strcmp(n, inst))
				return 1;
		return 0;
	}
	switch (obj) {
	case OBJ_PROCESSOR:
		for (size_t i = 0; i < s->ncpus; i++)
			if (!strcasecmp(s->cpus[i].name, inst))
				return 1;
		return 0;
	case OBJ_LOGICALDISK:
		for (size_t i = 0; i < s->ndisks; i++)
			if (!strcasecmp(s->disks[i].name, inst))
				return 1;
		return 0;
	case OBJ_NETWORK:
		for (size_t i = 0; i < s->nnets; i++)
			if (!strcasecmp(s->nets[i].name, inst))
				return 1;
		return 0;
	case OBJ_PRESSURE:
		for (int r = 0; r < PSI_COUNT; r++)
			if (s->psi[r].present &&
			    !strcasecmp(source_psi_name((enum psi_resource)r),
					inst))
				return 1;
		return 0;
	default:
		return 1;
	}
}

/* -c FILE: what the settings select, and which instances are here now. */
static void print_selection(const char *file, const struct settings *s,
			    const struct raw_snapshot *snap)
{
	int missing = 0;

	printf("%s: valid; interval %u s, retention %lu s, log sets under %s\n",
	       file, s->interval, s->retention, s->directory);
	for (size_t i = 0; i < s->nsel; i++) {
		const struct counter_sel *cs = &s->sel[i];
		char path[256];
		int here = matches(snap, cs->path.def->object, cs->path.instance);

		catalog_format_path(path, sizeof(path), cs->path.def,
				    cs->path.instance);
		printf("  %-50s %s\n", path,
		       here ? "" : "(no such instance on this host yet)");
		missing += !here;
	}
	printf("%zu counters selected%s\n", s->nsel,
	       missing ? "; instances not present now are logged when they appear" : "");
}

/* Every object, its instances here, and its counters with unit and help. */
static void print_offered(const struct source *p, const struct raw_snapshot *snap)
{
	printf("source: %s\n", source_name(p));
	for (int o = 0; o < OBJ_COUNT; o++) {
		const struct object_def *od = &catalog_objects[o];

		printf("%s:", od->name);
		list_instances(snap, od->object, stdout);
		printf("\n");
		for (int i = 0; i < od->ncounters; i++) {
			const struct counter_def *d = catalog_counter_at(od->object, i);
			char path[256];

			catalog_format_path(path, sizeof(path), d,
					    od->has_instances ? "*" : "");
			printf("  %-46s %-6s %s\n", path,
			       catalog_unit_label(d->unit), d->help);
		}
	}
	if (isnan(snap->mem.available))
		printf("note: MemAvailable is missing (kernel older than 3.14): Available Bytes is not available\n");
	if (snap->tcp.out_segs == SRC_NA)
		printf("note: no TCP segment counts from this source (/proc/net/snmp): the TCP counters are logged as unknown\n");
	if (snap->psi[0].present)
		printf("note: Pressure(cpu)\\%% Full Stalled Time is unknown: the kernel defines no system-wide CPU full stall\n");
}

int cmd_counters(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "paths", no_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	const char *file = NULL;
	int paths = 0;
	struct raw_snapshot snap;
	struct source *p;
	struct settings s;
	struct perr e;
	const char *root = getenv("PERFLOG_PROC_ROOT");
	int c;

	optind = 1;
	opterr = 0;
	while ((c = util_getopt(argc, argv, "+c:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': file = optarg; break;
		case 'p': paths = 1; break;
		case 'h':
			printf("usage: perflog counters [-c FILE] [--paths]\n"
			       "List the objects, instances and counters this host offers;\n"
			       "with -c, validate a settings file and list what it logs.\n"
			       "  --paths  only the counter paths, one a line (for scripts):\n"
			       "           Object(*)\\Counter and one per instance present\n");
			return 0;
		default:
			return util_bad_option("counters", argv, optind, optopt);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "perflog counters: unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}
	if (settings_default(&s) < 0 ||
	    (file && settings_load(file, &s, &e) < 0)) {
		fprintf(stderr, "perflog counters: %s\n", file ? e.msg : "out of memory");
		settings_free(&s);
		return 1;
	}
	memset(&snap, 0, sizeof(snap));
	p = source_open(root ? root : "/", &e);
	if (!p || source_read(p, &snap, &e) < 0) {
		fprintf(stderr, "perflog counters: %s\n", e.msg);
		source_close(p);
		settings_free(&s);
		return 1;
	}
	if (paths && file)
		print_selected_paths(&s);
	else if (paths)
		print_paths(&snap, stdout);
	else if (file)
		print_selection(file, &s, &snap);
	else
		print_offered(p, &snap);
	snapshot_free(&snap);
	source_close(p);
	settings_free(&s);
	return 0;
}
