/*
 * test_waitpeer_live.c - the far ends of real waits (issue 29): pairs of
 * children joined by a pipe, a socketpair, a loopback TCP connection,
 * and one over a veth pair into a network namespace of our own; the
 * sampler (waits.h) watches the waiting child of each pair for a few
 * seconds, and each must land in the right class with an edge naming
 * its peer:
 *
 *   pipein     read() on an empty pipe          other, in, pipe, writer
 *   pipeout    write() into a full pipe         other, out, pipe, reader
 *   unixpair   read() on a socketpair           other, in, unix, peer
 *   loopback   recv() on loopback TCP           other, in, tcp, peer
 *   veth       recv() on TCP to 169.254.X.2     net, in, net, the veth
 *              in a namespace (another host       (skipped without ip,
 *              as far as this one knows)          netns or root)
 *   child      waitpid() on a child             other, in, child, by
 *                                                the child's command
 *   link       a pipe whose two holders never   a row of 0.000 s each
 *              wait on it (a writer done at       way in the edges file
 *              once): known from the fd tables    (waitlinks.c)
 * (The rescan rule: test_waitpeer.c, on a fake /proc; the parsers:
 * test_waitpeer_parse.c.)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../waits/waitedges.h"
#include "../../waits/waitrates.h"
#include "../../waits/waits.h"
#include "../../waits/waitsampler.h"
#include "tap.h"

enum { PIPEIN, PIPEOUT, UNIXPAIR, LOOPBACK, VETH, NPAIRS };
static const char *const pair_name[NPAIRS] = {
	"pipein", "pipeout", "unixpair", "loopback", "veth",
};
static pid_t waiter[NPAIRS], peer[NPAIRS], link_w, link_r, parent;
static char ns[32], veth[16];

static void nap(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void park(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;)
		pause();
}

/* Fork a child that keeps fd keep (closing the others given) and runs
 * fn on it. */
static pid_t child(int keep, int drop1, int drop2, void (*fn)(int))
{
	pid_t p = fork();

	if (p == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (drop1 >= 0)
			close(drop1);
		if (drop2 >= 0)
			close(drop2);
		fn(keep);
		_exit(0);
	}
	return p;
}

static void do_read(int fd)
{
	char c;

	while (read(fd, &c, 1) > 0)
		;
	park();
}

static void do_recv(int fd)
{
	char c;

	while (recv(fd, &c, 1, 0) > 0)
		;
	park();
}

static void do_hold(int fd)
{
	(void)fd;
	park();
}

/* Fork a child that parks, wait for it. */
static void do_parent(int fd)
{
	pid_t c = fork();

	(void)fd;
	if (c == 0)
		park();
	waitpid(c, NULL, 0);
	park();
}

/* Fill the pipe, then block writing into it. */
static void do_write(int fd)
{
	static char buf[4096];
	int fl = fcntl(fd, F_GETFL);

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	while (write(fd, buf, sizeof(buf)) > 0)
		;
	fcntl(fd, F_SETFL, fl);
	for (;;)
		if (write(fd, buf, sizeof(buf)) < 0)
			break;
	park();
}

/* A connected TCP pair (listening on addr within the current network
 * namespace). */
static int tcp_pair(int fds[2])
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int ls = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(ls, 2) < 0 || getsockname(ls, (struct sockaddr *)&a, &len) < 0 ||
	    (fds[0] = socket(AF_INET, SOCK_STREAM, 0)) < 0 ||
	    connect(fds[0], (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    (fds[1] = accept(ls, NULL, NULL)) < 0)
		return -1;
	close(ls);
	return 0;
}

static int sh(const char *cmd)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s >/dev/null 2>&1", cmd);
	return system(buf);
}

static void cleanup_ns(void)
{
	char cmd[128];

	if (veth[0]) {
		snprintf(cmd, sizeof(cmd), "ip link del %s", veth);
		sh(cmd);
	}
	if (ns[0]) {
		snprintf(cmd, sizeof(cmd), "ip netns del %s", ns);
		sh(cmd);
	}
}

/* The veth pair: VETH (169.254.X.1) here, its peer (169.254.X.2) in the
 * namespace, where a child listens; the waiter connects to it from here.
 * -1 when the machine cannot (not root, no ip, no netns). */
static int start_veth(void)
{
	char cmd[512], path[64];
	int x = 100 + getpid() % 100, nsfd, fds[2] = { -1, -1 }, ready[2];
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(5099) };

	snprintf(ns, sizeof(ns), "plpeer%d", (int)getpid());
	snprintf(veth, sizeof(veth), "plp%d", (int)getpid() % 100000);
	snprintf(cmd, sizeof(cmd),
		 "ip netns add %s && ip link add %s type veth peer name %sb && "
		 "ip link set %sb netns %s && ip addr add 169.254.%d.1/30 dev %s && "
		 "ip link set %s up && ip -n %s addr add 169.254.%d.2/30 dev %sb && "
		 "ip -n %s link set %sb up && ip -n %s link set lo up",
		 ns, veth, veth, veth, ns, x, veth, veth, ns, x, veth, ns, veth, ns);
	if (getuid() != 0 || sh(cmd) != 0)
		return -1;
	snprintf(path, sizeof(path), "/var/run/netns/%s", ns);
	if (pipe(ready) < 0)
		return -1;
	peer[VETH] = fork();
	if (peer[VETH] == 0) {
		int ls, c;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		nsfd = open(path, O_RDONLY | O_CLOEXEC);
		a.sin_addr.s_addr = htonl(INADDR_ANY);
		if (nsfd < 0 || setns(nsfd, CLONE_NEWNET) < 0 ||
		    (ls = socket(AF_INET, SOCK_STREAM, 0)) < 0 ||
		    bind(ls, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(ls, 1) < 0)
			_exit(1);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		c = accept(ls, NULL, NULL);
		(void)c;
		park();
	}
	close(ready[1]);
	{
		char r;

		if (read(ready[0], &r, 1) != 1) {
			close(ready[0]);
			return -1;
		}
	}
	close(ready[0]);
	snprintf(cmd, sizeof(cmd), "169.254.%d.2", x);
	inet_pton(AF_INET, cmd, &a.sin_addr);
	fds[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (fds[0] < 0 || connect(fds[0], (struct sockaddr *)&a, sizeof(a)) < 0)
		return -1;
	waiter[VETH] = child(fds[0], -1, -1, do_recv);
	close(fds[0]);
	return 0;
}

/* Each pair made just before its two children: a child inherits no
 * other pair's descriptors (a stray holder would be a peer too). */
static void start_pairs(void)
{
	int p[2], ok;

	for (int k = PIPEIN; k <= LOOPBACK; k++) {
		void (*fn)(int) = k == LOOPBACK ? do_recv : k == PIPEOUT ?
			do_write : do_read;
		int w = k == PIPEOUT ? 1 : 0;	/* the waiter's end */

		ok = k <= PIPEOUT ? pipe(p) :
		     k == UNIXPAIR ? socketpair(AF_UNIX, SOCK_STREAM, 0, p) :
		     tcp_pair(p);
		if (ok < 0) {
			printf("Bail out! %s: %s\n", pair_name[k], strerror(errno));
			exit(1);
		}
		waiter[k] = child(p[w], p[!w], -1, fn);
		peer[k] = child(p[!w], p[w], -1, do_hold);
		close(p[0]);
		close(p[1]);
	}
}

static void stop_all(void)
{
	if (parent > 0)
		kill(parent, SIGKILL);	/* its child dies with it */
	if (link_w > 0)
		kill(link_w, SIGKILL);
	if (link_r > 0)
		kill(link_r, SIGKILL);
	for (int k = 0; k < NPAIRS; k++) {
		if (waiter[k] > 0)
			kill(waiter[k], SIGKILL);
		if (peer[k] > 0)
			kill(peer[k], SIGKILL);
	}
	while (wait(NULL) > 0)
		;
	cleanup_ns();
}

static const struct waits_total *total_of(const struct waits_totals *tot,
					  pid_t pid)
{
	for (size_t i = 0; i < tot->n; i++)
		if (tot->t[i].tid == pid)
			return &tot->t[i];
	return NULL;
}

/* The edge of pid with the most seconds, or NULL. */
static const struct waitpeer_edge *edge_of(const struct waits_totals *tot,
					   const struct waits_snap *s, pid_t pid,
					   double *sec)
{
	const struct waitpeer_edge *best = NULL;

	*sec = 0;
	for (size_t id = 0; id < tot->nedge && id < s->nkeys; id++)
		if (s->keys[id].pid == pid && tot->edge_sec[id] > *sec) {
			*sec = tot->edge_sec[id];
			best = &s->keys[id];
		}
	return best;
}

static void check(int k, const struct waits_totals *tot,
		  const struct waits_snap *s, enum waits_state want_state,
		  int dir, enum peer_kind kind)
{
	const struct waits_total *t = total_of(tot, waiter[k]);
	const struct waitpeer_edge *e;
	double sec, blocked, share;
	char name[160];

	blocked = t ? t->sec[WS_DISK] + t->sec[WS_NET] + t->sec[WS_OTHER] +
		t->sec[WS_SLEEP] : 0;
	share = blocked > 0 ? 100 * t->sec[want_state] / blocked : 0;
	e = edge_of(tot, s, waiter[k], &sec);
	printf("# %-9s blocked %.2f s, %.0f%% %s; edge %s %s peer %d (%s) %s -> %s %.2f s\n",
	       pair_name[k], blocked, share, waitrates_name(want_state),
	       e ? (e->dir == PEER_OUT ? "out" : "in") : "-",
	       e ? waitpeer_kind_name(e->kind) : "-", e ? (int)e->peer_pid : 0,
	       e ? e->peer_comm : "", e ? e->local : "", e ? e->remote : "", sec);
	snprintf(name, sizeof(name), "%s: %s", pair_name[k], waitrates_name(want_state));
	AT_LEAST(share, 90, 100, name);
	snprintf(name, sizeof(name), "%s: an edge, %s %s", pair_name[k],
		 dir == PEER_OUT ? "out" : "in", waitpeer_kind_name(kind));
	OK(e && e->kind == kind && e->dir == dir, name);
	if (kind == PEER_NET) {
		snprintf(name, sizeof(name), "%s: the interface toward it (%s)",
			 pair_name[k], veth);
		OK(e && !strcmp(e->peer_comm, veth) && e->peer_pid == 0, name);
	} else {
		snprintf(name, sizeof(name), "%s: the edge names the peer (%d)",
			 pair_name[k], (int)peer[k]);
		OK(e && e->peer_pid == peer[k], name);
	}
	snprintf(name, sizeof(name), "%s: the edge holds most of the wait", pair_name[k]);
	AT_LEAST(blocked > 0 ? 100 * sec / blocked : 0, 80, 100, name);
}

int main(void)
{
	struct perr e;
	struct waits *w;
	struct waitsampler *smp;
	struct waits_totals tot = { 0 };
	struct waits_values v;
	struct waits_snap a = { 0 }, b = { 0 }, t;
	pid_t pids[NPAIRS + 3];
	size_t n = 0;
	int have_veth;

	start_pairs();
	{	/* the link: both ends held, never waited on */
		int q[2];

		if (pipe(q) == 0) {
			link_w = child(q[1], q[0], -1, do_hold);
			link_r = child(q[0], q[1], -1, do_hold);
			close(q[0]);
			close(q[1]);
		}
	}
	parent = child(-1, -1, -1, do_parent);
	have_veth = start_veth() == 0;
	if (!have_veth)
		cleanup_ns();
	atexit(stop_all);
	nap(0.5);	/* every child in its wait */
	for (int k = 0; k < NPAIRS; k++)
		if (waiter[k] > 0)
			pids[n++] = waiter[k];
	pids[n++] = parent;
	pids[n++] = link_w;
	pids[n++] = link_r;
	w = waits_open("/", &e);
	smp = w ? waitsampler_start(w, &e) : NULL;
	OK(smp != NULL, "sampler started");
	if (!smp)
		return done_testing();
	waitsampler_watch_pids(smp, pids, n, &e);
	for (int i = 0; i < 100 && a.n < n; i++) {
		nap(0.05);
		waitsampler_read(smp, &a);
	}
	for (int i = 0; i < 3; i++) {
		nap(1.0);
		waitsampler_read(smp, &b);
		waitrates_compute(&a, &b, &v, &tot);
		t = a;
		a = b;
		b = t;
	}
	waitsampler_stop(smp);
	check(PIPEIN, &tot, &a, WS_OTHER, PEER_IN, PEER_PIPE);
	check(PIPEOUT, &tot, &a, WS_OTHER, PEER_OUT, PEER_PIPE);
	check(UNIXPAIR, &tot, &a, WS_OTHER, PEER_IN, PEER_UNIX);
	check(LOOPBACK, &tot, &a, WS_OTHER, PEER_IN, PEER_TCP);
	if (have_veth)
		check(VETH, &tot, &a, WS_NET, PEER_IN, PEER_NET);
	else
		printf("ok %d # skip veth: no ip, network namespace or root here\n", ++tap_n);
	{
		struct waitedge_row *rows = NULL;
		long nr = waitedges_rows(tot.edge_sec, tot.nedge, a.keys,
					 a.nkeys, &rows);
		int out = 0, in = 0;

		for (long i = 0; i < nr; i++) {
			const struct waitedge_row *r = &rows[i];

			out |= r->e.pid == link_w && r->e.dir == PEER_OUT &&
			       r->e.kind == PEER_PIPE &&
			       r->e.peer_pid == link_r && r->seconds == 0;
			in |= r->e.pid == link_r && r->e.dir == PEER_IN &&
			      r->e.kind == PEER_PIPE &&
			      r->e.peer_pid == link_w && r->seconds == 0;
		}
		double on_child = 0;
		for (long i = 0; i < nr; i++)
			if (rows[i].e.pid == parent && rows[i].e.kind == PEER_CHILD &&
			    rows[i].e.dir == PEER_IN && rows[i].e.peer_pid == 0 &&
			    !strncmp(rows[i].e.peer_comm, "test_waitpeer", 13))
				on_child += rows[i].seconds;
		printf("# child     %.2f s on its child\n", on_child);
		AT_LEAST(on_child, 2.4, 3.0, "child: the parent's wait, in, on its child by command");
		OK(out, "link: the writer's row, out to the reader, 0.000 s");
		OK(in, "link: the reader's row, in from the writer, 0.000 s");
		free(rows);
	}
	waitrates_totals_free(&tot);
	waits_snap_free(&a);
	waits_snap_free(&b);
	return done_testing();
}
