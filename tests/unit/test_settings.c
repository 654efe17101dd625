/* test_settings.c - the settings parser: defaults, every key, and each kind
 * of bad input named by file and line. */
#include <stdlib.h>
#include <string.h>

#include "../../collector/settings.h"
#include "tap.h"

static int parse(const char *text, struct settings *s, struct perr *e)
{
	settings_default(s);
	return settings_parse(text, "t.pml", s, e);
}

static void bad(const char *text, const char *want, const char *name)
{
	struct settings s;
	struct perr e;
	int r = parse(text, &s, &e);

	OK(r < 0 && strstr(e.msg, want) != NULL, name);
	if (r == 0 || !strstr(e.msg, want))
		printf("#   message: '%s', expected to contain '%s'\n",
		       r < 0 ? e.msg : "(accepted)", want);
	settings_free(&s);
}

int main(void)
{
	struct settings s;
	struct perr e;
	unsigned iv;
	const char *sample;

	OK(settings_default(&s) == 0, "defaults");
	EQ_INT(s.interval, 5, "default interval 5 s");
	EQ_STR(s.directory, "./logs", "default directory ./logs");
	EQ_INT(s.retention, 2 * 86400, "default retention 2 days");
	EQ_INT(s.flush, 60, "default flush 60 s (the journal has every sample)");
	OK(s.nsel >= 20, "default set: whole objects of the seed kit");
	{
		int cpu = 0, disk = 0, avail = 0, pages = 0, net = 0;

		for (size_t i = 0; i < s.nsel; i++) {
			const struct counter_def *d = s.sel[i].path.def;

			cpu += d->id == CTR_CPU_PROCESSOR_TIME;
			disk += d->id == CTR_DISK_TIME;
			avail += d->id == CTR_MEM_AVAILABLE || d->id == CTR_MEM_CACHE;
			pages += d->id == CTR_MEM_PAGES;
			net += d->id == CTR_NET_BYTES_TOTAL;
		}
		OK(cpu && disk && avail == 2 && pages && net,
		   "default holds the seed's charted counters");
	}
	settings_free(&s);

	OK(parse("[log]\ninterval = 1\ndirectory=/tmp/x # comment\n"
		 "name = run1\nretention = 12h\nrrdcached = unix:/tmp/r.sock\n"
		 "flush = 0\n"
		 "[counters]\n\\Processor(0)\\% User Time\n"
		 "\\\\myhost\\LogicalDisk(*)\\Disk Reads/sec\n", &s, &e) == 0,
	   "all keys parse");
	EQ_INT(s.interval, 1, "interval");
	EQ_STR(s.directory, "/tmp/x", "directory, comment stripped");
	EQ_STR(s.name, "run1", "name");
	EQ_INT(s.retention, 12 * 3600, "retention 12h");
	EQ_STR(s.rrdcached, "unix:/tmp/r.sock", "rrdcached");
	EQ_INT(s.flush, 0, "flush 0: every sample");
	EQ_INT(s.nsel, 2, "[counters] replaces the default set");
	EQ_STR(s.sel[0].path.instance, "0", "instance kept");
	EQ_INT(s.sel[1].line, 10, "line number of a counter");
	settings_free(&s);

	OK(parse("[counters]\n\\Memory\\*\n", &s, &e) == 0, "object wildcard");
	EQ_INT(s.nsel, (size_t)catalog_objects[OBJ_MEMORY].ncounters,
	       "\\Memory\\* is every Memory counter");
	settings_free(&s);

	bad("[log]\ninterval = 0\n", "t.pml:2:", "interval 0 rejected with its line");
	bad("[log]\ninterval = -5\n", "at least 1", "negative interval");
	bad("[log]\ninterval = abc\n", "not a whole number", "interval not a number");
	bad("[log]\ninterval = 0.5\n", "not a whole number", "interval under 1 s");
	bad("[log]\nretention = forever\n", "t.pml:2: retention", "bad retention");
	bad("[log]\nname = a/b\n", "plain file name", "name with a slash");
	bad("[log]\nflush = 2h\n", "t.pml:2: flush", "flush over an hour");
	bad("[log]\ncolour = blue\n", "unknown key 'colour'", "unknown key");
	bad("[log]\njust words\n", "t.pml:2: expected", "line without =");
	bad("[weird]\n", "unknown section", "unknown section");
	bad("interval = 5\n", "before any section", "key outside a section");
	bad("[counters]\n\\Processor(*)\\% Nonsense\n", "t.pml:2:", "unknown counter");
	bad("[counters]\n\\Gadget(*)\\Speed\n", "t.pml:2:", "unknown object");
	bad("[counters]\n\\Gadget(*)\\*\n", "unknown object 'Gadget'", "unknown object wildcard");
	bad("[counters]\n# nothing\n", "names no counter", "empty [counters]");
	{
		char *big = malloc(5000);

		memset(big, 'x', 4999);
		big[4999] = '\0';
		memcpy(big, "[log]\n", 6);
		bad(big, "line too long", "a 5000-byte line");
		free(big);
	}

	OK(parse("[run]\noutput = 64K\n", &s, &e) == 0 && s.output == 65536,
	   "[run] output = 64K");
	settings_free(&s);
	OK(parse("[log]\ninterval = 2\n", &s, &e) == 0 && s.output == 1 << 20,
	   "[run] output: 1M by default");
	settings_free(&s);
	OK(parse("[run]\noutput = 0\n", &s, &e) == 0 && s.output == 0,
	   "[run] output = 0: keep none");
	settings_free(&s);
	bad("[run]\noutput = 2G\n", "t.pml:2: output '2G'", "[run] output over 1G");
	bad("[run]\noutput = lots\n", "t.pml:2: output", "[run] output not a size");
	bad("[run]\nflush = 1\n", "unknown key 'flush' in [run]", "[log] key in [run]");
	OK(parse("[run]\nserver = tsmsrv\nserver = backup@nas:/var/log/perflog\n"
		 "ssh = ssh -p 2222 -o ConnectTimeout=5\n", &s, &e) == 0 &&
	   s.nservers == 2 && !strcmp(s.servers[0], "tsmsrv") &&
	   !strcmp(s.servers[1], "backup@nas:/var/log/perflog") &&
	   !strcmp(s.ssh, "ssh -p 2222 -o ConnectTimeout=5"),
	   "[run] server (repeated) and ssh");
	settings_free(&s);
	OK(parse("[log]\ninterval = 2\n", &s, &e) == 0 && s.nservers == 0 &&
	   !s.ssh[0], "[run] server and ssh: none by default");
	settings_free(&s);
	bad("[run]\nserver = :/logs\n", "t.pml:2: server ':/logs'", "[run] server without a host");
	bad("[run]\nserver = -oProxyCommand=x\n", "t.pml:2: server", "[run] server that would be an ssh option");
	bad("[run]\nssh =\n", "t.pml:2: ssh is empty", "[run] ssh empty");
	{
		unsigned long long b;

		OK(util_parse_size("1M", &b) == 0 && b == 1 << 20, "size 1M");
		OK(util_parse_size("64KiB", &b) == 0 && b == 65536, "size 64KiB");
		OK(util_parse_size(" 512 ", &b) == 0 && b == 512, "size 512");
		OK(util_parse_size("1.5M", &b) < 0, "size 1.5M refused");
		OK(util_parse_size("-1", &b) < 0, "size -1 refused");
		OK(util_parse_size("99999999999999999999G", &b) < 0,
		   "size overflow refused");
	}

	OK(settings_parse_interval("1", &iv, &e) == 0 && iv == 1, "-i 1");
	OK(settings_parse_interval("86401", &iv, &e) < 0, "-i over a day");
	OK(settings_parse_interval("", &iv, &e) < 0, "-i empty");

	settings_default(&s);
	OK(settings_load("/nonexistent/x.pml", &s, &e) < 0 &&
	   strstr(e.msg, "/nonexistent/x.pml"), "unreadable file named");
	settings_free(&s);

	sample = getenv("SAMPLE") ? getenv("SAMPLE") : "perftest.pml.sample";
	settings_default(&s);
	OK(settings_load(sample, &s, &e) == 0, "perftest.pml.sample is valid");
	EQ_INT(s.interval, 5, "sample: 5 s");
	{
		struct settings d;
		int same;

		settings_default(&d);
		same = d.nsel == s.nsel;
		for (size_t i = 0; same && i < s.nsel; i++)
			same = s.sel[i].path.def == d.sel[i].path.def &&
			       !strcmp(s.sel[i].path.instance,
				       d.sel[i].path.instance);
		OK(same, "the sample's [counters] is the built-in default set");
		same = 0;
		for (size_t i = 0; i < d.nsel; i++)
			same += d.sel[i].path.def->object == OBJ_PRESSURE ||
				d.sel[i].path.def->object == OBJ_TCP;
		EQ_INT(same, 2 + 3, "the default logs Pressure and TCP");
		settings_free(&d);
	}
	settings_free(&s);
	return done_testing();
}
