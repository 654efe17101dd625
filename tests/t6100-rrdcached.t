#!/bin/bash
# The rrdcached write path end to end: a real rrdcached on a unix socket
# under the scratch dir (-w 3600: it would hold every row for an hour), a
# collector with `[log] rrdcached = unix:...`, then `perflog stop`. While
# logging, the files on disk lag behind (the rows sit in the daemon: proof
# the updates go through it); once stop returns, `rrdtool fetch` reading
# the files directly (no daemon) sees every sample from start to stop.
. "$(dirname "$0")/lib.sh"
command -v rrdcached >/dev/null || skip_all "rrdcached not installed"
command -v rrdtool >/dev/null || skip_all "rrdtool not installed"
unset RRDCACHED_ADDRESS
SOCK=$SCRATCH/rrdcached.sock
LOGS=$SCRATCH/logs
mkdir -p $LOGS
rrdcached -g -l unix:$SOCK -b $SCRATCH -B -w 3600 -f 7200 \
	-p $SCRATCH/rrdcached.pid >$SCRATCH/rrdcached.out 2>&1 &
track_pid $!
plan 9
ok 'rrdcached listening' wait_for 10 test -S $SOCK

cat > $SCRATCH/cached.pml <<PML
[log]
interval = 1
retention = 1h
rrdcached = unix:$SOCK
[counters]
\Processor(*)\*
\Memory\*
\System\*
PML
# a batch of 2 rows: several batches go to the daemon within the run
export PERFLOG_BATCH=2
dir=$($PERFLOG start -c $SCRATCH/cached.pml -o $LOGS)
like "$dir" "^$LOGS/" 'collector started through rrdcached'
sleep 7
# on disk: only what the daemon was made to write (creation, the first
# sample's flush); the later rows are in the daemon
disk_last=$(rrdtool last $dir/System.rrd)
sent_last=$($PERFLOG status | awk -v d="$dir" '$6 == d { print $4 }')
sent_epoch=$(date -u -d "$sent_last" +%s 2>/dev/null || echo 0)
diag "on disk up to $disk_last, sent up to $sent_epoch"
ok 'rows held by rrdcached while logging (files on disk lag)' test "$disk_last" -lt $((sent_epoch - 2))

t0=$(date +%s.%N)
ok 'perflog stop returns' $PERFLOG stop $dir
t1=$(date +%s.%N)
ok 'stop returned within 10 s' awk -v a=$t0 -v b=$t1 'BEGIN { exit !(b - a < 10) }'

start=$(date -u -d "$(awk -F'\t' '$1 == "start" { print $2 }' $dir/perflog.meta)" +%s)
stop=$(date -u -d "$(awk -F'\t' '$1 == "stop" { print $2 }' $dir/perflog.meta)" +%s)
want=$((stop - start))
ok 'the stop time is recorded' test "$want" -ge 6

# direct reads: every file's last update is the stop time, and every row
# from start to stop holds values (no unknowns)
bad=""
for f in $dir/*.rrd; do
	[ "$(rrdtool last $f)" = "$stop" ] || bad="$bad $(basename $f):last=$(rrdtool last $f)"
done
is "$bad" "" "every file on disk ends at the stop time ($stop)"

rows() { # FILE -> "known unknown" rows ending in (start+1, stop]
	rrdtool fetch "$1" AVERAGE -r 1 -s $((start + 1)) -e $stop |
	awk -v s=$start -v e=$stop -F': ' '/^[0-9]+:/ { t = $1 + 0
		if (t <= s + 1 || t > e) next
		if ($2 ~ /nan/) u++; else k++ } END { print k + 0, u + 0 }'
}
got=$(rows $dir/System.rrd)
is "$got" "$((want - 1)) 0" "System.rrd: every sample after the first on disk, no unknowns"
got=$(rows $dir/Processor-_Total.rrd)
is "$got" "$((want - 1)) 0" "Processor-_Total.rrd: the same"
