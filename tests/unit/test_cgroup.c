/*
 * test_cgroup.c - the command's cgroup (process/cgroup.c): placing our
 * groups from mountinfo and cgroup text (hybrid, pure v2, co-mounted and
 * separate v1 cpu/cpuacct, a container's subtree mount, nothing mounted),
 * then, as root, a live group: created, joined, its CPU time counting a
 * child that burnt and exited, its processes, removed; and the cleaning
 * of a stale group of a dead pid. Also taskstats_parse on a synthetic
 * datagram (process/taskstats.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../process/cgroup.h"
#include "../../process/taskstats.h"
#include "tap.h"
#include "fixtures.h"

static const char hybrid_mi[] =
	"22 1 254:1 / / rw - ext4 /dev/vda1 rw\n"
	"26 25 0:23 / /sys/fs/cgroup ro - tmpfs tmpfs ro\n"
	"27 26 0:24 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw,nsdelegate\n"
	"28 26 0:25 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
	"29 26 0:26 / /sys/fs/cgroup/cpuacct rw - cgroup cgroup rw,cpuacct\n"
	"30 26 0:27 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";
static const char hybrid_cg[] =
	"9:name=systemd:/\n4:memory:/process_api/x\n2:cpuacct:/a\n1:cpu:/a/b\n0::/\n";

static void test_parse(void)
{
	struct cgroup_set g;

	OK(cgroup_parse(hybrid_mi, hybrid_cg, &g) == 0, "hybrid: found");
	EQ_STR(g.v2, "/sys/fs/cgroup/unified", "hybrid: v2 at its root");
	EQ_STR(g.cpu, "/sys/fs/cgroup/cpu/a/b", "hybrid: cpu, a hierarchy of its own");
	EQ_STR(g.cpuacct, "/sys/fs/cgroup/cpuacct/a", "hybrid: cpuacct, another");
	EQ_STR(cgroup_kind(&g), "v2", "hybrid: logged as v2");

	OK(cgroup_parse("30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
			"0::/user.slice/user-1000.slice/session-2.scope\n", &g) == 0,
	   "pure v2: found");
	EQ_STR(g.v2, "/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope",
	       "pure v2: our group below the mount");
	OK(!g.cpu[0] && !g.cpuacct[0], "pure v2: no v1");

	OK(cgroup_parse("29 26 0:26 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n",
			"4:cpu,cpuacct:/x\n", &g) == 0, "co-mounted v1: found");
	EQ_STR(g.cpu, "/sys/fs/cgroup/cpu,cpuacct/x", "co-mounted: cpu");
	EQ_STR(g.cpuacct, g.cpu, "co-mounted: cpuacct is the same directory");
	EQ_STR(cgroup_kind(&g), "v1", "co-mounted: logged as v1");

	/* a container sees its subtree mounted at /sys/fs/cgroup */
	OK(cgroup_parse("40 30 0:30 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
			"0::/docker/abc/job\n", &g) == 0, "container: found");
	EQ_STR(g.v2, "/sys/fs/cgroup/job", "container: path below the mount's root");
	OK(cgroup_parse("40 30 0:30 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
			"0::/elsewhere\n", &g) < 0, "container: a group outside the mount is not placed");
	OK(cgroup_parse("40 30 0:30 /my\\040dir /sys/fs/my\\040cg rw - cgroup2 cgroup2 rw\n",
			"0::/my dir/x\n", &g) == 0 &&
	   !strcmp(g.v2, "/sys/fs/my cg/x"), "mountinfo's octal escapes");
	OK(cgroup_parse("22 1 254:1 / / rw - ext4 /dev/vda1 rw\n", "0::/\n", &g) < 0,
	   "nothing mounted: -1");
	OK(cgroup_parse("", "", &g) < 0 && !cgroup_any(&g), "empty texts: -1");
	OK(cgroup_parse("garbage - \n - - -\n", "x:y\n::\n", &g) < 0, "garbage: -1");
}

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void test_live(void)
{
	struct cgroup_set base, g;
	struct perr e = { "" };
	char name[64], stale[PATH_MAX + 64];
	uint64_t us0 = 0, us1 = 0;
	pid_t c, dead, *pids;
	int go[2], st;
	long n;

	if (geteuid() != 0 || cgroup_self(&base, &e) < 0) {
		printf("ok %d # SKIP live cgroup: not root or %s\n", ++tap_n, e.msg);
		return;
	}
	snprintf(name, sizeof(name), "plX%ld", (long)getpid());
	if (cgroup_create(&base, name, &g, &e) < 0) {
		printf("ok %d # SKIP cannot create a cgroup: %s\n", ++tap_n, e.msg);
		return;
	}
	OK(cgroup_any(&g), "live: created");
	if (pipe(go) < 0)
		return;
	fflush(stdout);
	c = fork();
	if (c == 0) {	/* waits until joined, burns 0.3 s, exits */
		volatile unsigned long x = 1;
		char b;

		if (read(go[0], &b, 1) != 1)
			_exit(2);
		while (cpu_now() < 0.3)
			for (int i = 0; i < 100000; i++)
				x = x * 3 + 1;
		_exit(0);
	}
	OK(cgroup_join(&g, c, &e) == 0, "live: the child joins it");
	n = cgroup_procs(&g, &pids);
	OK(n == 1 && pids[0] == c, "live: it is the group's one process");
	free(pids);
	OK(cgroup_cpu_usage(&g, &us0) > 0, "live: CPU usage readable");
	if (write(go[1], "g", 1) != 1)
		return;
	waitpid(c, &st, 0);
	OK(cgroup_cpu_usage(&g, &us1) > 0 && us1 - us0 >= 280000 &&
	   us1 - us0 < 1000000, "live: the exited child's 0.3 s is in the group");
	printf("#   %.3f CPU-s\n", (double)(us1 - us0) / 1e6);
	OK(cgroup_remove(&g, &e) == 0, "live: removed");
	OK(!cgroup_any(&g), "live: the set is cleared");
	close(go[0]);
	close(go[1]);

	/* a group named for a pid that is gone, and empty: stale */
	dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	snprintf(stale, sizeof(stale), "%s/" CGROUP_PREFIX "%ld",
		 base.v2[0] ? base.v2 : base.cpuacct, (long)dead);
	if (mkdir(stale, 0755) < 0) {
		printf("ok %d # SKIP mkdir %s: %s\n", ++tap_n, stale, strerror(errno));
		return;
	}
	OK(cgroup_clean_stale(&base) >= 1 && access(stale, F_OK) < 0,
	   "stale: the group of a dead perflog run is removed");
	rmdir(stale);
}

/* One TASKSTATS_CMD_NEW datagram with an AGGR_PID nest, built the way the
 * kernel does. */
static size_t make_record(char *buf, pid_t tid, pid_t tgid, uint64_t wr)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = (struct genlmsghdr *)NLMSG_DATA(h);
	struct nlattr *aggr = (struct nlattr *)((char *)g + GENL_HDRLEN);
	struct nlattr *pid = (struct nlattr *)((char *)aggr + NLA_HDRLEN);
	struct nlattr *stats = (struct nlattr *)((char *)pid + NLA_HDRLEN + 4);
	struct taskstats ts, *t = &ts;	/* the payload is only 4-aligned */
	size_t len;

	memset(buf, 0, 1024);
	memset(&ts, 0, sizeof(ts));
	g->cmd = TASKSTATS_CMD_NEW;
	pid->nla_type = TASKSTATS_TYPE_PID;
	pid->nla_len = NLA_HDRLEN + 4;
	memcpy((char *)pid + NLA_HDRLEN, &tid, 4);
	stats->nla_type = TASKSTATS_TYPE_STATS;
	stats->nla_len = NLA_HDRLEN + sizeof(*t);
	t->version = TASKSTATS_VERSION;
	t->ac_pid = (uint32_t)tid;
	t->ac_tgid = (uint32_t)tgid;
	t->ac_ppid = 1;
	t->ac_utime = 1500;
	t->ac_stime = 500;
	t->read_char = 4096;
	t->write_char = wr;
	t->ac_btime64 = 1796000000;
	memcpy((char *)stats + NLA_HDRLEN, &ts, sizeof(ts));
	aggr->nla_type = TASKSTATS_TYPE_AGGR_PID;
	aggr->nla_len = (uint16_t)(NLA_HDRLEN + NLA_HDRLEN + 4 + stats->nla_len);
	len = NLMSG_LENGTH(GENL_HDRLEN + NLA_ALIGN(aggr->nla_len));
	h->nlmsg_len = (uint32_t)len;
	return NLMSG_ALIGN(len);
}

struct seen {
	int n;
	struct taskstats_exit last;
};

static void take(void *arg, const struct taskstats_exit *x)
{
	struct seen *s = arg;

	s->n++;
	s->last = *x;
}

static void test_taskstats_parse(void)
{
	static char buf[4096] __attribute__((aligned(8)));
	struct seen s = { 0 };
	size_t len = make_record(buf, 4321, 4300, 1 << 20);

	len += make_record(buf + len, 4322, 4300, 2048);
	EQ_INT(taskstats_parse(buf, len, take, &s), 2, "taskstats: two records");
	EQ_INT(s.last.tid, 4322, "taskstats: the thread");
	EQ_INT(s.last.tgid, 4300, "taskstats: its process");
	EQ_INT(s.last.cpu_us, 2000, "taskstats: utime + stime");
	EQ_INT(s.last.wchar, 2048, "taskstats: write_char");
	EQ_DBL(s.last.btime, 1796000000, 0, "taskstats: the 64-bit begin time");
	for (size_t cut = 0; cut < len; cut += 7)	/* truncated anywhere */
		taskstats_parse(buf, cut, take, &s);
	OK(1, "taskstats: truncated datagrams are skipped, no overread (ASan)");
}

/* The OOM killer's count in the memory cgroup a command runs in (issue
 * 50 item 8), on a scratch root. v1 counts a kill in the victim's own
 * group only: the group above (a kill of a process in it, not of the
 * command) is not read, where the sum over the hierarchy said 3. v2:
 * perflog run's group's memory.events (hierarchical), or the command's
 * own group's where the memory controller is on there; neither: unknown. */
static void test_oom_kills(void)
{
	char root[] = "/tmp/perflog-test-oom.XXXXXX";

	if (!mkdtemp(root)) {
		OK(0, "oom: scratch root");
		return;
	}
	fixture_put(root, "proc/self/mountinfo", hybrid_mi);
	fixture_put(root, "proc/self/cgroup", hybrid_cg);
	EQ_INT((int)cgroup_oom_kills(root, NULL), -1, "oom: no memory file: unknown");
	fixture_put(root, "sys/fs/cgroup/memory/process_api/x/memory.oom_control",
		    "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n");
	fixture_put(root, "sys/fs/cgroup/memory/process_api/memory.oom_control",
		    "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
	fixture_put(root, "sys/fs/cgroup/memory/memory.oom_control",
		    "oom_kill_disable 0\nunder_oom 0\noom_kill 4\n");
	EQ_INT((int)cgroup_oom_kills(root, NULL), 1,
	       "oom: v1, its own group's alone (the groups above count their own processes)");
	EQ_INT((int)cgroup_oom_kills(root, "/sys/fs/cgroup/unified/perflog-run.7"), 1,
	       "oom: v1, a command's v2 group without memory.events: its own v1 group");
	fixture_put(root, "sys/fs/cgroup/unified/memory.events",
		    "low 0\nhigh 0\nmax 4\noom 2\noom_kill 5\noom_group_kill 0\n");
	EQ_INT((int)cgroup_oom_kills(root, NULL), 5,
	       "oom: v2, its group's memory.events (the sum with v1 said 8)");
	fixture_put(root, "sys/fs/cgroup/unified/perflog-run.7/memory.events",
		    "low 0\nhigh 0\nmax 1\noom 1\noom_kill 3\noom_group_kill 0\n");
	EQ_INT((int)cgroup_oom_kills(root, "/sys/fs/cgroup/unified/perflog-run.7"), 3,
	       "oom: v2, the command's own group where it has memory.events");
	OK(rmtree(root) == 0, "oom: scratch root removed");
}

int main(void)
{
	test_parse();
	test_live();
	test_taskstats_parse();
	test_oom_kills();
	return done_testing();
}
