#!/bin/bash
# Scale, the small version of bench/scale.sh: 100 veth pairs (200
# interfaces) in a network namespace of this test's own, the collector
# (run inside it) at 1 s for 9 samples. Every interface must get its RRD
# file and its counter map entry, and no file may have a gap (an unknown
# row between its first and its last known row): new devices join over a
# few intervals without stalling the ones already logged.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip_all "needs root (network namespaces)"
command -v ip >/dev/null || skip_all "no ip command"
command -v rrdtool >/dev/null || skip_all "rrdtool not installed"
NS=plscale$$
netns_add $NS	# deleted at exit with every veth in it
PAIRS=100
unset PERFLOG_BATCH	# the default, batched writes
for i in $(seq $PAIRS); do
	echo "link add sa$i type veth peer name sb$i"
done > $SCRATCH/links
ip -n $NS -batch $SCRATCH/links || skip_all "cannot create veth pairs"
plan 6
n=$(ip netns exec $NS sh -c 'ls /sys/class/net | grep -c "^s[ab][0-9]"')
is "$n" $((2 * PAIRS)) "$((2 * PAIRS)) veth interfaces in the namespace"

# one counter an interface keeps the files small (the consolidated
# archives make each data source about 1.2 MB whatever the retention)
cat > $SCRATCH/scale.pml <<'PML'
[log]
interval = 1
retention = 1m
name = scale
[counters]
\Network Interface(*)\Bytes Total/sec
PML
# at nice -10: the suite runs beside the others (testrules.yml), and what
# it judges is whether the collector keeps its own schedule while 200
# interfaces join, not whether the neighbours leave it a CPU (once in a
# make check its collector skipped a sample while t9400's package build,
# t5200, t6100 and t6110 ran beside it)
ip netns exec $NS nice -n -10 $PERFLOG start -f -c $SCRATCH/scale.pml -o $SCRATCH/logs \
	--samples 9 >$SCRATCH/out 2>$SCRATCH/err &
pid=$!; track_pid $pid
wait $pid
is "$?" 0 'collector ran 9 samples and stopped'
dir=$SCRATCH/logs/scale

files=$(ls $dir | grep -c '^NetworkInterface-s[ab][0-9]*\.rrd$')
is "$files" $((2 * PAIRS)) 'every interface has its RRD file'
mapped=$(grep -c '^counter.*Network Interface(s[ab][0-9]*)' $dir/perflog.meta)
is "$mapped" $((2 * PAIRS)) 'every interface is in the counter map'

# gaps: unknown rows between the first and the last known row of a file,
# over one window fixed before the loop: 200 fetches beside a make
# check's load took long enough that a window of "the last 50 s" from
# each fetch's own now had left the samples behind by the later files
# (sa85 ... sa93: no known row, "(0 0)", in two loaded checks of stop 54)
now=$(date +%s)
gaps=""
for f in $dir/NetworkInterface-*.rrd; do
	g=$(rrdtool fetch $f AVERAGE -r 1 -s $((now - 50)) -e $now | awk -F': ' '/^[0-9]+:/ {
		if ($2 ~ /nan/) { if (seen) pend++ } else { seen++; holes += pend; pend = 0 } }
		END { print seen + 0, holes + 0 }')
	case $g in "0 "*|*" "[1-9]*) gaps="$gaps $(basename $f)($g)" ;; esac
done
is "$(echo $gaps | cut -c1-300)" "" 'every file has known rows and no gap between its first and last'
ok 'no sample fell behind' sh -c "! grep -q 'fell behind' $SCRATCH/err"
