#!/bin/bash
# `perflog start` answers once the set exists and the collector answers,
# not after its first sample (issue 48: at the default interval of 5 s it
# returned after 7.6 s: the baseline is read at the first aligned
# deadline and the first sample an interval later). Judged by the order
# of two times, not a wall-clock bound: the moment start returned against
# the first sample's, the end of the set's first row (a row is stamped
# with the sample that closes it). The path it printed exists, has its
# files, and `perflog status` lists it before that first sample.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"
LOGS=$SCRATCH/logs

# the built-in settings: the default set every 5 s
dir=$($PERFLOG start -o $LOGS); st=$?
returned=$(date +%s.%N)
pid=$(collector_pid "$dir")
[ -n "$pid" ] && track_pid "$pid"
is "$st" 0 'start exits 0'
ok "the path it printed exists ($dir)" test -d "$dir"
ok 'its metadata and files are there' sh -c "test -s '$dir/perflog.meta' && ls '$dir'/Memory.rrd '$dir'/Processor-_Total.rrd >/dev/null"
ok 'every counter of the metadata has its file' sh -c "awk -F'\t' '\$1 == \"counter\" { print \$3 }' '$dir/perflog.meta' | sort -u | while read f; do test -f '$dir'/\"\$f\" || exit 1; done"
status=$($PERFLOG status)
ok 'status lists it' sh -c "printf '%s\n' '$status' | grep -qF '$dir'"
ok 'status answered before the first sample (0 samples)' sh -c "printf '%s\n' '$status' | grep -F '$dir' | awk '{ exit \$3 != 0 }'"

# the first sample: status counts it; the set's first row ends at it
wait_for 20 sh -c "$PERFLOG status | grep -F '$dir' | awk '{ exit \$3 < 1 }'"
$PERFLOG export "$dir" --csv $SCRATCH/a.csv
first=$(sed -n 2p $SCRATCH/a.csv | cut -d, -f1)
first_s=$(date -u -d "$first" +%s 2>/dev/null)
diag "start returned at $returned, the first row ends at $first ($first_s)"
ok 'the set has its first row' test -n "$first_s"
ok "start returned before the first sample's time ($returned < $first_s)" \
	awk -v a="$returned" -v b="${first_s:-0}" 'BEGIN { exit !(a < b) }'
last=$($PERFLOG status --json | tr -d ' \n' | grep -o '"last_sample":"[^"]*"' | head -1 | cut -d'"' -f4)
ok "and before the collector's first sample as status tells it ($last)" \
	awk -v a="$returned" -v b="$(date -u -d "${last:-1970-01-01}" +%s)" 'BEGIN { exit !(a < b) }'
ok 'stop' $PERFLOG stop "$dir"
ok 'the stopped set has its rows' test "$($PERFLOG export "$dir" --csv - | tail -n +2 | wc -l)" -ge 1
done_testing
