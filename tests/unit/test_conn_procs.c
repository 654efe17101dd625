/*
 * test_conn_procs.c - collector/conn_procs.h on a scratch /proc: sshd's
 * listener, its per-connection child and privilege-separated grandchild
 * both holding the connection's socket, rsync under them, a process of
 * another name holding the same socket (not a member: never read), a
 * daemon serving a connection in its own process (rest-server); and
 * conn_host_name (conn_sessions.h) on a scratch /etc/hosts. Then the
 * kernel's records of freed sockets (waits/waittcp.h
 * waittcp_events_read) for a real loopback connection: its final bytes
 * (skipped without CAP_NET_ADMIN). The record's state is TCP_CLOSE and
 * its bytes count the peer's FIN, which takes a sequence number.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../../collector/conn_procs.h"
#include "../../collector/conn_sessions.h"
#include "../../common/rmtree.h"
#include "../../waits/waitstates.h"
#include "fixtures.h"
#include "tap.h"

static void proc(const char *root, int pid, const char *comm, int ppid,
		 const char *const *socks)
{
	char rel[64], text[256], target[64], path[512];

	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	snprintf(text, sizeof(text),
		 "%d (%s) S %d %d %d 0 -1 0 0 0 0 0 1 1 0 0 20 0 1 0 %d 1000 10\n",
		 pid, comm, ppid, pid, pid, 5000 + pid);
	fixture_put(root, rel, text);
	snprintf(path, sizeof(path), "%s/proc/%d/fd", root, pid);
	util_mkdirs(path, 0755);
	for (int i = 0; socks && socks[i]; i++) {
		snprintf(target, sizeof(target), "socket:[%s]", socks[i]);
		snprintf(path, sizeof(path), "%s/proc/%d/fd/%d", root, pid, 3 + i);
		if (symlink(target, path) < 0)
			printf("# cannot link %s\n", path);
	}
}

static void scratch(void)
{
	char root[] = "/tmp/test_conn_procsXXXXXX";
	struct conn_procs cp;
	struct perr pe;
	char cmds[128], name[64];
	unsigned char a[16];

	if (!mkdtemp(root)) {
		OK(0, "mkdtemp");
		return;
	}
	proc(root, 1, "init", 0, NULL);
	proc(root, 10, "sshd", 1, (const char *[]){ "100", NULL });
	proc(root, 20, "sshd", 10, (const char *[]){ "200", NULL });
	proc(root, 21, "sshd", 20, (const char *[]){ "200", "201", NULL });
	proc(root, 22, "rsync", 21, NULL);
	proc(root, 30, "bash", 1, (const char *[]){ "200", "400", NULL });
	proc(root, 40, "rest-server", 1, (const char *[]){ "300", "301", NULL });
	memset(&cp, 0, sizeof(cp));
	EQ_INT(conn_procs_read(root, "sshd,rest-server", &cp, &pe), 0, "read");
	EQ_INT((int)cp.n, 7, "every process");
	const struct conn_proc *p = conn_procs_find(&cp, 22);
	OK(p && p->member, "rsync under sshd is a member");
	p = conn_procs_find(&cp, 30);
	OK(p && !p->member, "bash of init is not");
	EQ_INT(conn_procs_holder(&cp, 100), 10, "the listening socket: the listener");
	EQ_INT(conn_procs_holder(&cp, 200), 20,
	       "the connection's socket: the topmost sshd holding it (its child holds it too)");
	EQ_INT(conn_procs_holder(&cp, 400), 0, "a socket only a non-member holds: none");
	EQ_INT(conn_procs_holder(&cp, 301), 40, "rest-server holds its connection itself");
	conn_procs_cmds(&cp, 20, cmds, sizeof(cmds));
	EQ_STR(cmds, "sshd,rsync", "the connection's commands, each once");
	conn_procs_free(&cp);
	memset(&cp, 0, sizeof(cp));
	OK(conn_procs_read("/nonexistent-root", "sshd", &cp, &pe) < 0 &&
	   strstr(pe.msg, "/nonexistent-root/proc"), "no /proc: an error naming it");
	conn_procs_free(&cp);

	fixture_put(root, "etc/hosts",
		    "# the clients\n127.0.0.1 localhost\n10.0.0.2\tcli-a a # first\n"
		    "10.0.0.2 cli-again\n2001:db8::7 cli-six\n");
	inet_pton(AF_INET, "10.0.0.2", a);
	OK(conn_host_name(root, AF_INET, a, name, sizeof(name)) == 0 &&
	   !strcmp(name, "cli-a"), "an address's first name in /etc/hosts");
	inet_pton(AF_INET6, "2001:db8::7", a);
	OK(conn_host_name(root, AF_INET6, a, name, sizeof(name)) == 0 &&
	   !strcmp(name, "cli-six"), "an IPv6 address's name");
	inet_pton(AF_INET, "10.0.0.3", a);
	EQ_INT(conn_host_name(root, AF_INET, a, name, sizeof(name)), -1,
	       "an address not in the file: none (no resolver asked)");
	if (rmtree(root) != 0)
		printf("# cannot remove %s\n", root);
}

/* A loopback connection of 100,000 bytes, closed: the kernel's record of
 * the receiving socket has them all. */
static void events_live(void)
{
	int ev = waittcp_events_open();
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	static char buf[100000];
	int l, c, s;

	if (ev < 0) {
		printf("ok %d # SKIP the kernel's records of freed sockets: %s\n",
		       ++tap_n, strerror(errno));
		return;
	}
	l = socket(AF_INET, SOCK_STREAM, 0);
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (bind(l, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(l, 1) < 0 ||
	    getsockname(l, (struct sockaddr *)&sa, &len) < 0 ||
	    connect(c, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    (s = accept(l, NULL, NULL)) < 0) {
		OK(0, "a loopback connection");
		return;
	}
	unsigned port = ntohs(sa.sin_port);
	size_t got = 0;
	memset(buf, 'x', sizeof(buf));
	if (write(c, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		OK(0, "write");
	while (got < sizeof(buf)) {
		ssize_t r = read(s, buf, sizeof(buf) - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(c);
	close(s);
	close(l);
	struct waittcp *rows = NULL;
	size_t n = 0, cap = 0;
	int lost = 0, found = -1;
	for (int i = 0; i < 100 && found < 0; i++) {
		struct timespec ts = { 0, 20000000 };
		nanosleep(&ts, NULL);
		waittcp_events_read(ev, &rows, &n, &cap, &lost);
		for (size_t k = 0; k < n; k++)
			if (rows[k].sport == port && rows[k].dport)
				found = (int)k;
	}
	OK(found >= 0, "the accepted socket's record came");
	if (found >= 0)
		printf("# record: state %d info %d received %llu acked %llu\n", rows[found].state,
		       rows[found].have_info, (unsigned long long)rows[found].bytes_received,
		       (unsigned long long)rows[found].bytes_acked);
	/* the peer's FIN takes a sequence number: the kernel counts it */
	OK(found >= 0 && rows[found].have_info &&
	   (rows[found].bytes_received == sizeof(buf) ||
	    rows[found].bytes_received == sizeof(buf) + 1),
	   "its final bytes received: all 100,000 (and the FIN)");
	OK(found >= 0 && rows[found].inode == 0,
	   "its inode is 0 (no file holds it): matched by its ports");
	free(rows);
	close(ev);
}

int main(void)
{
	scratch();
	events_live();
	return done_testing();
}
