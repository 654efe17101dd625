/*
 * growto.c - what a log set would weigh at a given age, exactly, for
 * bench/footprint.sh: every RRD file of the set is copied to SCRATCH and
 * grown by the writer's own code (logs/grow.h) to the span the growth
 * schedule (logs/layout.h) gives at AGE seconds; the copies' bytes plus
 * the set's other files are printed. The schedule depends on nothing but
 * the age, the step and the retention, so this is the size the set will
 * have, not an estimate (the metadata and markers excepted, which grow
 * only with instances and markers).
 *
 *   growto SETDIR AGE SCRATCH        prints: BYTES FILES SPAN
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../logs/grow.h"
#include "../../logs/layout.h"
#include "../../logs/logset.h"

static int copy(const char *from, const char *to)
{
	char buf[1 << 16];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			n = -1;
	close(in);
	close(out);
	return n < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct logset *ls;
	struct perr e;
	struct grower g;
	struct layout l;
	unsigned long long bytes = 0;
	unsigned long span;
	int files = 0;
	DIR *d;
	struct dirent *de;

	if (argc != 4) {
		fprintf(stderr, "usage: growto SETDIR AGE SCRATCH\n");
		return 2;
	}
	if (logset_open(argv[1], &ls, &e) < 0) {
		fprintf(stderr, "growto: %s\n", e.msg);
		return 1;
	}
	l.step = logset_meta(ls)->interval;
	l.retention = logset_meta(ls)->retention;
	logset_close(ls);
	span = layout_span_for(&l, layout_first_span(), atof(argv[2]));
	memset(&g, 0, sizeof(g));
	g.dfd = open(argv[3], O_RDONLY | O_DIRECTORY);
	g.dir = argv[3];
	g.layout = l;
	d = opendir(argv[1]);
	if (g.dfd < 0 || !d || chdir(argv[3]) < 0) {
		perror("growto");
		return 1;
	}
	while ((de = readdir(d))) {
		char from[PATH_MAX + 300], msg[320];
		struct grow_job j = { .kind = GROW_RESIZE, .span = span };
		struct stat st;
		size_t n = strlen(de->d_name);

		snprintf(from, sizeof(from), "%s/%s", argv[1], de->d_name);
		if (lstat(from, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (n < 4 || strcmp(de->d_name + n - 4, ".rrd")) {
			bytes += (unsigned long long)st.st_size;
			continue;
		}
		snprintf(j.name, sizeof(j.name), "%s", de->d_name);
		if (copy(from, j.name) < 0 ||
		    grow_run_job(&g, &j, msg, sizeof(msg)) < 0 ||
		    stat(j.name, &st) < 0) {
			fprintf(stderr, "growto: %s: %s\n", de->d_name, msg);
			return 1;
		}
		bytes += (unsigned long long)st.st_size;
		files++;
		unlink(j.name);
	}
	closedir(d);
	printf("%llu %d %lu\n", bytes, files, span);
	return 0;
}
