/*
 * collector_int.h - INTERNAL to the collector (collector.c: the loop and
 * the samples; serve.c: control requests; watch.c: the watched process
 * trees; sessions.c: the sessions open). collector.h is the interface to
 * the rest of perflog.
 *
 * Calls run one way: collector.c -> serve.c -> watch.c -> sessions.c
 * (and collector.c -> watch.c). A request that needs the loop (a sample
 * now, the stop) does not call it: it returns a loop_request, the loop
 * acts on it and hands it back to serve_finish.
 *
 * Samples come in two kinds, both written the same way:
 *   scheduled    on the schedule's deadlines (schedule.h)
 *   off schedule taken at once, between two deadlines, when a request needs
 *                the log to be current (a "sync", the start and the end of
 *                a watched tree) and at stop (sample_now, collector.c).
 * The log writer weighs every update by the time it covers (logset.h), so
 * an update between two row boundaries splits the row's interval in two
 * and the row still holds the exact average of the two parts: an extra
 * sample never breaks the RRD step, it only refines what a row is made of.
 */
#ifndef PERFLOG_COLLECTOR_INT_H
#define PERFLOG_COLLECTOR_INT_H

#include <limits.h>
#include <stdio.h>
#include <time.h>

#include "../counters/counters.h"
#include "../sources/source.h"
#include "../process/process.h"
#include "../logs/logset.h"
#include "../logs/markers.h"
#include "collector.h"
#include "complain.h"
#include "markhold.h"
#include "schedule.h"
#include "select.h"
#include "server.h"
#include "watch_waits.h"

#define MAX_SYNC 64
#define MAX_WATCH 64

enum watch_state {
	WATCH_NEW,	/* read once (its baseline), nothing logged yet */
	WATCH_ACTIVE,	/* logged at every sample */
	WATCH_ENDED	/* unwatched or gone: zeros until its row ends */
};

/* A `mark --watch` tree that ended before its session did: its
 * wait-state totals, written when it ended, as the end-marker fields the
 * session's "waits label=" answers with (watch_ended.c). */
struct ended_waits {
	char label[SRC_NAME_MAX];
	char fields[2048];
};

struct watch {
	pid_t pid;		/* the tree's root */
	int follow;		/* asked for by `perflog mark --watch`: no
				 * client to outlive, labelled as its
				 * session, ended by "unwatch label=" */
	pid_t client;		/* who asked for it (SO_PEERCRED) */
	unsigned long long client_start;	/* and its start time */
	char label[SRC_NAME_MAX];
	struct proctree *tree;
	struct watch_waits *ww;	/* its wait states and cgroup counters
				 * (watch_waits.h), NULL once ended */
	struct proc_raw prev;
	int have_prev;
	int root_gone;		/* the last read found the root gone */
	int zero_now;		/* the sample being taken is the one at its
				 * watch request: log zeros for it */
	enum watch_state state;
	double fill_until;	/* WATCH_ENDED: the row boundary (wall) up
				 * to which its zeros are logged */
};

/* What a control request asks of the loop once it is read. */
enum loop_want {
	WANT_NOTHING,	/* answered already */
	WANT_SAMPLE,	/* a sample now, off the schedule, then finish */
	WANT_STOP	/* stop at the loop's next turn */
};
enum loop_finish {
	FINISH_NONE,
	FINISH_SYNC,	/* flush and answer */
	FINISH_WATCH,	/* the new tree's zero sample is taken: answer */
	FINISH_UNWATCH,	/* its last figures are taken: end it, answer */
	FINISH_WAITS	/* its last figures are taken: write its wait-state
			 * totals, answer with them */
};
struct loop_request {
	enum loop_want want;
	enum loop_finish finish;
	struct request r;	/* whom to answer */
	/* the watch it is about, by its root and label: not by its slot,
	 * since the sample in between may free an ended tree's slot and
	 * move another into it (watch_sample) */
	pid_t pid;
	char label[SRC_NAME_MAX];
};

/* A collector's first deadline is at least half an interval, and at most
 * this many seconds, after its baseline, and it answers at its set's
 * start at the earliest (setup.c, collector.c): the first row is at least
 * half measured (at intervals up to twice this), with room for a run's
 * watch and begin marker before it ends, and a start answers within
 * this much. */
#define START_LEAD_MAX 2.5

/* The stages of a sample, timed by cost.c. */
enum cost_stage { ST_READ, ST_RATES, ST_WATCH, ST_SELECT, ST_WRITE, ST_COUNT };
struct collector_cost {
	unsigned long samples;	/* samples timed */
	double stage[ST_COUNT];	/* seconds in each stage, in all */
	/* seconds in each part of the source over the same reads as
	 * stage[ST_READ] (the samples', not the baseline's nor a failed
	 * one's), and the source's totals when this read began */
	double part[SP_COUNT], part_at[SP_COUNT];
	/* the same for the writer's parts (logs/logset.h logset_cost) over
	 * stage[ST_WRITE] */
	double wpart[LC_COUNT], wpart_at[LC_COUNT];
};

struct collector {
	const struct collector_options *opt;
	const struct settings *set;
	struct source *proc;
	struct raw_snapshot a, b, *prev, *cur;
	struct sample sample;
	struct selector *sel;
	struct logset_writer *w;
	char made_dir[PATH_MAX];	/* the topmost directory of the log
					 * directory this start made, "" none:
					 * taken back if the start fails */
	struct server *srv;
	struct schedule sched;
	unsigned long samples;
	time_t last;		/* stamp of the last sample (whole seconds) */
	double last_update;	/* when it was really read (wall clock) */
	struct request stopper[MAX_SYNC];
	int nstop;
	int release;		/* stop once no tree is watched ("release") */
	unsigned long long owner_start;	/* opt->owner's start time */
	struct watch watch[MAX_WATCH];
	int nwatch;
	struct ended_waits ended[MAX_WATCH];	/* oldest first */
	int nended;
	struct taskstats_listener *ts;	/* exit records, while trees are
					 * watched and the host allows it */
	int ts_failed;
	struct proc_starts *starts;	/* the records' parents' starts, read
					 * once a drain for every tree */
	struct cgstat_memo cgmemo;	/* a sample's group read, for every
					 * tree in that group */
	double drain_at;	/* monotonic: exit records not read before */
	double drained;		/* monotonic: when the records being read
				 * were drained (their time, near enough) */
	char **open;		/* sessions begun and not yet ended */
	size_t nopen;
	struct complaint c_read, c_write, c_add, c_late, c_exits, c_lost,
			 c_waits, c_marks;
	struct markhold held;	/* markers markers.tsv could not take */
	unsigned long rows_lost;	/* logset_rows_lost when last told */
	FILE *trace;		/* $PERFLOG_TRACE: one line per sample */
	struct collector_cost cost;	/* cost.c */
	struct conn_sessions *conns;	/* the server's connections as
					 * sessions (conn_sessions.h), NULL
					 * without [server] daemons */
};

/* cost.c */
/* A sample's read begins: the clock in *t, the source's parts noted. */
void cost_begin(struct collector *c, double *t);
/* Charge the time since *t to stage st and restart the clock at *t;
 * ST_READ charges the source's parts since cost_begin too, ST_WRITE the
 * writer's. */
void cost_lap(struct collector *c, enum cost_stage st, double *t);
/* "samples:N,read:US,...,stat:US,...,journal:US,...": totals since the
 * start in microseconds, the status reply's cost= field; -1 when n is too
 * small. */
int cost_format(const struct collector *c, char *buf, size_t n);
/* One line of means per sample (stages, the source's parts, the
 * writer's) to f: a daemon's collector.log, on stop. */
void cost_log(const struct collector *c, FILE *f);

/* clock.c */
/* The wall clock (seconds) the collector stamps rows and markers with:
 * CLOCK_REALTIME, plus the test seam's offset (clock.c). */
double collector_clock(void);

/* The collector's log set, source, schedule, writer and control socket
 * (setup.c): 0, or -1 with e set (what was made is in c, for the
 * teardown). */
int collector_setup(struct collector *c, struct perr *e);

/* serve.c */
/* Accept one control request (control.h, the protocol) and answer it, or
 * say in lr what the loop must do before serve_finish answers it. */
void serve_one(struct collector *c, struct loop_request *lr);
/* Answer lr once the loop has done what it wanted. A sample it wanted may
 * not have been taken (within a millisecond of the last one, or before
 * the set's start): the answer never waits for a deadline either way. */
void serve_finish(struct collector *c, struct loop_request *lr);

/* sessions.c */
/* Sessions begun through this collector and not ended (for unique
 * labels, and for the end marker of a run that went away). */
int sessions_is_open(const struct collector *c, const char *name);
void sessions_begin(struct collector *c, const char *name);
void sessions_end(struct collector *c, const char *name);
/* May a marker of kind for session name go to the set (serve.c)? An end
 * needs its session open ("no session 'X' is open in DIR (open: A, B)");
 * a marker stamped at a given time (at: when, on the collector's clock)
 * must lie within the set's span (its start to now) and, for an end, not
 * before its session's begin, for a begin, not before that name's last
 * end: markers.tsv is appended in the order markers come, and a marker
 * stamped earlier (perflog run's end, `mark --at`) pairs in that order
 * (logs/markers.h). A begin held on a full disk (c->held) is open. 0, or
 * -1 with e set. */
int sessions_check_mark(struct collector *c, enum marker_kind kind,
			const char *name, double when, int at, struct perr *e);
/* Write an end marker for session name (from the collector itself). */
void sessions_end_marker(struct collector *c, const char *name,
			 const char *text);

/* watch.c */
/* "watch ARGS" and "unwatch PID": the sample they need is the loop's
 * (lr); watch_finish answers once it is taken. */
void watch_request(struct collector *c, struct request *r, char *args,
		   struct loop_request *lr);
void watch_unwatch(struct collector *c, struct request *r, const char *args,
		   struct loop_request *lr);
void watch_finish(struct collector *c, struct loop_request *lr);
/* Add a tree to watch (opt's root, exits and the rest filled here) as
 * Process(label): made unique for perflog run's, the session's own name
 * when follow. Fills lr like watch_request; -1 with pe set when it cannot
 * be opened or every slot is taken. */
int watch_add(struct collector *c, struct request *r,
	      const struct proctree_options *opt, const char *label,
	      int follow, struct loop_request *lr, struct perr *pe);

/* End tree w now: its sampler stopped, zeros logged until the end of
 * the row it ended in, its slot freed then (conn_sessions.c ends a
 * connection's tree so, after its last figures). */
void watch_end(struct collector *c, struct watch *w);

/* watch_ended.c */
/* w, a `mark --watch` tree, is gone before its session's end: its
 * wait-state totals are written now (its sampler is stopped next), and
 * its end-marker fields kept by label for the session's "waits label=".
 * A client that exits before the tester's `mark --end` lost them all. */
void watch_ended_keep(struct collector *c, struct watch *w);
/* The fields kept for label, or NULL. */
const char *watch_ended_fields(struct collector *c, const char *label);
/* Forget label's fields: 1 when there were some. */
int watch_ended_drop(struct collector *c, const char *label);

/* watch_spec.c */
/* "follow SESSION<TAB>SPEC" (`perflog mark --begin --watch SPEC`): SPEC
 * is a PID, UNIT.service or name=COMM; see control.h. */
void watch_spec_request(struct collector *c, struct request *r, char *args,
			struct loop_request *lr);
/* "waits PID" or "waits label=LABEL": a sample first (the totals then
 * hold the session's last interval, not only up to the last scheduled
 * sample: a short session's server process was missing from them), then
 * watch_finish writes the tree's wait-state totals beside the log set's
 * markers and replies with the end-marker fields (watch_waits_finish). */
void watch_waits_request(struct collector *c, struct request *r,
			 const char *args, struct loop_request *lr);
/* Add the watched trees' values to c->sample (a sample at wall time
 * when), after draining exit records; called by every sample. */
void watch_sample(struct collector *c, double when);
/* Trees whose root is gone and whose client went away are ended (with an
 * end marker for the session of a run that was killed). */
void watch_check(struct collector *c);
/* The values of the closing update (teardown, collector.c): zeros for
 * trees that ended in the row it closes. Returns how many. */
int watch_closing(struct collector *c);
/* Drain exit records (the loop calls it when watch_fd is readable).
 * Returns how many were read. */
long watch_drain(struct collector *c);
/* The exit record socket, or -1. */
int watch_fd(const struct collector *c);
/* Trees watched and not ended. */
int watch_active(const struct collector *c);
void watch_free_all(struct collector *c);

#endif
