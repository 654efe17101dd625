#!/bin/bash
# Readers and the writer of a live log set (logs/rrdlock.h). librrd 1.7
# takes its file locks without waiting: before, an update that met a
# reader's lock failed ("unable to update ... could not lock RRD" from the
# collector, seen in t7300 when its `rrdtool last` watcher met an update)
# and `perflog report` or `export` on a live set failed outright when it
# met an update. Here build/tools/rrdlocker takes librrd's locks from
# another process:
#   - shared locks on every file, 40 ms of every 100 (a busy reader, a
#     viewer refreshing) while the collector samples every second: no
#     update refused, a row for every second;
#   - an exclusive lock on Memory.rrd, 300 ms of every 400 (a slow
#     update): report, export --csv and export --png of the live set all
#     succeed;
#   - a shared lock held for good on Memory.rrd (anyone who can read the
#     file can): the collector says why once, keeps sampling on time, and
#     once the lock is gone writes every row it held.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"
LOCKER=$TOP/build/tools/rrdlocker
[ -x "$LOCKER" ] || skip_all "build/tools/rrdlocker not built (make check builds it)"
LOGS=$SCRATCH/logs

start_fg $PERFLOG start -f -o $LOGS -i 1
ok 'collector started' test -f "$dir/Memory.rrd"
sleep 1.5

# readers' shared locks on every file, 40 ms in 100, for 6 s
$LOCKER 40 60 6 "$dir"/*.rrd > $SCRATCH/readers.out &
readers=$!
track_pid $readers
wait $readers
ok "the readers held their locks ($(tail -1 $SCRATCH/readers.out))" grep -q rounds $SCRATCH/readers.out
refused=$(grep -c 'unable to update' $SCRATCH/fg.err)
is "$refused" 0 'no update refused while readers held their locks'
[ "$refused" = 0 ] || sed 's/^/#   /' $SCRATCH/fg.err >&2

# a slow update's exclusive lock, 300 ms in 400: the commands that read
# a live set wait it out
$LOCKER -x 300 100 0 "$dir/Memory.rrd" > $SCRATCH/update.out &
update=$!
track_pid $update
wait_for 5 grep -q locked $SCRATCH/update.out
fails=0
for i in 1 2 3; do
	$PERFLOG report -v "$dir" > $SCRATCH/report.out 2> $SCRATCH/report.err || fails=$((fails + 1))
	$PERFLOG export "$dir" --csv $SCRATCH/c$i.csv 2> $SCRATCH/csv.err || fails=$((fails + 1))
done
is "$fails" 0 'report and export --csv of the live set, 3 times each, while an update holds a file'
[ "$fails" = 0 ] || cat $SCRATCH/report.err $SCRATCH/csv.err | sed 's/^/#   /' >&2
ok 'export --png too' $PERFLOG export "$dir" --png $SCRATCH/png
ok '... and the memory chart is a PNG' sh -c "head -c 8 $SCRATCH/png/memory.png | od -c | grep -q 'P   N   G'"
stop_pids $update

# a reader that never lets go of Memory.rrd (one round of 10 minutes)
$LOCKER 600000 0 0 "$dir/Memory.rrd" > $SCRATCH/stuck.out &
stuck=$!
track_pid $stuck
wait_for 5 grep -q locked $SCRATCH/stuck.out
before=$(rrd_last "$dir/Memory.rrd")
sleep 4
held=$(rrd_last "$dir/Memory.rrd")
ok "a lock held for good: Memory.rrd waits ($before -> $held)" test "$held" = "$before"
ok 'the collector says why' grep -q 'could not lock RRD' $SCRATCH/fg.err
ok 'and keeps sampling the other files' test "$(rrd_last "$dir/System.rrd")" -ge $((held + 2))
stop_pids $stuck
sleep 2.5
after=$(rrd_last "$dir/Memory.rrd")
ok "the lock gone: the held rows are written ($held -> $after)" test "$after" -ge $((held + 4))
ok 'the collector says it recovered' grep -q 'works again' $SCRATCH/fg.err

kill -TERM $fg
wait $fg
is "$?" 0 'the collector exits 0'
$PERFLOG export "$dir" --csv $SCRATCH/all.csv
mem=$(csv_col $SCRATCH/all.csv 'Memory\Available Bytes')
gaps=$(tail -n +2 $SCRATCH/all.csv | awk -F, -v m="$mem" '
	$m != "" { if (seen && prev_unknown) g++; seen = 1; prev_unknown = 0; next }
	seen { prev_unknown = 1 }
	END { print g + 0 }')
is "$gaps" 0 'Memory has a row for every second from its first to its last: nothing lost'
done_testing
