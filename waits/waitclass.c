/*
 * waitclass.c - the classification tables (waitclass.h).
 *
 * The wait-channel names were read on Linux 6.18 (`cat /proc/TID/wchan`
 * of a test process in each state; tests/unit/test_waits_live.c repeats
 * the experiment) and completed from the kernel sources for the names
 * older kernels print (pipe_read before anon_pipe_read, futex_wait_queue_me
 * before futex_wait_queue before futex_do_wait, wait_on_page_bit before
 * the folio functions, sk_wait_data before sockets moved to wait_woken).
 * Functions the kernel marks __sched (schedule, io_schedule_timeout,
 * mutex_lock, wait_for_completion, schedule_hrtimeout ...) never show:
 * wchan skips them and names their caller. A name missing here is not an
 * error: the system call decides, then the state letter.
 */
#define _GNU_SOURCE
#include "waitclass.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

static const char *const class_names[WAIT_NCLASS] = {
	[WAIT_RUN] = "run", [WAIT_DISK] = "disk", [WAIT_NET] = "net",
	[WAIT_OTHER] = "other", [WAIT_SLEEP] = "sleep",
};

const char *waitclass_name(enum wait_class c)
{
	return (int)c >= 0 && c < WAIT_NCLASS ? class_names[c] : "?";
}

/* Sorted by strcmp (bsearch); counters/README.md lists the same rows and
 * test_waitclass.c checks both the order and the README. */
static const struct wchan_rule wchan_table[] = {
	{ "__blkdev_direct_IO", WCHAN_CLASS, WAIT_DISK },
	{ "__blkdev_direct_IO_simple", WCHAN_CLASS, WAIT_DISK },
	{ "__blockdev_direct_IO", WCHAN_CLASS, WAIT_DISK },
	{ "__break_lease", WCHAN_CLASS, WAIT_OTHER },
	{ "__do_sys_pause", WCHAN_CLASS, WAIT_OTHER },
	{ "__do_sys_rt_sigsuspend", WCHAN_CLASS, WAIT_OTHER },
	{ "__filemap_fdatawait_range", WCHAN_CLASS, WAIT_DISK },
	{ "__folio_lock", WCHAN_CLASS, WAIT_DISK },
	{ "__folio_lock_killable", WCHAN_CLASS, WAIT_DISK },
	{ "__folio_lock_or_retry", WCHAN_CLASS, WAIT_DISK },
	{ "__futex_wait", WCHAN_CLASS, WAIT_OTHER },
	{ "__iomap_dio_rw", WCHAN_CLASS, WAIT_DISK },
	{ "__jbd2_log_wait_for_space", WCHAN_CLASS, WAIT_DISK },
	{ "__lock_page", WCHAN_CLASS, WAIT_DISK },
	{ "__lock_page_killable", WCHAN_CLASS, WAIT_DISK },
	{ "__lock_page_or_retry", WCHAN_CLASS, WAIT_DISK },
	{ "__rpc_wait_for_completion_task", WCHAN_CLASS, WAIT_NET },
	{ "__skb_recv_datagram", WCHAN_CLASS, WAIT_NET },
	{ "__skb_wait_for_more_packets", WCHAN_CLASS, WAIT_NET },
	{ "__sync_dirty_buffer", WCHAN_CLASS, WAIT_DISK },
	{ "__wait_on_buffer", WCHAN_CLASS, WAIT_DISK },
	{ "__x64_sys_clock_nanosleep", WCHAN_CLASS, WAIT_SLEEP },
	{ "__x64_sys_nanosleep", WCHAN_CLASS, WAIT_SLEEP },
	{ "add_transaction_credits", WCHAN_CLASS, WAIT_DISK },
	{ "alarm_timer_nsleep", WCHAN_CLASS, WAIT_SLEEP },
	{ "anon_pipe_read", WCHAN_CLASS, WAIT_OTHER },
	{ "anon_pipe_write", WCHAN_CLASS, WAIT_OTHER },
	{ "balance_dirty_pages", WCHAN_CLASS, WAIT_DISK },
	{ "balance_dirty_pages_ratelimited", WCHAN_CLASS, WAIT_DISK },
	{ "balance_dirty_pages_ratelimited_flags", WCHAN_CLASS, WAIT_DISK },
	{ "bit_wait_io", WCHAN_CLASS, WAIT_DISK },
	{ "bit_wait_io_timeout", WCHAN_CLASS, WAIT_DISK },
	{ "blk_execute_rq", WCHAN_CLASS, WAIT_DISK },
	{ "blk_mq_freeze_queue_wait", WCHAN_CLASS, WAIT_DISK },
	{ "blk_mq_get_tag", WCHAN_CLASS, WAIT_DISK },
	{ "btrfs_start_ordered_extent", WCHAN_CLASS, WAIT_DISK },
	{ "btrfs_wait_ordered_range", WCHAN_CLASS, WAIT_DISK },
	{ "clock_nanosleep", WCHAN_CLASS, WAIT_SLEEP },
	{ "common_nsleep", WCHAN_CLASS, WAIT_SLEEP },
	{ "common_nsleep_timens", WCHAN_CLASS, WAIT_SLEEP },
	{ "core_sys_select", WCHAN_PROBE, WAIT_NCLASS },
	{ "dio_await_one", WCHAN_CLASS, WAIT_DISK },
	{ "do_blockdev_direct_IO", WCHAN_CLASS, WAIT_DISK },
	{ "do_cpu_nanosleep", WCHAN_CLASS, WAIT_SLEEP },
	{ "do_epoll_wait", WCHAN_PROBE, WAIT_NCLASS },
	{ "do_io_getevents", WCHAN_CLASS, WAIT_DISK },
	{ "do_lock_file_wait", WCHAN_CLASS, WAIT_OTHER },
	{ "do_msgrcv", WCHAN_CLASS, WAIT_OTHER },
	{ "do_msgsnd", WCHAN_CLASS, WAIT_OTHER },
	{ "do_nanosleep", WCHAN_CLASS, WAIT_SLEEP },
	{ "do_poll", WCHAN_PROBE, WAIT_NCLASS },
	{ "do_select", WCHAN_PROBE, WAIT_NCLASS },
	{ "do_semtimedop", WCHAN_CLASS, WAIT_OTHER },
	{ "do_sigtimedwait", WCHAN_CLASS, WAIT_OTHER },
	{ "do_sys_poll", WCHAN_PROBE, WAIT_NCLASS },
	{ "do_wait", WCHAN_CLASS, WAIT_OTHER },
	{ "do_wait_intr", WCHAN_PROBE, WAIT_NCLASS },
	{ "do_wait_intr_irq", WCHAN_PROBE, WAIT_NCLASS },
	{ "ep_poll", WCHAN_PROBE, WAIT_NCLASS },
	{ "fcntl_setlk", WCHAN_CLASS, WAIT_OTHER },
	{ "fifo_open", WCHAN_CLASS, WAIT_OTHER },
	{ "file_write_and_wait_range", WCHAN_CLASS, WAIT_DISK },
	{ "filemap_fdatawait_keep_errors", WCHAN_CLASS, WAIT_DISK },
	{ "filemap_fdatawait_range", WCHAN_CLASS, WAIT_DISK },
	{ "filemap_write_and_wait_range", WCHAN_CLASS, WAIT_DISK },
	{ "flock_lock_inode_wait", WCHAN_CLASS, WAIT_OTHER },
	{ "folio_put_wait_locked", WCHAN_CLASS, WAIT_DISK },
	{ "folio_wait_bit", WCHAN_CLASS, WAIT_DISK },
	{ "folio_wait_bit_common", WCHAN_CLASS, WAIT_DISK },
	{ "folio_wait_bit_killable", WCHAN_CLASS, WAIT_DISK },
	{ "folio_wait_stable", WCHAN_CLASS, WAIT_DISK },
	{ "folio_wait_writeback", WCHAN_CLASS, WAIT_DISK },
	{ "fsync_buffers_list", WCHAN_CLASS, WAIT_DISK },
	{ "futex_do_wait", WCHAN_CLASS, WAIT_OTHER },
	{ "futex_lock_pi", WCHAN_CLASS, WAIT_OTHER },
	{ "futex_wait", WCHAN_CLASS, WAIT_OTHER },
	{ "futex_wait_multiple", WCHAN_CLASS, WAIT_OTHER },
	{ "futex_wait_queue", WCHAN_CLASS, WAIT_OTHER },
	{ "futex_wait_queue_me", WCHAN_CLASS, WAIT_OTHER },
	{ "futex_wait_requeue_pi", WCHAN_CLASS, WAIT_OTHER },
	{ "hrtimer_nanosleep", WCHAN_CLASS, WAIT_SLEEP },
	{ "inet_csk_accept", WCHAN_CLASS, WAIT_NET },
	{ "inet_csk_wait_for_connect", WCHAN_CLASS, WAIT_NET },
	{ "inet_wait_for_connect", WCHAN_CLASS, WAIT_NET },
	{ "io_cqring_wait", WCHAN_CLASS, WAIT_OTHER },
	{ "io_schedule", WCHAN_CLASS, WAIT_DISK },
	{ "io_schedule_timeout", WCHAN_CLASS, WAIT_DISK },
	{ "iomap_dio_rw", WCHAN_CLASS, WAIT_DISK },
	{ "jbd2_journal_commit_transaction", WCHAN_CLASS, WAIT_DISK },
	{ "jbd2_journal_lock_updates", WCHAN_CLASS, WAIT_DISK },
	{ "jbd2_journal_wait_updates", WCHAN_CLASS, WAIT_DISK },
	{ "jbd2_log_wait_commit", WCHAN_CLASS, WAIT_DISK },
	{ "kernel_wait4", WCHAN_CLASS, WAIT_OTHER },
	{ "locks_lock_inode_wait", WCHAN_CLASS, WAIT_OTHER },
	{ "nfs_wait_bit_killable", WCHAN_CLASS, WAIT_NET },
	{ "percpu_rwsem_wait", WCHAN_CLASS, WAIT_OTHER },
	{ "pipe_read", WCHAN_CLASS, WAIT_OTHER },
	{ "pipe_wait", WCHAN_CLASS, WAIT_OTHER },
	{ "pipe_wait_readable", WCHAN_CLASS, WAIT_OTHER },
	{ "pipe_wait_writable", WCHAN_CLASS, WAIT_OTHER },
	{ "pipe_write", WCHAN_CLASS, WAIT_OTHER },
	{ "poll_schedule_timeout", WCHAN_PROBE, WAIT_NCLASS },
	{ "posix_cpu_nsleep", WCHAN_CLASS, WAIT_SLEEP },
	{ "posix_lock_inode_wait", WCHAN_CLASS, WAIT_OTHER },
	{ "put_and_wait_on_page_locked", WCHAN_CLASS, WAIT_DISK },
	{ "read_events", WCHAN_CLASS, WAIT_DISK },
	{ "rpc_wait_bit_killable", WCHAN_CLASS, WAIT_NET },
	{ "rwsem_down_read_slowpath", WCHAN_CLASS, WAIT_OTHER },
	{ "rwsem_down_write_slowpath", WCHAN_CLASS, WAIT_OTHER },
	{ "schedule_timeout", WCHAN_PROBE, WAIT_NCLASS },
	{ "sctp_skb_recv_datagram", WCHAN_CLASS, WAIT_NET },
	{ "sctp_wait_for_accept", WCHAN_CLASS, WAIT_NET },
	{ "sctp_wait_for_connect", WCHAN_CLASS, WAIT_NET },
	{ "sctp_wait_for_sndbuf", WCHAN_CLASS, WAIT_NET },
	{ "sigsuspend", WCHAN_CLASS, WAIT_OTHER },
	{ "sk_stream_wait_close", WCHAN_CLASS, WAIT_NET },
	{ "sk_stream_wait_connect", WCHAN_CLASS, WAIT_NET },
	{ "sk_stream_wait_memory", WCHAN_CLASS, WAIT_NET },
	{ "sk_wait_data", WCHAN_CLASS, WAIT_NET },
	{ "skb_recv_datagram", WCHAN_CLASS, WAIT_NET },
	{ "sock_alloc_send_pskb", WCHAN_CLASS, WAIT_NET },
	{ "sock_wait_for_wmem", WCHAN_CLASS, WAIT_NET },
	{ "start_this_handle", WCHAN_CLASS, WAIT_DISK },
	{ "submit_bio_wait", WCHAN_CLASS, WAIT_DISK },
	{ "sync_dirty_buffer", WCHAN_CLASS, WAIT_DISK },
	{ "sys_pause", WCHAN_CLASS, WAIT_OTHER },
	{ "unix_dgram_recvmsg", WCHAN_CLASS, WAIT_OTHER },
	{ "unix_stream_data_wait", WCHAN_CLASS, WAIT_OTHER },
	{ "unix_stream_read_generic", WCHAN_CLASS, WAIT_OTHER },
	{ "unix_wait_for_peer", WCHAN_CLASS, WAIT_OTHER },
	{ "wait_current_trans", WCHAN_CLASS, WAIT_DISK },
	{ "wait_for_partner", WCHAN_CLASS, WAIT_OTHER },
	{ "wait_for_vfork_done", WCHAN_CLASS, WAIT_OTHER },
	{ "wait_on_page_bit", WCHAN_CLASS, WAIT_DISK },
	{ "wait_on_page_bit_common", WCHAN_CLASS, WAIT_DISK },
	{ "wait_on_page_bit_killable", WCHAN_CLASS, WAIT_DISK },
	{ "wait_on_page_writeback", WCHAN_CLASS, WAIT_DISK },
	{ "wait_transaction_locked", WCHAN_CLASS, WAIT_DISK },
	{ "wait_transaction_switching", WCHAN_CLASS, WAIT_DISK },
	{ "wait_woken", WCHAN_PROBE, WAIT_NCLASS },
	{ "wq_sleep", WCHAN_CLASS, WAIT_OTHER },
	{ "xfs_buf_iowait", WCHAN_CLASS, WAIT_DISK },
	{ "xfs_log_force_seq", WCHAN_CLASS, WAIT_DISK },
	{ "xlog_wait", WCHAN_CLASS, WAIT_DISK },
	{ "xlog_wait_on_iclog", WCHAN_CLASS, WAIT_DISK },
};

#define NTABLE (sizeof(wchan_table) / sizeof(wchan_table[0]))

const struct wchan_rule *waitclass_wchan_table(size_t *n)
{
	*n = NTABLE;
	return wchan_table;
}

static int rule_cmp(const void *key, const void *row)
{
	return strcmp(key, ((const struct wchan_rule *)row)->name);
}

enum wchan_verdict waitclass_wchan(const char *wchan, enum wait_class *out)
{
	char name[128];
	size_t len = strcspn(wchan, ".\n");
	const struct wchan_rule *r;

	if (len == 0 || (len == 1 && wchan[0] == '0'))
		return WCHAN_NONE;
	if (len >= sizeof(name))
		return WCHAN_UNKNOWN;
	memcpy(name, wchan, len);
	name[len] = '\0';
	r = bsearch(name, wchan_table, NTABLE, sizeof(wchan_table[0]),
		    rule_cmp);
	if (!r)
		return WCHAN_UNKNOWN;
	if (r->verdict == WCHAN_CLASS)
		*out = r->cls;
	return r->verdict;
}

/* The system call table. Numbers come from <sys/syscall.h>, so calls an
 * architecture lacks (poll, select on arm64) simply have no row. */
struct syscall_row {
	long nr;
	struct syscall_rule rule;
};

#define CLS(c) { SC_CLASS, (c), { -1, -1 } }
#define FD1(a) { SC_FD, WAIT_NCLASS, { (a), -1 } }
#define FD2(a, b) { SC_FD, WAIT_NCLASS, { (a), (b) } }
#define KIND(k) { (k), WAIT_NCLASS, { -1, -1 } }

static const struct syscall_row syscall_table[] = {
	/* always a socket */
#ifdef SYS_recvfrom
	{ SYS_recvfrom, CLS(WAIT_NET) },
#endif
	{ SYS_recvmsg, CLS(WAIT_NET) },
	{ SYS_recvmmsg, CLS(WAIT_NET) },
#ifdef SYS_sendto
	{ SYS_sendto, CLS(WAIT_NET) },
#endif
	{ SYS_sendmsg, CLS(WAIT_NET) },
	{ SYS_sendmmsg, CLS(WAIT_NET) },
#ifdef SYS_accept
	{ SYS_accept, CLS(WAIT_NET) },
#endif
	{ SYS_accept4, CLS(WAIT_NET) },
	{ SYS_connect, CLS(WAIT_NET) },
	/* a sleep asked for */
#ifdef SYS_nanosleep
	{ SYS_nanosleep, CLS(WAIT_SLEEP) },
#endif
	{ SYS_clock_nanosleep, CLS(WAIT_SLEEP) },
	/* locks, children, signals, IPC */
	{ SYS_futex, CLS(WAIT_OTHER) },
#ifdef SYS_futex_waitv
	{ SYS_futex_waitv, CLS(WAIT_OTHER) },
#endif
	{ SYS_wait4, CLS(WAIT_OTHER) },
	{ SYS_waitid, CLS(WAIT_OTHER) },
	{ SYS_rt_sigsuspend, CLS(WAIT_OTHER) },
	{ SYS_rt_sigtimedwait, CLS(WAIT_OTHER) },
#ifdef SYS_pause
	{ SYS_pause, CLS(WAIT_OTHER) },
#endif
	{ SYS_flock, CLS(WAIT_OTHER) },
	{ SYS_fcntl, CLS(WAIT_OTHER) },	/* blocks only in F_SETLKW */
	{ SYS_msgrcv, CLS(WAIT_OTHER) },
	{ SYS_msgsnd, CLS(WAIT_OTHER) },
#ifdef SYS_semop
	{ SYS_semop, CLS(WAIT_OTHER) },
#endif
	{ SYS_semtimedop, CLS(WAIT_OTHER) },
	{ SYS_mq_timedreceive, CLS(WAIT_OTHER) },
	{ SYS_mq_timedsend, CLS(WAIT_OTHER) },
#ifdef SYS_io_uring_enter
	{ SYS_io_uring_enter, CLS(WAIT_OTHER) },
#endif
#ifdef SYS_vfork
	{ SYS_vfork, CLS(WAIT_OTHER) },
#endif
	{ SYS_clone, CLS(WAIT_OTHER) },
	/* writing back, Linux AIO completions */
	{ SYS_fsync, CLS(WAIT_DISK) },
	{ SYS_fdatasync, CLS(WAIT_DISK) },
	{ SYS_sync, CLS(WAIT_DISK) },
	{ SYS_syncfs, CLS(WAIT_DISK) },
	{ SYS_sync_file_range, CLS(WAIT_DISK) },
	{ SYS_io_getevents, CLS(WAIT_DISK) },
#ifdef SYS_io_pgetevents
	{ SYS_io_pgetevents, CLS(WAIT_DISK) },
#endif
	/* by the descriptor */
	{ SYS_read, FD1(0) },
	{ SYS_write, FD1(0) },
	{ SYS_pread64, FD1(0) },
	{ SYS_pwrite64, FD1(0) },
	{ SYS_readv, FD1(0) },
	{ SYS_writev, FD1(0) },
	{ SYS_preadv, FD1(0) },
	{ SYS_pwritev, FD1(0) },
	{ SYS_preadv2, FD1(0) },
	{ SYS_pwritev2, FD1(0) },
	{ SYS_sendfile, FD2(0, 1) },
	{ SYS_splice, FD2(0, 2) },
	{ SYS_tee, FD2(0, 1) },
	{ SYS_copy_file_range, FD2(0, 2) },
	{ SYS_fallocate, FD1(0) },
	{ SYS_ftruncate, FD1(0) },
	{ SYS_getdents64, FD1(0) },
	{ SYS_ioctl, FD1(0) },
	{ SYS_close, FD1(0) },
	/* waits on sets of descriptors */
#ifdef SYS_poll
	{ SYS_poll, KIND(SC_POLL) },
#endif
	{ SYS_ppoll, KIND(SC_POLL) },
#ifdef SYS_select
	{ SYS_select, KIND(SC_SELECT) },
#endif
	{ SYS_pselect6, KIND(SC_SELECT) },
#ifdef SYS_epoll_wait
	{ SYS_epoll_wait, KIND(SC_EPOLL) },
#endif
	{ SYS_epoll_pwait, KIND(SC_EPOLL) },
#ifdef SYS_epoll_pwait2
	{ SYS_epoll_pwait2, KIND(SC_EPOLL) },
#endif
};

struct syscall_rule waitclass_syscall(long nr)
{
	static const struct syscall_rule unknown = KIND(SC_UNKNOWN);

	if (nr < 0)
		return unknown;
	for (size_t i = 0; i < sizeof(syscall_table) / sizeof(syscall_table[0]);
	     i++)
		if (syscall_table[i].nr == nr)
			return syscall_table[i].rule;
	return unknown;
}

int waitclass_syscall_disk_fd(long nr)
{
	switch (nr) {
	case SYS_fsync:
	case SYS_fdatasync:
	case SYS_syncfs:
	case SYS_sync_file_range:
		return 0;
	default:
		return -1;
	}
}

int waitclass_syscall_out(long nr, int arg)
{
	switch (nr) {
	case SYS_write:
	case SYS_pwrite64:
	case SYS_writev:
	case SYS_pwritev:
	case SYS_pwritev2:
#ifdef SYS_sendto
	case SYS_sendto:
#endif
	case SYS_sendmsg:
	case SYS_sendmmsg:
	case SYS_connect:
		return arg == 0;
	case SYS_sendfile:	/* (out_fd, in_fd, ...) */
		return arg == 0;
	case SYS_splice:	/* (fd_in, off_in, fd_out, ...) */
	case SYS_copy_file_range:
		return arg == 2;
	case SYS_tee:		/* (fd_in, fd_out, ...) */
		return arg == 1;
	default:
		return 0;
	}
}

int waitclass_wchan_peer(const char *wchan)
{
	static const char *const prefix[] = {
		"sk_", "skb_", "__skb_", "sock_", "unix_", "inet_", "tcp_",
		"udp_", "pipe_", "anon_pipe_", "wait_for_partner", "fifo_open",
	};

	for (size_t i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (!strncmp(wchan, prefix[i], strlen(prefix[i])))
			return 1;
	return 0;
}

int waitclass_wchan_child(const char *wchan)
{
	return !strcmp(wchan, "do_wait") || !strcmp(wchan, "kernel_wait4") ||
	       !strcmp(wchan, "kernel_waitid");
}

enum fd_kind waitclass_fd_kind(const char *link, mode_t mode)
{
	if (!strncmp(link, "socket:[", 8))
		return FD_SOCKET;
	if (!strncmp(link, "pipe:[", 6))
		return FD_PIPE;
	if (!strncmp(link, "anon_inode:", 11))
		return strstr(link + 11, "timerfd") ? FD_TIMER : FD_ANON;
	if (S_ISSOCK(mode))
		return FD_SOCKET;
	if (S_ISFIFO(mode))
		return FD_PIPE;
	if (S_ISREG(mode) || S_ISDIR(mode) || S_ISBLK(mode))
		return FD_FILE;
	if (S_ISCHR(mode))
		return FD_CHAR;
	return FD_UNKNOWN;
}

enum wait_class waitclass_fd(enum fd_kind kind)
{
	switch (kind) {
	case FD_SOCKET:
		return WAIT_NET;
	case FD_FILE:
		return WAIT_DISK;
	case FD_TIMER:
		return WAIT_SLEEP;
	case FD_PIPE:
	case FD_CHAR:
	case FD_ANON:
		return WAIT_OTHER;
	default:
		return WAIT_NCLASS;
	}
}

enum wait_class waitclass_fdset(const int count[FD_NKIND])
{
	int total = 0, known;

	for (int k = 0; k < FD_NKIND; k++)
		total += count[k] > 0 ? count[k] : 0;
	if (total == 0)
		return WAIT_SLEEP;
	if (count[FD_SOCKET] > 0)
		return WAIT_NET;
	known = total - (count[FD_UNKNOWN] > 0 ? count[FD_UNKNOWN] : 0);
	if (known == 0)
		return WAIT_NCLASS;
	if (count[FD_TIMER] == known)
		return WAIT_SLEEP;
	return WAIT_OTHER;
}

enum wait_class waitclass_pollset(const int in[FD_NKIND],
				  const int out[FD_NKIND])
{
	int all[FD_NKIND], local;

	for (int k = 0; k < FD_NKIND; k++)
		all[k] = in[k] + out[k];
	if (out[FD_SOCKET] > 0)
		return WAIT_NET;
	local = in[FD_PIPE] + in[FD_FILE] + in[FD_CHAR] + out[FD_PIPE] +
		out[FD_FILE] + out[FD_CHAR];
	if (in[FD_SOCKET] > 0 && local > 0)
		return WAIT_OTHER;
	return waitclass_fdset(all);
}

enum wait_class waitclass_letter(char state)
{
	switch (state) {
	case 'R':
	case 'W':
		return WAIT_RUN;
	case 'D':
		return WAIT_DISK;
	case 'Z':
	case 'X':
	case 'x':
		return WAIT_NCLASS;
	default:
		return WAIT_OTHER;
	}
}
