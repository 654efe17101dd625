/*
 * test_waitedges.c - edges-LABEL.tsv (waits/waitedges.h), without a
 * kernel behind it: rows summed per peer, formatted, parsed back; one
 * name for each process, its last; the waits on the tree's own
 * processes left out of its split; a name with a tab or a newline, in
 * both files alike. Split from test_waitpeer.c at its seam (the file,
 * not the far ends).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../waits/waitedges.h"
#include "../../waits/waitpeer.h"
#include "../../waits/waitrates.h"
#include "tap.h"

static void test_file(void)
{
	struct waitpeer_edge keys[4];
	double sec[4] = { 1.5, 0.5, 2.5, 0 };
	struct waitedge_row *rows = NULL, *back = NULL;
	long n;
	size_t len, bad = 9;
	char buf[2048], name[64];

	memset(keys, 0, sizeof(keys));
	for (int i = 0; i < 4; i++) {
		keys[i].pid = 100;
		strcpy(keys[i].comm, "rsync");
		keys[i].kind = PEER_TCP;
		keys[i].dir = PEER_IN;
		keys[i].peer_pid = 400;
		strcpy(keys[i].peer_comm, "sshd");
		snprintf(keys[i].local, sizeof(keys[i].local), "127.0.0.1:%d", 40000 + i);
		strcpy(keys[i].remote, "127.0.0.1:22");
	}
	strcpy(keys[0].peer_comm, "sh");	/* before it exec'ed sshd */
	keys[2].kind = PEER_NET;
	keys[2].peer_pid = 0;
	strcpy(keys[2].peer_comm, "eth0");
	strcpy(keys[2].remote, "[2001:db8::9]:22");
	n = waitedges_rows(sec, 4, keys, 4, &rows);
	EQ_INT((int)n, 2, "rows: two sockets to one peer summed, the net one apart");
	OK(n == 2 && rows[0].e.kind == PEER_NET && rows[0].seconds == 2.5,
	   "... the busiest first");
	OK(n == 2 && rows[1].seconds == 2.0 && !strcmp(rows[1].e.local, "127.0.0.1:40000"),
	   "... 1.5 + 0.5 s, shown with the busier socket's addresses");
	OK(n == 2 && !strcmp(rows[1].e.peer_comm, "sshd"),
	   "... the peer by its pid, named as last seen (sh exec'ed sshd)");
	len = waitedges_format(rows, (size_t)n, buf, sizeof(buf));
	OK(len < sizeof(buf) &&
	   !strncmp(buf, "pid\tcomm\tdir\tkind\tpeer_pid\tpeer_comm\tlocal\tremote\tseconds\tbytes\n", 63),
	   "the file's header");
	OK(strstr(buf, "\n100\trsync\tin\ttcp\t400\tsshd\t127.0.0.1:40000\t127.0.0.1:22\t2.000\t-\n") != NULL,
	   "a tcp row");
	OK(strstr(buf, "\n100\trsync\tin\tnet\t0\teth0\t127.0.0.1:40002\t[2001:db8::9]:22\t2.500\t-\n") != NULL,
	   "a net row: the interface as peer_comm");
	snprintf(buf + len, sizeof(buf) - len,
		 "1\tx\tsideways\tpipe\t0\t-\t-\t-\t1.000\t0\n"
		 "2\tcat\tout\tpipe\t0\t-\t-\t-\t0.250\t0");
	EQ_INT((int)waitedges_parse(buf, strlen(buf), &back, &bad, NULL), 3,
	       "parsed back, an unended last line too");
	EQ_INT((int)bad, 1, "... a bad direction counted");
	OK(back && back[2].e.pid == 2 && back[2].e.kind == PEER_PIPE &&
	   back[2].e.dir == PEER_OUT && back[2].e.peer_comm[0] == '\0' &&
	   back[2].seconds == 0.25, "... '-' read as unknown");
	OK(back && isnan(back[0].bytes) && isnan(back[2].bytes),
	   "... bytes: '-' and the first files' 0 read as not measured");
	free(back);
	snprintf(buf, sizeof(buf), "%s", "pid\tcomm\tdir\tkind\tpeer_pid\tpeer_comm\tlocal\tremote\tseconds\tbytes\n"
		 "3\tcat\tout\tpipe\t4\tgzip\t-\t-\t0.500\t4096\n"
		 "3\tcat\tout\tpipe\t5\tgzip\t-\t-\t0.500\t4k\n");
	EQ_INT((int)waitedges_parse(buf, strlen(buf), &back, &bad, NULL), 1,
	       "bytes: a count read back, a word refused");
	OK(back && back[0].bytes == 4096, "... 4096");
	len = waitedges_format(back, 1, buf, sizeof(buf));
	OK(strstr(buf, "\t0.500\t4096\n") != NULL, "... and written again");
	free(back);
	EQ_INT((int)waitedges_parse("tid\tx\n", 6, &back, NULL, NULL), -1, "not our header: refused");
	EQ_INT(waitedges_name("waits-rs-2.tsv", name, sizeof(name)), 0, "the file's name");
	EQ_STR(name, "edges-rs-2.tsv", "... from the waits file's");
	EQ_INT(waitedges_name("figures-rs.tsv", name, sizeof(name)), -1, "... only from a waits file");
	/* the interfaces the rows went through (issue 29: a session's
	 * network chart draws only them): the net row's, lo for the tcp */
	EQ_INT((int)waitedges_ifaces(rows, (size_t)n, name, sizeof(name)), 2,
	       "interfaces: two");
	EQ_STR(name, "eth0,lo", "... the net row's, and lo for a local tcp peer");
	rows[1].e.kind = PEER_UNIX;
	EQ_INT((int)waitedges_ifaces(rows, (size_t)n, name, sizeof(name)), 1,
	       "interfaces: an AF_UNIX socket goes through none");
	rows[0].e.kind = PEER_PIPE;
	EQ_INT((int)waitedges_ifaces(rows, (size_t)n, name, sizeof(name)), 0,
	       "interfaces: none for pipes and local sockets (a local repository)");
	EQ_STR(name, "", "... an empty list");
	OK(!waitedges_iface("net", "-") && !waitedges_iface("net", "a,b"),
	   "interfaces: a net row whose interface was not found names none");
	free(rows);
	free(back);
}

/* A process renamed by its exec (waits_renamed adds its edges again
 * under the new name): one name for each process in every row, the
 * last it was seen under, though a row's own ids are all older. */
static void test_last_name(void)
{
	struct waitpeer_edge keys[3];
	double sec[3] = { 0.7, 0.4, 0 };
	struct waitedge_row *rows = NULL;
	long n;

	memset(keys, 0, sizeof(keys));
	keys[0].pid = 10;	/* head, seen before its exec */
	strcpy(keys[0].comm, "sh");
	keys[0].dir = PEER_OUT;
	keys[0].kind = PEER_PIPE;
	keys[0].peer_pid = 11;
	strcpy(keys[0].peer_comm, "gzip");
	keys[1] = keys[0];	/* its wait on 12, then named sh too */
	keys[1].peer_pid = 12;
	strcpy(keys[1].peer_comm, "sh");
	keys[2] = keys[1];	/* renamed: both exec'ed */
	strcpy(keys[2].comm, "head");
	strcpy(keys[2].peer_comm, "python3");
	n = waitedges_rows(sec, 3, keys, 3, &rows);
	EQ_INT((int)n, 2, "names: two rows");
	OK(n == 2 && !strcmp(rows[0].e.comm, "head") &&
	   !strcmp(rows[1].e.comm, "head"),
	   "... the waiter by its last name in both (the first row's ids "
	   "all named it sh)");
	OK(n == 2 && rows[1].e.peer_pid == 12 &&
	   !strcmp(rows[1].e.peer_comm, "python3"),
	   "... its peer too");
	OK(n == 2 && !strcmp(rows[0].e.peer_comm, "gzip"), "... gzip kept");
	free(rows);
}

/* a shell's loop of gzips, and rsync's sender on its receiver: the waits
 * on the tree's own processes leave its split */
static void test_leave_out(void)
{
	struct waits_total th[4] = {
		{ .tid = 10, .pid = 10, .comm = "sh", .alive = 6.0,
		  .sec = { [WS_CPU] = 0.05, [WS_OTHER] = 5.95 } },
		{ .tid = 11, .pid = 11, .comm = "gzip", .alive = 1.0,
		  .sec = { [WS_CPU] = 1.0 } },
		{ .tid = 20, .pid = 20, .comm = "rsync", .alive = 4.0,
		  .sec = { [WS_CPU] = 1.0, [WS_OTHER] = 3.0 } },
		{ .tid = 21, .pid = 21, .comm = "rsync", .alive = 4.0,
		  .sec = { [WS_DISK] = 3.0, [WS_OTHER] = 1.0 } },
	};
	struct waits_totals tot = { .t = th, .n = 4, .cap = 4 };
	struct waitedge_row rows[3];

	memset(rows, 0, sizeof(rows));
	rows[0].e.pid = 10;
	rows[0].e.kind = PEER_CHILD;
	strcpy(rows[0].e.peer_comm, "gzip");
	rows[0].seconds = 5.9;
	rows[1].e.pid = 20;
	rows[1].e.kind = PEER_UNIX;
	rows[1].e.peer_pid = 21;
	rows[1].seconds = 2.5;
	rows[2].e.pid = 21;
	rows[2].e.kind = PEER_PIPE;
	rows[2].e.peer_pid = 999;	/* not of the tree: its own wait */
	rows[2].seconds = 1.0;
	waitedges_leave_out(&tot, rows, 3);
	OK(fabs(th[0].sec[WS_OTHER] - 0.05) < 1e-9 && fabs(th[0].alive - 0.1) < 1e-9,
	   "leave out: the shell's wait on its children taken from other and alive");
	OK(fabs(th[2].sec[WS_OTHER] - 0.5) < 1e-9 && fabs(th[2].alive - 1.5) < 1e-9,
	   "leave out: the sender's wait on the receiver (a process of the tree)");
	OK(th[3].sec[WS_OTHER] == 1.0 && th[3].alive == 4.0,
	   "leave out: a wait on a process outside the tree stays");
	OK(th[1].alive == 1.0, "leave out: the gzip untouched");
}

/* issue 50 item 5: a command named with a tab or a newline (a process's
 * comm can hold them) added a field to edges-LABEL.tsv, whose row the
 * report then dropped, and the waits file named it s?h: both files write
 * a name as waitrates_comm does, and read it back as one row. */
static void test_names(void)
{
	struct waitedge_row row, *back = NULL;
	struct waits_total th;
	struct waits_totals tot;
	char buf[1024], name[16];
	size_t bad = 99;
	long n;

	memset(&row, 0, sizeof(row));
	row.e.pid = 10;
	row.e.kind = PEER_PIPE;
	row.e.dir = PEER_IN;
	row.e.peer_pid = 11;
	strcpy(row.e.comm, "s\th");
	strcpy(row.e.peer_comm, "he\nad\x01");
	row.seconds = 1.5;
	row.bytes = NAN;
	waitrates_comm(name, "s\th");
	EQ_STR(name, "s?h", "names: a tab as '?'");
	waitrates_comm(name, "0123456789abcdefgh");
	EQ_STR(name, "0123456789abcde", "names: cut at 15 bytes");
	waitedges_format(&row, 1, buf, sizeof(buf));
	n = waitedges_parse(buf, strlen(buf), &back, &bad, NULL);
	EQ_INT((int)n, 1, "names: the edges row with a tab and a newline reads back");
	EQ_INT((int)bad, 0, "names: no row dropped");
	if (n == 1) {
		EQ_STR(back[0].e.comm, "s?h", "names: edges comm as the waits file writes it");
		EQ_STR(back[0].e.peer_comm, "he?ad?", "names: edges peer_comm too");
		EQ_DBL(back[0].seconds, 1.5, 0, "names: the row's seconds are its own");
	}
	free(back);
	{	/* the row as a perflog before the fix wrote it: the tab a
		 * field of its own; the reader says which line it skipped */
		size_t first = 99;

		snprintf(buf, sizeof(buf), "%s",
			 "pid\tcomm\tdir\tkind\tpeer_pid\tpeer_comm\tlocal\tremote\tseconds\tbytes\n"
			 "3\tcat\tout\tpipe\t4\tgzip\t-\t-\t0.500\t-\n"
			 "10\ts\th\tin\tpipe\t11\the?ad\t-\t-\t1.500\t-\n"
			 "3\tcat\tin\tpipe\t10\ts\th\t-\t-\t0.250\t-\n");
		n = waitedges_parse(buf, strlen(buf), &back, &bad, &first);
		EQ_INT((int)n, 1, "names: an old file's rows with a raw tab are skipped");
		EQ_INT((int)bad, 2, "... two lines");
		EQ_INT((int)first, 3, "... the first of them line 3");
		free(back);
		n = waitedges_parse(buf, 98, &back, &bad, &first);
		EQ_INT((int)(n * 10 + (long)first), 10, "... none skipped: line 0");
		free(back);
	}
	memset(&th, 0, sizeof(th));
	memset(&tot, 0, sizeof(tot));
	th.tid = th.pid = 10;
	th.alive = 1;
	th.sec[WS_OTHER] = 1;
	strcpy(th.comm, "s\th");
	tot.t = &th;
	tot.n = 1;
	waitrates_format(&tot, buf, sizeof(buf));
	OK(strstr(buf, "\n10\ts?h\t") != NULL, "names: the waits file's comm is the same");
}


int main(void)
{
	test_file();
	test_last_name();
	test_leave_out();
	test_names();
	return done_testing();
}
