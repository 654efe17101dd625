/*
 * test_procfs_speed.c - a link's speed is read again only on a link
 * event or after PROCFS_SPEED_KEEP (sources/procfs_net.c, issue 30):
 * a fixture root's procfs set to keep it, as a live one with rtnetlink
 * is (sources/procfs_netclass.c procfs_links_changed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/rmtree.h"
#include "../../sources/procfs_int.h"
#include "procroot.h"
#include "tap.h"

static void test_speed_kept(void)
{
	char root[] = "/tmp/perflog-speed.XXXXXX", text[256];
	struct raw_snapshot s = { 0 };
	struct perr e = { "" };
	struct procfs *p;
	const char *dev = "Inter-|\n face |\n"
		"  eth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n";

	if (!mkdtemp(root)) {
		OK(0, "mkdtemp");
		return;
	}
	root_write(root, "sys/class/net/eth0/speed", "1000\n");
	root_write(root, "proc/stat", "cpu  1 2 3 4 5 6 7 8 0 0\n");
	p = procfs_open(root, &e);
	OK(p != NULL, "speed root opens");
	if (!p)
		printf("# %s\n", e.msg);
	if (!p)
		goto out;
	p->speed_keep = PROCFS_SPEED_KEEP;
	snprintf(text, sizeof(text), "%s", dev);
	OK(procfs_parse_netdev(p, text, strlen(text), &s) == 0 &&
	   s.nnets == 1 && s.nets[0].speed_bps == 1e9, "first read: 1000 Mbit");
	root_write(root, "sys/class/net/eth0/speed", "10000\n");
	/* a root without rtnetlink classifies a new interface again at the
	 * next read too (reclassify 2); a live one hears of changes */
	p->reclassify = 0;
	s.nnets = 0;
	snprintf(text, sizeof(text), "%s", dev);
	OK(procfs_parse_netdev(p, text, strlen(text), &s) == 0 &&
	   s.nnets == 1 && s.nets[0].speed_bps == 1e9,
	   "no link event: the speed read stands (not read again)");
	p->reclassify = 1;	/* what a link event does */
	s.nnets = 0;
	snprintf(text, sizeof(text), "%s", dev);
	OK(procfs_parse_netdev(p, text, strlen(text), &s) == 0 &&
	   s.nnets == 1 && s.nets[0].speed_bps == 1e10,
	   "a link event: read again, 10000 Mbit");
	root_write(root, "sys/class/net/eth0/speed", "100\n");
	p->speed_keep = 0;	/* no rtnetlink: every read */
	s.nnets = 0;
	snprintf(text, sizeof(text), "%s", dev);
	OK(procfs_parse_netdev(p, text, strlen(text), &s) == 0 &&
	   s.nnets == 1 && s.nets[0].speed_bps == 1e8,
	   "without link events: read at every sample");
	procfs_close(p);
out:
	snapshot_free(&s);
	if (rmtree(root) != 0)
		OK(0, "rm the speed root");
}

int main(void)
{
	test_speed_kept();
	return done_testing();
}
