#!/bin/bash
# Clock steps: the wall clock jumps forward an hour, then back an hour,
# mid-run (through the collector's test seam PERFLOG_TEST_CLOCK_OFFSET_FILE,
# see collector.c wall_clock: the machine's clock is not touched). The
# collector keeps running and keeps its spacing, `rrdtool last` never
# decreases (librrd would refuse an update in the past), and the log set
# closes cleanly.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"
LOGS=$SCRATCH/logs
OFF=$SCRATCH/clock-offset
echo 0 > $OFF
export PERFLOG_TEST_CLOCK_OFFSET_FILE=$OFF

start_fg $PERFLOG start -f -o $LOGS -i 1
rrd=$dir/Memory.rrd
ok 'collector started' test -f "$rrd"

# watch `rrdtool last` every 0.2 s for the whole run (a failed reading
# is kept with its message, not as a 0)
( while :; do
	l=$(rrdtool last "$rrd" 2>&1 | head -n 1)
	echo "$l $(date +%s.%N)"
	sleep 0.2
done ) > $SCRATCH/lasts &
watcher=$!
track_pid $watcher

sleep 3
before=$(rrd_last "$rrd")
echo 3600 > $OFF			# forward an hour
# the first row past the step, within 15 s: on a loaded machine (make
# check's suites beside it, issue 50's review) 4 s saw one more row of
# the old clock and none of the new
for _ in $(seq 30); do
	sleep 0.5
	fwd=$(rrd_last "$rrd")
	[ "$fwd" -ge $((before + 3500)) ] 2>/dev/null && break
done
ok "a step forward moves the stamps forward ($before -> $fwd)" test "$fwd" -ge $((before + 3500))
ok 'alive after the step forward' kill -0 $fg
ok 'status answers after the step forward' sh -c "$PERFLOG status | grep -qF '$dir'"

echo 0 > $OFF				# back an hour
sleep 1.5
back1=$(rrd_last "$rrd")
for _ in $(seq 30); do		# two rows more, within 15 s
	sleep 0.5
	back2=$(rrd_last "$rrd")
	[ "$back2" -ge $((back1 + 2)) ] 2>/dev/null && break
done
ok "after the step back, rows keep coming ($back1 -> $back2)" test "$back2" -ge $((back1 + 2))
ok "and never go back ($back2 >= $fwd)" test "$back2" -ge "$fwd"
ok 'alive after the step back' kill -0 $fg

echo -1800 > $OFF			# and back once more, below the start
for _ in $(seq 30); do		# a row more, within 15 s
	sleep 0.5
	back3=$(rrd_last "$rrd")
	[ "$back3" -gt "$back2" ] 2>/dev/null && break
done
ok "a step back below the log set's start: rows still come ($back2 -> $back3)" test "$back3" -gt "$back2"

kill $watcher; wait $watcher 2>/dev/null
dec=$(awk '$1 !~ /^[0-9]+$/ { next } n++ && $1 < prev { d++ } { prev = $1 } END { print d + 0 }' $SCRATCH/lasts)
bad=$(grep -cv '^[0-9][0-9]* ' $SCRATCH/lasts)
# Before, twice in about 40 runs of make check, one reading here failed
# or one update was refused: stock rrdtool and librrd both lock without
# waiting, so the watcher's read and the collector's update could meet.
# The collector now waits out a reader (logs/rrdlock.h, test_rrdlock,
# t7320-locks) and the watcher's rrdtool tries again (tests/bin/rrdtool).
# On failure, the readings and the refused update go to stderr.
evidence() {
	{ echo "# rrdtool last readings:"
	  awk '{ print "#   " $0 }' $SCRATCH/lasts | head -200
	  grep 'unable' $SCRATCH/fg.err | sed 's/^/#   /'; } >&2
}
ok "rrdtool last read the file every time ($bad failed readings)" test "$bad" = 0
ok "rrdtool last never decreased ($(wc -l < $SCRATCH/lasts) readings)" test "$dec" = 0
ok 'no update was refused by librrd' sh -c "! grep -q 'unable to update' $SCRATCH/fg.err"
[ "$bad" = 0 ] && [ "$dec" = 0 ] && ! grep -q 'unable to update' $SCRATCH/fg.err || evidence

kill -TERM $fg
wait $fg
is "$?" 0 'SIGTERM after the steps: exits 0'
ok 'stop line written' grep -q '^stop' "$dir/perflog.meta"
ok 'RRD files pass rrdtool info' rrds_ok "$dir"

# spacing: rows with values are one interval apart, apart from the one gap
# the step forward left (the hour nobody lived through stays unknown)
$PERFLOG export "$dir" --csv $SCRATCH/c.csv
tail -n +2 $SCRATCH/c.csv | awk -F, '{ for (i = 2; i <= NF; i++) if ($i != "") { print $1; break } }' |
	while read -r t; do date -u -d "$t" +%s; done > $SCRATCH/times
gaps=$(awk 'NR > 1 { d = $1 - prev; if (d != 1) print d } { prev = $1 }' $SCRATCH/times | tr '\n' ' ')
n=$(wc -l < $SCRATCH/times)
# (a loaded machine may make the collector skip a deadline: it says so on
# stderr and leaves a few seconds unknown, never a short or doubled row)
big=$(printf '%s\n' $gaps | awk '$1 >= 3500 && $1 <= 3700' | wc -l)
odd=$(printf '%s\n' $gaps | awk '$1 < 1 || ($1 > 10 && ($1 < 3500 || $1 > 3700))' | wc -l)
ok "rows whole seconds apart, one gap of about an hour (gaps other than 1: $gaps)" test "$big" = 1 -a "$odd" = 0
skips=$(grep -c 'skipped' $SCRATCH/fg.err)
small=$(printf '%s\n' $gaps | awk '$1 > 1 && $1 <= 10' | wc -l)
ok "short gaps only where the collector reported a skip ($small gaps, $skips reports)" test "$small" = 0 -o "$skips" -ge 1
ok "a row for (nearly) every second the collector ran ($n rows)" test "$n" -ge 10
done_testing
