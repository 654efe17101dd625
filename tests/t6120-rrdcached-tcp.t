#!/bin/bash
# rrdcached over TCP from another host (issue 50, item 10). The daemon's
# host is a network namespace of our own with its own mount namespace:
# rrdcached and perflog receive listen on the veth address there, both
# with -b $BASE, a private tmpfs that only that namespace has (from here
# $BASE is an empty directory). The collector, here, logs to $HERE with
# `rrdcached = ADDR:PORT`. Before the fix it failed at once ("absolute
# path names not allowed when talking to a remote daemon") and made its
# RRD files itself. Now the daemon creates them ("rrdcreate request" in
# its log, under its own base directory) and every row goes through it
# (with -w 3600 the files on disk lag while logging); the set's other
# files (perflog.meta, markers.tsv, collector.log, and a perflog run's
# waits, edges and output files) go to perflog receive; after stop,
# report and export run inside the daemon's namespace on $BASE/SET find
# the set whole: the run's session, its wait states, and every row the
# collector sampled, an outage of the daemon's host included (its link
# down for 8 s: the collector samples on, holds the rows and sends them
# and the files once it is back; before, librrd's client waited in its
# request with no end). A perflog receive whose directory is not the
# daemon's fails the start with one line saying so. t6130 has the
# collector on the second host instead, and a kill -9.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-cached.sh"
cached_need
BASE=$SCRATCH/base	# the daemon's -b: a tmpfs in its namespace only
HERE=$SCRATCH/here	# the collector's log directory
mkdir -p $BASE $HERE
ADDR=$PEER_ADDR:42217
# exec all the way: $! is rrdcached's pid (ip netns exec and unshare
# without -f exec too); its private mount goes with it
ip netns exec $PEER_NS unshare -m --propagation private sh -c '
	mount -t tmpfs tmpfs "$1" &&
	exec rrdcached -g -l "$2" -b "$1" -B -w 3600 -f 7200 -V LOG_INFO \
		-o "$3" -p "$4"' sh $BASE $ADDR $SCRATCH/rrdcached.log \
	$SCRATCH/rrdcached.pid > $SCRATCH/rrdcached.out 2>&1 &
RRDC=$!
track_pid $RRDC
there() { nsenter -t $RRDC -m -n "$@"; }	# a command on the daemon's host
plan 23
ok 'rrdcached listening on the second host' \
	wait_for 10 bash -c "exec 3<>/dev/tcp/$PEER_ADDR/42217"
wait_for 10 test -e /proc/$RRDC
there touch $BASE/the-daemons-directory
is "$(ls -A $BASE)" "" 'its base directory is not this host'"'"'s to see'

cached_pml $SCRATCH/tcp.pml $ADDR
# perflog receive writing where the daemon does not read
there mkdir $BASE/elsewhere
nsenter -t $RRDC -m -n $PERFLOG receive -l $PEER_ADDR -b $BASE/elsewhere \
	> /dev/null 2> $SCRATCH/receive1.err &
WRONG=$!
track_pid $WRONG
ok 'perflog receive listening on the second host' \
	wait_for 10 bash -c "exec 3<>/dev/tcp/$PEER_ADDR/42218"
err=$($PERFLOG start -c $SCRATCH/tcp.pml -o $HERE 2>&1 >/dev/null); st=$?
diag "$err"
ok "a perflog receive whose directory is not the daemon's fails the start" test $st != 0
like "$err" "does not see the log set's directory that perflog receive made.*-b the daemon's -b directory" \
	'in one line that says why'
is "$(there ls -A $BASE $BASE/elsewhere | tr '\n' ' ')" \
	"$BASE: elsewhere the-daemons-directory  $BASE/elsewhere: " \
	'and leaves nothing on the daemon'"'"'s host'
kill $WRONG
wait $WRONG 2>/dev/null
nsenter -t $RRDC -m -n $PERFLOG receive -l $PEER_ADDR -b $BASE \
	> /dev/null 2> $SCRATCH/receive.err &
track_pid $!
ok 'perflog receive again, with the daemon'"'"'s directory' \
	wait_for 10 bash -c "exec 3<>/dev/tcp/$PEER_ADDR/42218"

dir=$($PERFLOG start -c $SCRATCH/tcp.pml -o $HERE 2>$SCRATCH/start.err)
like "$dir" "^$HERE/" "collector started through rrdcached over TCP ($(cat $SCRATCH/start.err))"
set=$(basename "$dir")
sleep 1
# a session with a watched command: its markers, wait states, edges and
# output files beside the RRD files, and its Process(tcp) file
$PERFLOG run -o "$dir" -l tcp -- sh -c 'head -c 200000000 /dev/zero | gzip -1 | wc -c; sleep 3' \
	> $SCRATCH/run.out 2>&1
is "$?" 0 "perflog run joins the set ($(tail -1 $SCRATCH/run.out))"
# the daemon's host stops answering (its link down: no refusal, no
# reset): librrd alone would wait minutes in a request and in each
# connect, the sampler with it; the collector goes on sampling, holds the
# rows, and sends them when the link is back
ip -n $PEER_NS link set dev plv$$b down
sleep 8
now=$(date +%s)
last=$(timeout 30 $PERFLOG status | awk -v d="$dir" '$6 == d { print $4 }')
age=$((now - $(date -u -d "$last" +%s 2>/dev/null || echo 0)))
ip -n $PEER_NS link set dev plv$$b up
ok "the collector samples on while the daemon's host does not answer ($age s behind)" \
	test "$age" -lt 6
wait_for 20 grep -q 'works again' $dir/collector.log
ok 'and writes again when it is back' grep -q 'works again' $dir/collector.log
sed 's/^/# collector.log: /' $dir/collector.log
sleep 1
disk_last=$(there rrdtool last $BASE/$set/System.rrd)
sent_last=$($PERFLOG status | awk -v d="$dir" '$6 == d { print $4 }')
sent_epoch=$(date -u -d "$sent_last" +%s 2>/dev/null || echo 0)
diag "on disk up to $disk_last, sent up to $sent_epoch"
ok 'rows go through the daemon (the files on disk lag)' \
	test "$disk_last" -lt $((sent_epoch - 2))
ok 'perflog stop returns 0' $PERFLOG stop "$dir"
ok "collector.log there too, the outage's lines in it" \
	there grep -q 'works again' $BASE/$set/collector.log

cached_set_whole there "$set"
