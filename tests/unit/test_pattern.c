/*
 * test_pattern.c - counter patterns of `perflog export --csv --counters`
 * (logs/pattern.h): matching, case, the optional prefixes, brackets taken
 * literally, and the selection's order and errors.
 */
#include <stdlib.h>
#include <string.h>

#include "../../logs/pattern.h"
#include "tap.h"

static const char *const paths[] = {
	"Processor(_Total)\\% Processor Time",
	"Processor(0)\\% Processor Time",
	"Processor(_Total)\\% User Time",
	"LogicalDisk(sda)\\Disk Read Bytes/sec",
	"LogicalDisk(sda)\\Disk Write Bytes/sec",
	"LogicalDisk(sda)\\Disk Reads/sec",
	"Memory\\Available Bytes",
	"Network Interface(eth[0])\\Bytes Total/sec",
};
#define NPATHS (sizeof(paths) / sizeof(paths[0]))

int main(void)
{
	struct logset_counter c[NPATHS];
	struct logset_meta m = { .counters = c, .ncounters = NPATHS };
	struct perr e;
	size_t *idx;
	long n;

	memset(c, 0, sizeof(c));
	for (size_t i = 0; i < NPATHS; i++)
		strcpy(c[i].path, paths[i]);

	OK(pattern_match("Processor(_Total)\\% Processor Time", paths[0]), "an exact path");
	OK(pattern_match("processor(_total)\\% processor time", paths[0]), "case does not matter");
	OK(pattern_match("\\Processor(*)\\% Processor Time", paths[1]), "a leading backslash and (*)");
	OK(pattern_match("\\\\backup01\\Processor(*)\\% Processor Time", paths[1]), "a \\\\HOST\\ prefix");
	OK(!pattern_match("Processor(*)\\% Processor Time", paths[2]), "another counter does not match");
	OK(pattern_match("LogicalDisk(*)\\Disk * Bytes/sec", paths[3]), "'*' inside a counter name");
	OK(!pattern_match("LogicalDisk(*)\\Disk * Bytes/sec", paths[5]), "... not Disk Reads/sec");
	OK(pattern_match("Memory\\*", paths[6]), "Object\\* every counter");
	OK(pattern_match("Network Interface(eth[0])\\*", paths[7]), "'[' and ']' are literal");
	OK(!pattern_match("Network Interface(eth0)\\*", paths[7]), "... not a character class");
	OK(!pattern_match("Processor(?)\\% Processor Time", paths[1]), "'?' is literal");

	n = pattern_select(&m, "Memory\\Available Bytes, LogicalDisk(sda)\\Disk*Bytes/sec+Processor(*)\\% Processor Time", &idx, &e);
	EQ_INT(n, 5, "three patterns pick five counters");
	if (n == 5) {
		EQ_INT(idx[0], 6, "in the order of the patterns: Memory first");
		EQ_INT(idx[1], 3, "then the disk's read bytes");
		EQ_INT(idx[2], 4, "and write bytes");
		EQ_INT(idx[3], 0, "then the processors in perflog.meta order");
		EQ_INT(idx[4], 1, "...");
	}
	free(idx);
	n = pattern_select(&m, "Processor(_Total)\\*,Processor(*)\\% Processor Time", &idx, &e);
	EQ_INT(n, 3, "a counter two patterns match is picked once");
	free(idx);
	n = pattern_select(&m, "Memory\\Available Bytes,System\\*", &idx, &e);
	EQ_INT(n, -1, "a pattern that matches nothing is an error");
	EQ_STR(e.msg, "--counters: no counter of the log set matches 'System\\*'", "naming the pattern");
	OK(idx == NULL, "and nothing returned");
	EQ_INT(pattern_select(&m, "Memory\\*, +Memory\\*", &idx, &e), -1, "a blank pattern is an error");
	OK(!strncmp(e.msg, "--counters: empty pattern", 25), "saying so");
	EQ_INT(pattern_select(&m, "  ", &idx, &e), -1, "no pattern at all is an error");
	return done_testing();
}
