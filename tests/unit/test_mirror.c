/*
 * test_mirror.c - perflog receive's side of the wire (logs/mirror.h)
 * against hostile requests: names that leave the set (a slash, "..", a
 * symlink), writes past a file's end, requests before a set is named,
 * unknown ones, a length that cannot be; each refused with a reason and
 * the stream kept in step, nothing written outside the base directory.
 * The writer's side is tested end to end (t6120, t6130).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../logs/mirror.h"
#include "tap.h"

static char base[64];

/* The requests (len bytes) answered under base: the answers, one line
 * each, joined (the caller frees). */
static char *answer(const char *req, size_t len)
{
	int sv[2], basefd = open(base, O_RDONLY | O_DIRECTORY);
	char *out = calloc(1, 8192);
	size_t n = 0;
	ssize_t k;
	FILE *in;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0 || !out)
		abort();
	if (write(sv[0], req, len) != (ssize_t)len)
		abort();
	shutdown(sv[0], SHUT_WR);
	in = fdopen(sv[1], "r");
	mirror_answer(basefd, in, sv[1], "test", NULL);
	fclose(in);
	while (n < 8191 && (k = read(sv[0], out + n, 8191 - n)) > 0)
		n += (size_t)k;
	close(sv[0]);
	close(basefd);
	return out;
}

static char *slurp(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t k = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[k > 0 ? k : 0] = '\0';
	return fd >= 0 ? buf : NULL;
}

static void test_refused(void)
{
	char path[128], *got;
	static const char req[] =
		"PUT early 3\nabc"
		"SET ../evil\n"
		"SET ..\n"
		"SET s1\n"
		"PUT a/b 3\nabc"
		"PUT .. 2\nxy"
		"AT link 0 3\nabc"
		"PUT m 5\nhello"
		"AT m 5 3\n!!!"
		"AT m 100 1\nx"
		"BOGUS m\n"
		"DEL\n"
		"DEL m2\n"
		"PUT m2 2\nok"
		"DEL m2\n"
		"PUT huge 99999999999999\n"
		"PUT after 1\nz";

	/* a symlink in the set to a file outside it */
	snprintf(path, sizeof(path), "%s/s1", base);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/outside", base);
	close(open(path, O_WRONLY | O_CREAT, 0644));
	snprintf(path, sizeof(path), "%s/s1/link", base);
	if (symlink("../outside", path) < 0)
		abort();

	got = answer(req, sizeof(req) - 1);
	EQ_STR(strtok(got, "\n"), "ERR no log set named", "a file before the set: refused");
	OK(!strncmp(strtok(NULL, "\n"), "ERR bad log set name '../evil'", 30),
	   "a set name with a slash: refused");
	OK(!strncmp(strtok(NULL, "\n"), "ERR bad log set name '..'", 25),
	   "a set named '..': refused");
	EQ_STR(strtok(NULL, "\n"), "OK", "SET s1 (it exists: taken again after a reconnect)");
	EQ_STR(strtok(NULL, "\n"), "ERR bad file name", "a file name with a slash: refused, its data skipped");
	EQ_STR(strtok(NULL, "\n"), "ERR bad file name", "a file named '..': refused");
	OK(strstr(strtok(NULL, "\n"), "ERR ") != NULL, "a write through a symlink: refused");
	EQ_STR(strtok(NULL, "\n"), "OK", "PUT m");
	EQ_STR(strtok(NULL, "\n"), "OK", "AT m at its end");
	OK(strstr(strtok(NULL, "\n"), "holds less than 100 bytes") != NULL,
	   "a write past a file's end: refused, saying so");
	EQ_STR(strtok(NULL, "\n"), "ERR unknown request 'BOGUS'", "an unknown request");
	EQ_STR(strtok(NULL, "\n"), "ERR 'DEL': no name", "a request without its name");
	EQ_STR(strtok(NULL, "\n"), "OK", "DEL of a file not there");
	EQ_STR(strtok(NULL, "\n"), "OK", "PUT m2");
	EQ_STR(strtok(NULL, "\n"), "OK", "DEL m2");
	OK(strtok(NULL, "\n") == NULL,
	   "an impossible length ends the connection (the stream is not in step)");
	free(got);

	snprintf(path, sizeof(path), "%s/s1/m", base);
	EQ_STR(slurp(path), "hello!!!", "m holds its PUT and its AT");
	snprintf(path, sizeof(path), "%s/outside", base);
	EQ_STR(slurp(path), "", "the symlink's target is untouched");
	snprintf(path, sizeof(path), "%s/s1/m2", base);
	OK(access(path, F_OK) != 0, "m2 removed");
	snprintf(path, sizeof(path), "%s/s1/after", base);
	OK(access(path, F_OK) != 0, "nothing after the broken request");
	snprintf(path, sizeof(path), "%s/evil", base);
	OK(access(path, F_OK) != 0 && access("../evil", F_OK) != 0,
	   "nothing made outside the base directory");
}

static void test_gone(void)
{
	char path[128], *got;
	static const char req[] = "SET s2\nPUT perflog.meta 2\nxxPUT .rrdcached-probe.rrd 1\nrGONE\n";
	static const char keep[] = "SET s3\nPUT perflog.meta 1\nxGONE\n";

	got = answer(req, sizeof(req) - 1);
	EQ_STR(got, "OK\nOK\nOK\nOK\n", "GONE after a failed start's files");
	snprintf(path, sizeof(path), "%s/s2", base);
	OK(access(path, F_OK) != 0, "the set's directory is gone");
	free(got);

	/* the daemon's RRD files stay, and so does their directory */
	snprintf(path, sizeof(path), "%s/s3", base);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/s3/System.rrd", base);
	close(open(path, O_WRONLY | O_CREAT, 0644));
	got = answer(keep, sizeof(keep) - 1);
	EQ_STR(got, "OK\nOK\nOK\n", "GONE with an RRD file in the set");
	OK(access(path, F_OK) == 0, "the RRD file stays");
	snprintf(path, sizeof(path), "%s/s3/perflog.meta", base);
	OK(access(path, F_OK) != 0, "the other files go");
	free(got);
}

int main(void)
{
	snprintf(base, sizeof(base), "/tmp/test_mirror.XXXXXX");
	if (!mkdtemp(base))
		abort();
	test_refused();
	test_gone();
	if (rmtree(base) != 0)
		return 1;
	return done_testing();
}
