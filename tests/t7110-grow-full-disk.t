#!/bin/bash
# A full disk during growth (issue 14): the log directory is a small tmpfs
# of our own, filled just before the files' first growth step (first span
# 12 s at 1 s, $PERFLOG_TEST_FIRST_SPAN). The step fails: every file stays
# the old one, whole and readable; the collector says so once, keeps
# sampling, and holds the rows its files are too small for. When space
# returns the step is tried again, succeeds, the collector says it works
# again, and the held rows go in: no gap.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"
[ "$(id -u)" = 0 ] || skip_all "needs root (mount tmpfs)"
FULL=$SCRATCH/full
mkdir -p $FULL
mount -t tmpfs -o size=4m,mode=0755 perflog-full $FULL 2>/dev/null || skip_all "cannot mount a tmpfs here"
_umount() { umount_scratch $FULL; }
trap 'for p in $_pids; do kill -9 $p 2>/dev/null; done; sleep 0.3; _umount; _cleanup' EXIT
cat > $SCRATCH/s.pml <<'PML'
[log]
interval = 1
[counters]
\Memory\*
\System\*
\Processor(_Total)\*
PML
fill() {
	i=0
	while dd if=/dev/zero of=$FULL/filler.$i bs=64k count=16 2>/dev/null; do i=$((i + 1)); done
	dd if=/dev/zero of=$FULL/filler.small bs=1k 2>/dev/null
	return 0
}
rows0() { rrdtool info "$1" | awk '/^rra\[0\].rows/ { print $3 }'; }

PERFLOG_TEST_FIRST_SPAN=12 $PERFLOG start -f -c $SCRATCH/s.pml -o $FULL > $SCRATCH/fg.out 2> $SCRATCH/fg.err &
fg=$!
track_pid $fg
wait_for 15 test -s $SCRATCH/fg.out || { echo "# did not start"; cat $SCRATCH/fg.err; }
dir=$(head -1 $SCRATCH/fg.out)
ok 'collector started on the small tmpfs' test -f "$dir/System.rrd"
is "$(rows0 $dir/System.rrd)" 12 'its files are sized for 12 s'
start=$(date -u -d "$(awk -F'\t' '$1 == "start" { print $2 }' $dir/perflog.meta)" +%s)
# fill the disk before the first growth step (due at 9 s)
while [ $(($(date +%s) - start)) -lt 5 ]; do sleep 0.2; done
fill
is "$(df -k --output=avail $FULL | tail -1 | tr -d ' ')" 0 'the disk is full'
while [ $(($(date +%s) - start)) -lt 14 ]; do sleep 0.2; done
ok 'collector still running' kill -0 $fg
is "$(rows0 $dir/System.rrd)" 12 'the growth failed: the old file is kept'
ok 'every RRD file passes rrdtool info' rrds_ok "$dir"
is "$(ls -A "$dir" | grep -c '^\.grow')" 0 'no work directory left behind'
msgs=$(grep -c 'No space left' $SCRATCH/fg.err); sed 's/^/# stderr: /' $SCRATCH/fg.err
ok "the collector said so ($msgs line(s))" test "$msgs" -ge 1
ok 'once, not every second' test "$msgs" -le 2
ok 'the set exports meanwhile' $PERFLOG export "$dir" --csv $SCRATCH/mid.csv

rm -f $FULL/filler.*
wait_for 12 sh -c "[ \"\$(rrdtool info $dir/System.rrd | awk '/^rra\\[0\\].rows/ { print \$3 }')\" -gt 12 ]"
ok "space back: the file grew ($(rows0 $dir/System.rrd) rows)" test "$(rows0 $dir/System.rrd)" -gt 12
wait_for 5 grep -q 'works again' $SCRATCH/fg.err
ok 'the collector said it works again' grep -q 'works again' $SCRATCH/fg.err
sleep 2
ok 'stop' $PERFLOG stop "$dir"
wait $fg
$PERFLOG export "$dir" --csv $SCRATCH/end.csv
empty=$(tail -n +2 $SCRATCH/end.csv | grep -c ',,\|,$')
n=$(($(wc -l < $SCRATCH/end.csv) - 1))
ok "no gap: $n rows, every one with values ($empty without)" test "$empty" = 0 -a "$n" -ge 17
done_testing
