/*
 * test_control_gone.c - a collector that is stopping is gone to the run
 * that logs through it (collector/control.h control_gone). Its control
 * socket goes first, its pid a moment later: a `perflog run` whose
 * command ended in that moment printed three errors ("sync", "unwatch",
 * "stopping the collector": does not answer) and wrote no log.ended=early
 * (t3130 on a loaded machine), where it says once that the log ends early.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../collector/control.h"
#include "../../common/util.h"
#include "tap.h"

int main(void)
{
	char dir[] = "/tmp/perflog-gone.XXXXXX", sock[PATH_MAX];
	struct collector_info c;
	FILE *f;

	if (!mkdtemp(dir)) {
		OK(0, "a scratch run directory");
		return done_testing();
	}
	memset(&c, 0, sizeof(c));
	c.pid = getpid();
	util_strlcpy(c.rundir, dir, sizeof(c.rundir));
	snprintf(sock, sizeof(sock), "%s/%ld.sock", dir, (long)c.pid);
	f = fopen(sock, "w");
	OK(f != NULL, "a socket's name in place");
	if (f)
		fclose(f);
	EQ_INT(control_gone(&c), 0, "alive, its socket there: not gone");
	unlink(sock);
	EQ_INT(control_gone(&c), 1, "alive, its socket removed: stopping, gone");
	c.pid = 0x7ffffff0;	/* no such pid */
	EQ_INT(control_gone(&c), 1, "its process gone");
	rmdir(dir);
	return done_testing();
}
