#!/bin/bash
# A session begun while the disk is full (issue 50 item 2, beside t7100):
# the collector holds its begin, not in markers.tsv yet, and its end must
# find the session open all the same: the collector checks an end against
# the markers held as well as the file's (an end refused there, "no
# session is open", was lost for good). Both go to markers.tsv, in order,
# when space returns, and the report has the session closed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"
[ "$(id -u)" = 0 ] || skip_all "needs root (mount tmpfs)"
FULL=$SCRATCH/full
mkdir -p $FULL
mount -t tmpfs -o size=8m,mode=0755 perflog-full-$$ $FULL 2>/dev/null || skip_all "cannot mount a tmpfs here"
trap 'stop_pids $_pids; umount_scratch $FULL; _cleanup' EXIT
fill() {
	i=0
	while dd if=/dev/zero of=$FULL/filler.$i bs=64k count=64 2>/dev/null; do i=$((i + 1)); done
	dd if=/dev/zero of=$FULL/filler.small bs=1k 2>/dev/null
	return 0
}

$PERFLOG start -f -o $FULL -i 1 >$SCRATCH/fg.out 2>$SCRATCH/fg.err &
fg=$!
track_pid $fg
wait_for 15 test -s $SCRATCH/fg.out
dir=$(head -n 1 $SCRATCH/fg.out)
ok 'collector started on the small tmpfs' test -f "$dir/perflog.meta"
fill
is "$(df -k --output=avail $FULL | tail -n 1 | tr -d ' ')" 0 'the disk is full'

out=$($PERFLOG mark -d "$dir" --begin -s full 'begun while full' 2>&1); st=$?
like "$st:$out" "^0:perflog mark: .*No space left on device: held, written when it can be\$" 'the begin is held'
out=$($PERFLOG mark --end -s full 'ended while full' 2>&1); st=$?
like "$st:$out" "^0:perflog mark: .*No space left on device: held, written when it can be\$" 'its end finds the held begin open: held too, not refused'
out=$($PERFLOG mark --end -s ful 'typo' 2>&1); st=$?
like "$st:$out" "^1:perflog mark: no session 'ful' is open in .* \\(none is open\\)\$" 'a typo is still refused (the held end closed full)'
ok 'markers.tsv is still empty' test ! -s "$dir/markers.tsv"

rm -f $FULL/filler.*
wait_for 6 grep -q 'ended while full' "$dir/markers.tsv"
is "$(cut -f2-4 "$dir/markers.tsv" | tr '\t\n' '|;')" 'begin|full|begun while full;end|full|ended while full;' \
	'space back: begin and end written, in order'
ok 'stop' $PERFLOG stop "$dir"
wait $fg
$PERFLOG report "$dir" >$SCRATCH/report.txt 2>&1
ok 'the report has session full closed' grep -qx 'Session full' $SCRATCH/report.txt
done_testing
