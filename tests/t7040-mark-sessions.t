#!/bin/bash
# perflog mark of a named session among several collectors, and after its
# collector is gone (issue 50 item 2). Two real collectors, each started
# in the foreground by PID into a log set of its own: a session begun in
# the first is ended with no -d after the second started; a typo's end
# is a one-line error listing the open ones; once the first collector has
# stopped (or was killed), `mark -d SET --end --at TIME` closes its open
# session after the fact, and the report ends the session there. A set
# whose .lock is held (a collector that does not answer) is not written.
. "$(dirname "$0")/lib.sh"

# start_fg NAME: a collector of our own, by PID (PID_NAME), its set SET_NAME
start_fg() {
	$PERFLOG start -f -o "$SCRATCH/$1" -i 1 >"$SCRATCH/$1.out" 2>"$SCRATCH/$1.err" &
	eval "PID_$1=$!"
	track_pid $!
	wait_for 15 test -s "$SCRATCH/$1.out"
	eval "SET_$1=\$(head -n 1 \"\$SCRATCH/\$1.out\")"
}
# the time of the marker KIND SESSION in set DIR, as markers.tsv has it
stamp() { grep -P "\t$2\t$3\t" "$1/markers.tsv" | tail -n 1 | cut -f1; }
# ISO to the ms, S seconds (may be fractional) after ISO time T
after() { date -u -d "@$(echo "$(date -u -d "$1" +%s.%N) + $2" | bc)" +%Y-%m-%dT%H:%M:%S.%3NZ; }

start_fg a
A=$SET_a
ok 'first collector started' test -d "$A"
# the begins come a second past the set's start (the second the collector
# began in), so that an --at half a second before a begin is inside the
# set: refused as before the begin, not as before the set
s0=$(date -u -d "$(awk -F'\t' '$1 == "start" {print $2}' "$A/perflog.meta")" +%s)
while [ "$(echo "$(date +%s.%N) < $s0 + 1.2" | bc)" = 1 ]; do sleep 0.1; done
ok 'begin tar (one collector: no -d needed)' $PERFLOG mark --begin -s tar 'tar of /home'
ok 'begin full' $PERFLOG mark --begin -s full 'full backup'
start_fg b
B=$SET_b
ok 'second collector started (the packaged service, another run)' test -d "$B"
is "$($PERFLOG status 2>/dev/null | grep -cF "$SCRATCH/")" 2 'two collectors running'

# the end finds the collector that has tar open
out=$($PERFLOG mark --end -s tar 'tar done' 2>&1); st=$?
is "$st:$out" '0:' 'mark --end -s tar with two collectors: found, no complaint'
like "$(tail -n 1 "$A/markers.tsv")" $'\tend\ttar\ttar done$' 'the end is in the first set'
ok 'the second set has no marker' test ! -s "$B/markers.tsv"

# a typo: an error that lists the open sessions, nothing written
n=$(wc -l <"$A/markers.tsv")
err_is 'an end of a typo fails in one line' "no session 'ful' is open in the 2 running log sets (open: full in $A)" \
	$PERFLOG mark --end -s ful 'done'
is "$(wc -l <"$A/markers.tsv")" "$n" 'nothing written'
ok 'full is still open' sh -c "$PERFLOG report '$A' 2>&1 | grep -qx 'Session full (open: no end marker)'"

# the first collector stops with full open, 3 s after its begin (its stop
# is the end of its last whole row: past the --at below)
b=$(stamp "$A" begin full)
bs=$(date -u -d "$b" +%s.%N)
while [ "$(echo "$(date +%s.%N) < $bs + 3" | bc)" = 1 ]; do sleep 0.2; done
ok 'stop the first collector' $PERFLOG stop "$A"
wait "$PID_a"
ok '... its process is gone' sh -c "! kill -0 $PID_a 2>/dev/null"
err_is 'an end to a set no collector writes, without --at: says --at' \
	"no collector is logging to '$A' (--at TIME marks a set after the fact)" \
	$PERFLOG mark -d "$A" --end -s full 'done'
at=$(after "$b" 1.25)
err_is '--at: a typo on the stopped set lists the open ones' "no session 'ful' is open in $A (open: full)" \
	$PERFLOG mark -d "$A" --end -s ful --at "$at" 'done'
stop=$(awk -F'\t' '$1 == "stop" {print $2}' "$A/perflog.meta")
late=$(after "$stop" 5)
err_is '--at after the set stopped: refused' "is after the log set's end" \
	$PERFLOG mark -d "$A" --end -s full --at "$late" 'done'
err_is '--at before its begin: refused' "the end of 'full' at" \
	$PERFLOG mark -d "$A" --end -s full --at "$(after "$b" -0.5)" 'done'
# a collector that does not answer: its .lock is held, nothing is written
flock -o "$A/.lock" sleep 30 &
fl=$!
track_pid $fl
wait_for 5 sh -c "! flock -n '$A/.lock' true"
err_is 'a set whose .lock is held is not written' "its .lock is held" \
	$PERFLOG mark -d "$A" --end -s full --at "$at" 'done'
sl=$(pgrep -P $fl)
kill $fl $sl; wait $fl 2>/dev/null
is "$(wc -l <"$A/markers.tsv")" "$n" 'nothing written by the refused ones'

out=$($PERFLOG mark -d "$A" --end -s full --at "$at" 'closed after the fact' 2>&1); st=$?
is "$st:$out" '0:' "mark -d SET --end -s full --at $at with its collector gone"
is "$(tail -n 1 "$A/markers.tsv")" "$at"$'\tend\tfull\tclosed after the fact' 'the end in markers.tsv, as the collector writes one'
$PERFLOG report "$A" >"$SCRATCH/report.txt" 2>&1
ok 'the report has session full closed' grep -qx 'Session full' "$SCRATCH/report.txt"
like "$(grep -A1 -x 'Session full' "$SCRATCH/report.txt" | tail -n 1)" "^  from $b to $at, duration 0:00:01.250" \
	'... from its begin to the time given'
err_is 'a second end of it: not open any more' "no session 'full' is open in $A (none is open)" \
	$PERFLOG mark -d "$A" --end -s full --at "$at" 'again'

# a collector killed with -9: its set ends at its last row
start_fg c
C=$SET_c
ok 'begin k in a third set' $PERFLOG mark -d "$C" --begin -s k 'k'
k=$(stamp "$C" begin k)
ks=$(date -u -d "$k" +%s)
f=$(ls "$C"/*.rrd | head -n 1)
wait_for 20 sh -c "[ \$(rrdtool last '$f') -ge $((ks + 2)) ]"
kill -9 "$PID_c"; wait "$PID_c" 2>/dev/null
at=$(after "$k" 1)
ok "the killed set takes --end --at $at" $PERFLOG mark -d "$C" --end -s k --at "$at" 'after the kill'
$PERFLOG report "$C" >"$SCRATCH/report-c.txt" 2>&1
like "$(grep -A1 -x 'Session k' "$SCRATCH/report-c.txt" | tail -n 1)" "^  from $k to $at," '... and the report ends session k there'

# the second collector was never touched
ok 'stop the second collector' $PERFLOG stop "$B"
wait "$PID_b"
ok 'the second set still has no marker' test ! -s "$B/markers.tsv"
done_testing
