/*
 * test_meta.c - perflog.meta: format/parse round trip, forward
 * compatibility (unknown keys), a newer format refused, and every kind of
 * malformed line reported with its line number. Also the RRD file naming.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../logs/logset.h"
#include "tap.h"

static const char good[] =
	"# perflog log set metadata\n"
	"format\t1\n"
	"version\t0.1.0\n"
	"host\tbackup01\n"
	"os\tLinux 6.1.0-18-amd64 x86_64\n"
	"start\t2026-11-30T04:50:10Z\n"
	"stop\t2026-11-30T05:20:10Z\n"
	"interval\t5\n"
	"retention\t172800\n"
	"future_key\tsomething a newer perflog writes\n"
	"counter\tProcessor(_Total)\\% Processor Time\tProcessor-_Total.rrd\tcpu_processor\n"
	"counter\tLogicalDisk(sda)\\Disk Read Bytes/sec\tLogicalDisk-sda.rrd\tdisk_read_bytes\n"
	"counter\tMemory\\Available Bytes\tMemory.rrd\tmem_available\n"
	"counter\tNetwork Interface(eth0)\\Bytes Total/sec\tNetworkInterface-eth0.rrd\tnet_bytes_total\n";

static void test_roundtrip(void)
{
	struct logset_meta m, m2;
	struct perr e = { "" };
	char *text;

	OK(logset_meta_parse(good, "x/perflog.meta", &m, &e) == 0, "parse good");
	printf("# %s\n", e.msg);
	EQ_INT(m.format, 1, "format");
	EQ_STR(m.host, "backup01", "host");
	EQ_STR(m.os, "Linux 6.1.0-18-amd64 x86_64", "os");
	EQ_INT(m.start, 1796014210, "start");
	EQ_INT(m.stop, 1796014210 + 1800, "stop");
	EQ_INT(m.interval, 5, "interval");
	EQ_INT(m.retention, 172800, "retention");
	EQ_INT(m.ncounters, 4, "four counters (unknown key ignored)");
	if (m.ncounters == 4) {
		EQ_STR(m.counters[1].path, "LogicalDisk(sda)\\Disk Read Bytes/sec", "path");
		EQ_STR(m.counters[1].instance, "sda", "instance");
		EQ_STR(m.counters[1].file, "LogicalDisk-sda.rrd", "file");
		EQ_STR(m.counters[1].ds, "disk_read_bytes", "ds");
		OK(m.counters[1].def && m.counters[1].def->id == CTR_DISK_READ_BYTES,
		   "resolved through the catalog");
		EQ_STR(m.counters[2].instance, "", "Memory has no instance");
	}
	text = logset_meta_format(&m);
	OK(text != NULL, "format");
	OK(text && logset_meta_parse(text, "again", &m2, &e) == 0, "reparse");
	if (text) {
		char *text2 = logset_meta_format(&m2);

		EQ_STR(text2, text, "format(parse(format(m))) is stable");
		OK(!strstr(text, "future_key"), "unknown key not carried over");
		free(text2);
	}
	EQ_INT(m2.ncounters, m.ncounters, "same counters");
	logset_meta_free(&m2);
	free(text);

	/* a set still logging has no stop line */
	m.stop = 0;
	text = logset_meta_format(&m);
	OK(text && !strstr(text, "stop\t"), "no stop while logging");
	OK(text && logset_meta_parse(text, "x", &m2, &e) == 0 && m2.stop == 0,
	   "parses with stop 0");
	logset_meta_free(&m2);
	free(text);
	logset_meta_free(&m);
}

struct bad {
	const char *line;	/* replaces/extends the good header */
	int lineno;
	const char *why;	/* substring expected in the message */
};

static void test_bad(void)
{
	const char *head =
		"format\t1\n"				/* 1 */
		"host\th\n"				/* 2 */
		"start\t2026-11-30T04:50:10Z\n"		/* 3 */
		"interval\t5\n";			/* 4 */
	static const struct bad cases[] = {
		{ "no tab here\n", 5, "expected KEY<TAB>VALUE" },
		{ "interval\t6\n", 5, "given twice" },
		{ "counter\tProcessor(_Total)\\% Processor Time\tP.rrd\n", 5, "PATH<TAB>FILE<TAB>DS" },
		{ "counter\tProcessor(_Total)\\% Processor Time\tP.rrd\tcpu\textra\n", 5, "PATH<TAB>FILE<TAB>DS" },
		{ "counter\tProcessor(_Total)\\No Such Counter\tP.rrd\tcpu\n", 5, "" },
		{ "counter\tNoSuchObject(x)\\Foo\tP.rrd\tcpu\n", 5, "" },
		{ "counter\tProcessor(*)\\% Processor Time\tP.rrd\tcpu\n", 5, "wildcard" },
		{ "counter\tProcessor(0)\\% Processor Time\t../../etc/passwd.rrd\tcpu\n", 5, "bad RRD file name" },
		{ "counter\tProcessor(0)\\% Processor Time\tP.txt\tcpu\n", 5, "bad RRD file name" },
		{ "counter\tProcessor(0)\\% Processor Time\tP.rrd\tbad-ds\n", 5, "bad data source" },
		{ "counter\tProcessor(0)\\% Processor Time\tP.rrd\tabcdefghijabcdefghijk\n", 5, "bad data source" },
		{ "counter\tProcessor(0)\\% Processor Time\tP.rrd\tc\n"
		  "counter\tprocessor(0)\\% processor time\tP.rrd\tc\n", 6, "listed twice" },
		{ "stop\tyesterday\n", 5, "bad stop time" },
		{ "stop\t2026-11-30T04:50:09Z\n", 5, "stop is before start" },
		{ "retention\t-5\n", 5, "bad retention" },
		{ "retention\t99999999999999999999999\n", 5, "bad retention" },
		{ "host\tx\n", 5, "given twice" },
		{ "os\tbell\x07\n", 5, "control character" },
		{ "version\t0123456789012345678901234567890123456789\n", 5, "too long" },
	};
	struct logset_meta m;
	struct perr e;
	char text[1024], want[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[96];

		snprintf(text, sizeof(text), "%s%s", head, cases[i].line);
		snprintf(want, sizeof(want), "set/perflog.meta:%d: ",
			 cases[i].lineno);
		e.msg[0] = '\0';
		snprintf(name, sizeof(name), "malformed %zu refused with line number", i);
		OK(logset_meta_parse(text, "set/perflog.meta", &m, &e) < 0 &&
		   !strncmp(e.msg, want, strlen(want)) &&
		   strstr(e.msg, cases[i].why), name);
		printf("# %s\n", e.msg);
	}

	static const struct bad headers[] = {
		{ "format\t0\n", 1, "bad format" },
		{ "format\tone\n", 1, "bad format" },
		{ "host\th\nformat\t1\n", 1, "expected 'format' first" },
		{ "format\t1\ninterval\t0\n", 2, "bad interval" },
		{ "format\t1\ninterval\t1.5\n", 2, "bad interval" },
		{ "format\t1\ninterval\t86401\n", 2, "bad interval" },
		{ "format\t1\nstart\t2026-11-30 04:50:10\n", 2, "bad start time" },
		{ "format\t1\nhost\t\n", 2, "empty host" },
	};
	for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); i++) {
		char name[96];

		snprintf(want, sizeof(want), "m:%d: ", headers[i].lineno);
		snprintf(name, sizeof(name), "bad header %zu refused with line number", i);
		OK(logset_meta_parse(headers[i].line, "m", &m, &e) < 0 &&
		   !strncmp(e.msg, want, strlen(want)) &&
		   strstr(e.msg, headers[i].why), name);
		printf("# %s\n", e.msg);
	}

	OK(logset_meta_parse("format\t1\nhost\th\nstart\t2026-11-30T04:50:10Z\n",
			     "m", &m, &e) < 0 && !strcmp(e.msg, "m: missing 'interval'"),
	   "missing interval");
	OK(logset_meta_parse("", "m", &m, &e) < 0 && strstr(e.msg, "no 'format'"),
	   "empty file");
	OK(logset_meta_parse("\x89PNG\r\n\x1a\n\0", "m", &m, &e) < 0,
	   "binary garbage refused");

	/* a newer format is refused by name, before anything else is read */
	OK(logset_meta_parse("# new\nformat\t2\nwhatever\n", "logs/h-1/perflog.meta",
			     &m, &e) < 0 &&
	   !strcmp(e.msg, "log set 'logs/h-1' has format 2; this perflog reads up to 1"),
	   "newer format refused");
	printf("# %s\n", e.msg);

	/* random garbage never crashes */
	unsigned seed = 1;
	char junk[300];
	int silent = 0;	/* refusals without a message */

	for (int r = 0; r < 500; r++) {
		size_t n = 0;

		n += (size_t)snprintf(junk, sizeof(junk), "%s", r % 2 ? head : "");
		for (; n < sizeof(junk) - 1; n++) {
			seed = seed * 1103515245 + 12345;
			junk[n] = "\t\nformatcounterhost\\()_.rrd01:Z-T"[(seed >> 16) % 34];
			if (!junk[n])
				junk[n] = 'x';
		}
		junk[n] = '\0';
		e.msg[0] = '\0';
		if (logset_meta_parse(junk, "j", &m, &e) == 0)
			logset_meta_free(&m);
		else if (strncmp(e.msg, "j", 1) != 0)
			silent++;
	}
	EQ_INT(silent, 0, "500 garbage texts: no crash, every refusal names the file");
}

static void test_file_name(void)
{
	char buf[192];

	EQ_STR(logset_file_name(buf, sizeof(buf), OBJ_PROCESSOR, "_Total"),
	       "Processor-_Total.rrd", "Processor-_Total.rrd");
	EQ_STR(logset_file_name(buf, sizeof(buf), OBJ_MEMORY, ""),
	       "Memory.rrd", "Memory.rrd");
	EQ_STR(logset_file_name(buf, sizeof(buf), OBJ_NETWORK, "eth0"),
	       "NetworkInterface-eth0.rrd", "Network Interface -> NetworkInterface");
	EQ_STR(logset_file_name(buf, sizeof(buf), OBJ_LOGICALDISK, "dm/0 x:y"),
	       "LogicalDisk-dm_0_x_y.rrd", "odd characters replaced");
}

/* An imported set's source line (perflog import): kept through a
 * format and parse; absent from a collected set's text. */
static void test_source(void)
{
	const char *text = "format\t1\nhost\ttsmsrv\nsource\tnmon a.nmon, local time read as Europe/Berlin\n"
			   "start\t2026-11-30T04:50:10Z\ninterval\t60\n";
	struct logset_meta m, m2;
	struct perr e;
	char *out;

	OK(logset_meta_parse(text, "m", &m, &e) == 0, "source: parses");
	EQ_STR(m.source, "nmon a.nmon, local time read as Europe/Berlin", "source: read");
	out = logset_meta_format(&m);
	OK(out && strstr(out, "\nsource\tnmon a.nmon") &&
	   logset_meta_parse(out, "again", &m2, &e) == 0 && !strcmp(m2.source, m.source),
	   "source: formatted and read back");
	logset_meta_free(&m2);
	free(out);
	m.source[0] = '\0';
	out = logset_meta_format(&m);
	OK(out && !strstr(out, "source"), "source: no line when empty");
	free(out);
	logset_meta_free(&m);
	OK(logset_meta_parse("format\t1\nhost\th\nsource\ta\nsource\tb\nstart\t2026-11-30T04:50:10Z\ninterval\t1\n",
			     "m", &m, &e) < 0 && strstr(e.msg, "m:4: 'source' given twice"),
	   "source: given twice is an error");
}

int main(void)
{
	test_source();
	test_roundtrip();
	test_bad();
	test_file_name();
	return done_testing();
}
