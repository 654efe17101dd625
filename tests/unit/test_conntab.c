/*
 * test_conntab.c - collector/conntab.h, the server's connections from
 * one sample to the next, on crafted dump rows and destroy records: a
 * connection seen (begin at its process's start, else first seen), one
 * followed, one gone with the kernel's record (its final bytes), one
 * gone with no record yet (held a step, stamped when first missed), one
 * that came and went between two samples (a session from the record
 * alone), a record of no served port or of a connection just ended (not
 * a new one), a socket its process let go (followed, not ended), a
 * TIME_WAIT remnant (not the connection), one first seen in the
 * listener's hands (its process taken from a later dump).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>

#include "../../collector/conntab.h"
#include "tap.h"

static struct waittcp row(unsigned sport, unsigned dport, const char *peer,
			  unsigned long inode, uint64_t in, uint64_t out)
{
	struct waittcp t;

	memset(&t, 0, sizeof(t));
	t.family = AF_INET;
	inet_pton(AF_INET, "10.0.0.1", t.src);
	inet_pton(AF_INET, peer, t.dst);
	t.sport = (uint16_t)sport;
	t.dport = (uint16_t)dport;
	t.inode = inode;
	t.state = 1;	/* established */
	t.have_info = 1;
	t.bytes_received = in;
	t.bytes_acked = out;
	return t;
}

static struct conn_seen seen(struct waittcp t, int served, pid_t root,
			     double began, const char *cmds)
{
	struct conn_seen s;

	memset(&s, 0, sizeof(s));
	s.t = t;
	s.served = served;
	s.root = root;
	s.began = began;
	strcpy(s.daemon, "sshd");
	strcpy(s.cmds, cmds);
	return s;
}

static const char *text(const struct conn *c)
{
	static char out[256];

	conntab_cmds_text(c, out, sizeof(out));
	return out;
}

/* A login whose shell's start-up (root's .bashrc running `pyenv init`:
 * 23 commands, each alive a moment) is caught by the samples of a
 * loaded host, then rsync in three samples: the commands the end
 * marker names have rsync, the most seen first (t3740's "its tree ran
 * rsync" failed once beside the other suites: the list was 128 bytes,
 * filled in the order seen, and rsync came last) */
static void login_then_rsync(struct conntab *tab, struct conntab_step *st,
			     const struct conn_port *port)
{
	static const char *const login[] = {
		"bash", "readlink", "cat", "sort", "pyenv", "rm", "mkdir",
		"chmod", "pyenv-hooks", "xargs", "tr", "stat", "sed", "head",
		"dirname", "diff", "basename", "pyenv-virtualen",
		"pyenv-versions", "pyenv-rehash", "pyenv-init",
		"pyenv-commands", "sleep",
	};
	const size_t nlogin = sizeof(login) / sizeof(login[0]);
	struct conn_seen v;
	char cmds[CONN_CMDS];
	double t = 300.0;

	conntab_free(tab);	/* the table afresh */
	tab->last = t;
	for (size_t i = 0; i < nlogin + 3; i++) {
		snprintf(cmds, sizeof(cmds), "sshd,%s",
			 i < nlogin ? login[i] : "rsync");
		v = seen(row(22, 41000, "10.0.0.8", 31, 1, 1), 1, 800, t, cmds);
		t += 1.0;
		conntab_update(tab, &v, 1, NULL, 0, port, 1, t, st);
	}
	OK(tab->n == 1 && tab->v[0].ncmds == nlogin + 2,
	   "every command of the login and rsync counted");
	const char *s = tab->n ? text(&tab->v[0]) : "";

	OK(!strncmp(s, "sshd,rsync,bash,", 16),
	   "the most seen first: sshd, rsync, then the login's in order");
	OK(strstr(s, ",rsync,") != NULL, "rsync among the commands named");
	conntab_free(tab);
}

int main(void)
{
	struct conn_port port = { 22, "sshd" };
	struct conntab tab;
	struct conntab_step st;
	struct conn_seen v[4];
	struct waittcp g[3];

	memset(&tab, 0, sizeof(tab));
	memset(&st, 0, sizeof(st));
	tab.last = 100.0;	/* the set's start */

	/* t=101: A (its sshd started at 100.6) and B (the listener's own
	 * socket: no process of its own), and an outgoing one not served */
	v[0] = seen(row(22, 40000, "10.0.0.2", 11, 1000, 100), 1, 500, 100.6, "sshd");
	v[1] = seen(row(22, 40001, "10.0.0.3", 12, 10, 10), 1, 0, 0, "rest-server");
	v[2] = seen(row(50000, 443, "10.0.0.9", 13, 5, 5), 0, 0, 0, "");
	EQ_INT(conntab_update(&tab, v, 3, NULL, 0, &port, 1, 101.0, &st), 0, "step 1");
	EQ_INT(st.nbegun, 2, "two served connections begin");
	EQ_INT(st.nended, 0, "none ends");
	EQ_DBL(tab.v[st.begun[0]].begin, 100.6, 1e-9, "A begins at its process's start");
	EQ_INT(tab.v[st.begun[0]].root, 500, "A's process");
	EQ_DBL(tab.v[st.begun[1]].begin, 101.0, 1e-9, "B (no process) begins when first seen");

	/* t=102: A grows and its tree ran rsync; B's socket is let go by
	 * its process (inode 0, LAST_ACK): followed, not ended */
	v[0] = seen(row(22, 40000, "10.0.0.2", 11, 5000, 200), 1, 500, 100.6, "sshd,rsync");
	v[1] = seen(row(22, 40001, "10.0.0.3", 0, 20, 20), 0, 0, 0, "");
	v[1].t.state = 9;
	EQ_INT(conntab_update(&tab, v, 2, NULL, 0, &port, 1, 102.0, &st), 0, "step 2");
	EQ_INT(st.nbegun + st.nended, 0, "nothing begins or ends");
	EQ_INT(tab.n, 2, "both followed");
	EQ_INT((int)tab.v[0].t.bytes_received, 5000, "A's bytes in followed");
	EQ_STR(text(&tab.v[0]), "sshd,rsync", "A's commands gathered");
	EQ_INT((int)tab.v[1].t.inode, 12, "B keeps the inode it had");

	/* D: first seen in the listener's hands (sshd between its accept
	 * and its fork: no process of its own yet), its process at the
	 * next sample: the connection takes it, and its commands */
	v[2] = seen(row(22, 40005, "10.0.0.6", 15, 1, 1), 1, 0, 0, "");
	EQ_INT(conntab_update(&tab, v, 3, NULL, 0, &port, 1, 102.5, &st), 0, "step 2b");
	EQ_INT(st.nbegun, 1, "D begins");
	EQ_INT(tab.v[st.begun[0]].root, 0, "D has no process yet");
	EQ_STR(text(&tab.v[st.begun[0]]), "", "nor commands (the listener's are not its)");
	v[2] = seen(row(22, 40005, "10.0.0.6", 15, 2, 2), 1, 700, 102.4, "sshd,cat");
	EQ_INT(conntab_update(&tab, v, 3, NULL, 0, &port, 1, 102.8, &st), 0, "step 2c");
	EQ_INT(st.nbegun + st.nended, 0, "D goes on");
	EQ_INT(tab.v[2].root, 700, "D takes its process when a dump shows it");
	EQ_STR(text(&tab.v[2]), "sshd,cat", "and its commands");
	v[2] = seen(row(22, 40005, "10.0.0.6", 15, 3, 3), 1, 0, 0, "");
	g[0] = row(22, 40005, "10.0.0.6", 0, 3, 3);
	EQ_INT(conntab_update(&tab, v, 2, g, 1, &port, 1, 102.9, &st), 0, "step 2d");
	EQ_INT(st.nended == 1 ? st.ended[0].root : -1, 700, "D ends with its process");

	/* t=103: A gone with the kernel's record (its final bytes); B gone
	 * with no record yet; C came and went between the samples (only its
	 * record saw it); a record of port 8080 (not served) */
	g[0] = row(22, 40000, "10.0.0.2", 0, 9000, 300);
	g[0].state = 7;
	g[1] = row(22, 40002, "10.0.0.4", 0, 777, 77);
	g[2] = row(8080, 40003, "10.0.0.5", 0, 1, 1);
	EQ_INT(conntab_update(&tab, NULL, 0, g, 3, &port, 1, 103.0, &st), 0, "step 3");
	EQ_INT(st.nbegun, 0, "nothing begins in the table");
	EQ_INT(st.nended, 2, "A and C end");
	const struct conn *a = NULL, *c = NULL;
	for (size_t i = 0; i < st.nended; i++) {
		if (st.ended[i].t.dport == 40000)
			a = &st.ended[i];
		if (st.ended[i].t.dport == 40002)
			c = &st.ended[i];
	}
	OK(a && a->final && a->t.bytes_received == 9000 && a->t.bytes_acked == 300,
	   "A ends with the record's final bytes");
	OK(a && a->t.inode == 11, "A keeps its inode");
	EQ_DBL(a ? a->gone : 0, 103.0, 1e-9, "A's end: when its record came");
	OK(c && c->between && c->final && c->t.bytes_received == 777,
	   "C, between two samples, gets a session from its record");
	EQ_DBL(c ? c->begin : 0, 102.9, 1e-9, "C's begin: the last sample (the earliest it can have begun)");
	EQ_STR(c ? c->daemon : "", "sshd", "C's daemon: its port's");
	EQ_INT(tab.n, 1, "B is held for its record");
	EQ_DBL(tab.v[0].gone, 103.0, 1e-9, "B stamped when first missed");

	/* t=104: no record came for B: it ends with its last figures, at
	 * the time it was first missed; a late record of A is not a new
	 * connection; a TIME_WAIT remnant of A neither */
	g[0] = row(22, 40000, "10.0.0.2", 0, 9000, 300);
	v[0] = seen(row(22, 40000, "10.0.0.2", 0, 0, 0), 1, 0, 0, "");
	v[0].t.state = 6;
	EQ_INT(conntab_update(&tab, v, 1, g, 1, &port, 1, 104.0, &st), 0, "step 4");
	EQ_INT(st.nbegun, 0, "a remnant or a late record is no new connection");
	EQ_INT(st.nended, 1, "B ends");
	OK(st.nended == 1 && !st.ended[0].final && st.ended[0].t.bytes_received == 20,
	   "B's figures: its last dump's");
	EQ_DBL(st.nended ? st.ended[0].gone : 0, 103.0, 1e-9, "B's end: when first missed");
	EQ_INT(tab.n, 0, "the table is empty");

	/* long after: the same ports again are a new connection */
	v[0] = seen(row(22, 40000, "10.0.0.2", 21, 1, 1), 1, 600, 0, "sshd");
	EQ_INT(conntab_update(&tab, v, 1, NULL, 0, &port, 1,
			      104.0 + CONNTAB_RECENT_S + 1, &st), 0, "step 5");
	EQ_INT(st.nbegun, 1, "a port pair used again later begins again");

	login_then_rsync(&tab, &st, &port);
	conntab_step_free(&st);
	conntab_free(&tab);
	return done_testing();
}
