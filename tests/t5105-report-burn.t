#!/bin/bash
# perflog report on a real log set: a core burnt inside a session, the
# busiest CPU's average within the kernel's own figures over the burn,
# and a CPU verdict. Apart from t5100 (crafted log sets) because it
# judges the CPU a burn got; it ran alone (testrules.yml) until it passed
# 3 runs of 3 beside stress-ng --cpu 2 --io 1: its bounds are the
# kernel's figures over the burn, which move with whatever else runs.
. "$(dirname "$0")/lib.sh"
LOADGEN=$TOP/build/tools/loadgen
[ -x "$LOADGEN" ] || skip_all "build/tools/loadgen not built (make check builds it)"

# a real log set: burn a core inside a session
dir=$("$PERFLOG" start -o $SCRATCH/real -i 1) || { echo "Bail out! start failed"; exit 1; }
sleep 1.2
printf '%s\tbegin\tburn\tburn\n' "$(date -u +%Y-%m-%dT%H:%M:%S.000Z)" >> $dir/markers.tsv
load_begin
own=$($LOADGEN burn 4)
load_end "$own"
printf '%s\tend\tburn\tdone\tstatus=0\n' "$(date -u +%Y-%m-%dT%H:%M:%S.000Z)" >> $dir/markers.tsv
sleep 1.5
"$PERFLOG" stop "$dir" > /dev/null
out=$("$PERFLOG" report -v $dir)
like "$out" 'Session burn' 'real log set: the session'
# one core burnt: the report averages the busiest CPU of each row. The
# kernel's figures over the burn (/proc/stat, load_end) bound it: no less
# than the busiest CPU's average over the window (the average of maxima
# is at least the maximum of averages), no more than all CPUs' busy time
# on one (a migrating burn splits its core), each within 20 points for
# the 1 s rows at the session's edges. On an idle machine that is >= 80%;
# whatever else runs moves the bounds with it, and the burn may get only
# part of a core ($own CPU-s of 4).
b=$(printf '%s\n' "$out" | awk '/busiest CPU/ { sub("%", "", $(NF-3)); print $(NF-3) }')
hi=$(calc "$LOAD_CPU_ALL * $LOAD_NCPU > 100 ? 100 : $LOAD_CPU_ALL * $LOAD_NCPU")
within "real burn: busiest CPU avg $b% within the kernel's $LOAD_CPU_MAX% .. $hi% (+-20; burn used $own CPU-s of 4)" \
	"$b" "$(calc "$LOAD_CPU_MAX - 20")" "$(calc "$hi + 20")"
like "$(printf '%s\n' "$out" | grep Bottleneck)" 'CPU|Processor' 'real burn: a CPU verdict'

done_testing
