/*
 * test_import.c - perflog import's parsers (import/import.h) on the
 * fixtures of tests/fixtures/import/ (README there says where each
 * shape comes from): AIX nmon (continuation sections, PAGE, TOP with
 * AIX's columns, a cut last snapshot), the same file sorted (ZZZZ last),
 * Linux nmon (VM counts per interval, NET, TOP with a comma in a
 * command, a CPU added mid-file, a file cut mid-line), a DST change,
 * perfmon CSV from relog, typeperf and esxtop -b; and garbage.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "../../import/import.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures"
#endif

static char *fixture(const char *name, size_t *len)
{
	char path[256];
	char *t;

	snprintf(path, sizeof(path), FIXTURES "/import/%s", name);
	t = util_read_file(path, len);
	if (!t)
		printf("# cannot read %s\n", path);
	return t;
}

/* A value of snapshot i, NAN when absent. */
static double val(const struct import_set *s, size_t i, enum counter_object o,
		  const char *inst, enum counter_id id)
{
	const struct instance_values *iv;

	if (i >= s->n)
		return -12345;
	iv = sample_find(&s->snap[i].s, o, inst);
	return iv ? iv->v[catalog_counters[id].index] : NAN;
}

static int parse(const char *name, const char *tz, struct import_set *s,
		 struct perr *e)
{
	size_t len;
	char *t = fixture(name, &len);
	int rc;

	if (!t)
		return -2;
	switch (import_detect(t, len)) {
	case IMPORT_NMON: rc = import_nmon(t, len, name, tz, s, e); break;
	case IMPORT_PERFMON: rc = import_perfmon(t, len, name, tz, s, e); break;
	default: rc = -3;
	}
	free(t);
	return rc;
}

static void check_aix(const char *file)
{
	struct import_set s;
	struct perr e;
	char n[128];

	if (parse(file, "UTC", &s, &e) != 0) {
		OK(0, file);
		printf("# %s\n", e.msg);
		return;
	}
#define T(what) (snprintf(n, sizeof(n), "%s: %s", file, what), n)
	EQ_STR(s.host, "tsmsrv", T("host from AAA,host"));
	EQ_STR(s.os, "AIX 7.2.5.3 (nmon TOPAS-NMON)", T("os"));
	EQ_INT(s.n, 3, T("three snapshots: the cut fourth dropped"));
	OK(s.notes.len && strstr(s.notes.p, "T0004") &&
	   strstr(s.notes.p, "dropped"), T("a note says T0004 was dropped"));
	EQ_INT(s.step, 60, T("step from the ZZZZ spacing"));
	EQ_DBL(s.snap[0].t, 1796083140, 0, T("T0001 23:59:00 30-NOV-2026 UTC"));
	EQ_DBL(s.snap[1].t - s.snap[0].t, 60, 0, T("T0002 across midnight"));
	EQ_DBL(s.snap[0].from, s.snap[0].t - 60, 0, T("first covers one step"));
	EQ_DBL(val(&s, 1, OBJ_PROCESSOR, "_Total", CTR_CPU_PROCESSOR_TIME), 50, 1e-9,
	       T("CPU_ALL: 100 - idle - wait"));
	EQ_DBL(val(&s, 1, OBJ_PROCESSOR, "_Total", CTR_CPU_PRIVILEGED_TIME), 10, 1e-9,
	       T("CPU_ALL Sys% -> % Privileged Time"));
	EQ_DBL(val(&s, 0, OBJ_PROCESSOR, "1", CTR_CPU_USER_TIME), 20, 1e-9,
	       T("CPU02 -> Processor(1)"));
	EQ_DBL(val(&s, 0, OBJ_LOGICALDISK, "hdisk2", CTR_DISK_TIME), 30, 1e-9,
	       T("DISKBUSY1 continuation merged: hdisk2"));
	EQ_DBL(val(&s, 0, OBJ_LOGICALDISK, "hdisk2", CTR_DISK_READ_BYTES), 300 * 1024., 1e-6,
	       T("DISKREAD1 KB/s x 1024"));
	EQ_DBL(val(&s, 0, OBJ_LOGICALDISK, "_Total", CTR_DISK_WRITE_BYTES), 6000 * 1024., 1e-6,
	       T("LogicalDisk(_Total) sums hdisk0..2"));
	EQ_DBL(val(&s, 1, OBJ_LOGICALDISK, "hdisk0", CTR_DISK_TIME), NAN, 0, T("nan unknown"));
	EQ_DBL(val(&s, 1, OBJ_LOGICALDISK, "hdisk0", CTR_DISK_READ_BYTES), NAN, 0, T("INF unknown"));
	EQ_DBL(val(&s, 1, OBJ_LOGICALDISK, "hdisk0", CTR_DISK_WRITE_BYTES), NAN, 0, T("-1 unknown"));
	EQ_DBL(val(&s, 1, OBJ_NETWORK, "en0", CTR_NET_BYTES_RECEIVED), NAN, 0, T("empty unknown"));
	EQ_DBL(val(&s, 0, OBJ_NETWORK, "en0", CTR_NET_BYTES_TOTAL), 3072 * 1024., 1e-6,
	       T("NET read + write -> Bytes Total/sec"));
	EQ_DBL(val(&s, 0, OBJ_NETWORK, "en0", CTR_NET_PACKETS), 300, 1e-9,
	       T("NETPACKET en0-reads/s + en0-writes/s"));
	EQ_DBL(val(&s, 0, OBJ_NETWORK, "_Total", CTR_NET_BYTES_RECEIVED), 1024 * 1024., 1e-6,
	       T("Network _Total leaves lo0 out"));
	EQ_DBL(val(&s, 0, OBJ_MEMORY, "", CTR_MEM_PAGES), 3, 1e-9,
	       T("PAGE pgsin + pgsout -> Pages/sec"));
	EQ_DBL(val(&s, 0, OBJ_MEMORY, "", CTR_MEM_PAGE_FAULTS), 120, 1e-9, T("PAGE faults"));
	EQ_DBL(val(&s, 0, OBJ_MEMORY, "", CTR_MEM_CACHE), NAN, 0,
	       T("AIX MEM has no Cache Bytes"));
	EQ_DBL(val(&s, 0, OBJ_SYSTEM, "", CTR_SYS_QUEUE_LENGTH), 2.5, 1e-9,
	       T("AIX Runnable as it is"));
	EQ_DBL(val(&s, 1, OBJ_PROCESS, "dsmserv", CTR_PROC_PROCESSOR_TIME), 80, 1e-9,
	       T("TOP -> Process(dsmserv)"));
	EQ_DBL(val(&s, 1, OBJ_PROCESS, "dsmserv", CTR_PROC_WORKING_SET), 300200 * 1024., 1e-3,
	       T("AIX ResText + ResData -> Working Set"));
	EQ_DBL(val(&s, 2, OBJ_PROCESS, "java", CTR_PROC_PROCESSOR_TIME), 10, 1e-9,
	       T("two java PIDs summed"));
	EQ_DBL(val(&s, 1, OBJ_PROCESS, "java", CTR_PROC_PROCESSOR_TIME), 0, 1e-9,
	       T("a command absent from a TOP snapshot is 0"));
	EQ_DBL(val(&s, 0, OBJ_PROCESS, "dsmserv", CTR_PROC_PROCESSOR_TIME), NAN, 0,
	       T("no TOP in the first snapshot: unknown"));
	OK(strstr(s.source, "local time read as UTC") != NULL, T("source names the zone"));
#undef T
	import_set_free(&s);
}

static void check_linux(void)
{
	struct import_set s;
	struct perr e;

	if (parse("linux.nmon", "UTC", &s, &e) != 0) {
		OK(0, "linux.nmon");
		printf("# %s\n", e.msg);
		return;
	}
	EQ_STR(s.host, "backup01", "linux: host");
	EQ_INT(s.n, 3, "linux: the snapshot cut mid-line dropped");
	EQ_INT(s.step, 10, "linux: step 10, the header's interval");
	EQ_DBL(val(&s, 0, OBJ_MEMORY, "", CTR_MEM_PAGES_INPUT), 1.0, 1e-9,
	       "linux: VM pswpin 10 in 10 s -> 1/s");
	EQ_DBL(val(&s, 0, OBJ_MEMORY, "", CTR_MEM_PAGES), 3.0, 1e-9,
	       "linux: VM (pswpin + pswpout) / dt");
	EQ_DBL(val(&s, 1, OBJ_MEMORY, "", CTR_MEM_PAGE_FAULTS), 6000, 1e-9,
	       "linux: VM pgfault / dt (header met after T0001)");
	EQ_DBL(val(&s, 0, OBJ_MEMORY, "", CTR_MEM_CACHE), 4096. * 1048576, 1,
	       "linux: MEM cached MB -> Cache Bytes");
	EQ_DBL(val(&s, 0, OBJ_SYSTEM, "", CTR_SYS_QUEUE_LENGTH), 2, 1e-9,
	       "linux: Runnable less nmon itself");
	EQ_DBL(val(&s, 0, OBJ_SYSTEM, "", CTR_SYS_CONTEXT_SWITCHES), 2000.5, 1e-9,
	       "linux: pswitch");
	EQ_DBL(val(&s, 0, OBJ_LOGICALDISK, "_Total", CTR_DISK_READ_BYTES), 1000 * 1024., 1e-6,
	       "linux: _Total leaves the partition sda1 and loop0 out");
	EQ_DBL(val(&s, 1, OBJ_LOGICALDISK, "sda", CTR_DISK_READ_BYTES), NAN, 0,
	       "linux: empty DISKREAD unknown");
	EQ_DBL(val(&s, 1, OBJ_NETWORK, "eth0", CTR_NET_BYTES_TOTAL), NAN, 0,
	       "linux: nan read makes the total unknown");
	EQ_DBL(val(&s, 1, OBJ_NETWORK, "eth0", CTR_NET_BYTES_SENT), 3000 * 1024., 1e-6,
	       "linux: write KB/s after the read columns");
	EQ_DBL(val(&s, 2, OBJ_PROCESSOR, "2", CTR_CPU_PROCESSOR_TIME), 100, 1e-9,
	       "linux: CPU003 from a header met mid-file");
	EQ_DBL(val(&s, 1, OBJ_PROCESSOR, "2", CTR_CPU_PROCESSOR_TIME), NAN, 0,
	       "linux: CPU003 unknown before it came");
	EQ_DBL(val(&s, 1, OBJ_PROCESS, "dsmc", CTR_PROC_PROCESSOR_TIME), 50, 1e-9,
	       "linux: TOP dsmc (its UARG has commas)");
	EQ_DBL(val(&s, 2, OBJ_PROCESS, "dsmc", CTR_PROC_WORKING_SET), 10848 * 1024., 1e-3,
	       "linux: ResSet KB -> Working Set");
	EQ_DBL(val(&s, 2, OBJ_PROCESS, "my,proc", CTR_PROC_PROCESSOR_TIME), 20, 1e-9,
	       "linux: a command with a comma in it");
	EQ_DBL(val(&s, 2, OBJ_PROCESS, "my,proc", CTR_PROC_WORKING_SET), 2048 * 1024., 1e-3,
	       "linux: and its columns after it");
	import_set_free(&s);
}

static void check_dst(void)
{
	struct import_set s;
	struct perr e;
	int mono = 1;

	if (parse("dst.nmon", "Europe/Berlin", &s, &e) != 0) {
		OK(0, "dst.nmon");
		printf("# %s\n", e.msg);
		return;
	}
	EQ_INT(s.n, 9, "dst: every snapshot kept");
	EQ_INT(s.step, 1200, "dst: step 20 minutes");
	/* 01:40 CEST = 23:40Z; the second 02:00 is CET = 01:00Z */
	EQ_DBL(s.snap[0].t, 1792885200, 0, "dst: 01:40 CEST");
	EQ_DBL(s.snap[4].t, 1792890000, 0, "dst: the repeated 02:00 read as CET");
	for (size_t i = 1; i < s.n; i++)
		if (s.snap[i].t - s.snap[i - 1].t != 1200)
			mono = 0;
	OK(mono, "dst: 20 minutes apart all through");
	OK(s.notes.len && strstr(s.notes.p, "end of summer time"),
	   "dst: a note says the local time went back");
	EQ_DBL(val(&s, 4, OBJ_PROCESSOR, "_Total", CTR_CPU_USER_TIME), 50, 1e-9,
	       "dst: rows in the source's order");
	import_set_free(&s);
	/* read in a zone without that change: the time goes back */
	if (parse("dst.nmon", "UTC", &s, &e) != 0) {
		OK(0, "dst.nmon in UTC");
		return;
	}
	mono = 1;
	for (size_t i = 1; i < s.n; i++)
		if (s.snap[i].t <= s.snap[i - 1].t)
			mono = 0;
	OK(mono, "dst in UTC: times kept going forward");
	EQ_DBL(s.snap[4].t - s.snap[3].t, 1200, 0, "dst in UTC: one step after the one before");
	OK(s.notes.len && strstr(s.notes.p, "time goes back"),
	   "dst in UTC: a warning names it");
	import_set_free(&s);
}

static void check_perfmon(void)
{
	struct import_set s;
	struct perr e;

	if (parse("relog.csv", NULL, &s, &e) != 0) {
		OK(0, "relog.csv");
		printf("# %s\n", e.msg);
		return;
	}
	EQ_STR(s.host, "SQL01", "relog: host from the paths");
	EQ_INT(s.n, 3, "relog: three rows");
	EQ_INT(s.step, 15, "relog: step 15 s");
	/* 12:35:45.166 EDT + 240 min = 16:35:45.166Z */
	EQ_DBL(s.snap[0].t, 1788885345.166, 1e-3, "relog: UTC = local + bias");
	EQ_DBL(val(&s, 0, OBJ_PROCESSOR, "_Total", CTR_CPU_PROCESSOR_TIME), 12.5, 1e-9,
	       "relog: Processor(_Total) by name");
	EQ_DBL(val(&s, 0, OBJ_LOGICALDISK, "0 C:", CTR_DISK_TIME), NAN, 0,
	       "relog: \" \" is no value");
	EQ_DBL(val(&s, 1, OBJ_LOGICALDISK, "0 C:", CTR_DISK_TIME), 60, 1e-9,
	       "relog: % Disk Time = 100 - % Idle Time");
	EQ_DBL(val(&s, 2, OBJ_LOGICALDISK, "0 C:", CTR_DISK_TIME), 0, 1e-9,
	       "relog: % Idle Time over 100 is 0 busy");
	EQ_DBL(val(&s, 1, OBJ_LOGICALDISK, "C:", CTR_DISK_READ_BYTES), NAN, 0,
	       "relog: LogicalDisk left out beside PhysicalDisk");
	EQ_DBL(val(&s, 1, OBJ_MEMORY, "", CTR_MEM_AVAILABLE), 512.5 * 1048576, 1e-3,
	       "relog: Available MBytes -> Available Bytes");
	EQ_DBL(val(&s, 2, OBJ_NETWORK, "vEthernet (Internal/Switch)", CTR_NET_BYTES_RECEIVED),
	       250000.5, 1e-9, "relog: instance split at the first ( and the last )");
	EQ_DBL(val(&s, 2, OBJ_PROCESS, "sqlservr", CTR_PROC_PROCESSOR_TIME), 100, 1e-9,
	       "relog: Process(sqlservr)");
	EQ_DBL(val(&s, 2, OBJ_PROCESS, "_Total", CTR_PROC_PROCESSOR_TIME), NAN, 0,
	       "relog: Process(_Total) is no process");
	OK(s.other.len && strstr(s.other.p, "Page life expectancy") &&
	   strstr(s.other.p, "\"280\""), "relog: unknown counters kept in the other CSV");
	import_set_free(&s);

	if (parse("typeperf.csv", NULL, &s, &e) != 0) {
		OK(0, "typeperf.csv");
		printf("# %s\n", e.msg);
		return;
	}
	EQ_INT(s.n, 3, "typeperf: the blank first line skipped");
	EQ_DBL(s.snap[0].t, 1796014210, 1e-3, "typeperf: bias -60: 05:50:10 local = 04:50:10Z");
	EQ_DBL(val(&s, 2, OBJ_PROCESSOR, "1", CTR_CPU_PROCESSOR_TIME), 60, 1e-9,
	       "typeperf: Processor(1)");
	EQ_INT(s.other.len, 0, "typeperf: every counter mapped");
	import_set_free(&s);

	if (parse("esxtop.csv", NULL, &s, &e) != 0) {
		OK(0, "esxtop.csv");
		printf("# %s\n", e.msg);
		return;
	}
	EQ_STR(s.host, "esx01.lab", "esxtop: host");
	EQ_INT(s.step, 2, "esxtop: step 2 s");
	EQ_DBL(val(&s, 1, OBJ_PROCESSOR, "_Total", CTR_CPU_PROCESSOR_TIME), 50.25, 1e-9,
	       "esxtop: Physical Cpu -> Processor");
	EQ_DBL(val(&s, 0, OBJ_LOGICALDISK, "naa.600508b1001c", CTR_DISK_WRITE_BYTES),
	       2.5 * 1048576, 1e-3, "esxtop: MBytes Written/sec x 2^20");
	OK(s.other.len && strstr(s.other.p, "MBits Received/sec"),
	   "esxtop: Network Port kept as it is");
	import_set_free(&s);
}

/* perflog's own plain CSV (export --csv), in the form of now and of
 * before; Available Bytes kept over Available MBytes in either order. */
static void check_own_csv(void)
{
	static const char *const forms[] = {
		"time,\\\\b01\\LogicalDisk(sda)\\% Disk Time,\\\\b01\\Memory\\Available Bytes\n"
		"2026-11-30 04:50:15,12.5,1000\n"
		"2026-11-30 04:50:20,,2000\n",
		"time,\\\\b01\\LogicalDisk(sda)\\% Disk Time,\\\\b01\\Memory\\Available Bytes\n"
		"2026-11-30T04:50:15Z,12.5,1000\n"
		"2026-11-30T04:50:20Z,,2000\n",
	};
	static const char *const both[] = {
		"\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\b01\\Memory\\Available MBytes\",\"\\\\b01\\Memory\\Available Bytes\"\r\n"
		"\"11/30/2026 04:50:15.000\",\"0.0009765625\",\"1025\"\r\n",
		"\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\b01\\Memory\\Available Bytes\",\"\\\\b01\\Memory\\Available MBytes\"\r\n"
		"\"11/30/2026 04:50:15.000\",\"1025\",\"0.0009765625\"\r\n",
	};
	struct import_set s;
	struct perr e;

	for (size_t i = 0; i < 2; i++) {
		const char *t = forms[i];

		EQ_INT(import_detect(t, strlen(t)), IMPORT_PERFMON,
		       "own CSV: told apart by its time header");
		if (import_perfmon(t, strlen(t), "own.csv", NULL, &s, &e) != 0) {
			OK(0, "own CSV read");
			printf("# %s\n", e.msg);
			continue;
		}
		EQ_STR(s.host, "b01", "own CSV: host from the paths");
		EQ_INT(s.n, 2, "own CSV: two rows");
		/* 2026-11-30T04:50:15Z */
		EQ_DBL(s.snap[0].t, 1796014215, 1e-3,
		       i ? "own CSV, ISO form: the time in UTC" :
			   "own CSV: YYYY-MM-DD HH:MM:SS in UTC");
		EQ_DBL(val(&s, 0, OBJ_LOGICALDISK, "sda", CTR_DISK_TIME), 12.5,
		       1e-9, "own CSV: its % Disk Time is perflog's, kept");
		EQ_DBL(val(&s, 1, OBJ_LOGICALDISK, "sda", CTR_DISK_TIME), NAN, 0,
		       "own CSV: an empty cell is no value");
		EQ_DBL(val(&s, 1, OBJ_MEMORY, "", CTR_MEM_AVAILABLE), 2000, 1e-9,
		       "own CSV: Available Bytes");
		EQ_INT(s.other.len, 0, "own CSV: every counter mapped");
		import_set_free(&s);
	}
	for (size_t i = 0; i < 2; i++) {
		const char *t = both[i];

		if (import_perfmon(t, strlen(t), "both.csv", NULL, &s, &e) != 0) {
			OK(0, "both.csv");
			printf("# %s\n", e.msg);
			continue;
		}
		EQ_DBL(val(&s, 0, OBJ_MEMORY, "", CTR_MEM_AVAILABLE), 1025, 1e-9,
		       i ? "Available Bytes before MBytes: the bytes kept" :
			   "Available MBytes before Bytes: the bytes kept");
		OK(s.other.len && strstr(s.other.p, "Available MBytes"),
		   "the MBytes column kept in the other CSV");
		import_set_free(&s);
	}
}

/* nmon reads everything at its start and takes its first snapshot a step
 * after its setup (its configuration dump: 4-6 s on t3600's loaded
 * host), and T0001's rates are over those seconds: 64 MB written and
 * synced in the 1.5 s after nmon started gave T0001, stamped 3 s after
 * the start, 34164 KB/s. Spread over one step only, the bytes of nmon's
 * first seconds were lost (t3600's late nmon: the imported disk bytes
 * short of nmon's rates times their spans). latestart.nmon began at
 * 10:00:00 (AAA time, Linux's 10:00.00), its T0001 at 10:00:04. */
static void check_late_start(void)
{
	struct import_set s;
	struct perr e;
	double bytes = 0;

	if (parse("latestart.nmon", "UTC", &s, &e) != 0) {
		OK(0, "latestart.nmon");
		return;
	}
	EQ_INT((int)s.n, 4, "late start: 4 snapshots");
	EQ_DBL(s.snap[0].t - s.snap[0].from, 4, 1e-9,
	       "late start: T0001's rates over the 4 s since nmon's start (AAA time)");
	EQ_DBL(s.snap[1].from, s.snap[0].t, 1e-9, "late start: T0002 over the step after");
	for (size_t i = 0; i < s.n; i++)
		bytes += val(&s, i, OBJ_LOGICALDISK, "vda", CTR_DISK_WRITE_BYTES) *
			 (s.snap[i].t - s.snap[i].from);
	EQ_DBL(bytes, (4000 * 4 + 3 * 1000) * 1024., 1e-3,
	       "late start: the bytes written are nmon's rates times their spans");
	import_set_free(&s);

	/* nmon's start a step before T0001 (linux.nmon) or at it (AIX's
	 * topas_nmon: T0001 at its start): the step before, as always */
	if (parse("linux.nmon", "UTC", &s, &e) == 0) {
		EQ_DBL(s.snap[0].t - s.snap[0].from, 10, 1e-9,
		       "started a step before T0001: the step");
		import_set_free(&s);
	}
	if (parse("aix.nmon", "UTC", &s, &e) == 0) {
		EQ_DBL(s.snap[0].t - s.snap[0].from, 60, 1e-9,
		       "started at T0001 (AIX): the step");
		import_set_free(&s);
	}
}

/* An nmon file of one CPU_ALL line a snapshot, stamped 10:00:SS at each
 * of stamps[0..n), its header head, parsed into *s: 0, or -1 said. */
static int stamped(const char *head, const char *const *stamps, size_t n,
		   const char *name, struct import_set *s)
{
	struct strbuf b = STRBUF_INIT;
	struct perr e;
	int rc;

	strbuf_puts(&b, head);
	for (size_t i = 0; i < n; i++)
		strbuf_printf(&b, "ZZZZ,T%04zu,10:00:%s,01-DEC-2026\nCPU_ALL,T%04zu,1,1,1,97\n",
			      i + 1, stamps[i], i + 1);
	rc = import_nmon(b.p, b.len, name, "UTC", s, &e);
	if (rc != 0) {
		OK(0, name);
		printf("# %s\n", e.msg);
	}
	strbuf_free(&b);
	return rc;
}

/* nmon -s 1 on a host too busy for it: its stamps 2 s apart more often
 * than 1. The step is the header's interval, not the stamps' median (2:
 * t3600 on a loaded machine, 'interval 1 s'). */
static void check_busy_interval(void)
{
	static const char *const stamps[] = { "00", "02", "03", "05", "07",
					       "08", "10" };
	struct import_set s;

	if (stamped("AAA,host,busy\nAAA,interval,1\n"
		    "CPU_ALL,CPU Total busy,User%,Sys%,Wait%,Idle%\n", stamps,
		    sizeof(stamps) / sizeof(stamps[0]), "busy.nmon", &s) != 0)
		return;
	EQ_INT(s.step, 1, "busy: step 1 s, nmon's interval, where the stamps' median is 2");
	EQ_DBL(s.snap[6].t - s.snap[0].t, 10, 1e-9, "busy: the stamps' span kept");
	import_set_free(&s);
}

/* Whole-second stamps of a late nmon (1, 1, 2 ... apart) evened out; a
 * real gap kept. */
static void check_late(void)
{
	static const char *const stamps[] = { "00", "01", "02", "04", "05",
					       "06", "08", "30", "31", "32" };
	struct strbuf b = STRBUF_INIT;
	struct import_set s;
	struct perr e;

	if (stamped("AAA,host,late\nCPU_ALL,CPU Total late,User%,Sys%,Wait%,Idle%\n",
		    stamps, sizeof(stamps) / sizeof(stamps[0]), "late.nmon", &s) != 0)
		return;
	EQ_INT(s.step, 1, "late: step 1 s");
	EQ_DBL(s.snap[3].t - s.snap[0].t, 4, 1e-9, "late: the first stamp and the run's last exact");
	EQ_DBL(s.snap[1].t - s.snap[0].t, 8.0 / 6, 1e-6, "late: 1, 1, 2 ... apart read as 1.33 s each");
	EQ_DBL(s.snap[6].t - s.snap[0].t, 8, 1e-9, "late: the run ends on its stamp");
	EQ_DBL(s.snap[7].t - s.snap[6].t, 22, 1e-9, "late: a 22 s gap stays a gap");
	EQ_DBL(s.snap[7].from, s.snap[6].t, 1e-9, "late: the row after the gap covers it");
	EQ_DBL(s.snap[9].t - s.snap[8].t, 1, 1e-9, "late: the next run as stamped");
	import_set_free(&s);
	strbuf_free(&b);

	/* an interface gone without a new NET header: the line's values
	 * shifted, so unknown, and said */
	strbuf_puts(&b, "AAA,host,h\nNET,Network I/O h,a-read-KB/s,b-read-KB/s,a-write-KB/s,b-write-KB/s\n"
		    "ZZZZ,T0001,10:00:00,01-DEC-2026\nNET,T0001,1,2,3,4\n"
		    "ZZZZ,T0002,10:00:01,01-DEC-2026\nNET,T0002,1,3\n");
	if (import_nmon(b.p, b.len, "shift.nmon", "UTC", &s, &e) != 0) {
		OK(0, "shift: parses");
		strbuf_free(&b);
		return;
	}
	EQ_DBL(val(&s, 0, OBJ_NETWORK, "b", CTR_NET_BYTES_SENT), 4096, 1e-9, "shift: a full NET line read");
	EQ_DBL(val(&s, 1, OBJ_NETWORK, "b", CTR_NET_BYTES_SENT), NAN, 0, "shift: a short one unknown");
	OK(s.notes.len && strstr(s.notes.p, "shift.nmon:6: NET has 4 fields, its header 6"),
	   "shift: a note names the line");
	import_set_free(&s);
	strbuf_free(&b);
}

/* A perfmon CSV of text, parsed with tz; n rows expected. */
static int csv(const char *text, const char *tz, struct import_set *s)
{
	struct perr e = { { 0 } };

	if (import_perfmon(text, strlen(text), "dst.csv", tz, s, &e) == 0)
		return 0;
	printf("# %s\n", e.msg);
	return -1;
}

/* issue 31 item 2: a perfmon CSV through a DST change is placed by the
 * zone's rules (the Windows name mapped to the zone database), not by
 * the bias at its start; an unknown name is said; --tz overrides. */
static void check_perfmon_dst(void)
{
	struct import_set s;

	if (csv("\"(PDH-CSV 4.0) (W. Europe Standard Time)(-60)\",\"\\\\fs\\Memory\\Pages/sec\"\r\n"
		"\"03/29/2026 01:59:30.000\",\"1\"\r\n"
		"\"03/29/2026 01:59:45.000\",\"2\"\r\n"
		"\"03/29/2026 03:00:00.000\",\"3\"\r\n", NULL, &s) == 0) {
		EQ_DBL(s.snap[0].t, 1774745970, 1e-6, "csv dst: 01:59:30 CET = 00:59:30Z");
		EQ_DBL(s.snap[2].t, 1774746000, 1e-6, "csv dst: 03:00 CEST = 01:00:00Z, not 02:00Z");
		EQ_DBL(s.snap[2].t - s.snap[1].t, 15, 1e-6, "csv dst: 15 s apart through the change");
		OK(strstr(s.source, "Europe/Berlin") != NULL, "csv dst: the source names the zone");
		OK(!s.notes.len || !strstr(s.notes.p, "cannot be placed"), "csv dst: no warning");
		import_set_free(&s);
	} else {
		OK(0, "csv dst: parses");
	}
	/* the end of summer time: 02:50, 02:55 CEST, then 02:00 CET */
	if (csv("\"(PDH-CSV 4.0) (W. Europe Daylight Time)(-120)\",\"\\\\fs\\Memory\\Pages/sec\"\n"
		"\"10/25/2026 02:50:00.000\",\"1\"\n\"10/25/2026 02:55:00.000\",\"1\"\n"
		"\"10/25/2026 02:00:00.000\",\"1\"\n\"10/25/2026 02:05:00.000\",\"1\"\n",
		NULL, &s) == 0) {
		EQ_DBL(s.snap[0].t, 1792889400, 1e-6, "csv dst end: 02:50 CEST = 00:50Z");
		EQ_DBL(s.snap[2].t - s.snap[1].t, 300, 1e-6, "csv dst end: 02:00 CET 5 min after 02:55 CEST");
		EQ_DBL(s.snap[3].t - s.snap[0].t, 900, 1e-6, "csv dst end: no time moved");
		OK(!s.notes.len || !strstr(s.notes.p, "time goes back"), "csv dst end: nothing moved on");
		import_set_free(&s);
	} else {
		OK(0, "csv dst end: parses");
	}
	/* a zone name perflog does not know (a German Windows): the bias,
	 * with the warning */
	if (csv("\"(PDH-CSV 4.0) (Mitteleurop\xc3\xa4ische Zeit)(-60)\",\"\\\\fs\\Memory\\Pages/sec\"\n"
		"\"03/29/2026 01:59:45.000\",\"2\"\n\"03/29/2026 03:00:00.000\",\"3\"\n", NULL, &s) == 0) {
		EQ_DBL(s.snap[0].t, 1774745985, 1e-6, "csv unknown zone: the bias");
		OK(s.notes.len && strstr(s.notes.p, "dst.csv:1: zone 'Mitteleurop") &&
		   strstr(s.notes.p, "after a DST change in the file cannot be placed"),
		   "csv unknown zone: warned");
		import_set_free(&s);
	} else {
		OK(0, "csv unknown zone: parses");
	}
	if (csv("\"(PDH-CSV 4.0) (Mitteleurop\xc3\xa4ische Zeit)(-60)\",\"\\\\fs\\Memory\\Pages/sec\"\n"
		"\"03/29/2026 01:59:45.000\",\"2\"\n\"03/29/2026 03:00:00.000\",\"3\"\n",
		"Europe/Berlin", &s) == 0) {
		EQ_DBL(s.snap[1].t, 1774746000, 1e-6, "csv --tz Europe/Berlin: the zone's rules");
		OK(!s.notes.len || !strstr(s.notes.p, "cannot be placed"), "csv --tz: no warning");
		import_set_free(&s);
	} else {
		OK(0, "csv --tz: parses");
	}
	EQ_STR(import_windows_zone("GMT Daylight Time"), "Europe/London", "winzone: a Daylight name");
	EQ_STR(import_windows_zone("eastern standard time"), "America/New_York", "winzone: any case");
	OK(import_windows_zone("Mars Standard Time") == NULL, "winzone: unknown");
}

/* issue 31 items 1 and 4: a day no month has is an error naming the
 * line (not 1 Dec, and every snapshot after moved on by a day); a file
 * cut inside its last ZZZZ line loses that snapshot only. */
static void check_nmon_edges(void)
{
	static const char *const cuts[] = { "ZZZZ,T0004,04:5", "ZZZZ,T00",
					    "ZZZZ,T0004,04:50:40,30-NO" };
	struct import_set s;
	struct perr e = { { 0 } };
	size_t len;
	char *t = fixture("linux.nmon", &len), *p;
	const char *ok29 = "AAA,host,x\nCPU_ALL,CPU Total x,User%,Sys%,Wait%,Idle%\n"
			   "ZZZZ,T0001,10:00:00,29-FEB-2028\nCPU_ALL,T0001,1,1,1,97\n";

	OK(import_nmon(ok29, strlen(ok29), "x.nmon", "UTC", &s, &e) == 0,
	   "nmon: 29-FEB of a leap year is a day");
	import_set_free(&s);
	if (!t)
		return;
	/* linux.nmon cut before its T0004 ZZZZ line, then that line cut */
	p = strstr(t, "ZZZZ,T0004");
	if (!p) {
		OK(0, "linux.nmon has T0004");
		free(t);
		return;
	}
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		struct strbuf b = STRBUF_INIT;
		char n[120];

		strbuf_add(&b, t, (size_t)(p - t));
		strbuf_puts(&b, cuts[i]);
		snprintf(n, sizeof(n), "nmon cut inside the last ZZZZ line '%s'", cuts[i]);
		if (import_nmon(b.p, b.len, "cut.nmon", "UTC", &s, &e) != 0) {
			OK(0, n);
			printf("#   got '%s'\n", e.msg);
		} else {
			OK(s.n == 3 && s.notes.len && strstr(s.notes.p, "last ZZZZ line is cut short"), n);
			import_set_free(&s);
		}
		strbuf_free(&b);
	}
	free(t);
	/* issue 32 item 8: DISKXFER and MEM memfree said, not silently n/a */
	if (parse("linux.nmon", "UTC", &s, &e) == 0) {
		OK(s.notes.len && strstr(s.notes.p, "DISKXFER not imported"),
		   "linux: DISKXFER's absence said");
		OK(s.notes.len && strstr(s.notes.p, "MEM free memory not imported"),
		   "linux: memfree's absence said");
		import_set_free(&s);
	}
}

/* issue 50 item 3: a perfmon CSV whose columns name two hosts (perfmon
 * logging two servers into one file) is one set a host, each with its
 * own values; \\srv1 and \\SRV1 are one host (Windows' names do not
 * tell case); the column perflog has no counter for is kept with its
 * host's set only. */
static void check_perfmon_hosts(void)
{
	struct import_set s;
	struct perr e;
	const struct import_set *b;

	if (parse("twohosts.csv", NULL, &s, &e) != 0) {
		OK(0, "twohosts.csv parses");
		printf("# %s\n", e.msg);
		return;
	}
	b = s.next;
	EQ_STR(s.host, "SRV1", "two hosts: the first set is SRV1's");
	OK(b && !strcmp(b->host, "SRV2"), "two hosts: the next set is SRV2's");
	OK(b && !b->next, "two hosts: two sets, srv1 is SRV1");
	if (!b) {
		import_set_free(&s);
		return;
	}
	EQ_INT(s.n, 3, "two hosts: SRV1 has the three rows");
	EQ_INT(b->n, 3, "two hosts: SRV2 has the three rows");
	EQ_INT(b->step, 15, "two hosts: SRV2's step");
	EQ_DBL(b->snap[2].t, s.snap[2].t, 0, "two hosts: the same times");
	for (size_t i = 0; i < 3; i++) {
		EQ_DBL(val(&s, i, OBJ_PROCESSOR, "_Total", CTR_CPU_PROCESSOR_TIME),
		       10 * (double)(i + 1), 1e-9, "two hosts: SRV1's own CPU");
		EQ_DBL(val(b, i, OBJ_PROCESSOR, "_Total", CTR_CPU_PROCESSOR_TIME),
		       90 - 10 * (double)i, 1e-9, "two hosts: SRV2's own CPU");
	}
	EQ_DBL(val(&s, 0, OBJ_MEMORY, "", CTR_MEM_AVAILABLE), 1024 * 1048576., 1e-3,
	       "two hosts: srv1's memory is SRV1's");
	EQ_DBL(val(b, 0, OBJ_MEMORY, "", CTR_MEM_AVAILABLE), 2048 * 1048576., 1e-3,
	       "two hosts: SRV2's memory");
	EQ_DBL(val(b, 1, OBJ_MEMORY, "", CTR_MEM_AVAILABLE), NAN, 0,
	       "two hosts: SRV2's empty cell unknown");
	OK(!s.other.len, "two hosts: SRV1 has no unmapped column");
	OK(b->other.len && strstr(b->other.p, "Page life expectancy") &&
	   strstr(b->other.p, "\"310\""), "two hosts: SRV2's unmapped column kept with it");
	OK(s.notes.len && strstr(s.notes.p, "twohosts.csv:1: counters of 2 hosts (SRV1, SRV2): one log set each"),
	   "two hosts: a note says the file is split");
	OK(!b->notes.len, "two hosts: notes once, in the first set");
	OK(!strcmp(s.source, b->source), "two hosts: one source line");
	import_set_free(&s);
}

/* A host of a CSV of several with no value in a counter perflog has (an
 * application's counters only, SRV0; a server perfmon could not reach,
 * its cells blank, SRV2): no set of its own, which the writer could not
 * make (it failed with "out of memory"), its other columns kept in the
 * first set's imported-other.csv, where their paths name it; the first
 * set is the first host's with a value (SRV1, not SRV0). The sets of a
 * plain CSV of two hosts have its source line each. */
static void check_perfmon_hosts_novalue(void)
{
	static const char plain[] =
		"time,\\\\a\\Memory\\Available Bytes,\\\\b\\Memory\\Available Bytes\n"
		"2026-11-30 04:50:15,1000,2000\n";
	struct import_set s;
	struct perr e;
	const struct import_set *b;
	const char *o, *nl;

	if (parse("hostsnovalue.csv", NULL, &s, &e) != 0) {
		OK(0, "hostsnovalue.csv parses");
		printf("# %s\n", e.msg);
		return;
	}
	b = s.next;
	EQ_STR(s.host, "SRV1", "no value: the first set is SRV1's, the first host with a value");
	OK(b && !strcmp(b->host, "SRV3"), "no value: the next set is SRV3's");
	OK(b && !b->next, "no value: two sets, none for SRV0 nor SRV2");
	for (size_t i = 0; i < 3; i++)
		EQ_DBL(val(&s, i, OBJ_PROCESSOR, "_Total", CTR_CPU_PROCESSOR_TIME),
		       10 * (double)(i + 1), 1e-9, "no value: SRV1's own CPU");
	if (b)
		EQ_DBL(val(b, 0, OBJ_MEMORY, "", CTR_MEM_AVAILABLE),
		       1024 * 1048576., 1e-3, "no value: SRV3's memory");
	o = strbuf_str(&s.other);
	nl = strchr(o, '\n');
	OK(nl && !strncmp(o, "time,\"\\\\SRV0\\SQLServer:Buffer Manager\\Page life expectancy\",\"\\\\SRV2\\SQLServer:Locks(_Total)\\Lock Waits/sec\"\n",
			  (size_t)(nl - o + 1)),
	   "no value: SRV0's and SRV2's other columns in SRV1's imported-other.csv");
	OK(strstr(o, ",\"300\",\"5\"\n") && strstr(o, ",\"320\",\"7\"\n") &&
	   !strstr(o, "\n\n"), "no value: their cells row by row");
	OK(b && !b->other.len, "no value: SRV3 has no other column");
	o = strbuf_str(&s.notes);
	OK(strstr(o, "hostsnovalue.csv:1: counters of 2 hosts (SRV1, SRV3): one log set each"),
	   "no value: the note names the two sets' hosts");
	OK(strstr(o, "hostsnovalue.csv:1: SRV0 has no value in a counter perflog has: no log set of its own, its other columns kept in SRV1's imported-other.csv"),
	   "no value: a note says where SRV0's columns went");
	OK(strstr(o, "hostsnovalue.csv:1: SRV2 has no value in a counter perflog has"),
	   "no value: a note names SRV2");
	import_set_free(&s);

	if (import_perfmon(plain, strlen(plain), "plain.csv", NULL, &s, &e) != 0) {
		OK(0, "plain CSV of two hosts read");
		printf("# %s\n", e.msg);
		return;
	}
	OK(s.next && s.source[0] && !strcmp(s.source, s.next->source),
	   "plain CSV of two hosts: each set has the source line");
	import_set_free(&s);
}

/* Garbage: one line naming the file and line, never a crash. */
static void check_bad(void)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "AAA,host,x\nZZZZ,T0001,25:00:00,01-DEC-2026\n", "x.nmon:2: bad ZZZZ time" },
		{ "AAA,host,x\nZZZZ,T0001,10:00:00,01-FOO-2026\n", "x.nmon:2: bad ZZZZ month" },
		{ "AAA,host,x\nCPU_ALL,T0001,1,2,3\n", "no ZZZZ line" },
		{ "AAA,host,x\nZZZZ,T0001,10:00:00,01-DEC-2026\nZZZZ,T0001,10:00:01,01-DEC-2026\n",
		  "x.nmon:3: snapshot T0001 given twice" },
		{ "AAA,host,x\nZZZZ,T0001,10:00:00,30-NOV-2026\nZZZZ,T0002,10:00:10,31-NOV-2026\nZZZZ,T0003,10:00:20,30-NOV-2026\n",
		  "x.nmon:3: bad ZZZZ date '31-NOV-2026' (NOV 2026 has 30 days)" },
		{ "AAA,host,x\nZZZZ,T0001,10:00:00,29-FEB-2026\n",
		  "x.nmon:2: bad ZZZZ date '29-FEB-2026' (FEB 2026 has 28 days)" },
		{ "AAA,host,x\nCPU_ALL,CPU Total x,User%,Sys%,Wait%,Idle%\nZZZZ,T0001,10:00:00,01-DEC-2026\nCPU_ALL,T0001,abc,1,1,1\n",
		  "x.nmon:4: bad value 'abc'" },
		/* the writer said "out of memory" of a set of nothing */
		{ "AAA,host,x\nZZZZ,T0001,10:00:00,01-DEC-2026\nZZZZ,T0002,10:00:10,01-DEC-2026\n",
		  "x.nmon: no value in a counter perflog has: nothing to import" },
	};
	static const struct {
		const char *text, *want;
	} badcsv[] = {
		{ "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\h\\Memory\\Pages/sec\"\n\"13/40/2026 00:00:00.000\",\"1\"\n",
		  "x.csv:2: bad time" },
		{ "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\h\\Memory\\Pages/sec\"\n\"02/28/2026 23:59:50.000\",\"1\"\n\"02/31/2026 00:00:00.000\",\"1\"\n",
		  "x.csv:3: bad time '02/31/2026 00:00:00.000' (no such day)" },
		{ "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\h\\Memory\\Pages/sec\"\n\"11/30/2026 00:00:00.000\",\"x1\"\n",
		  "x.csv:2: bad value 'x1'" },
		{ "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\h\\Memory\\Pages/sec\"\n\"11/30/2026 00:00:00.000\",\"1\",\"2\"\n",
		  "x.csv:2: 3 cells, the header has 2" },
		{ "\"(PDH-CSV 4.0) (UTC)\",\"\\\\h\\Memory\\Pages/sec\"\n", "x.csv:1: bad header" },
		{ "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\h\\Memory\\Pages/sec\n\"11/30/2026 00:00:00.000\",\"1\"\n",
		  "x.csv:1: a quote is not closed" },
		{ "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\h\\SQLServer:Locks(_Total)\\Lock Waits/sec\",\"\\\\h\\Memory\\Pages/sec\"\n\"11/30/2026 00:00:00.000\",\"1\",\" \"\n",
		  "x.csv: no value in a counter perflog has: nothing to import" },
		/* two hosts' sets chained when the row fails: freed (ASan) */
		{ "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\a\\Memory\\Pages/sec\",\"\\\\b\\Memory\\Pages/sec\"\n\"11/30/2026 00:00:00.000\",\"1\",\"2\"\n\"11/30/2026 00:00:15.000\",\"1\",\"x\"\n",
		  "x.csv:3: bad value 'x' in column 3" },
	};
	char n[160];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct import_set s;
		struct perr e = { { 0 } };
		int rc = import_nmon(bad[i].text, strlen(bad[i].text), "x.nmon",
				     "UTC", &s, &e);

		snprintf(n, sizeof(n), "garbage nmon %zu: '%s'", i, bad[i].want);
		OK(rc < 0 && strstr(e.msg, bad[i].want) && !strchr(e.msg, '\n'), n);
		if (rc == 0 || !strstr(e.msg, bad[i].want))
			printf("#   got '%s'\n", e.msg);
		if (rc == 0)
			import_set_free(&s);
	}
	for (size_t i = 0; i < sizeof(badcsv) / sizeof(badcsv[0]); i++) {
		struct import_set s;
		struct perr e = { { 0 } };
		int rc = import_perfmon(badcsv[i].text, strlen(badcsv[i].text),
					"x.csv", NULL, &s, &e);

		snprintf(n, sizeof(n), "garbage csv %zu: '%s'", i, badcsv[i].want);
		OK(rc < 0 && strstr(e.msg, badcsv[i].want), n);
		if (rc == 0 || !strstr(e.msg, badcsv[i].want))
			printf("#   got '%s'\n", e.msg);
		if (rc == 0)
			import_set_free(&s);
	}
	EQ_INT(import_detect("\x01\x00\x00\x00" "BLG", 7), IMPORT_BLG, "detect: BLG");
	EQ_INT(import_detect("hello\n", 6), IMPORT_UNKNOWN, "detect: neither");
	EQ_INT(import_detect("\xef\xbb\xbf\"(PDH-CSV 4.0) (UTC)(0)\"", 28), IMPORT_PERFMON,
	       "detect: perfmon CSV with a BOM");
}

int main(void)
{
	check_aix("aix.nmon");
	check_aix("aix-sorted.nmon");
	check_linux();
	check_dst();
	check_perfmon();
	check_own_csv();
	check_late();
	check_late_start();
	check_busy_interval();
	check_perfmon_dst();
	check_perfmon_hosts();
	check_perfmon_hosts_novalue();
	check_nmon_edges();
	check_bad();
	return done_testing();
}
