/*
 * waitthread.c - one tick of one thread (waits_sample_thread,
 * waits_int.h), called by the tick (waittick.c) for each thread of its
 * turn.
 *
 * Per thread (stop at the first step that decides):
 *   schedstat  unchanged since the last tick and blocked then: same wait
 *   wchan      a name with a class (waitclass_wchan)
 *   stat       the state letter: R runs; Z/X ended
 *   syscall    the call and its descriptors (waitprobe.h), and the far
 *              ends of its pipes and sockets (waitpeer.h): also read
 *              when the wait channel names a socket or pipe wait, since
 *              a socket to a local process is other, not net, and the
 *              edge to that process is counted, or a disk's wait: the
 *              disk its file is on is its edge (issue 46)
 *   letter     D disk, else other ("guessed"; "hidden" when wchan read 0
 *              and the syscall file was refused: no ptrace rights)
 */
#define _GNU_SOURCE
#include "waits_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../process/process.h"
#include "waitactive.h"
#include "waitset.h"

/* A tick of class c on th's current edges (th->tg) of its kind (a
 * disk wait's on the disks', another on the others'): 1/n each. */
static void count_edges(struct wthread *th, enum wait_class c)
{
	int disk = c == WAIT_DISK, n = 0;
	double part;

	for (int i = 0; i < th->ntg; i++)
		n += th->tg_disk[i] == disk;
	if (!n)
		return;
	part = 1.0 / n;
	for (int i = 0; i < th->ntg; i++) {
		struct waits_edge_ticks *e = th->pub.edge, *slot = NULL;

		if (th->tg[i] == WAITS_NO_EDGE || th->tg_disk[i] != disk)
			continue;
		for (int k = 0; k < WAITS_EDGES && !slot; k++)
			if (e[k].id == th->tg[i])
				slot = &e[k];
		for (int k = 0; k < WAITS_EDGES && !slot; k++)
			if (e[k].id == WAITS_NO_EDGE)
				slot = &e[k];
		if (!slot) {	/* the least ticked gives way */
			slot = &e[0];
			for (int k = 1; k < WAITS_EDGES; k++)
				if (e[k].ticks < slot->ticks)
					slot = &e[k];
		}
		if (slot->id != th->tg[i]) {
			slot->id = th->tg[i];
			slot->disk = disk;
			slot->ticks = 0;
		}
		slot->ticks += part * (double)th->weight;
	}
}

static void count(struct wthread *th, enum wait_class c, int guess,
		  int hidden)
{
	/* a read stands for the ticks since the last one (waitshare.c) */
	th->pub.ticks[c] += th->weight;
	if (c != WAIT_RUN) {
		th->pub.reads++;
		th->pub.weight2 += th->weight * th->weight;
	}
	if (th->ntg > 0 && (c == WAIT_NET || c == WAIT_OTHER ||
			    c == WAIT_DISK))
		count_edges(th, c);
	th->pub.guessed += guess ? th->weight : 0;
	th->pub.hidden += hidden ? th->weight : 0;
	th->last = c;
	th->last_guess = guess;
	th->last_hidden = hidden;
}

/* The ticks of the reads that found the thread on a socket whose far
 * end was not known yet (PROBE_LATER: held, pub.held), given the class
 * a socket's wait now has (c: other for a local far end, net for
 * another host's, or net when none was found in UNFOUND_SEC), as one
 * read that stood for them (pub.held_as; waitrates.c moves the time it
 * held apart for them). Lost, they moved the split towards the thread's
 * other waits: a pool of 400 threads each drawing a poll on its
 * socketpair or a nanosleep at random had 68 polls of its sockets'
 * first second uncounted at one tick, its sleeps all counted. */
static void count_later(struct wthread *th, enum wait_class c)
{
	uint64_t open = waits_held_open(&th->pub);

	if (!open || c < WAIT_DISK || c > WAIT_SLEEP)
		return;
	th->pub.held_as[c - WAIT_DISK] += open;
	/* each tick held was a read of the thread (its share of the
	 * blocked ticks read, waitrates_split_error: a set of 41 threads
	 * read whole at every tick said "read in turns", 80-95% read, when
	 * its sockets' far ends were found late beside other load, t7740);
	 * their class is one decision, so they weigh as one read in the
	 * split's error (weight2) */
	th->pub.reads += th->held_reads;
	th->held_reads = 0;
	th->pub.weight2 += open * open;
}

/* The state letter, read now: 0 when unreadable, 'X' when gone. */
static char letter(struct waits *w, struct wthread *th)
{
	char buf[1024];
	struct pidstat ps;
	ssize_t r = waits_read_file(w, th, F_STAT, buf, sizeof(buf));

	if (r <= 0)
		return r < 0 && errno != ESRCH && errno != ENOENT ? 0 : 'X';
	return pidstat_parse(buf, &ps) == 0 ? ps.state : 0;
}

/* How long a wait whose far end is not found is asked again rather
 * than counted: the socket tables are read again once a second at most
 * (waitpeer.h), so a socket younger than the last look is found at the
 * next. A thread read in turn (waitshare.c) is read only every so many
 * seconds, and its first read's class stood for them: a pool of 2,000
 * threads on socketpairs was a quarter "net" (docs/PERFORMANCE.md). */
#define UNFOUND_SEC (2.5 * WAITPEER_RESCAN_SEC)

/* The thread's call through the probe, its edges taken from the memo
 * (interned once per probe, not at every tick that reuses it).
 * PROBE_LATER: nothing to count at this tick. */
static enum waitprobe_result call(struct waits *w, struct wthread *th,
				  double now, enum wait_class *c)
{
	enum waitprobe_result r;

	waits_keep_open(w, th, F_SYSCALL, -1);
	r = waitprobe_call(w->procfd, w->peer, th->pub.pid, th->pub.tid,
			   th->fd[F_SYSCALL], now, &th->memo, c);
	if (r == PROBE_LATER) {
		if (!th->unfound_at)
			th->unfound_at = now;
		if (now - th->unfound_at < UNFOUND_SEC) {
			th->ntg = 0;
			th->pub.held += th->weight;
			th->held_reads++;
			/* the next tick looks again, even if the thread has
			 * not run since: counted as its last class, with no
			 * edge, its held wait was other on no process */
			th->last = WAIT_NCLASS;
			return r;
		}
		/* still not found: the network, as the tables say */
		th->tg_of = -1;
		r = PROBE_CLASS;
	} else {
		th->unfound_at = 0;
	}
	if (r != PROBE_CLASS) {
		th->ntg = 0;
		return r;
	}
	if (th->tg_of != th->memo.until || th->memo.ntg == 0) {
		for (int i = 0; i < th->memo.ntg; i++) {
			struct waitpeer_edge e = th->memo.tg[i];

			/* the waiter's name the sampler's: one name for
			 * each process, renamed at its exec (waits_renamed) */
			memcpy(e.comm, th->pub.comm, sizeof(e.comm));
			/* a pipe to one of its own children is a wait on
			 * that command, as its wait4 is (child_wait): a
			 * shell's $(date) in a loop makes a child and a
			 * pipe each command, and the thread's WAITS_EDGES
			 * slots gave way to each new one, their ticks lost
			 * (t7771's loop: 1.2 s of its 2.8 s on edges) */
			if (e.kind == PEER_PIPE && e.peer_pid > 0 &&
			    waitactive_parent(w->procfd, e.peer_pid) ==
				    th->pub.pid) {
				waitpeer_comm_now(w->peer, e.peer_pid,
						  e.peer_comm);
				e.peer_pid = 0;
			}
			th->memo_tg[i] = waits_edge_id(w, &e);
			th->memo_disk[i] = e.kind == PEER_DISK;
		}
		th->tg_of = th->memo.until;
	}
	/* the memo's edges each time it answers, not only when it is new:
	 * a wait between (a disk's, a run) clears th->ntg, and make demo's
	 * client, writing its next chunk to the server's socket within the
	 * memo's second, waited with no edge (25m100k: 0.8 s of its 1.6 s
	 * other, the server's fsyncs it waited on charged to nothing) */
	th->ntg = th->memo.ntg;
	memcpy(th->tg, th->memo_tg, sizeof(th->tg));
	memcpy(th->tg_disk, th->memo_disk, sizeof(th->tg_disk));
	return r;
}

/* A wait channel that names a socket's or a pipe's wait, or a disk's
 * (class c): the call says which descriptor and what is at its far end
 * (a file's: its disk); a socket whose far end is a local process makes
 * the wait other. Returns 1 when the thread is gone. */
static int peer_wait(struct waits *w, struct wthread *th, enum wait_class c,
		     double now)
{
	enum wait_class p = WAIT_NCLASS;
	enum waitprobe_result r = call(w, th, now, &p);

	if (r == PROBE_GONE)
		return 1;
	if (r == PROBE_LATER)
		return 0;	/* asked again at the next tick */
	if (r != PROBE_CLASS || th->ntg == 0)
		th->ntg = 0;	/* (an NFS read: a file, not a socket) */
	else if (c == WAIT_NET && p == WAIT_OTHER)
		c = WAIT_OTHER;
	count(th, c, 0, 0);
	/* (ticks held for a socket's far end are not a disk's: they wait
	 * for the socket's answer, as before a disk's wait read its call) */
	if (c != WAIT_DISK)
		count_later(th, c);
	return 0;
}

/* The children a thread of a process set waits for join the set now,
 * not at the collector's next sample: a shell's jobs of a fraction of a
 * second each were never read. (A cgroup's set lists them itself:
 * waitset_add_pid does nothing there.) */
static void adopt(struct waits *w, const pid_t *kids, size_t n)
{
	if (!w->set)
		return;
	for (size_t i = 0; i < n; i++)
		if (waitset_add_pid(w->set, w->procfd, kids[i]) < 0)
			return;
}

/* A thread waiting for a child (wait4, waitid): an edge to the children
 * it waits on, by their command, so a parent's wait is known as a wait
 * on another process of the tree, not a resource (issue 29: a shell's
 * loop of gzips was "other 86%"). By command, not pid: a loop's children
 * are a new pid every 0.1 s, and a thread's few edge slots would lose
 * most ticks. Which children (issue 46: `sh -c 'sleep 20 & head | gzip'`
 * said the shell waited on sleep, the first of its children): the one
 * its call names (wait4(pid), waitid(P_PID): a shell's `wait PID`, or
 * its foreground job when it waits by pid), else (wait4(-1): any child,
 * as dash and bash wait for their foreground job) those that work
 * (waitactive.h: not asleep on a timer; a subshell waiting on its own
 * children works through them), the tick split among them; none
 * working, all of them. Looked at again every CHILD_SEC while the wait
 * lasts: the shell does not run meanwhile, and its children come, exec
 * and go. */
#define CHILD_SEC 0.25
#define CHILD_LOOK 16	/* children looked at */
static void child_wait(struct waits *w, struct wthread *th, double now)
{
	char buf[256];
	pid_t kids[CHILD_LOOK], pick[WAITPROBE_MAX_TARGETS], one = 0;
	enum waitactive act[CHILD_LOOK], best = ACTIVE_UNKNOWN;
	size_t n, np = 0;
	struct waitpeer_edge e = { 0 };

	e.pid = th->pub.pid;
	memcpy(e.comm, th->pub.comm, sizeof(e.comm));
	e.dir = PEER_IN;
	e.kind = PEER_CHILD;
	th->child_at = now;
	waits_keep_open(w, th, F_SYSCALL, -1);
	if (waits_read_file(w, th, F_SYSCALL, buf, sizeof(buf)) > 0)
		one = waitactive_waited(buf);
	n = waitactive_children(w->procfd, th->pub.pid, th->pub.tid, kids,
				CHILD_LOOK);
	if (n && !th->pub.peer)	/* (a peer's children are no part of it) */
		adopt(w, kids, n);
	for (size_t i = 0; i < n && !one; i++) {
		act[i] = waitactive_of(w->procfd, kids[i]);
		if (act[i] != ACTIVE_IDLE && act[i] > best)
			best = act[i];
	}
	if (one) {
		pick[np++] = one;
	} else {
		/* working: any not idle; none, all */
		for (size_t i = 0; i < n && np < WAITPROBE_MAX_TARGETS; i++)
			if (best == ACTIVE_UNKNOWN || act[i] != ACTIVE_IDLE)
				pick[np++] = kids[i];
	}
	th->ntg = 0;
	for (size_t i = 0; i < np || (i == 0 && !np); i++) {
		uint32_t id;

		e.peer_comm[0] = '\0';
		if (np)
			waitpeer_comm_now(w->peer, pick[i], e.peer_comm);
		id = waits_edge_id(w, &e);
		for (int k = 0; k < th->ntg && id != WAITS_NO_EDGE; k++)
			if (th->tg[k] == id)
				id = WAITS_NO_EDGE;	/* two of one command */
		if (id != WAITS_NO_EDGE || !th->ntg) {
			th->tg_disk[th->ntg] = 0;
			th->tg[th->ntg++] = id;
		}
	}
}

/* Classify a blocked thread past its wait channel: the system call,
 * then the state letter (read here when the caller has not: a wchan
 * that names a function says the thread is asleep, and only the
 * fallback needs D or S). Returns 1 when the thread is gone. */
static int probe(struct waits *w, struct wthread *th, char state,
		 int wchan_none, double now)
{
	enum wait_class c = WAIT_NCLASS;
	enum waitprobe_result r;

	r = call(w, th, now, &c);
	if (r == PROBE_GONE)
		return 1;
	if (r == PROBE_LATER)
		return 0;	/* asked again at the next tick */
	if (r == PROBE_CLASS) {
		/* a wait on children whose wait channel was not told: the
		 * kernel reads it 0 while the sleeper is still queued (not
		 * dequeued yet, or its dequeue delayed on a busy CPU), and
		 * the shell, never running again, kept that look's 'other'
		 * with no edge for its whole wait (t7725) */
		if (th->ntg == 0 && waitactive_child_call(th->memo.call))
			child_wait(w, th, now);
		count(th, c, 0, 0);
		count_later(th, c);
		return 0;
	}
	th->ntg = 0;
	if (r == PROBE_RUNNING) {
		count(th, WAIT_RUN, 0, 0);
		return 0;
	}
	if (!state && !(state = letter(w, th)))
		return 0;	/* unreadable this time */
	c = waitclass_letter(state);
	if (c == WAIT_NCLASS)
		return 1;
	count(th, c, 1, r == PROBE_REFUSED && wchan_none);
	return 0;
}

/* Whether a far end of the wait th has not left since its probe has
 * ended, asked once a WAITPROBE_MEMO_SEC: its memo is then dropped, the
 * resolver's answers naming it forgotten, and the wait probed again. A
 * thread that does not run keeps its wait and its edges; the server's
 * sshd, blocked on its command's pipes, kept the edge to a login
 * script's subshell (pyenv) that had held one of them for the 6 s it
 * stayed blocked after that subshell ended, and the report found no row
 * of it then: "not seen" (t3741's borg). */
static int far_end_gone(struct waits *w, struct wthread *th, double now)
{
	if (!th->ntg || !th->memo.ntg || !w->peer ||
	    now - th->ends_at < WAITPROBE_MEMO_SEC)
		return 0;
	th->ends_at = now;
	for (int i = 0; i < th->memo.ntg; i++)
		if (waitpeer_gone(w->peer, th->memo.tg[i].peer_pid)) {
			/* the resolver's answers naming it go too, once:
			 * the probe again gets a new one */
			waitpeer_forget(w->peer, th->memo.tg[i].peer_pid, now);
			th->memo.valid = 0;
			return 1;
		}
	return 0;
}

/* One tick of one thread: 0 counted (or unreadable this time), 1 gone. */
int waits_sample_thread(struct waits *w, struct wthread *th, double now)
{
	char buf[256], state;
	uint64_t ss[3];
	enum wait_class c = WAIT_NCLASS;
	enum wchan_verdict v;
	ssize_t r;
	int moved;

	r = waits_read_file(w, th, F_SCHED, buf, sizeof(buf));
	if (r <= 0)
		return 1;	/* ESRCH: exited (0 bytes: a fixture truncated) */
	if (pidstat_parse_schedstat(buf, ss) < 0)
		return 0;
	moved = ss[0] != th->pub.cpu_ns || ss[2] != th->pcount;
	th->pub.cpu_ns = ss[0];
	th->pub.runq_ns = ss[1];
	th->pcount = ss[2];
	th->pub.t = waits_figures_at(th, now);
	if (!moved && th->last != WAIT_NCLASS && th->last != WAIT_RUN &&
	    !far_end_gone(w, th, now)) {
		/* not run since the last tick, blocked then: the same wait
		 * (on its children: which of them work looked at again) */
		if (th->child_at && now - th->child_at >= CHILD_SEC)
			child_wait(w, th, now);
		count(th, th->last, th->last_guess, th->last_hidden);
		return 0;
	}
	th->child_at = 0;	/* ran: whichever wait it is in now */
	if (waits_read_file(w, th, F_WCHAN, buf, sizeof(buf)) < 0 && errno == ESRCH)
		return 1;
	v = waitclass_wchan(buf, &c);
	if (v == WCHAN_CLASS) {
		/* a disk's wait: the call says which file, on which disk
		 * (its edge; issue 46: the verdict named the busiest) */
		if (((c == WAIT_NET || c == WAIT_OTHER) &&
		     waitclass_wchan_peer(buf)) || c == WAIT_DISK)
			return peer_wait(w, th, c, now);
		th->ntg = 0;
		if (c == WAIT_OTHER && waitclass_wchan_child(buf))
			child_wait(w, th, now);
		count(th, c, 0, 0);
		return 0;
	}
	if (v != WCHAN_NONE)
		return probe(w, th, 0, 0, now);
	/* "0": running, runnable, hidden, or not dequeued yet */
	state = letter(w, th);
	if (!state)
		return 0;
	c = waitclass_letter(state);
	if (c == WAIT_NCLASS)
		return 1;	/* gone, or a zombie thread: done */
	if (c == WAIT_RUN) {
		th->ntg = 0;
		count(th, c, 0, 0);
		return 0;
	}
	return probe(w, th, state, 1, now);
}
