/*
 * test_catalog.c - the counter catalog table and counter path parsing.
 */
#include <ctype.h>
#include <stdlib.h>

#include "../../counters/catalog.h"
#include "tap.h"

static int ds_valid(const char *ds)
{
	size_t n = strlen(ds);

	if (n < 1 || n > 19)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(islower((unsigned char)ds[i]) ||
		      isdigit((unsigned char)ds[i]) || ds[i] == '_'))
			return 0;
	return 1;
}

static void test_table(void)
{
	int bad_order = 0, bad_ds = 0, dup_ds = 0, bad_bounds = 0, bad_at = 0;
	int count[OBJ_COUNT] = { 0 };

	for (int i = 0; i < CTR_COUNT; i++) {
		const struct counter_def *d = &catalog_counters[i];

		if ((int)d->id != i || !d->name || !d->source || !d->sysstat ||
		    !d->help)
			bad_order++;
		if (!ds_valid(d->ds))
			bad_ds++;
		for (int j = 0; j < i; j++)
			if (strcmp(d->ds, catalog_counters[j].ds) == 0)
				dup_ds++;
		/* Process percentages are 100 per CPU or per thread */
		if (d->unit == UNIT_PERCENT && d->object != OBJ_PROCESS &&
		    !(d->min == 0.0 && d->max == 100.0))
			bad_bounds++;
		if (d->min != 0.0)
			bad_bounds++;
		if (d->index != count[d->object]++)
			bad_order++;
		if (catalog_counter_at(d->object, d->index) != d)
			bad_at++;
	}
	EQ_INT(bad_order, 0, "ids in enum order, indexes dense per object");
	EQ_INT(bad_ds, 0, "every ds name is [a-z0-9_]{1,19}");
	EQ_INT(dup_ds, 0, "ds names are unique across the catalog");
	EQ_INT(bad_bounds, 0, "percent bounds 0..100, minimum 0");
	EQ_INT(bad_at, 0, "catalog_counter_at finds every counter");
	OK(isnan(catalog_counters[CTR_PROC_PROCESSOR_TIME].max),
	   "Process % Processor Time is unbounded above (SMP)");
	OK(isnan(catalog_counters[CTR_PROC_CPU_WAIT].max) &&
	   isnan(catalog_counters[CTR_PROC_SLEEP].max),
	   "Process wait states are unbounded above (100 per thread)");
	OK(catalog_find("Process", "% network wait time") ==
	   &catalog_counters[CTR_PROC_NET_WAIT],
	   "Process % Network Wait Time in the catalog (DESIGN)");
	for (int o = 0; o < OBJ_COUNT; o++) {
		char name[64];

		snprintf(name, sizeof(name), "object %s has %d counters",
			 catalog_objects[o].name, count[o]);
		EQ_INT(catalog_objects[o].ncounters, count[o], name);
		OK(count[o] <= CATALOG_MAX_PER_OBJECT &&
		   (int)catalog_objects[o].object == o, name);
	}
	EQ_STR(catalog_objects[OBJ_NETWORK].file, "NetworkInterface",
	       "Network Interface file stem has no blank");
	OK(!catalog_objects[OBJ_MEMORY].has_instances &&
	   !catalog_objects[OBJ_SYSTEM].has_instances &&
	   catalog_objects[OBJ_PROCESSOR].has_instances,
	   "only Memory and System lack instances");
	OK(catalog_counter_at(OBJ_SYSTEM, 2) == NULL &&
	   catalog_counter_at(OBJ_COUNT, 0) == NULL &&
	   catalog_counter_at(OBJ_MEMORY, -1) == NULL,
	   "catalog_counter_at rejects out-of-range");
}

static void test_find(void)
{
	OK(catalog_find("processor", "% PROCESSOR TIME") ==
	   &catalog_counters[CTR_CPU_PROCESSOR_TIME], "find is case-insensitive");
	OK(catalog_find("Network Interface", "Current Bandwidth") ==
	   &catalog_counters[CTR_NET_BANDWIDTH], "find with a blank in object");
	OK(catalog_find("Memory", "% Processor Time") == NULL,
	   "counter of another object is not found");
	OK(catalog_find("Nope", "x") == NULL && catalog_find(NULL, "x") == NULL,
	   "unknown object");
	OK(catalog_find_object("logicaldisk") ==
	   &catalog_objects[OBJ_LOGICALDISK], "find_object");
	EQ_STR(catalog_unit_label(UNIT_PERCENT), "%", "unit label %");
	EQ_STR(catalog_unit_label(UNIT_BITS_SEC), "bit/s", "unit label bit/s");
	EQ_STR(catalog_unit_label(UNIT_COUNT), "", "unit label count");
}

static void test_roundtrip(void)
{
	int bad = 0;

	for (int i = 0; i < CTR_COUNT; i++) {
		const struct counter_def *d = &catalog_counters[i];
		const char *insts[] = { "_Total", "*", "sda", "0",
					"eth0.100", "my nic (2)" };
		for (size_t k = 0; k < sizeof(insts) / sizeof(insts[0]); k++) {
			char buf[256], host[300];
			struct counter_path cp;
			struct perr e = { "" };

			catalog_format_path(buf, sizeof(buf), d, insts[k]);
			if (catalog_parse_path(buf, &cp, &e) != 0 ||
			    cp.def != d || cp.host[0] ||
			    strcmp(cp.instance,
				   catalog_objects[d->object].has_instances ?
				   insts[k] : "")) {
				printf("# round trip failed: %s (%s)\n", buf,
				       e.msg);
				bad++;
			}
			snprintf(host, sizeof(host), "\\\\backup-01\\%s", buf);
			if (catalog_parse_path(host, &cp, &e) != 0 ||
			    cp.def != d || strcmp(cp.host, "backup-01")) {
				printf("# host form failed: %s (%s)\n", host,
				       e.msg);
				bad++;
			}
			snprintf(host, sizeof(host), "\\%s", buf);
			if (catalog_parse_path(host, &cp, &e) != 0 ||
			    cp.def != d || cp.host[0]) {
				printf("# leading \\ failed: %s\n", host);
				bad++;
			}
		}
	}
	EQ_INT(bad, 0, "every counter round-trips through format/parse, "
	       "with and without host");
}

static void expect_error(const char *path, const char *msg_part)
{
	struct counter_path cp;
	struct perr e = { "" };
	char name[400];
	int rc = catalog_parse_path(path, &cp, &e);

	snprintf(name, sizeof(name), "rejected: '%.60s' -> %.200s", path,
		 e.msg);
	for (char *c = name; *c; c++)	/* keep the TAP line one line */
		if ((unsigned char)*c < ' ')
			*c = '?';
	OK(rc == -1 && strstr(e.msg, msg_part) && !strchr(e.msg, '\n'), name);
}

static void test_parse(void)
{
	struct counter_path cp;
	struct perr e = { "" };
	char buf[64];

	OK(catalog_parse_path("LogicalDisk(*)\\Disk Reads/sec", &cp, &e) == 0 &&
	   strcmp(cp.instance, "*") == 0 &&
	   cp.def == &catalog_counters[CTR_DISK_READS], "wildcard instance");
	OK(catalog_parse_path("memory\\available bytes", &cp, &e) == 0 &&
	   cp.def == &catalog_counters[CTR_MEM_AVAILABLE] && !cp.instance[0],
	   "object without instance, any case");
	OK(catalog_parse_path("\\\\h\\System\\Context Switches/sec", &cp, &e) ==
	   0 && strcmp(cp.host, "h") == 0, "host prefix on System");
	catalog_format_path(buf, sizeof(buf),
			    &catalog_counters[CTR_MEM_PAGES], "ignored");
	EQ_STR(buf, "Memory\\Pages/sec", "format ignores instance for Memory");
	catalog_format_path(buf, 12, &catalog_counters[CTR_DISK_TIME], "sda");
	EQ_INT(strlen(buf), 11, "format truncates to the buffer");

	expect_error("Bogus(x)\\Y", "unknown object 'Bogus'");
	expect_error("Processor(_Total)\\% Nothing", "unknown counter '% Nothing' of object 'Processor'");
	expect_error("Processor\\% Processor Time", "object 'Processor' takes an instance");
	expect_error("Memory(_Total)\\Available Bytes", "object 'Memory' has no instances");
	expect_error("", "empty");
	expect_error("\\", "malformed");
	expect_error("\\\\", "malformed");
	expect_error("\\\\host", "malformed");
	expect_error("\\\\\\Memory\\Cache Bytes", "malformed");
	expect_error("Processor(_Total)\\", "no counter");
	expect_error("Processor(_Total", "malformed");
	expect_error("Processor(_Total\\% User Time", "unbalanced");
	expect_error("Processor()\\% User Time", "empty instance");
	expect_error("(x)\\% User Time", "no object");
	/* a backslash in an instance is an SMB share's name */
	OK(catalog_parse_path("CIFS Share(\\\\fs1\\backup)\\Bytes Read/sec",
			      &cp, NULL) == 0 && cp.def &&
	   cp.def->id == CTR_CIFS_READ_BYTES &&
	   strcmp(cp.instance, "\\\\fs1\\backup") == 0,
	   "CIFS Share(\\\\server\\share): the instance keeps its backslashes");
	OK(catalog_parse_path("\\\\host1\\CIFS Share(\\\\fs1\\b)\\SMBs/sec",
			      &cp, NULL) == 0 && !strcmp(cp.host, "host1") &&
	   !strcmp(cp.instance, "\\\\fs1\\b"), "and with a host prefix");
	expect_error("Proc)essor(x)\\% User Time", "malformed");
	expect_error("\\Memory", "malformed");
	expect_error("Memory\\Cache Bytes\n", "unknown counter");
	expect_error("Processor(a\tb)\\% User Time", "malformed instance");
}

static void test_garbage(void)
{
	size_t big = 1 << 20;
	char *s = malloc(big + 1);
	struct counter_path cp;
	struct perr e;
	int crashes_avoided = 0;

	/* long inputs of every shape */
	const char *fill = "\\(()x ";
	for (size_t f = 0; f < strlen(fill); f++) {
		memset(s, fill[f], big);
		s[big] = '\0';
		if (catalog_parse_path(s, &cp, &e) == -1 &&
		    strlen(e.msg) < sizeof(e.msg))
			crashes_avoided++;
	}
	EQ_INT(crashes_avoided, 6, "1 MiB inputs are rejected");

	memset(s, 'a', big);
	memcpy(s, "Processor(", 10);
	memcpy(s + big - 20, ")\\% User Time", 14);
	OK(catalog_parse_path(s, &cp, &e) == -1 && strstr(e.msg, "too long"),
	   "instance longer than 63 is rejected");
	memcpy(s, "\\\\", 2);
	s[big - 20] = '\\';
	OK(catalog_parse_path(s, &cp, &e) == -1 && strstr(e.msg, "too long"),
	   "host longer than 63 is rejected");

	/* random bytes: must never crash (ASan watches), must be rejected
	 * or produce a valid def */
	srand(42);
	int ok = 1;
	for (int i = 0; i < 20000; i++) {
		size_t n = (size_t)rand() % 80;
		const char alpha[] = "\\()*_ProcessorMemoryLogicalDisk% Time/sec";

		for (size_t k = 0; k < n; k++)
			s[k] = (rand() % 4) ? alpha[rand() % (sizeof(alpha) - 1)]
					    : (char)(rand() % 255 + 1);
		s[n] = '\0';
		if (catalog_parse_path(s, &cp, &e) == 0 && !cp.def)
			ok = 0;
	}
	OK(ok, "20000 random inputs parsed or rejected without crash");
	OK(catalog_parse_path(NULL, &cp, &e) == -1, "NULL path rejected");
	free(s);
}

int main(void)
{
	test_table();
	test_find();
	test_roundtrip();
	test_parse();
	test_garbage();
	return done_testing();
}
