/*
 * mklogset.c - write a log set of crafted values through the real writer
 * (logset_create / logset_write_sample), stamped in the past, with a
 * session spanning its middle: the report's verdicts can be checked on
 * log sets whose answer is known, without waiting or loading the machine.
 *
 *   mklogset PARENT NAME KIND [OPTION...]
 *        KIND: idle cpu cpu1 disk wdisk net paging lo lolocal
 *        --host NAME       the host name in perflog.meta (else this host's)
 *        --offset SECONDS  the set's clock runs SECONDS ahead: every time
 *                          (rows, markers) later by that much
 *        --session NAME    the session's name (else KIND)
 *        --extra KEY=VALUE a field of the begin and end markers (repeat)
 *        --waits STATE     a Process(SESSION) instance whose wait states
 *                          (cpu, disk, net, sleep) hold 90% in that state
 *        --no-markers      no session markers (an imported set)
 *        --later NAME      a second session NAME over samples 95..115,
 *                          with a Process(NAME) as --waits says (needs
 *                          --waits): busy for less of the log than the
 *                          first, so a whole-log ranking picks the first
 *
 * 2 CPUs, a disk sdb, an interface eth0 at 1 Gb/s, 8 GiB of memory; 120
 * one-second samples; session KIND over samples 30..90, busy as KIND says
 * inside it and idle outside. KIND lo adds, listed first, a loop device
 * loop0 whose busy time ticks with no I/O and an interface lo at 300 MB/s
 * while eth0 moves 10 MB/s: the report must name sdb and eth0; KIND
 * lolocal the same with eth0 at 500 B/s: lo carried the backup. Prints
 * the log set's directory. KIND wdisk: sdb 97% busy writing 40 MB/s in
 * 256 KiB transfers (a server's storage at its throughput).
 */
#define _GNU_SOURCE	/* open_memstream */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../counters/catalog.h"
#include "../../counters/rates.h"
#include "../../logs/logset.h"
#include "../../logs/markers.h"
#include "fill.h"

struct extras {
	const char *host, *session, *waits, *later;
	const char *extra[16];
	size_t nextra;
	long offset;
	int no_markers;
};

static int parse_extras(int argc, char **argv, struct extras *x)
{
	for (int i = 4; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--no-markers")) {
			x->no_markers = 1;
			continue;
		}
		if (!v)
			return -1;
		i++;
		if (!strcmp(a, "--host"))
			x->host = v;
		else if (!strcmp(a, "--session"))
			x->session = v;
		else if (!strcmp(a, "--waits"))
			x->waits = v;
		else if (!strcmp(a, "--later"))
			x->later = v;
		else if (!strcmp(a, "--offset"))
			x->offset = strtol(v, NULL, 10);
		else if (!strcmp(a, "--extra") && x->nextra < 16)
			x->extra[x->nextra++] = v;
		else
			return -1;
	}
	return 0;
}

/* perflog.meta's host line replaced by host (the writer takes this
 * machine's name). */
static int set_host(const char *dir, const char *host)
{
	char path[1100], line[4096], *out = NULL;
	size_t len = 0;
	FILE *f, *m;

	snprintf(path, sizeof(path), "%s/perflog.meta", dir);
	if (!(f = fopen(path, "r")) || !(m = open_memstream(&out, &len)))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "host\t", 5))
			fprintf(m, "host\t%s\n", host);
		else
			fputs(line, m);
	}
	fclose(f);
	fclose(m);
	f = fopen(path, "w");
	int rc = f && fputs(out, f) >= 0 && fclose(f) == 0 ? 0 : -1;
	free(out);
	return rc;
}

/* The wait states of Process(SESSION) at sample i (90% in state). */
static void fill_waits(struct sample *s, const char *inst, const char *state)
{
	static const char *const name[5] = { "cpu", "disk", "net", "sleep", "other" };
	static const enum counter_id id[5] = { CTR_PROC_PROCESSOR_TIME,
		CTR_PROC_DISK_WAIT, CTR_PROC_NET_WAIT, CTR_PROC_SLEEP,
		CTR_PROC_OTHER_WAIT };
	for (int k = 0; k < 5; k++)
		fill_value(s, OBJ_PROCESS, inst, id[k],
			   !strcmp(state, name[k]) ? 90 : 2.5);
	fill_value(s, OBJ_PROCESS, inst, CTR_PROC_CPU_WAIT, 0);
}

int main(int argc, char **argv)
{
	struct logset_writer *w;
	struct perr e;
	struct extras x = { 0 };

	if (argc < 4 || parse_extras(argc, argv, &x) < 0) {
		fprintf(stderr, "usage: mklogset PARENT NAME KIND [--host NAME] "
			"[--offset S] [--session NAME] [--extra K=V]... "
			"[--waits STATE] [--later NAME] [--no-markers]\n");
		return 2;
	}
	const time_t t0 = 1700000000 + x.offset;	/* 2023-11-14T22:13:20Z */
	const char *k = argv[3];
	const char *sname = x.session ? x.session : k;
	w = fill_create("mklogset", argv[1], argv[2], t0);
	if (!w)
		return 1;
	const char *cpus[] = { "_Total", "0", "1" };
	int lo = !strncmp(k, "lo", 2), bad = 0;
	for (int i = 0; i < 3; i++)
		bad |= fill_add_object(w, OBJ_PROCESSOR, cpus[i]);
	if (lo)
		bad |= fill_add_object(w, OBJ_LOGICALDISK, "loop0");
	bad |= fill_add_object(w, OBJ_LOGICALDISK, "sdb");
	bad |= fill_add_object(w, OBJ_MEMORY, "");
	if (lo)
		bad |= fill_add_object(w, OBJ_NETWORK, "lo");
	bad |= fill_add_object(w, OBJ_NETWORK, "eth0");
	if (x.waits)
		bad |= fill_add_object(w, OBJ_PROCESS, sname);
	if (x.waits && x.later)
		bad |= fill_add_object(w, OBJ_PROCESS, x.later);
	if (bad)
		return 1;
	struct sample s = { 0 };
	for (int i = 1; i <= 120; i++) {
		int in = i > 30 && i <= 90;
		double wob = (i % 5) * 0.5;
		double c0 = 3 + wob, c1 = 2 + wob, busy = 1 + wob, rb = 1e5,
		       xf = 10, nb = 1e5, pages = 0, avail = 6e9;
		if (in && !strcmp(k, "cpu"))
			c0 = c1 = 95 + wob;
		if (in && !strcmp(k, "cpu1"))
			c0 = 97 + wob;
		if (in && !strcmp(k, "disk")) {
			busy = 94 + wob;
			rb = 4e6;
			xf = 1000;	/* 4 KB transfers: no read-ahead */
		}
		if (in && !strcmp(k, "wdisk")) {
			busy = 97 + wob / 2;
			rb = 0;
			xf = 160;	/* 40 MB/s in 256 KB transfers */
		}
		if (in && !strcmp(k, "net"))
			nb = 0.93e9 / 8 + wob * 1e6;
		if (in && lo)	/* lolocal: client and server on one host */
			nb = strcmp(k, "lolocal") ? 10e6 : 500;
		if (in && !strcmp(k, "paging")) {
			pages = 800 + 100 * wob;
			avail = 90e6;
		}
		sample_reset(&s);
		fill_value(&s, OBJ_PROCESSOR, "0", CTR_CPU_PROCESSOR_TIME, c0);
		fill_value(&s, OBJ_PROCESSOR, "1", CTR_CPU_PROCESSOR_TIME, c1);
		fill_value(&s, OBJ_PROCESSOR, "_Total", CTR_CPU_PROCESSOR_TIME, (c0 + c1) / 2);
		fill_value(&s, OBJ_PROCESSOR, "_Total", CTR_CPU_IOWAIT_TIME, 0.2);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_TIME, busy);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_READ_BYTES, rb);
		int wr = in && !strcmp(k, "wdisk");
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_WRITE_BYTES, wr ? 40e6 : 0);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_READS, wr ? 0 : xf);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_WRITES, wr ? xf : 0);
		if (in && x.waits)
			fill_waits(&s, sname, x.waits);
		if (i > 95 && i <= 115 && x.waits && x.later)
			fill_waits(&s, x.later, x.waits);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_SEC_PER_TRANSFER, 0.0009);
		fill_value(&s, OBJ_MEMORY, "", CTR_MEM_AVAILABLE, avail);
		fill_value(&s, OBJ_MEMORY, "", CTR_MEM_PAGES, pages);
		fill_value(&s, OBJ_NETWORK, "eth0", CTR_NET_BYTES_TOTAL, nb);
		fill_value(&s, OBJ_NETWORK, "eth0", CTR_NET_BANDWIDTH, 1e9);
		if (lo) {
			fill_value(&s, OBJ_LOGICALDISK, "loop0", CTR_DISK_TIME, 5);
			fill_value(&s, OBJ_LOGICALDISK, "loop0", CTR_DISK_READ_BYTES, 0);
			fill_value(&s, OBJ_LOGICALDISK, "loop0", CTR_DISK_WRITE_BYTES, 0);
			fill_value(&s, OBJ_LOGICALDISK, "loop0", CTR_DISK_READS, 0);
			fill_value(&s, OBJ_LOGICALDISK, "loop0", CTR_DISK_WRITES, 0);
			fill_value(&s, OBJ_NETWORK, "lo", CTR_NET_BYTES_TOTAL, 300e6);
		}
		if (logset_write_sample(w, t0 + i, &s, &e) < 0) {
			fprintf(stderr, "mklogset: %s\n", e.msg);
			return 1;
		}
	}
	sample_free(&s);
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s", logset_writer_dir(w));
	if (logset_close_writer(w, t0 + 120, &e) < 0) {
		fprintf(stderr, "mklogset: %s\n", e.msg);
		return 1;
	}
	if (x.host && set_host(dir, x.host) < 0) {
		fprintf(stderr, "mklogset: unable to rewrite %s/perflog.meta\n", dir);
		return 1;
	}
	if (x.no_markers) {
		printf("%s\n", dir);
		return 0;
	}
	/* the session's markers, as perflog run writes them */
	const char *ex[18] = { "status=0", "duration=60" };
	for (size_t i = 0; i < x.nextra; i++)
		ex[2 + i] = x.extra[i];
	char *b = markers_format((double)t0 + 30, MARK_BEGIN, sname, "crafted",
				 ex + 2, x.nextra);
	char *en = markers_format((double)t0 + 90, MARK_END, sname, "crafted",
				  ex, 2 + x.nextra);
	char path[1100];
	snprintf(path, sizeof(path), "%s/markers.tsv", dir);
	FILE *f = fopen(path, "a");
	if (!f || !b || !en || fputs(b, f) < 0 || fputs(en, f) < 0 || fclose(f)) {
		fprintf(stderr, "mklogset: unable to write '%s'\n", path);
		return 1;
	}
	free(b);
	free(en);
	if (x.later) {
		b = markers_format((double)t0 + 95, MARK_BEGIN, x.later,
				   "crafted", ex + 2, x.nextra);
		en = markers_format((double)t0 + 115, MARK_END, x.later,
				    "crafted", ex, 2 + x.nextra);
		f = fopen(path, "a");
		if (!f || !b || !en || fputs(b, f) < 0 || fputs(en, f) < 0 ||
		    fclose(f)) {
			fprintf(stderr, "mklogset: unable to write '%s'\n", path);
			return 1;
		}
		free(b);
		free(en);
	}
	printf("%s\n", dir);
	return 0;
}

