/*
 * waitpeer.h - the process at the other end of a descriptor a thread
 * waits on (issue 29): a wait on a pipe, a FIFO, an AF_UNIX socket or a
 * TCP/UDP socket whose peer is this host is a wait on a PROCESS (class
 * other, and an edge to it); only a TCP/UDP socket whose peer is another
 * host is a network wait (then the edge names the interface).
 *
 * How the other end is found (as lsof, ss and CRIU do, STYLE 20):
 *   pipe, FIFO  its inode (ROOT/proc/PID/fd/N reads "pipe:[INO]"; a
 *               named FIFO's link is a path: its device and inode from
 *               statx(DONT_SYNC) of the fd, which reaches the FIFO's
 *               inode, nothing asked of its file system) in another
 *               process's fd table; with several holders, one whose end
 *               (fdinfo flags) is the opposite of the waiter's, and of
 *               those the one doing the work (waitactive.h: the writer,
 *               not the shell that holds the end it gave it); never the
 *               waiter itself (a self-pipe, a socketpair it keeps
 *               alone: no process's end but its own, its far end
 *               unknown)
 *   AF_UNIX     sock_diag (NETLINK_SOCK_DIAG, UDIAG_SHOW_PEER): the peer's
 *               inode, then that inode in an fd table
 *   TCP, UDP    the waiter's network namespace's ROOT/proc/PID/net/
 *               {tcp,tcp6,udp,udp6}: the socket's addresses, then its
 *               mirror (ports swapped) in the same table, then the
 *               mirror's inode in an fd table. No mirror: local when the
 *               remote address is loopback or one of the namespace's own
 *               (net/fib_trie "host LOCAL", net/if_inet6), else another
 *               host: kind net, the interface from net/route (IPv4, the
 *               route toward the remote) or net/if_inet6 (IPv6, the local
 *               address's).
 * Cost: answers are cached per (process, inode, direction) for
 * WAITPEER_KEEP_SEC (WAITPEER_RESCAN_SEC when the far end's process was
 * not found, or was one of several holders or a holder waiting on its
 * children: who among them works moves, and a process just forked holds
 * its parent's ends until it closes them); a holder the last scan saw is
 * asked again (its fd's link) before it is the answer; the fd tables of
 * every process and the socket
 * tables are read again at most once a WAITPEER_RESCAN_SEC (the fd
 * tables: and at most 1% of a CPU, a costly scan waiting longer for the
 * next), and only when an inode not in them is waited on. Nothing here
 * follows a link into a file system (link texts, statx DONT_SYNC, /proc
 * files only).
 *
 * The parsers are pure (the unit tests feed them crafted lines and
 * netlink buffers); waitpeer_resolve does the reads below a root.
 */
#ifndef PERFLOG_WAITPEER_H
#define PERFLOG_WAITPEER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define WAITPEER_KEEP_SEC 5.0
#define WAITPEER_RESCAN_SEC 1.0

/* What the far end of a waited-on descriptor is (edges-LABEL.tsv kind). */
enum peer_kind {
	PEER_NONE,	/* not a pipe or socket, or not told */
	PEER_PIPE,	/* pipe or FIFO */
	PEER_UNIX,	/* AF_UNIX socket, socketpair or not */
	PEER_TCP,	/* TCP to a process of this host */
	PEER_UDP,	/* UDP to a process of this host */
	PEER_NET,	/* TCP/UDP to another host */
	PEER_CHILD,	/* wait4/waitid: the waiter's children, by the
			 * command of each it waits on (peer_pid 0,
			 * ROOT/proc/PID/task/TID/children: the one its
			 * call names, else those at work) */
	PEER_DISK,	/* a file's block device (peer_pid 0, peer_comm
			 * the disk as /proc/diskstats names it:
			 * waitpeer_disk), issue 46 */
	PEER_NKIND
};

/* "-", "pipe", "unix", "tcp", "udp", "net", "child", "disk" */
const char *waitpeer_kind_name(enum peer_kind k);
/* The kind of a name (as above), PEER_NKIND when none. */
enum peer_kind waitpeer_kind_of(const char *name);

enum { PEER_IN, PEER_OUT };	/* waited for input (upstream), output */

/* One edge: a process's wait on another (or on the network). */
struct waitpeer_edge {
	pid_t pid;		/* the waiting process (tgid) */
	char comm[16];
	int dir;		/* PEER_IN, PEER_OUT */
	enum peer_kind kind;
	pid_t peer_pid;		/* 0: not found */
	char peer_comm[16];	/* "" not found; the interface for net */
	char local[48], remote[48];	/* ADDR:PORT, [ADDR6]:PORT, "" */
};

/* An inet socket as a /proc/net/{tcp,udp}{,6} line gives it. */
struct waitpeer_inet {
	int v6;			/* read from tcp6/udp6 */
	uint8_t laddr[16], raddr[16];	/* network order, IPv4 as
					 * ::ffff:A.B.C.D (so a dual-stack
					 * socket's mirror compares equal) */
	unsigned lport, rport;
	unsigned state;		/* TCP state (10 LISTEN), UDP 7 */
	unsigned long ino;
};

/* "pipe:[N]" -> 'p', "socket:[N]" -> 's' (*ino = N); 0 otherwise. */
int waitpeer_link(const char *link, unsigned long *ino);

/* What the holders of a descriptor are matched by: a pipe's or a
 * socket's inode (dev 0: pipefs and sockfs number theirs from one
 * counter, apart from every file system's), a named FIFO's device and
 * inode (its link is a path, the same FIFO opened by two processes
 * through two names is one). */
struct waitpeer_id {
	char kind;		/* 'p' pipe, 's' socket, 'f' FIFO */
	unsigned long dev, ino;
};

/* Whether dirfd/rel (a ROOT/proc/PID/fd/N) is a named FIFO: 1 with *id
 * its device and inode, from statx(AT_STATX_DONT_SYNC), which follows
 * the fd to the FIFO's inode the kernel has (no open, nothing asked of
 * the file system: issue 21); 0 otherwise. */
int waitpeer_fifo(int dirfd, const char *rel, struct waitpeer_id *id);

/* fn(ctx, pid, fd, id) for each pipe ('p') and socket ('s') of pid's fd
 * table below procfd (link texts), and with fifos set each named FIFO
 * ('f': a path's link, waitpeer_fifo), up to max descriptors looked at
 * (0: all): 0, or -1 when the table could not be opened (the process is
 * gone, or no rights). */
int waitpeer_each_link(int procfd, pid_t pid, int max, int fifos,
		       void (*fn)(void *ctx, pid_t pid, int fd,
				  const struct waitpeer_id *id),
		       void *ctx);

/* The access mode (O_RDONLY, O_WRONLY, O_RDWR) of pid's descriptor fd
 * as ROOT/proc/PID/fdinfo/FD's "flags:" gives it, or -1. */
int waitpeer_acc_mode(int procfd, pid_t pid, int fd);

/* One line of /proc/net/tcp (v6 0) or tcp6 (v6 1), udp alike: 0, or -1
 * for the header or a line that does not parse. */
int waitpeer_inet_line(const char *line, int v6, struct waitpeer_inet *out);

/* Whether an address is loopback (::ffff:127.x.x.x, ::1). */
int waitpeer_loopback(const uint8_t addr[16]);

/* "A.B.C.D:P" (for ::ffff:A.B.C.D) or "[v6]:P". */
void waitpeer_format(const uint8_t addr[16], unsigned port, char *out,
		     size_t n);

/* Whether m is s's mirror: 2 the exact one, 1 a UDP receiver bound to
 * s's remote (or to any address) that never connected, 0 not. */
int waitpeer_is_mirror(const struct waitpeer_inet *m,
		       const struct waitpeer_inet *s, int udp);

/* The mirror of s in tab[n] (its local is s's remote and the other way
 * round; for UDP an unconnected socket bound to s's remote will do):
 * its index, or -1. */
long waitpeer_mirror(const struct waitpeer_inet *tab, size_t n,
		     const struct waitpeer_inet *s, int udp);

/* The IPv4 addresses of the namespace (fib_trie's "/32 host LOCAL"
 * entries) into out[max] (network order); returns how many. */
size_t waitpeer_fib_local(const char *text, uint32_t *out, size_t max);

/* Whether the IPv6 address is in if_inet6's text; its interface's name
 * into name (may be NULL) when it is. */
int waitpeer_inet6_local(const char *text, const uint8_t addr[16],
			 char *name, size_t n);

/* The interface of /proc/net/route's longest prefix holding addr
 * (network order): 0 with its name, -1 when no route does. */
int waitpeer_route(const char *text, uint32_t addr, char *name, size_t n);

/* A sock_diag reply (netlink messages of struct unix_diag_msg with
 * UNIX_DIAG_PEER attributes) into pairs (ino, peer ino) appended to
 * out[*n .. max): returns 1 at NLMSG_DONE, -1 at NLMSG_ERROR or a
 * message that does not fit, 0 when more is to come. */
struct waitpeer_pair {
	unsigned long ino, peer;
};
int waitpeer_unix_diag(const void *buf, size_t len, struct waitpeer_pair *out,
		       size_t *n, size_t max);

struct waitpeer;

/* The resolver reading below ROOT/proc (procfd: a directory descriptor
 * of it, kept by the caller). diag: ask the kernel's sock_diag for
 * AF_UNIX peers (0 in the fixture tests: no kernel behind them; a
 * fixture's peers come from waitpeer_add_unix). */
struct waitpeer *waitpeer_open(int procfd, int diag);
void waitpeer_close(struct waitpeer *p);

/* Unix socket pairs known without sock_diag (tests). */
int waitpeer_add_unix(struct waitpeer *p, unsigned long ino,
		      unsigned long peer);

/* What the descriptor fd of thread tid (of process tgid) is connected
 * to, at monotonic time now, waited on in direction dir: 1 with *out
 * filled (kind PEER_NET for another host; any other kind is a wait on a
 * local process, peer_pid 0 while it is not found), WAITPEER_OWN when
 * the far end is the waiter's own and no other process's (a self-pipe,
 * a socketpair it keeps alone, a loopback connection to itself: *out
 * filled, peer_pid 0; a wake-up from within, no process to wait on),
 * 0 when it is not a pipe, FIFO or socket or cannot be told.
 * link: the fd's link text when the caller has read it (else NULL). */
#define WAITPEER_OWN 2
int waitpeer_resolve(struct waitpeer *p, pid_t tgid, pid_t tid, long fd,
		     const char *link, int dir, double now,
		     struct waitpeer_edge *out);

/* The disk holding the file of descriptor fd of thread tid (waited on
 * in direction dir): 1 with *out a PEER_DISK edge (peer_comm the disk's
 * name), 0 when the file is on no block device (a pipe, tmpfs, NFS, a
 * btrfs subvolume's anonymous device) or cannot be told. The device is
 * the file's st_dev (a block device's own st_rdev) from
 * statx(AT_STATX_DONT_SYNC) through ROOT/proc/TID/fd/N (the kernel's
 * inode: nothing asked of the file system), named through
 * ROOT/sys/dev/block/MAJ:MIN (ROOT/proc/../sys): its directory's name,
 * a partition's parent disk's ("sda" for sda1: the disk the
 * collector's PhysicalDisk counters name), sysfs's '!' as diskstats's
 * '/'. Names cached per device for WAITPEER_KEEP_SEC. */
int waitpeer_disk(struct waitpeer *p, pid_t tgid, pid_t tid, long fd, int dir,
		  double now, struct waitpeer_edge *out);

/* The disk a /sys/dev/block/MAJ:MIN link text names (its last
 * component; partition: the one before, the parent disk), '!' as '/':
 * 0, or -1 when the text has no such component. */
int waitpeer_disk_name(const char *link, int partition, char *name, size_t n);

/* The command of pid (ROOT/proc/PID/comm without the kernel's newline,
 * cached WAITPEER_RESCAN_SEC), as it is: a tab or a newline in it is
 * written '?' by the files (waitrates_comm), as a thread's comm from
 * /proc/PID/stat is; "" when it cannot be read. */
void waitpeer_comm(struct waitpeer *p, pid_t pid, double now, char comm[16]);

/* The same read now, and not kept: a child just forked is named for its
 * parent until it execs, and that name cached was the name of every
 * edge to it for a second (waitthread.c child_wait). */
void waitpeer_comm_now(const struct waitpeer *p, pid_t pid, char comm[16]);

/* Whether process pid has ended (ROOT/proc/PID is no more): a waiter
 * that has not run since its probe is probed again (waitthread.c). */
int waitpeer_gone(const struct waitpeer *p, pid_t pid);

/* Process pid has ended, as of monotonic time now (waitpeer_gone said
 * so, or the sampler saw it end): the answers made before naming it are
 * made again when next asked, and a cached answer is given with no look
 * at ROOT/proc (pid again a process after now: its answers are new). */
void waitpeer_forget(struct waitpeer *p, pid_t pid, double now);

/* Process pid is named comm from now on (the sampler saw it exec): its
 * name in the answers given from now (waitpeer_resolve reads the names
 * of a cached answer again). */
void waitpeer_renamed(struct waitpeer *p, pid_t pid, const char *comm,
		      double now);

/* Fd tables scanned and socket tables read so far (for the bench and
 * the tests of the rescan rule). */
void waitpeer_stats(const struct waitpeer *p, unsigned *fd_scans,
		    unsigned *sock_reads);

#endif
