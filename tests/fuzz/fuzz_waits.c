/* fuzz_waits.c - the wait-state sampler's readers (waits/waits.c,
 * waitset.c, waitprobe.c, pidstat.c, waitclass.c) and the interval
 * arithmetic (waitrates.c) on whatever a fake /proc holds.
 *
 * The input is split on lines "@@@" into up to nine parts, written under
 * a private temporary root (waits_open's fixture seam, STYLE 4) as one
 * thread's files: 0 task/100/stat (also the process's stat), 1 schedstat,
 * 2 wchan, 3 syscall, 4 fdinfo/9 (an epoll instance), 5 mem (poll arrays
 * and fd_sets are read from it at the call's addresses), 6 io, 7
 * proc/uptime, 8 a cgroup's cgroup.threads. Descriptors 5 (socket), 6
 * (pipe), 7 (a regular file) and 9 (epoll) exist. The thread is watched
 * through the cgroup, then through its process; two ticks and two reads,
 * schedstat rewritten in between, and the rates of the pair. Each part is
 * also read back as a per-thread totals file (waitrates_parse), whose
 * shares must stay within 0..100, and as a rows file (waitrows_parse),
 * whose seconds must not be negative. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../process/pidstat.h"
#include "../../waits/waitclass.h"
#include "../../waits/waitrates.h"
#include "../../waits/waitrows.h"
#include "../../waits/waits.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static char root[64];
static const char *const files[9] = {
	"proc/100/task/100/stat", "proc/100/task/100/schedstat",
	"proc/100/task/100/wchan", "proc/100/task/100/syscall",
	"proc/100/fdinfo/9", "proc/100/mem", "proc/100/task/100/io",
	"proc/uptime", "cg/cgroup.threads",
};

static void cleanup(void)
{
	rmtree(root);
}

static void setup(void)
{
	static const char *const dirs[] = {
		"proc", "proc/100", "proc/100/task", "proc/100/task/100",
		"proc/100/fd", "proc/100/fdinfo", "cg",
	};
	char p[128], q[128];

	snprintf(root, sizeof(root), "/tmp/perflog-fuzz.XXXXXX");
	if (!mkdtemp(root))
		abort();
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		mkdir(p, 0700);
	}
	snprintf(p, sizeof(p), "%s/proc/100/fd/5", root);
	if (symlink("socket:[1]", p) < 0)
		abort();
	snprintf(p, sizeof(p), "%s/proc/100/fd/6", root);
	if (symlink("pipe:[2]", p) < 0)
		abort();
	snprintf(p, sizeof(p), "%s/proc/100/fd/9", root);
	if (symlink("anon_inode:[eventpoll]", p) < 0)
		abort();
	snprintf(p, sizeof(p), "%s/proc/100/fd/7", root);
	snprintf(q, sizeof(q), "%s/proc/uptime", root);
	if (symlink(q, p) < 0)
		abort();
	atexit(cleanup);
}

static void put(const char *rel, const unsigned char *d, size_t n)
{
	fuzz_put(root, rel, d, n);
}

/* The parsers on their own, on a NUL-terminated copy of a part. */
static void parse_alone(const unsigned char *d, size_t n)
{
	char *s = malloc(n + 1);
	struct pidstat ps;
	enum wait_class c;

	if (!s)
		return;
	memcpy(s, d, n);
	s[n] = '\0';
	pidstat_parse(s, &ps);
	waitclass_wchan(s, &c);
	waitclass_fd_kind(s, 0);
	free(s);
	/* a part as the per-thread totals file the report reads back */
	{
		struct waits_totals t = { 0 };
		double pct[WS_N];
		size_t k, bad;

		if (waitrates_parse((const char *)d, n, &t, &bad) > 0) {
			waitrates_split(&t, 1, pct, &k);
			for (int i = 0; i < WS_N; i++)
				if (!isnan(pct[i]) && (pct[i] < -1e-6 || pct[i] > 100 + 1e-6))
					abort();
		}
		waitrates_totals_free(&t);
	}
	/* and as a rows file (waitrows.h): read whole or refused, its
	 * seconds never negative */
	{
		struct waitrows_file f;
		struct perr e;

		if (waitrows_parse((const char *)d, n, "rows", &f, &e) >= 0) {
			for (size_t i = 0; i < f.np; i++)
				for (int k = 0; k < WS_N; k++)
					if (!(f.p[i].sec[k] >= 0) || !(f.p[i].alive >= 0))
						abort();
			if (!(f.step > 0))
				abort();
		}
		waitrows_file_free(&f);
	}
}

static void watch_and_read(int by_cgroup)
{
	struct perr e;
	struct waits *w = waits_open(root, &e);
	struct waits_snap a = { 0 }, b = { 0 };
	struct waits_values v;
	struct waits_totals tot = { 0 };
	char buf[4096], cg[96];
	pid_t pid = 100;

	if (!w)
		return;
	snprintf(cg, sizeof(cg), "%s/cg", root);
	if (by_cgroup ? waits_watch_cgroup(w, cg, &e) : waits_watch_pids(w, &pid, 1, &e))
		goto out;
	waits_tick(w, 10.0);
	waits_read(w, 10.0, &a);
	put(files[1], (const unsigned char *)"99 88 77\n", 9);
	waits_tick(w, 10.5);
	waits_read(w, 11.0, &b);
	waitrates_compute(&a, &b, &v, &tot);
	waitrates_format(&tot, buf, sizeof(buf));
out:
	waits_snap_free(&a);
	waits_snap_free(&b);
	waitrates_totals_free(&tot);
	waits_close(w);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const unsigned char *part[9];
	size_t len[9];
	int n;

	if (!root[0])
		setup();
	n = fuzz_split(data, size, part, len, 9);
	for (int i = 0; i < 9; i++) {
		put(files[i], i < n ? part[i] : NULL, i < n ? len[i] : 0);
		if (i < n)
			parse_alone(part[i], len[i]);
	}
	put("proc/100/stat", part[0], len[0]);
	watch_and_read(1);
	for (int i = 0; i < 2 && i < n; i++)	/* schedstat was rewritten */
		put(files[i], part[i], len[i]);
	watch_and_read(0);
	return 0;
}
