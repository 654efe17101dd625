/*
 * control.h - talking to a running collector.
 *
 * Each collector registers in the runtime directory, $PERFLOG_RUNTIME_DIR or
 * else /tmp/perflog-UID (created 0700, owner checked): PID.sock is its
 * control socket (0600) and PID.info holds "logset<TAB>DIR" and
 * "interval<TAB>N". A stale entry (no such pid, or the socket refuses) is
 * removed by whoever finds it.
 *
 * perflog.service (dist/) runs its collector as a dynamic system user with
 * PERFLOG_RUNTIME_DIR=/run/perflog. Root's commands search that directory
 * too (control_service_dir), so an admin's status, stop and mark reach the
 * service's collector, which serves root as well as its own user.
 *
 * The protocol is one request line and one reply line over a unix stream
 * socket; the collector checks SO_PEERCRED and serves only its own uid (and
 * root). Requests:
 *   status                      "ok logset=DIR interval=N samples=N last=T
 *                               [runs=PID:LABEL,...]": runs= the perflog
 *                               runs whose trees are watched (`perflog
 *                               stop` names them)
 *   stop                        replies once the log set is closed
 *   mark KIND<TAB>SESSION<TAB>TEXT[<TAB>key=value...]
 *                               fields escaped as in markers.tsv; KIND
 *                               may be KIND@SECONDS (wall clock, ms):
 *                               the marker's time, not when it came;
 *                               refused ("error WHY") when an end's
 *                               session is not open, or the time is
 *                               outside the set or before the begin;
 *                               "ok held=WHY" when markers.tsv cannot
 *                               take it now (written when it can:
 *                               markhold.h)
 *   watch PID<TAB>LABEL[<TAB>KEY=VALUE...]
 *                               log PID's process tree as Process(LABEL')
 *                               (process/process.h; keys shim=1,
 *                               cgroup.v2=, cgroup.cpu=, cgroup.cpuacct=,
 *                               collector/watch.c): "ok label=LABEL'
 *                               cpu=METHOD io=METHOD", LABEL' unique
 *                               among the trees and open sessions
 *   follow SESSION<TAB>SPEC     `perflog mark --begin --watch SPEC`: log
 *                               SPEC (a PID's tree, UNIT.service's
 *                               cgroup, or name=COMM: every process of
 *                               that name and their children) as
 *                               Process(SESSION) until "unwatch
 *                               label=SESSION" (watch_spec.c): "ok
 *                               label=SESSION cpu=M io=M procs=N"
 *   unwatch PID|label=SESSION   stop logging that tree (zeros to the end
 *                               of its row, then unknown)
 *   clock                       "ok wall=SECONDS.UUUUUU": the clock the
 *                               collector stamps rows and markers with
 *                               (another host's perflog run measures it)
 *   waits PID|label=SESSION     take a sample (the totals then hold the
 *                               session's last interval), write that
 *                               tree's wait-state totals beside
 *                               the markers (waits-LABEL.tsv) and reply
 *                               with the end-marker fields about them,
 *                               tab-separated: "ok waits=FILE<TAB>
 *                               waits.threads=N<TAB>..." (watch_waits.h)
 *   sync                        takes a sample now and writes every row
 *                               held; replies "ok samples=N" at once
 *                               (the baseline is read before the
 *                               collector answers: a sample can be taken
 *                               from the first request on)
 *   release                     stop once no tree is watched (perflog run,
 *                               for the collector it started: runs that
 *                               joined it keep it going)
 * Replies: "ok ..." or "error MESSAGE". Requests over 64 KiB are refused.
 */
#ifndef PERFLOG_CONTROL_H
#define PERFLOG_CONTROL_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "../common/util.h"
#include "../process/process.h"
#include "../logs/markers.h"

struct collector_info {
	pid_t pid;
	char rundir[PATH_MAX];	/* the runtime directory it registered in */
	char logset[PATH_MAX];	/* absolute path of the log set */
	unsigned interval;
	unsigned long samples;	/* filled by control_status */
	time_t last;		/* last sample's stamp, 0 none yet */
};

/* The runtime directory (created if needed), or NULL with e set. */
const char *control_runtime_dir(struct perr *e);

/* The runtime directory of perflog.service: $PERFLOG_SERVICE_RUNTIME_DIR,
 * else CONTROL_SERVICE_DIR. */
#define CONTROL_SERVICE_DIR "/run/perflog"

/* The service's runtime directory when the caller is root and it exists as
 * a real directory that only its owner may write, else NULL. */
const char *control_service_dir(void);

/* List the live collectors of this user, and for root also those of
 * control_service_dir() (stale entries are cleaned).
 * Returns the count, *out malloc'ed; -1 on error. */
long control_list(struct collector_info **out, struct perr *e);

/* Find the collector for a log set: dir when non-NULL, else
 * $PERFLOG_LOGSET, else the only one running. Errors: "no collector is
 * logging to 'DIR'", "no collector is running", "several collectors are
 * running; name the log set with -d". */
int control_find(const char *dir, struct collector_info *out, struct perr *e);

/* A set's rows into its RRD files: the collector logging to the log set
 * dir, if one is, is asked to sync (it holds rows back for [log] flush,
 * 60 s; the journal has them, but what reads the files itself,
 * rrd_graph's DEFs, stock rrdtool, would not); when none does, a set
 * whose collector was killed has its journal's last rows written into
 * its files (logset_settle). 0 when synced or settled (or nothing to
 * do); -1 when the set is live and its collector did not sync, -2 when
 * it is not and could not be settled; e says which, and why (a clause:
 * "it is live and ...", "its collector is gone and ..."). */
int control_sync_live(const char *dir, struct perr *e);

/* perflog run -o DIR: the collector logging to the log set DIR, else one
 * logging under DIR (the parent `perflog start -o DIR` was given; the
 * newest log set when there are several). -1 with e set when none. */
int control_find_under(const char *dir, struct collector_info *out,
		       struct perr *e);

/* 1 when the collector c has stopped or is stopping: its process gone,
 * or its control socket removed (server_close, the last of its stop; it
 * answers nothing after it, though its pid may live a moment longer). */
int control_gone(const struct collector_info *c);

/* Send one request and read the reply line into reply (without "ok ").
 * A request the collector refused to wait for ("request timed out", or
 * its socket closed before any reply) is sent again, up to 5 times.
 * Returns 0 on "ok", -1 with e holding the error. */
int control_request(const struct collector_info *c, const char *request,
		    char *reply, size_t n, struct perr *e);

/* Convenience: mark through the collector logging to dir (see
 * control_find). extra as in markers_append. */
int control_mark(const char *dir, enum marker_kind kind, const char *session,
		 const char *text, const char *const *extra, size_t nextra,
		 struct perr *e);
/* The same with the marker's time (wall clock seconds; 0: when it comes). */
int control_mark_at(const char *dir, double when, enum marker_kind kind,
		    const char *session, const char *text,
		    const char *const *extra, size_t nextra, struct perr *e);

/* The same, to the collector col. A marker the collector holds because
 * markers.tsv cannot be written now (a full disk; it is written when
 * space returns, collector/markhold.h) returns 0 with e->msg saying so;
 * a marker written returns 0 with e->msg empty. */
int control_mark_to(const struct collector_info *col, double when,
		    enum marker_kind kind, const char *session,
		    const char *text, const char *const *extra, size_t nextra,
		    struct perr *e);

/* Ask the collector to watch the tree under pid as Process(label) (see
 * "watch" above); cg may be NULL. The label it gave goes to label_out, its
 * accounting method ("cpu=cgroup-v2 io=taskstats") to method. */
int control_watch(const struct collector_info *c, pid_t pid,
		  const char *label, int shim, const struct cgroup_set *cg,
		  char *label_out, size_t label_n, char *method,
		  size_t method_n, struct perr *e);

/* perflog run, for the collector it started: stop it and wait until the
 * log set is closed, as control_stop, unless runs that joined it still
 * have trees watched: then it stops when they are done (*deferred = 1). */
int control_release(const struct collector_info *c, int *deferred,
		    struct perr *e);

/* Ask a collector to stop and wait until it has closed the log set. */
int control_stop(const struct collector_info *c, struct perr *e);

/* Is the collector of pid still there? Not when it has exited, though
 * its parent (init, for a daemon) has not reaped it yet: what
 * control_stop and control_release wait for, and status's test of a
 * stale entry. */
int control_alive(pid_t pid);

#endif
