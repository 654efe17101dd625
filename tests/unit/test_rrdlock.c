/*
 * test_rrdlock.c - librrd's file locks met by another process
 * (logs/rrdlock.h). librrd 1.7 locks without waiting, so before, a reader
 * meeting an update failed ("could not lock RRD": `perflog report` on a
 * live set) and an update meeting a reader failed too (the collector's
 * "unable to update"). Here a child process takes the lock the way
 * librrd does (fcntl, the whole file) and holds it:
 *   - an exclusive lock for 0.2 s: logset_fetch waits it out;
 *   - a shared lock for 0.05 s: the writer's update waits it out;
 *   - a shared lock held for good (anyone who can read a file can): the
 *     update fails within the sample's budget, naming the lock, and once
 *     the lock is gone the next sample writes every held row;
 * and rrdlock_again itself: other errors and a past deadline end the
 * retries.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <rrd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../common/util.h"
#include "../../logs/logset.h"
#include "../../logs/rrdlock.h"
#include "tap.h"

static char scratch[] = "/tmp/perflog-rrdlock-XXXXXX";
static time_t start;

/* A child holding an fcntl lock of type on path for secs (< 0: until
 * killed); returns once the lock is taken. The child runs in the
 * real-time class where the host allows it: what is checked is the
 * writer's wait against a hold of a known length, and beside a load of
 * 20 on 2 CPUs a normal child woke from its 50 ms sleep too late to let
 * go within the sample's 0.1 s (6 runs of 10 beside stress-ng --cpu 6
 * failed "its row is in"). */
static pid_t hold_lock(const char *path, short type, double secs)
{
	int ready[2];
	pid_t pid;
	char c;

	if (pipe(ready) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int fd = open(path, type == F_WRLCK ? O_RDWR : O_RDONLY);
		struct flock l = { .l_type = type, .l_whence = SEEK_SET };
		struct sched_param rt = { .sched_priority = 10 };

		(void)sched_setscheduler(0, SCHED_FIFO, &rt);
		if (fd < 0 || fcntl(fd, F_SETLKW, &l) < 0)
			_exit(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		if (secs < 0)
			for (;;)
				pause();
		{
			struct timespec ts = { (time_t)secs,
					       (long)(fmod(secs, 1) * 1e9) };

			nanosleep(&ts, NULL);
		}
		_exit(0);
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		return -1;
	}
	close(ready[0]);
	return pid;
}

static void reap(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

static void fill(struct sample *s, int i)
{
	struct instance_values *v = &s->inst[0];

	s->n = 1;
	v->object = OBJ_MEMORY;
	strcpy(v->instance, "");
	for (int k = 0; k < CATALOG_MAX_PER_OBJECT; k++)
		v->v[k] = 1e9 + i;
}

static time_t file_last(const char *path)
{
	time_t t;

	rrd_clear_error();
	t = rrd_last_r(path);
	rrd_clear_error();
	return t;
}

static void check_writer_and_reader(void)
{
	struct logset_options opt = {
		.parent = scratch, .name = "set", .interval = 1,
		.retention = 3600, .start = start,
	};
	struct logset_writer *w;
	struct instance_values inst[1];
	struct sample s = { .inst = inst, .cap = 1 };
	struct perr e;
	int mem[2] = { 0, 1 }, bad = 0, i;
	char path[700];
	pid_t locker;
	double t0;

	snprintf(path, sizeof(path), "%s/set/Memory.rrd", scratch);
	if (logset_create(&opt, &w, &e) < 0 ||
	    logset_add_instance(w, OBJ_MEMORY, "", mem, 2, &e) < 0 ||
	    logset_flush(w, &e) < 0) {
		OK(0, "log set created");
		printf("# %s\n", e.msg);
		return;
	}
	for (i = 1; i <= 10; i++) {
		fill(&s, i);
		bad += logset_write_sample(w, start + i, &s, &e) < 0;
	}
	EQ_INT(bad, 0, "10 samples written");

	/* a reader holds its shared lock for 50 ms: the update waits */
	locker = hold_lock(path, F_RDLCK, 0.05);
	OK(locker > 0, "a reader holds the file (shared lock)");
	fill(&s, 11);
	OK(logset_write_sample(w, start + 11, &s, &e) == 0,
	   "the update waits the reader out");
	EQ_INT((int)(file_last(path) - start), 11, "... and its row is in");
	reap(locker);

	/* a reader holding its lock past the sample's wait (a 40 ms hold
	 * on a loaded machine, its reader not scheduled to let go): the
	 * rows wait for the next sample, in silence (the collector said
	 * "could not lock RRD", then "works again" a second later) */
	locker = hold_lock(path, F_RDLCK, 0.4);
	fill(&s, 12);
	OK(logset_write_sample(w, start + 12, &s, &e) == 0,
	   "a reader's lock past the sample's wait: no failure said");
	EQ_INT((int)(file_last(path) - start), 11, "... its row is held");
	reap(locker);
	fill(&s, 13);
	OK(logset_write_sample(w, start + 13, &s, &e) == 0,
	   "the lock gone: the next sample writes");
	EQ_INT((int)(file_last(path) - start), 13, "... the held row with it");

	/* a reader that never lets go: each sample gives up within its
	 * budget and keeps the rows; once the lock has lasted as long as a
	 * reading command waits (RRDLOCK_READ_WAIT), it says why */
	locker = hold_lock(path, F_RDLCK, -1);
	fill(&s, 14);
	t0 = util_monotonic();
	OK(logset_write_sample(w, start + 14, &s, &e) == 0,
	   "a lock held for good: at first, held in silence");
	printf("# %.3f s a sample\n", util_monotonic() - t0);
	usleep((useconds_t)(RRDLOCK_READ_WAIT * 1e6) + 100000);
	fill(&s, 15);
	e.msg[0] = '\0';
	OK(logset_write_sample(w, start + 15, &s, &e) < 0,
	   "... and after RRDLOCK_READ_WAIT the update fails");
	OK(strstr(e.msg, "could not lock") != NULL, "... naming the lock");
	printf("# %s\n", e.msg);
	fill(&s, 16);
	logset_write_sample(w, start + 16, &s, &e);
	EQ_INT((int)(file_last(path) - start), 13, "... its rows are held");
	reap(locker);
	fill(&s, 17);
	OK(logset_write_sample(w, start + 17, &s, &e) == 0,
	   "the lock gone: the next sample writes");
	EQ_INT((int)(file_last(path) - start), 17, "... every held row with it");
	OK(logset_close_writer(w, start + 17, &e) == 0, "closed");

	/* an update holds the exclusive lock for 0.2 s: a reader waits */
	{
		struct logset *ls;
		struct logset_series out = { 0 };
		long k;

		snprintf(path, sizeof(path), "%s/set", scratch);
		if (logset_open(path, &ls, &e) < 0) {
			OK(0, "log set opened");
			printf("# %s\n", e.msg);
			return;
		}
		k = logset_find(ls, "Memory\\Available Bytes");
		snprintf(path, sizeof(path), "%s/set/Memory.rrd", scratch);
		locker = hold_lock(path, F_WRLCK, 0.2);
		OK(locker > 0, "an update holds the file (exclusive lock)");
		OK(k >= 0 && logset_fetch(ls, (size_t *)&k, 1, start, start + 14,
					  "AVERAGE", 1, &out, &e) == 0,
		   "logset_fetch waits the update out");
		if (k < 0 || !out.values)
			printf("# %s\n", e.msg);
		{
			double newest = NAN;

			for (size_t r = 0; r < out.rows; r++)
				if (!isnan(out.values[r * out.ncols]))
					newest = out.values[r * out.ncols];
			EQ_DBL(newest, 1e9 + 14, 0.5, "... and reads the rows");
		}
		logset_series_free(&out);
		reap(locker);
		OK(logset_last(ls) == start + 17, "logset_last: the last row");
		logset_close(ls);
	}
}

static void check_again(void)
{
	char other[] = "opening 'x.rrd': No such file or directory";
	char lock[] = "could not lock RRD";

	rrd_set_error(other);
	OK(!rrdlock_conflict() &&
	   !rrdlock_again(rrdlock_deadline(RRDLOCK_READ_WAIT)),
	   "another error: no retry");
	rrd_set_error(lock);
	OK(rrdlock_conflict(), "a lock conflict is seen as one");
	OK(!rrdlock_again(rrdlock_deadline(0)), "the deadline past: no retry");
	OK(rrdlock_conflict(), "... the error left as it was");
	OK(rrdlock_again(rrdlock_deadline(1)), "within the deadline: retry");
	OK(!rrdlock_conflict(), "... the error cleared for the next try");
	rrd_clear_error();
}

int main(void)
{
	unsetenv("RRDCACHED_ADDRESS");
	start = time(NULL) - 86400;
	start -= start % 60;
	if (!mkdtemp(scratch)) {
		OK(0, "mkdtemp");
		return done_testing();
	}
	check_again();
	check_writer_and_reader();
	if (rmtree(scratch) != 0)
		printf("# could not remove %s\n", scratch);
	return done_testing();
}
