#!/bin/bash
# A session begun while the disk is full (issue 50 item 2, beside t7100):
# the collector holds its begin, not in markers.tsv yet, and its end must
# find the session open all the same: the collector checks an end against
# the markers held as well as the file's (an end refused there, "no
# session is open", was lost for good; perflog run's end too, its own
# append failing on the full disk). They go to markers.tsv, in order,
# when space returns, and the report has the sessions closed.
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
# perflog run's end went the same way: refused, then its own append
# failed on the full disk, "end marker: ...", exit 1
$PERFLOG run -o $FULL -l job -- sleep 0.5 >$SCRATCH/run.out 2>&1; st=$?
is "$st" 0 'perflog run on the full disk: its end marker taken (held)'
sed 's/^/# run: /' $SCRATCH/run.out
ok 'markers.tsv is still empty' test ! -s "$dir/markers.tsv"

rm -f $FULL/filler.*
wait_for 6 grep -qP '\tend\tjob\t' "$dir/markers.tsv"
is "$(cut -f2-4 "$dir/markers.tsv" | tr '\t\n' '|;')" 'begin|full|begun while full;end|full|ended while full;begin|job|sleep 0.5;end|job|exit 0;' \
	'space back: the begins and ends written, in order'
ok 'stop' $PERFLOG stop "$dir"
wait $fg
$PERFLOG report "$dir" >$SCRATCH/report.txt 2>&1
ok 'the report has session full closed' grep -qx 'Session full' $SCRATCH/report.txt
ok '... and job' grep -qx 'Session job' $SCRATCH/report.txt
done_testing
