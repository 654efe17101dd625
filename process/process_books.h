/*
 * process_books.h - INTERNAL to the Process object (process.c,
 * process_threads.c, process_books_tree.c, process_books.c and
 * procread.c; process.h is the interface): the tree's state and its
 * per-task books.
 *
 * An entry is a task the books hold open: a thread ("taskstats" books) or
 * a process ("tree" books), its last figures (cumulative since its birth)
 * and the read generation it was last seen in. Work that left the open
 * entries (tasks closed by an exit record, auto-reaped children, tasks
 * never seen again) is summed in ex_*. The tree's figures are always
 * ex_* + the sum over the open entries.
 */
#ifndef PERFLOG_PROCESS_BOOKS_H
#define PERFLOG_PROCESS_BOOKS_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#include "pidmap.h"
#include "process.h"

/* One /proc/PID/stat as read. */
struct pstat {
	pid_t pid, ppid;
	char comm[16];			/* the name in parentheses, cut */
	char state;			/* R S D Z X ... */
	unsigned long long own;		/* utime + stime, ticks */
	unsigned long long children;	/* cutime + cstime, ticks */
	unsigned long long start;	/* field 22, ticks since boot */
	double rss_pages;
	long threads;			/* field 20, num_threads */
	int mark;			/* scratch for the ppid scan */
};

struct pb_entry {
	pid_t id;		/* tid or pid; the array is sorted by it */
	pid_t tgid, ppid;
	unsigned long long start;
	uint64_t cpu_us, rchar, wchar;
	uint64_t read_bytes, write_bytes;	/* storage: a thread's own */
	uint64_t run_ns, pcount;	/* a thread's schedstat [0], [2] when
					 * its io was read (0: none) */
	uint64_t next_run, next_pcount;	/* this read's, while io_wait */
	int io_wait;		/* its io to be read after its process's */
	struct pidstat_io grp;	/* a leader's: its process's whole io */
	unsigned grp_gen;	/* the read grp is of (0: none) */
	int io_now;		/* a thread's io read in generation seen */
	unsigned seen;		/* generation last read in */
	unsigned order;		/* read order within a scan */
	/* a leader's: its process's thread count when its task list was
	 * last taken (or known unchanged), in read listed_gen, and whether
	 * an exit record of one of its threads came since */
	long listed;
	unsigned listed_gen;
	int thread_exit;
};

/* The books' sets (pidmap.h), each kept for a few reads:
 *   known     a process of the tree: alive at the last read (when 0) or
 *             dead at wall time when (from its exit record), so a pid
 *             reused by a stranger after the member died is not taken
 *             for it
 *   tomb      a task whose exit record was counted (when: its start, wall
 *             seconds): a read that still finds it (it sends its record
 *             before it becomes a zombie) must not open it again
 *   stranger  a process alive before the last read and not of the tree
 *             (when 1; 0: could not tell): the records of its threads and
 *             children are dropped at once, not kept waiting */
struct pb_pending {
	struct proctree_late r;	/* the record, and when it came */
	unsigned gen;
};

struct proctree {
	char root[PATH_MAX];	/* "" for "/", else without a trailing / */
	pid_t pid;		/* the root; 0 for a rootless tree: a
				 * cgroup's, or every process named comm */
	char comm[16];		/* name= trees: the name, else "" */
	unsigned long long start;	/* the root's, ticks since boot */
	int shim, exits, walk, has_cg;
	int cpu_elsewhere;	/* the last read's CPU time was its cgroup's,
				 * not the books' */
	struct cgroup_set cg;
	long pagesize, hz;
	double boot_wall;	/* wall clock at boot, for start times */
	char method[64];
	pid_t *mem;		/* members of the current read */
	size_t nmem, capmem;
	size_t tree_threads;	/* the members' threads at the last read */
	struct pstat *hostv;	/* the ppid scan's stats, kept: a scan a
				 * sample allocates nothing */
	size_t caphost;
	/* the books */
	struct pb_entry *ent, *scan;
	size_t nent, capent, nscan, capscan;
	struct pb_entry *spare;	/* the merge's output, swapped with ent: a
				 * tree of 2,000 threads mapped and unmapped
				 * 150 KB at each read without it */
	size_t capspare;
	struct pidmap known, tomb, stranger;
	double last_read;	/* wall clock of the last read */
	struct pb_pending *pend;
	size_t npend, cappend;
	struct proctree_late *late;	/* placed by the last read */
	size_t nlate, caplate;
	uint64_t ex_cpu, ex_rd, ex_wr, ex_drd, ex_dwr;
	unsigned gen;
	int lost;
	int exit_untold;	/* an exit record without its process (an
				 * old kernel's): every task list read */
	struct procfds *fds;	/* the members' files kept open */
	struct proc_starts *starts;	/* shared with the other trees, or
					 * NULL (proctree_share_starts) */
};

/* procstarts.c: the start (ticks after boot) of process pid, read once
 * a drain when the tree shares a proc_starts: 0, or -1 (gone). */
int pbooks_start_of(struct proctree *t, pid_t pid, unsigned long long *start);

/* procfds.c: the members' /proc files kept open between reads */
enum { PF_STAT, PF_IO, PF_SCHED, PF_N };
struct procfds;
struct procfds *procfds_new(void);	/* NULL out of memory */
void procfds_free(struct procfds *c);
/* File k (PF_STAT, PF_IO, PF_SCHED) of task (pid, tid; tid 0 the
 * process) under root ("" for /: root/proc/PID[/task/TID]/FILE) into buf
 * of n, NUL-terminated, as util_read_small (c NULL: opened and closed
 * now): the bytes read, or -1 with errno. */
long procfds_read(struct procfds *c, const char *root, pid_t pid, pid_t tid,
		  int k, char *buf, size_t n);
/* root/proc/PID[/task/TID]/FILE into buf (tid 0: the process's). */
void procfds_path(char *buf, size_t n, const char *root, pid_t pid,
		  pid_t tid, const char *file);
/* The end of a scan: the files not read since the last sweep closed. */
void procfds_sweep(struct procfds *c);
/* Descriptors held (tests). */
int procfds_open(const struct procfds *c);

/* procread.c: reading one member's /proc files */
/* root/proc/PID[/task/TID]/FILE into buf */
void pbooks_path(const struct proctree *t, char *buf, size_t n, pid_t pid,
		 pid_t tid, const char *file);
int pbooks_parse_stat(const char *text, struct pstat *p);
int pbooks_read_stat(const struct proctree *t, pid_t pid, pid_t tid,
		     struct pstat *p);
int pbooks_read_io(const struct proctree *t, pid_t pid, pid_t tid,
		   struct pidstat_io *io);
int pbooks_read_sched(const struct proctree *t, pid_t pid, pid_t tid,
		      uint64_t v[3]);
int pbooks_ignores_sigchld(const struct proctree *t, pid_t pid);

/* process_books.c */
void pbooks_init(struct proctree *t);
/* One read of the members t->mem[0..nmem) into the books and out (cpu,
 * bytes, rss, nprocs, io_lost). 0, or -1 out of memory. The "taskstats"
 * books (one entry a thread) are process_threads.c's; the "tree" books
 * (one entry a process) process_books_tree.c's. */
int pbooks_scan_threads(struct proctree *t, struct proc_raw *out);
int pbooks_scan_procs(struct proctree *t, struct proc_raw *out);
void pbooks_free(struct proctree *t);

/* process_books.c: the exit records' sets, for a read of the threads */
/* pid a process of the tree: alive now (died 0), or dead at wall time */
void pbooks_known_set(struct proctree *t, pid_t pid, double died);
/* was task tid, started at start, counted whole from its exit record? */
int pbooks_tomb_has(const struct proctree *t, pid_t tid,
		    unsigned long long start);
/* the records waiting for their process or parent, placed if they can */
void pbooks_pending_resolve(struct proctree *t);
/* the sets' old members dropped, once a read */
void pbooks_sets_expire(struct proctree *t);

/* process_books.c: the entries both kinds of books keep */
uint64_t pbooks_ticks_us(const struct proctree *t, unsigned long long ticks);
/* by id, for qsort and bsearch of t->scan and t->ent */
int pbooks_cmp_entry(const void *a, const void *b);
/* entry id in v[0..n) (sorted), or NULL */
struct pb_entry *pbooks_find(struct pb_entry *v, size_t n, pid_t id);
/* e's figures are final: into the tree's ended totals */
void pbooks_fold(struct proctree *t, const struct pb_entry *e);
/* e into this read's t->scan: 0, or -1 out of memory */
int pbooks_push_scan(struct proctree *t, const struct pb_entry *e);
/* t->scan (sorted) into t->ent (process_books.c says how); grace: the
 * "taskstats" rule for open entries not read now, else they are dropped
 * (the caller dealt with them). 0, or -1 out of memory. */
int pbooks_merge(struct proctree *t, int grace);
/* the books' totals into out (cpu, bytes, io_lost) */
void pbooks_totals(struct proctree *t, struct proc_raw *out);

#endif
