/*
 * waitpeer_int.h - what waitpeer.c (the cache, AF_UNIX peers, the
 * answers) shares with waitpeer_fds.c (the fd tables: who holds an
 * inode) and waitpeer_inet.c (a network namespace's socket tables and
 * own addresses). Not an interface: waitpeer.h is.
 */
#ifndef PERFLOG_WAITPEER_INT_H
#define PERFLOG_WAITPEER_INT_H

#include <stdint.h>
#include <sys/types.h>

#include "waitpeer.h"

#define MAX_ANSWERS 65536	/* a table of twice that: cleared when full */
#define MAX_NS 8	/* namespaces' tables kept; past it the least
			 * recently used goes, its sockets with it */
#define MAX_LOCAL4 256
#define MAX_HOLDERS 8
#define MAX_CHILD_FDS 64	/* a holder's child's descriptors looked at */
/* The fd scans' share of a CPU at most: the next scan waits the last
 * one's CPU time over this (a host with a process of 4,000 descriptors:
 * a scan of about 0.1 s, one every 10 s rather than every second). */
#define SCAN_SHARE 0.01

struct owner {
	unsigned long ino, dev;	/* waitpeer_id's */
	pid_t pid;
	int fd;
};

struct inet_ent {
	unsigned long ns;
	int udp;
	struct waitpeer_inet s;
};

struct nsinfo {
	unsigned long ns;
	double at;		/* when its tables were read */
	double used;		/* when a socket of it was last looked up */
	uint32_t local4[MAX_LOCAL4];
	size_t nlocal4;
	char *if6, *route;	/* net/if_inet6, net/route texts */
};

struct answer {
	int used;
	pid_t tgid;
	unsigned long dev, ino;
	int dir, ok;
	double made, until;
	struct waitpeer_edge e;
};

/* The far ends said gone lately (waitpeer_forget): an answer made
 * before naming one is made again. An answer lives WAITPEER_KEEP_SEC at
 * most, so a ring of the last NGONE holds every one that matters unless
 * more ended within those seconds (then an answer may name an ended
 * process until its time is up, as every answer did before). */
#define NGONE 64
struct gone_ent {
	pid_t pid;
	double at;
};

/* Command names read lately: a server's many connections are one
 * process's, and its name is read once a WAITPEER_RESCAN_SEC. */
#define NCOMM 64
struct comm_ent {
	pid_t pid;
	double at;
	char comm[16];
};

/* A block device's name (waitpeer_disk.c), by its number; the least
 * recently read gives way. */
#define NDISK 16
struct disk_ent {
	unsigned major, minor;
	double at;		/* read at; 0: free */
	char name[16];		/* "" on no block device */
};

struct waitpeer {
	int procfd, diag;
	struct comm_ent comms[NCOMM];
	struct disk_ent disks[NDISK];
	struct owner *own;
	size_t nown, capown;
	double scanned;
	double scan_gap;	/* the least time between two fd scans */
	int fifos;		/* a FIFO was looked for: the scans stat the
				 * paths' links too (waitpeer_fifo) */
	struct waitpeer_pair *unx, *fixed;
	size_t nunx, capunx, nfixed, capfixed;
	double unix_at;
	struct inet_ent *inet;
	size_t ninet, capinet;
	struct nsinfo ns[MAX_NS];
	size_t nns;
	struct answer *ans;	/* open addressing, cap a power of 2 */
	size_t nans, capans;
	struct gone_ent gone[NGONE];	/* a ring, next at ngone % NGONE */
	unsigned ngone;
	unsigned scans, reads;
};

/* waitpeer_fds.c: the child of thread tid of process tgid that holds
 * id's end of mode want (-1 any) now, from the children's fd tables; 0
 * none. A pipe the last scan did not see is nearly always a new one
 * between a process and its child (a shell's $(cmd) or pipeline), and
 * a shell's loop of them makes one each command: waited on until the
 * next scan, up to a second, each was on no process or, once a scan
 * came, on whichever command then held the newest. */
pid_t waitpeer_child_holder(const struct waitpeer *p,
			    const struct waitpeer_id *id, pid_t tgid,
			    pid_t tid, int want);

/* waitpeer_fds.c: the process holding id other than tgid (want: the
 * access mode of a pipe's end looked for, -1 any), the fd tables
 * scanned again when due; *unsure set when the answer may change soon,
 * *own when the end looked for is tgid's own and nobody else's (a
 * self-pipe). 0 when not found: never tgid. */
pid_t waitpeer_holder(struct waitpeer *p, const struct waitpeer_id *id,
		      pid_t tgid, int want, double now, int *unsure,
		      int *own);

/* An inet socket's far end (waitpeer_inet.c; calls run one way,
 * waitpeer.c -> waitpeer_inet.c): 1 with e filled but its peer_pid, and
 * *mirror the mirror socket's inode when one was seen (its holder is the
 * peer), 0 when ino is not an inet socket. */
int waitpeer_inet_peer(struct waitpeer *p, pid_t tgid, unsigned long ino,
		       double now, struct waitpeer_edge *e, unsigned long *mirror);

#endif
