#!/bin/sh
# tests/stress.sh - `make check-stress`: the whole suite beside a steady,
# unrelated load (issue 22). A backup tester runs the suite on the machine
# they mean to measure, which is rarely idle: every tolerance must hold
# there, not only on an idle CI machine.
#
#   sh tests/stress.sh TESTS...    (the unit binaries and the suites)
#
# The load is stress-ng's (Debian's stress-ng, tests/deps.sh): one CPU's
# worth (--cpu 1), a worker syncing writes (--io 1) and a small one
# touching 128 MB (--vm 1). It runs from before the first check to after
# the last, is started and stopped by PID (its workers too, found under
# it), and its seconds are capped by --timeout should this script die.
# prove runs as in `make check` (testrules.yml, CHECK_JOBS at a time);
# a failing check prints its figures and the load it saw on stderr,
# which prove shows. The load over the whole run is printed at the end,
# and the checks that came closest to their tolerances (tests/margins.sh).
# Exit status: prove's (non-zero on any failure).
. "$(dirname "$0")/lib.sh"

command -v stress-ng >/dev/null ||
	{ echo "check-stress: stress-ng is not installed (apt-get install stress-ng; tests/deps.sh check)" >&2; exit 2; }

# every process under PID (its children's children too), deepest last
_under() {
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		echo "$c"
		_under "$c"
	done
}

STRESS="--cpu 1 --io 1 --vm 1 --vm-bytes 128M"
# shellcheck disable=SC2086
stress-ng $STRESS --timeout 3h --quiet &
sp=$!
track_pid $sp
sleep 2	# its workers are up
kill -0 $sp 2>/dev/null || { echo "check-stress: stress-ng did not start" >&2; exit 2; }
echo "check-stress: stress-ng $STRESS (pid $sp, workers $(_under $sp | tr '\n' ' '))"
load_begin
t0=$(date +%s)
MARGINS=$TOP/build/margins-stress.tsv
rm -f "$MARGINS"
PERFLOG=$TOP/perflog PERFLOG_MARGINS=$MARGINS prove -f -j"${CHECK_JOBS:-6}" "$@"
rc=$?
t1=$(date +%s)
load_end
# stop it by PID, its workers first known (stress-ng ends them on TERM;
# what is left is stopped by its own pid)
workers=$(_under $sp)
stop_pids $sp
# shellcheck disable=SC2086
stop_pids $workers
echo "check-stress: $((t1 - t0)) s beside stress-ng; $LOAD_FIGS (the load includes the suite's own)"
sh "$TOP/tests/margins.sh" "$MARGINS"
[ $rc = 0 ] && echo "check-stress: PASS" || echo "check-stress: FAIL (prove exited $rc)"
exit $rc
