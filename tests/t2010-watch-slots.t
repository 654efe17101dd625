#!/bin/sh
# tests/t2010-watch-slots.t - a tree's slot freed by the very sample that
# another tree's request asked for.
#
# A watched tree that ended keeps its slot until the end of the row it
# ended in (its zeros); the sample that passes that row boundary frees the
# slot and moves the last tree into it. When that sample is the one an
# "unwatch" asked for (the request read just after a deadline), the
# unwatched tree must be found again after the sample, not by the slot it
# had before: the old code ended the stale copy, closed the wait-state
# sampler the moved tree still used, and the next sample hung on (or read)
# freed memory. Made deterministic by freezing the collector (SIGSTOP)
# across the row boundary while the unwatch waits in its socket.
. "$(dirname "$0")/lib.sh"
COLL=$PERFLOG
# the sanitized build, where there is one, turns a use of freed memory
# into a report and an exit instead of a hang or silence
[ -x "$TOP/build/asan/perflog" ] && COLL=$TOP/build/asan/perflog
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=99

start_fg $COLL start -f -o $SCRATCH/logs -i 5
[ -n "$dir" ] || skip_all "the collector did not start"
cpid=$fg

sock=$(ls $PERFLOG_RUNTIME_DIR/*.sock 2>/dev/null | head -1)
[ -S "$sock" ] || skip_all "no control socket under $PERFLOG_RUNTIME_DIR"
poke() { printf '%s\n' "$1" | $TOP/build/tools/ctlpoke "$sock"; }
# The freeze lands the unwatch first after the boundary most of the time
# (ppoll resumed with the socket readable), not always (it may return
# EINTR, and the deadline's own sample frees the slot first): three
# rounds, so the old code fails nearly every run (4 of 7 with one).
for k in 1 2 3; do
	sleep 300 & pa=$!; track_pid $pa
	sleep 300 & pb=$!; track_pid $pb
	# early in a 5 s row: a is unwatched in it (its zeros last to the row's
	# end), and the boundary is crossed while the collector is frozen
	until [ $(( $(date +%s) % 5 )) = 0 ]; do sleep 0.05; done
	like "$(poke "$(printf 'watch %s\ta' $pa)")" '^ok label=a' "$k: a watched"
	like "$(poke "$(printf 'watch %s\tb' $pb)")" '^ok label=b' "$k: b watched"
	like "$(poke "unwatch $pa")" '^ok' "$k: a unwatched (slot kept to the row end)"
	# freeze before the boundary; b's unwatch waits in the socket; thaw
	# after it: the unwatch is the first thing the loop reads, and its sample
	# is the one that frees a's slot and moves b into it
	now=$(date +%s.%N)
	sleep "$(echo "$now" | awk '{ f = 5 - ($1 % 5); print (f > 0.6 ? f - 0.5 : 0) }')"
	kill -STOP $cpid
	poke "unwatch $pb" > $SCRATCH/unwatch-b$k.out &
	up=$!
	sleep 1.2
	kill -CONT $cpid
	wait $up
	like "$(cat $SCRATCH/unwatch-b$k.out)" '^ok' "$k: b unwatched after the boundary"
done
# the collector goes on: two more samples, status answers, stop closes
sleep 6
ok 'the collector is alive' kill -0 $cpid
ok 'status answers' timeout 10 $PERFLOG status
timeout 20 $PERFLOG stop "$dir" >/dev/null 2>&1
wait $cpid
is "$?" 0 'the collector stopped cleanly (no sanitizer report)'
if grep -q "AddressSanitizer" "$SCRATCH/fg.err"; then
	grep -A12 "AddressSanitizer" "$SCRATCH/fg.err" | sed 's/^/# /' >&2
fi
done_testing
