#!/bin/bash
# The collector's life cycle and its bad input: start, status, stop, the
# log set on disk, and every way to call it wrong (one-line errors naming
# the argument or file:line, non-zero exit, nothing logged touched).
. "$(dirname "$0")/lib.sh"
LOGS=$SCRATCH/logs

err_is 'interval 0' "-i: interval '0' must be at least 1 second" $PERFLOG start -i 0 -o $LOGS
err_is 'negative interval' "must be at least 1" $PERFLOG start -i -3 -o $LOGS
err_is 'interval not a number' "not a whole number" $PERFLOG start -i five -o $LOGS
err_is 'interval under 1 s' "not a whole number" $PERFLOG start -i 0.5 -o $LOGS
err_is 'unreadable settings' "unable to read settings '$SCRATCH/none.pml'" $PERFLOG start -c $SCRATCH/none.pml
printf '[counters]\n\\Processor(*)\\%% Processor Time\n\\Memory\\Bogus Bytes\n' > $SCRATCH/bad.pml
err_is 'unknown counter names file:line' "$SCRATCH/bad.pml:3:" $PERFLOG start -c $SCRATCH/bad.pml
err_is 'counters -c validates too' "$SCRATCH/bad.pml:3:" $PERFLOG counters -c $SCRATCH/bad.pml
mkdir -p $SCRATCH/ro && chmod 0555 $SCRATCH/ro
if [ "$(id -u)" = 0 ]; then
	# root writes anywhere: make the parent a file instead
	touch $SCRATCH/afile
	err_is 'unwritable log directory' "$SCRATCH/afile" $PERFLOG start -o $SCRATCH/afile/logs -i 1
else
	err_is 'unwritable log directory' "$SCRATCH/ro" $PERFLOG start -o $SCRATCH/ro/logs -i 1
fi
err_is 'stop with none running' "no collector is running" $PERFLOG stop
err_is 'unknown option' "" $PERFLOG start --bogus
ok 'status with none running' $PERFLOG status
ok 'counters lists this host' sh -c "$PERFLOG counters | grep -q 'Processor: _Total 0'"
ok 'the sample settings validate' $PERFLOG counters -c $TOP/perftest.pml.sample
ok 'every command has --help' sh -c "for c in start stop status counters export; do $PERFLOG \$c --help >/dev/null || exit 1; done"

# start: returns once the set exists and the collector answers, prints it
t0=$(date +%s.%N)
dir=$($PERFLOG start -o $LOGS -i 1)
st=$?
t1=$(date +%s.%N)
is "$st" 0 'start exits 0'
like "$dir" "^$LOGS/[^/]+-[0-9]{8}T[0-9]{6}\$" 'start prints LOGS/HOST-YYYYmmddTHHMMSS'
ok 'metadata written' test -s "$dir/perflog.meta"
ok 'markers.tsv exists and is empty' test -f "$dir/markers.tsv" -a ! -s "$dir/markers.tsv"
ok 'RRD files created' sh -c "ls $dir/Processor-_Total.rrd $dir/Memory.rrd >/dev/null"
ok 'start returned within ~3 s (before the first sample)' awk -v a=$t0 -v b=$t1 'BEGIN { exit !(b - a < 3.5) }'
ok 'status lists the collector' sh -c "$PERFLOG status | grep -qF '$dir'"

# a second collector on the same log set is refused (a set directory is
# never reused, in use or not: logs/setdir.h)
printf '[log]\nname = %s\n' "$(basename $dir)" > $SCRATCH/same.pml
err_is 'second collector on the same log set' "already exists" $PERFLOG start -c $SCRATCH/same.pml -o $LOGS -i 1

sleep 3
ok 'stop by directory' $PERFLOG stop "$dir"
ok 'no collector left' sh -c "$PERFLOG status | grep -q 'no collector is running'"
ok 'stop time recorded' grep -q '^stop	' "$dir/perflog.meta"
for f in "$dir"/*.rrd; do
	rrdtool info "$f" >/dev/null 2>&1 || echo "bad $f"
done > $SCRATCH/bad
ok 'every RRD file passes rrdtool info' test ! -s $SCRATCH/bad
ok 'step = interval' sh -c "rrdtool info $dir/Memory.rrd | grep -q '^step = 1\$'"
rows=$($PERFLOG export "$dir" --csv - | tail -n +2 | wc -l)
ok "export has a row per second (got $rows)" test "$rows" -ge 3 -a "$rows" -le 6

# SIGTERM closes the log set cleanly too; -f stays in the foreground
$PERFLOG start -f -o $LOGS -i 1 > $SCRATCH/fg.out &
fg=$!
track_pid $fg
wait_for 10 test -s $SCRATCH/fg.out
dir2=$(head -1 $SCRATCH/fg.out)
ok '-f prints the log set path once the set exists' test -f "$dir2/perflog.meta"
sleep 1.5
kill -TERM $fg
wait $fg
is "$?" 0 'SIGTERM: the foreground collector exits 0'
ok 'SIGTERM records the stop time' grep -q '^stop	' "$dir2/perflog.meta"

# the control socket is private
rt=$PERFLOG_RUNTIME_DIR
ok 'runtime directory is 0700' test "$(stat -c %a $rt)" = 700
d1=$($PERFLOG start -o $LOGS -i 1)
sock=$(ls $rt/*.sock | head -1)
ok 'control socket is 0600' test "$(stat -c %a $sock)" = 600
# a second start -o on the same directory starts, but says which collector
# already logs there (issue 32: it was silent)
sleep 1	# (a set's name is its second)
d2=$($PERFLOG start -o $LOGS -i 1 2>$SCRATCH/second.err)
like "$(cat $SCRATCH/second.err)" "^perflog start: warning: collector [0-9]+ is already logging under '$LOGS' \(to $d1\): this starts a second one beside it\$" 'a second start -o on one directory warns, naming the collector'
$PERFLOG stop "$d2" >/dev/null
ok 'stop the only one without naming it' $PERFLOG stop

# the portable backend: libstatgrab gives what it has, the rest is unknown
sg=$(PERFLOG_SOURCE=statgrab $PERFLOG start -f -o $LOGS -i 1 --samples 3)
ok 'libstatgrab source logs' test -f "$sg/perflog.meta"
$PERFLOG export "$sg" --csv $SCRATCH/sg.csv
c=$(csv_col $SCRATCH/sg.csv 'Processor(_Total)\% Processor Time')
ok 'libstatgrab: processor time logged, 0..100' awk -F, -v c=$c 'NR > 1 { n++; if ($c == "" || $c < 0 || $c > 100) bad = 1 } END { exit bad || n < 2 }' $SCRATCH/sg.csv
c=$(csv_col $SCRATCH/sg.csv 'LogicalDisk(_Total)\% Disk Time')
ok 'libstatgrab: disk busy time is not available (empty cells)' awk -F, -v c=$c 'NR > 1 && $c != "" { bad = 1 } END { exit bad }' $SCRATCH/sg.csv
done_testing
