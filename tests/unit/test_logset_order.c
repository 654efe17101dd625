/*
 * test_logset_order.c - the order in which a new instance's file and its
 * mapping in perflog.meta reach the disk (issue 22: t7200 once saw a loop
 * device's RRD file whose mapping was not in perflog.meta yet).
 *
 * The rule (writer.h, grow.h): at every moment the file NAME.rrd exists,
 * perflog.meta names it. The writer's worker makes the file under its
 * temporary name in a child process; the test watches the directory from
 * outside the writer while that child runs and after it ends, without
 * calling the writer (the old order, the child renaming the file into
 * place itself, fails here: the file appears while the metadata waits
 * for the next sample), then lets the writer place it and checks both are
 * there, and nothing temporary is left.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../logs/grow.h"
#include "../../logs/logset.h"
#include "tap.h"

#define DISK "LogicalDisk-loop9.rrd"

static char scratch[] = "/tmp/perflog-order-XXXXXX";
static char dir[600];

static int exists(const char *name)
{
	char p[800];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return lstat(p, &st) == 0;
}

/* perflog.meta names the file (a "counter" line's file field) */
static int meta_names(const char *name)
{
	char p[800], line[1024], want[300];
	FILE *f;
	int found = 0;

	snprintf(p, sizeof(p), "%s/perflog.meta", dir);
	snprintf(want, sizeof(want), "\t%s\t", name);
	if (!(f = fopen(p, "r")))
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "counter\t", 8) && strstr(line, want);
	fclose(f);
	return found;
}

static void fill(struct sample *s, int disk)
{
	s->n = 0;
	s->inst[s->n].object = OBJ_MEMORY;
	strcpy(s->inst[s->n].instance, "");
	for (int k = 0; k < CATALOG_MAX_PER_OBJECT; k++)
		s->inst[s->n].v[k] = 1000 + k;
	s->n++;
	if (disk) {
		s->inst[s->n].object = OBJ_LOGICALDISK;
		strcpy(s->inst[s->n].instance, "loop9");
		for (int k = 0; k < CATALOG_MAX_PER_OBJECT; k++)
			s->inst[s->n].v[k] = k;
		s->n++;
	}
}

int main(void)
{
	time_t start = time(NULL) - 3600;
	struct logset_options opt = {
		.parent = scratch, .name = "set", .interval = 1,
		.retention = 3600,
	};
	struct instance_values inst[4];
	struct sample s = { .inst = inst, .cap = 4 };
	struct logset_writer *w;
	struct perr e;
	int mem[2] = { 0, 1 }, disk[3] = { 0, 1, 2 };
	char tmp[300];
	int seen_tmp = 0, early = 0, t = 1;

	unsetenv("RRDCACHED_ADDRESS");
	start -= start % 60;
	opt.start = start;
	if (!mkdtemp(scratch)) {
		OK(0, "mkdtemp");
		return done_testing();
	}
	snprintf(dir, sizeof(dir), "%s/set", scratch);
	grow_created_name(tmp, sizeof(tmp), DISK);
	if (logset_create(&opt, &w, &e) < 0 ||
	    logset_add_instance(w, OBJ_MEMORY, "", mem, 2, &e) < 0 ||
	    (fill(&s, 0), logset_write_sample(w, (double)(start + t++), &s,
					      &e)) < 0 ||
	    logset_flush(w, &e) < 0) {
		OK(0, "a set with Memory");
		printf("# %s\n", e.msg);
		return done_testing();
	}
	OK(exists("Memory.rrd") && meta_names("Memory.rrd"),
	   "the first file and its mapping are there after the flush");

	/* the instance appears: this sample starts the worker on its file */
	OK(logset_add_instance(w, OBJ_LOGICALDISK, "loop9", disk, 3, &e) == 0,
	   "add LogicalDisk(loop9)");
	fill(&s, 1);
	OK(logset_write_sample(w, (double)(start + t++), &s, &e) == 0,
	   "the sample that queues its create job");
	/* up to 30 s (a loaded machine) for the worker to finish, the
	 * writer left alone: the file may not appear unmapped at any moment */
	for (int i = 0; i < 3000 && !early; i++) {
		seen_tmp |= exists(tmp);
		if (exists(DISK) && !meta_names(DISK)) {
			early = 1;
			printf("# %s exists after %d ms, perflog.meta does not name it\n",
			       DISK, i * 10);
		}
		if (seen_tmp && i >= 50)
			break;	/* made, and waiting for the writer */
		usleep(10000);
	}
	OK(!early, "while the worker runs and after: no file the metadata does not map");
	OK(seen_tmp || early, "the worker made it under its temporary name");
	if (!seen_tmp)
		printf("# %s never appeared\n", tmp);

	/* the next sample that sees the worker's result places it: mapping
	 * first, then the file (the result line may come a little after the
	 * file: a loaded machine gets up to 30 s of samples) */
	for (int i = 0; i < 300 && !exists(DISK); i++) {
		if (logset_write_sample(w, (double)(start + t++), &s, &e) < 0) {
			printf("# sample %d: %s\n", t - 1, e.msg);
			break;
		}
		if (exists(DISK) && !meta_names(DISK))
			early = 1;
		if (!exists(DISK))
			usleep(100000);
	}
	OK(!early, "placed by a sample: mapped before it appeared");
	OK(meta_names(DISK), "perflog.meta names it");
	OK(exists(DISK), "and the file is in place");
	OK(!exists(tmp), "no temporary name left");
	logset_close_writer(w, (double)(start + t), &e);
	OK(exists(DISK) && meta_names(DISK), "closed: both still there");

	if (rmtree(scratch) != 0)
		printf("# could not remove %s\n", scratch);
	return done_testing();
}
