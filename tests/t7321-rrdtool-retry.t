#!/bin/bash
# tests/bin/rrdtool, the suites' stock rrdtool that tries again while a
# file is locked (librrd 1.7 locks without waiting): a try that met the
# lock must print nothing. `rrdtool last` prints "-1" on stdout beside
# "ERROR: could not lock RRD" on stderr, and the wrapper let the -1
# through before the real answer: t7300's watcher (`rrdtool last | head
# -n 1`) read -1 in 1 run of 7 and failed "rrdtool last read the file
# every time".
. "$(dirname "$0")/lib.sh"
RRDLOCKER=$TOP/build/tools/rrdlocker
f=$SCRATCH/x.rrd
rrdtool create "$f" --start 1000000000 --step 1 DS:a:GAUGE:2:U:U RRA:AVERAGE:0.5:1:10
rrdtool update "$f" 1000000001:5

# the lock held 0.4 s at a time with 20 ms gaps, for 1.5 s
lock() {
	$RRDLOCKER -x 400 20 1.5 "$f" > "$SCRATCH/locker" 2>&1 &
	lp=$!; track_pid $lp
	wait_for 5 grep -q locked "$SCRATCH/locker"
}
lock
out=$(rrdtool last "$f" 2>"$SCRATCH/err"); rc=$?
wait $lp
is "$rc" 0 'last, the file locked: exits 0 once it gets in'
is "$out" 1000000001 'last, the file locked: prints its answer alone (not a -1 first)'
is "$(cat "$SCRATCH/err")" '' 'and nothing on stderr'

lock
out=$(rrdtool lastupdate "$f" 2>/dev/null); rc=$?
wait $lp
is "$rc" 0 'lastupdate, the file locked: exits 0'
is "$out" "$(printf ' a\n\n1000000001: 5')" 'lastupdate: its answer as rrdtool prints it, blank line kept'

out=$(rrdtool last "$SCRATCH/none.rrd" 2>"$SCRATCH/err"); rc=$?
ok 'last of a missing file: fails' test "$rc" != 0
is "$out" -1 'and prints -1 on stdout, as rrdtool does'
ok 'its error on stderr' grep -q '^ERROR:' "$SCRATCH/err"
done_testing
