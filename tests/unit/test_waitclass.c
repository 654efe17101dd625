/*
 * test_waitclass.c - the pure half of the wait states: the wait-channel
 * table (sorted, every row documented in counters/README.md, each name
 * seen on Linux 6.18 in its class), the system-call rules, descriptor
 * kinds, descriptor sets, the state letter, and the /proc/PID/stat parser
 * they lean on (process/pidstat.c).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "../../common/util.h"
#include "../../process/pidstat.h"
#include "../../waits/waitclass.h"
#include "tap.h"

static void test_table(void)
{
	size_t n, sorted = 1, documented = 0;
	const struct wchan_rule *t = waitclass_wchan_table(&n);
	char *readme = util_read_file("counters/README.md", NULL);

	OK(n > 100, "the wchan table has its rows");
	for (size_t i = 1; i < n; i++)
		if (strcmp(t[i - 1].name, t[i].name) >= 0) {
			printf("# out of order: %s, %s\n", t[i - 1].name, t[i].name);
			sorted = 0;
		}
	OK(sorted, "the wchan table is sorted and unique (bsearch)");
	OK(readme != NULL, "counters/README.md readable");
	for (size_t i = 0; readme && i < n; i++) {
		char quoted[160];

		snprintf(quoted, sizeof(quoted), "`%s`", t[i].name);
		if (strstr(readme, quoted))
			documented++;
		else
			printf("# not in counters/README.md: %s\n", t[i].name);
	}
	EQ_INT(documented, n, "every wchan row is in counters/README.md");
	free(readme);
}

static void wchan_is(const char *w, enum wchan_verdict v, enum wait_class c,
		     const char *name)
{
	enum wait_class got = WAIT_NCLASS;
	enum wchan_verdict gv = waitclass_wchan(w, &got);

	OK(gv == v && (v != WCHAN_CLASS || got == c), name);
	if (gv != v || (v == WCHAN_CLASS && got != c))
		printf("#   '%s': verdict %d class %s\n", w, (int)gv,
		       waitclass_name(got));
}

static void test_wchan(void)
{
	/* as read on Linux 6.18 (tests/unit/test_waits_live.c) */
	wchan_is("hrtimer_nanosleep", WCHAN_CLASS, WAIT_SLEEP, "nanosleep: sleep");
	wchan_is("anon_pipe_read", WCHAN_CLASS, WAIT_OTHER, "pipe read: other");
	wchan_is("anon_pipe_write", WCHAN_CLASS, WAIT_OTHER, "pipe write: other");
	wchan_is("pipe_read", WCHAN_CLASS, WAIT_OTHER, "pipe read before 6.x");
	/* issue 29: the far end of a unix socket is a process of this host
	 * (rsync's socketpair read as network) */
	wchan_is("unix_stream_read_generic", WCHAN_CLASS, WAIT_OTHER,
		 "unix socket read: other");
	OK(waitclass_wchan_peer("unix_stream_read_generic") &&
	   waitclass_wchan_peer("sk_wait_data") &&
	   waitclass_wchan_peer("anon_pipe_read") &&
	   !waitclass_wchan_peer("futex_do_wait") &&
	   !waitclass_wchan_peer("rpc_wait_bit_killable"),
	   "socket and pipe waits are probed for their far end, not futexes or NFS");
	OK(waitclass_syscall_out(SYS_write, 0) && !waitclass_syscall_out(SYS_read, 0) &&
	   waitclass_syscall_out(SYS_splice, 2) && !waitclass_syscall_out(SYS_splice, 0) &&
	   waitclass_syscall_out(SYS_sendfile, 0) && waitclass_syscall_out(SYS_connect, 0) &&
	   !waitclass_syscall_out(SYS_recvmsg, 0),
	   "direction: write, send, connect, splice's fd_out out; reads in");
	wchan_is("inet_csk_accept", WCHAN_CLASS, WAIT_NET, "accept: net");
	wchan_is("sock_alloc_send_pskb", WCHAN_CLASS, WAIT_NET,
		 "unix send buffer full: net");
	wchan_is("__skb_wait_for_more_packets", WCHAN_CLASS, WAIT_NET,
		 "udp receive: net");
	wchan_is("sk_wait_data", WCHAN_CLASS, WAIT_NET, "tcp receive before 4.x");
	wchan_is("folio_wait_bit_common", WCHAN_CLASS, WAIT_DISK,
		 "page cache read: disk");
	wchan_is("folio_wait_bit", WCHAN_CLASS, WAIT_DISK, "writeback wait: disk");
	wchan_is("__iomap_dio_rw", WCHAN_CLASS, WAIT_DISK, "O_DIRECT: disk");
	wchan_is("submit_bio_wait", WCHAN_CLASS, WAIT_DISK, "flush: disk");
	wchan_is("jbd2_log_wait_commit", WCHAN_CLASS, WAIT_DISK,
		 "journal commit: disk");
	wchan_is("futex_do_wait", WCHAN_CLASS, WAIT_OTHER, "futex: other");
	wchan_is("futex_wait_queue_me", WCHAN_CLASS, WAIT_OTHER, "futex before 5.16");
	wchan_is("do_wait", WCHAN_CLASS, WAIT_OTHER, "waitpid: other");
	wchan_is("locks_lock_inode_wait", WCHAN_CLASS, WAIT_OTHER, "flock: other");
	wchan_is("do_sigtimedwait.isra.0", WCHAN_CLASS, WAIT_OTHER,
		 "sigtimedwait, .isra suffix ignored");
	wchan_is("wait_woken", WCHAN_PROBE, WAIT_NCLASS,
		 "wait_woken (tcp, tty): probe the call");
	wchan_is("poll_schedule_timeout.constprop.0\n", WCHAN_PROBE, WAIT_NCLASS,
		 "poll/select, suffix and newline ignored: probe");
	wchan_is("do_epoll_wait", WCHAN_PROBE, WAIT_NCLASS, "epoll: probe");
	wchan_is("do_wait_intr_irq", WCHAN_PROBE, WAIT_NCLASS,
		 "eventfd/timerfd read: probe");
	wchan_is("0", WCHAN_NONE, WAIT_NCLASS, "'0': none");
	wchan_is("0\n", WCHAN_NONE, WAIT_NCLASS, "'0\\n': none");
	wchan_is("", WCHAN_NONE, WAIT_NCLASS, "empty: none");
	wchan_is("some_future_function", WCHAN_UNKNOWN, WAIT_NCLASS, "unknown name");
	wchan_is("\xff\xfe", WCHAN_UNKNOWN, WAIT_NCLASS, "binary garbage: unknown");
	{
		char big[300];

		memset(big, 'a', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		wchan_is(big, WCHAN_UNKNOWN, WAIT_NCLASS, "a 299-byte name: unknown");
	}
	EQ_STR(waitclass_name(WAIT_NET), "net", "class names");
	EQ_STR(waitclass_name(WAIT_NCLASS), "?", "out of range name");
}

static void test_syscall(void)
{
	struct syscall_rule r;

	r = waitclass_syscall(SYS_recvmsg);
	OK(r.kind == SC_CLASS && r.cls == WAIT_NET, "recvmsg: net");
	r = waitclass_syscall(SYS_clock_nanosleep);
	OK(r.kind == SC_CLASS && r.cls == WAIT_SLEEP, "clock_nanosleep: sleep");
	r = waitclass_syscall(SYS_futex);
	OK(r.kind == SC_CLASS && r.cls == WAIT_OTHER, "futex: other");
	r = waitclass_syscall(SYS_fdatasync);
	OK(r.kind == SC_CLASS && r.cls == WAIT_DISK, "fdatasync: disk");
	r = waitclass_syscall(SYS_read);
	OK(r.kind == SC_FD && r.fd_arg[0] == 0 && r.fd_arg[1] == -1,
	   "read: by its descriptor, argument 0");
	r = waitclass_syscall(SYS_splice);
	OK(r.kind == SC_FD && r.fd_arg[0] == 0 && r.fd_arg[1] == 2,
	   "splice: descriptors 0 and 2");
	OK(waitclass_syscall(SYS_ppoll).kind == SC_POLL, "ppoll: a poll set");
	OK(waitclass_syscall(SYS_pselect6).kind == SC_SELECT, "pselect6: fd_sets");
	OK(waitclass_syscall(SYS_epoll_pwait).kind == SC_EPOLL, "epoll_pwait");
	OK(waitclass_syscall(-1).kind == SC_UNKNOWN, "-1 (no call): unknown");
	OK(waitclass_syscall(SYS_openat).kind == SC_UNKNOWN, "openat: letter");
	OK(waitclass_syscall(1000000).kind == SC_UNKNOWN, "no such number");
}

static void test_fd(void)
{
	int c[FD_NKIND];

	EQ_INT(waitclass_fd_kind("socket:[123]", 0), FD_SOCKET, "socket link");
	EQ_INT(waitclass_fd_kind("pipe:[9]", 0), FD_PIPE, "pipe link");
	EQ_INT(waitclass_fd_kind("anon_inode:[timerfd]", 0), FD_TIMER, "timerfd");
	EQ_INT(waitclass_fd_kind("anon_inode:[eventfd]", 0), FD_ANON, "eventfd");
	EQ_INT(waitclass_fd_kind("/data/x", S_IFREG), FD_FILE, "regular file");
	EQ_INT(waitclass_fd_kind("/dev/vda", S_IFBLK), FD_FILE, "block device");
	EQ_INT(waitclass_fd_kind("/srv", S_IFDIR), FD_FILE, "directory");
	EQ_INT(waitclass_fd_kind("/dev/pts/0", S_IFCHR), FD_CHAR, "tty");
	EQ_INT(waitclass_fd_kind("/tmp/fifo", S_IFIFO), FD_PIPE, "named fifo");
	EQ_INT(waitclass_fd_kind("/x (deleted)", 0), FD_UNKNOWN, "no mode: unknown");
	EQ_INT(waitclass_fd(FD_SOCKET), WAIT_NET, "socket: net");
	EQ_INT(waitclass_fd(FD_FILE), WAIT_DISK, "file: disk");
	EQ_INT(waitclass_fd(FD_TIMER), WAIT_SLEEP, "timerfd: sleep");
	EQ_INT(waitclass_fd(FD_CHAR), WAIT_OTHER, "tty: other");
	EQ_INT(waitclass_fd(FD_UNKNOWN), WAIT_NCLASS, "unknown: letter");

	memset(c, 0, sizeof(c));
	EQ_INT(waitclass_fdset(c), WAIT_SLEEP, "empty set: sleep");
	c[FD_PIPE] = 2;
	EQ_INT(waitclass_fdset(c), WAIT_OTHER, "pipes: other");
	c[FD_SOCKET] = 1;
	EQ_INT(waitclass_fdset(c), WAIT_NET, "a socket among pipes: net");
	memset(c, 0, sizeof(c));
	c[FD_TIMER] = 1;
	EQ_INT(waitclass_fdset(c), WAIT_SLEEP, "timers only: sleep");
	c[FD_UNKNOWN] = 1;
	EQ_INT(waitclass_fdset(c), WAIT_SLEEP, "timer and an unreadable fd: sleep");
	c[FD_TIMER] = 0;
	EQ_INT(waitclass_fdset(c), WAIT_NCLASS, "only unreadable fds: letter");

	/* with the direction asked for (poll events, select sets) */
	int in[FD_NKIND] = { 0 }, out[FD_NKIND] = { 0 };
	in[FD_SOCKET] = 1;
	EQ_INT(waitclass_pollset(in, out), WAIT_NET, "a socket for input alone: net (a receive)");
	in[FD_ANON] = 1;
	EQ_INT(waitclass_pollset(in, out), WAIT_NET, "a socket and an eventfd: net (an event loop)");
	in[FD_PIPE] = 1;
	EQ_INT(waitclass_pollset(in, out), WAIT_OTHER,
	       "ssh's stdin pipe and its socket, both for input: other (upstream)");
	out[FD_SOCKET] = 1;
	in[FD_SOCKET] = 0;
	EQ_INT(waitclass_pollset(in, out), WAIT_NET, "the socket for output, a pipe for input: net (a held send)");
	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	out[FD_PIPE] = 1;
	in[FD_SOCKET] = 1;
	EQ_INT(waitclass_pollset(in, out), WAIT_OTHER, "a full pipe downstream and a socket: other");
	memset(out, 0, sizeof(out));
	memset(in, 0, sizeof(in));
	EQ_INT(waitclass_pollset(in, out), WAIT_SLEEP, "an empty set: sleep");
}

static void test_letter(void)
{
	EQ_INT(waitclass_letter('R'), WAIT_RUN, "R runs");
	EQ_INT(waitclass_letter('D'), WAIT_DISK, "D: disk");
	EQ_INT(waitclass_letter('S'), WAIT_OTHER, "S: other");
	EQ_INT(waitclass_letter('T'), WAIT_OTHER, "T (stopped): other");
	EQ_INT(waitclass_letter('Z'), WAIT_NCLASS, "Z: ended");
	EQ_INT(waitclass_letter('X'), WAIT_NCLASS, "X: ended");
}

static void test_pidstat(void)
{
	struct pidstat p;
	/* field 25 (rsslim) is 2^64-1 on every real line */
	const char *full = "42 (a) b (c) D 1 42 42 0 -1 0 0 0 0 0 7 3 1 2 20 0 "
			   "4 0 12345 100 9 18446744073709551615 0 0 0 0 0 0 "
			   "0 0 0 0 0 0 0 0 0 0 77 0 0 0 0 0 0 0 0 0 0\n";

	EQ_INT(pidstat_parse(full, &p), 0, "pidstat: a full line");
	EQ_INT(p.pid, 42, "pidstat: pid");
	EQ_STR(p.comm, "a) b (c", "pidstat: comm up to the last ')'");
	EQ_INT(p.state, 'D', "pidstat: state");
	EQ_INT(p.utime + p.stime, 10, "pidstat: utime + stime");
	EQ_INT(p.num_threads, 4, "pidstat: num_threads");
	EQ_INT(p.starttime, 12345, "pidstat: starttime");
	EQ_INT(p.blkio_ticks, 77, "pidstat: delayacct_blkio_ticks");
	EQ_INT(pidstat_parse("42 (x) S 1 42 42 0 -1 0 0 0 0 0 7 3 1 2 20 0 4 0 "
			     "12345 100\n", &p), 0, "pidstat: an old short line");
	OK(p.blkio_ticks == PIDSTAT_NA, "pidstat: no field 42: unknown");
	EQ_INT(pidstat_parse("42 (x) S 1 42 42\n", &p), -1,
	       "pidstat: cut before starttime");
	EQ_INT(pidstat_parse("42 (x S 1", &p), -1, "pidstat: no ')'");
	EQ_INT(pidstat_parse("abc (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 "
			     "18 19 20", &p), -1, "pidstat: bad pid");
	EQ_INT(pidstat_parse("42 (x) S 1 2 3 4 5 6 7 8 9 1x 11 12 13 14 15 16 17 "
			     "18 19 20", &p), -1, "pidstat: bad number");
	EQ_INT(pidstat_parse("42 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 "
			     "18 99999999999999999999 20", &p), -1,
	       "pidstat: a number past 2^64");
	EQ_INT(pidstat_parse("", &p), -1, "pidstat: empty");
}

/* the io file: the one parser the Process books and the sampler share */
static void test_pidstat_io(void)
{
	struct pidstat_io io = { 1, 2, 3, 4 };

	EQ_INT((int)pidstat_parse_io("rchar: 100\nwchar: 200\nsyscr: 5\n"
				     "syscw: 6\nread_bytes: 4096\n"
				     "write_bytes: 8192\n"
				     "cancelled_write_bytes: 77\n", &io), 15,
	       "pidstat io: all four found");
	OK(io.rchar == 100 && io.wchar == 200 && io.read_bytes == 4096 &&
	   io.write_bytes == 8192,
	   "pidstat io: cancelled_write_bytes is not write_bytes");
	io = (struct pidstat_io){ 1, 2, 3, 4 };
	EQ_INT((int)pidstat_parse_io("rchar: 10\nwchar: -1\n", &io),
	       (int)PIDSTAT_IO_RCHAR, "pidstat io: a negative count refused");
	OK(io.rchar == 10 && io.wchar == 2 && io.read_bytes == 3,
	   "pidstat io: fields not found keep their values");
	EQ_INT((int)pidstat_parse_io("", &io), 0, "pidstat io: empty");
}

int main(void)
{
	test_table();
	test_wchan();
	test_syscall();
	test_fd();
	test_letter();
	test_pidstat();
	test_pidstat_io();
	return done_testing();
}
