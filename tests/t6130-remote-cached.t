#!/bin/bash
# rrdcached over TCP from a host that does not share the daemon's
# directory (issue 50, item 10). The daemon's host is this one: rrdcached
# (-b $BASE -B) and perflog receive (-b $BASE) listen on the veth address
# here. The collector's host is a network namespace of our own with its
# own mount namespace: a private tmpfs over $BASE (there it is an empty
# directory of another file system) and another over its log directory
# $HERE, so nothing it writes reaches this host but through the network.
# Before: the start failed (the daemon did not see the set's directory,
# or, before that, "absolute path names not allowed when talking to a
# remote daemon"). Now the daemon creates and writes the RRD files under
# its base directory as SET/FILE.rrd and perflog receive takes the set's
# other files (perflog.meta, markers.tsv, collector.log, the journal, the
# waits and edges files of a perflog run) as they change: after the
# collector stops, perflog report and export here open $BASE/SET whole,
# its session, wait states and every row sampled; after a kill -9, the
# rows up to the kill (the journal's replay). A start with no perflog
# receive to answer fails in one line and leaves nothing here.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-cached.sh"
cached_need
BASE=$SCRATCH/base	# the daemon's -b, and perflog receive's
HERE=$SCRATCH/here	# the collector's log directory, on its own tmpfs
mkdir -p $BASE $HERE
touch $BASE/the-daemons-directory
HOST_ADDR=${PEER_ADDR%.2}.1
# not the default port (t6120 has it): the collector looks for perflog
# receive at the daemon's port plus one
ADDR=$HOST_ADDR:42317
rrdcached -g -l $ADDR -b $BASE -B -w 3600 -f 7200 -V LOG_INFO \
	-o $SCRATCH/rrdcached.log -p $SCRATCH/rrdcached.pid \
	> $SCRATCH/rrdcached.out 2>&1 &
track_pid $!

cached_pml $SCRATCH/tcp.pml $ADDR
# a command on the second host: ip netns exec and unshare without -f
# exec, and so does sh, so a foreground collector's pid is $!; inside()
# runs a command there, in its network and mount namespaces
SECOND=(ip netns exec $PEER_NS unshare -m --propagation private sh -c '
	mount -t tmpfs tmpfs "$1" && mount -t tmpfs tmpfs "$2" &&
	shift 2 && exec "$@"' sh $BASE $HERE)
inside() { nsenter -t $fg -m -n "$@"; }
plan 23
ok 'rrdcached listening' \
	wait_for 10 bash -c "exec 3<>/dev/tcp/$HOST_ADDR/42317"

err=$("${SECOND[@]}" $PERFLOG start -f -c $SCRATCH/tcp.pml -o $HERE 2>&1 >/dev/null); st=$?
diag "$err"
ok "without perflog receive on the daemon's host the start fails" test $st != 0
like "$err" "perflog receive at '$HOST_ADDR:42318'" 'in one line that says so, at the daemon'"'"'s port plus one'
is "$(ls -A $BASE)" "the-daemons-directory" "and leaves nothing in the daemon's directory"

$PERFLOG receive -l $HOST_ADDR:42318 -b $BASE > /dev/null 2> $SCRATCH/receive.err &
track_pid $!
ok 'perflog receive listening' \
	wait_for 10 bash -c "exec 3<>/dev/tcp/$HOST_ADDR/42318"

# a daemon (its stderr is collector.log), its pid from the run directory
dir=$("${SECOND[@]}" $PERFLOG start -c $SCRATCH/tcp.pml -o $HERE 2>$SCRATCH/start.err)
like "$dir" "^$HERE/" "the collector started on the second host ($(head -c 300 $SCRATCH/start.err))"
fg=$(basename "$(ls $PERFLOG_RUNTIME_DIR/*.info | head -1)" .info)
set=$(basename "$dir")
is "$(inside ls -A $BASE 2>&1)" "" "the daemon's directory is not the second host's to see"
sleep 1
# a session with a watched command: markers, wait states, edges and
# output files beside the RRD files, and its Process(tcp) file
inside $PERFLOG run -o "$dir" -l tcp -- sh -c 'head -c 100000000 /dev/zero | gzip -1 | wc -c; sleep 2' \
	> $SCRATCH/run.out 2>&1
is "$?" 0 "perflog run joins the set there ($(tail -1 $SCRATCH/run.out))"
inside $PERFLOG mark -d "$dir" 'a point marker' 
sleep 1
ok 'perflog stop there returns 0' inside $PERFLOG stop "$dir"

cached_set_whole env "$set"
ok 'and the point marker' grep -q 'a point marker' "$BASE/$set/markers.tsv"
if command -v tmux >/dev/null; then
	VSOCK=$SCRATCH/tmux.sock
	tmux -S $VSOCK new-session -d -x 100 -y 30 \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color '$PERFLOG' view '$BASE/$set'; echo EXIT=\$?; sleep 60"
	ok 'perflog view opens it there' \
		wait_for 10 sh -c "tmux -S '$VSOCK' capture-pane -p | grep -q 'CPU \[%\]'"
	like "$(tmux -S $VSOCK capture-pane -p)" '\[tcp' 'with its session'
	tmux -S $VSOCK kill-server
else
	skip 'no tmux: perflog view'
	skip 'no tmux: perflog view'
fi
ok "collector.log whole, to its cost line" grep -q 'cost per sample' "$BASE/$set/collector.log"

# kill -9: what the collector held (rows are sent to the daemon once a
# minute) is in the journal it sent, and the readers here replay it
PERFLOG_BATCH=60 start_fg "${SECOND[@]}" $PERFLOG start -f -c $SCRATCH/tcp.pml -o $HERE
set=$(basename "$dir")
sleep 6
kill -9 $fg
wait $fg 2>/dev/null
killed=$(date +%s)
$PERFLOG export "$BASE/$set" --csv - > $SCRATCH/killed.csv 2>$SCRATCH/killed.err
col=$(csv_col $SCRATCH/killed.csv 'System\Processes')
last=$(awk -F, -v c="$col" 'NR > 1 && $c != "" { t = $1 } END { print t }' $SCRATCH/killed.csv)
last_s=$(date -u -d "$last" +%s 2>/dev/null || echo 0)
diag "last known row $last ($((killed - last_s)) s before the kill; $(head -c 200 $SCRATCH/killed.err))"
ok "after a kill -9 the set here has the rows up to the kill" \
	test "$last_s" -ge $((killed - 4))
